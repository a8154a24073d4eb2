"""Re-run the notebook tests under other processors' arithmetic.

A number computed through BLAS (``X @ w``, ``np.dot``, a solver) is rounded
according to the kernel OpenBLAS picks for the processor it runs on, and to how
many threads split the work. Each kernel family adds the partial sums of a dot
product in its own order, so the last bits of such a number differ from one
machine to the next. A notebook that prints them passes where it was executed
and fails elsewhere.

OpenBLAS is built with ``DYNAMIC_ARCH``: ``OPENBLAS_CORETYPE`` forces another
kernel family, any the processor can run, and ``OPENBLAS_NUM_THREADS=1`` forces
one thread. This script picks two such set-ups unlike the machine's default,
checks in a fresh process that OpenBLAS really took each one (otherwise the run
would prove nothing), then runs nbval on the given notebooks under both, side by
side. Every saved text output must match, as in ``make notebooks``.

Usage (``make notebooks-portable``)::

    python tests/arithmetic.py NOTEBOOK...       # run nbval under the set-ups
    python tests/arithmetic.py --list            # only print the chosen set-ups
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Kernel families OpenBLAS accepts in OPENBLAS_CORETYPE on x86-64, with the CPU
# flags each needs (as /proc/cpuinfo spells them: SSE3 is "pni"). Prescott uses
# only SSE3 (no AVX, no fused multiply-add), the most unlike any machine made since 2013.
FAMILY_FLAGS = {
    "Prescott": {"pni"},
    "Nehalem": {"sse4_2"},
    "SandyBridge": {"avx"},
    "Haswell": {"avx2", "fma"},
    "SkylakeX": {"avx512f", "avx512cd", "avx512bw", "avx512dq", "avx512vl"},
}
# What threadpoolctl reports for a forced family, where the name differs.
REPORTED_AS = {"Prescott": "Katmai", "SandyBridge": "Sandybridge"}
# The second set-up: a vector kernel, the first of these the CPU runs that is not
# already its default.
VECTOR_FAMILIES = ("Haswell", "SkylakeX", "SandyBridge", "Nehalem")

NBVAL = [
    "-m",
    "pytest",
    "-q",
    "-o",
    "addopts=",
    "-p",
    "no:cacheprovider",
    "--nbval",
    "--nbval-current-env",
    "--nbval-sanitize-with",
    str(ROOT / "tests" / "nbval_sanitize.cfg"),
]


def cpu_flags(cpuinfo: str) -> set[str]:
    """The feature flags of the first processor listed in ``/proc/cpuinfo``'s text."""
    for line in cpuinfo.splitlines():
        if line.startswith("flags"):
            return set(line.split(":", 1)[1].split())
    return set()


def pick_setups(flags: set[str], default_kernel: str) -> list[dict[str, str]]:
    """Two environments, each forcing arithmetic unlike ``default_kernel``'s.

    The first forces the oldest kernel the CPU runs (Prescott) on one thread; the
    second a vector kernel other than the default, on the default threads.

    >>> for setup in pick_setups({"pni", "sse4_2", "avx", "avx2", "fma"}, "Haswell"):
    ...     print(describe(setup))
    OPENBLAS_CORETYPE=Prescott OPENBLAS_NUM_THREADS=1
    OPENBLAS_CORETYPE=SandyBridge
    >>> pick_setups(set(), "Haswell")
    Traceback (most recent call last):
    ...
    RuntimeError: this CPU runs no OpenBLAS kernel family other than its default (Haswell)
    """
    runnable = [name for name, needs in FAMILY_FLAGS.items() if needs <= flags]
    others = [name for name in runnable if reported_name(name) != default_kernel]
    if "Prescott" not in others:
        raise RuntimeError(
            f"this CPU runs no OpenBLAS kernel family other than its default ({default_kernel})"
        )
    vector = next((name for name in VECTOR_FAMILIES if name in others), "Nehalem")
    return [
        {"OPENBLAS_CORETYPE": "Prescott", "OPENBLAS_NUM_THREADS": "1"},
        {"OPENBLAS_CORETYPE": vector},
    ]


def reported_name(family: str) -> str:
    """The kernel name threadpoolctl reports once ``family`` is forced."""
    return REPORTED_AS.get(family, family)


def blas_kernels(env: dict[str, str]) -> list[tuple[str, int]]:
    """The (kernel, threads) of every OpenBLAS NumPy and SciPy load, in a fresh process."""
    probe = (
        "import json, numpy, scipy.linalg\n"
        "from threadpoolctl import threadpool_info\n"
        "print(json.dumps([(i['architecture'], i['num_threads'])\n"
        "                  for i in threadpool_info() if i['internal_api'] == 'openblas']))"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe],
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return [tuple(item) for item in json.loads(out)]


def describe(setup: dict[str, str]) -> str:
    return " ".join(f"{name}={value}" for name, value in setup.items())


def chosen_setups() -> tuple[str, list[dict[str, str]]]:
    """The default kernel and the two set-ups, each checked to be in force."""
    clean = {name: value for name, value in os.environ.items() if not name.startswith("OPENBLAS_")}
    default = blas_kernels({})
    if not default:
        raise RuntimeError("NumPy and SciPy load no OpenBLAS here: nothing to force")
    default_kernel = default[0][0]
    flags = cpu_flags(Path("/proc/cpuinfo").read_text())
    setups = pick_setups(flags, default_kernel)
    for setup in setups:
        kernels = blas_kernels({**clean, **setup})
        wanted = reported_name(setup["OPENBLAS_CORETYPE"])
        threads = int(setup.get("OPENBLAS_NUM_THREADS", 0))
        if any(name != wanted or (threads and n != threads) for name, n in kernels):
            raise RuntimeError(f"{describe(setup)} was not taken: OpenBLAS reports {kernels}")
    return default_kernel, setups


def run_nbval(setup: dict[str, str], notebooks: list[str], log: Path) -> tuple[int, float]:
    """Run nbval on ``notebooks`` under ``setup``, output to ``log``; (exit code, seconds)."""
    env = {name: value for name, value in os.environ.items() if not name.startswith("OPENBLAS_")}
    start = time.perf_counter()
    with log.open("w") as out:
        code = subprocess.run(
            [sys.executable, *NBVAL, *notebooks],
            env={**env, **setup},
            stdout=out,
            stderr=subprocess.STDOUT,
            cwd=ROOT,
        ).returncode
    return code, time.perf_counter() - start


def main(argv: list[str]) -> int:
    default_kernel, setups = chosen_setups()
    print(f"OpenBLAS's default here: {default_kernel}")
    for setup in setups:
        print(f"forced and checked: {describe(setup)}")
    if argv == ["--list"]:
        return 0
    if not argv:
        print("usage: python tests/arithmetic.py NOTEBOOK... | --list", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="arithmetic-") as folder:
        logs = [Path(folder) / f"setup{k}.log" for k in range(len(setups))]
        # Side by side: each run is mostly one Python process waiting on one core.
        with ThreadPoolExecutor(len(setups)) as pool:
            results = list(pool.map(run_nbval, setups, [argv] * len(setups), logs))
        failed = 0
        for setup, log, (code, seconds) in zip(setups, logs, results, strict=True):
            text = log.read_text()
            summary = text.strip().splitlines()[-1] if text.strip() else "(no output)"
            print(f"{describe(setup)}: {summary} [{seconds:.0f} s]")
            if code != 0:
                failed += 1
                print(text[-20000:])
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
