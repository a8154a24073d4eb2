"""Rosenblatt's rule eta * (d - y) * x with phi(0) = +1, against the course's eta * y * x."""

from __future__ import annotations

import numpy as np
import pytest

from perceptron_lib import Perceptron
from perceptron_lib.rosenblatt import rosenblatt_train, rosenblatt_update, threshold_sign


def test_threshold_sign_sends_zero_to_plus_one():
    assert threshold_sign([-1e-12, 0.0, -0.0, 2.0]).tolist() == [-1, 1, 1, 1]


def test_threshold_sign_rejects_nan():
    with pytest.raises(ValueError, match="NaN"):
        threshold_sign([0.0, np.nan])


def test_correct_answer_changes_nothing():
    w, b = rosenblatt_update([1.0, 2.0], 0.5, [1.0, 1.0], +1, eta=0.3)
    assert w.tolist() == [1.0, 2.0] and b == 0.5


@pytest.mark.parametrize("eta", [0.1, 1.0, 2.5])
def test_wrong_answer_moves_by_twice_eta_d_x(eta):
    w0, b0, x, d = np.array([1.0, -2.0]), 0.25, np.array([3.0, 1.0]), -1
    w, b = rosenblatt_update(w0, b0, x, d, eta=eta)
    np.testing.assert_allclose(w, w0 + 2 * eta * d * x)
    assert b == pytest.approx(b0 + 2 * eta * d)


def test_update_does_not_modify_its_inputs():
    w0, x = np.array([0.0, 0.0]), np.array([1.0, 2.0])
    rosenblatt_update(w0, 0.0, x, -1)
    assert w0.tolist() == [0.0, 0.0] and x.tolist() == [1.0, 2.0]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"d": 0}, "-1 or \\+1"),
        ({"x": [1.0, 2.0, 3.0]}, "same length"),
        ({"eta": 0.0}, "eta"),
    ],
)
def test_update_rejects_bad_input(kwargs, message):
    args = {"w": [0.0, 0.0], "b": 0.0, "x": [1.0, 2.0], "d": 1, "eta": 1.0} | kwargs
    with pytest.raises(ValueError, match=message):
        rosenblatt_update(args["w"], args["b"], args["x"], args["d"], eta=args["eta"])


def test_from_zero_a_positive_example_is_a_tie_that_only_the_course_rule_updates():
    X, d = np.array([[2.0, 1.0]]), np.array([1])
    assert rosenblatt_train(X, d, max_iter=1).n_updates == 0
    # The course's rule needs the second class only to know which label is positive.
    model = Perceptron(shuffle=False, max_iter=1).partial_fit(X, d, classes=[-1, 1])
    assert model.mistakes_per_epoch_.tolist() == [1]


@pytest.mark.parametrize("seed", range(5))
def test_coincides_with_course_rule_at_double_eta_when_no_positive_tie(seed):
    # With a negative first example, both rules update at the initial tie, and with
    # continuous random data no later activation is exactly 0: same run, same weights.
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(30, 3))
    d = np.where(X @ np.array([1.0, -2.0, 0.5]) + 0.3 > 0, 1, -1)
    first_negative = int(np.flatnonzero(d == -1)[0])
    order = np.r_[first_negative, np.delete(np.arange(30), first_negative)]
    X, d = X[order], d[order]
    eta = 0.5
    run = rosenblatt_train(X, d, eta=eta, max_iter=500)
    model = Perceptron(eta=2 * eta, shuffle=False, max_iter=500).fit(X, d)
    assert run.converged and model.converged_
    np.testing.assert_allclose(run.coef, model.coef_)
    assert run.intercept == pytest.approx(model.intercept_)
    assert run.n_updates == model.mistakes_per_epoch_.sum()
    assert run.n_epochs == model.n_iter_


def test_converged_run_answers_every_training_example_correctly():
    rng = np.random.default_rng(7)
    X = rng.normal(size=(40, 2))
    d = np.where(X[:, 0] - X[:, 1] > 0, 1, -1)
    run = rosenblatt_train(X, d, max_iter=1000)
    assert run.converged
    # Each activation as the run computed it (one dot product per example): X @ coef
    # would sum in the BLAS kernel's own order, and could round a tiny activation
    # to the other side of 0 on another processor.
    activations = np.array([run.coef @ x + run.intercept for x in X])
    assert (threshold_sign(activations) == d).all()


def test_train_stops_at_max_iter_on_xor():
    X = np.array([[0.0, 0.0], [1.0, 1.0], [0.0, 1.0], [1.0, 0.0]])
    run = rosenblatt_train(X, [-1, -1, 1, 1], max_iter=7)
    assert not run.converged and run.n_epochs == 7


@pytest.mark.parametrize(
    ("X", "d", "max_iter", "message"),
    [
        ([[1.0], [2.0]], [1, 0], 5, "-1 or \\+1"),
        ([[1.0], [2.0]], [1], 5, "one label per row"),
        ([[1.0], [2.0]], [1, -1], 0, "max_iter"),
    ],
)
def test_train_rejects_bad_input(X, d, max_iter, message):
    with pytest.raises(ValueError, match=message):
        rosenblatt_train(X, d, max_iter=max_iter)
