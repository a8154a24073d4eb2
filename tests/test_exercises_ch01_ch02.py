"""The hints of the checkers of chapters 1 and 2, each against its own mistake.

A hint is a diagnosis, so it must be right: each is tested with the wrong
answer it is written for (the hint appears) and with a wrong answer it is not
written for (it does not). Also the holes the first-year review found:
messages that name a returned value, "-0.0", the gate checks' weight counts
and gate names.
"""

from __future__ import annotations

import numpy as np
import pytest
from exercise_messages import failure_of, hint_of

from perceptron_lib.exercises import ExerciseFailure, ch01, ch02, check_function

NORM = np.linalg.norm


def activations(w, b, X):
    return np.asarray(X, dtype=float) @ np.asarray(w, dtype=float) + b


# Each wrong answer, with the words its hint must contain. Every hint is also
# checked to be absent for the other wrong answers of the same exercise (whose
# hints are different), and the right answer passes.
ACTIVATION_MISTAKES = {
    "no bias": (lambda w, x, b: float(np.dot(w, x)), "without the bias"),
    "bias subtracted": (lambda w, x, b: float(np.dot(w, x) - b), "not subtracted"),
    "int(...)": (lambda w, x, b: int(np.dot(w, x) + b), "int(...)"),
    "round(...)": (lambda w, x, b: float(round(np.dot(w, x) + b)), "do not round"),
    "the prediction": (
        lambda w, x, b: 1 if np.dot(w, x) + b > 0 else -1,
        "not the unit's prediction",
    ),
    "squared dot product": (lambda w, x, b: float(np.dot(w, x) ** 2 + b), None),
}
PREDICTION_MISTAKES = {
    ">= 0": (lambda w, x, b: 1 if np.dot(w, x) + b >= 0 else -1, "exactly 0"),
    "no bias": (lambda w, x, b: 1 if np.dot(w, x) > 0 else -1, "(bias added)"),
    "bias subtracted": (lambda w, x, b: 1 if np.dot(w, x) - b > 0 else -1, "(bias added)"),
    "True/False": (lambda w, x, b: bool(np.dot(w, x) + b > 0), "not True/False"),
    "1/0": (lambda w, x, b: int(np.dot(w, x) + b > 0), "not True/False"),
    # True == 1 in Python: a check that compared with == took True for +1.
    "True for +1": (lambda w, x, b: True if np.dot(w, x) + b > 0 else -1, "not True/False"),
    "np.True_ for +1": (
        lambda w, x, b: np.bool_(np.dot(w, x) + b > 0) if np.dot(w, x) + b > 0 else -1,
        "not True/False",
    ),
    "np.sign": (lambda w, x, b: np.sign(np.dot(w, x) + b), "0 is no label"),
    "int(np.sign)": (lambda w, x, b: int(np.sign(np.dot(w, x) + b)), "0 is no label"),
    "the activation": (lambda w, x, b: float(np.dot(w, x) + b), "not the activation"),
    "always +1": (lambda w, x, b: 1, None),
}
PROJECTION_MISTAKES = {
    "v . u": (lambda v, u: float(np.dot(v, u)), "that is v . u"),
    "squared length": (lambda v, u: float(np.dot(v, u) / np.dot(u, u)), "squared length"),
    "length of v": (lambda v, u: float(np.dot(v, u) / NORM(v)), "not of v"),
    "no sign": (lambda v, u: abs(float(np.dot(v, u) / NORM(u))), "keep the sign"),
    "u . u": (lambda v, u: float(np.dot(u, u)), None),
}
DISTANCE_MISTAKES = {
    "activations": (lambda w, b, X: activations(w, b, X), "those are the activations"),
    "squared length": (lambda w, b, X: activations(w, b, X) / np.dot(w, w), "squared length"),
    "no sign": (lambda w, b, X: np.abs(activations(w, b, X)) / NORM(w), "keep the sign"),
    "no bias": (lambda w, b, X: activations(w, 0.0, X) / NORM(w), "the bias is missing"),
    "bias subtracted": (lambda w, b, X: activations(w, -b, X) / NORM(w), "not subtracted"),
    "one number": (lambda w, b, X: float(activations(w, b, X)[0] / NORM(w)), "one distance"),
    "doubled": (lambda w, b, X: 2 * activations(w, b, X) / NORM(w), None),
}


def _margin_from(values, divide_by):
    if divide_by == 0 or np.any(values <= 0):
        return -np.inf
    return float(np.min(values) / divide_by)


MARGIN_MISTAKES = {
    "no labels": (
        lambda w, b, X, y: _margin_from(activations(w, b, X), NORM(w)),
        "negative example is on its correct side",
    ),
    "absolute value": (
        lambda w, b, X, y: _margin_from(np.abs(activations(w, b, X)), NORM(w)),
        "|w . x + b| is a distance",
    ),
    "no division": (
        lambda w, b, X, y: _margin_from(np.asarray(y) * activations(w, b, X), 1.0),
        "divide the smallest",
    ),
    "no -inf check": (
        lambda w, b, X, y: (
            float(np.min(np.asarray(y) * activations(w, b, X)) / NORM(w)) if np.any(w) else -np.inf
        ),
        "wrong side or exactly on the boundary",
    ),
    "< 0 instead of <= 0": (
        lambda w, b, X, y: (
            -np.inf
            if not np.any(w) or np.any(np.asarray(y) * activations(w, b, X) < 0)
            else float(np.min(np.asarray(y) * activations(w, b, X)) / NORM(w))
        ),
        "wrong side or exactly on the boundary",
    ),
    "w = 0 forgotten": (
        lambda w, b, X, y: (
            -np.inf
            if np.any(np.asarray(y) * activations(w, b, X) <= 0)
            else float(np.min(np.asarray(y) * activations(w, b, X)) / NORM(w))
        ),
        "w = 0 is no boundary",
    ),
    "the largest instead of the smallest": (
        lambda w, b, X, y: (
            -np.inf
            if not np.any(w) or np.any(np.asarray(y) * activations(w, b, X) <= 0)
            else float(np.max(np.asarray(y) * activations(w, b, X)) / NORM(w))
        ),
        None,
    ),
}

EXERCISES = {
    "activation": (ch01.check_activation, ACTIVATION_MISTAKES),
    "prediction": (ch01.check_prediction, PREDICTION_MISTAKES),
    "projection": (ch02.check_projection, PROJECTION_MISTAKES),
    "signed distance": (ch02.check_signed_distance, DISTANCE_MISTAKES),
    "margin": (ch02.check_margin, MARGIN_MISTAKES),
}
CASES = [
    pytest.param(exercise, mistake, id=f"{exercise}: {mistake}")
    for exercise, (_, mistakes) in EXERCISES.items()
    for mistake in mistakes
]


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize(("exercise", "mistake"), CASES)
def test_each_hint_appears_for_its_mistake_and_only_for_it(exercise, mistake):
    check, mistakes = EXERCISES[exercise]
    wrong_answer, words = mistakes[mistake]
    hint = hint_of(failure_of(check, wrong_answer))
    if words is None:  # a mistake no hint is written for: the plain message only
        assert hint is None, hint
    else:
        assert hint is not None and words in hint, hint
    # No other mistake's hint is shown for this one.
    for other, (_, other_words) in mistakes.items():
        if other != mistake and other_words is not None and other_words != words:
            assert hint is None or other_words not in hint, (other, hint)


def test_int_truncation_is_not_told_to_add_the_bias():
    # The first-year review: int(...) got "add b" on the smallest failing case,
    # where w . x happens to equal int(a). The hint must not guess.
    message = failure_of(ch01.check_activation, lambda w, x, b: int(np.dot(w, x) + b))
    assert "add b" not in message
    assert "int(...)" in hint_of(message)


def test_forgetting_the_bias_in_a_prediction_is_not_the_boundary_hint():
    message = failure_of(ch01.check_prediction, lambda w, x, b: 1 if np.dot(w, x) > 0 else -1)
    assert ">= " not in message and "exactly 0" not in message


def test_forgetting_the_labels_in_the_margin_is_not_told_wrong_side():
    message = failure_of(ch02.check_margin, MARGIN_MISTAKES["no labels"][0])
    assert "wrong side" not in hint_of(message)


def test_a_wrong_value_in_a_returned_tuple_is_named_by_position_and_name():
    def reference(w, b):
        return w + 1.0, b + 1.0

    def student(w, b):
        return w + 1.0, b

    with pytest.raises(ExerciseFailure) as failure:
        check_function(student, reference, [(1.0, 2.0)], returns=("new_w", "new_b"))
    message = str(failure.value)
    assert "(the second value, new_b, is wrong)" in message
    assert "returned value" not in message and "it returned the" not in message


def test_a_wrong_value_in_a_checked_pair_reads_as_a_sentence():
    from perceptron_lib.exercises import check_value

    with pytest.raises(ExerciseFailure) as failure:
        check_value((1.0, 2.0), (1.0, 3.0), name="the pair")
    assert "(the second value is wrong)" in str(failure.value)


def test_messages_never_show_minus_zero():
    message = failure_of(ch02.check_projection, lambda v, u: -0.0 * np.dot(v, u) - 1.0)
    assert "-0.0" not in message
    message = failure_of(ch01.check_activation, lambda w, x, b: -0.0)
    assert "-0.0" not in message


# -- check_gate_weights ---------------------------------------------------------


def test_at_least_two_of_three_needs_three_weights():
    with pytest.raises(ExerciseFailure, match="has 3 inputs, so it needs 3 weights; you gave 2"):
        ch01.check_gate_weights([1.0, 1.0], 1.5, gate="at_least_2_of_3")
    ch01.check_gate_weights([1.0, 1.0, 1.0], 1.5, gate="at_least_2_of_3")


def test_a_gate_function_of_three_bits_needs_three_weights():
    with pytest.raises(ExerciseFailure, match="takes 3 inputs, so the unit needs 3 weights"):
        ch01.check_gate_weights([1.0, 1.0], 1.5, gate=lambda x1, x2, x3: x1 and x2)


def test_a_misspelt_gate_lists_every_choice_including_at_least():
    with pytest.raises(ValueError, match="Unknown gate 'nan'") as failure:
        ch01.check_gate_weights([1.0, 1.0], 0.5, gate="nan")
    for name in ("'and'", "'or'", "'nand'", "'nor'", "'xor'", "at_least_m_of_D"):
        assert name in str(failure.value)


def test_gate_messages_use_plus_and_minus_one():
    with pytest.raises(ExerciseFailure) as failure:
        ch01.check_gate_weights([1.0, 1.0], 0.5, gate="and")
    message = str(failure.value)
    assert "outputs +1 (fires)" in message and "should output -1 (silent)" in message
    assert "= 0" not in message


def test_the_xor_hint_points_to_chapter_1_and_only_for_xor():
    with pytest.raises(ExerciseFailure) as failure:
        ch01.check_gate_weights([1.0, 1.0], 0.5, gate="xor")
    assert "proof in chapter 1" in str(failure.value)
    with pytest.raises(ExerciseFailure) as failure:
        ch01.check_gate_weights([1.0, 1.0], 0.5, gate="and")
    assert "Hint" not in str(failure.value)
    # XOR of one input is the input itself: one unit computes it, no hint.
    ch01.check_gate_weights([1.0], 0.5, gate="xor")


# -- the review of chapter 1: ties, bools, and answers of the wrong form ---------


@pytest.mark.parametrize(
    ("w", "threshold", "gate", "row"),
    [
        ([0.1, 0.2], 0.3, "and", "(1, 1)"),
        ([0.1, 0.2, 0.2], 0.3, "at_least_2_of_3", "(1, 0, 1)"),
    ],
)
def test_a_sum_exactly_on_the_threshold_stays_silent(w, threshold, gate, row):
    # In floating point 0.1 + 0.2 > 0.3, so these units of a student who lets the
    # unit fire on the threshold were accepted; in the decimals typed the sum is 0.3.
    assert 0.1 + 0.2 > 0.3  # the rounding that fooled the old check
    with pytest.raises(ExerciseFailure) as failure:
        ch01.check_gate_weights(w, threshold, gate=gate)
    message = str(failure.value)
    assert f"On input {row} the unit outputs -1 (silent)" in message
    assert "equals the threshold 0.3" in message
    assert "exactly on the threshold" in hint_of(message)


def test_three_gates_judges_a_sum_on_the_threshold_as_silent():
    with pytest.raises(ExerciseFailure, match="two_of_three: On input \\(1, 0, 1\\)"):
        ch01.check_three_gates(([1.0, -1.0], 0.5), ([0.1, 0.2, 0.2], 0.3), ([-1.0, 1.0], -0.5))


def test_sums_just_off_the_threshold_are_still_judged_by_their_side():
    # Exact sums must not blur a real gap: just below 0.3, (1, 1) fires (AND);
    # just above, it does not.
    ch01.check_gate_weights([0.1, 0.2], 0.2999999999, gate="and")
    with pytest.raises(ExerciseFailure) as failure:
        ch01.check_gate_weights([0.1, 0.2], 0.3000000001, gate="and")
    assert "is not above the threshold" in str(failure.value)
    assert hint_of(str(failure.value)) is None
    # Two values that print alike (six digits) but differ are written in full.
    with pytest.raises(ExerciseFailure, match="0.3 is above the threshold 0.2999999999"):
        ch01.check_gate_weights([0.1, 0.2], 0.2999999999, gate=lambda x1, x2: False)


def test_a_gate_of_one_vector_is_told_to_take_one_argument_per_bit():
    def disjunction(x):
        return (x[0] and x[1]) or (x[2] and x[3])

    with pytest.raises(ExerciseFailure) as failure:
        ch01.check_gate_weights([1.0, 1.0, 1.0, 1.0], 1.5, gate=disjunction)
    message = str(failure.value)
    assert "one argument per input bit" in message and "def gate(x1, x2, x3, x4)" in message
    assert "needs 1 weight" not in message


@pytest.mark.parametrize("threshold", [[1.5], np.array([1.5]), "1.5", np.nan])
def test_a_threshold_that_is_not_one_number_is_named(threshold):
    with pytest.raises(ExerciseFailure, match="The threshold must be"):
        ch01.check_gate_weights([1.0, 1.0], threshold, gate="and")
