"""Checks for the exercises of chapter 1, the neuron model.

A unit with weights ``w`` and bias ``b`` computes the activation
``a = w . x + b`` and fires (predicts +1) when ``a > 0``; otherwise, also at
``a = 0``, it predicts -1. Written with a threshold ``theta = -b``: it fires
when ``w . x > theta``.
"""

from __future__ import annotations

import inspect
import itertools
import math
import re
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..data.datasets import at_least_m_of_n, logic_gate
from ..loops.plain import activation as _library_activation
from . import ExerciseFailure, check_function, describe, diagnose, mismatch, not_written

__all__ = [
    "check_activation",
    "check_gate_weights",
    "check_prediction",
    "check_three_gates",
]

# Cases shared by the activation and prediction checks: zero vectors, negative
# values, a bias alone, an activation of exactly 0, and one, two and four inputs.
UNIT_CASES = [
    ([0.0], [0.0], 0.0),
    ([2.0], [3.0], 0.0),
    ([2.0], [-3.0], 1.0),
    ([0.0, 0.0], [1.0, 1.0], -0.5),
    ([1.0, 2.0], [3.0, 4.0], 0.5),
    ([1.0, 1.0], [1.0, 0.0], -1.0),
    ([-1.0, 0.5], [2.0, -4.0], 3.0),
    ([0.5, -1.5], [0.0, 0.0], 0.25),
    ([1.0, 1.0, 1.0, 1.0], [1.0, 0.0, 1.0, 1.0], -2.5),
    ([0.1, 0.2, 0.3, 0.4], [1.0, -1.0, 2.0, -2.0], 0.0),
]


def _reference_activation(w: ArrayLike, x: ArrayLike, b: float) -> float:
    # The library's own loop: the very activation the estimators compute.
    return float(
        _library_activation(np.asarray(w, dtype=float), float(b), np.asarray(x, dtype=float))
    )


def _reference_prediction(w: ArrayLike, x: ArrayLike, b: float) -> int:
    return 1 if _reference_activation(w, x, b) > 0 else -1


def _activation_hint(arguments: Mapping[str, Any], got: Any, expected: float) -> list[str]:
    # Each suspected mistake is recomputed on the case; check_function shows a
    # hint only if exactly one of them explains every failing case.
    w, x, b = arguments["w"], arguments["x"], float(arguments["b"])
    dot = float(np.dot(w, x))
    return diagnose(
        got,
        expected,
        [
            (dot, "this is w . x without the bias: add b."),
            (dot - b, "the bias is added to w . x, not subtracted."),
            (
                _reference_prediction(w, x, b),
                "return the activation itself (a number), not the unit's prediction.",
            ),
            (
                float(int(expected)),
                "the activation is a real number: do not cut it to an integer with int(...).",
            ),
            (
                float(round(expected)),
                "the activation is a real number: do not round it.",
            ),
        ],
    )


_BIAS_IN_PREDICTION = "the unit compares the activation a = w . x + b (bias added) with 0."


def _prediction_hint(arguments: Mapping[str, Any], got: Any, expected: int) -> list[str]:
    w, x, b = arguments["w"], arguments["x"], float(arguments["b"])
    a = _reference_activation(w, x, b)
    dot = float(np.dot(w, x))
    hints = diagnose(
        got,
        expected,
        [
            (
                1 if a >= 0 else -1,
                "at an activation of exactly 0 the unit does not fire: +1 needs a > 0.",
            ),
            (
                (a > 0) - (a < 0),  # np.sign(a), which is 0 at a = 0
                "sign(a) is 0 at a = 0, and 0 is no label: the unit predicts +1 if "
                "a > 0 and -1 otherwise, so at a = 0 it predicts -1.",
            ),
            # On a prediction these two mistakes often look alike: one hint for both.
            (1 if dot > 0 else -1, _BIAS_IN_PREDICTION),
            (1 if dot - b > 0 else -1, _BIAS_IN_PREDICTION),
            (a, "return the prediction, +1 or -1, not the activation."),
        ],
    )
    if isinstance(got, bool | np.bool_) or (got == 0 and expected == -1):
        hints.append("predict +1 or -1 (not True/False or 1/0).")
    if got is None:
        hints.append("your function returns nothing: is a return statement missing?")
    return hints


def _same_label(got: Any, expected: int) -> bool:
    # True == 1 in Python, but True is no label: the unit outputs the number +1.
    return not isinstance(got, bool | np.bool_) and mismatch(got, expected) is None


def check_activation(activation: Callable[[ArrayLike, ArrayLike, float], float]) -> None:
    """Check a student's ``activation(w, x, b)``, which returns ``w . x + b``.

    Parameters
    ----------
    activation : callable
        ``activation(w, x, b) -> float`` for weight and input vectors ``w``
        and ``x`` (lists or arrays of the same length) and a bias ``b``.

    Raises
    ------
    perceptron_lib.exercises.ExerciseFailure
        On the smallest case where ``activation`` is wrong.

    Examples
    --------
    >>> import numpy as np
    >>> check_activation(lambda w, x, b: float(np.dot(w, x) + b))
    All 10 checks passed for activation.
    """
    check_function(
        activation,
        _reference_activation,
        UNIT_CASES,
        name="activation",
        hint=_activation_hint,
    )


def check_prediction(predict: Callable[[ArrayLike, ArrayLike, float], int]) -> None:
    """Check a student's ``predict(w, x, b)``: +1 if ``w . x + b > 0``, else -1.

    The prediction must be the number +1 or -1: ``True`` and ``False`` are
    refused, although ``True == 1`` in Python.

    Examples
    --------
    >>> import numpy as np
    >>> check_prediction(lambda w, x, b: 1 if np.dot(w, x) + b > 0 else -1)
    All 10 checks passed for predict.
    """
    check_function(
        predict,
        _reference_prediction,
        UNIT_CASES,
        name="predict",
        compare=_same_label,
        hint=_prediction_hint,
    )


# -- weights for a gate, chosen by hand ------------------------------------------


_GATE_CHOICES = (
    "'and', 'or', 'nand', 'nor', 'xor', 'at_least_m_of_D' (fires when at least m of "
    "the D inputs are 1, e.g. 'at_least_2_of_3') or a function of the bits"
)


def _truth_table(
    gate: str | Callable[..., Any], n_inputs: int
) -> tuple[NDArray[np.int_], NDArray[np.bool_], str]:
    """Return the input rows, the target output (True = fires) and a display name."""
    if callable(gate):
        _check_gate_arity(gate, n_inputs)
        X = np.array(list(itertools.product((0, 1), repeat=n_inputs)), dtype=int)
        target = np.array([bool(gate(*row)) for row in X.tolist()])
        name = getattr(gate, "__name__", "<lambda>")
        return X, target, "your gate" if name == "<lambda>" else name
    if not isinstance(gate, str):
        raise TypeError(f"gate must be one of {_GATE_CHOICES}; got {gate!r}.")
    at_least = re.fullmatch(r"at_least_(\d+)(?:_of_(\d+))?", gate.lower())
    if at_least:
        m = int(at_least.group(1))
        if at_least.group(2) is not None and int(at_least.group(2)) != n_inputs:
            gate_inputs = int(at_least.group(2))
            raise ExerciseFailure(
                f"The gate {gate!r} has {gate_inputs} inputs, so it needs {gate_inputs} weights; "
                f"you gave {n_inputs}."
            )
        if m > n_inputs:
            raise ExerciseFailure(
                f"At least {m} of {n_inputs} inputs can never be 1: give {m} or more weights."
            )
        X, y = at_least_m_of_n(m, n_inputs)
        name = f"at-least-{m}-of-{n_inputs}"
    else:
        try:
            X, y = logic_gate(gate.lower(), n_inputs)
        except ValueError:
            raise ValueError(f"Unknown gate {gate!r}; choose one of {_GATE_CHOICES}.") from None
        name = gate.upper()
    return np.asarray(X, dtype=int), np.asarray(y) > 0, name


def _check_gate_arity(gate: Callable[..., Any], n_inputs: int) -> None:
    """A gate function of three bits cannot be computed by a unit with two weights."""
    try:
        parameters = inspect.signature(gate).parameters.values()
    except (TypeError, ValueError):  # a builtin without a signature: just try it
        return
    if any(p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in parameters):
        return
    n_bits = sum(p.default is p.empty for p in parameters)
    if n_bits == 1 and n_inputs > 1:
        bits = ", ".join(f"x{i}" for i in range(1, n_inputs + 1))
        raise ExerciseFailure(
            f"The gate takes 1 argument, but the unit has {n_inputs} weights: write the gate "
            f"with one argument per input bit, such as def gate({bits}): ... (a gate of one "
            "vector, gate(x), is not accepted)."
        )
    if n_bits != n_inputs:
        raise ExerciseFailure(
            f"The gate takes {n_bits} input{'s' if n_bits != 1 else ''}, so the unit needs "
            f"{n_bits} weight{'s' if n_bits != 1 else ''}; you gave {n_inputs}."
        )


def _output(fires: bool) -> str:
    return "+1 (fires)" if fires else "-1 (silent)"


def _on_threshold(total: float, threshold: float, scale: float) -> bool:
    """Whether a weighted sum is the threshold up to rounding.

    A student's numbers are decimals (``0.1``) or fractions (``1/6``) that
    floating point cannot hold exactly, so a sum meant to equal the threshold
    can land a few units of the last place above or below it (``0.1 + 0.2`` is
    0.30000000000000004). Such a sum is read as *on* the threshold, where the
    unit stays silent, whichever side rounding put it on: the difference must
    exceed ``1e-12`` of the size of the numbers involved to count (a real gap,
    such as a threshold of 0.2999999999 against a sum of 0.3, does).
    """
    return abs(total - threshold) <= 1e-12 * max(1.0, abs(threshold), scale)


def _threshold_number(threshold: Any) -> float:
    """The threshold as one finite number, or an ExerciseFailure that says what it is instead."""
    if isinstance(threshold, bool | np.bool_ | str | bytes) or np.ndim(threshold) != 0:
        raise ExerciseFailure(f"The threshold must be one number, such as 1.5; got {threshold!r}.")
    try:
        number = float(threshold)
    except (TypeError, ValueError):
        raise ExerciseFailure(
            f"The threshold must be one number, such as 1.5; got {threshold!r}."
        ) from None
    if not math.isfinite(number):
        raise ExerciseFailure(f"The threshold must be a finite number; got {threshold!r}.")
    return number


def check_gate_weights(
    w: ArrayLike, threshold: float, gate: str | Callable[..., Any] = "and"
) -> None:
    """Check hand-chosen weights and threshold of a unit against a truth table.

    The inputs are bits, 0 or 1. The unit outputs +1 (fires) on an input row
    ``x`` when ``w . x > threshold``, that is when its activation
    ``w . x + b`` with ``b = -threshold`` is positive, and -1 otherwise
    (also when ``w . x`` equals the threshold). It computes the gate when it
    outputs +1 exactly on the rows where the gate is true. Every row is tried
    in order; the first row where the unit is wrong is reported.

    A sum within rounding of the threshold (closer than ``1e-12`` of the size
    of the numbers) counts as on it: with weights ``[0.1, 0.2]`` the input
    ``(1, 1)`` sums to 0.3, exactly the threshold 0.3, so the unit stays
    silent there, although floating point rounds the sum to
    0.30000000000000004; likewise ``[1/6] * 6`` on two inputs against ``2/6``.

    Parameters
    ----------
    w : array-like of shape (n_inputs,)
        The weights; their number must be the gate's number of inputs.
    threshold : float
        One number; the unit fires when ``w . x`` is strictly above it.
    gate : str or callable, default "and"
        ``"and"``, ``"or"``, ``"nand"``, ``"nor"`` or ``"xor"`` of as many
        inputs as there are weights; ``"at_least_m_of_D"`` (true when at least
        ``m`` of the ``D`` inputs are 1, e.g. ``"at_least_2_of_3"``;
        ``"at_least_m"`` takes ``D`` from the number of weights); or a function
        of the bits returning true or false, such as
        ``lambda x1, x2, x3: x1 and not x2 and x3``.

    Raises
    ------
    perceptron_lib.exercises.ExerciseFailure
        On the first input row where the unit's output is wrong, if the
        number of weights is not the gate's number of inputs, or if the
        weights or the threshold are not finite numbers (a threshold
        ``[1.5]`` is a list, not a number).

    Examples
    --------
    >>> check_gate_weights([1.0, 1.0], 1.5, gate="and")
    All 4 rows of the truth table of AND are right.
    >>> check_gate_weights([1.0, 1.0], 0.5, gate="and")
    Traceback (most recent call last):
    ...
    perceptron_lib.exercises.ExerciseFailure: On input (0, 1) the unit outputs +1 (fires)
    (w . x = 1.0 is above the threshold 0.5), but AND(0, 1) is false,
    so it should output -1 (silent).
    >>> check_gate_weights([0.1, 0.2], 0.3, gate="and")
    Traceback (most recent call last):
    ...
    perceptron_lib.exercises.ExerciseFailure: On input (1, 1) the unit outputs -1 (silent)
    (w . x = 0.3 equals the threshold 0.3), but AND(1, 1) is true,
    so it should output +1 (fires).
    Hint: the input is exactly on the threshold, and there the unit stays silent:
    it fires only when w . x is strictly above the threshold.
    """
    w = np.asarray(w, dtype=float)
    if w.ndim != 1 or w.size == 0:
        raise ValueError(f"w must be a non-empty list of weights, got shape {w.shape}.")
    if not np.all(np.isfinite(w)):
        raise ExerciseFailure(f"The weights must be finite numbers; got {describe(w)}.")
    threshold = _threshold_number(threshold)
    X, target, name = _truth_table(gate, w.size)
    scale = float(np.abs(w).sum())
    for row, wanted in zip(X, target, strict=True):
        total = math.fsum(w_d for w_d, bit in zip(w.tolist(), row.tolist(), strict=True) if bit)
        tie = _on_threshold(total, threshold, scale)
        fires = total > threshold and not tie
        if fires != wanted:
            bits = ", ".join(str(bit) for bit in row.tolist())
            comparison = "is above" if fires else "equals" if tie else "is not above"
            total_text, threshold_text = describe(total), describe(threshold)
            if tie:  # equal up to rounding: print the threshold for both
                total_text = threshold_text
            elif total_text == threshold_text:  # close but apart: print both in full
                total_text, threshold_text = f"{total:.12g}", f"{threshold:.12g}"
            message = (
                f"On input ({bits}) the unit outputs {_output(fires)} "
                f"(w . x = {total_text} {comparison} the threshold "
                f"{threshold_text}), but {name}({bits}) is "
                f"{'true' if wanted else 'false'}, so it should output {_output(wanted)}."
            )
            if tie:  # wanted fires: the student's tie rule is >=
                message += (
                    "\nHint: the input is exactly on the threshold, and there the unit stays "
                    "silent: it fires only when w . x is strictly above the threshold."
                )
            if isinstance(gate, str) and gate.lower() == "xor" and w.size >= 2:
                message += (
                    "\nHint: no weights and threshold work for XOR of two or more inputs: "
                    "see the theorem 'No single unit computes XOR' and its proof in chapter 1."
                )
            raise ExerciseFailure(message)
    print(f"All {len(X)} rows of the truth table of {name} are right.")


def x1_and_not_x2(x1: int, x2: int) -> bool:
    """The gate "x1 and not x2" of the exercise "Three more gates"."""
    return bool(x1 and not x2)


def x1_implies_x2(x1: int, x2: int) -> bool:
    """The implication "if x1 then x2": false only for x1 = 1, x2 = 0."""
    return bool((not x1) or x2)


def _weights_and_threshold(name: str, answer: Any, n_inputs: int) -> tuple[NDArray, float]:
    """Unpack one answer, a pair ``(weights, threshold)``, or say what is wrong with it."""
    example = f"({[1.0] * n_inputs}, 0.5)"
    if not isinstance(answer, tuple | list) or len(answer) != 2:
        raise ExerciseFailure(
            f"{name} must be a pair (weights, threshold), such as {example}; got {answer!r}."
        )
    try:
        w = np.asarray(answer[0], dtype=float)
        if np.ndim(answer[1]) != 0:  # float() would take a one-element array
            raise TypeError("the threshold is not one number")
        threshold = float(answer[1])
    except (TypeError, ValueError):
        raise ExerciseFailure(
            f"{name} must be a pair (weights, threshold) of numbers, such as {example}; "
            f"got {answer!r}."
        ) from None
    if w.shape != (n_inputs,):
        raise ExerciseFailure(
            f"{name} needs {n_inputs} weights, one per input, then the threshold, such as "
            f"{example}; its weights have shape {w.shape}."
        )
    return w, threshold


def check_three_gates(and_not: Any, two_of_three: Any, implies: Any) -> None:
    """Check the three units of the exercise "Three more gates", each ``(weights, threshold)``.

    ``and_not`` must compute "x1 and not x2" (two inputs), ``two_of_three``
    "at least 2 of 3 inputs are 1" (three inputs) and ``implies`` the
    implication "if x1 then x2" (two inputs). Each unit fires when
    ``w . x > threshold``, strictly, as in :func:`check_gate_weights`, which
    checks each against its truth table; the first wrong row is reported with
    the answer's name.

    Raises
    ------
    perceptron_lib.exercises.ExerciseFailure
        If an answer is still ``...``, is not a pair of weights (one per
        input) and a threshold, or gets a row of its truth table wrong.

    Examples
    --------
    >>> check_three_gates(([1.0, -1.0], 0.5), ([1.0, 1.0, 1.0], 1.5), ([-1.0, 1.0], -0.5))
    All 4 rows of the truth table of x1_and_not_x2 are right.
    All 8 rows of the truth table of at-least-2-of-3 are right.
    All 4 rows of the truth table of x1_implies_x2 are right.
    >>> check_three_gates(([1.0, -1.0], 1.0), ([1.0, 1.0, 1.0], 1.5), ([-1.0, 1.0], -0.5))
    Traceback (most recent call last):
    ...
    perceptron_lib.exercises.ExerciseFailure: and_not: On input (1, 0) the unit outputs \
-1 (silent) (w . x = 1.0 equals the threshold 1.0), but x1_and_not_x2(1, 0) is \
true, so it should output +1 (fires).
    Hint: the input is exactly on the threshold, and there the unit stays silent:
    it fires only when w . x is strictly above the threshold.
    """
    not_written(and_not=and_not, two_of_three=two_of_three, implies=implies)
    answers = [
        ("and_not", and_not, x1_and_not_x2, 2),
        ("two_of_three", two_of_three, "at_least_2_of_3", 3),
        ("implies", implies, x1_implies_x2, 2),
    ]
    for name, answer, gate, n_inputs in answers:
        w, threshold = _weights_and_threshold(name, answer, n_inputs)
        try:
            check_gate_weights(w, threshold, gate=gate)
        except ExerciseFailure as failure:
            raise ExerciseFailure(f"{name}: {failure}") from None


# The library's functions an answer may call while ``make grade`` grades it, by
# checker (none for a checker not listed): the grader refuses an answer that
# reaches any other function of the library, which holds every solution.
PERMITTED_HELPERS: dict[str, tuple] = {
    # A value answer may load truth tables to look at (data, no weights in them).
    "check_three_gates": (logic_gate, at_least_m_of_n),
}
