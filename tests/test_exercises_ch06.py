"""The exercise checks of chapter 6: a right answer passes, typical wrong ones are explained."""

from __future__ import annotations

import numpy as np
import pytest

from perceptron_lib.exercises import ExerciseFailure, ch06

# -- the vote -------------------------------------------------------------------


def voted_prediction(vectors, x):
    total = sum(c * (1 if np.dot(w, x) + b > 0 else -1) for w, b, c in vectors)
    return 1 if total > 0 else -1


def test_right_vote_passes(capsys):
    ch06.check_vote(voted_prediction)
    assert capsys.readouterr().out == "All 11 checks passed for voted_prediction.\n"


def test_summing_activations_is_the_average_and_is_diagnosed():
    def averaged(vectors, x):
        total = sum(c * (np.dot(w, x) + b) for w, b, c in vectors)
        return 1 if total > 0 else -1

    with pytest.raises(ExerciseFailure) as failure:
        ch06.check_vote(averaged)
    message = str(failure.value)
    assert message.startswith(
        "voted_prediction(vectors=[([1.0], 0.0, 2), ([-10.0], 0.0, 1)], x=[1.0])"
    )
    assert "should return 1" in message
    assert "averaged perceptron's rule" in message


def test_forgetting_the_counts_is_diagnosed():
    def unweighted(vectors, x):
        total = sum(1 if np.dot(w, x) + b > 0 else -1 for w, b, c in vectors)
        return 1 if total > 0 else -1

    with pytest.raises(ExerciseFailure, match="counts c times"):
        ch06.check_vote(unweighted)


def test_np_sign_tie_is_diagnosed_on_the_tie():
    def with_np_sign(vectors, x):
        total = sum(c * np.sign(np.dot(w, x) + b) for w, b, c in vectors)
        return 1 if total > 0 else -1

    with pytest.raises(ExerciseFailure) as failure:
        ch06.check_vote(with_np_sign)
    message = str(failure.value)
    assert message.startswith(
        "voted_prediction(vectors=[([1.0], 0.0, 3), ([1.0], 1.0, 2)], x=[0.0]) returned 1"
    )
    assert "np.sign(0) is 0" in message


def test_two_slips_at_once_get_no_hint_rather_than_a_guess():
    def with_np_sign_and_tie(vectors, x):
        total = sum(c * np.sign(np.dot(w, x) + b) for w, b, c in vectors)
        return 1 if total >= 0 else -1

    with pytest.raises(ExerciseFailure) as failure:
        ch06.check_vote(with_np_sign_and_tie)
    message = str(failure.value)
    assert message.startswith("voted_prediction(vectors=[([1.0], 0.0, 1)], x=[0.0]) returned 1")
    assert "Hint" not in message


def test_predicting_with_the_longest_lived_vector_alone_is_diagnosed():
    # The tie case [([1], 0, 1), ([-1], 0, 1)] at x = 1 alone would blame the rule
    # at a total of 0 (max picks the first vector, +1, as total >= 0 would); the case
    # where the count-3 vector is outvoted 4 to 3 shows the real slip.
    def longest_only(vectors, x):
        w, b, _ = max(vectors, key=lambda vector: vector[2])
        return 1 if np.dot(w, x) + b > 0 else -1

    with pytest.raises(ExerciseFailure) as failure:
        ch06.check_vote(longest_only)
    message = str(failure.value)
    assert "2 of 11 checks failed" in message
    assert "longest-lived vector alone" in message
    assert "total > 0, not >= 0" not in message


def test_an_unrelated_wrong_vote_gets_no_hint():
    def always_positive(vectors, x):
        return 1

    with pytest.raises(ExerciseFailure) as failure:
        ch06.check_vote(always_positive)
    # The smallest failing case is the tie at x = 0, where +1 is the np.sign slip's
    # answer too: that hint is confirmed there. On a case without a tie there is none.
    assert "x=[0.0]" in str(failure.value)

    def flipped(vectors, x):
        return -voted_prediction(vectors, x)

    with pytest.raises(ExerciseFailure) as failure:
        ch06.check_vote(flipped)
    assert "Hint" not in str(failure.value)


# -- a disagreement ----------------------------------------------------------------


def test_disagreement_accepts_a_real_disagreement(capsys):
    ch06.check_disagreement([([1.0], 0.0, 2), ([-10.0], 0.0, 1)], [1.0])
    assert capsys.readouterr().out.startswith("Right: the vote predicts +1")


def test_disagreement_rejects_agreeing_vectors_and_bad_input():
    with pytest.raises(ExerciseFailure, match="agree"):
        ch06.check_disagreement([([1.0], 0.0, 1), ([2.0], 0.0, 1)], [1.0])
    with pytest.raises(ExerciseFailure, match="same length"):
        ch06.check_disagreement([([1.0], 0.0, 1)], [1.0, 2.0])
    with pytest.raises(ExerciseFailure, match="at least 1"):
        ch06.check_disagreement([([1.0], 0.0, 0)], [1.0])


def test_disagreement_refuses_a_vote_tie():
    # Votes +1 and -1, one each: the vote's total is 0 and predicts -1 only by the
    # rule at 0, while the sum of activations, 2 - 1, is +1. Not a disagreement of
    # votes against activations.
    with pytest.raises(ExerciseFailure, match="The vote is a tie"):
        ch06.check_disagreement([([2.0], 0.0, 1), ([-1.0], 0.0, 1)], [1.0])


def test_disagreement_refuses_a_sum_of_activations_of_zero():
    # Vote +1 (three against one); sum 3 * 1 - 1 * 3 = 0 predicts -1 only by the rule.
    with pytest.raises(ExerciseFailure, match="sum of activations is exactly 0"):
        ch06.check_disagreement([([1.0], 0.0, 3), ([-3.0], 0.0, 1)], [1.0])


def test_disagreement_refuses_an_activation_of_zero():
    # The first vector sits on its boundary at x: it votes -1 by the rule, outvoting
    # the second, while the sum of activations is 0 * 3 + 1 = 1 > 0.
    with pytest.raises(ExerciseFailure, match="activation exactly 0"):
        ch06.check_disagreement([([0.0], 0.0, 3), ([1.0], 0.0, 1)], [1.0])


def test_disagreement_refuses_an_activation_of_zero_up_to_rounding():
    # 0.1 * 3 - 0.3 is 0 in exact arithmetic and 5.55e-17 in floating point: the
    # first vector's "+1" vote (2 against 1) is rounding error.
    with pytest.raises(ExerciseFailure, match="activation 5.55e-17 .* 0 up to rounding"):
        ch06.check_disagreement([([0.1], -0.3, 2), ([-1.0], 0.0, 1)], [3.0])


def test_disagreement_refuses_a_sum_of_zero_up_to_rounding():
    # 3 * 0.1 - 3 * 0.2 + 0.3 is 0 in exact arithmetic and -5.55e-17 in floating
    # point, while the vote is 3 - 3 + 1 = +1: only rounding makes them differ.
    with pytest.raises(ExerciseFailure, match="sum of activations is -5.55e-17"):
        ch06.check_disagreement([([0.1], 0.0, 3), ([-0.2], 0.0, 3), ([0.3], 0.0, 1)], [1.0])


def test_disagreement_accepts_small_but_real_activations(capsys):
    # Small numbers are not rounding: activations 1e-12 and -1e-11 are exact enough.
    ch06.check_disagreement([([1e-12], 0.0, 2), ([-1e-11], 0.0, 1)], [1.0])
    assert capsys.readouterr().out.startswith("Right: the vote predicts +1")


def test_disagreement_refuses_a_count_that_is_not_whole():
    # A survival count counts examples: 1.5 is none. With it the vote is 1.5 - 1 > 0
    # and the sum 1.5 - 10 < 0, so only the whole-number rule can refuse it.
    with pytest.raises(ExerciseFailure, match="whole number"):
        ch06.check_disagreement([([1.0], 0.0, 1.5), ([-10.0], 0.0, 1)], [1.0])


# -- Algorithm 7 -------------------------------------------------------------------


def averaged_perceptron(X, y, passes, *, count_all=True, start=1.0, sign=-1.0):
    X, y = np.asarray(X, dtype=float), np.asarray(y, dtype=float)
    w, q, b, beta, j = np.zeros(X.shape[1]), np.zeros(X.shape[1]), 0.0, 0.0, start
    for _ in range(passes):
        for x, label in zip(X, y, strict=True):
            mistake = label * (w @ x + b) <= 0
            if mistake:
                w, b = w + label * x, b + label
                q, beta = q + j * label * x, beta + j * label
            if count_all or mistake:
                j += 1
    return w + sign * q / j, b + sign * beta / j


def test_right_averaged_perceptron_passes(capsys):
    ch06.check_averaged_perceptron(averaged_perceptron)
    assert "All 7 checks passed" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("slip", "hint"),
    [
        ({"sign": 0.0}, "that is the last (w, b)"),
        ({"count_all": False}, "after every example, mistake or not"),
        ({"start": 0.0}, "you divided by T, the number of examples visited"),
        ({"sign": 1.0}, "subtract the cached sums"),
    ],
)
def test_each_slip_gets_its_own_hint(slip, hint):
    def wrong(X, y, passes):
        return averaged_perceptron(X, y, passes, **slip)

    with pytest.raises(ExerciseFailure) as failure:
        ch06.check_averaged_perceptron(wrong)
    message = str(failure.value)
    assert hint in message
    if slip == {"sign": 1.0}:  # a slip no other one imitates: its hint alone
        others = ("that is the last", "mistake or not", "counter at j = 1", "Or:")
        assert not any(other in message for other in others)


def test_averaging_the_vectors_after_each_example_is_told_it_divided_by_t():
    # The plainest average a student writes: add w after every example, divide by
    # the number of examples T. It leaves out w_0 = 0, so it is (T + 1) / T times the
    # definition's average: same predictions, another number. The hint must name
    # that, not a counter started at 0 that this student never wrote.
    def plain_average(X, y, passes):
        X, y = np.asarray(X, dtype=float), np.asarray(y, dtype=float)
        w, b = np.zeros(X.shape[1]), 0.0
        total_w, total_b, visited = np.zeros(X.shape[1]), 0.0, 0
        for _ in range(passes):
            for x, label in zip(X, y, strict=True):
                if label * (w @ x + b) <= 0:
                    w, b = w + label * x, b + label
                total_w, total_b, visited = total_w + w, total_b + b, visited + 1
        return total_w / visited, total_b / visited

    with pytest.raises(ExerciseFailure) as failure:
        ch06.check_averaged_perceptron(plain_average)
    message = str(failure.value)
    assert "you divided by T, the number of examples visited" in message
    assert "T + 1 vectors w_0, ..., w_T" in message
    assert "If you averaged the vectors w_1, ..., w_T after the examples" in message


def test_returning_the_sum_is_told_to_divide():
    def summed(X, y, passes):
        X, y = np.asarray(X, dtype=float), np.asarray(y, dtype=float)
        w, q, b, beta, j = np.zeros(X.shape[1]), np.zeros(X.shape[1]), 0.0, 0.0, 1.0
        for _ in range(passes):
            for x, label in zip(X, y, strict=True):
                if label * (w @ x + b) <= 0:
                    w, b = w + label * x, b + label
                    q, beta = q + j * label * x, beta + j * label
                j += 1
        return j * w - q, j * b - beta

    with pytest.raises(ExerciseFailure, match="that is the sum of the T"):
        ch06.check_averaged_perceptron(summed)


def test_early_stopping_is_wrong_here_and_gets_no_false_hint():
    def stops_early(X, y, passes):
        # Stops after a pass without mistakes: Algorithm 7 keeps averaging instead.
        X, y = np.asarray(X, dtype=float), np.asarray(y, dtype=float)
        w, q, b, beta, j = np.zeros(X.shape[1]), np.zeros(X.shape[1]), 0.0, 0.0, 1.0
        for _ in range(passes):
            changed = False
            for x, label in zip(X, y, strict=True):
                if label * (w @ x + b) <= 0:
                    w, b = w + label * x, b + label
                    q, beta = q + j * label * x, beta + j * label
                    changed = True
                j += 1
            if not changed:
                break
        return w - q / j, b - beta / j

    with pytest.raises(ExerciseFailure) as failure:
        ch06.check_averaged_perceptron(stops_early)
    assert "Hint" not in str(failure.value)
