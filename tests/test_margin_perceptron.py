"""The margin perceptron: tau = 0 is the perceptron, tau > 0 leaves a margin, bad input fails."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.estimator_checks import parametrize_with_checks

from perceptron_lib import Perceptron, make_separable, margin
from perceptron_lib.margin import MarginPerceptron, margin_perceptron_epoch


@pytest.mark.parametrize("shuffle", [False, True])
@pytest.mark.parametrize("fit_intercept", [False, True])
def test_tau_zero_gives_exactly_the_perceptron(shuffle, fit_intercept):
    data = make_separable(80, margin=0.02, intercept=0.0, n_features=4, random_state=5)
    kwargs = dict(shuffle=shuffle, fit_intercept=fit_intercept, random_state=3, eta=0.7)
    ours = MarginPerceptron(tau=0.0, **kwargs).fit(data.X, data.y)
    plain = Perceptron(**kwargs).fit(data.X, data.y)
    assert np.array_equal(ours.coef_, plain.coef_)
    assert ours.intercept_ == plain.intercept_
    assert np.array_equal(ours.mistakes_per_epoch_, plain.mistakes_per_epoch_)


def test_after_convergence_every_activation_exceeds_tau():
    data = make_separable(60, margin=0.05, intercept=0.2, random_state=0)
    model = MarginPerceptron(tau=2.0, random_state=0).fit(data.X, data.y)
    assert model.converged_
    assert np.min(np.where(data.y > 0, 1, -1) * model.decision_function(data.X)) > 2.0


def test_larger_tau_gives_a_larger_margin_here():
    data = make_separable(100, margin=0.05, intercept=0.2, random_state=1)
    margins = [
        margin(m.coef_, m.intercept_, data.X, data.y)
        for m in (
            MarginPerceptron(tau=tau, random_state=0, max_iter=10_000).fit(data.X, data.y)
            for tau in (0.0, 1.0, 10.0)
        )
    ]
    assert margins[0] < margins[1] < margins[2]


def test_compiled_and_python_loops_agree():
    data = make_separable(40, margin=0.05, random_state=0)
    y = data.y.astype(float)
    results = []
    for loop in (margin_perceptron_epoch, margin_perceptron_epoch.py_func):
        w, updates = np.zeros(2), np.zeros(40, dtype=bool)
        b = loop(data.X, y, np.arange(40), w, 0.0, 1.0, 0.5, True, updates)
        results.append((w.tolist(), b, updates.tolist()))
    assert results[0] == results[1]


@pytest.mark.parametrize(
    "tau, error, message",
    [
        (-0.5, ValueError, "'tau' parameter"),
        (float("nan"), ValueError, "'tau' parameter"),
        (float("inf"), ValueError, r"range \[0.0, inf\)"),
        ("1", TypeError, "'tau' parameter"),
    ],
)
def test_bad_tau_is_rejected(tau, error, message):
    with pytest.raises(error, match=message):
        MarginPerceptron(tau=tau).fit([[0.0], [1.0]], [0, 1])


def test_non_finite_data_is_rejected():
    with pytest.raises(ValueError, match="NaN"):
        MarginPerceptron().fit([[np.nan], [1.0]], [0, 1])


def test_non_separable_data_warns():
    X = [[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]]
    with pytest.warns(ConvergenceWarning):
        MarginPerceptron(max_iter=5).fit(X, [0, 1, 1, 0])


@parametrize_with_checks([MarginPerceptron()], expected_failed_checks=None)
def test_scikit_learn_estimator_checks(estimator, check):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        check(estimator)
