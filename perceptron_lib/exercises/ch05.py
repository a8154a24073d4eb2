"""Checks for the exercises of chapter 5, convergence.

The references are the library's own lifted quantities
(:mod:`perceptron_lib.theory.convergence`), so a student's function that passes
agrees with the numbers the chapter computes.
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from ..data.features import add_constant_feature
from ..theory.convergence import lifted_bound, lifted_margin, lifted_radius
from ..theory.nonseparable import best_deviation_bound, deviation_bound, deviations
from . import check_function, diagnose, refuse_calls

__all__ = ["check_bound_with_deviations", "check_lifted_quantities", "check_scaled_bound"]

# The library's answers to this chapter's exercises: a student's function may not call them.
_LIBRARY_ANSWERS = (
    lifted_radius,
    lifted_margin,
    lifted_bound,
    deviations,
    deviation_bound,
    best_deviation_bound,
)
# The bound for any data asks for the deviations and the bound, not for R: the
# chapter computes R with lifted_radius throughout, so a student may too.
_DEVIATION_ANSWERS = (deviations, deviation_bound, best_deviation_bound)


def _reference_lifted_quantities(
    X: ArrayLike, y: ArrayLike, w: ArrayLike, b: float
) -> tuple[float, float, float]:
    return (
        lifted_radius(X),
        lifted_margin(w, b, X, y),
        lifted_bound(w, b, X, y),
    )


def _case(X, y, w, b, *rest) -> tuple:
    """A case as the chapter's cells hold their data: NumPy arrays, labels as integers."""
    return (np.array(X, dtype=float), np.array(y), np.array(w, dtype=float), b, *rest)


def _quantities(X, y, w, b, *, constant=1.0, bias_weight=None, with_bias=True, square=True):
    """``(R, gamma, bound)`` of the lifted space with the constant ``constant``, or a slip.

    ``bias_weight`` is the weight on the constant feature in the norm (right:
    ``b / constant``; ``0`` is the geometric margin); ``with_bias=False`` drops
    ``b`` from the activations; ``square=False`` returns ``R / gamma``. None
    if the slip would find no positive margin (its function would raise).
    """
    X, y, w = (np.asarray(v, dtype=float) for v in (X, y, w))
    b = float(b)
    bias_weight = b / constant if bias_weight is None else bias_weight
    radius = float(np.sqrt(constant**2 + np.max(np.sum(X**2, axis=1))))
    scores = y * (X @ w + (b if with_bias else 0.0))
    if np.any(scores <= 0):
        return None
    gamma = float(scores.min() / np.hypot(np.linalg.norm(w), bias_weight))
    return radius, gamma, (radius / gamma) ** (2 if square else 1)


_BOUNDARY_HINT = (
    "an example exactly on the boundary (y a = 0) is not separated either: test "
    "y * a <= 0, not < 0, and raise ValueError."
)
_PREDICTION_HINT = (
    "the example on the boundary (a = 0) has label -1: the prediction rule "
    "(+1 if a > 0, -1 otherwise) gets its label right, but it is not separated, "
    "and a margin needs y a > 0 for every example. Test y * a <= 0, not the "
    "predictions, and raise ValueError."
)
_PREDICTION_AT_ZERO_HINT = (
    "the example on the boundary (a = 0) has label +1, and your test counts it "
    "as right, as a prediction of +1 at a = 0 would: but the course predicts -1 "
    "there, and in any case an example on the boundary is not separated (a margin "
    "needs y a > 0 for every example). Test y * a <= 0 and raise ValueError."
)


def _boundary_slip(
    arguments: Mapping[str, Any], got: Any, expected: Any, answer: Callable[..., Any]
) -> list[str]:
    """An example on the boundary taken as separated: which of two slips.

    The strict test ``y * a < 0`` and a comparison of the prediction rule's
    output with the labels (``-1`` at ``a = 0``) both accept an example of
    label ``-1`` on the boundary, so the returned value cannot tell them
    apart. The mirrored case (``-y``, ``-w``, ``-b``: the same ``y a``, the
    example now labelled ``+1``) can: the strict test still accepts it, the
    prediction rule now gets it wrong and raises. Likewise for an example of
    label ``+1`` on the boundary, accepted by the strict test and by a
    prediction of ``+1`` at ``a = 0`` (``>=``), which the mirror tells apart.
    """
    if not isinstance(expected, ValueError) or got is None:
        return []
    X, y, w = (np.asarray(arguments[key], dtype=float) for key in ("X", "y", "w"))
    b = float(arguments["b"])
    activations = X @ w + b
    if np.min(y * activations) != 0:
        return []
    labels_on_boundary = set(y[activations == 0].tolist())
    if len(labels_on_boundary) != 1:
        return []
    mirrored = {**arguments, "X": X.copy(), "y": -np.asarray(arguments["y"]), "w": -w, "b": -b}
    try:
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the probe's own warnings are not the student's
            answer(**mirrored)
    except ValueError:  # the slip depends on the label: a comparison of predictions
        return [_PREDICTION_HINT if labels_on_boundary == {-1.0} else _PREDICTION_AT_ZERO_HINT]
    except Exception:  # noqa: BLE001 - any other failure says nothing about the slip
        return []
    return [_BOUNDARY_HINT]


def _lifted_hint(
    arguments: Mapping[str, Any], got: Any, expected: Any, answer: Callable[..., Any]
) -> list[str]:
    if isinstance(expected, ValueError):
        return _boundary_slip(arguments, got, expected, answer)
    X, y, w, b = (arguments[key] for key in ("X", "y", "w", "b"))
    unlifted_radius = float(np.max(np.linalg.norm(np.asarray(X, dtype=float), axis=1)))
    right = _quantities(X, y, w, b)
    slips = [
        (
            (unlifted_radius, right[1], (unlifted_radius / right[1]) ** 2),
            "R is the radius of the lifted examples (1, x): include the constant feature.",
        ),
        (
            _quantities(X, y, w, b, bias_weight=0.0),
            "divide by the length of the lifted weights (b, w), not of w alone.",
        ),
        (
            _quantities(X, y, w, b, with_bias=False),
            "the activation is w . x + b: the bias belongs in the margin's numerator.",
        ),
        (_quantities(X, y, w, b, square=False), "the bound is (R / gamma) squared."),
    ]
    return diagnose(got, expected, [(value, hint) for value, hint in slips if value is not None])


def check_lifted_quantities(
    lifted_quantities: Callable[[ArrayLike, ArrayLike, ArrayLike, float], tuple],
) -> None:
    """Check ``lifted_quantities(X, y, w, b)``: ``(R, gamma, bound)`` in the lifted space.

    ``R = max_i ||(1, x_i)||``, ``gamma = min_i y_i (w . x_i + b) / ||(b, w)||``
    and ``bound = (R / gamma)^2``; a ``(w, b)`` that does not separate the
    data (some ``y_i (w . x_i + b) <= 0``, an example on the boundary included)
    certifies no bound, and the function must raise ``ValueError``. ``X``,
    ``y`` and ``w`` are NumPy arrays. The library's ``lifted_radius``,
    ``lifted_margin`` and ``lifted_bound`` are the answer, so the function may
    not call them.

    Examples
    --------
    >>> import numpy as np
    >>> def lifted_quantities(X, y, w, b):
    ...     scores = y * (X @ w + b)
    ...     if np.any(scores <= 0):
    ...         raise ValueError("not a separator")
    ...     R = np.sqrt(1 + np.max(np.sum(X**2, axis=1)))
    ...     gamma = scores.min() / np.sqrt(w @ w + b * b)
    ...     return R, gamma, (R / gamma) ** 2
    >>> check_lifted_quantities(lifted_quantities)
    All 9 checks passed for lifted_quantities.
    """
    refuse_calls(lifted_quantities, _LIBRARY_ANSWERS, name="lifted_quantities")
    three_X = [[1.0, 1.0], [0.5, 3.0], [2.0, 2.0]]
    cases = [
        _case([[1.0], [-1.0]], [1, -1], [1.0], 0.0),
        _case([[1.0], [0.0]], [1, -1], [1.0], 0.0),  # on the boundary: ValueError
        _case([[0.0], [-1.0]], [1, -1], [1.0], 0.0),  # a +1 on the boundary: ValueError
        _case([[2.0], [0.0]], [1, -1], [1.0], -1.0),
        _case([[3.0, 4.0], [-1.0, 0.0]], [1, -1], [1.0, 0.0], 0.0),
        _case(three_X, [1, 1, -1], [-1.0, 0.0], 1.5),
        _case(three_X, [-1, -1, 1], [-1.0, 0.0], 1.5),  # the labels flipped: ValueError
        _case(three_X, [1, 1, -1], [1.0, 0.0], -1.5),  # not a separator: ValueError
        _case(
            [[0.0, 0.0, 1.0], [1.0, 1.0, 0.0], [2.0, 0.0, 2.0]], [-1, 1, 1], [1.0, 1.0, 1.0], -0.5
        ),
    ]
    check_function(
        lifted_quantities,
        _reference_lifted_quantities,
        cases,
        name="lifted_quantities",
        hint=functools.partial(_lifted_hint, answer=lifted_quantities),
    )


def _reference_scaled_bound(X: ArrayLike, y: ArrayLike, w: ArrayLike, b: float, s: float) -> float:
    return lifted_bound(w, b, X, y, constant=s)


def _scaled_hint(
    arguments: Mapping[str, Any], got: Any, expected: Any, answer: Callable[..., Any]
) -> list[str]:
    if isinstance(expected, ValueError):
        return _boundary_slip(arguments, got, expected, answer)
    X, y, w, b, s = (arguments[key] for key in ("X", "y", "w", "b", "s"))
    slips = [
        (
            _quantities(X, y, w, b, constant=s, bias_weight=b),
            "with the constant feature s the lifted weight on it is b / s (so that "
            "(b / s) * s = b); you used b.",
        ),
        (
            _quantities(X, y, w, b, constant=1.0, bias_weight=b / s),
            "the lifted examples are (s, x): their radius includes s, not 1.",
        ),
        (
            _quantities(X, y, w, b, constant=s, with_bias=False),
            "the activation is w . x + b: the bias belongs in the margin's numerator.",
        ),
    ]
    return diagnose(
        got, expected, [(value[2], hint) for value, hint in slips if value is not None]
    )


def check_scaled_bound(scaled_bound: Callable[..., float]) -> None:
    """Check ``scaled_bound(X, y, w, b, s)``: the bound when the constant feature is ``s``.

    The lifted examples are ``(s, x_i)`` and the lifted weights ``(b / s, w)``
    (the same activations), so ``R^2 = s^2 + max_i ||x_i||^2``,
    ``gamma = min_i y_i (w . x_i + b) / ||(b / s, w)||`` and the bound is
    ``(R / gamma)^2``. A ``(w, b)`` that does not separate the data (an example
    on the boundary included) certifies no bound: raise ``ValueError``. ``X``,
    ``y`` and ``w`` are NumPy arrays.

    Examples
    --------
    >>> import numpy as np
    >>> def scaled_bound(X, y, w, b, s):
    ...     scores = y * (X @ w + b)
    ...     if np.any(scores <= 0):
    ...         raise ValueError("not a separator")
    ...     gamma = scores.min() / np.sqrt(w @ w + (b / s) ** 2)
    ...     return (s * s + np.max(np.sum(X**2, axis=1))) / gamma**2
    >>> check_scaled_bound(scaled_bound)
    All 9 checks passed for scaled_bound.
    """
    refuse_calls(scaled_bound, _LIBRARY_ANSWERS, name="scaled_bound")
    three_X = [[1.0, 1.0], [0.5, 3.0], [2.0, 2.0]]
    cases = [
        _case([[2.0], [0.0]], [1, -1], [1.0], -1.0, 1.0),
        _case([[2.0], [0.0]], [1, -1], [1.0], -1.0, 2.0),
        _case([[2.0], [0.0]], [1, -1], [1.0], -1.0, 0.5),
        _case([[1.0], [-1.0]], [1, -1], [1.0], 0.0, 3.0),
        _case([[2.0], [1.0]], [1, -1], [1.0], -1.0, 2.0),  # on the boundary: ValueError
        _case([[1.0], [0.0]], [1, -1], [1.0], -1.0, 2.0),  # a +1 on the boundary: ValueError
        _case(three_X, [1, 1, -1], [-1.0, 0.0], 1.5, 10.0),
        _case(three_X, [1, 1, -1], [-1.0, 0.0], 1.5, 0.1),
        _case(three_X, [1, -1, -1], [-1.0, 0.0], 1.5, 2.0),  # not a separator: ValueError
    ]
    check_function(
        scaled_bound,
        _reference_scaled_bound,
        cases,
        name="scaled_bound",
        hint=functools.partial(_scaled_hint, answer=scaled_bound),
    )


def _reference_bound_with_deviations(
    X: ArrayLike, y: ArrayLike, u: ArrayLike, gamma: float
) -> tuple[float, float]:
    u = np.asarray(u, dtype=float)
    if not np.any(u):
        raise ValueError("u is zero: it has no direction")
    result = deviation_bound(X, y, u / np.linalg.norm(u), gamma)
    return result.deviation_norm, result.bound


def _deviation_slip(
    X, y, u, gamma, *, normalise=True, clip=True, root=True, constant=True, square=True
) -> tuple[float, float]:
    """``(||zeta||, bound)`` as a function with one slip computes it (all True: right)."""
    X, y, u = (np.asarray(v, dtype=float) for v in (X, y, u))
    if normalise:
        u = u / np.linalg.norm(u)
    Z = np.hstack([np.ones((X.shape[0], 1)), X])
    shortfall = gamma - y * (Z @ u)
    zeta = np.maximum(0.0, shortfall) if clip else shortfall
    norm = float(np.sqrt(np.sum(zeta**2))) if root else float(np.sum(zeta**2))
    radius = float(np.max(np.linalg.norm(Z if constant else X, axis=1)))
    ratio = (radius + norm) / gamma
    return norm, ratio**2 if square else ratio


def _deviation_hint(arguments: Mapping[str, Any], got: Any, expected: Any) -> list[str]:
    if isinstance(expected, ValueError):
        return []
    X, y, u, gamma = (arguments[key] for key in ("X", "y", "u", "gamma"))
    slips = [
        (
            _deviation_slip(X, y, u, gamma, normalise=False),
            "the theorem measures margins along a unit vector: divide u by its length first.",
        ),
        (
            _deviation_slip(X, y, u, gamma, clip=False),
            "a deviation is max(0, gamma - y u . (1, x)): an example with a margin "
            "larger than gamma deviates by 0, not by a negative amount.",
        ),
        (
            _deviation_slip(X, y, u, gamma, root=False),
            "||zeta|| is the square root of the sum of the squared deviations.",
        ),
        (
            _deviation_slip(X, y, u, gamma, constant=False),
            "R is the radius of the lifted examples (1, x): include the constant feature.",
        ),
        (
            _deviation_slip(X, y, u, gamma, square=False),
            "the bound is ((R + ||zeta||) / gamma) squared.",
        ),
    ]
    return diagnose(got, expected, slips)


def check_bound_with_deviations(bound_with_deviations: Callable[..., tuple]) -> None:
    """Check ``bound_with_deviations(X, y, u, gamma)``: ``(||zeta||, bound)`` for any data.

    ``u`` is a nonzero vector of the lifted space (the constant's weight
    first), not necessarily of length 1: the function divides it by its
    length. With ``z_i = (1, x_i)``, the deviations are
    ``zeta_i = max(0, gamma - y_i u . z_i)``, ``||zeta||`` is the square root
    of the sum of their squares, ``R = max_i ||z_i||``, and the bound is
    ``((R + ||zeta||) / gamma)^2``. A zero ``u`` has no direction: raise
    ``ValueError``. ``X``, ``y`` and ``u`` are NumPy arrays. The library's
    ``deviations``, ``deviation_bound`` and ``best_deviation_bound`` are the
    answer, so the function may not call them; ``lifted_radius`` may be used
    for ``R``.

    Examples
    --------
    >>> import numpy as np
    >>> def bound_with_deviations(X, y, u, gamma):
    ...     if not np.any(u):
    ...         raise ValueError("u is zero")
    ...     Z = np.hstack([np.ones((len(X), 1)), X])
    ...     zeta = np.maximum(0.0, gamma - y * (Z @ u) / np.linalg.norm(u))
    ...     norm = np.sqrt(np.sum(zeta**2))
    ...     R = np.max(np.linalg.norm(Z, axis=1))
    ...     return norm, ((R + norm) / gamma) ** 2
    >>> check_bound_with_deviations(bound_with_deviations)
    All 7 checks passed for bound_with_deviations.
    """
    refuse_calls(bound_with_deviations, _DEVIATION_ANSWERS, name="bound_with_deviations")
    cases = [
        _case([[2.0], [0.5], [1.0]], [1, 1, -1], [0.0, 1.0], 1.0),
        _case([[2.0], [0.5], [1.0]], [1, 1, -1], [0.0, 2.0], 1.0),  # u of length 2
        _case([[1.0], [-1.0]], [1, -1], [1.0, 1.0], 0.5),
        _case([[1.0], [-1.0]], [1, -1], [0.0, 1.0], 0.5),  # separable: ||zeta|| = 0
        _case([[1.0]], [1], [0.0, 0.0], 1.0),  # u = 0: ValueError
        _case([[1.0, 1.0], [0.5, 3.0], [2.0, 2.0]], [1, 1, -1], [1.5, -2.0, 1.0], 0.3),
        _case([[3.0, 4.0], [-1.0, 0.0]], [1, -1], [0.0, 0.6, 0.8], 10.0),
    ]
    check_function(
        bound_with_deviations,
        _reference_bound_with_deviations,
        cases,
        name="bound_with_deviations",
        hint=_deviation_hint,
        returns=("deviation_norm", "bound"),
    )


# The library's functions an answer may call while ``make grade`` grades it, by
# checker (none for a checker not listed): the grader refuses an answer that
# reaches any other function of the library, which holds every solution.
PERMITTED_HELPERS: dict[str, tuple] = {
    "check_lifted_quantities": (add_constant_feature,),
    "check_scaled_bound": (add_constant_feature,),
    "check_bound_with_deviations": (add_constant_feature, lifted_radius),
}
