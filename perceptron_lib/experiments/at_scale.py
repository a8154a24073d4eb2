"""What is sequential in the perceptron, and what changes the run: the appendix's tools.

The online perceptron scores example t + 1 with the weights left by example t,
which looks hopelessly sequential. Two facts soften that, and this module
measures both:

- Between two mistakes the weights do not change, so what really has to wait
  is the *mistakes*. :func:`epoch_mistake_positions` records where the mistakes
  of a run fall, epoch by epoch, and :func:`gaps_between_mistakes` how long the
  mistake-free stretches between them are.
- Floating-point addition is not associative, so an activation summed in another
  order can round differently. :func:`lane_sum_perceptron_epoch` is the
  perceptron with its activation summed in four interleaved lanes (what a
  vectorising compiler or BLAS does); :func:`first_divergence` finds the first
  step where its run and the sequential run part.

:func:`amdahl_speedup` is Amdahl's law, the ceiling on what parallel hardware
can give when part of the work stays serial.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..loops.jit import compiled
from ..loops.plain import activation, perceptron_epoch
from ..mixing import _check_signed_data

__all__ = [
    "amdahl_speedup",
    "decimal_data",
    "epoch_mistake_positions",
    "first_divergence",
    "gaps_between_mistakes",
    "lane_sum_perceptron_epoch",
    "run_epochs",
    "sequential_activations",
]


def amdahl_speedup(parallel_fraction: ArrayLike, n_workers: ArrayLike) -> NDArray[np.float64]:
    """Amdahl's law: the speed-up of a job whose ``parallel_fraction`` runs on ``n_workers``.

    The serial part, ``1 - p``, takes as long as before; the parallel part
    ``p`` is divided among the workers, so the speed-up is
    ``1 / ((1 - p) + p / N)``, which tends to ``1 / (1 - p)`` however many
    workers there are.

    Parameters
    ----------
    parallel_fraction : array-like of floats in [0, 1]
        The fraction ``p`` of the one-worker running time that can be shared.
    n_workers : array-like of numbers >= 1
        How many workers share it.

    Returns
    -------
    ndarray of float
        The speed-ups, broadcast over the two arguments.

    Examples
    --------
    >>> amdahl_speedup(0.9, [1, 2, 10**9]).round(3).tolist()
    [1.0, 1.818, 10.0]
    """
    p = np.asarray(parallel_fraction, dtype=float)
    workers = np.asarray(n_workers, dtype=float)
    if np.any(~np.isfinite(p)) or np.any((p < 0) | (p > 1)):
        raise ValueError(f"parallel_fraction must be between 0 and 1; got {p.tolist()}.")
    if np.any(~np.isfinite(workers)) or np.any(workers < 1):
        raise ValueError(f"n_workers must be at least 1; got {workers.tolist()}.")
    return 1.0 / ((1.0 - p) + p / workers)


@compiled
def lane_sum_perceptron_epoch(X, y, order, w, b, eta, fit_intercept, mistakes):
    """One perceptron pass whose activations are summed in four interleaved lanes.

    The same pass as :func:`perceptron_lib.loops.plain.perceptron_epoch` in every
    respect but one: ``w . x`` is summed as four partial sums (features 0, 4,
    8, ...; 1, 5, 9, ...; and so on) added together at the end, the order that
    SIMD code and BLAS use. Each product is the same; only the rounding of the
    additions can differ. Returns the new bias.
    """
    n_features = X.shape[1]
    for t in range(order.shape[0]):
        i = order[t]
        lane0, lane1, lane2, lane3 = 0.0, 0.0, 0.0, 0.0
        j = 0
        while j + 4 <= n_features:
            lane0 += w[j] * X[i, j]
            lane1 += w[j + 1] * X[i, j + 1]
            lane2 += w[j + 2] * X[i, j + 2]
            lane3 += w[j + 3] * X[i, j + 3]
            j += 4
        while j < n_features:
            lane0 += w[j] * X[i, j]
            j += 1
        a = ((lane0 + lane1) + (lane2 + lane3)) + b
        mistakes[t] = y[i] * a <= 0.0
        if mistakes[t]:
            step = eta * y[i]
            for k in range(n_features):
                w[k] += step * X[i, k]
            if fit_intercept:
                b += step
    return b


@compiled
def _sequential_activations(X, w, b, out):
    for i in range(X.shape[0]):
        out[i] = activation(w, b, X[i])


def sequential_activations(X: ArrayLike, w: ArrayLike, b: float) -> NDArray[np.float64]:
    """Return every example's activation summed as the training loop sums it.

    Feature by feature from the first, the bias added last: exactly the
    numbers the perceptron's mistake test sees. ``X @ w + b`` computes the same
    quantities with its own order of additions (BLAS splits the sum to use
    vector instructions and threads), so it may differ in the last bits.

    Examples
    --------
    >>> X = [[0.1, 0.2, 0.3]]
    >>> sequential_activations(X, [1.0, 1.0, 1.0], 0.0).tolist()
    [0.6000000000000001]
    """
    X = np.ascontiguousarray(X, dtype=np.float64)
    w = np.ascontiguousarray(w, dtype=np.float64)
    if X.ndim != 2 or w.shape != (X.shape[1],):
        raise ValueError(
            f"X must be 2-d with as many columns as w has weights; got X of shape {X.shape} "
            f"and w of shape {w.shape}."
        )
    out = np.empty(X.shape[0])
    _sequential_activations(X, w, float(b), out)
    return out


def run_epochs(
    X: ArrayLike,
    y: ArrayLike,
    max_epochs: int,
    *,
    eta: float = 1.0,
    epoch: Callable = perceptron_epoch,
) -> tuple[NDArray[np.float64], float, list[NDArray[np.bool_]]]:
    """Run the perceptron from zero, in the data's order, until an epoch is mistake-free.

    Parameters
    ----------
    X : array-like of shape (n, D)
        Examples.
    y : array-like of shape (n,)
        Labels, -1 and +1.
    max_epochs : int
        The most epochs to run.
    eta : float, default 1.0
        The learning rate.
    epoch : callable, default :func:`perceptron_lib.loops.plain.perceptron_epoch`
        The pass to run, with that function's signature (for example
        :func:`lane_sum_perceptron_epoch`).

    Returns
    -------
    w : ndarray of shape (D,)
    b : float
    mistakes : list of boolean arrays of shape (n,)
        Which steps of each epoch were mistakes.

    Examples
    --------
    >>> w, b, mistakes = run_epochs([[1.0], [-1.0]], [1, -1], 10)
    >>> w.tolist(), b, [int(m.sum()) for m in mistakes]
    ([2.0], 0.0, [2, 0])
    """
    X, y = _check_signed_data(X, y)
    if not isinstance(max_epochs, int | np.integer) or max_epochs < 1:
        raise ValueError(f"max_epochs must be a positive integer; got {max_epochs!r}.")
    w, b = np.zeros(X.shape[1]), 0.0
    order = np.arange(X.shape[0])
    mistakes = []
    for _ in range(max_epochs):
        this_epoch = np.zeros(X.shape[0], dtype=np.bool_)
        b = float(epoch(X, y, order, w, b, float(eta), True, this_epoch))
        mistakes.append(this_epoch)
        if not this_epoch.any():
            break
    return w, b, mistakes


def epoch_mistake_positions(X: ArrayLike, y: ArrayLike, max_epochs: int) -> list[NDArray]:
    """Return, for each epoch of a run (data order, eta = 1), the steps that were mistakes.

    Examples
    --------
    >>> [p.tolist() for p in epoch_mistake_positions([[1.0], [2.0], [-1.0]], [1, 1, -1], 5)]
    [[0, 2], []]
    """
    _, _, mistakes = run_epochs(X, y, max_epochs)
    return [np.flatnonzero(m) for m in mistakes]


def gaps_between_mistakes(mistakes: ArrayLike) -> NDArray[np.int64]:
    """Return the lengths of the mistake-free stretches of one epoch.

    The stretches before the first mistake, between two mistakes and after the
    last one; an epoch without mistakes is one stretch as long as the epoch.

    Examples
    --------
    >>> gaps_between_mistakes([True, False, False, True, False]).tolist()
    [0, 2, 1]
    >>> gaps_between_mistakes([False, False]).tolist()
    [2]
    """
    mistakes = np.asarray(mistakes, dtype=bool)
    if mistakes.ndim != 1:
        raise ValueError(f"mistakes must be 1-d; got shape {mistakes.shape}.")
    edges = np.concatenate(([-1], np.flatnonzero(mistakes), [mistakes.size]))
    return np.diff(edges) - 1


def first_divergence(
    mistakes_a: list[NDArray[np.bool_]], mistakes_b: list[NDArray[np.bool_]]
) -> int | None:
    """Return the first step (counted over all epochs) where two runs' mistakes differ.

    ``None`` if the two records are identical.

    Examples
    --------
    >>> a = [np.array([True, False]), np.array([False, False])]
    >>> b = [np.array([True, False]), np.array([True, False])]
    >>> first_divergence(a, b), first_divergence(a, a)
    (2, None)
    """
    flat_a = np.concatenate(mistakes_a) if mistakes_a else np.zeros(0, dtype=bool)
    flat_b = np.concatenate(mistakes_b) if mistakes_b else np.zeros(0, dtype=bool)
    common = min(flat_a.size, flat_b.size)
    differ = np.flatnonzero(flat_a[:common] != flat_b[:common])
    if differ.size:
        return int(differ[0])
    return None if flat_a.size == flat_b.size else common


def decimal_data(
    n: int, n_features: int, *, random_state: int
) -> tuple[NDArray[np.float64], NDArray[np.int64]]:
    """Features rounded to one decimal in [-0.9, 0.9], labels from a random hyperplane.

    Data as a spreadsheet holds it: every value has one decimal, which binary
    floating point cannot represent exactly (0.1 is not a power of two), so
    sums of them round, and the order of a sum can matter. The labels come from
    a hyperplane through the origin drawn at random, so the data are linearly
    separable (points exactly on it are labelled -1).

    Examples
    --------
    >>> X, y = decimal_data(3, 2, random_state=0)
    >>> X.shape, sorted(set(y.tolist())) <= [-1, 1]
    ((3, 2), True)
    """
    rng = np.random.default_rng(random_state)
    X = rng.integers(-9, 10, size=(n, n_features)) / 10.0
    normal = rng.normal(size=n_features)
    return X, np.where(X @ normal > 0, 1, -1)
