"""Run one submission in a bubblewrap sandbox.

What the student's code can see and do (see :func:`command`):

- the system (``/usr``), the Python installation, the virtual environment and
  the course's library, all read-only, at their usual paths;
- its own private folder, ``/home/student``: a copy of its notebook and the
  cases to run, and ``out/`` for the results. Nothing else of the machine:
  not the course folder (gradebook, ``source/``, other students), not ``/work``;
- no network (a network namespace of its own, only loopback), its own process
  tree, a user id of nobody;
- limits on memory (address space), CPU time, file size and open files
  (``prlimit``), on processes (a ``pids`` cgroup, where the machine offers
  one), and a wall-clock limit on the whole run.

If bubblewrap is missing or cannot start, :func:`check` raises
:class:`SandboxUnavailable`: grading stops, it never runs a submission unsandboxed.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
LIBRARY = ROOT / "perceptron_lib"
INSIDE = "/home/student"  # the submission's private folder, as the sandbox sees it
GRADING = "/opt/grading"  # this package (the runner and the probe), read-only


class SandboxUnavailable(RuntimeError):
    """No sandbox can start on this machine: grading must not go on."""


@dataclass(frozen=True)
class Limits:
    """What one submission may use."""

    memory_bytes: int = 3 * 2**30  # address space of each process
    cpu_seconds: int = 600  # CPU time of each process
    processes: int = 256
    file_bytes: int = 256 * 2**20  # largest file it may write
    open_files: int = 256
    wall_seconds: int = 900  # the whole run, kernel start to the last cell

    def describe_memory(self) -> str:
        return f"{self.memory_bytes / 2**30:g} GiB"


def _python_home() -> Path:
    return Path(os.path.realpath(sys.executable)).parent.parent


def command(work: Path, inner: list[str], limits: Limits) -> list[str]:
    """The bwrap command line running ``inner`` on the private folder ``work``."""
    venv = Path(sys.prefix)
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        raise SandboxUnavailable(
            "bubblewrap (bwrap) is not installed: `make grade` installs it "
            "(Debian package bubblewrap); nothing was graded"
        )
    arguments = [
        bwrap,
        "--unshare-all",  # network, processes, IPC, host name, users
        "--uid",
        "65534",
        "--gid",
        "65534",
        "--die-with-parent",
        "--new-session",
        "--ro-bind",
        "/usr",
        "/usr",
        "--symlink",
        "usr/bin",
        "/bin",
        "--symlink",
        "usr/lib",
        "/lib",
        "--symlink",
        "usr/lib64",
        "/lib64",
        "--symlink",
        "usr/sbin",
        "/sbin",
    ]
    for name in ("ld.so.cache", "localtime", "fonts", "mime.types", "ssl", "ca-certificates"):
        if Path("/etc", name).exists():
            arguments += ["--ro-bind", f"/etc/{name}", f"/etc/{name}"]
    # The private /tmp first, then the read-only binds: bwrap mounts in order, so a
    # course, library or environment that lives under /tmp (a clone in mktemp -d)
    # is bound on top of the empty /tmp instead of being hidden by it.
    arguments += ["--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"]
    python_home = _python_home()
    arguments += ["--ro-bind", str(python_home), str(python_home)]
    if not str(venv).startswith(str(python_home)):
        arguments += ["--ro-bind", str(venv), str(venv)]
    arguments += [
        "--ro-bind",
        str(LIBRARY),
        str(LIBRARY),
        "--ro-bind",
        str(HERE),
        GRADING,
        "--bind",
        str(work),
        INSIDE,
        "--chdir",
        INSIDE,
        "--clearenv",
        "--setenv",
        "HOME",
        f"{INSIDE}/home",
        "--setenv",
        "PATH",
        f"{venv}/bin:/usr/bin:/bin",
        "--setenv",
        "MPLBACKEND",
        "Agg",
        "--setenv",
        "MPLCONFIGDIR",
        "/tmp/matplotlib",
        "--setenv",
        "JUPYTER_RUNTIME_DIR",
        "/tmp/jupyter",
        "--setenv",
        "IPYTHONDIR",
        "/tmp/ipython",
        "--setenv",
        "OPENBLAS_NUM_THREADS",
        "1",
        "--setenv",
        "OMP_NUM_THREADS",
        "1",
        "--setenv",
        "PYDEVD_DISABLE_FILE_VALIDATION",
        "1",
        "--setenv",
        "PYTHONDONTWRITEBYTECODE",
        "1",
        "--setenv",
        "NUMBA_CACHE_DIR",
        f"{INSIDE}/numba",
        "--",
        "prlimit",
        f"--as={limits.memory_bytes}",
        f"--cpu={limits.cpu_seconds}",
        f"--nproc={limits.processes}",
        f"--fsize={limits.file_bytes}",
        f"--nofile={limits.open_files}",
        "--core=0",
        "--",
        *inner,
    ]
    return arguments


def _copy_numba_cache(target: Path) -> None:
    """Give the sandbox its own copy of the library's compiled loops.

    numba keeps them next to the library (``perceptron_lib/__pycache__``), which
    the sandbox cannot write, so it would compile them again, for half a minute,
    in every submission. Each sandbox gets a private copy, so that no submission
    can leave compiled code behind for the next one.
    """
    try:
        from numba.core.caching import _CacheLocator
    except ImportError:  # no numba: the loops run as Python
        return
    cached = [p for p in (LIBRARY / "__pycache__").glob("*") if p.suffix in (".nbi", ".nbc")]
    folder = target / _CacheLocator.get_suitable_cache_subpath(str(LIBRARY / "_loops.py"))
    folder.mkdir(parents=True, exist_ok=True)
    for path in cached:
        shutil.copyfile(path, folder / path.name)
    for path in (target, folder):
        os.chmod(path, 0o777)


PIDS = Path("/sys/fs/cgroup/pids")  # cgroup v1's process-count controller


def _process_cap(limit: int):
    """A cgroup holding at most ``limit`` processes, or None where none can be made.

    ``prlimit --nproc`` counts the processes of a user id over the whole machine
    (and not at all for root), so the cap that holds is a cgroup's ``pids.max``.
    """
    try:
        group = Path(tempfile.mkdtemp(prefix="grading-", dir=PIDS))
        (group / "pids.max").write_text(str(limit))
        return group
    except OSError:
        return None


@dataclass
class Run:
    returncode: int | None
    timed_out: bool
    log: str


def run(work: Path, inner: list[str], limits: Limits) -> Run:
    """Run ``inner`` in the sandbox on ``work``; kill it all after ``wall_seconds``."""
    (work / "home").mkdir(exist_ok=True)
    (work / "out").mkdir(exist_ok=True)
    os.chmod(work, 0o777)  # nobody, the sandbox's user, writes here
    for path in (work / "home", work / "out"):
        os.chmod(path, 0o777)
    _copy_numba_cache(work / "numba")
    group = _process_cap(limits.processes)

    def enter_group():  # in the child, before bwrap starts: all it starts stays inside
        if group is not None:
            (group / "cgroup.procs").write_text(str(os.getpid()))

    process = subprocess.Popen(
        command(work, inner, limits),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
        preexec_fn=enter_group,
    )
    try:
        log, _ = process.communicate(timeout=limits.wall_seconds)
        timed_out = False
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        log, _ = process.communicate()
        timed_out = True
    if group is not None:
        for _ in range(50):  # the sandbox's processes are gone with its pid namespace
            try:
                group.rmdir()
                break
            except OSError:
                time.sleep(0.1)
    return Run(process.returncode, timed_out, log.decode(errors="replace")[-5000:])


def check(work: Path) -> None:
    """Start the sandbox once; raise :class:`SandboxUnavailable` if it cannot."""
    probe = [sys.executable, "-c", "import perceptron_lib, nbclient; print('sandbox ready')"]
    try:
        result = run(work, probe, Limits(wall_seconds=120))
    except OSError as error:
        raise SandboxUnavailable(f"bubblewrap could not start: {error}") from error
    if result.returncode != 0 or "sandbox ready" not in result.log:
        raise SandboxUnavailable(
            "the bubblewrap sandbox could not start, so nothing was graded "
            f"(exit code {result.returncode}): {result.log.strip()[-500:]}"
        )
