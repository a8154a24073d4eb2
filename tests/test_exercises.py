"""The self-checking exercise engine and the checkers of chapters 1 and 2.

Each checker is tested the way a student meets it: with a right answer (it
passes and says so) and with typical wrong ones (it fails, naming the case).
"""

from __future__ import annotations

import numpy as np
import pytest

from perceptron_lib.exercises import (
    ExerciseFailure,
    ch01,
    ch02,
    check_function,
    check_value,
    describe,
    mismatch,
    size,
)


def activation(w, x, b):
    return float(np.dot(w, x) + b)


# Deliberately listed largest first: the engine must still report the smallest.
CASES = [
    ([1.0, 2.0, 3.0], [1.0, 1.0, 1.0], 1.0),
    ([1.0, 2.0], [3.0, 4.0], 0.5),
    ([0.0], [0.0], 0.0),
]


# -- the engine ---------------------------------------------------------------


def test_a_correct_function_passes_and_says_so(capsys):
    check_function(activation, activation, CASES, name="activation")
    assert capsys.readouterr().out == "All 3 checks passed for activation.\n"


def test_the_name_defaults_to_the_students_function():
    def my_activation(w, x, b):
        return float(np.dot(w, x) + b)

    def reference(w, x, b):
        return float(np.dot(w, x) + b)

    with pytest.raises(ExerciseFailure, match=r"^my_activation\(w="):
        check_function(my_activation, lambda w, x, b: reference(w, x, b) + 1, CASES)


def test_a_wrong_function_fails_on_the_smallest_failing_case():
    def forgot_bias(w, x, b):
        return float(np.dot(w, x))

    with pytest.raises(ExerciseFailure) as failure:
        check_function(forgot_bias, activation, CASES, name="activation")
    message = str(failure.value)
    # ([0.0], [0.0], 0.0) is the smallest case but forgetting b = 0 is harmless
    # there; the next smallest is the two-input one.
    assert message.startswith(
        "activation(w=[1.0, 2.0], x=[3.0, 4.0], b=0.5) returned 11.0 but should return 11.5."
    )
    assert "2 of 3 checks failed" in message


def test_cases_given_as_keyword_dicts_are_named_by_their_keys():
    cases = [{"w": [1.0], "x": [2.0], "b": 1.0}]
    with pytest.raises(ExerciseFailure, match=r"activation\(w=\[1.0\], x=\[2.0\], b=1.0\)"):
        check_function(lambda w, x, b: 0.0, activation, cases, name="activation")


def test_an_exception_is_reported_with_its_case_and_line_without_a_chain():
    def divides_by_zero(w, x, b):
        return 1 / 0

    with pytest.raises(ExerciseFailure) as failure:
        check_function(divides_by_zero, activation, CASES, name="activation")
    message = str(failure.value)
    assert "activation(w=[0.0], x=[0.0], b=0.0) raised ZeroDivisionError" in message
    assert "should return 0.0" in message
    assert "raised ZeroDivisionError (division by zero) at `return 1 / 0`" in message
    # No chained traceback: the message sums the student's error up.
    assert failure.value.__cause__ is None and failure.value.__suppress_context__
    # In Jupyter the failure shows as its message alone, not as frames.
    (shown,) = failure.value._render_traceback_()
    assert "ExerciseFailure" in shown and message in shown


def test_a_function_that_changes_its_input_in_place_is_caught():
    def in_place(w, x, b):
        w += np.asarray(x)  # changes the caller's array
        return float(np.dot(w, x) - np.dot(x, x) + b)

    cases = [(np.array([1.0, 2.0]), np.array([3.0, 4.0]), 0.5)]
    original = cases[0][0].copy()
    with pytest.raises(ExerciseFailure, match="changed its argument w in place") as failure:
        check_function(in_place, activation, cases, name="activation")
    assert "from [1.0, 2.0] to [4.0, 6.0]" in str(failure.value)
    # The engine works on copies: the caller's cases are untouched.
    np.testing.assert_array_equal(cases[0][0], original)


def test_a_result_of_the_wrong_shape_is_explained():
    with pytest.raises(ExerciseFailure, match=r"an array of shape \(1,\) where a single number"):
        check_function(lambda w, x, b: np.asarray(w) * x + b, activation, CASES)


def test_a_missing_return_is_pointed_out():
    def no_return(w, x, b):
        float(np.dot(w, x) + b)

    with pytest.raises(ExerciseFailure, match="is a return statement missing"):
        check_function(no_return, activation, CASES)


def test_when_the_reference_raises_the_student_must_raise_too(capsys):
    def positive_only(x):
        if x <= 0:
            raise ValueError("x must be positive")
        return x

    check_function(lambda x: positive_only(x), positive_only, [(1,), (-1,)])
    assert "All 2 checks passed" in capsys.readouterr().out
    with pytest.raises(ExerciseFailure, match=r"returned -1 but should raise ValueError"):
        check_function(lambda x: x, positive_only, [(1,), (-1,)], name="positive_only")


def test_a_custom_compare_and_a_hint_are_used():
    def hint(arguments, got, expected):
        return f"b was {arguments['b']}" if got != expected else None

    with pytest.raises(ExerciseFailure, match="Hint: b was 0.5"):
        check_function(
            lambda w, x, b: round(activation(w, x, b)),
            activation,
            CASES,
            compare=lambda got, expected: got == expected,
            hint=hint,
        )
    # The same rounding passes a lenient comparison.
    check_function(
        lambda w, x, b: round(activation(w, x, b)),
        activation,
        CASES,
        compare=lambda got, expected: abs(got - expected) <= 0.5,
    )


@pytest.mark.parametrize(
    ("cases", "error"),
    [([], ValueError), ([[1.0, 2.0]], TypeError), ((1.0, 2.0), TypeError)],
)
def test_malformed_cases_are_rejected(cases, error):
    with pytest.raises(error):
        check_function(activation, activation, cases)


def test_passing_a_value_instead_of_a_function_is_explained():
    with pytest.raises(TypeError, match="function itself"):
        check_function(activation([1.0], [1.0], 0.0), activation, CASES)


def test_check_value(capsys):
    check_value(0.734, 0.8 * 0.37 + 0.6 * 0.73, name="the projection")
    assert capsys.readouterr().out == "The projection is right: 0.734.\n"
    with pytest.raises(ExerciseFailure, match="is 0.7 but should be 0.734"):
        check_value(0.7, 0.734, name="the projection")


@pytest.mark.parametrize(
    ("got", "expected", "right"),
    [
        (0.1 + 0.2, 0.3, True),
        (np.float64(-np.inf), -np.inf, True),
        (-1e300, -np.inf, False),
        (np.array([1.0, 2.0]), [1.0, 2.0], True),
        ([1.0, 2.0], np.array([1.0, 2.0, 3.0]), False),
        (np.int64(3), 3, True),
        (3.5, 3, False),
        ((1.0, [2.0]), (1.0, [2.0]), True),
        ((1.0,), (1.0, 2.0), False),
        ("and", "and", True),
        (None, 0.0, False),
    ],
)
def test_mismatch(got, expected, right):
    assert (mismatch(got, expected) is None) == right


def test_size_counts_elements():
    assert size(([1.0, 2.0], [[1.0, 2.0], [3.0, 4.0]], 0.5)) == 7
    assert size({"X": np.zeros((3, 2))}) == 6


def test_describe_writes_python_not_numpy_reprs():
    assert describe(np.array([[1, 2], [3, 4]])) == "[[1, 2], [3, 4]]"
    assert describe(np.float64(11.0)) == "11.0"
    assert describe(np.arange(100.0)).startswith("an array of shape (100,)")


# -- chapter 1 ----------------------------------------------------------------


def test_ch01_activation(capsys):
    ch01.check_activation(lambda w, x, b: sum(wi * xi for wi, xi in zip(w, x, strict=True)) + b)
    assert "passed for activation" in capsys.readouterr().out
    with pytest.raises(ExerciseFailure, match="Hint: this is w . x without the bias"):
        ch01.check_activation(lambda w, x, b: float(np.dot(w, x)))
    with pytest.raises(ExerciseFailure, match="not subtracted"):
        ch01.check_activation(lambda w, x, b: float(np.dot(w, x) - b))


def test_ch01_prediction(capsys):
    ch01.check_prediction(lambda w, x, b: 1 if np.dot(w, x) + b > 0 else -1)
    assert "passed for predict" in capsys.readouterr().out
    with pytest.raises(ExerciseFailure, match="exactly 0 the unit does not fire") as failure:
        ch01.check_prediction(lambda w, x, b: 1 if np.dot(w, x) + b >= 0 else -1)
    # The smallest case with activation exactly 0 is w = x = [0.0], b = 0.
    assert str(failure.value).startswith("predict(w=[0.0], x=[0.0], b=0.0) returned 1")


@pytest.mark.parametrize(
    ("w", "threshold", "gate"),
    [
        ([1.0, 1.0], 1.5, "and"),
        ([1.0, 1.0], 0.5, "or"),
        ([-1.0, -1.0], -1.5, "nand"),
        ([-1.0, -1.0], -0.5, "nor"),
        ([1.0, 1.0, 1.0, 1.0], 1.5, "at_least_2"),
        ([1.0, -1.0, 1.0], 1.5, lambda x1, x2, x3: x1 and not x2 and x3),
    ],
)
def test_ch01_right_gate_weights_pass(capsys, w, threshold, gate):
    ch01.check_gate_weights(w, threshold, gate=gate)
    assert "rows of the truth table" in capsys.readouterr().out


def test_ch01_wrong_gate_weights_name_the_first_wrong_row():
    with pytest.raises(ExerciseFailure, match=r"On input \(0, 1\) the unit outputs \+1") as fail:
        ch01.check_gate_weights([1.0, 1.0], 0.5, gate="and")
    assert "AND(0, 1) is false, so it should output -1" in str(fail.value)
    with pytest.raises(ExerciseFailure, match=r"On input \(1, 1\) the unit outputs -1 \(silent"):
        # At w . x = threshold the unit does not fire: it needs to be above.
        ch01.check_gate_weights([1.0, 1.0], 2.0, gate="and")


@pytest.mark.parametrize("w", [[1.0, 1.0], [1.0, -1.0], [-2.0, 3.0]])
@pytest.mark.parametrize("threshold", [-0.5, 0.5, 1.5])
def test_ch01_no_weights_implement_xor(w, threshold):
    with pytest.raises(ExerciseFailure, match="no weights and threshold work for XOR"):
        ch01.check_gate_weights(w, threshold, gate="xor")


def test_ch01_gate_weights_reject_bad_input():
    with pytest.raises(ValueError, match="non-empty"):
        ch01.check_gate_weights([], 0.5)
    with pytest.raises(TypeError, match="gate"):
        ch01.check_gate_weights([1.0, 1.0], 0.5, gate=2)


# -- chapter 2 ----------------------------------------------------------------


def test_ch02_projection(capsys):
    ch02.check_projection(lambda v, u: np.dot(v, u) / np.linalg.norm(u))
    assert "passed for project" in capsys.readouterr().out
    with pytest.raises(ExerciseFailure, match="divide by the length of u"):
        ch02.check_projection(lambda v, u: np.dot(v, u))


def test_ch02_signed_distance(capsys):
    ch02.check_signed_distance(lambda w, b, X: (np.asarray(X) @ w + b) / np.linalg.norm(w))
    assert "passed for signed_distance" in capsys.readouterr().out
    with pytest.raises(ExerciseFailure, match="those are the activations"):
        ch02.check_signed_distance(lambda w, b, X: np.asarray(X) @ w + b)
    with pytest.raises(ExerciseFailure, match="keep the sign"):
        ch02.check_signed_distance(
            lambda w, b, X: np.abs(np.asarray(X) @ w + b) / np.linalg.norm(w)
        )


def test_ch02_margin(capsys):
    def right(w, b, X, y):
        w, X, y = np.asarray(w, dtype=float), np.asarray(X), np.asarray(y)
        scores = y * (X @ w + b)
        if not np.any(w) or np.any(scores <= 0):
            return -np.inf
        return float(scores.min() / np.linalg.norm(w))

    def never_minus_inf(w, b, X, y):
        w, X, y = np.asarray(w, dtype=float), np.asarray(X), np.asarray(y)
        with np.errstate(divide="ignore", invalid="ignore"):  # w = 0 is one of the cases
            return float((y * (X @ w + b)).min() / np.linalg.norm(w))

    ch02.check_margin(right)
    assert "passed for margin" in capsys.readouterr().out
    with pytest.raises(ExerciseFailure, match="return -inf") as failure:
        ch02.check_margin(never_minus_inf)
    assert str(failure.value).startswith("margin(w=[1.0], b=0.0, X=[[2.0]], y=[-1]) returned -2.0")
