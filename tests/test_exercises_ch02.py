"""The checkers of chapter 2 after the third review: fair to right answers, honest hints.

Two slips of the checkers themselves are pinned here:

- the cases were Python lists, so right answers written with NumPy operators
  (``v @ u``, ``X @ w + b``) raised TypeError and were rejected; the cases are
  now NumPy arrays, as the chapter's cells hold their data, and answers written
  either way pass;
- a ``nan`` answer matched any suspected mistake that used ``nan`` as a
  placeholder for "no value here", so the angle formula's ``0 / 0`` at
  ``v = 0`` was told to "divide by the length of u, not of v".
"""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
from exercise_messages import failure_of, hint_of

from perceptron_lib.exercises import ExerciseFailure, ch02

# -- right answers, written with lists or with arrays, all pass ---------------------


def project_lists(v, u):
    return sum(vj * uj for vj, uj in zip(v, u, strict=True)) / math.sqrt(sum(uj * uj for uj in u))


def project_arrays(v, u):
    return v @ u / np.linalg.norm(u)


def signed_distance_lists(w, b, X):
    length = math.sqrt(sum(wj * wj for wj in w))
    return [(sum(wj * xj for wj, xj in zip(w, x, strict=True)) + b) / length for x in X]


def signed_distance_arrays(w, b, X):
    return (X @ w + b) / np.linalg.norm(w)


def margin_lists(w, b, X, y):
    length = math.sqrt(sum(wj * wj for wj in w))
    scores = [
        yi * (sum(wj * xj for wj, xj in zip(w, x, strict=True)) + b)
        for x, yi in zip(X, y, strict=True)
    ]
    if length == 0 or min(scores) <= 0:
        return -math.inf
    return min(scores) / length


def margin_arrays(w, b, X, y):
    scores = y * (X @ w + b)
    if not np.any(w) or np.any(scores <= 0):
        return -np.inf
    return scores.min() / np.linalg.norm(w)


RIGHT_ANSWERS = [
    pytest.param(ch02.check_projection, project_lists, id="projection, lists"),
    pytest.param(ch02.check_projection, project_arrays, id="projection, arrays"),
    pytest.param(ch02.check_signed_distance, signed_distance_lists, id="distance, lists"),
    pytest.param(ch02.check_signed_distance, signed_distance_arrays, id="distance, arrays"),
    pytest.param(ch02.check_margin, margin_lists, id="margin, lists"),
    pytest.param(ch02.check_margin, margin_arrays, id="margin, arrays"),
]


@pytest.mark.parametrize(("check", "answer"), RIGHT_ANSWERS)
def test_right_answers_pass_written_with_lists_or_with_arrays(check, answer, capsys):
    check(answer)
    assert re.fullmatch(r"All \d+ checks passed for \w+\.\n", capsys.readouterr().out)


@pytest.mark.parametrize(
    ("check", "parameters"),
    [
        (ch02.check_projection, ("v", "u")),
        (ch02.check_signed_distance, ("w", "b", "X")),
        (ch02.check_margin, ("w", "b", "X", "y")),
    ],
)
def test_the_checkers_hand_over_numpy_arrays_and_b_as_a_float(check, parameters):
    received = []

    def spy(*arguments):
        received.append(arguments)
        raise RuntimeError("only looking")

    with pytest.raises(ExerciseFailure):
        check(spy)
    assert received
    for arguments in received:
        for name, value in zip(parameters, arguments, strict=True):
            assert isinstance(value, float if name == "b" else np.ndarray), (name, value)


def test_messages_still_show_the_arrays_as_lists():
    message = failure_of(ch02.check_projection, lambda v, u: 1.0)
    assert message.startswith("project(v=[2.0], u=[-0.5]) returned 1.0 but should return -2.0.")
    assert "array(" not in message


def test_an_answer_that_changes_an_array_in_place_is_told_so():
    def in_place(w, b, X):
        w /= np.linalg.norm(w)
        return X @ w + b / np.linalg.norm(w)

    assert "changed its argument w in place" in failure_of(ch02.check_signed_distance, in_place)


# -- nan answers get their own hint, and no unrelated one ---------------------------


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # the student's own 0 / 0
def test_the_angle_formula_at_v_zero_is_told_the_angle_is_undefined():
    def through_the_angle(v, u):
        # np.dot, not @: the slip is the angle, whatever the checker hands over.
        cosine = np.dot(u, v) / (np.linalg.norm(u) * np.linalg.norm(v))
        return np.linalg.norm(v) * cosine

    message = failure_of(ch02.check_projection, through_the_angle)
    assert message.startswith("project(v=[0.0, 0.0], u=[1.0, 0.0]) returned nan")
    assert "1 of 8 checks failed" in message
    hint = hint_of(message)
    assert hint is not None and "angle" in hint and "needs no angle" in hint, hint
    assert "not of v" not in hint


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_dividing_by_the_length_of_v_is_still_told_so():
    message = failure_of(ch02.check_projection, lambda v, u: np.dot(v, u) / np.linalg.norm(v))
    hint = hint_of(message)
    assert hint is not None and "not of v" in hint and "angle" not in hint, hint


def test_nan_everywhere_gets_no_hint():
    assert hint_of(failure_of(ch02.check_projection, lambda v, u: np.nan)) is None


def test_nan_for_w_zero_in_the_margin_is_told_about_w_zero_not_the_wrong_side():
    def nan_for_w_zero(w, b, X, y):
        if not np.any(w):
            return np.nan
        return margin_arrays(*(np.asarray(value) for value in (w, b, X, y)))

    hint = hint_of(failure_of(ch02.check_margin, nan_for_w_zero))
    assert hint is not None and "w = 0 is no boundary" in hint, hint
    assert "wrong side" not in hint
