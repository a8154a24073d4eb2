"""Checks for the exercises of chapter 3, the learning rule.

The references are the library's own code: the compiled training loop
:func:`perceptron_lib.loops.plain.perceptron_epoch` for one update and one pass, and
:func:`perceptron_lib.rosenblatt.rosenblatt_update` for Rosenblatt's form, so a
student's function that passes does exactly what the estimators do.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..loops.plain import perceptron_epoch
from ..rosenblatt import rosenblatt_update as _library_rosenblatt_update
from . import check_function, diagnose

__all__ = ["check_epoch", "check_rosenblatt_update", "check_update"]


def _reference_epoch(
    X: ArrayLike, y: ArrayLike, w: ArrayLike, b: float
) -> tuple[NDArray[np.float64], float, int]:
    X = np.ascontiguousarray(X, dtype=np.float64)
    w = np.array(w, dtype=np.float64)  # a copy: the loop updates it in place
    mistakes = np.zeros(X.shape[0], dtype=np.bool_)
    order = np.arange(X.shape[0])
    b = perceptron_epoch(
        X, np.asarray(y, dtype=np.float64), order, w, float(b), 1.0, True, mistakes
    )
    return w, float(b), int(mistakes.sum())


def _reference_update(
    w: ArrayLike, b: float, x: ArrayLike, y: int
) -> tuple[NDArray[np.float64], float]:
    new_w, new_b, _ = _reference_epoch([x], [y], w, b)
    return new_w, new_b


class _Diagnoses(list):
    """The diagnoses that fit a case, with ``considered``: every hint weighed there.

    Each slip of this module is modelled as a whole function (its value is what a
    function with that slip returns on any case), so a case the student got right
    rules out a slip that would have got it wrong, even the only one left: the
    check's hint machinery reads ``considered`` for that.
    """

    considered: frozenset[str]


def _diagnose_whole(got: Any, expected: Any, slips: list[tuple[Any, str]]) -> list[str]:
    """:func:`diagnose`, marking every slip as a whole function (see :class:`_Diagnoses`)."""
    fitting = _Diagnoses(diagnose(got, expected, slips))
    fitting.considered = frozenset(hint for _, hint in slips)
    return fitting


def _is_mistake(y: float, a: float) -> bool:
    """The course's test: a tie (a = 0) is a mistake whatever the label."""
    return y * a <= 0


def _is_strict_mistake(y: float, a: float) -> bool:
    """The slip ``y * a < 0``: a tie is not a mistake, so zero weights never move."""
    return y * a < 0


def _is_wrong_prediction(y: float, a: float) -> bool:
    """The slip ``predict(x) != y``: a tie counts as a mistake only for a positive example."""
    return (1.0 if a > 0 else -1.0) != y


def _is_wrong_at_or_above(y: float, a: float) -> bool:
    """The slip of predicting +1 for ``a >= 0``: a tie counts as a mistake only for y = -1."""
    return (1.0 if a >= 0 else -1.0) != y


def _is_inside_margin(y: float, a: float) -> bool:
    """The slip of a margin rule (``y * a < 1``, ``y * a <= 0.5``): close but right is wrong."""
    return y * a <= 1


# What each slip says, written once for the one-update and the one-pass checks.
_STRICT_HINT = (
    "the activation here is exactly 0, which is not a correct answer: "
    "test y * a <= 0, not y * a < 0."
)
_PREDICTION_HINT = (
    "here the activation is exactly 0 and the label is -1. predict answers -1 there, "
    "which is right, but training counts a = 0 as a mistake whatever the label: "
    "test y * a <= 0 instead of comparing the prediction with y."
)
_AT_OR_ABOVE_HINT = (
    "here the activation is exactly 0 and the label is +1. Training counts a = 0 as a "
    "mistake whatever the label: test y * a <= 0 (answering +1 at a >= 0 is another "
    "convention, not the course's)."
)
_BIAS_IN_TEST_HINT = (
    "the activation includes the bias: test y * (w . x + b) <= 0, not y * (w . x) <= 0."
)
_MARGIN_HINT = (
    "this example is on its correct side (y * a > 0), only close to the boundary: the "
    "perceptron asks for no margin, it updates only when y * a <= 0."
)


def _update_with(
    w: NDArray,
    b: float,
    x: NDArray,
    y: float,
    is_mistake: Callable[[float, float], bool],
    *,
    bias_in_test: bool = True,
) -> tuple[NDArray, float]:
    """One update with the given mistake test, on w . x + b (or on w . x alone)."""
    if is_mistake(y, float(w @ x) + (b if bias_in_test else 0.0)):
        return w + y * x, b + y
    return w, b


def _update_hint(arguments: Mapping[str, Any], got: Any, expected: Any) -> list[str]:
    # Each slip is recomputed on the failing case; a hint is shown only when exactly
    # one slip reproduces what the student's function returned (see diagnose).
    w, x = (np.asarray(arguments[key], dtype=float) for key in ("w", "x"))
    b, y = float(arguments["b"]), float(arguments["y"])
    mistake = _is_mistake(y, float(w @ x) + b)
    slips = [
        (_update_with(w, b, x, y, _is_strict_mistake), _STRICT_HINT),
        (_update_with(w, b, x, y, _is_wrong_prediction), _PREDICTION_HINT),
        (_update_with(w, b, x, y, _is_wrong_at_or_above), _AT_OR_ABOVE_HINT),
        (_update_with(w, b, x, y, _is_mistake, bias_in_test=False), _BIAS_IN_TEST_HINT),
        (_update_with(w, b, x, y, _is_inside_margin), _MARGIN_HINT),
        (
            (w + y * x, b + y),
            "this example is already on its correct side (y * a > 0): leave w and b alone.",
        ),
        (
            (w - y * x, b - y) if mistake else (w, b),
            "the step has the wrong sign: add y * x to w, and y to b.",
        ),
        (
            (w + y * x, b) if mistake else (w, b),
            "the bias is part of the update too: the new bias is b + y.",
        ),
    ]
    return _diagnose_whole(got, expected, slips)


def check_update(update: Callable[[ArrayLike, float, ArrayLike, int], tuple]) -> None:
    """Check ``update(w, b, x, y) -> (new_w, new_b)``: one step of the perceptron.

    If ``y * (w . x + b) <= 0`` the answer is ``(w + y * x, b + y)``, otherwise
    ``(w, b)`` unchanged. Labels are -1 and +1. The inputs must not be changed.

    Examples
    --------
    >>> import numpy as np
    >>> def update(w, b, x, y):
    ...     w, x = np.asarray(w, dtype=float), np.asarray(x, dtype=float)
    ...     if y * (w @ x + b) <= 0:
    ...         return w + y * x, b + y
    ...     return w, b
    >>> check_update(update)
    All 10 checks passed for update.
    """
    # Arrays, as the student's function gets them in the chapter: an update that
    # writes into w (w += y * x) changes the caller's array and is caught.
    cases = [
        (np.array(w), b, np.array(x), y)
        for w, b, x, y in [
            ([0.0], 0.0, [2.0], 1),
            ([0.0, 0.0], 0.0, [1.0, 3.0], 1),
            ([0.0, 0.0], 0.0, [1.0, 3.0], -1),
            ([1.0, 3.0], 0.0, [2.0, 3.0], -1),
            ([-1.0, 0.0], 0.0, [-3.0, 1.0], 1),
            ([1.0, -1.0], 0.5, [2.0, 1.0], 1),
            ([1.0, 1.0], -2.0, [1.0, 1.0], 1),
            # Right, with y * a = 0.5: a margin rule (y * a < 1) would update.
            ([1.0, -1.0], 0.5, [1.0, 1.0], 1),
            # Right, with y * a = 1.5 but y * (w . x) = -0.5: the bias decides.
            ([1.0, 0.0], 2.5, [-1.0, 3.0], 1),
            ([0.5, -1.0, 2.0], -0.25, [1.0, 2.0, -1.0], -1),
        ]
    ]
    check_function(update, _reference_update, cases, name="update", hint=_update_hint)


def _frozen_epoch(X: NDArray, y: NDArray, w: NDArray, b: float) -> tuple:
    """The pass with every mistake decided by the weights of the start of the pass."""
    wrong = y * (X @ w + b) <= 0
    return w + y[wrong] @ X[wrong], b + y[wrong].sum(), int(wrong.sum())


def _epoch_with(
    X: NDArray,
    y: NDArray,
    w: NDArray,
    b: float,
    is_mistake: Callable[[float, float], bool] = _is_mistake,
    *,
    update_bias: bool = True,
    bias_in_test: bool = True,
) -> tuple:
    """One pass in order with the given mistake test, updating the bias or not."""
    w, n_updates = w.copy(), 0
    for x, label in zip(X, y, strict=True):
        if is_mistake(label, float(w @ x) + (b if bias_in_test else 0.0)):
            w, n_updates = w + label * x, n_updates + 1
            b = b + label if update_bias else b
    return w, b, n_updates


def _epoch_hint(arguments: Mapping[str, Any], got: Any, expected: Any) -> str | list[str]:
    # Each slip is recomputed on the failing case; a hint is shown only when exactly
    # one slip reproduces what the student's function returned (see diagnose).
    if not isinstance(got, tuple | list) or len(got) != 3:
        return "return three values: the new weights, the new bias and the number of updates."
    X, y, w = (np.asarray(arguments[key], dtype=float) for key in ("X", "y", "w"))
    b = float(arguments["b"])
    new_w, new_b, _ = _epoch_with(X, y, w, b)
    slips = [
        (
            _frozen_epoch(X, y, w, b),
            "compute each activation with the weights as they are at that moment, "
            "i.e. after the updates made earlier in the same pass.",
        ),
        (
            _epoch_with(X, y, w, b, update_bias=False),
            "update the bias too: b + y after each mistake.",
        ),
        (
            (new_w, new_b, X.shape[0]),
            "count the updates only, that is the examples with y * a <= 0, not every example.",
        ),
        (_epoch_with(X, y, w, b, _is_strict_mistake), _STRICT_HINT),
        (_epoch_with(X, y, w, b, _is_wrong_prediction), _PREDICTION_HINT),
        (_epoch_with(X, y, w, b, _is_wrong_at_or_above), _AT_OR_ABOVE_HINT),
        (_epoch_with(X, y, w, b, bias_in_test=False), _BIAS_IN_TEST_HINT),
    ]
    fitting = _diagnose_whole(got, expected, slips)
    if isinstance(got[2], int | np.integer) and got[2] > 0:  # counted, but never moved
        # Built from the student's own count, so not a whole function: not in considered.
        fitting.extend(
            diagnose(
                got,
                expected,
                [
                    (
                        (w, b, got[2]),
                        "the weights did not move: update them after each mistake, "
                        "within the pass.",
                    )
                ],
            )
        )
    return fitting


def check_epoch(train_epoch: Callable[[ArrayLike, ArrayLike, ArrayLike, float], tuple]) -> None:
    """Check ``train_epoch(X, y, w, b) -> (new_w, new_b, n_updates)``: one pass, in order.

    Starting from ``(w, b)``, visit the rows of ``X`` from first to last and
    apply the perceptron update (learning rate 1) after every mistake
    ``y * a <= 0``; return the final weights, bias and the number of updates.

    Examples
    --------
    >>> import numpy as np
    >>> def train_epoch(X, y, w, b):
    ...     w, updates = np.array(w, dtype=float), 0
    ...     for x, label in zip(np.asarray(X, dtype=float), y):
    ...         if label * (w @ x + b) <= 0:
    ...             w, b, updates = w + label * x, b + label, updates + 1
    ...     return w, b, updates
    >>> check_epoch(train_epoch)
    All 7 checks passed for train_epoch.
    """
    lecture_X = [[1.0, 3.0], [2.0, 3.0], [-3.0, 1.0], [1.0, -1.0]]
    lecture_y = [1, -1, 1, -1]
    three_X = [[1.0, 1.0], [0.5, 3.0], [2.0, 2.0]]
    # Arrays, as the chapter passes them: a pass that writes into w (w += ...) changes
    # the caller's array and is caught.
    cases = [
        (np.array(X), np.array(y), np.array(w), b)
        for X, y, w, b in [
            ([[1.0]], [1], [0.0], 0.0),
            # A negative example at a = 0: predict answers -1, right, but training updates.
            ([[1.0]], [-1], [0.0], 0.0),
            ([[1.0], [2.0]], [1, 1], [0.0], 0.0),
            (three_X, [1, 1, -1], [0.0, 0.0], 0.0),
            (three_X, [1, 1, -1], [-2.5, 0.0], 3.0),
            (lecture_X, lecture_y, [0.0, 0.0], 0.0),
            (lecture_X, lecture_y, [-1.0, 0.0], -1.0),
        ]
    ]
    check_function(train_epoch, _reference_epoch, cases, name="train_epoch", hint=_epoch_hint)


def _reference_rosenblatt(
    w: ArrayLike, b: float, x: ArrayLike, y: int, eta: float
) -> tuple[NDArray[np.float64], float]:
    # The library function keeps the textbook's letters: its d is the label y.
    return _library_rosenblatt_update(w, b, x, y, eta=eta)


def _rosenblatt_with(
    w: NDArray,
    b: float,
    x: NDArray,
    y: float,
    eta: float,
    *,
    output_at_zero: float = 1.0,
    bias_in_activation: bool = True,
    step: Callable[[float, float], float] | None = None,
) -> tuple[NDArray, float]:
    """Rosenblatt's rule with one part changed: thr(0), the activation, or the step."""
    a = float(w @ x) + (b if bias_in_activation else 0.0)
    y_hat = 1.0 if a > 0 else (output_at_zero if a == 0 else -1.0)
    change = eta * (y - y_hat) if step is None else step(y, y_hat)
    return w + change * x, b + change


def _rosenblatt_hint(arguments: Mapping[str, Any], got: Any, expected: Any) -> list[str]:
    # Each slip is recomputed on the failing case; a hint is shown only when exactly
    # one slip reproduces what the student's function returned (see diagnose).
    w, x = (np.asarray(arguments[key], dtype=float) for key in ("w", "x"))
    b, y, eta = float(arguments["b"]), float(arguments["y"]), float(arguments["eta"])
    slips = [
        (
            _rosenblatt_with(w, b, x, y, eta, output_at_zero=-1.0),
            "here a = w . x + b is exactly 0, and thr(0) = +1.",
        ),
        (
            _rosenblatt_with(w, b, x, y, eta, step=lambda y, y_hat: y - y_hat),
            "multiply the step by the learning rate eta.",
        ),
        (
            _rosenblatt_with(
                w, b, x, y, eta, step=lambda y, y_hat: eta * y if y != y_hat else 0.0
            ),
            "when the output is wrong, y - y_hat is 2 * y, not y: the step is eta * (y - y_hat).",
        ),
        (
            _rosenblatt_with(w, b, x, y, eta, bias_in_activation=False),
            "the output is thr(w . x + b): add the bias before the threshold.",
        ),
    ]
    return _diagnose_whole(got, expected, slips)


def check_rosenblatt_update(
    update: Callable[[ArrayLike, float, ArrayLike, int, float], tuple],
) -> None:
    """Check ``update(w, b, x, y, eta) -> (new_w, new_b)``: Rosenblatt's rule.

    With the output ``y_hat = thr(w . x + b)``, ``thr(a) = +1`` if ``a >= 0`` else
    -1, the answer is ``(w + eta * (y - y_hat) * x, b + eta * (y - y_hat))``. The
    inputs must not be changed.

    Examples
    --------
    >>> from perceptron_lib.rosenblatt import rosenblatt_update
    >>> check_rosenblatt_update(lambda w, b, x, d, eta: rosenblatt_update(w, b, x, d, eta=eta))
    All 7 checks passed for rosenblatt_update.
    """
    # Arrays, as the chapter passes them: an update that writes into w is caught.
    cases = [
        (np.array(w), b, np.array(x), y, eta)
        for w, b, x, y, eta in [
            ([0.0], 0.0, [2.0], 1, 1.0),
            ([0.0], 0.0, [2.0], -1, 1.0),
            ([0.0, 0.0], 0.0, [1.0, 3.0], -1, 0.5),
            ([1.0, 3.0], 0.0, [2.0, 3.0], -1, 0.1),
            ([1.0, -1.0], 0.0, [1.0, 1.0], -1, 1.0),
            ([-1.0, 0.5], 0.25, [2.0, 1.0], 1, 2.0),
            # w . x = 1 but a = w . x + b = -1: the bias flips the output.
            ([1.0, 0.0], -2.0, [1.0, 0.0], 1, 1.0),
        ]
    ]
    check_function(
        update,
        _reference_rosenblatt,
        cases,
        name="rosenblatt_update",
        hint=_rosenblatt_hint,
    )


# The library's functions an answer may call while ``make grade`` grades it, by
# checker (none for a checker not listed): the grader refuses an answer that
# reaches any other function of the library, which holds every solution.
PERMITTED_HELPERS: dict[str, tuple] = {}
