"""The seeded experiments: ordering of the examples, and error per pass."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning

from perceptron_lib import BatchPerceptron, Perceptron
from perceptron_lib.experiments.training import ORDERINGS, error_by_epoch, ordering_experiment


def separable(n=60, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.uniform(-1, 1, size=(4 * n, 2))
    score = X @ np.array([0.6, 0.8]) + 0.1
    keep = np.abs(score) > 0.1
    return X[keep][:n], np.where(score[keep][:n] > 0, 1, -1)


@pytest.mark.parametrize("strategy", ORDERINGS)
def test_runs_are_seeded_and_converge_on_separable_data(strategy):
    X, y = separable()
    first = ordering_experiment(X, y, strategy, n_runs=20, random_state=3)
    again = ordering_experiment(X, y, strategy, n_runs=20, random_state=3)
    other = ordering_experiment(X, y, strategy, n_runs=20, random_state=4)
    assert first.strategy == strategy
    assert first.converged.all()
    np.testing.assert_array_equal(first.updates, again.updates)
    np.testing.assert_array_equal(first.epochs, again.epochs)
    assert not np.array_equal(first.updates, other.updates)
    # Every pass but the last makes at least one update.
    assert (first.updates >= first.epochs - 1).all()


def test_grouped_puts_the_positives_first():
    # Identical positives: the grouped order is fixed, whatever the draws.
    X = np.array([[-2.0, -2.0], [-2.0, -1.0], [-2.0, -1.0], [-2.0, -1.0]])
    y = np.array([-1, 1, 1, 1])
    pos_first = Perceptron(shuffle=False).fit(X[[1, 2, 3, 0]], y[[1, 2, 3, 0]])
    neg_first = Perceptron(shuffle=False).fit(X, y)
    assert pos_first.n_iter_ != neg_first.n_iter_
    result = ordering_experiment(X, y, "grouped", n_runs=3, random_state=0)
    assert (result.updates == pos_first.mistakes_per_epoch_.sum()).all()
    assert (result.epochs == pos_first.n_iter_).all()


def test_non_separable_runs_are_reported_not_warned(recwarn):
    X = np.array([[0.0, 0.0], [1.0, 1.0], [0.0, 1.0], [1.0, 0.0]])
    result = ordering_experiment(X, [-1, -1, 1, 1], "permute_once", n_runs=3, max_iter=5)
    assert not result.converged.any() and (result.epochs == 5).all()
    assert len(recwarn) == 0


@pytest.mark.parametrize(
    ("y", "kwargs", "message"),
    [
        ([1, -1, 1, -1], {"strategy": "sorted"}, "strategy"),
        ([1, -1, 1, -1], {"n_runs": 0}, "n_runs"),
        ([1, 2, 3, 1], {}, "two classes"),
    ],
)
def test_ordering_rejects_bad_input(y, kwargs, message):
    X = np.eye(4)
    args = {"strategy": "grouped"} | kwargs
    strategy = args.pop("strategy")
    with pytest.raises(ValueError, match=message):
        ordering_experiment(X, y, strategy, **args)


@pytest.mark.parametrize("shuffle", [False, True])
def test_pass_k_matches_fit_with_max_iter_k(shuffle):
    X, y = separable(80, seed=1)
    X_train, y_train, X_test, y_test = X[:50], y[:50], X[50:], y[50:]
    estimator = Perceptron(shuffle=shuffle, random_state=5)
    curve = error_by_epoch(estimator, X_train, y_train, X_test, y_test, max_epochs=6)
    assert curve.epochs.tolist() == [1, 2, 3, 4, 5, 6]
    for k in (1, 3, 6):
        with warnings.catch_warnings():
            # A fit stopped after k passes may not have converged; that is the point.
            warnings.simplefilter("ignore", ConvergenceWarning)
            model = Perceptron(shuffle=shuffle, random_state=5, max_iter=k).fit(X_train, y_train)
        assert curve.train_error[k - 1] == pytest.approx(1 - model.score(X_train, y_train))
        assert curve.test_error[k - 1] == pytest.approx(1 - model.score(X_test, y_test))
    assert not hasattr(estimator, "coef_")


def test_error_by_epoch_needs_partial_fit_and_a_positive_count():
    X, y = separable(20)
    with pytest.raises(TypeError, match="partial_fit"):
        error_by_epoch(BatchPerceptron(), X, y, X, y, max_epochs=3)
    with pytest.raises(ValueError, match="max_epochs"):
        error_by_epoch(Perceptron(), X, y, X, y, max_epochs=0)
