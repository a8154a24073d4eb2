"""Speculative epochs give the plain loop's run bit for bit, in every mode and corner."""

from __future__ import annotations

import subprocess
import sys
import threading
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_array_equal
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import Perceptron as SklearnPerceptron

from perceptron_lib import AveragedPerceptron, Perceptron, training_trace
from perceptron_lib.experiments import speculation
from perceptron_lib.loops import plain as _loops
from perceptron_lib.loops import speculative as _speculative


def separable(n, d, seed=0, noise=0.0):
    """Gaussian examples, labels from a random hyperplane (a share ``noise`` flipped)."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = np.where(X @ rng.normal(size=d) + 0.2 > 0, 1.0, -1.0)
    y[rng.random(n) < noise] *= -1
    return X, y


def binary_with_ties(n, d, seed=0):
    """0/1 features and an integer-valued rule: activations are often exactly 0."""
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 2, size=(n, d)).astype(float)
    y = np.where(X[:, 0] + X[:, 1] - X[:, 2] > 0, 1.0, -1.0)
    return X, y


def run_epochs(
    epoch, X, y, epochs, eta=1.0, fit_intercept=True, shuffle_seed=None, steps=False, w0=None
):
    """Run ``epoch`` (plain or speculative) several times; return everything it produced."""
    n, d = X.shape
    rng = np.random.default_rng(shuffle_seed)
    w, b, record = (np.zeros(d) if w0 is None else w0.copy()), 0.0, []
    for _ in range(epochs):
        order = rng.permutation(n) if shuffle_seed is not None else np.arange(n)
        mistakes = np.zeros(n, dtype=bool)
        trace = np.empty((n, d + 2)) if steps else None
        b = epoch(X, y, order, w, b, eta, fit_intercept, mistakes, trace)
        record.append((mistakes, trace))
    return w, b, record


def run_averaged(epoch, X, y, epochs, eta=1.0, fit_intercept=True, steps=False):
    n, d = X.shape
    w, u, b, beta, count, record = np.zeros(d), np.zeros(d), 0.0, 0.0, 1.0, []
    for _ in range(epochs):
        mistakes = np.zeros(n, dtype=bool)
        trace = np.empty((n, d + 2)) if steps else None
        b, beta, count = epoch(
            X, y, np.arange(n), w, b, u, beta, count, eta, fit_intercept, mistakes, trace
        )
        record.append((mistakes, trace))
    return w, u, b, beta, count, record


def assert_same_run(a, b):
    """Weights, bias and every epoch's mistakes (and step record) identical, bit for bit."""
    *scalars_a, record_a = a
    *scalars_b, record_b = b
    for x, z in zip(scalars_a, scalars_b, strict=True):
        assert_array_equal(np.asarray(x), np.asarray(z), strict=True)
    for (mistakes_a, steps_a), (mistakes_b, steps_b) in zip(record_a, record_b, strict=True):
        assert_array_equal(mistakes_a, mistakes_b)
        if steps_a is not None:
            assert_array_equal(steps_a, steps_b)


DATA = {
    "separable": lambda: separable(600, 7),
    "noisy": lambda: separable(600, 7, noise=0.1),
    "binary_ties": lambda: binary_with_ties(300, 5),
    "one_feature": lambda: separable(200, 1, seed=3),
}


@pytest.mark.parametrize("name", DATA)
@pytest.mark.parametrize("eta", [1.0, 0.1])
@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("shuffle_seed", [None, 4])
def test_perceptron_epochs_identical_to_plain_loop(name, eta, fit_intercept, shuffle_seed):
    X, y = DATA[name]()
    args = (X, y, 6, eta, fit_intercept, shuffle_seed, True)
    plain = run_epochs(_loops.perceptron_epoch, *args)
    assert_same_run(plain, run_epochs(_speculative.perceptron_epoch, *args))
    # Without steps too (the compiled loop is specialised for steps=None).
    assert_same_run(
        run_epochs(_loops.perceptron_epoch, *args[:-1]),
        run_epochs(_speculative.perceptron_epoch, *args[:-1]),
    )


@pytest.mark.parametrize("name", DATA)
@pytest.mark.parametrize("eta", [1.0, 0.1])
@pytest.mark.parametrize("fit_intercept", [True, False])
def test_averaged_epochs_identical_to_plain_loop(name, eta, fit_intercept):
    X, y = DATA[name]()
    for steps in (True, False):
        plain = run_averaged(_loops.averaged_perceptron_epoch, X, y, 5, eta, fit_intercept, steps)
        spec = run_averaged(
            _speculative.averaged_perceptron_epoch, X, y, 5, eta, fit_intercept, steps
        )
        assert_same_run(plain, spec)


def test_the_data_actually_speculates():
    """The cases above go through blocks, restarts and the tail after the last block."""
    X, y = separable(600, 7)
    stats = np.zeros(len(_speculative.STAT_NAMES), dtype=np.int64)
    w, b = np.zeros(7), 0.0
    for _ in range(6):
        b = _speculative.perceptron_epoch(
            X, y, np.arange(600), w, b, 1.0, True, np.zeros(600, bool), None, stats
        )
    counts = dict(zip(_speculative.STAT_NAMES, stats.tolist(), strict=True))
    assert counts["blocks"] > 20 and counts["restarts"] > 5 and counts["wasted"] > 0


@pytest.mark.parametrize("n", [0, 1, 2, 3, 5, 16, 17, 31, 33, 47, 48, 49, 50])
def test_tiny_and_block_edge_sizes(n):
    """n smaller than a block, 0/1/2 examples left after a block, a block cut short."""
    X, y = separable(max(n, 1), 3, seed=n)
    X, y = X[:n], y[:n]
    args = (X, y, 4, 1.0, True, None, True)
    assert_same_run(
        run_epochs(_loops.perceptron_epoch, *args),
        run_epochs(_speculative.perceptron_epoch, *args),
    )


def _mistake_at(position, n=200):
    """Separated data whose second epoch makes one mistake, at ``position``."""
    X = np.ones((n, 2))
    X[:, 0] = np.linspace(1.0, 2.0, n)
    y = np.ones(n)
    X[position] = [-1.0, 1.0]
    y[position] = 1.0
    return X, y


@pytest.mark.parametrize(
    "position",
    # plain stretch 0..15, then blocks of 32 from 16: first, second, last, next block.
    [15, 16, 17, 47, 48, 79, 80, 199],
)
def test_mistake_exactly_at_block_boundaries(position):
    X, y = _mistake_at(position)
    w = np.array([1.0, 0.0])  # right on every example but the one at ``position``
    for epoch in (_loops.perceptron_epoch, _speculative.perceptron_epoch):
        weights = w.copy()
        mistakes = np.zeros(len(y), bool)
        steps = np.empty((len(y), 4))
        epoch(X, y, np.arange(len(y)), weights, 0.0, 1.0, True, mistakes, steps)
        if epoch is _loops.perceptron_epoch:
            expected = (weights, mistakes, steps)
        else:
            assert np.flatnonzero(mistakes).tolist() == [position]
            for got, want in zip((weights, mistakes, steps), expected, strict=True):
                assert_array_equal(got, want)


def python_epoch(X, y, order, w, b, eta, fit_intercept, mistakes, steps):
    """The speculative epoch's Python original, scoring four examples at a time."""
    out = np.empty(order.shape[0])
    _speculative._start_threading_layer()  # as the public wrapper does
    loop = _speculative._speculative_perceptron_epoch.py_func
    return loop(X, y, order, w, b, eta, fit_intercept, mistakes, steps, out, True, None, None)


def test_python_mode_identical_to_compiled():
    """The loops' Python originals (py_func) give the compiled run's bits."""
    X, y = separable(150, 4, noise=0.05)
    for fit_intercept in (True, False):
        args = (X, y, 3, 0.1, fit_intercept, 1, True)
        python = run_epochs(python_epoch, *args)
        assert_same_run(run_epochs(_speculative.perceptron_epoch, *args), python)
        assert_same_run(run_epochs(_loops.perceptron_epoch, *args), python)


def test_without_numba_at_all():
    """With NUMBA_DISABLE_JIT=1 everything runs as Python and the weights are the same."""
    code = (
        "import numpy as np\n"
        "from perceptron_lib import Perceptron, AveragedPerceptron\n"
        "rng = np.random.default_rng(0)\n"
        "X = rng.normal(size=(300, 4)); y = X[:, 0] - X[:, 1] > 0.1\n"
        "for cls in (Perceptron, AveragedPerceptron):\n"
        "    m = cls(shuffle=False, max_iter=4).fit(X, y)\n"
        "    print(repr(m.coef_.tolist()), repr(float(m.intercept_)))\n"
    )
    env = {"NUMBA_DISABLE_JIT": "1", "PYTHONWARNINGS": "ignore"}
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    ).stdout.splitlines()
    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 4))
    y = X[:, 0] - X[:, 1] > 0.1
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        here = [
            f"{cls(shuffle=False, max_iter=4).fit(X, y).coef_.tolist()!r} "
            f"{float(cls(shuffle=False, max_iter=4).fit(X, y).intercept_)!r}"
            for cls in (Perceptron, AveragedPerceptron)
        ]
    assert out == here


def test_fresh_process_loading_the_cache_does_not_crash():
    """A new interpreter, compiled loops loaded from numba's cache: fit runs (no segfault).

    By now this session has compiled and cached the epochs. Loaded from the cache,
    they used to crash when numba's thread pool was not started first.
    """
    # Large enough for the estimator to speculate (SPECULATE_MIN_WORK), small enough for cache.
    code = (
        "import numpy as np\n"
        "from perceptron_lib import Perceptron\n"
        "X = np.random.default_rng(0).normal(size=(3000, 100))\n"
        "print(Perceptron(shuffle=False, max_iter=3).fit(X, X[:, 0] > 0).n_iter_)\n"
    )
    X = np.random.default_rng(1).normal(size=(3000, 100))
    assert _speculative.speculation_pays(X)
    Perceptron(shuffle=False, max_iter=3).fit(X, X[:, 0] > 0)  # cache is written
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]


@pytest.mark.parametrize("name", ["separable", "noisy", "binary_ties"])
@pytest.mark.parametrize("max_iter", [1, 4, 30])
def test_estimators_match_scikit_learn(name, max_iter):
    X, y = DATA[name]()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        ours = Perceptron(eta=1.0, shuffle=False, max_iter=max_iter).fit(X, y)
        theirs = SklearnPerceptron(
            eta0=1.0, penalty=None, alpha=0.0, shuffle=False, tol=None, max_iter=max_iter
        ).fit(X, y)
    assert_array_equal(ours.coef_, theirs.coef_[0])
    assert ours.intercept_ == theirs.intercept_[0]


@pytest.mark.parametrize("cls", [Perceptron, AveragedPerceptron])
@pytest.mark.parametrize("shuffle", [False, True])
def test_estimators_identical_to_plain_loops(cls, shuffle, monkeypatch):
    """Fitted attributes and training trace, with the speculative and the plain epochs."""
    X, y = separable(500, 6, noise=0.02)
    kwargs = dict(shuffle=shuffle, random_state=0, max_iter=8)

    def fitted_and_trace():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            model = cls(**kwargs).fit(X, y)
            return model, training_trace(cls(**kwargs), X, y)

    # 500 x 6 is below SPECULATE_MIN_WORK: make the estimator speculate all the same.
    monkeypatch.setattr(_speculative, "SPECULATE_MIN_WORK", 0)
    spec, spec_trace = fitted_and_trace()
    module = sys.modules[cls.__module__]
    name = "perceptron_epoch" if cls is Perceptron else "averaged_perceptron_epoch"
    monkeypatch.setattr(module, name, getattr(_loops, name))
    plain, plain_trace = fitted_and_trace()
    for attribute in ("coef_", "intercept_", "mistakes_per_epoch_", "n_iter_"):
        assert_array_equal(getattr(spec, attribute), getattr(plain, attribute))
    for field in ("epoch", "index", "activation", "mistake", "weights", "bias"):
        assert_array_equal(getattr(spec_trace, field), getattr(plain_trace, field))


def test_small_fits_never_compile_the_speculative_epochs():
    """A first small fit compiles only the plain loop; a large one, the speculative epoch.

    In a fresh process: numba compiles (or loads from its cache) a function on its
    first call, so a function with no signature was never called.
    """
    code = (
        "import warnings, numpy as np\n"
        "warnings.simplefilter('ignore')\n"
        "from perceptron_lib import AveragedPerceptron, Perceptron\n"
        "from perceptron_lib.loops import speculative as s\n"
        "X = np.random.default_rng(0).normal(size=(3000, 100))\n"
        "y = X[:, 0] > 0\n"
        "Perceptron(max_iter=3).fit(X[:500, :20], y[:500])\n"
        "AveragedPerceptron(max_iter=3).fit(X[:500, :20], y[:500])\n"
        "kinds = (s._speculative_perceptron_epoch, s._speculative_averaged_epoch)\n"
        "print([len(f.signatures) for f in kinds])\n"
        "Perceptron(max_iter=3).fit(X, y)\n"
        "AveragedPerceptron(max_iter=3).fit(X, y)\n"
        "print([len(f.signatures) for f in kinds])\n"
    )
    assert not _speculative.speculation_pays(np.zeros((500, 20)))
    assert _speculative.speculation_pays(np.zeros((3000, 100)))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split("\n")[:2] == ["[0, 0]", "[1, 1]"]


def nearly_separated(n=30_000, d=80, wrong=6, seed=5):
    """Data the true hyperplane separates but for ``wrong`` labels: long mistake-free stretches."""
    rng = np.random.default_rng(seed)
    w = rng.normal(size=d)
    X = rng.normal(size=(2 * n, d))
    X = np.ascontiguousarray(X[np.abs(X @ w) > 1.0][:n])  # a margin: tiny updates change nothing
    y = np.where(X @ w > 0, 1.0, -1.0)
    y[rng.permutation(n)[:wrong]] *= -1
    return X, y, w


def test_threads_identical_and_guarded(monkeypatch):
    """Blocks on threads give the same run; two Python threads at once never crash it."""
    monkeypatch.setattr(_speculative, "USE_THREADS", True)
    X, y, w0 = nearly_separated()
    args = (X, y, 3, 1e-6, True, None, False, w0)
    plain = run_epochs(_loops.perceptron_epoch, *args)
    stats = np.zeros(len(_speculative.STAT_NAMES), dtype=np.int64)

    def speculative_epoch(X, y, order, w, b, eta, fit_intercept, mistakes, steps):
        return _speculative.perceptron_epoch(
            X, y, order, w, b, eta, fit_intercept, mistakes, steps, stats
        )

    assert_same_run(plain, run_epochs(speculative_epoch, *args))
    assert stats[4] > 0, "no block ran on threads: the test would prove nothing"

    results, errors = [None, None], []

    def worker(k):
        try:
            for _ in range(3):
                results[k] = run_epochs(_speculative.perceptron_epoch, *args)
        except Exception as error:  # pragma: no cover - reported below
            errors.append(error)

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not errors and not any(thread.is_alive() for thread in threads)
    for result in results:
        assert_same_run(plain, result)


def test_lock_busy_means_one_thread(monkeypatch):
    """If another thread holds the parallel lock, the epoch still runs, without threads."""
    monkeypatch.setattr(_speculative, "USE_THREADS", True)
    X, y, w0 = nearly_separated()
    args = (X, y, 2, 1e-6, True, None, False, w0)
    stats = np.zeros(len(_speculative.STAT_NAMES), dtype=np.int64)

    def speculative_epoch(X, y, order, w, b, eta, fit_intercept, mistakes, steps):
        return _speculative.perceptron_epoch(
            X, y, order, w, b, eta, fit_intercept, mistakes, steps, stats
        )

    with _speculative._parallel_lock:
        run = run_epochs(speculative_epoch, *args)
    assert stats[4] == 0
    assert_same_run(run_epochs(_loops.perceptron_epoch, *args), run)


def test_inputs_other_than_weights_untouched():
    X, y = separable(300, 5)
    X0, y0, order = X.copy(), y.copy(), np.arange(300)
    _speculative.perceptron_epoch(X, y, order, np.zeros(5), 0.0, 1.0, True, np.zeros(300, bool))
    assert_array_equal(X, X0)
    assert_array_equal(y, y0)
    assert_array_equal(order, np.arange(300))


def test_reordered_sum_is_not_exact():
    """Why BLAS is not used: np.dot's summation order changes some activations' bits."""
    X, _ = separable(2000, 200, seed=1)
    w = np.random.default_rng(2).normal(size=200)
    exact = np.empty(2000)
    _speculative.block_activations(X, np.arange(2000), 0, 2000, w, 0.0, exact, True)
    in_order = np.array([_loops.activation.py_func(w, 0.0, x) for x in X[:200]])
    assert_array_equal(exact[:200], in_order)
    assert np.any(X @ w != exact)


@settings(max_examples=40, deadline=None)
@given(
    n=st.integers(0, 120),
    d=st.integers(1, 6),
    seed=st.integers(0, 10_000),
    integer=st.booleans(),
    eta=st.sampled_from([1.0, 0.1, 0.5]),
)
def test_property_identical_runs(n, d, seed, integer, eta):
    rng = np.random.default_rng(seed)
    X = rng.integers(-2, 3, size=(n, d)).astype(float) if integer else rng.normal(size=(n, d))
    y = np.where(rng.random(n) < 0.5, 1.0, -1.0)
    args = (X, y, 3, eta, True, seed, True)
    assert_same_run(
        run_epochs(_loops.perceptron_epoch, *args),
        run_epochs(_speculative.perceptron_epoch, *args),
    )
    assert_same_run(
        run_averaged(_loops.averaged_perceptron_epoch, X, y, 3, eta, True, True),
        run_averaged(_speculative.averaged_perceptron_epoch, X, y, 3, eta, True, True),
    )


def test_speedup_measurement_returns_consistent_arrays():
    result = speculation.speedup_against_mistake_fraction(
        n_samples=2000, n_features=20, fractions=[0.0, 0.05], repeats=2
    )
    assert set(result) >= {"mistake_fraction", "plain_seconds", "speculative_seconds", "speedup"}
    assert result["mistake_fraction"][0] == 0.0
    assert result["mistake_fraction"][1] > 0.0
    assert_array_equal(result["speedup"], result["plain_seconds"] / result["speculative_seconds"])


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"fractions": [1.0]}, "fractions"),
        ({"fractions": []}, "fractions"),
        ({"n_samples": 0}, "n_samples"),
        ({"repeats": 1.5}, "repeats"),
    ],
)
def test_speedup_measurement_rejects_bad_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        speculation.speedup_against_mistake_fraction(**kwargs)


def test_statistics_reject_bad_input_and_leave_coef_alone():
    X, y = separable(100, 3)
    coef = np.ones(3)
    stats = speculation.speculative_epoch_statistics(X, y, coef)
    assert_array_equal(coef, np.ones(3))
    assert stats["n_samples"] == 100 and stats["mistakes"] > 0
    with pytest.raises(ValueError, match="-1 and \\+1"):
        speculation.speculative_epoch_statistics(X, (y > 0).astype(float), coef)
    with pytest.raises(ValueError, match="coef"):
        speculation.speculative_epoch_statistics(X, y, np.ones(4))
    with pytest.raises(ValueError, match="eta"):
        speculation.speculative_epoch_statistics(X, y, coef, eta=0.0)
