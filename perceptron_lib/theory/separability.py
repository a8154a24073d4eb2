"""Questions about a data set: is it linearly separable, and by how wide a margin at most?

Whether some hyperplane separates the data is a linear program (exact up to
the solver's tolerance); the largest margin any separator achieves is the
optimal-margin hyperplane of Vapnik and Lerner 1963, which Boser, Guyon and
Vapnik 1992 kernelised into the hard-margin support vector machine (Cortes and
Vapnik 1995 added the soft margin for data that are not separable).

Labels are always ``-1`` and ``+1``. No function modifies its arguments.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.optimize import linprog, minimize

from .checks import _check_labels, _check_X
from .geometry import margin

__all__ = ["MaxMarginResult", "is_linearly_separable", "max_margin"]


def is_linearly_separable(X: ArrayLike, y: ArrayLike) -> bool:
    """Whether some hyperplane ``w . x + b = 0`` puts every example on its correct side.

    The test asks a linear program (scipy's HiGHS solver) whether the
    constraints ``y_i (w . x_i + b) >= 1`` for all ``i`` are feasible. The
    reduction below is exact; the answer is exact up to the solver's
    feasibility tolerance (about 1e-7), so data that are separable only by a
    margin at that scale, or that miss it by that much, can be misjudged.

    Why ``>= 1`` rather than ``> 0``: if some ``(w, b)`` separates strictly,
    ``y_i (w . x_i + b) > 0`` for all ``i``, then on finitely many examples the
    smallest of these numbers is some ``m > 0``, and ``(w / m, b / m)``
    satisfies every constraint with ``>= 1`` (scaling by a positive number
    moves no example to the other side). Conversely ``>= 1`` implies ``> 0``.
    So the two are equivalent, and ``>= 1`` is a closed set a linear program
    can handle, where ``> 0`` is not.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        Examples.
    y : array-like of shape (n_samples,)
        Labels, each -1 or +1.

    Returns
    -------
    bool
        True if the data are strictly linearly separable (with a bias).

    Examples
    --------
    >>> from perceptron_lib.theory.separability import is_linearly_separable
    >>> X = [[0, 0], [0, 1], [1, 0], [1, 1]]
    >>> is_linearly_separable(X, [-1, -1, -1, 1])  # AND
    True
    >>> is_linearly_separable(X, [-1, 1, 1, -1])  # XOR
    False
    """
    X = _check_X(X)
    y = _check_labels(y, X.shape[0])
    result = _separating_lp(X, y)
    if result.status == 0:
        return True
    if result.status == 2:
        return False
    raise RuntimeError(f"The linear program did not finish: {result.message}")


def _separating_lp(X: NDArray, y: NDArray):
    """Solve the feasibility LP ``y_i ([x_i, 1] . [w, b]) >= 1`` in the variables ``(w, b)``."""
    lifted = np.hstack([X, np.ones((X.shape[0], 1))])
    # linprog wants A_ub @ v <= b_ub, so the constraints are negated.
    return linprog(
        c=np.zeros(lifted.shape[1]),
        A_ub=-y[:, None] * lifted,
        b_ub=-np.ones(X.shape[0]),
        bounds=[(None, None)] * lifted.shape[1],
        method="highs",
    )


_NOT_SEPARABLE = (
    "The data are not linearly separable, so no hyperplane has a positive margin "
    "(every (w, b) has margin -inf)."
)


class MaxMarginResult(NamedTuple):
    """The maximum margin of a data set and a separator ``(coef, intercept)`` achieving it."""

    margin: float
    """The largest geometric margin of any hyperplane on the data."""
    coef: NDArray[np.float64]
    """Unit-norm weight vector of the maximum-margin hyperplane."""
    intercept: float
    """Its bias."""


def max_margin(X: ArrayLike, y: ArrayLike) -> MaxMarginResult:
    """The largest geometric margin of any hyperplane on ``(X, y)``, and that hyperplane.

    This is the optimal-margin hyperplane (Vapnik and Lerner 1963), the
    problem the hard-margin support vector machine solves (Boser, Guyon and
    Vapnik 1992, who also kernelised it; the soft margin is Cortes and Vapnik
    1995):
    among all ``(w, b)`` with ``y_i (w . x_i + b) >= 1`` minimise ``||w||^2``.
    The constraints make every activation at least 1, so the margin of such a
    ``(w, b)`` is at least ``1 / ||w||``, and minimising ``||w||`` maximises
    it. The problem is a convex quadratic program whose optimal ``w`` is
    unique; it is solved with scipy's SLSQP, started from a feasible point
    found by the linear program of :func:`is_linearly_separable`.

    To help the solver the problem is rewritten, without changing its answer,
    in centred and rescaled coordinates ``z_j = (x_j - mean_j) / s_j``: a
    separator ``(w, b)`` becomes ``u = w * s`` (element-wise) and the
    objective ``||w||^2`` becomes ``sum_j u_j^2 / s_j^2``. Two scalings are
    tried, one ``s`` for all features (the data's radius) and each feature's
    own standard deviation (which rescues data whose features live on very
    different scales, such as the breast cancer data's), and the separator
    with the larger margin is kept. The returned ``margin`` is recomputed with
    :func:`margin` from the returned separator, so it is exactly what that
    separator achieves: a lower bound on the true maximum, equal to it up to
    the solver's tolerance (about 1e-6 relative on well-scaled data, checked
    in the tests against a brute-force search and a support vector machine).

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        Examples.
    y : array-like of shape (n_samples,)
        Labels, each -1 or +1; both classes must occur.

    Returns
    -------
    MaxMarginResult
        Named tuple ``(margin, coef, intercept)`` with ``coef`` of unit norm.

    Raises
    ------
    ValueError
        If the data are not linearly separable (no margin exists) or contain
        only one class (the margin is unbounded).

    Examples
    --------
    >>> from perceptron_lib.theory.separability import max_margin
    >>> result = max_margin([[0.0, 0.0], [2.0, 0.0]], [-1, 1])
    >>> round(result.margin, 6), result.coef.round(6).tolist(), round(result.intercept, 6)
    (1.0, [1.0, 0.0], -1.0)
    """
    X = _check_X(X)
    y = _check_labels(y, X.shape[0])
    if np.unique(y).shape[0] < 2:
        raise ValueError(
            "max_margin needs examples of both classes: with one class a hyperplane "
            "can be moved arbitrarily far away, so the margin has no maximum."
        )
    centre = X.mean(axis=0)
    radius_of_centred = float(np.linalg.norm(X - centre, axis=1).max())
    if radius_of_centred == 0.0:
        raise ValueError(_NOT_SEPARABLE + " All examples are the same point.")
    standard_deviation = X.std(axis=0)
    standard_deviation[standard_deviation == 0.0] = 1.0  # constant feature: no rescaling
    scalings = (
        (np.full(X.shape[1], radius_of_centred), 1000),  # one scale for every feature
        (standard_deviation, 200),  # each feature its own scale
    )
    best_margin, best = -np.inf, None
    for scale, max_iter in scalings:
        separator = _max_margin_in_coordinates(X, y, centre, scale, max_iter)
        separator_margin = margin(*separator, X, y)
        if separator_margin > best_margin:
            best_margin, best = separator_margin, separator
    if best is None:
        # The linear program found a separator only within its tolerance.
        raise ValueError(_NOT_SEPARABLE + " (It is separable at most up to rounding.)")
    return MaxMarginResult(margin=best_margin, coef=best[0], intercept=best[1])


def _max_margin_in_coordinates(X, y, centre, scale, max_iter) -> tuple[NDArray, float]:
    """Best unit-norm separator found in the coordinates ``z = (x - centre) / scale``."""
    Z = (X - centre) / scale
    start = _separating_lp(Z, y)
    if start.status == 2:
        raise ValueError(_NOT_SEPARABLE)
    if start.status != 0:
        raise RuntimeError(f"The linear program did not finish: {start.message}")

    def to_original(v: NDArray) -> tuple[NDArray, float]:
        # u . (x - centre) / scale + b  =  (u / scale) . x + (b - (u / scale) . centre)
        w = v[:-1] / scale
        norm = float(np.linalg.norm(w))
        return w / norm, float((v[-1] - w @ centre) / norm)

    best = to_original(start.x)
    best_margin = margin(*best, X, y)
    penalty = np.append(1.0 / scale**2, 0.0)  # the bias is not penalised
    penalty /= penalty.max()
    v = start.x
    # SLSQP can stop early on badly conditioned data ("positive directional
    # derivative"); a restart from where it stopped resets its curvature
    # estimate and often gets further. Keep the best separator seen.
    for _ in range(3):
        v = _solve_hard_margin_qp(Z, y, v, penalty, max_iter)
        candidate = to_original(v)
        candidate_margin = margin(*candidate, X, y)
        if candidate_margin <= best_margin * (1 + 1e-12):
            break
        best, best_margin = candidate, candidate_margin
    return best


def _solve_hard_margin_qp(
    Z: NDArray, y: NDArray, start: NDArray, penalty: NDArray, max_iter: int
) -> NDArray:
    """Minimise ``sum(penalty * v**2)`` s.t. ``y_i ([z_i, 1] . v) >= 1``, from a feasible start.

    ``v = (u, b)`` stacks the weights and the bias; the result is rescaled so
    that the smallest activation is exactly 1, hence feasible.
    """
    signed = y[:, None] * np.hstack([Z, np.ones((Z.shape[0], 1))])
    result = minimize(
        lambda v: float(v @ (penalty * v)),
        start,
        jac=lambda v: 2.0 * penalty * v,
        method="SLSQP",
        constraints=[{"type": "ineq", "fun": lambda v: signed @ v - 1.0, "jac": lambda v: signed}],
        options={"maxiter": max_iter, "ftol": 1e-14},
    )
    # SLSQP may stop a hair outside the feasible set; rescaling its point so the
    # closest example has activation 1 makes it feasible with the same direction.
    v = result.x if np.all(np.isfinite(result.x)) else start
    closest = float((signed @ v).min())
    return v / closest if closest > 0.0 else start
