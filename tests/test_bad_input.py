"""Bad input gets a clear error naming the problem; nothing is changed in place."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning, NotFittedError

from perceptron_lib import (
    AveragedPerceptron,
    BatchPerceptron,
    Perceptron,
    VotedPerceptron,
    training_trace,
)

ALL = [Perceptron, AveragedPerceptron, VotedPerceptron, BatchPerceptron]
X = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
Y = np.array([0, 1, 0])

BAD_FIT_DATA = {
    "NaN feature": ([[np.nan, 1.0], [1.0, 2.0]], [0, 1], ValueError, "contains NaN"),
    "infinite feature": ([[np.inf, 1.0], [1.0, 2.0]], [0, 1], ValueError, "infinity"),
    "1-d X": ([1.0, 2.0, 3.0], [0, 1, 0], ValueError, "Expected 2D array"),
    "3-d X": (np.zeros((2, 2, 2)), [0, 1], ValueError, "dim 3"),
    "no samples": (np.zeros((0, 2)), [], ValueError, "0 sample"),
    "no features": (np.zeros((3, 0)), [0, 1, 0], ValueError, "0 feature"),
    "y too short": (X, [0, 1], ValueError, "inconsistent numbers of samples"),
    "one class": (X, [1, 1, 1], ValueError, "only one class"),
    "continuous labels": (X, [0.5, 1.2, 3.3], ValueError, "Unknown label type: continuous"),
    "NaN label": (X, [0, np.nan, 1], ValueError, "y contains NaN"),
    "2-d y": (X, np.zeros((3, 2)), ValueError, "1d array"),
    "missing y": (X, None, ValueError, "requires y to be passed"),
    "string features": ([["a", "b"], ["c", "d"]], [0, 1], ValueError, "could not convert"),
    "complex features": (X + 1j, Y, ValueError, "Complex data not supported"),
}


@pytest.mark.parametrize("case", BAD_FIT_DATA)
@pytest.mark.parametrize("cls", ALL, ids=lambda c: c.__name__)
def test_bad_training_data_is_rejected(cls, case):
    bad_X, bad_y, error, message = BAD_FIT_DATA[case]
    with pytest.raises(error, match=message):
        cls().fit(bad_X, bad_y)


BAD_PARAMETERS = {
    "eta zero": ({"eta": 0}, ValueError, "'eta' parameter"),
    "eta negative": ({"eta": -1.0}, ValueError, "'eta' parameter"),
    "eta NaN": ({"eta": float("nan")}, ValueError, "'eta' parameter"),
    "eta string": ({"eta": "1"}, TypeError, "'eta' parameter"),
    "max_iter zero": ({"max_iter": 0}, ValueError, "'max_iter' parameter"),
    "max_iter float": ({"max_iter": 2.5}, TypeError, "'max_iter' parameter"),
    "max_iter bool": ({"max_iter": True}, TypeError, "'max_iter' parameter"),
    "fit_intercept string": ({"fit_intercept": "yes"}, TypeError, "'fit_intercept' parameter"),
}


@pytest.mark.parametrize("case", BAD_PARAMETERS)
@pytest.mark.parametrize("cls", ALL, ids=lambda c: c.__name__)
def test_bad_parameters_are_rejected_by_name(cls, case):
    params, error, message = BAD_PARAMETERS[case]
    with pytest.raises(error, match=message):
        cls(**params).fit(X, Y)


@pytest.mark.parametrize("cls", [Perceptron, AveragedPerceptron, VotedPerceptron])
def test_bad_online_only_parameters(cls):
    with pytest.raises(TypeError, match="'shuffle' parameter"):
        cls(shuffle="yes").fit(X, Y)
    with pytest.raises(ValueError, match="'random_state' parameter"):
        cls(random_state="seed").fit(X, Y)


def test_bad_tolerance():
    with pytest.raises(ValueError, match="'tol' parameter"):
        BatchPerceptron(tol=-1.0).fit(X, Y)


@pytest.mark.parametrize("cls", ALL, ids=lambda c: c.__name__)
def test_parameters_are_keyword_only(cls):
    with pytest.raises(TypeError):
        cls(1.0)


@pytest.mark.parametrize("cls", ALL, ids=lambda c: c.__name__)
def test_unfitted_model_raises_not_fitted(cls):
    for method in ("predict", "decision_function", "score"):
        args = (X, Y) if method == "score" else (X,)
        with pytest.raises(NotFittedError):
            getattr(cls(), method)(*args)


@pytest.mark.parametrize("cls", ALL, ids=lambda c: c.__name__)
def test_prediction_with_a_different_number_of_features(cls):
    model = cls().fit([[0.0, 0.0], [1.0, 1.0]], [0, 1])
    with pytest.raises(ValueError, match="X has 3 features, but .* is expecting 2"):
        model.predict([[1.0, 2.0, 3.0]])
    with pytest.raises(ValueError, match="contains NaN"):
        model.predict([[np.nan, 1.0]])


@pytest.mark.parametrize("cls", [Perceptron, AveragedPerceptron, VotedPerceptron])
def test_partial_fit_with_a_different_number_of_features(cls):
    model = cls().partial_fit(X, Y)
    with pytest.raises(ValueError, match="X has 1 features"):
        model.partial_fit(X[:, :1], Y)


def test_training_trace_needs_an_online_perceptron():
    with pytest.raises(TypeError, match="online perceptron"):
        training_trace(BatchPerceptron(), X, Y)
    with pytest.raises(ValueError, match="'eta' parameter"):
        training_trace(Perceptron(eta=-1), X, Y)


@pytest.mark.parametrize("cls", ALL, ids=lambda c: c.__name__)
def test_nothing_is_changed_in_place(cls):
    X_in, y_in = X.copy(), Y.copy()
    model = cls(max_iter=5)
    params = model.get_params()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)  # X is not separable in 5 passes
        model.fit(X_in, y_in)
    model.predict(X_in)
    np.testing.assert_array_equal(X_in, X)
    np.testing.assert_array_equal(y_in, Y)
    assert model.get_params() == params
