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
# the wrong side, a separating (w, b), the seeds' three examples. They are NumPy
# arrays, as in the chapter, so that both a NumPy answer (X @ w) and a plain
# Python one (zip, sum) work; each call gets its own copy (check_function).
_THREE_X = [[1.0, 1.0], [0.5, 3.0], [2.0, 2.0]]
_THREE_Y = [1, 1, -1]
_LOSS_CASES = [
    tuple(np.array(value) if isinstance(value, list) else value for value in case)
    for case in [
        ([1.0], 0.0, [[2.0]], [1]),
        ([1.0], 0.0, [[2.0]], [-1]),
        ([0.0, 0.0], 0.0, [[1.0, 3.0], [2.0, 3.0]], [1, -1]),
        ([1.0, 0.0], 0.0, [[2.0, 1.0], [-1.0, 3.0]], [1, 1]),
        ([-1.0, 0.0], 1.5, _THREE_X, _THREE_Y),
        ([1.0, 0.0], -1.5, _THREE_X, _THREE_Y),
        ([0.5, -1.0, 2.0], 0.25, [[1.0, 2.0, -1.0], [0.0, 1.0, 1.0], [2.0, 0.0, 0.0]], [1, -1, 1]),
    ]
]


def _reference_criterion(w: ArrayLike, b: float, X: ArrayLike, y: ArrayLike) -> float:
    return _library_criterion(w, b, X, y)


def _criterion_hint(arguments: Mapping[str, Any], got: Any, expected: float) -> str | None:
    w, b, X, y = (np.asarray(arguments[key], dtype=float) for key in ("w", "b", "X", "y"))
    activations = X @ w + b
    margins = y * activations
    try:
        got = float(got)
    except (TypeError, ValueError):
        return "return one number, the mean over all examples."
    n, mistakes = X.shape[0], int(np.count_nonzero(margins <= 0))
    charged = np.maximum(0.0, -margins).sum()
    if 0 < mistakes < n and np.isclose(got, charged / mistakes):
        # With one mistake this is also the plain sum: the hint covers both slips.
        return "divide the sum by the number of examples n, not by the number of mistakes" + (
            " (here 1)." if mistakes == 1 else "."
        )
    if np.isclose(got, charged) and n > 1:
        return "divide the sum by the number of examples n."
    if np.isnan(got) and mistakes == 0:
        return (
            "no example is a mistake here, so the criterion is 0: divide the sum by the "
            "number of examples n, not by the number of mistakes (here 0)."
        )
    # Two slips charge correctly classified examples: the mean of |w . x + b| over all
    # examples, and the mean of max(0, +y (w . x + b)). Where both fit, say what they share.
    absolute = np.isclose(got, np.abs(activations).mean())
    signed = np.isclose(got, np.maximum(0.0, margins).mean())
    if absolute and signed:
        return (
            "a correctly classified example, with y (w . x + b) > 0, costs nothing: only "
            "mistakes are charged, each max(0, -y (w . x + b))."
        )
    if absolute:
        return (
            "that charges every example |w . x + b|; a correctly classified one, with "
            "y (w . x + b) > 0, costs nothing: charge max(0, -y (w . x + b))."
        )
    if signed:
        return (
            "mind the sign: a misclassified example has y (w . x + b) <= 0 and costs its negative."
        )
    wrong_predictions = np.mean(np.where(activations > 0, 1.0, -1.0) != y)
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
    X, y = np.asarray(arguments["X"], dtype=float), np.asarray(arguments["y"], dtype=float)
    margins = y * (X @ np.asarray(arguments["w"], dtype=float) + arguments["b"])
    mistakes = int(np.count_nonzero(margins <= 0))
    if (
        0 < mistakes < n
        and grad_w.shape == expected[0].shape
        and np.allclose(grad_w, n / mistakes * expected[0])
        and np.isclose(float(got[1]), n / mistakes * expected[1])
    ):
        # With one mistake this is also the plain sum: the hint covers both slips.
        return "divide the sum by the number of examples n, not by the number of mistakes" + (
            " (here 1)." if mistakes == 1 else "."
        )
    if grad_w.shape == expected[0].shape:
        if n > 1 and np.allclose(grad_w, n * expected[0]) and np.any(expected[0]):
            return "divide the sum by the number of examples n."
    if mistakes == 0 and np.any(np.isnan(grad_w)):
        return (
            "no example is a mistake here, so the gradient is 0: divide the sum by the "
            "number of examples n, not by the number of mistakes (here 0)."
        )
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


def _stop_with_patience(errors: NDArray, patience: int) -> int:
    """A slip: stop after ``patience`` passes in a row without a new smallest error.

    It returns the best pass so far, and misses a smaller error that comes
    later. With ``patience=1`` it stops at the first pass that does not improve.
    """
    return _patience_run(errors, patience)[0]


def _patience_run(errors: NDArray, patience: int) -> tuple[int, int]:
    """Return ``(best pass so far, pass where it stops)`` of a patience rule, from 1."""
    best, without = 0, 0
    for e in range(1, errors.size):
        if errors[e] < errors[best]:
            best, without = e, 0
        else:
            without += 1
            if without == patience:
                return best + 1, e + 1
    return best + 1, errors.size


def _pass_before_first_strict_rise(errors: NDArray) -> int:
    """A slip: stop at the first pass whose error is larger than the one before."""
    for e in range(1, errors.size):
        if errors[e] > errors[e - 1]:  # pass e + 1 is worse than pass e
            return e
    return errors.size


def _best_pass_hint(arguments: Mapping[str, Any], got: Any, expected: int) -> str | None:
    errors = np.asarray(arguments["validation_errors"], dtype=float)
    runs = [_patience_run(errors, patience) for patience in range(1, errors.size)]
    later = int(np.argmin(errors)) + 1
    if got != expected and got in {kept for kept, _ in runs}:
        return (
            f"the error stops falling after pass {got} but falls again later, to "
            f"{errors[later - 1]:g} at pass {later}: early stopping here makes all the "
            "passes and keeps the one with the smallest error, not the best pass before "
            "the first rise or before a run of passes without improvement (a patience)."
        )
    minima = np.flatnonzero(errors == errors.min()) + 1
    if got == _pass_before_first_strict_rise(errors) != expected:
        if got in minima.tolist():  # a last-of-ties answer returns this too: say both
            return (
                f"passes {', '.join(str(m) for m in minima)} share the smallest error: "
                f"return the earliest of them (stopping where the error first rises, at "
                f"pass {got + 1}, and keeping the pass before it also gives pass {got})."
            )
        return (
            f"Stopping where the error first rises (pass {got + 1}) and keeping the "
            f"pass before it gives pass {got}, but early stopping keeps the earliest pass "
            "with the smallest error."
        )
    # Only pass 0 shows a count from 0 for sure: elsewhere one less than the answer
    # can be another slip's value (an argmax of the errors, say).
    if got == 0:
        return (
            "there is no pass 0: passes are counted from 1, the first entry is the "
            "error after pass 1."
        )
    if got in minima.tolist():
        return "several passes share the smallest error: stop at the earliest of them."
    if got != expected and got in {stopped for _, stopped in runs if stopped < errors.size}:
        return (
            f"pass {got} is where a rule with a patience would stop training, but the "
            "answer is the pass whose weights early stopping keeps: the earliest with "
            f"the smallest error, pass {later} here."
        )
    return None


def check_best_pass(best_pass: Callable[[ArrayLike], int]) -> None:
    """Check ``best_pass(validation_errors) -> int``: the pass early stopping keeps.

    ``validation_errors[e - 1]`` is the held-out error after pass ``e``, given
    as a list or a NumPy array. The answer is the pass number (from 1) with the
    smallest error among all the passes, the earliest one if several tie (fewer
    passes, same error).

    Examples
    --------
    >>> import numpy as np
    >>> check_best_pass(lambda errors: int(np.argmin(errors)) + 1)
    All 8 checks passed for best_pass.
    """
    cases = [
        ([0.2],),
        ([0.3, 0.1],),
        ([0.1, 0.3],),
        ([0.4, 0.2, 0.2, 0.3],),
        # The error rises after pass 2 and then falls below it: the answer is pass 4.
        # A NumPy array, as the chapter's error curves are.
        (np.array([0.3, 0.2, 0.25, 0.1]),),
        # Four passes without improvement, then a new minimum at pass 8: stopping
        # with a patience of up to four passes misses it.
        ([0.5, 0.25, 0.2, 0.3, 0.35, 0.3, 0.25, 0.1, 0.12, 0.15],),
        (np.array([0.3, 0.2, 0.1, 0.1, 0.1, 0.2, 0.1, 0.3]),),
        # A hundred passes without improvement before the smallest error: a patience
        # of up to 100 passes stops too early (scikit-learn's Perceptron waits 5, its
        # MLPClassifier 10). No finite set of cases catches every patience.
        (np.array([0.5, 0.3] + [0.32] * 100 + [0.2]),),
    ]
    check_function(best_pass, _reference_best_pass, cases, name="best_pass", hint=_best_pass_hint)


# The library's functions an answer may call while ``make grade`` grades it, by
# checker (none for a checker not listed): the grader refuses an answer that
# reaches any other function of the library, which holds every solution.
PERMITTED_HELPERS: dict[str, tuple] = {}
