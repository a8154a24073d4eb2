"""Checks for the exercises of chapter 4, training in practice.

The references are :mod:`perceptron_lib.theory.losses` (the perceptron criterion and
its gradient, the step :class:`~perceptron_lib.BatchPerceptron` takes) and a
one-line early-stopping rule.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..theory.losses import perceptron_criterion as _library_criterion
from ..theory.losses import perceptron_criterion_gradient as _library_gradient
from . import check_function

__all__ = ["check_best_pass", "check_criterion", "check_criterion_gradient"]

# Small cases shared by the two loss checks: a tie at zero weights, a point on
# the wrong side, a separating (w, b), the seeds' three examples.
_THREE_X = [[1.0, 1.0], [0.5, 3.0], [2.0, 2.0]]
_THREE_Y = [1, 1, -1]
_LOSS_CASES = [
    ([1.0], 0.0, [[2.0]], [1]),
    ([1.0], 0.0, [[2.0]], [-1]),
    ([0.0, 0.0], 0.0, [[1.0, 3.0], [2.0, 3.0]], [1, -1]),
    ([1.0, 0.0], 0.0, [[2.0, 1.0], [-1.0, 3.0]], [1, 1]),
    ([-1.0, 0.0], 1.5, _THREE_X, _THREE_Y),
    ([1.0, 0.0], -1.5, _THREE_X, _THREE_Y),
    ([0.5, -1.0, 2.0], 0.25, [[1.0, 2.0, -1.0], [0.0, 1.0, 1.0], [2.0, 0.0, 0.0]], [1, -1, 1]),
]


def _reference_criterion(w: ArrayLike, b: float, X: ArrayLike, y: ArrayLike) -> float:
    return _library_criterion(w, b, X, y)


def _criterion_hint(arguments: Mapping[str, Any], got: Any, expected: float) -> str | None:
    w, b, X, y = (np.asarray(arguments[key], dtype=float) for key in ("w", "b", "X", "y"))
    margins = y * (X @ w + b)
    try:
        got = float(got)
    except (TypeError, ValueError):
        return "return one number, the mean over all examples."
    if np.isclose(got, np.maximum(0.0, -margins).sum()) and X.shape[0] > 1:
        return "divide the sum by the number of examples n."
    if np.isclose(got, np.maximum(0.0, margins).mean()):
        return (
            "mind the sign: a misclassified example has y (w . x + b) <= 0 and costs its negative."
        )
    wrong_predictions = np.mean(np.where(X @ w + b > 0, 1.0, -1.0) != y)
    if np.isclose(got, np.mean(margins <= 0)) or np.isclose(got, wrong_predictions):
        return (
            "that counts mistakes (the 0/1 loss); charge each mistake "
            "max(0, -y (w . x + b)), not 1."
        )
    return None


def check_criterion(criterion: Callable[[ArrayLike, float, ArrayLike, ArrayLike], float]) -> None:
    """Check ``criterion(w, b, X, y)``: ``(1/n) sum_i max(0, -y_i (w . x_i + b))``.

    Labels are -1 and +1.

    Examples
    --------
    >>> from perceptron_lib.theory.losses import perceptron_criterion
    >>> check_criterion(perceptron_criterion)
    All 7 checks passed for criterion.
    """
    check_function(
        criterion, _reference_criterion, _LOSS_CASES, name="criterion", hint=_criterion_hint
    )


def _reference_gradient(w: ArrayLike, b: float, X: ArrayLike, y: ArrayLike):
    return _library_gradient(w, b, X, y)


def _gradient_hint(arguments: Mapping[str, Any], got: Any, expected: Any) -> str | None:
    if not isinstance(got, tuple | list) or len(got) != 2:
        return "return two values: the gradient for w (an array) and for b (a number)."
    n = len(arguments["y"])
    grad_w = np.asarray(got[0], dtype=float)
    if grad_w.shape == expected[0].shape:
        if np.allclose(grad_w, -expected[0]) and np.any(expected[0]):
            return "the sign is flipped: each mistake contributes -y x, not +y x."
        if n > 1 and np.allclose(grad_w, n * expected[0]) and np.any(expected[0]):
            return "divide the sum by the number of examples n."
    X, y = np.asarray(arguments["X"], dtype=float), np.asarray(arguments["y"], dtype=float)
    margins = y * (X @ np.asarray(arguments["w"], dtype=float) + arguments["b"])
    strict = margins < 0  # the subgradient that does not count ties as mistakes
    strict_w, strict_b = -(y[strict] @ X[strict]) / n, -float(y[strict].sum()) / n
    if (
        np.any(margins == 0)
        and grad_w.shape == strict_w.shape
        and np.allclose(grad_w, strict_w)
        and np.isclose(float(got[1]), strict_b)
    ):
        return "an example with y (w . x + b) = 0 counts as a mistake here, as in the perceptron."
    return None


def check_criterion_gradient(gradient: Callable[[ArrayLike, float, ArrayLike, ArrayLike], Any]):
    """Check ``gradient(w, b, X, y) -> (grad_w, grad_b)``, the criterion's subgradient.

    ``grad_w = -(1/n) sum y_i x_i`` and ``grad_b = -(1/n) sum y_i`` over the
    examples with ``y_i (w . x_i + b) <= 0`` (the gradient where no activation
    is 0; at a tie, the subgradient that counts the example as a mistake).

    Examples
    --------
    >>> from perceptron_lib.theory.losses import perceptron_criterion_gradient
    >>> check_criterion_gradient(perceptron_criterion_gradient)
    All 7 checks passed for gradient.
    """
    check_function(
        gradient, _reference_gradient, _LOSS_CASES, name="gradient", hint=_gradient_hint
    )


def _reference_best_pass(validation_errors: ArrayLike) -> int:
    errors = np.asarray(validation_errors, dtype=float)
    if errors.ndim != 1 or errors.size == 0:
        raise ValueError("validation_errors must be a non-empty 1-d sequence.")
    return int(np.argmin(errors)) + 1  # argmin returns the first of equal minima


def _last_pass_before_first_rise(errors: NDArray) -> int:
    """The slip: stop as soon as a pass does not improve, keeping the pass before it."""
    for e in range(1, errors.size):
        if errors[e] >= errors[e - 1]:  # pass e + 1 does not improve on pass e
            return e
    return errors.size


def _best_pass_hint(arguments: Mapping[str, Any], got: Any, expected: int) -> str | None:
    errors = np.asarray(arguments["validation_errors"], dtype=float)
    first_stop = _last_pass_before_first_rise(errors)
    if got == first_stop != expected:
        return (
            f"the error stops falling after pass {first_stop} but falls again later: "
            "early stopping keeps the pass with the smallest error among all the passes "
            "made, not the last pass before the first rise."
        )
    if got == expected - 1:
        return "passes are counted from 1: the first entry is the error after pass 1."
    minima = np.flatnonzero(errors == errors.min()) + 1
    if got in minima.tolist():
        return "several passes share the smallest error: stop at the earliest of them."
    return None


def check_best_pass(best_pass: Callable[[ArrayLike], int]) -> None:
    """Check ``best_pass(validation_errors) -> int``: when early stopping would stop.

    ``validation_errors[e - 1]`` is the held-out error after pass ``e``. The
    answer is the pass number (from 1) with the smallest error among all the
    passes, the earliest one if several tie (fewer passes, same error).

    Examples
    --------
    >>> import numpy as np
    >>> check_best_pass(lambda errors: int(np.argmin(errors)) + 1)
    All 7 checks passed for best_pass.
    """
    cases = [
        ([0.2],),
        ([0.3, 0.1],),
        ([0.1, 0.3],),
        ([0.4, 0.2, 0.2, 0.3],),
        # The error rises after pass 2 and then falls below it: the answer is pass 4.
        ([0.3, 0.2, 0.25, 0.1],),
        ([0.5, 0.25, 0.125, 0.1, 0.12, 0.15],),
        ([0.3, 0.2, 0.1, 0.1, 0.1, 0.2, 0.1, 0.3],),
    ]
    check_function(best_pass, _reference_best_pass, cases, name="best_pass", hint=_best_pass_hint)
