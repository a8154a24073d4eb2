"""Training time of perceptron_lib.Perceptron against scikit-learn's Perceptron.

Run with ``make bench``. Both estimators are timed in this one process, on the
same data with the same settings (``eta=1``, no shuffling, 5 epochs), and their
weights are checked to be identical before any time is reported. The result is
the ratio of the median times over several repeats: a measurement, not a test.

Two regimes, 100,000 examples x 100 features each:
- separable: labels from a random hyperplane, with a margin around it;
- noisy: the same, with 10% of the labels flipped (many updates per epoch).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
import warnings

import numpy as np
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import Perceptron as SklearnPerceptron

from perceptron_lib import Perceptron

N_SAMPLES, N_FEATURES, EPOCHS, REPEATS = 100_000, 100, 5, 7


def make_data(noise: float, seed: int = 0):
    rng = np.random.default_rng(seed)
    w = rng.normal(size=N_FEATURES)
    w /= np.linalg.norm(w)
    X = rng.normal(size=(2 * N_SAMPLES, N_FEATURES))
    scores = X @ w + 0.3
    keep = np.abs(scores) > 0.05  # a margin around the separating hyperplane
    X, scores = X[keep][:N_SAMPLES], scores[keep][:N_SAMPLES]
    y = np.where(scores > 0, 1, -1)
    flip = rng.random(N_SAMPLES) < noise
    y[flip] *= -1
    return np.ascontiguousarray(X), y


def median_time(fit, repeats: int = REPEATS) -> tuple[float, object]:
    times, model = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        model = fit()
        times.append(time.perf_counter() - start)
    return float(np.median(times)), model


def median_times(fit_a, fit_b, repeats: int = REPEATS):
    """Time two fits alternately, so that both see the same machine load."""
    times_a, times_b = [], []
    for _ in range(repeats):
        for fit, times in ((fit_a, times_a), (fit_b, times_b)):
            start = time.perf_counter()
            model = fit()
            times.append(time.perf_counter() - start)
            if fit is fit_a:
                model_a = model
            else:
                model_b = model
    return float(np.median(times_a)), model_a, float(np.median(times_b)), model_b


def compile_time() -> float:
    """Seconds for the first fit in a fresh interpreter with an empty numba cache."""
    code = (
        "import time, numpy as np\n"
        "t = time.perf_counter()\n"
        "from perceptron_lib import Perceptron\n"
        "Perceptron(shuffle=False, max_iter=1).fit(np.eye(2), [0, 1])\n"
        "print(time.perf_counter() - t)\n"
    )
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        out = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
        )
    return float(out.stdout.strip())


def compare(regime: str, X, y) -> Perceptron:
    """Time both estimators on (X, y), check identical weights, print one row."""
    ours = Perceptron(eta=1.0, shuffle=False, max_iter=EPOCHS)
    theirs = SklearnPerceptron(
        eta0=1.0, penalty=None, alpha=0.0, shuffle=False, tol=None, max_iter=EPOCHS
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        ours.fit(X[:100], y[:100])  # compile (or load the cached compilation) first
        t_ours, fitted, t_theirs, reference = median_times(
            lambda: ours.fit(X, y), lambda: theirs.fit(X, y)
        )
    if not (
        np.array_equal(fitted.coef_, reference.coef_[0])
        and fitted.intercept_ == reference.intercept_[0]
    ):
        raise SystemExit(f"{regime}: the weights differ from scikit-learn's; no timing reported")
    print(
        f"{regime:<10} {fitted.n_iter_:>6} {int(fitted.mistakes_per_epoch_.sum()):>9,} "
        f"{t_theirs * 1e3:>8.1f}ms {t_ours * 1e3:>8.1f}ms {t_theirs / t_ours:>8.2f}x"
    )
    return fitted


def main() -> None:
    print(f"Perceptron training, {N_SAMPLES:,} x {N_FEATURES} dense float64, eta=1,")
    print(f"no shuffling, up to {EPOCHS} epochs; median of {REPEATS} runs.\n")
    print(
        f"{'regime':<10} {'epochs':>6} {'updates':>9} {'sklearn':>10} {'ours':>10} {'speed-up':>9}"
    )
    for regime, noise in (("separable", 0.0), ("noisy 10%", 0.1)):
        compare(regime, *make_data(noise))
    X, y = make_data(0.0)
    y_signed = np.where(y == 1, 1.0, -1.0)
    # A mistake-free epoch (weights already separate the data) against one X @ w.
    converged = Perceptron(shuffle=False, max_iter=1000).fit(X, y)
    from perceptron_lib._loops import perceptron_epoch

    order, mistakes = np.arange(len(y)), np.zeros(len(y), dtype=bool)
    w = converged.coef_.copy()
    t_epoch, _ = median_time(
        lambda: perceptron_epoch(X, y_signed, order, w, converged.intercept_, 1.0, True, mistakes)
    )
    assert not mistakes.any()
    t_matvec, _ = median_time(lambda: X @ w)
    print(
        f"\nmistake-free epoch: {t_epoch * 1e3:.1f}ms; one X @ w: {t_matvec * 1e3:.1f}ms "
        f"(ratio {t_epoch / t_matvec:.2f})"
    )
    print(f"first call in a fresh process, empty numba cache: {compile_time():.2f}s")


if __name__ == "__main__":
    main()
