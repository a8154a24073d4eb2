"""The mistake bound without separability (Freund and Schapire 1999, Theorem 2), lifted.

For a unit vector ``u`` of the lifted space and a margin ``gamma > 0``, the
*deviation* of an example is how far it falls short of margin ``gamma`` along
``u``: ``zeta_i = max(0, gamma - y_i u . z_i)`` with ``z_i = (1, x_i)``. On
any sequence of examples (separable or not) the perceptron started from zero
makes at most ``((R + ||zeta||) / gamma)^2`` mistakes, with ``R`` the lifted
radius and ``||zeta||`` the length of the vector of deviations of the
sequence. When ``u`` separates with margin ``gamma``, every deviation is 0 and
this is the convergence theorem's ``(R / gamma)^2``.

This module computes the deviations and the bound for given ``(u, gamma)``,
the ``gamma`` that gives the smallest bound for a given ``u`` (exactly), and
the best of several candidate directions. Finding good candidates trains
models, so it is in :mod:`perceptron_lib.experiments.nonseparable`.

Labels are -1 and +1. No function modifies its arguments.
"""

from __future__ import annotations

from collections.abc import Mapping
from numbers import Integral, Real
from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .checks import _check_labels, _check_weights, _check_X
from .convergence import lift

__all__ = [
    "DeviationBound",
    "best_deviation_bound",
    "best_direction",
    "deviation_bound",
    "deviations",
]


class DeviationBound(NamedTuple):
    """The bound ``((R + ||zeta||) / gamma)^2`` and its ingredients."""

    bound: float
    """The number of mistakes it allows."""
    gamma: float
    """The margin ``gamma`` it was computed for (``inf`` for the limit, see
    :func:`best_deviation_bound`)."""
    deviation_norm: float
    """``||zeta||``: the square root of the sum of the squared deviations of the sequence."""
    radius: float
    """The lifted radius ``R = max_i ||(1, x_i)||``."""


def _check_unit_vector(unit_vector: ArrayLike, n_features: int) -> NDArray[np.float64]:
    u = _check_weights(unit_vector, n_features + 1)
    length = float(np.linalg.norm(u))
    if length == 0.0:
        raise ValueError("unit_vector is zero: it has no direction, so no margin along it.")
    if not np.isclose(length, 1.0, rtol=1e-9, atol=0.0):
        raise ValueError(
            f"unit_vector must have length 1 (the theorem measures margins along a unit "
            f"vector), got length {length!r}; divide it by np.linalg.norm(unit_vector)."
        )
    return u


def _check_gamma(gamma: object) -> float:
    if isinstance(gamma, bool) or not isinstance(gamma, Real):
        raise TypeError(f"gamma must be a real number, got {gamma!r}.")
    value = float(gamma)
    if not 0.0 < value < np.inf:
        raise ValueError(f"gamma must be a finite number > 0, got {gamma!r}.")
    return value


def _check_passes(passes: object) -> int:
    if isinstance(passes, bool) or not isinstance(passes, Integral) or passes < 1:
        raise ValueError(f"passes must be an integer >= 1, got {passes!r}.")
    return int(passes)


def _lifted_margins(X: ArrayLike, y: ArrayLike, unit_vector: ArrayLike):
    """``(y_i u . (1, x_i) for each i, R)`` after checking every argument."""
    X = _check_X(X)
    y = _check_labels(y, X.shape[0])
    u = _check_unit_vector(unit_vector, X.shape[1])
    Z = lift(X)
    return y * (Z @ u), float(np.linalg.norm(Z, axis=1).max())


def deviations(
    X: ArrayLike, y: ArrayLike, unit_vector: ArrayLike, gamma: float
) -> NDArray[np.float64]:
    """The deviations ``zeta_i = max(0, gamma - y_i u . (1, x_i))``, one per example.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
        Labels -1 and +1.
    unit_vector : array-like of shape (n_features + 1,)
        ``u`` in the lifted space, the constant's weight first; length 1.
    gamma : float
        The margin, > 0.

    Examples
    --------
    >>> X, y = [[2.0], [0.5], [1.0]], [1, 1, -1]
    >>> u = [0.0, 1.0]  # the lifted direction (b, w) = (0, 1): margins 2, 0.5, -1
    >>> deviations(X, y, u, gamma=1.0).tolist()
    [0.0, 0.5, 2.0]
    """
    margins, _ = _lifted_margins(X, y, unit_vector)
    return np.maximum(0.0, _check_gamma(gamma) - margins)


def deviation_bound(
    X: ArrayLike, y: ArrayLike, unit_vector: ArrayLike, gamma: float, *, passes: int = 1
) -> DeviationBound:
    """The bound ``((R + ||zeta||) / gamma)^2`` on the mistakes of ``passes`` passes.

    A run of ``E`` passes is one pass over the sequence of its ``E * n``
    visits, in which each example appears ``E`` times with its deviation; so
    ``||zeta||`` is ``sqrt(E)`` times that of one pass, whatever the order of
    each pass.

    Examples
    --------
    >>> X, y = [[2.0], [0.5], [1.0]], [1, 1, -1]
    >>> result = deviation_bound(X, y, [0.0, 1.0], 1.0)  # zeta = (0, 0.5, 2)
    >>> round(result.deviation_norm, 4), round(result.radius, 4), round(result.bound, 4)
    (2.0616, 2.2361, 18.4695)
    >>> round(deviation_bound(X, y, [0.0, 1.0], 1.0, passes=4).deviation_norm, 4)
    4.1231
    """
    gamma = _check_gamma(gamma)
    passes = _check_passes(passes)
    margins, radius = _lifted_margins(X, y, unit_vector)
    norm = float(np.sqrt(passes * np.sum(np.maximum(0.0, gamma - margins) ** 2)))
    return DeviationBound(((radius + norm) / gamma) ** 2, gamma, norm, radius)


def _root_of_bound(s: float, margins: NDArray, radius: float, passes: int) -> float:
    """``(R + ||zeta||) / gamma`` at ``s = 1 / gamma``: ``R s + sqrt(E sum max(0, 1 - m s)^2)``."""
    return radius * s + float(np.sqrt(passes * np.sum(np.maximum(0.0, 1.0 - margins * s) ** 2)))


def best_deviation_bound(
    X: ArrayLike, y: ArrayLike, unit_vector: ArrayLike, *, passes: int = 1
) -> DeviationBound:
    """The smallest bound over all ``gamma > 0`` for the direction ``u``, found exactly.

    Write ``s = 1 / gamma`` and ``m_i = y_i u . (1, x_i)``. The square root of
    the bound is ``G(s) = R s + sqrt(E sum_i max(0, 1 - m_i s)^2)``: a line plus
    the length of a vector of convex functions of ``s``, so ``G`` is convex.
    Between two consecutive break points ``s = 1 / m_i`` the set of examples
    with a deviation is fixed and ``G`` is ``R s + sqrt(S2 s^2 - 2 S1 s + a)``,
    whose stationary point solves a quadratic equation. The minimum of a
    convex function is at one of these stationary points, at a break point,
    or in the limit ``s -> 0`` (``gamma -> inf``), where the bound tends to
    ``E n``, one mistake per visit. In that last case the infimum is not
    reached: ``gamma`` and ``deviation_norm`` are returned as ``inf`` and
    ``bound`` as ``E n``.

    Examples
    --------
    Ten points on a line, one of each class on the wrong side:

    >>> X = [[1.0], [2.0], [3.0], [4.0], [-0.5], [-1.0], [-2.0], [-3.0], [-4.0], [0.5]]
    >>> y = [1, 1, 1, 1, 1, -1, -1, -1, -1, -1]
    >>> result = best_deviation_bound(X, y, [0.0, 1.0])
    >>> round(result.gamma, 4), round(result.bound, 4)
    (6.5512, 8.9864)
    >>> round(deviation_bound(X, y, [0.0, 1.0], 1.0).bound, 4)  # gamma = 1 is worse
    38.9929

    An example and its contradiction: the infimum is the limit, one mistake per visit.

    >>> best_deviation_bound([[1.0], [1.0]], [1, -1], [1.0, 0.0])
    DeviationBound(bound=2.0, gamma=inf, deviation_norm=inf, radius=1.4142135623730951)
    """
    passes = _check_passes(passes)
    margins, radius = _lifted_margins(X, y, unit_vector)
    positive = np.sort(margins[margins > 0.0])
    breaks = np.unique(1.0 / positive)  # ascending in s: gamma from large to small
    edges = np.concatenate([[0.0], breaks, [np.inf]])
    candidates = list(breaks)
    for low, high in zip(edges[:-1], edges[1:], strict=True):
        # On (low, high) the examples with a deviation are those with m_i s < 1.
        if high == np.inf:
            middle = 2.0 * low if low > 0.0 else 1.0
        else:
            middle = (low + high) / 2.0
        active = margins * middle < 1.0
        count = passes * float(np.sum(active))
        s1 = passes * float(np.sum(margins[active]))
        s2 = passes * float(np.sum(margins[active] ** 2))
        # d/ds G = 0  <=>  S1 - S2 s = R sqrt(S2 s^2 - 2 S1 s + a), squared:
        # S2 (S2 - R^2) s^2 - 2 S1 (S2 - R^2) s + S1^2 - R^2 a = 0.
        coefficients = [
            s2 * (s2 - radius**2),
            -2.0 * s1 * (s2 - radius**2),
            s1**2 - radius**2 * count,
        ]
        if not any(coefficients):
            continue
        for root in np.roots(np.trim_zeros(coefficients, "f")):
            if np.isreal(root) and low < root.real < high:
                candidates.append(float(root.real))
    limit = float(np.sqrt(passes * margins.size))  # G(0+): every visit deviates by gamma
    values = [_root_of_bound(s, margins, radius, passes) for s in candidates]
    if not values or min(values) >= limit:
        return DeviationBound(float(passes * margins.size), np.inf, np.inf, radius)
    s = candidates[int(np.argmin(values))]
    return deviation_bound(X, y, unit_vector, 1.0 / s, passes=passes)


def best_direction(
    X: ArrayLike,
    y: ArrayLike,
    directions: Mapping[str, ArrayLike],
    *,
    passes: int = 1,
) -> tuple[str, DeviationBound]:
    """The candidate direction with the smallest bound, each at its best ``gamma``.

    ``directions`` maps a name to a nonzero vector of the lifted space (the
    constant's weight first), for example the lifted weights ``(b, w)`` of a
    trained classifier; each is divided by its length here.

    Examples
    --------
    >>> X = [[1.0], [2.0], [3.0], [4.0], [-0.5], [-1.0], [-2.0], [-3.0], [-4.0], [0.5]]
    >>> y = [1, 1, 1, 1, 1, -1, -1, -1, -1, -1]
    >>> name, result = best_direction(X, y, {"tilted": [1.0, 1.0], "w only": [0.0, 3.0]})
    >>> name, round(result.bound, 4)
    ('w only', 8.9864)
    """
    if not isinstance(directions, Mapping) or not directions:
        raise TypeError("directions must be a non-empty mapping from names to vectors.")
    results = {}
    for name, vector in directions.items():
        v = _check_weights(vector, _check_X(X).shape[1] + 1)
        length = float(np.linalg.norm(v))
        if length == 0.0:
            raise ValueError(f"direction {name!r} is zero: it has no direction.")
        results[name] = best_deviation_bound(X, y, v / length, passes=passes)
    best = min(results, key=lambda name: results[name].bound)
    return best, results[best]
