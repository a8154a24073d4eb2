"""Checks for the exercises of chapter 1, the neuron model.

A unit with weights ``w`` and bias ``b`` computes the activation
``a = w . x + b`` and fires (predicts +1) when ``a > 0``. Written with a
threshold ``theta = -b``: it fires when ``w . x > theta``.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .._loops import activation as _library_activation
from ..data import at_least_m_of_n, logic_gate
from . import ExerciseFailure, check_function, describe

__all__ = ["check_activation", "check_gate_weights", "check_prediction"]

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


def _activation_hint(arguments: Mapping[str, Any], got: Any, expected: float) -> str | None:
    dot = float(np.dot(arguments["w"], arguments["x"]))
    b = float(arguments["b"])
    if b != 0 and np.isclose(float(got), dot):
        return "this is w . x without the bias: add b."
    if b != 0 and np.isclose(float(got), dot - b):
        return "the bias is added to w . x, not subtracted."
    if float(got) in (1.0, -1.0) and expected not in (1.0, -1.0):
        return "return the activation itself (a number), not the unit's prediction."
    return None


def _prediction_hint(arguments: Mapping[str, Any], got: Any, expected: int) -> str | None:
    if _reference_activation(**arguments) == 0 and got == 1:
        return "at an activation of exactly 0 the unit does not fire: +1 needs a > 0."
    if isinstance(got, bool | np.bool_) or got == 0:
        return "predict +1 or -1 (not True/False or 1/0)."
    return None


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
        hint=_prediction_hint,
    )


# -- weights for a gate, chosen by hand ------------------------------------------


def _truth_table(
    gate: str | Callable[..., Any], n_inputs: int
) -> tuple[NDArray[np.int_], NDArray[np.bool_], str]:
    """Return the input rows, the target output (True = 1) and a display name."""
    if callable(gate):
        X = np.array(list(itertools.product((0, 1), repeat=n_inputs)), dtype=int)
        target = np.array([bool(gate(*row)) for row in X.tolist()])
        name = getattr(gate, "__name__", "<lambda>")
        return X, target, "your gate" if name == "<lambda>" else name
    if not isinstance(gate, str):
        raise TypeError(f"gate must be a name such as 'and' or a function, got {gate!r}.")
    at_least = re.fullmatch(r"at_least_(\d+)", gate.lower())
    if at_least:
        m = int(at_least.group(1))
        X, y = at_least_m_of_n(m, n_inputs)
        name = f"at-least-{m}-of-{n_inputs}"
    else:
        X, y = logic_gate(gate.lower(), n_inputs)
        name = gate.upper()
    return np.asarray(X, dtype=int), np.asarray(y) > 0, name


def check_gate_weights(
    w: ArrayLike, threshold: float, gate: str | Callable[..., Any] = "and"
) -> None:
    """Check hand-chosen weights and threshold of a unit against a truth table.

    The unit fires (outputs 1) on a 0/1 input row ``x`` when
    ``w . x > threshold``, i.e. when ``w . x + b > 0`` with ``b = -threshold``.
    Every input row is tried in order; the first row where the unit's output
    differs from the gate's is reported.

    Parameters
    ----------
    w : array-like of shape (n_inputs,)
        The weights; their number sets the number of inputs.
    threshold : float
        The unit fires when ``w . x`` is strictly above it.
    gate : str or callable, default "and"
        ``"and"``, ``"or"``, ``"nand"``, ``"nor"``, ``"xor"``, or
        ``"at_least_M"`` (fires when at least ``M`` inputs are 1); or a function
        of the ``n_inputs`` bits returning true or false, such as
        ``lambda x1, x2, x3: x1 and not x2 and x3``.

    Raises
    ------
    perceptron_lib.exercises.ExerciseFailure
        On the first input row where the unit's output is wrong.

    Examples
    --------
    >>> check_gate_weights([1.0, 1.0], 1.5, gate="and")
    All 4 rows of the truth table of AND are right.
    >>> check_gate_weights([1.0, 1.0], 0.5, gate="and")
    Traceback (most recent call last):
    ...
    perceptron_lib.exercises.ExerciseFailure: On input (0, 1) the unit fires
    (w . x = 1.0 is above the threshold 0.5), but AND(0, 1) = 0.
    """
    w = np.asarray(w, dtype=float)
    if w.ndim != 1 or w.size == 0:
        raise ValueError(f"w must be a non-empty list of weights, got shape {w.shape}.")
    threshold = float(threshold)
    X, target, name = _truth_table(gate, w.size)
    for row, wanted in zip(X, target, strict=True):
        total = float(row @ w)
        fires = total > threshold
        if fires != wanted:
            bits = ", ".join(str(bit) for bit in row.tolist())
            comparison = "above" if fires else "not above"
            message = (
                f"On input ({bits}) the unit {'fires' if fires else 'stays silent'} "
                f"(w . x = {describe(total)} is {comparison} the threshold "
                f"{describe(threshold)}), but {name}({bits}) = {int(wanted)}."
            )
            if isinstance(gate, str) and gate.lower() == "xor":
                message += (
                    "\nHint: no weights and threshold work for XOR: see why in the "
                    "chapter (and the proof in chapter 7)."
                )
            raise ExerciseFailure(message)
    print(f"All {len(X)} rows of the truth table of {name} are right.")
