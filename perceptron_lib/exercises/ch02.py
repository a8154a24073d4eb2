"""Checks for the exercises of chapter 2, the geometry of a linear classifier.

The references are the library's own :func:`perceptron_lib.theory.geometry.signed_distance`
and :func:`perceptron_lib.theory.geometry.margin`, so a student's function that passes
agrees with the functions the later chapters use.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..theory.geometry import margin as _library_margin
from ..theory.geometry import signed_distance as _library_signed_distance
from . import check_function, diagnose, mismatch

__all__ = ["check_margin", "check_projection", "check_signed_distance"]


def _array(values: ArrayLike) -> NDArray[np.float64]:
    """A vector or matrix of a case, as the chapter's cells hold their data: a NumPy array.

    Arrays, not lists, so that a right answer written with NumPy operators
    (``v @ u``, ``X @ w + b``) passes; one written with loops over the
    elements passes too. ``b`` stays a float and the labels integers.
    """
    return np.array(values, dtype=float)


def _fitting(got: Any, expected: Any, mistakes: list[tuple[Any, str]]) -> list[str]:
    """The hints of ``mistakes`` that reproduce ``got``, skipping those with no value here.

    A mistake whose value on the case is ``None`` cannot be told apart there. It is
    left out, never given a ``nan`` as a stand-in: :func:`diagnose` takes ``nan`` to
    equal ``nan``, so a stand-in would fit every ``nan`` answer, whatever its cause.
    A ``nan`` the mistake itself computes (a ``0 / 0``) stays: it is that mistake's answer.
    """
    known = [(value, hint) for value, hint in mistakes if value is not None]
    return diagnose(got, expected, known)


def _reference_projection(v: ArrayLike, u: ArrayLike) -> float:
    u = np.asarray(u, dtype=float)
    return float(np.dot(v, u) / np.linalg.norm(u))


def _projection_hint(arguments: Mapping[str, Any], got: Any, expected: Any) -> list[str]:
    v, u = np.asarray(arguments["v"], dtype=float), np.asarray(arguments["u"], dtype=float)
    dot = float(v @ u)
    # The right value, recomputed: ``expected`` is not always a number (see check_function).
    right = dot / float(np.linalg.norm(u))
    length_v = float(np.linalg.norm(v))
    with np.errstate(invalid="ignore"):  # v = 0: both slips below compute 0 / 0 = nan
        over_length_v = float(np.float64(dot) / length_v)
        # ||v|| cos(u, v) with cos = u . v / (||u|| ||v||): right, except nan at v = 0.
        through_angle = float(length_v * (np.float64(dot) / (np.linalg.norm(u) * length_v)))
    return _fitting(
        got,
        expected,
        [
            (dot, "that is v . u; divide by the length of u, so that only its direction counts."),
            (
                dot / float(u @ u),
                "that divides v . u by the squared length u . u; divide by the length "
                "||u|| = sqrt(u . u) itself.",
            ),
            (over_length_v, "divide by the length of u (the direction projected onto), not of v."),
            (
                through_angle,
                "at v = 0 the angle between u and v is undefined (its cosine "
                "u . v / (||u|| ||v||) is 0 / 0 = nan); the projection u . v / ||u|| "
                "needs no angle.",
            ),
            (abs(right), "keep the sign: a v that points away from u projects negatively."),
        ],
    )


def check_projection(project: Callable[[ArrayLike, ArrayLike], float]) -> None:
    """Check ``project(v, u)``: the signed length of the projection of ``v`` onto ``u``.

    The answer is ``v . u / ||u||``: how far ``v`` reaches in the direction of
    ``u`` (negative if it points away). ``v`` and ``u`` are NumPy arrays, and
    ``u`` is never the zero vector (``v`` is, in one case).

    Examples
    --------
    >>> import numpy as np
    >>> check_projection(lambda v, u: v @ u / np.linalg.norm(u))
    All 8 checks passed for project.
    """
    cases = [
        (_array(v), _array(u))
        for v, u in [
            ([0.0, 0.0], [1.0, 0.0]),
            ([3.0, 4.0], [1.0, 0.0]),
            ([3.0, 4.0], [0.0, 2.0]),
            ([0.37, 0.73], [0.8, 0.6]),
            ([-2.0, 1.0], [3.0, 4.0]),
            ([1.0, -1.0], [-1.0, 1.0]),
            ([1.0, 1.0, 1.0], [0.0, 0.0, -5.0]),
            ([2.0], [-0.5]),
        ]
    ]
    check_function(project, _reference_projection, cases, name="project", hint=_projection_hint)


def _reference_signed_distance(w: ArrayLike, b: float, X: ArrayLike) -> NDArray[np.float64]:
    return _library_signed_distance(w, b, X)


def _distance_hint(arguments: Mapping[str, Any], got: Any, expected: Any) -> list[str]:
    w, b, X = (np.asarray(arguments[key], dtype=float) for key in ("w", "b", "X"))
    activations = X @ w + b
    norm = float(np.linalg.norm(w))
    right = activations / norm  # recomputed: ``expected`` is not always an array
    if np.shape(got) != activations.shape:
        return ["return one distance per row of X, an array of shape (n_samples,)."]
    return _fitting(
        got,
        expected,
        [
            (activations, "those are the activations w . x + b; divide them by the length of w."),
            (
                activations / norm**2,
                "that divides by the squared length w . w; divide by ||w|| = sqrt(w . w).",
            ),
            (np.abs(right), "keep the sign: points on the side w points away from are negative."),
            ((X @ w) / norm, "the bias is missing: the distance is (w . x + b) / ||w||."),
            ((X @ w - b) / norm, "the bias is added to w . x, not subtracted."),
        ],
    )


def check_signed_distance(
    signed_distance: Callable[[ArrayLike, float, ArrayLike], ArrayLike],
) -> None:
    """Check ``signed_distance(w, b, X)``: ``(X @ w + b) / ||w||``, one value per row.

    ``w`` and ``X`` are NumPy arrays, ``b`` a float. Cases include points on
    the boundary, the origin, a zero bias, negative values, weights that are
    not of unit length and three features.

    Examples
    --------
    >>> import numpy as np
    >>> check_signed_distance(lambda w, b, X: (X @ w + b) / np.linalg.norm(w))
    All 8 checks passed for signed_distance.
    """
    cases = [
        (_array(w), b, _array(X))
        for w, b, X in [
            ([1.0, 0.0], 0.0, [[2.0, 5.0]]),
            ([3.0, 4.0], -5.0, [[0.0, 0.0]]),
            ([3.0, 4.0], -5.0, [[3.0, 4.0], [0.0, 0.0]]),
            ([0.0, -2.0], 1.0, [[1.0, 0.5], [0.0, 0.0], [-3.0, 2.0]]),
            ([1.0, 1.0], -1.0, [[1.0, 0.0], [0.0, 1.0], [2.0, 2.0]]),
            ([-1.0, 2.0], 0.5, [[-1.0, -1.0], [4.0, 0.0], [0.5, 0.5]]),
            ([1.0, 2.0, 2.0], 3.0, [[0.0, 0.0, 0.0], [1.0, 1.0, 1.0]]),
            ([0.6, 0.8], 0.0, [[1.0, 3.0], [2.0, 3.0], [-3.0, 1.0], [1.0, -1.0]]),
        ]
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


_NOT_SEPARATING = (
    "some point is on the wrong side or exactly on the boundary (y (w . x + b) <= 0), "
    "so (w, b) does not separate the data: the margin is -inf."
)


def _margin_hint(arguments: Mapping[str, Any], got: Any, expected: float) -> list[str]:
    w, b, X, y = (np.asarray(arguments[key], dtype=float) for key in ("w", "b", "X", "y"))
    activations = X @ w + b
    scores = y * activations
    norm = float(np.linalg.norm(w))

    def margin_of(values: NDArray[np.float64], divide_by: float) -> float:
        # What a margin function computes from ``values`` in place of y (w . x + b).
        if divide_by == 0.0 or np.any(values <= 0):
            return -np.inf
        return float(values.min() / divide_by)

    mistakes = [
        (
            margin_of(activations, norm),
            "use the labels: the margin is the smallest y_i (w . x_i + b) / ||w||, and a "
            "negative example is on its correct side when its activation is negative.",
        ),
        (
            margin_of(np.abs(activations), norm),
            "use the labels: |w . x + b| is a distance, but only y (w . x + b) says "
            "whether the point is on its correct side.",
        ),
        (margin_of(scores, 1.0), "divide the smallest y (w . x + b) by the length of w."),
        # Not checking for y (w . x + b) <= 0 at all, and checking only < 0, often
        # look alike on the failing case: one hint for both.
        # At w = 0 this slip divides by zero: no value to compare (None, not a nan).
        (float(scores.min() / norm) if norm else None, _NOT_SEPARATING),
        (
            -np.inf if norm == 0.0 or np.any(scores < 0) else float(scores.min() / norm),
            _NOT_SEPARATING,
        ),
    ]
    hints = _fitting(got, expected, mistakes)
    if norm == 0.0 and expected == -np.inf and mismatch(got, expected) is not None:
        hints.append("w = 0 is no boundary at all: its margin is -inf.")
    return hints


def check_margin(margin: Callable[[ArrayLike, float, ArrayLike, ArrayLike], float]) -> None:
    """Check ``margin(w, b, X, y)``: the geometric margin of ``(w, b)`` on ``(X, y)``.

    The margin is ``min_i y_i (w . x_i + b) / ||w||`` when every point is
    strictly on its correct side, and ``-inf`` otherwise (also when ``w`` is
    zero or a point lies on the boundary). ``w``, ``X`` and ``y`` are NumPy
    arrays, ``b`` a float; the labels are the integers -1 and +1.

    Examples
    --------
    >>> from perceptron_lib.theory.geometry import margin
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
    cases = [(_array(w), b, _array(X), np.array(y)) for w, b, X, y in cases]
    check_function(margin, _reference_margin, cases, name="margin", hint=_margin_hint)


# The library's functions an answer may call while ``make grade`` grades it, by
# checker (none for a checker not listed): the grader refuses an answer that
# reaches any other function of the library, which holds every solution.
PERMITTED_HELPERS: dict[str, tuple] = {}
