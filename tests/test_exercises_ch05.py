"""The exercise checks of chapter 5: a right answer passes, typical wrong ones are explained."""

from __future__ import annotations

import numpy as np
import pytest

from perceptron_lib.exercises import ExerciseFailure, ch05


def lifted_quantities(X, y, w, b):
    X, y, w = (np.asarray(v, dtype=float) for v in (X, y, w))
    scores = y * (X @ w + b)
    if np.any(scores <= 0):
        raise ValueError("(w, b) does not separate the data")
    radius = np.sqrt(1.0 + np.max(np.sum(X**2, axis=1)))
    gamma = scores.min() / np.sqrt(w @ w + b * b)
    return radius, gamma, (radius / gamma) ** 2


def test_right_lifted_quantities_pass(capsys):
    ch05.check_lifted_quantities(lifted_quantities)
    assert capsys.readouterr().out == "All 8 checks passed for lifted_quantities.\n"


def test_forgotten_lift_in_the_radius_gets_its_hint():
    def unlifted_radius(X, y, w, b):
        radius, gamma, _ = lifted_quantities(X, y, w, b)
        radius = np.sqrt(radius**2 - 1.0)
        return radius, gamma, (radius / gamma) ** 2

    with pytest.raises(ExerciseFailure) as failure:
        ch05.check_lifted_quantities(unlifted_radius)
    message = str(failure.value)
    assert message.startswith("lifted_quantities(X=[[1.0], [-1.0]], y=[1, -1], w=[1.0], b=0.0)")
    assert "include the constant feature" in message
    assert "(b, w), not of w alone" not in message


def test_geometric_margin_gets_its_hint_on_the_first_case_with_a_bias():
    def geometric(X, y, w, b):
        radius, _, _ = lifted_quantities(X, y, w, b)
        X, y, w = (np.asarray(v, dtype=float) for v in (X, y, w))
        gamma = np.min(y * (X @ w + b)) / np.linalg.norm(w)
        return radius, gamma, (radius / gamma) ** 2

    with pytest.raises(ExerciseFailure) as failure:
        ch05.check_lifted_quantities(geometric)
    message = str(failure.value)
    assert message.startswith("lifted_quantities(X=[[2.0], [0.0]], y=[1, -1], w=[1.0], b=-1.0)")
    assert "(b, w), not of w alone" in message
    assert "constant feature" not in message


def test_missing_error_on_a_non_separator_is_caught_without_a_hint():
    def never_raises(X, y, w, b):
        X, y, w = (np.asarray(v, dtype=float) for v in (X, y, w))
        radius = np.sqrt(1.0 + np.max(np.sum(X**2, axis=1)))
        gamma = np.min(y * (X @ w + b)) / np.sqrt(w @ w + b * b)
        return radius, gamma, (radius / gamma) ** 2

    with pytest.raises(ExerciseFailure) as failure:
        ch05.check_lifted_quantities(never_raises)
    message = str(failure.value)
    assert "should raise ValueError" in message
    assert "Hint" not in message


def scaled_bound(X, y, w, b, s):
    X, y, w = (np.asarray(v, dtype=float) for v in (X, y, w))
    if np.any(y * (X @ w + b) <= 0):
        raise ValueError("(w, b) does not separate the data")
    radius_sq = s * s + np.max(np.sum(X**2, axis=1))
    gamma = np.min(y * (X @ w + b)) / np.sqrt(w @ w + (b / s) ** 2)
    return radius_sq / gamma**2


def test_right_scaled_bound_passes(capsys):
    ch05.check_scaled_bound(scaled_bound)
    assert capsys.readouterr().out == "All 8 checks passed for scaled_bound.\n"


def test_bias_not_divided_by_s_gets_its_hint():
    def b_not_scaled(X, y, w, b, s):
        X, y, w = (np.asarray(v, dtype=float) for v in (X, y, w))
        if np.any(y * (X @ w + b) <= 0):
            raise ValueError("(w, b) does not separate the data")
        radius_sq = s * s + np.max(np.sum(X**2, axis=1))
        return radius_sq / (np.min(y * (X @ w + b)) ** 2 / (w @ w + b * b))

    with pytest.raises(ExerciseFailure) as failure:
        ch05.check_scaled_bound(b_not_scaled)
    message = str(failure.value)
    assert "s=2.0" in message.splitlines()[0]
    assert "b / s" in message
    assert "includes s, not 1" not in message


def test_radius_without_s_gets_its_hint():
    def radius_with_one(X, y, w, b, s):
        return scaled_bound(X, y, w, b, s) + (1.0 - s * s) / (
            np.min(np.asarray(y) * (np.asarray(X) @ np.asarray(w) + b)) ** 2
            / (np.dot(w, w) + (b / s) ** 2)
        )

    with pytest.raises(ExerciseFailure) as failure:
        ch05.check_scaled_bound(radius_with_one)
    assert "includes s, not 1" in str(failure.value)
    assert "you used b" not in str(failure.value)


def test_an_unrelated_wrong_bound_gets_no_hint():
    with pytest.raises(ExerciseFailure) as failure:
        ch05.check_scaled_bound(lambda X, y, w, b, s: 2 * scaled_bound(X, y, w, b, s))
    assert "Hint" not in str(failure.value)
