"""Checks for the exercises of chapter 7: XOR, feature maps, kernels, two layers.

Units fire (output +1) when their activation is > 0 and output -1 otherwise,
as everywhere in the course; logic gates' inputs are bits, 0 or 1.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from math import comb, perm
from numbers import Integral
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from ..data.datasets import logic_gate
from . import ExerciseFailure, check_function, describe, diagnose, not_written

__all__ = [
    "check_conjunction_count",
    "check_lifted_xor_weights",
    "check_poly2_features",
    "check_two_layer_network",
]

_INPUTS = logic_gate("xor")[0]  # (0,0), (0,1), (1,0), (1,1)


def _bits(row: np.ndarray) -> str:
    return ", ".join(str(int(v)) for v in row)


def _number(name: str, value: Any) -> float:
    """One number: a float, an int or a sequence of length 1 such as ``[-0.5]``."""
    try:
        array = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise ExerciseFailure(f"{name} must be one number; got {value!r}.") from None
    if array.size != 1 or not np.isfinite(array).all():
        raise ExerciseFailure(f"{name} must be one number; got {value!r}.")
    return float(array.reshape(()))


def _vector(name: str, value: Any) -> np.ndarray:
    """A 1-d array of numbers; a (1, n) array such as scikit-learn's ``coef_`` is flattened."""
    try:
        array = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise ExerciseFailure(f"{name} must be a list of numbers; got {value!r}.") from None
    if not np.isfinite(array).all():
        raise ExerciseFailure(f"{name} must hold finite numbers; got {value!r}.")
    if array.ndim == 2 and array.shape[0] == 1:
        return array[0]  # scikit-learn's coef_ has shape (1, n_features)
    return np.atleast_1d(array)


# -- XOR with the feature x3 = x1 AND x2 -------------------------------------------


def check_lifted_xor_weights(w: ArrayLike, b: float) -> None:
    """Check weights ``w = (w1, w2, w3)`` and bias ``b`` for XOR on ``(x1, x2, x1 x2)``.

    The weights must *separate* XOR with the feature ``x3 = x1 AND x2``: with
    ``a = w1 x1 + w2 x2 + w3 x3 + b`` and the labels ``y = +1`` where
    ``x1 XOR x2`` is true and ``y = -1`` elsewhere, every input needs
    ``y a > 0``. So ``a > 0`` on ``(0, 1)`` and ``(1, 0)``, and ``a < 0`` on
    ``(0, 0)`` and ``(1, 1)``: an input on the boundary (``a = 0``) is not
    separated, even where the prediction for ``a = 0``, -1, happens to be right.

    Raises
    ------
    perceptron_lib.exercises.ExerciseFailure
        On the first input (in truth-table order) that is not separated.

    Examples
    --------
    >>> check_lifted_xor_weights([1.0, 1.0, -2.0], -0.5)
    All 4 inputs of XOR are right with the feature x1 AND x2.
    >>> check_lifted_xor_weights([1.0, 1.0, 0.0], -0.5)
    Traceback (most recent call last):
    ...
    perceptron_lib.exercises.ExerciseFailure: On input (1, 1), with x1 AND x2 = 1,
    the activation is 1.5 > 0, so the unit predicts +1, but 1 XOR 1 = 0 (it should
    predict -1).
    >>> check_lifted_xor_weights([1.0, 1.0, -2.0], 0.0)
    Traceback (most recent call last):
    ...
    perceptron_lib.exercises.ExerciseFailure: On input (0, 0), with x1 AND x2 = 0,
    the activation is exactly 0: the input lies on the boundary (margin 0), so
    these weights do not separate XOR, although a = 0 predicts -1.
    Hint: a separator needs y (w . x + b) > 0 on every input; move the boundary
    off (0, 0) and (1, 1), for example by lowering the bias.
    """
    not_written(w=w, b=b)
    w = _vector("w", w)
    if w.shape != (3,):
        raise ExerciseFailure(
            f"w must hold three weights, for x1, x2 and x1 AND x2; got shape {w.shape}."
        )
    b = _number("b", b)
    lifted = np.column_stack([_INPUTS, _INPUTS[:, 0] * _INPUTS[:, 1]])
    activations = lifted @ w + b
    y = logic_gate("xor")[1]  # -1 and +1
    wanted = y > 0
    boundary = activations == 0
    wrong = y * activations < 0  # on the wrong side, off the boundary
    for row, a, label in zip(lifted, activations, y, strict=True):
        if label * a > 0:
            continue
        x1, x2, x3 = (int(v) for v in row)
        want = label > 0
        on_boundary = " and ".join(f"({int(r[0])}, {int(r[1])})" for r in lifted[boundary])
        if a == 0:
            message = (
                f"On input ({x1}, {x2}), with x1 AND x2 = {x3}, the activation is "
                "exactly 0: the input lies on the boundary (margin 0), so these weights "
                f"do not separate XOR{', although a = 0 predicts -1' if not want else ''}."
            )
        else:
            fire = bool(a > 0)
            message = (
                f"On input ({x1}, {x2}), with x1 AND x2 = {x3}, the activation is "
                f"{describe(float(a))} {'>' if fire else '<='} 0, so the unit predicts "
                f"{'+1' if fire else '-1'}, but {x1} XOR {x2} = {int(want)} "
                f"(it should predict {'+1' if want else '-1'})."
            )
        if not np.any(wrong):
            # Confirmed: the boundary inputs are the only ones not separated. Only
            # negatives there: lowering the bias moves them all off it.
            advice = "" if np.any(wanted[boundary]) else ", for example by lowering the bias"
            message += (
                "\nHint: a separator needs y (w . x + b) > 0 on every input; move the "
                f"boundary off {on_boundary}{advice}."
            )
        elif np.all(wrong | boundary):
            # Confirmed: every input off the boundary is on the wrong side.
            if np.any(boundary):
                message += (
                    "\nHint: every input off the boundary is on the wrong side: flip the "
                    "signs of all weights and of the bias; then move the boundary off "
                    f"{on_boundary} too."
                )
            else:
                message += (
                    "\nHint: every input is wrong, so your unit computes XNOR: "
                    "flip the signs of all weights and of the bias."
                )
        raise ExerciseFailure(message)
    print("All 4 inputs of XOR are right with the feature x1 AND x2.")


# -- the explicit feature map of the degree-2 polynomial kernel ---------------------

_PAIRS = [
    (np.array(x), np.array(z))
    for x, z in [
        ([1.0], [2.0]),
        ([-1.0], [3.0]),
        ([1.0, 2.0], [3.0, -1.0]),
        ([0.5, -1.0], [2.0, 2.0]),
        ([1.0, 0.0, 2.0], [-1.0, 1.0, 1.0]),
        ([1.0, 2.0, 3.0], [0.5, -0.5, 2.0]),
    ]
]


def _kernel(x: ArrayLike, z: ArrayLike) -> float:
    return float((np.dot(x, z) + 1.0) ** 2)


def _poly2_hint(arguments: Mapping[str, Any], got: Any, expected: float) -> list[str]:
    x = np.asarray(arguments["x"], dtype=float)
    z = np.asarray(arguments["z"], dtype=float)
    dot = float(x @ z)
    squares = float(np.sum(x**2 * z**2))
    cross = (dot**2 - squares) / 2  # the sum of x_j x_l z_j z_l over j < l
    kernel = _kernel(x, z)
    return diagnose(
        got,
        expected,
        [
            (
                kernel - 1.0,
                "the constant 1 of (x . z + 1)^2 needs a feature too: add the feature 1.",
            ),
            (kernel - dot, "2 x . z = (sqrt(2) x) . (sqrt(2) z): give x_j a factor sqrt(2)."),
            (
                kernel - cross,
                "(x . z)^2 has each cross term x_j x_l z_j z_l twice: give the features "
                "x_j x_l (j < l) a factor sqrt(2).",
            ),
            (kernel - squares, "(x . z)^2 has the terms x_j^2 z_j^2: add the features x_j^2."),
            (dot**2, "that is (x . z)^2; (x . z + 1)^2 also has the terms 2 x . z and 1."),
        ],
    )


def check_poly2_features(poly2_features: Callable[[ArrayLike], ArrayLike]) -> None:
    """Check ``poly2_features(x)``: features whose dot product is ``(x . z + 1) ** 2``.

    The check computes ``feature_dot(x, z) = poly2_features(x) @ poly2_features(z)``
    on pairs of vectors (1-d NumPy arrays of 1 to 3 features) and compares it with
    the kernel ``(x . z + 1) ** 2``. Any order of the features is right.

    Examples
    --------
    >>> import numpy as np
    >>> def poly2_features(x):
    ...     x = np.asarray(x, dtype=float)
    ...     first, second = np.triu_indices(len(x), k=1)  # every pair of features
    ...     root2 = np.sqrt(2)
    ...     pairs = root2 * x[first] * x[second]
    ...     return np.concatenate([[1.0], root2 * x, x**2, pairs])
    >>> check_poly2_features(poly2_features)
    All 6 checks passed for feature_dot.
    """
    if not callable(poly2_features):
        raise TypeError("Pass the function poly2_features itself, not its result.")

    def feature_dot(x, z):
        fx = np.asarray(poly2_features(x), dtype=float)
        fz = np.asarray(poly2_features(z), dtype=float)
        if fx.ndim != 1 or fx.shape != fz.shape:
            raise ValueError(
                f"poly2_features must return a 1-d vector of the same length for every "
                f"x of the same length; got shapes {fx.shape} and {fz.shape}."
            )
        return float(fx @ fz)

    def reference(x, z):
        return _kernel(x, z)

    check_function(feature_dot, reference, _PAIRS, name="feature_dot", hint=_poly2_hint)


# -- counting conjunctions ---------------------------------------------------------


def _reference_count(D: int, k: int) -> int:
    for name, value in (("D", D), ("k", k)):
        if isinstance(value, bool) or not isinstance(value, Integral) or value < 1:
            raise ValueError(f"{name} must be an integer >= 1, got {value!r}.")
    return sum(comb(D, order) for order in range(1, k + 1))


def _count_hint(arguments: Mapping[str, Any], got: Any, expected: int) -> list[str]:
    D, k = arguments["D"], arguments["k"]
    right = _reference_count(D, k)  # not `expected`, which may be unknown
    return diagnose(
        got,
        expected,
        [
            (
                comb(D, k),
                "count the conjunctions of every order from 1 to k, not only of order k.",
            ),
            (right + 1, "the empty conjunction (order 0) is not a feature: start at order 1."),
            (
                right - comb(D, k),
                "range(1, k) stops before k: the conjunctions of order k count too.",
            ),
            (
                sum(D**order for order in range(1, k + 1)),
                "a conjunction is a set of distinct features: no order, no repeats.",
            ),
            (
                sum(perm(D, order) for order in range(1, k + 1)),
                "a conjunction is a set: the order of its features does not matter "
                "(comb, not perm).",
            ),
        ],
    )


def check_conjunction_count(n_conjunctions: Callable[[int, int], int]) -> None:
    """Check ``n_conjunctions(D, k)``: conjunctions of 1 to k distinct features of D.

    That is ``C(D, 1) + C(D, 2) + ... + C(D, k)`` (terms of order above ``D`` are 0).
    The check calls ``n_conjunctions`` with positional arguments.

    Examples
    --------
    >>> from math import comb, perm
    >>> check_conjunction_count(lambda D, k: sum(comb(D, j) for j in range(1, k + 1)))
    All 8 checks passed for n_conjunctions.
    """
    cases = [(1, 1), (3, 1), (3, 2), (2, 3), (4, 3), (10, 2), (10, 3), (100, 3)]
    check_function(
        n_conjunctions,
        _reference_count,
        cases,
        name="n_conjunctions",
        compare=lambda got, expected: got == expected,
        hint=_count_hint,
    )


# -- a two-layer network of threshold units ----------------------------------------


def _step(activations: np.ndarray) -> np.ndarray:
    """A unit's output as in the whole course: +1 if its activation is > 0, else -1."""
    return np.where(activations > 0, 1, -1)


def _signs(row: np.ndarray) -> str:
    return ", ".join(f"{int(v):+d}" for v in row)


def check_two_layer_network(
    W_hidden: ArrayLike,
    b_hidden: ArrayLike,
    w_out: ArrayLike,
    b_out: float,
    gate: str = "xnor",
) -> None:
    """Check a two-layer network of threshold units on the four inputs of a gate.

    Every unit outputs +1 when its activation is > 0 and -1 otherwise, as
    everywhere in the course: hidden unit ``j`` outputs
    ``g_j = +1 if W_hidden[j] . x + b_hidden[j] > 0 else -1``, and the output
    unit outputs ``+1 if w_out . g + b_out > 0 else -1``. The network computes
    the gate when it outputs +1 exactly on the inputs (bits 0 and 1) where the
    gate is true.

    Parameters
    ----------
    W_hidden : array-like of shape (n_hidden, 2)
    b_hidden : array-like of shape (n_hidden,)
    w_out : array-like of shape (n_hidden,)
    b_out : float
    gate : {"xnor", "xor", "and", "or", "nand", "nor"}, default "xnor"

    Raises
    ------
    perceptron_lib.exercises.ExerciseFailure
        On the first input that is wrong, with what the hidden units output.

    Examples
    --------
    XOR as AND(OR, NAND): the output unit fires only when both hidden units
    output +1, that is when ``g_1 + g_2 = 2``:

    >>> W_hidden, b_hidden = [[1, 1], [-1, -1]], [-0.5, 1.5]
    >>> check_two_layer_network(W_hidden, b_hidden, [1, 1], -1.5, gate="xor")
    All 4 inputs of XOR are right.

    An output unit built for hidden outputs 0 and 1 is caught with its fix:

    >>> W_hidden, b_hidden = [[1, 1], [-1, -1]], [-1.5, 0.5]  # AND, NOR
    >>> check_two_layer_network(W_hidden, b_hidden, [1, 1], -0.5, gate="xnor")
    Traceback (most recent call last):
    ...
    perceptron_lib.exercises.ExerciseFailure: On input (0, 0) the hidden units output
    (-1, +1) and the network outputs -1, but XNOR(0, 0) = 1 (it should output +1).
    Hint: your output unit is right for hidden outputs 0 and 1, but a silent unit
    outputs -1, not 0. Rewrite it for g = 2h - 1: w_out = [0.5, 0.5] and
    b_out = 0.5 compute the same thing (or any positive multiple of them).
    """
    not_written(W_hidden=W_hidden, b_hidden=b_hidden, w_out=w_out, b_out=b_out)
    try:
        W_hidden = np.atleast_2d(np.asarray(W_hidden, dtype=float))
    except (TypeError, ValueError):
        raise ExerciseFailure(
            f"W_hidden must be rows of numbers, one row per hidden unit; got {W_hidden!r}."
        ) from None
    b_hidden = _vector("b_hidden", b_hidden)
    w_out = _vector("w_out", w_out)
    n_hidden = W_hidden.shape[0]
    if W_hidden.shape != (n_hidden, 2) or b_hidden.shape != (n_hidden,):
        raise ExerciseFailure(
            "W_hidden must have one row of two weights per hidden unit and b_hidden "
            "one bias per hidden unit; got shapes "
            f"{W_hidden.shape} and {b_hidden.shape}."
        )
    if w_out.shape != (n_hidden,):
        raise ExerciseFailure(
            f"w_out needs one weight per hidden unit ({n_hidden}), got {w_out.shape}."
        )
    b_out = _number("b_out", b_out)
    name = gate.lower()
    truth = logic_gate("xor")[1] < 0 if name == "xnor" else logic_gate(name)[1] > 0
    wanted = np.where(truth, 1, -1)
    hidden = _step(_INPUTS @ W_hidden.T + b_hidden)
    activation = hidden @ w_out + b_out
    output = _step(activation)
    for row, g, out, want, true in zip(_INPUTS, hidden, output, wanted, truth, strict=True):
        if out == want:
            continue
        message = (
            f"On input ({_bits(row)}) the hidden units output ({_signs(g)}) and the "
            f"network outputs {out:+d}, but {name.upper()}({_bits(row)}) = {int(true)} "
            f"(it should output {want:+d})."
        )
        # The same network read with hidden outputs 0/1 (h = (g + 1) / 2).
        as_bits = _step((hidden + 1) / 2 @ w_out + b_out)
        failing = output != wanted
        negatives = activation[wanted < 0]
        if np.all(activation[failing] == 0) and np.all(negatives < 0):
            # Confirmed: the failing inputs are exactly on the output's boundary (they
            # all want +1, since a = 0 predicts -1), and raising b_out by less than the
            # smallest gap below 0 keeps every negative right.
            raised = b_out + (float(-negatives.max()) / 2 if negatives.size else 1.0)
            message += (
                "\nHint: on the failing inputs the output activation "
                "w_out . g + b_out is exactly 0, and a = 0 predicts -1: a unit fires "
                f"only when a > 0. Raise b_out, for example to {describe(raised)}."
            )
        elif np.array_equal(as_bits, wanted):
            # w . h + b = (w / 2) . g + (b + sum(w) / 2): the same unit for g = +-1.
            w_pm, b_pm = w_out / 2, b_out + w_out.sum() / 2
            message += (
                "\nHint: your output unit is right for hidden outputs 0 and 1, but a "
                "silent unit outputs -1, not 0. Rewrite it for g = 2h - 1: "
                f"w_out = [{', '.join(describe(float(v)) for v in w_pm)}] and "
                f"b_out = {describe(float(b_pm))} compute the same thing (or any "
                "positive multiple of them)."
            )
        # Confirmed: all four inputs wrong, no output activation exactly 0.
        elif np.all(output != wanted) and np.all(activation != 0):
            message += (
                "\nHint: your network computes the negation of "
                f"{name.upper()} on every input: flip the signs of the output "
                "unit's weights and bias."
            )
        raise ExerciseFailure(message)
    print(f"All 4 inputs of {name.upper()} are right.")


# The library's functions an answer may call while ``make grade`` grades it, by
# checker (none for a checker not listed): the grader refuses an answer that
# reaches any other function of the library, which holds every solution.
PERMITTED_HELPERS: dict[str, tuple] = {
    # A value answer may load the gate's truth table (data, no weights in it).
    "check_lifted_xor_weights": (logic_gate,),
    "check_two_layer_network": (logic_gate,),
}
