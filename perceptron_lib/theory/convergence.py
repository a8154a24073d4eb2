"""The convergence theorem's quantities, in the lifted space.

The perceptron with a bias is the perceptron without one run on the lifted
examples ``z = (s, x)`` (a constant feature ``s``, first, then the features),
with lifted weights ``v = (b / s, w)``. The convergence theorem (Block 1962;
Novikoff 1962) is about those lifted vectors: if a unit vector ``u`` has
``y_i u . z_i >= gamma > 0`` for every example and ``||z_i|| <= R``, the
perceptron started from zero makes at most ``(R / gamma)^2`` mistakes.

This module computes the lifted radius and margins (for ``s = 1``, the usual
bias, and any other scale ``s``), the largest lifted margin of a data set (the
tightest bound) and the Hadamard data set on which the bound is reached
exactly. It trains nothing: the proof followed along a recorded run and the
experiments that set the bound against measured counts are in
:mod:`perceptron_lib.experiments.convergence`.

Labels are -1 and +1. No function modifies its arguments.
"""

from __future__ import annotations

from numbers import Real
from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.optimize import nnls

from .checks import _check_bias, _check_labels, _check_weights, _check_X

__all__ = [
    "LiftedSeparator",
    "hadamard_example",
    "lift",
    "lifted_bound",
    "lifted_margin",
    "lifted_radius",
    "max_lifted_margin",
]


def _check_constant(constant: object) -> float:
    if isinstance(constant, bool) or not isinstance(constant, Real):
        raise TypeError(f"constant must be a real number, got {constant!r}.")
    value = float(constant)
    if not np.isfinite(value) or value <= 0.0:
        raise ValueError(f"constant must be a finite number > 0, got {constant!r}.")
    return value


def lift(X: ArrayLike, constant: float = 1.0) -> NDArray[np.float64]:
    """Return the lifted examples ``(s, x)``: the constant ``s`` first, then ``x``.

    Examples
    --------
    >>> lift([[3.0, 4.0]]).tolist(), lift([[3.0, 4.0]], constant=2.0).tolist()
    ([[1.0, 3.0, 4.0]], [[2.0, 3.0, 4.0]])
    """
    X = _check_X(X)
    return np.hstack([np.full((X.shape[0], 1), _check_constant(constant)), X])


def lifted_radius(X: ArrayLike, constant: float = 1.0) -> float:
    """The radius ``R = max_i ||(s, x_i)||`` of the lifted examples.

    Examples
    --------
    >>> lifted_radius([[3.0, 4.0], [0.0, 1.0]])  # sqrt(1 + 25)
    5.0990195135927845
    """
    return float(np.linalg.norm(lift(X, constant), axis=1).max())


def lifted_margin(
    w: ArrayLike, b: float, X: ArrayLike, y: ArrayLike, constant: float = 1.0
) -> float:
    """The margin of the lifted separator ``(b / s, w)`` on the lifted examples ``(s, x)``.

    It is ``min_i y_i (w . x_i + b) / ||(b / s, w)||``: the same activations
    as the geometric margin, divided by the length of the *lifted* weight
    vector, so it is never larger than the geometric margin, and equal to it
    when ``b = 0``. ``-inf`` if ``(w, b)`` does not separate the data.

    Examples
    --------
    >>> X, y = [[2.0], [0.0]], [1, -1]
    >>> lifted_margin([1.0], -1.0, X, y)  # geometric margin 1, lifted 1 / sqrt(2)
    0.7071067811865475
    >>> round(lifted_margin([1.0], -1.0, X, y, constant=10.0), 6)  # large s: close to 1
    0.995037
    """
    X = _check_X(X)
    w, b = _check_weights(w, X.shape[1]), _check_bias(b)
    y = _check_labels(y, X.shape[0])
    s = _check_constant(constant)
    scores = y * (X @ w + b)
    norm = float(np.hypot(np.linalg.norm(w), b / s))
    if norm == 0.0 or np.any(scores <= 0.0):
        return -np.inf
    return float(scores.min() / norm)


def lifted_bound(
    w: ArrayLike, b: float, X: ArrayLike, y: ArrayLike, constant: float = 1.0
) -> float:
    """The mistake bound ``(R / gamma)^2`` certified by ``(w, b)``, R and gamma lifted.

    For ``constant=1`` this is :func:`perceptron_lib.theory.geometry.mistake_bound`.
    A perceptron whose constant feature is ``s`` updates its bias by
    ``s^2 y``; the bound for that perceptron uses ``constant=s``.

    Raises
    ------
    ValueError
        If ``(w, b)`` does not separate the data.

    Examples
    --------
    >>> round(lifted_bound([1.0], -1.0, [[2.0], [0.0]], [1, -1]), 9)  # R^2 = 5, gamma^2 = 1/2
    10.0
    """
    gamma = lifted_margin(w, b, X, y, constant)
    if gamma == -np.inf:
        raise ValueError("(w, b) does not separate the data, so it certifies no bound.")
    return (lifted_radius(X, constant) / gamma) ** 2


class LiftedSeparator(NamedTuple):
    """The largest lifted margin of a data set and a separator achieving it."""

    margin: float
    """Its lifted margin ``min_i y_i (w . x_i + b) / ||(b / s, w)||``."""
    coef: NDArray[np.float64]
    """The weights ``w``."""
    intercept: float
    """The bias ``b``."""
    unit_vector: NDArray[np.float64]
    """The lifted separator ``(b / s, w)`` scaled to unit length."""


def max_lifted_margin(X: ArrayLike, y: ArrayLike, constant: float = 1.0) -> LiftedSeparator:
    """The largest lifted margin of ``(X, y)``: the separator with the tightest bound.

    Unlike :func:`perceptron_lib.theory.separability.max_margin`, the bias counts in the
    length here, because the theorem measures the lifted vector ``(b / s, w)``.
    The largest margin of a separator through the origin of the lifted space
    equals the distance from the origin to the convex hull of the vectors
    ``a_i = y_i z_i``, and the closest point ``p`` of that hull is the best
    direction. ``p`` is found with scipy's non-negative least squares
    (minimise ``||sum_i beta_i a_i||^2 + (sum_i beta_i - 1)^2`` over
    ``beta >= 0``; the extra term fixes only the scale, not the direction of
    ``p``). The margin returned is recomputed from that direction, so it is
    exactly what the returned separator achieves: a lower bound on the true
    maximum, equal to it up to the solver's tolerance (checked in the tests
    against a brute-force search).

    Raises
    ------
    ValueError
        If the solution found does not separate the data (the data are not
        linearly separable, or only barely).

    Examples
    --------
    >>> result = max_lifted_margin([[1.0], [-1.0]], [1, -1])
    >>> round(result.margin, 6), result.unit_vector.round(6).tolist()
    (1.0, [0.0, 1.0])
    """
    X = _check_X(X)
    y = _check_labels(y, X.shape[0])
    s = _check_constant(constant)
    signed = y[:, None] * lift(X, s)
    system = np.vstack([signed.T, np.ones((1, X.shape[0]))])
    target = np.zeros(system.shape[0])
    target[-1] = 1.0
    beta, _ = nnls(system, target, maxiter=50 * X.shape[0])
    v = beta @ signed
    if not np.any(v):
        raise ValueError(
            "The origin is in the convex hull of the vectors y_i (s, x_i): the data are "
            "not linearly separable, so there is no positive margin and no bound."
        )
    w, b = v[1:], float(v[0] * s)
    gamma = lifted_margin(w, b, X, y, s)
    if gamma == -np.inf:
        raise ValueError(
            "No separator was found: the data are not linearly separable (or only up "
            "to rounding), so there is no positive margin and no bound."
        )
    return LiftedSeparator(gamma, w, b, v / np.linalg.norm(v))


def hadamard_example(n_samples: int = 8) -> tuple[NDArray[np.float64], NDArray[np.int64]]:
    """A data set on which the perceptron makes exactly ``(R / gamma)^2`` mistakes.

    The rows of a Sylvester-Hadamard matrix of order ``n`` (a power of two)
    are orthogonal vectors of +-1 entries whose first entry is 1. Dropping it
    gives ``n`` examples with ``n - 1`` features whose lifted vectors
    ``(1, x_i)`` are exactly those rows. Labels alternate -1, +1 (any labels
    would do: ``y_i z_i`` stay orthogonal). The lifted radius is ``sqrt(n)``,
    the largest lifted margin is 1, so the bound is ``n``; every activation
    the perceptron meets in its first pass is exactly 0 (integer arithmetic),
    so it makes ``n`` mistakes.

    Examples
    --------
    >>> X, y = hadamard_example(4)
    >>> X.tolist(), y.tolist()
    ([[1.0, 1.0, 1.0], [-1.0, 1.0, -1.0], [1.0, -1.0, -1.0], [-1.0, -1.0, 1.0]], [-1, 1, -1, 1])
    """
    if isinstance(n_samples, bool) or not isinstance(n_samples, int | np.integer):
        raise TypeError(f"n_samples must be an integer, got {n_samples!r}.")
    if n_samples < 2 or n_samples & (n_samples - 1):
        raise ValueError(f"n_samples must be a power of two >= 2, got {n_samples}.")
    matrix = np.ones((1, 1))
    while matrix.shape[0] < n_samples:
        matrix = np.block([[matrix, matrix], [matrix, -matrix]])
    labels = np.where(np.arange(n_samples) % 2 == 0, -1, 1).astype(np.int64)
    return matrix[:, 1:].copy(), labels
