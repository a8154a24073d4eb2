"""Checks for the exercises of chapter 2, the geometry of a linear classifier.

The references are the library's own :func:`perceptron_lib.theory.signed_distance`
and :func:`perceptron_lib.theory.margin`, so a student's function that passes
agrees with the functions the later chapters use.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..theory import margin as _library_margin
from ..theory import signed_distance as _library_signed_distance
from . import check_function

__all__ = ["check_margin", "check_projection", "check_signed_distance"]


def _reference_projection(v: ArrayLike, u: ArrayLike) -> float:
    u = np.asarray(u, dtype=float)
    return float(np.dot(v, u) / np.linalg.norm(u))


def _projection_hint(arguments: Mapping[str, Any], got: Any, expected: float) -> str | None:
    if np.isclose(float(got), float(np.dot(arguments["v"], arguments["u"]))):
        return "that is v . u; divide by the length of u, so that only its direction counts."
    return None


def check_projection(project: Callable[[ArrayLike, ArrayLike], float]) -> None:
    """Check ``project(v, u)``: the signed length of the projection of ``v`` onto ``u``.

    The answer is ``v . u / ||u||``: how far ``v`` reaches in the direction of
    ``u`` (negative if it points away). ``u`` is never the zero vector.

    Examples
    --------
    >>> import numpy as np
    >>> check_projection(lambda v, u: np.dot(v, u) / np.linalg.norm(u))
    All 8 checks passed for project.
    """
    cases = [
        ([0.0, 0.0], [1.0, 0.0]),
        ([3.0, 4.0], [1.0, 0.0]),
        ([3.0, 4.0], [0.0, 2.0]),
        ([0.37, 0.73], [0.8, 0.6]),
        ([-2.0, 1.0], [3.0, 4.0]),
        ([1.0, -1.0], [-1.0, 1.0]),
        ([1.0, 1.0, 1.0], [0.0, 0.0, -5.0]),
        ([2.0], [-0.5]),
    ]
    check_function(project, _reference_projection, cases, name="project", hint=_projection_hint)


def _reference_signed_distance(w: ArrayLike, b: float, X: ArrayLike) -> NDArray[np.float64]:
    return _library_signed_distance(w, b, X)


def _distance_hint(arguments: Mapping[str, Any], got: Any, expected: Any) -> str | None:
    w, b, X = (np.asarray(arguments[key], dtype=float) for key in ("w", "b", "X"))
    activations = X @ w + b
    if np.shape(got) == activations.shape and np.allclose(got, activations):
        return "those are the activations w . x + b; divide them by the length of w."
    if np.shape(got) == activations.shape and np.allclose(got, np.abs(expected)):
        return "keep the sign: points on the side w points away from are negative."
    if np.shape(got) != activations.shape:
        return "return one distance per row of X, an array of shape (n_samples,)."
    return None


def check_signed_distance(
    signed_distance: Callable[[ArrayLike, float, ArrayLike], ArrayLike],
) -> None:
    """Check ``signed_distance(w, b, X)``: ``(X @ w + b) / ||w||``, one value per row.

    Cases include points on the boundary, the origin, a zero bias, negative
    values, weights that are not of unit length and three features.

    Examples
    --------
    >>> from perceptron_lib.theory import signed_distance
    >>> check_signed_distance(signed_distance)
    All 8 checks passed for signed_distance.
    """
    cases = [
        ([1.0, 0.0], 0.0, [[2.0, 5.0]]),
        ([3.0, 4.0], -5.0, [[0.0, 0.0]]),
        ([3.0, 4.0], -5.0, [[3.0, 4.0], [0.0, 0.0]]),
        ([0.0, -2.0], 1.0, [[1.0, 0.5], [0.0, 0.0], [-3.0, 2.0]]),
        ([1.0, 1.0], -1.0, [[1.0, 0.0], [0.0, 1.0], [2.0, 2.0]]),
        ([-1.0, 2.0], 0.5, [[-1.0, -1.0], [4.0, 0.0], [0.5, 0.5]]),
        ([1.0, 2.0, 2.0], 3.0, [[0.0, 0.0, 0.0], [1.0, 1.0, 1.0]]),
        ([0.6, 0.8], 0.0, [[1.0, 3.0], [2.0, 3.0], [-3.0, 1.0], [1.0, -1.0]]),
    ]
    check_function(
        signed_distance,
        _reference_signed_distance,
        cases,
        name="signed_distance",
        hint=_distance_hint,
    )


def _reference_margin(w: ArrayLike, b: float, X: ArrayLike, y: ArrayLike) -> float:
    return _library_margin(w, b, X, y)


def _margin_hint(arguments: Mapping[str, Any], got: Any, expected: float) -> str | None:
    w, b, X, y = (np.asarray(arguments[key], dtype=float) for key in ("w", "b", "X", "y"))
    scores = y * (X @ w + b)
    if expected == -np.inf:
        if not np.any(w):
            return "w = 0 is no boundary at all: its margin is -inf."
        if np.any(scores == 0):
            return "a point on the boundary is not on its correct side: the margin is -inf."
        return "some point is on the wrong side, so (w, b) does not separate: return -inf."
    if np.isclose(float(got), scores.min()):
        return "that is the smallest y (w . x + b); divide it by the length of w."
    if np.isclose(float(got), np.min(np.abs(X @ w + b)) / np.linalg.norm(w)):
        return "use the labels: the margin is the smallest y (w . x + b) / ||w||."
    return None


def check_margin(margin: Callable[[ArrayLike, float, ArrayLike, ArrayLike], float]) -> None:
    """Check ``margin(w, b, X, y)``: the geometric margin of ``(w, b)`` on ``(X, y)``.

    The margin is ``min_i y_i (w . x_i + b) / ||w||`` when every point is
    strictly on its correct side, and ``-inf`` otherwise (also when ``w`` is
    zero or a point lies on the boundary). Labels are -1 and +1.

    Examples
    --------
    >>> from perceptron_lib.theory import margin
    >>> check_margin(margin)
    All 9 checks passed for margin.
    """
    # The seeds' three-point example, (1,1,+), (0.5,3,+), (2,2,-), is used
    # with a separator and with a non-separator.
    three_X = [[1.0, 1.0], [0.5, 3.0], [2.0, 2.0]]
    three_y = [1, 1, -1]
    cases = [
        ([1.0], 0.0, [[2.0]], [1]),
        ([1.0], 0.0, [[2.0]], [-1]),
        ([0.0, 0.0], 1.0, [[1.0, 1.0]], [1]),
        ([1.0, 0.0], -1.0, [[1.0, 3.0], [3.0, 0.0]], [-1, 1]),
        ([2.0, 0.0], 0.0, [[2.0, 0.0], [-1.0, 5.0]], [1, -1]),
        ([20.0, 0.0], 0.0, [[2.0, 0.0], [-1.0, 5.0]], [1, -1]),
        ([-1.0, 0.0], 1.5, three_X, three_y),
        ([1.0, 0.0], -1.5, three_X, three_y),
        ([1.0, 1.0, 1.0], -1.0, [[1.0, 1.0, 1.0], [0.0, 0.0, 0.0], [0.5, 0.5, 0.5]], [1, -1, 1]),
    ]
    check_function(margin, _reference_margin, cases, name="margin", hint=_margin_hint)
