"""Training time of perceptron_lib.Perceptron against scikit-learn's Perceptron.

Run with ``make bench``. The estimators are timed alternately in this one
process, on the same data with the same settings (``eta=1``, no shuffling), and
their weights are checked to be identical before any time is reported. Each
result is a ratio of median times over several repeats: a measurement, not a
test, and on a shared machine it moves from run to run (the load average is
printed next to it).

Columns: scikit-learn; ours with the plain loop (``_loops.perceptron_epoch``,
the readable reference); ours as shipped (speculative epochs,
:mod:`perceptron_lib.loops.speculative`); the speed-up of the latter over
scikit-learn.

Regimes:
- separable / noisy 10%: 100,000 x 100, 5 epochs (labels from a random
  hyperplane with a margin; 10% of them flipped for "noisy");
- separable 50 epochs: the same data, the long run where mistakes get rare;
- in cache: 10,000 x 50 (4 MB), separable, 50 epochs.

Beside them, with the same columns (the plain loop is the dense reference, so it
is left out where it does not apply):
- multiclass: 50,000 x 50, 5 classes, 5 epochs, one-vs-rest on both sides;
- sparse text-sized: 20,000 x 50,000 CSR at 0.1 % density, 5 epochs, without an
  intercept: on sparse input scikit-learn damps the intercept's updates by 0.01
  (its ``SPARSE_INTERCEPT_DECAY``), a different run, while the weights without one
  are the same run on both sides.

Then the time of one mistake-free epoch: the plain loop (the single-thread
floor: every activation summed in the exact order), the speculative epoch, the
speculative epoch allowed to use threads, and ``X @ w`` with all threads (which
sums in another order, so its activations differ in the last bits: counted).

Then ``partial_fit`` against one epoch of ``fit`` (same data, same weights, in
thread CPU time): ``partial_fit`` does not scan ``X`` for NaN and infinity first,
it runs its epoch on a copy of the weights and commits it only if it finished.
And ``n_jobs``: the 5-class run with ``n_jobs=1`` and ``n_jobs=2``, ours and
scikit-learn's, the four weights checked identical first; wall time (what
threads can shorten) beside the CPU time of the whole process. On a loaded
machine that speed-up hides; ``benchmarks/gil_probe.py`` shows the loops release
the GIL whatever the load.

Last, the cold start: a first fit in a fresh process with an empty numba cache
(every loop it runs is compiled), then again with the cache that run filled,
stage by stage (imports, then the fit), in CPU seconds (``time.process_time``)
and wall seconds, and the child process's whole user + sys time
(``getrusage(RUSAGE_CHILDREN)``). ``python benchmarks/bench_perceptron.py
--cold-start`` runs this part alone (``--partial-fit``, ``--n-jobs`` likewise).
"""

from __future__ import annotations

import contextlib
import os
import resource
import subprocess
import sys
import tempfile
import time
import warnings

import numpy as np
from scipy import sparse
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import Perceptron as SklearnPerceptron

from perceptron_lib import Perceptron
from perceptron_lib import perceptron as perceptron_module
from perceptron_lib.loops import plain as _loops
from perceptron_lib.loops import speculative as _speculative

REPEATS = 7


def make_data(noise: float, n_samples: int = 100_000, n_features: int = 100, seed: int = 0):
    rng = np.random.default_rng(seed)
    w = rng.normal(size=n_features)
    w /= np.linalg.norm(w)
    X = rng.normal(size=(2 * n_samples, n_features))
    scores = X @ w + 0.3
    keep = np.abs(scores) > 0.05  # a margin around the separating hyperplane
    X, scores = X[keep][:n_samples], scores[keep][:n_samples]
    y = np.where(scores > 0, 1, -1)
    flip = rng.random(n_samples) < noise
    y[flip] *= -1
    return np.ascontiguousarray(X), y


@contextlib.contextmanager
def plain_loop():
    """Make ``Perceptron`` run the plain reference loop instead of speculative epochs."""
    shipped = perceptron_module.perceptron_epoch
    perceptron_module.perceptron_epoch = _loops.perceptron_epoch
    try:
        yield
    finally:
        perceptron_module.perceptron_epoch = shipped


@contextlib.contextmanager
def threads_allowed():
    shipped = _speculative.USE_THREADS
    _speculative.USE_THREADS = True
    try:
        yield
    finally:
        _speculative.USE_THREADS = shipped


def median_times(fits: dict, repeats: int = REPEATS):
    """Time the fits alternately, so that all see the same machine load."""
    times = {name: [] for name in fits}
    models = {}
    for _ in range(repeats):
        for name, fit in fits.items():
            start = time.perf_counter()
            models[name] = fit()
            times[name].append(time.perf_counter() - start)
    return {name: float(np.median(t)) for name, t in times.items()}, models


# Run in a fresh interpreter: the time of each stage of a first fit, CPU (this process)
# and wall, printed as "stage cpu wall" lines.
FIRST_FIT = """
import time
marks = [("start", time.process_time(), time.perf_counter())]
def mark(stage):
    marks.append((stage, time.process_time(), time.perf_counter()))
import numpy as np
mark("import numpy")
import scipy.sparse
mark("import scipy.sparse")
import sklearn.base
mark("import scikit-learn")
import numba
mark("import numba")
from perceptron_lib import Perceptron
mark("import perceptron_lib")
import warnings
warnings.simplefilter("ignore")
Perceptron(shuffle=False, max_iter=1).fit(np.eye(2), [0, 1])
mark("first fit")
for (_, c0, w0), (stage, c1, w1) in zip(marks, marks[1:]):
    print(f"{stage}|{c1 - c0}|{w1 - w0}")
"""


def first_fit_stages(cache: str) -> tuple[list[tuple[str, float, float]], float]:
    """Stages of a first fit in a fresh process with numba's cache in ``cache``.

    Returns ``[(stage, cpu seconds, wall seconds), ...]`` and the child's whole
    CPU time (user + sys, from ``getrusage(RUSAGE_CHILDREN)``, interpreter start
    included). CPU time, unlike wall time, hardly moves with the machine's load.
    """
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(
        [sys.executable, "-c", FIRST_FIT],
        env={**os.environ, "NUMBA_CACHE_DIR": cache},
        capture_output=True,
        text=True,
        check=True,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    child_cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    stages = []
    for line in out.stdout.splitlines():
        stage, cpu, wall = line.split("|")
        stages.append((stage, float(cpu), float(wall)))
    return stages, child_cpu


def cold_start() -> None:
    """Print a first fit's stages with an empty numba cache (cold), then with it filled (warm)."""
    with tempfile.TemporaryDirectory() as cache:
        runs = {"cold": first_fit_stages(cache), "warm": first_fit_stages(cache)}
    print("\nfresh process, first fit of Perceptron: empty numba cache (cold), then the cache")
    print(f"the cold run filled (warm); seconds of CPU (and wall) per stage ({load()}):")
    print(f"  {'stage':<22} {'cold cpu':>9} {'(wall)':>8} {'warm cpu':>9} {'(wall)':>8}")
    cold, warm = runs["cold"][0], runs["warm"][0]
    for (stage, c_cpu, c_wall), (_, w_cpu, w_wall) in zip(cold, warm, strict=True):
        print(f"  {stage:<22} {c_cpu:>9.2f} {c_wall:>8.2f} {w_cpu:>9.2f} {w_wall:>8.2f}")
    for name in ("cpu", "wall"):
        column = 1 if name == "cpu" else 2
        cold_total = sum(stage[column] for stage in cold)
        warm_total = sum(stage[column] for stage in warm)
        print(f"  {'imports + fit, ' + name:<22} {cold_total:>9.2f} {'':>8} {warm_total:>9.2f}")
    print(
        f"  {'whole process, cpu':<22} {runs['cold'][1]:>9.2f} {'':>8} {runs['warm'][1]:>9.2f}"
        "   (user + sys, interpreter start and exit included)"
    )


def load() -> str:
    return f"load {os.getloadavg()[0]:.2f}"


def warm_up_rows(X) -> int:
    """Rows enough for a fit to run (so compile) the loop the full data will run.

    Below ``_speculative.SPECULATE_MIN_WORK`` multiply-adds an epoch runs the plain
    loop, so a warm-up on a few rows would leave the speculative epoch to compile
    inside the first timed fit.
    """
    return min(X.shape[0], max(200, -(-_speculative.SPECULATE_MIN_WORK // X.shape[1])))


def compare(regime: str, X, y, epochs: int) -> None:
    """Time scikit-learn, our plain loop and our shipped fit; check identical weights."""
    ours = Perceptron(eta=1.0, shuffle=False, max_iter=epochs)
    theirs = SklearnPerceptron(
        eta0=1.0, penalty=None, alpha=0.0, shuffle=False, tol=None, max_iter=epochs
    )

    def fit_plain():
        with plain_loop():
            return Perceptron(eta=1.0, shuffle=False, max_iter=epochs).fit(X, y)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        n = warm_up_rows(X)
        ours.fit(X[:n], y[:n])  # compile (or load the cached compilation) first
        fit_plain()
        t, models = median_times(
            {
                "sklearn": lambda: theirs.fit(X, y),
                "plain": fit_plain,
                "ours": lambda: ours.fit(X, y),
            }
        )
    check_identical(regime, models)
    report(regime, models["ours"], t)


def check_identical(regime: str, models: dict) -> None:
    """Stop before any time is printed unless every fit has scikit-learn's weights."""
    reference = models["sklearn"]
    for name, fitted in models.items():
        if name == "sklearn":
            continue
        coef = reference.coef_ if np.ndim(fitted.coef_) == 2 else reference.coef_[0]
        intercept = reference.intercept_ if np.ndim(fitted.coef_) == 2 else reference.intercept_[0]
        if not (
            np.array_equal(fitted.coef_, coef) and np.array_equal(fitted.intercept_, intercept)
        ):
            raise SystemExit(f"{regime}: {name}'s weights differ from scikit-learn's; no timing")


def report(regime: str, fitted, t: dict) -> None:
    plain = f"{t['plain'] * 1e3:>8.1f}ms" if "plain" in t else f"{'-':>10}"
    print(
        f"{regime:<20} {fitted.n_iter_:>6} {int(fitted.mistakes_per_epoch_.sum()):>9,} "
        f"{t['sklearn'] * 1e3:>8.1f}ms {plain} {t['ours'] * 1e3:>8.1f}ms "
        f"{t['sklearn'] / t['ours']:>7.2f}x  ({load()})"
    )


def compare_ours_only(regime: str, X, y, epochs: int, fit_intercept: bool = True) -> None:
    """Time scikit-learn and our shipped fit (multiclass, sparse); check identical weights."""
    ours = Perceptron(eta=1.0, shuffle=False, max_iter=epochs, fit_intercept=fit_intercept)
    theirs = SklearnPerceptron(
        eta0=1.0,
        penalty=None,
        alpha=0.0,
        shuffle=False,
        tol=None,
        max_iter=epochs,
        fit_intercept=fit_intercept,
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        n = warm_up_rows(X)
        ours.fit(X[:n], y[:n])  # compile (or load the cached compilation) first
        t, models = median_times(
            {"sklearn": lambda: theirs.fit(X, y), "ours": lambda: ours.fit(X, y)}
        )
    check_identical(regime, models)
    report(regime, models["ours"], t)


def make_multiclass(n_samples=50_000, n_features=50, n_classes=5, seed=0):
    """Classes from the largest of ``n_classes`` random linear scores."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n_samples, n_features))
    y = np.argmax(X @ rng.normal(size=(n_features, n_classes)), axis=1)
    return X, y


def make_text(n_samples=20_000, n_features=50_000, density=0.001, seed=0):
    """Word counts (1 to 3) of a sparse CSR matrix, labels from a random hyperplane."""
    rng = np.random.default_rng(seed)
    X = sparse.random(n_samples, n_features, density=density, format="csr", random_state=rng)
    X.data = np.ceil(3 * X.data)
    y = np.where(X @ rng.normal(size=n_features) > 0, 1, -1)
    return X, y


def mistake_free_epoch(label: str, X, y) -> None:
    """Time one epoch that makes no mistake, every way it can be run."""
    converged = Perceptron(shuffle=False, max_iter=1000).fit(X, y)
    y_signed = np.where(y == 1, 1.0, -1.0)
    w, b = converged.coef_.copy(), float(converged.intercept_)
    order, mistakes = np.arange(len(y)), np.zeros(len(y), dtype=bool)

    def speculative_with_threads():
        with threads_allowed():
            _speculative.perceptron_epoch(X, y_signed, order, w, b, 1.0, True, mistakes)

    ways = {
        "plain loop (1 thread)": lambda: _loops.perceptron_epoch(
            X, y_signed, order, w, b, 1.0, True, mistakes
        ),
        "speculative": lambda: _speculative.perceptron_epoch(
            X, y_signed, order, w, b, 1.0, True, mistakes
        ),
        "speculative, threads": speculative_with_threads,
        "X @ w (BLAS, all threads)": lambda: X @ w + b,
    }
    for way in ways.values():
        way()
    t, _ = median_times(ways, repeats=15)
    assert not mistakes.any()
    exact = _speculative_activations(X, w, b)
    differ = int(np.count_nonzero(X @ w + b != exact))
    print(f"\nmistake-free epoch, {label} ({load()}):")
    for name in ways:
        print(
            f"  {name:<27} {t[name] * 1e3:>8.3f}ms  {t['plain loop (1 thread)'] / t[name]:>5.2f}x"
        )
    print(f"  activations of X @ w that differ from the exact-order sum: {differ:,} of {len(y):,}")


def partial_fit_against_fit(X, y) -> None:
    """One ``partial_fit`` (a first call) against ``fit`` with ``max_iter=1``, in thread CPU."""
    fits = {
        "fit, 1 epoch": lambda: Perceptron(shuffle=False, max_iter=1).fit(X, y),
        "partial_fit": lambda: Perceptron(shuffle=False).partial_fit(X, y),
    }
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        for fit in fits.values():
            fit()  # compile (or load the cached compilation) first
        times = {name: [] for name in fits}
        for _ in range(2 * REPEATS + 1):
            for name, fit in fits.items():
                start = time.thread_time()
                model = fit()
                times[name].append(time.thread_time() - start)
                if name == "fit, 1 epoch":
                    reference = model
                elif not np.array_equal(model.coef_, reference.coef_):
                    raise SystemExit("partial_fit's weights differ from fit's; no timing")
    t = {name: float(np.median(v)) for name, v in times.items()}
    print(f"\npartial_fit against one epoch of fit, {X.shape[0]:,} x {X.shape[1]}, thread CPU")
    print(f"(median of {2 * REPEATS + 1}, alternated; {load()}):")
    for name in fits:
        print(f"  {name:<14} {t[name] * 1e3:>8.1f}ms")
    print(f"  partial_fit / fit epoch: {t['partial_fit'] / t['fit, 1 epoch']:.2f}x")


def n_jobs_runs(X, y, epochs: int = 5) -> None:
    """The 5-class run with n_jobs=1 and 2, ours and scikit-learn's: wall and process CPU."""

    def ours(n_jobs):
        return lambda: Perceptron(shuffle=False, max_iter=epochs, n_jobs=n_jobs).fit(X, y)

    def theirs(n_jobs):
        return lambda: SklearnPerceptron(
            eta0=1.0, penalty=None, alpha=0.0, shuffle=False, tol=None, max_iter=epochs,
            n_jobs=n_jobs,
        ).fit(X, y)  # fmt: skip

    fits = {"sklearn": theirs(1), "sklearn n_jobs=2": theirs(2), "ours": ours(1)}
    fits["ours n_jobs=2"] = ours(2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        models = {name: fit() for name, fit in fits.items()}  # and compile
        check_identical("n_jobs", models)
        wall = {name: [] for name in fits}
        cpu = {name: [] for name in fits}
        for _ in range(REPEATS):
            for name, fit in fits.items():
                start_wall, start_cpu = time.perf_counter(), time.process_time()
                fit()
                wall[name].append(time.perf_counter() - start_wall)
                cpu[name].append(time.process_time() - start_cpu)
    print(f"\none-vs-rest, {X.shape[0]:,} x {X.shape[1]}, 5 classes, {epochs} epochs, same")
    print(f"weights for all four; median of {REPEATS}, alternated ({load()}):")
    # CPU / wall above 1 means two threads ran at once: the loops released the GIL.
    print(f"  {'':<18} {'wall':>9} {'process CPU':>12} {'CPU/wall':>9} {'speed-up (wall)':>16}")
    for name in fits:
        w, c = float(np.median(wall[name])), float(np.median(cpu[name]))
        one = float(np.median(wall[name.removesuffix(" n_jobs=2")]))
        gain = f"{one / w:>15.2f}x" if name.endswith("n_jobs=2") else ""
        print(f"  {name:<18} {w * 1e3:>7.1f}ms {c * 1e3:>10.1f}ms {c / w:>9.2f} {gain}")


def _speculative_activations(X, w, b):
    out = np.empty(X.shape[0])
    _speculative.block_activations(X, np.arange(X.shape[0]), 0, X.shape[0], w, b, out, True)
    return out


def main() -> None:
    print(f"Perceptron training, dense float64, eta=1, no shuffling; median of {REPEATS} runs.")
    print(f"{os.cpu_count()} CPUs, {load()}.\n")
    print(
        f"{'regime':<20} {'epochs':>6} {'updates':>9} {'sklearn':>10} {'plain':>10} "
        f"{'ours':>10} {'speed-up':>8}"
    )
    separable = make_data(0.0)
    compare("separable", *separable, epochs=5)
    compare("noisy 10%", *make_data(0.1), epochs=5)
    compare("separable 50 epochs", *separable, epochs=50)
    in_cache = make_data(0.0, n_samples=10_000, n_features=50)
    compare("in cache, 50 epochs", *in_cache, epochs=50)
    compare_ours_only("multiclass (5)", *make_multiclass(), epochs=5)
    compare_ours_only("sparse 0.1%, no b", *make_text(), epochs=5, fit_intercept=False)
    mistake_free_epoch("100,000 x 100 (80 MB)", *separable)
    mistake_free_epoch("10,000 x 50 (4 MB, in cache)", *in_cache)
    partial_fit_against_fit(*separable)
    n_jobs_runs(*make_multiclass())
    cold_start()


# One part alone: python benchmarks/bench_perceptron.py --partial-fit (or --n-jobs, --cold-start).
PARTS = {
    "--cold-start": cold_start,
    "--partial-fit": lambda: partial_fit_against_fit(*make_data(0.0)),
    "--n-jobs": lambda: n_jobs_runs(*make_multiclass()),
}

if __name__ == "__main__":
    if sys.argv[1:] and all(arg in PARTS for arg in sys.argv[1:]):
        for arg in sys.argv[1:]:
            PARTS[arg]()
    else:
        main()
