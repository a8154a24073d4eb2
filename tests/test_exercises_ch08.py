"""The exercise checks of the appendix: right answers pass, wrong ones are explained."""

from __future__ import annotations

import numpy as np
import pytest

from perceptron_lib.exercises import ExerciseFailure, ch08

# -- Amdahl's law ---------------------------------------------------------------------


def test_amdahl_right_answer_passes(capsys):
    def amdahl(p, workers):
        return 1.0 / ((1.0 - p) + p / workers)

    ch08.check_amdahl(amdahl)
    assert "All 7 checks passed for amdahl." in capsys.readouterr().out


@pytest.mark.parametrize(
    ("wrong", "hint"),
    [
        (lambda p, workers: 1.0 / (p + (1.0 - p) / workers), "it is p, not 1 - p"),
        (lambda p, workers: float(workers), "the serial part 1 - p takes as long"),
        (lambda p, workers: (1.0 - p) + p / workers, "the speed-up is its inverse"),
    ],
)
def test_amdahl_slips_get_their_hint(wrong, hint):
    with pytest.raises(ExerciseFailure, match=hint):
        ch08.check_amdahl(wrong)


def test_amdahl_unrelated_wrong_answer_gets_no_hint():
    with pytest.raises(ExerciseFailure) as failure:
        ch08.check_amdahl(lambda p, workers: 2.0)
    assert "Hint" not in str(failure.value)


# -- the first mistake of a block -------------------------------------------------------


def first_mistake(X, y, w, b, start):
    for i in range(start, len(y)):
        if y[i] * (np.dot(w, X[i]) + b) <= 0:
            return i
    return len(y)


def test_first_mistake_right_answer_passes(capsys):
    ch08.check_first_mistake(first_mistake)
    assert "All 12 checks passed for first_mistake." in capsys.readouterr().out


def strict(X, y, w, b, start):
    for i in range(start, len(y)):
        if y[i] * (np.dot(w, X[i]) + b) < 0:
            return i
    return len(y)


def from_zero(X, y, w, b, start):
    return first_mistake(X, y, w, b, 0)


def minus_one(X, y, w, b, start):
    found = first_mistake(X, y, w, b, start)
    return -1 if found == len(y) else found


def wrong_prediction(X, y, w, b, start):
    # The prediction rule (+1 if a > 0, else -1) instead of the training test y * a <= 0.
    for i in range(start, len(y)):
        if (1 if np.dot(w, X[i]) + b > 0 else -1) != y[i]:
            return i
    return len(y)


def wrong_prediction_at_zero(X, y, w, b, start):
    # The same, predicting +1 when a >= 0.
    for i in range(start, len(y)):
        if (1 if np.dot(w, X[i]) + b >= 0 else -1) != y[i]:
            return i
    return len(y)


@pytest.mark.parametrize(
    ("wrong", "hint"),
    [
        (strict, "not < 0"),
        (wrong_prediction, "the prediction rule counts a = 0 with y = -1 as right"),
        (wrong_prediction_at_zero, "you predicted \\+1 when a >= 0"),
        (from_zero, "start looking at index start"),
        (minus_one, "return len\\(y\\)"),
    ],
)
def test_first_mistake_slips_get_their_hint(wrong, hint):
    with pytest.raises(ExerciseFailure, match=hint):
        ch08.check_first_mistake(wrong)


def test_first_mistake_counts_a_tie_on_the_boundary():
    # The smallest failing case of the strict test is the example with a = 0.
    with pytest.raises(ExerciseFailure, match=r"X=\[\[2.0\]\].*returned 1 but should return 0"):
        ch08.check_first_mistake(strict)


# -- mixing ---------------------------------------------------------------------------


def mix(weights, mistakes, mixing):
    k = np.asarray(mistakes, dtype=float)
    if mixing == "uniform" or k.sum() == 0:
        k = np.ones_like(k)
    return (k / k.sum()) @ np.asarray(weights, dtype=float)


def test_mix_right_answer_passes(capsys):
    ch08.check_mix(mix)
    assert "All 10 checks passed for mix." in capsys.readouterr().out


def always_uniform(weights, mistakes, mixing):
    return np.asarray(weights, dtype=float).mean(axis=0)


def not_normalised(weights, mistakes, mixing):
    if mixing == "uniform":
        return mix(weights, mistakes, mixing)
    return np.asarray(mistakes, dtype=float) @ np.asarray(weights, dtype=float)


def zero_round_loses_weights(weights, mistakes, mixing):
    k = np.asarray(mistakes, dtype=float)
    if mixing == "uniform":
        return mix(weights, mistakes, mixing)
    total = k.sum()
    return (k / total if total else k) @ np.asarray(weights, dtype=float)


def uniform_sum(weights, mistakes, mixing):
    if mixing == "weighted":
        return mix(weights, mistakes, mixing)
    return np.asarray(weights, dtype=float).sum(axis=0)


@pytest.mark.parametrize(
    ("wrong", "hint"),
    [
        (uniform_sum, "by the number of shards S"),
        (always_uniform, "this is the uniform mix"),
        (not_normalised, "must add up to 1"),
        (zero_round_loses_weights, "in a round without mistakes \\(total 0\\) mix uniformly"),
    ],
)
def test_mix_slips_get_their_hint(wrong, hint):
    with pytest.raises(ExerciseFailure, match=hint):
        ch08.check_mix(wrong)


def median_of_rows(weights, mistakes, mixing):
    if mixing == "weighted":
        return mix(weights, mistakes, mixing)
    return np.median(np.asarray(weights, dtype=float), axis=0)


def first_and_last(weights, mistakes, mixing):
    if mixing == "weighted":
        return mix(weights, mistakes, mixing)
    weights = np.asarray(weights, dtype=float)
    return (weights[0] + weights[-1]) / 2


def zero_round_by_coordinates(weights, mistakes, mixing):
    weights = np.asarray(weights, dtype=float)
    k = np.asarray(mistakes, dtype=float)
    if mixing == "weighted" and k.sum() == 0:
        return weights.sum(axis=0) / weights.shape[1]  # the coordinates, not the shards
    return mix(weights, mistakes, mixing)


@pytest.mark.parametrize("wrong", [median_of_rows, first_and_last, zero_round_by_coordinates])
def test_mix_rejects_answers_that_agree_on_two_shards(wrong):
    # Each equals the mean on one or two rows, or when rows and coordinates are as many.
    with pytest.raises(ExerciseFailure):
        ch08.check_mix(wrong)


def test_mixing_weights_reject_bad_input():
    from perceptron_lib.mixing import mixing_weights

    with pytest.raises(ValueError, match="'uniform' or 'weighted'"):
        mixing_weights([1, 2], "average")
    with pytest.raises(ValueError, match="counts >= 0"):
        mixing_weights([1, -2], "weighted")
    assert mixing_weights([0, 0, 0], "weighted").tolist() == pytest.approx([1 / 3] * 3)
