"""Rosenblatt's form of the learning rule: ``w <- w + eta * (d - y) * x``.

The lecture slides write the perceptron with a desired response ``d`` in
{-1, +1}, an output ``y = phi(w . x + b)`` and the threshold function
``phi(v) = +1 if v >= 0 else -1``, and the update
``w(n + 1) = w(n) + eta * [d(n) - y(n)] * x(n)``. When the output is right,
``d - y = 0`` and nothing changes; when it is wrong, ``d - y = 2 d``, so the step
is the course's ``eta * y * x`` with twice the learning rate. The two rules
differ in one place only: an activation of exactly zero. ``phi(0) = +1`` counts
it as a correct *positive* answer, whereas the course's test ``y * a <= 0``
counts it as a mistake for both labels.

These functions are written for reading, not for speed: the course's
:class:`~perceptron_lib.Perceptron` is the fast, tested estimator.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike, NDArray


def threshold_sign(v: ArrayLike) -> NDArray[np.int64]:
    """Return ``phi(v)``: +1 where ``v >= 0`` and -1 elsewhere (so ``phi(0) = +1``).

    Parameters
    ----------
    v : array-like of float
        Activations.

    Returns
    -------
    ndarray of int
        +1 or -1 for each activation, same shape as ``v``.

    Examples
    --------
    >>> threshold_sign([-2.0, 0.0, 3.5]).tolist()
    [-1, 1, 1]
    """
    v = np.asarray(v, dtype=np.float64)
    if np.isnan(v).any():
        raise ValueError("threshold_sign got NaN activations; the sign of NaN is undefined.")
    return np.where(v >= 0.0, 1, -1)


def _check_label(d: float) -> float:
    if d not in (-1, 1):
        raise ValueError(f"The desired response d must be -1 or +1, got {d!r}.")
    return float(d)


def rosenblatt_update(
    w: ArrayLike, b: float, x: ArrayLike, d: float, *, eta: float = 1.0
) -> tuple[NDArray[np.float64], float]:
    """Apply one step of Rosenblatt's rule to ``(w, b)`` for the example ``(x, d)``.

    The output is ``y = phi(w . x + b)`` with ``phi(0) = +1``; the new weights are
    ``w + eta * (d - y) * x`` and the new bias ``b + eta * (d - y)``. The inputs
    are not modified.

    Parameters
    ----------
    w : array-like of shape (n_features,)
        Current weights.
    b : float
        Current bias.
    x : array-like of shape (n_features,)
        The example.
    d : {-1, +1}
        Its desired response (label).
    eta : float, default=1.0
        Learning rate, > 0.

    Returns
    -------
    w_new : ndarray of shape (n_features,)
    b_new : float

    Examples
    --------
    A wrong answer moves the weights by ``2 * eta * d * x``:

    >>> w, b = rosenblatt_update([1.0, 0.0], 0.0, [2.0, 1.0], -1)
    >>> w.tolist(), b
    ([-3.0, -2.0], -2.0)

    From zero weights the activation is 0 and ``phi(0) = +1``: a positive
    example is already answered correctly, so nothing changes.

    >>> w, b = rosenblatt_update([0.0, 0.0], 0.0, [2.0, 1.0], +1)
    >>> w.tolist(), b
    ([0.0, 0.0], 0.0)
    """
    w = np.asarray(w, dtype=np.float64)
    x = np.asarray(x, dtype=np.float64)
    if w.ndim != 1 or x.shape != w.shape:
        raise ValueError(
            f"w and x must be 1-d arrays of the same length, got shapes {w.shape} and {x.shape}."
        )
    if not eta > 0:
        raise ValueError(f"The learning rate eta must be > 0, got {eta!r}.")
    d = _check_label(d)
    y = int(threshold_sign(w @ x + b))
    step = eta * (d - y)
    return w + step * x, float(b + step)


class RosenblattRun(NamedTuple):
    """The result of :func:`rosenblatt_train`."""

    coef: NDArray[np.float64]
    """The final weights."""
    intercept: float
    """The final bias."""
    n_updates: int
    """Number of examples on which the weights changed."""
    n_epochs: int
    """Number of passes made, including a final pass with no change."""
    converged: bool
    """Whether the last pass changed nothing."""


def rosenblatt_train(
    X: ArrayLike, d: ArrayLike, *, eta: float = 1.0, max_iter: int = 100
) -> RosenblattRun:
    """Train from zero weights with Rosenblatt's rule, visiting the examples in order.

    Passes are repeated until one changes nothing, or ``max_iter`` passes.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        Examples.
    d : array-like of shape (n_samples,)
        Desired responses, each -1 or +1.
    eta : float, default=1.0
        Learning rate, > 0.
    max_iter : int, default=100
        Maximum number of passes, >= 1.

    Returns
    -------
    RosenblattRun

    Examples
    --------
    The three examples of the lecture slides, with a bias:

    >>> run = rosenblatt_train([[1.0, 1.0], [0.5, 3.0], [2.0, 2.0]], [1, 1, -1])
    >>> run.converged, run.n_updates
    (True, 15)
    >>> threshold_sign([[1.0, 1.0], [0.5, 3.0], [2.0, 2.0]] @ run.coef + run.intercept).tolist()
    [1, 1, -1]
    """
    X = np.asarray(X, dtype=np.float64)
    d = np.asarray(d)
    if X.ndim != 2 or d.shape != (X.shape[0],):
        raise ValueError(
            f"X must be 2-d and d 1-d with one label per row, got shapes {X.shape} and {d.shape}."
        )
    if not np.isin(d, (-1, 1)).all():
        raise ValueError(f"Every desired response must be -1 or +1, got {np.unique(d).tolist()}.")
    if int(max_iter) != max_iter or max_iter < 1:
        raise ValueError(f"max_iter must be an integer >= 1, got {max_iter!r}.")
    w, b = np.zeros(X.shape[1]), 0.0
    n_updates = 0
    for epoch in range(1, int(max_iter) + 1):
        changes = 0
        for x, label in zip(X, d, strict=True):
            if threshold_sign(w @ x + b) != label:
                changes += 1
            w, b = rosenblatt_update(w, b, x, int(label), eta=eta)
        n_updates += changes
        if changes == 0:
            return RosenblattRun(w, b, n_updates, epoch, True)
    return RosenblattRun(w, b, n_updates, int(max_iter), False)
