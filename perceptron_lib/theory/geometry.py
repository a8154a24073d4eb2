"""The theory of a linear classifier, as numbers: distance, margin, radius, bound.

Everything here is about a *fixed* hyperplane ``w . x + b = 0`` or a fixed data
set, not about learning. These are the quantities of the perceptron's
convergence theorem (Block 1962, Novikoff 1962): the radius ``R`` of the data,
the margin ``gamma`` of a separator, the bound ``(R / gamma)^2`` on the number
of mistakes, and two questions about a data set: is it linearly separable at
all (a linear program, exact up to the solver's tolerance), and what is the
largest margin any separator achieves (the optimal-margin hyperplane of Vapnik
and Lerner 1963, which Boser, Guyon and Vapnik 1992 kernelised into the
hard-margin support vector machine; Cortes and Vapnik 1995 added the soft
margin for data that are not separable).

Labels are always ``-1`` and ``+1``. No function modifies its arguments.
"""

from __future__ import annotations

from numbers import Real
from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.optimize import linprog, minimize

__all__ = [
    "MaxMarginResult",
    "is_linearly_separable",
    "margin",
    "max_margin",
    "mistake_bound",
    "radius",
    "signed_distance",
]


# -- argument checks, shared with data.py and features.py -------------------


def _as_float_array(values: ArrayLike, name: str) -> NDArray[np.float64]:
    """Return ``values`` as a float array (a copy if it needs converting), or raise TypeError."""
    if isinstance(values, str):
        raise TypeError(f"{name} must be numeric, got the string {values!r}.")
    try:
        array = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError) as error:
        raise TypeError(f"{name} must be numeric: {error}") from None
    return array


def _check_finite(array: NDArray, name: str) -> None:
    if not np.all(np.isfinite(array)):
        raise ValueError(f"{name} contains NaN or infinity; all values must be finite.")


def _check_X(X: ArrayLike, name: str = "X") -> NDArray[np.float64]:
    """Return ``X`` as a finite, non-empty 2-d float array of shape (n_samples, n_features)."""
    array = _as_float_array(X, name)
    if array.ndim != 2:
        hint = " For a single example use X.reshape(1, -1)." if array.ndim == 1 else ""
        raise ValueError(
            f"{name} must be 2-d, of shape (n_samples, n_features); got {array.ndim}-d "
            f"with shape {array.shape}.{hint}"
        )
    if array.shape[0] == 0:
        raise ValueError(f"{name} is empty: it has 0 samples.")
    if array.shape[1] == 0:
        raise ValueError(f"{name} has 0 features.")
    _check_finite(array, name)
    return array


def _check_labels(y: ArrayLike, n_samples: int) -> NDArray[np.float64]:
    """Return ``y`` as a 1-d float array of -1/+1 labels, one per sample."""
    array = _as_float_array(y, "y")
    if array.ndim != 1:
        raise ValueError(f"y must be 1-d, of shape (n_samples,); got shape {array.shape}.")
    if array.shape[0] != n_samples:
        raise ValueError(
            f"X and y have inconsistent lengths: X has {n_samples} samples, "
            f"y has {array.shape[0]} labels."
        )
    bad = ~np.isin(array, (-1.0, 1.0))
    if bad.any():
        raise ValueError(
            "labels must be -1 or +1; y contains "
            f"{np.unique(array[bad])[:5].tolist()}. Map them first, e.g. "
            "np.where(y == positive_class, 1, -1)."
        )
    return array


def _check_weights(w: ArrayLike, n_features: int) -> NDArray[np.float64]:
    """Return ``w`` as a finite 1-d float array of length ``n_features``."""
    array = _as_float_array(w, "w")
    if array.ndim != 1:
        raise ValueError(f"w must be 1-d, of shape (n_features,); got shape {array.shape}.")
    if array.shape[0] != n_features:
        raise ValueError(
            f"w has {array.shape[0]} weights but X has {n_features} features; they must be equal."
        )
    _check_finite(array, "w")
    return array


def _check_bias(b: object) -> float:
    """Return the bias ``b`` as a finite float."""
    if isinstance(b, bool) or not isinstance(b, Real | np.number) or isinstance(b, complex):
        raise TypeError(f"b must be a real number, got {type(b).__name__}: {b!r}.")
    value = float(b)
    if not np.isfinite(value):
        raise ValueError(f"b must be finite, got {value}.")
    return value


def _check_separator(w, b, X, y=None):
    """Validate a hyperplane ``(w, b)`` together with its data (and labels)."""
    X = _check_X(X)
    w = _check_weights(w, X.shape[1])
    b = _check_bias(b)
    if y is None:
        return w, b, X
    return w, b, X, _check_labels(y, X.shape[0])


# -- a fixed hyperplane -------------------------------------------------------


def signed_distance(w: ArrayLike, b: float, X: ArrayLike) -> NDArray[np.float64]:
    """Signed Euclidean distance of every row of ``X`` to the hyperplane ``w . x + b = 0``.

    The distance is ``(w . x + b) / ||w||``: positive on the side ``w`` points
    to (where the classifier predicts +1), negative on the other side, zero on
    the boundary (where the activation is 0 and the classifier predicts -1, as
    on the negative side). Scaling ``(w, b)`` by ``c > 0`` changes no distance.

    Parameters
    ----------
    w : array-like of shape (n_features,)
        Normal vector of the hyperplane; must not be the zero vector.
    b : float
        Bias (offset) of the hyperplane.
    X : array-like of shape (n_samples, n_features)
        The points.

    Returns
    -------
    ndarray of shape (n_samples,)
        The signed distances.

    Raises
    ------
    ValueError
        If ``w`` is zero (no hyperplane), shapes disagree, or values are not finite.

    Examples
    --------
    >>> from perceptron_lib.theory.geometry import signed_distance
    >>> signed_distance([3.0, 4.0], -5.0, [[3.0, 4.0], [0.0, 0.0]]).tolist()
    [4.0, -1.0]
    """
    w, b, X = _check_separator(w, b, X)
    norm = np.linalg.norm(w)
    if norm == 0.0:
        raise ValueError("w is the zero vector: w . x + b = 0 is not a hyperplane.")
    return (X @ w + b) / norm


def margin(w: ArrayLike, b: float, X: ArrayLike, y: ArrayLike) -> float:
    """Geometric margin of the classifier ``(w, b)`` on the labelled data ``(X, y)``.

    The margin is ``min_i y_i (w . x_i + b) / ||w||``: the distance from the
    boundary to the closest example, if every example is on its correct side.
    If ``(w, b)`` does not separate the data (some ``y_i (w . x_i + b) <= 0``)
    or ``w`` is the zero vector, the margin is ``-inf``, following Daume's
    definition (A Course in Machine Learning, eq. 4.8).

    Parameters
    ----------
    w : array-like of shape (n_features,)
        Weight vector.
    b : float
        Bias.
    X : array-like of shape (n_samples, n_features)
        Examples.
    y : array-like of shape (n_samples,)
        Labels, each -1 or +1.

    Returns
    -------
    float
        The margin, > 0, or ``-inf``.

    Examples
    --------
    >>> from perceptron_lib.theory.geometry import margin
    >>> X = [[2.0, 0.0], [-1.0, 0.0]]
    >>> margin([1.0, 0.0], 0.0, X, [1, -1])
    1.0
    >>> margin([10.0, 0.0], 0.0, X, [1, -1])  # scaling (w, b) changes nothing
    1.0
    >>> margin([1.0, 0.0], 0.0, X, [-1, 1])  # wrong side: not a separator
    -inf
    """
    w, b, X, y = _check_separator(w, b, X, y)
    norm = np.linalg.norm(w)
    scores = y * (X @ w + b)
    if norm == 0.0 or np.any(scores <= 0.0):
        return -np.inf
    return float(scores.min() / norm)


def radius(X: ArrayLike) -> float:
    """Radius of the data: the largest Euclidean norm ``max_i ||x_i||``.

    This is the ``R`` of the convergence theorem: the smallest ball centred at
    the origin that holds every example.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        Examples.

    Returns
    -------
    float
        The radius, >= 0.

    Examples
    --------
    >>> from perceptron_lib.theory.geometry import radius
    >>> radius([[3.0, 4.0], [1.0, 0.0]])
    5.0
    """
    X = _check_X(X)
    return float(np.linalg.norm(X, axis=1).max())


def mistake_bound(
    X: ArrayLike, y: ArrayLike, w: ArrayLike, b: float = 0.0, *, fit_intercept: bool = True
) -> float:
    """The perceptron convergence bound ``(R / gamma)^2`` certified by a separator ``(w, b)``.

    **Theorem** (Block 1962; Novikoff 1962). If a unit-norm vector ``u``
    satisfies ``y_i (u . z_i) >= gamma > 0`` for every example ``z_i`` and
    ``||z_i|| <= R``, then the perceptron without bias, started from zero, makes
    at most ``(R / gamma)^2`` mistakes (updates) on the sequence, however many
    passes it makes and in whatever order the examples come.

    The perceptron *with* a bias is the perceptron without bias run on lifted
    examples ``z_i = (1, x_i)``, with lifted weights ``(b, w)``: the constant
    feature first, as :func:`perceptron_lib.data.features.add_constant_feature`
    puts it. So with ``fit_intercept=True`` (the default) this function folds
    the bias into the lifted vectors: ``R`` is the lifted radius
    ``max_i ||(1, x_i)||`` and ``gamma`` is the lifted margin of the *given*
    separator, ``min_i y_i (w . x_i + b) / ||(b, w)||``. Both differ from the radius and
    the geometric margin in the original space. With ``fit_intercept=False``
    the bound is the one for the perceptron without bias: ``b`` must be 0,
    ``R = radius(X)`` and ``gamma = margin(w, 0, X, y)``.

    Any separator gives a valid bound; the tightest comes from the separator
    with the largest (lifted) margin.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        Examples.
    y : array-like of shape (n_samples,)
        Labels, each -1 or +1.
    w : array-like of shape (n_features,)
        Weights of a separator of ``(X, y)``.
    b : float, default=0.0
        Its bias.
    fit_intercept : bool, default=True
        Whether the perceptron the bound is for learns a bias (then the lift
        above applies).

    Returns
    -------
    float
        The bound ``(R / gamma)^2`` on the number of mistakes.

    Raises
    ------
    ValueError
        If ``(w, b)`` does not separate the data: some ``y_i (w . x_i + b) <= 0``.

    Examples
    --------
    >>> from perceptron_lib.theory.geometry import mistake_bound
    >>> X = [[1.0, 0.0], [-1.0, 0.0]]
    >>> mistake_bound(X, [1, -1], [1.0, 0.0], 0.0, fit_intercept=False)
    1.0
    >>> mistake_bound(X, [1, -1], [1.0, 0.0], 0.0)  # lifted: R^2 = 1 + 1
    2.0
    """
    w, b, X, y = _check_separator(w, b, X, y)
    scores = y * (X @ w + b)
    if np.any(scores <= 0.0):
        worst = int(np.argmin(scores))
        raise ValueError(
            f"(w, b) does not separate the data: example {worst} has "
            f"y * (w . x + b) = {scores[worst]:.6g} <= 0, so it certifies no bound."
        )
    if fit_intercept:
        lifted_radius_sq = float(np.max(np.sum(X**2, axis=1))) + 1.0
        lifted_margin = scores.min() / np.sqrt(w @ w + b * b)
        return float(lifted_radius_sq / lifted_margin**2)
    if b != 0.0:
        raise ValueError(
            f"fit_intercept=False bounds the perceptron without bias, whose boundary "
            f"passes through the origin, but b = {b}. Pass a separator with b = 0, or "
            "use fit_intercept=True."
        )
    return float((radius(X) / margin(w, 0.0, X, y)) ** 2)


# -- a data set -------------------------------------------------------------


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
    >>> from perceptron_lib.theory.geometry import is_linearly_separable
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
    >>> from perceptron_lib.theory.geometry import max_margin
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
