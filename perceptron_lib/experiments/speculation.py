"""Where the time of a speculative epoch goes: measurements for the appendix on scale.

:mod:`perceptron_lib.loops.speculative` runs the perceptron's epochs a block of
examples at a time and gives the plain loop's run bit for bit. Only the mistakes,
and the blocks they cut short, stay serial. These two functions measure that:

- :func:`speculative_epoch_statistics` counts, for one epoch, the blocks scored,
  the restarts (blocks ended by a mistake), the examples scored in blocks and the
  activations thrown away after a mistake;
- :func:`speedup_against_mistake_fraction` times plain and speculative epochs on
  the same data, with more and more of the labels wrong, to plot the speed-up
  against the fraction of mistakes (next to Amdahl's law,
  :func:`perceptron_lib.experiments.at_scale.amdahl_speedup`).

Times depend on the machine and on what else runs on it; the counts do not.
"""

from __future__ import annotations

import time

import numpy as np
from numpy.typing import ArrayLike

from ..loops import plain as _loops
from ..loops import speculative as _speculative

__all__ = ["speculative_epoch_statistics", "speedup_against_mistake_fraction"]


def speculative_epoch_statistics(
    X: ArrayLike, y: ArrayLike, coef: ArrayLike, intercept: float = 0.0, eta: float = 1.0
) -> dict:
    """Run one speculative perceptron epoch from ``(coef, intercept)`` and count its work.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        Examples, visited in order.
    y : array-like of shape (n_samples,)
        Labels, -1 or +1.
    coef : array-like of shape (n_features,)
        Starting weights (not modified).
    intercept : float, default=0.0
        Starting bias.
    eta : float, default=1.0
        Learning rate, > 0.

    Returns
    -------
    dict
        ``n_samples`` and ``mistakes`` (ints), then ``blocks``, ``restarts``,
        ``speculated`` (examples scored in blocks), ``wasted`` (activations
        computed after a block's mistake, thrown away) and ``parallel_blocks``.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.column_stack([np.linspace(1, 2, 200), np.ones(200)])
    >>> y = np.ones(200)
    >>> X[100] = [-1.0, 1.0]  # the only mistake of the weights (1, 0)
    >>> speculative_epoch_statistics(X, y, [1.0, 0.0])  # doctest: +NORMALIZE_WHITESPACE
    {'n_samples': 200, 'mistakes': 1, 'blocks': 6, 'restarts': 1, 'speculated': 179,
     'wasted': 11, 'parallel_blocks': 0}

    The first 16 examples and the 16 after the mistake go through the plain loop;
    the rest in blocks of 32. The block holding example 100 (examples 80 to 111)
    stops there, and the 11 activations computed after it are thrown away.
    """
    X = np.ascontiguousarray(X, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    w = np.array(coef, dtype=np.float64)
    if X.ndim != 2 or y.shape != (X.shape[0],) or w.shape != (X.shape[1],):
        raise ValueError(
            f"X must be 2-D, y of shape ({X.shape[0]},) and coef of shape (n_features,); got "
            f"X {X.shape}, y {y.shape}, coef {w.shape}."
        )
    if not np.all(np.abs(y) == 1.0):
        raise ValueError("y must hold only -1 and +1.")
    if not eta > 0:
        raise ValueError(f"eta must be > 0, got {eta!r}.")
    stats = np.zeros(len(_speculative.STAT_NAMES), dtype=np.int64)
    mistakes = np.zeros(X.shape[0], dtype=np.bool_)
    _speculative.perceptron_epoch(
        X, y, np.arange(X.shape[0]), w, float(intercept), float(eta), True, mistakes, None, stats
    )
    counts = {name: int(value) for name, value in zip(_speculative.STAT_NAMES, stats, strict=True)}
    return {"n_samples": int(X.shape[0]), "mistakes": int(mistakes.sum()), **counts}


def _data_with_wrong_labels(n_samples, n_features, fraction, rng):
    """Examples at least 0.1 from a hyperplane, a share ``fraction`` of them mislabelled."""
    w = rng.normal(size=n_features)
    w /= np.linalg.norm(w)
    X = rng.normal(size=(2 * n_samples, n_features))
    X = np.ascontiguousarray(X[np.abs(X @ w) > 0.1][:n_samples])
    y = np.where(X @ w > 0, 1.0, -1.0)
    wrong = rng.permutation(n_samples)[: int(round(fraction * n_samples))]
    y[wrong] *= -1
    return X, y, w


def speedup_against_mistake_fraction(
    fractions: ArrayLike = (0.0, 0.001, 0.003, 0.01, 0.03, 0.1),
    n_samples: int = 10_000,
    n_features: int = 100,
    repeats: int = 15,
    seed: int = 0,
) -> dict:
    """Time plain and speculative epochs as the share of mistakes in the epoch grows.

    For each ``fraction``, the labels of that share of the examples are flipped and
    one epoch is run from the true hyperplane with a tiny learning rate (1e-9),
    so that the mistakes are essentially the flipped examples and every repeat
    starts from the same weights. Plain and speculative epochs alternate; the
    medians are returned. The default size (8 MB) stays in cache, where scoring
    four examples at a time in one thread pays; about 1 s on 2 cores.

    Parameters
    ----------
    fractions : array-like of float in [0, 1), default=(0, 0.001, 0.003, 0.01, 0.03, 0.1)
        Shares of mislabelled examples.
    n_samples, n_features : int, default=10_000, 100
        Size of the data.
    repeats : int, default=15
        Epochs timed per fraction and kind.
    seed : int, default=0
        Seeds the data.

    Returns
    -------
    dict of ndarray, one entry per fraction
        ``mistake_fraction`` (measured: mistakes / n_samples), ``plain_seconds``,
        ``speculative_seconds``, ``speedup`` (their ratio), and the counts of
        :func:`speculative_epoch_statistics`: ``blocks``, ``restarts``,
        ``speculated``, ``wasted``.

    Examples
    --------
    >>> result = speedup_against_mistake_fraction([0.0, 0.05], n_samples=500, repeats=1)
    >>> result["mistake_fraction"].tolist()
    [0.0, 0.05]
    >>> result["wasted"].tolist()[0]  # no mistake: no block is cut short
    0
    """
    fractions = np.asarray(fractions, dtype=np.float64).ravel()
    if fractions.size == 0 or np.any((fractions < 0) | (fractions >= 1)):
        raise ValueError(
            f"fractions must be a non-empty list of numbers in [0, 1), got {fractions}."
        )
    for name, value in (
        ("n_samples", n_samples),
        ("n_features", n_features),
        ("repeats", repeats),
    ):
        if not isinstance(value, (int, np.integer)) or value < 1:
            raise ValueError(f"{name} must be an integer >= 1, got {value!r}.")
    keys = ("mistake_fraction", "plain_seconds", "speculative_seconds", "blocks", "restarts")
    result = {key: [] for key in (*keys, "speculated", "wasted")}
    for fraction in fractions:
        rng = np.random.default_rng(seed)
        X, y, w_true = _data_with_wrong_labels(n_samples, n_features, fraction, rng)
        order = np.arange(n_samples)
        times = {"plain_seconds": [], "speculative_seconds": []}
        epochs = {"plain_seconds": _loops.perceptron_epoch}
        epochs["speculative_seconds"] = _speculative.perceptron_epoch
        for _ in range(repeats + 1):  # the first round compiles (or loads) and is not kept
            for key, epoch in epochs.items():
                w, mistakes = w_true.copy(), np.zeros(n_samples, dtype=np.bool_)
                start = time.perf_counter()
                epoch(X, y, order, w, 0.0, 1e-9, True, mistakes)
                times[key].append(time.perf_counter() - start)
        for key in times:
            result[key].append(float(np.median(times[key][1:])))
        stats = speculative_epoch_statistics(X, y, w_true, 0.0, 1e-9)
        result["mistake_fraction"].append(stats["mistakes"] / n_samples)
        for key in ("blocks", "restarts", "speculated", "wasted"):
            result[key].append(stats[key])
    arrays = {key: np.asarray(value) for key, value in result.items()}
    arrays["speedup"] = arrays["plain_seconds"] / arrays["speculative_seconds"]
    return arrays
