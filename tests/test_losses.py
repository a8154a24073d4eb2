"""The 0/1 loss and the perceptron criterion, against finite differences and the batch step."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning

from perceptron_lib import BatchPerceptron
from perceptron_lib.theory.losses import (
    perceptron_criterion,
    perceptron_criterion_gradient,
    zero_one_loss,
)


def data(seed=0, n=25):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    y = np.where(X @ np.array([1.0, 0.5, -1.0]) > 0.2, 1.0, -1.0)
    return X, y


def test_zero_one_loss_counts_a_positive_tie_as_wrong():
    X = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0]])
    assert zero_one_loss([1.0, 0.0], 0.0, X, [1, 1, -1]) == pytest.approx(1 / 3)


def test_zero_one_loss_follows_predict_at_a_zero_activation():
    # At a = 0 the prediction is -1: a negative example there is right, a positive one wrong.
    X = np.array([[1.0, 3.0], [2.0, 3.0]])
    assert zero_one_loss([0.0, 0.0], 0.0, X, [1, -1]) == 0.5
    assert zero_one_loss([0.0, 0.0], 0.0, X, [-1, -1]) == 0.0
    model = BatchPerceptron(max_iter=3).fit(*data())
    X_test, y_test = data(seed=9)
    loss = zero_one_loss(model.coef_, model.intercept_, X_test, y_test)
    assert loss == pytest.approx(1 - model.score(X_test, y_test))


def test_criterion_is_zero_exactly_when_every_example_is_strictly_right():
    X, y = data()
    w_good = np.array([1.0, 0.5, -1.0])
    assert perceptron_criterion(w_good, -0.2, X, y) == 0.0
    assert perceptron_criterion(-w_good, 0.2, X, y) > 0.0


@pytest.mark.parametrize("seed", range(4))
def test_gradient_matches_finite_differences(seed):
    X, y = data(seed)
    rng = np.random.default_rng(100 + seed)
    w, b = rng.normal(size=3), float(rng.normal())
    grad_w, grad_b = perceptron_criterion_gradient(w, b, X, y)
    h = 1e-6
    for j in range(3):
        step = np.eye(3)[j] * h
        slope = perceptron_criterion(w + step, b, X, y) - perceptron_criterion(w - step, b, X, y)
        assert grad_w[j] == pytest.approx(slope / (2 * h), abs=1e-6)
    slope_b = perceptron_criterion(w, b + h, X, y) - perceptron_criterion(w, b - h, X, y)
    assert grad_b == pytest.approx(slope_b / (2 * h), abs=1e-6)


def test_zero_one_loss_has_zero_slope_where_the_criterion_does_not():
    X, y = data(1)
    w, b = np.array([0.3, -1.0, 0.2]), 0.1
    h = 1e-6
    assert zero_one_loss(w + h, b, X, y) == zero_one_loss(w, b, X, y)
    assert perceptron_criterion(w + h, b, X, y) != perceptron_criterion(w, b, X, y)


@pytest.mark.parametrize("passes", [1, 2, 3])
def test_batch_perceptron_steps_along_minus_the_gradient(passes):
    X, y = data(2)
    eta = 0.7
    w, b = np.zeros(3), 0.0
    for _ in range(passes):
        grad_w, grad_b = perceptron_criterion_gradient(w, b, X, y)
        w, b = w - eta * grad_w, b - eta * grad_b
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        model = BatchPerceptron(eta=eta, max_iter=passes).fit(X, y)
    np.testing.assert_allclose(model.coef_, w)
    assert model.intercept_ == pytest.approx(b)


@pytest.mark.parametrize(
    ("w", "X", "y", "message"),
    [
        ([1.0, 0.0], [[1.0, 2.0]], [0], "-1 or \\+1"),
        ([1.0], [[1.0, 2.0]], [1], "shape"),
        ([1.0, 0.0], np.zeros((0, 2)), np.zeros(0), "empty"),
    ],
)
def test_losses_reject_bad_input(w, X, y, message):
    for loss in (zero_one_loss, perceptron_criterion, perceptron_criterion_gradient):
        with pytest.raises(ValueError, match=message):
            loss(w, 0.0, X, y)
