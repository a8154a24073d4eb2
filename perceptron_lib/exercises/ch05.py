"""Checks for the exercises of chapter 5, convergence.

The references are the library's own lifted quantities
(:mod:`perceptron_lib.convergence`), so a student's function that passes
agrees with the numbers the chapter computes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from ..convergence import lifted_bound, lifted_margin, lifted_radius
from . import check_function

__all__ = ["check_lifted_quantities", "check_scaled_bound"]


def _reference_lifted_quantities(
    X: ArrayLike, y: ArrayLike, w: ArrayLike, b: float
) -> tuple[float, float, float]:
    return (
        lifted_radius(X),
        lifted_margin(w, b, X, y),
        lifted_bound(w, b, X, y),
    )


def _unlifted(arguments: Mapping[str, Any]) -> tuple[float, float]:
    """The radius of x and the geometric margin: what a student who forgot the lift gets."""
    X, y, w = (np.asarray(arguments[key], dtype=float) for key in ("X", "y", "w"))
    b = float(arguments["b"])
    radius = float(np.linalg.norm(X, axis=1).max())
    return radius, float(np.min(y * (X @ w + b)) / np.linalg.norm(w))


def _lifted_hint(arguments: Mapping[str, Any], got: Any, expected: Any) -> str | None:
    if not isinstance(got, tuple | list) or len(got) != 3:
        return "return three numbers, (R, gamma, bound)."
    radius, geometric = _unlifted(arguments)
    if np.isclose(float(got[0]), radius) and not np.isclose(radius, expected[0]):
        return "R is the radius of the lifted examples (1, x): include the constant feature."
    if np.isclose(float(got[1]), geometric) and not np.isclose(geometric, expected[1]):
        return "divide by the length of the lifted weights (b, w), not of w alone."
    return None


def check_lifted_quantities(
    lifted_quantities: Callable[[ArrayLike, ArrayLike, ArrayLike, float], tuple],
) -> None:
    """Check ``lifted_quantities(X, y, w, b)``: ``(R, gamma, bound)`` in the lifted space.

    ``R = max_i ||(1, x_i)||``, ``gamma = min_i y_i (w . x_i + b) / ||(b, w)||``
    and ``bound = (R / gamma)^2``; a ``(w, b)`` that does not separate the
    data certifies no bound, and the function must raise ``ValueError``.

    Examples
    --------
    >>> from perceptron_lib.convergence import lifted_bound, lifted_margin, lifted_radius
    >>> check_lifted_quantities(
    ...     lambda X, y, w, b: (
    ...         lifted_radius(X), lifted_margin(w, b, X, y), lifted_bound(w, b, X, y)
    ...     )
    ... )
    All 6 checks passed for lifted_quantities.
    """
    three_X = [[1.0, 1.0], [0.5, 3.0], [2.0, 2.0]]
    cases = [
        ([[1.0], [-1.0]], [1, -1], [1.0], 0.0),
        ([[2.0], [0.0]], [1, -1], [1.0], -1.0),
        ([[3.0, 4.0], [-1.0, 0.0]], [1, -1], [1.0, 0.0], 0.0),
        (three_X, [1, 1, -1], [-1.0, 0.0], 1.5),
        (three_X, [1, 1, -1], [1.0, 0.0], -1.5),  # not a separator: ValueError
        ([[0.0, 0.0, 1.0], [1.0, 1.0, 0.0], [2.0, 0.0, 2.0]], [-1, 1, 1], [1.0, 1.0, 1.0], -0.5),
    ]
    check_function(
        lifted_quantities,
        _reference_lifted_quantities,
        cases,
        name="lifted_quantities",
        hint=_lifted_hint,
    )


def _reference_scaled_bound(X: ArrayLike, y: ArrayLike, w: ArrayLike, b: float, c: float) -> float:
    return lifted_bound(w, b, X, y, constant=c)


def _bound_with(X, y, w, b, constant_in_radius: float, bias_weight: float) -> float:
    X, y, w = (np.asarray(v, dtype=float) for v in (X, y, w))
    radius_sq = constant_in_radius**2 + float(np.max(np.sum(X**2, axis=1)))
    gamma = np.min(y * (X @ w + b)) / np.hypot(np.linalg.norm(w), bias_weight)
    return float(radius_sq / gamma**2)


def _scaled_hint(arguments: Mapping[str, Any], got: Any, expected: float) -> str | None:
    X, y, w, b, c = (arguments[key] for key in ("X", "y", "w", "b", "c"))
    try:
        got = float(got)
    except (TypeError, ValueError):
        return "return one number, the bound."
    if np.isclose(got, _bound_with(X, y, w, b, c, b)) and not np.isclose(got, expected):
        return (
            "with the constant feature c the lifted weight on it is b / c (so that "
            "(b / c) * c = b); you used b."
        )
    if np.isclose(got, _bound_with(X, y, w, b, 1.0, b / c)) and not np.isclose(got, expected):
        return "the lifted examples are (c, x): their radius includes c, not 1."
    return None


def check_scaled_bound(scaled_bound: Callable[..., float]) -> None:
    """Check ``scaled_bound(X, y, w, b, c)``: the bound when the constant feature is ``c``.

    The lifted examples are ``(c, x_i)`` and the lifted weights ``(b / c, w)``
    (the same activations), so ``R^2 = c^2 + max_i ||x_i||^2``,
    ``gamma = min_i y_i (w . x_i + b) / ||(b / c, w)||`` and the bound is
    ``(R / gamma)^2``.

    Examples
    --------
    >>> from perceptron_lib.convergence import lifted_bound
    >>> check_scaled_bound(lambda X, y, w, b, c: lifted_bound(w, b, X, y, constant=c))
    All 6 checks passed for scaled_bound.
    """
    three_X = [[1.0, 1.0], [0.5, 3.0], [2.0, 2.0]]
    cases = [
        ([[2.0], [0.0]], [1, -1], [1.0], -1.0, 1.0),
        ([[2.0], [0.0]], [1, -1], [1.0], -1.0, 2.0),
        ([[2.0], [0.0]], [1, -1], [1.0], -1.0, 0.5),
        ([[1.0], [-1.0]], [1, -1], [1.0], 0.0, 3.0),
        (three_X, [1, 1, -1], [-1.0, 0.0], 1.5, 10.0),
        (three_X, [1, 1, -1], [-1.0, 0.0], 1.5, 0.1),
    ]
    check_function(
        scaled_bound, _reference_scaled_bound, cases, name="scaled_bound", hint=_scaled_hint
    )
