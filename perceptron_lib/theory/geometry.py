"""The theory of a linear classifier, as numbers: distance, margin, radius, bound.

Everything here is about a *fixed* hyperplane ``w . x + b = 0`` or a fixed data
set, not about learning. These are the quantities of the perceptron's
convergence theorem (Block 1962, Novikoff 1962): the radius ``R`` of the data,
the margin ``gamma`` of a separator, the bound ``(R / gamma)^2`` on the number
of mistakes, and two questions about a data set: is it linearly separable at
all (a linear program, exact up to the solver's tolerance), and what is the
largest margin any separator achieves (those two are in
:mod:`perceptron_lib.theory.separability`).

Labels are always ``-1`` and ``+1``. No function modifies its arguments.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .checks import _check_separator, _check_X

__all__ = [
    "margin",
    "mistake_bound",
    "radius",
    "signed_distance",
]


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
