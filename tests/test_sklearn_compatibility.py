"""scikit-learn's own estimator checks, and the estimators inside its tools."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer, load_iris
from sklearn.exceptions import ConvergenceWarning
from sklearn.model_selection import GridSearchCV, cross_val_score
from sklearn.multiclass import OneVsRestClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.utils.estimator_checks import parametrize_with_checks

from perceptron_lib import (
    AveragedPerceptron,
    BatchPerceptron,
    MulticlassPerceptron,
    Perceptron,
    VotedPerceptron,
)

ESTIMATORS = [
    Perceptron(),
    AveragedPerceptron(),
    VotedPerceptron(),
    BatchPerceptron(),
    MulticlassPerceptron(),
    MulticlassPerceptron(average=True),
]


@parametrize_with_checks(ESTIMATORS, expected_failed_checks=None)
def test_scikit_learn_estimator_checks(estimator, check):
    with warnings.catch_warnings():
        # Several checks fit on data that is not linearly separable.
        warnings.simplefilter("ignore", ConvergenceWarning)
        check(estimator)


@pytest.mark.parametrize("estimator", ESTIMATORS, ids=lambda e: type(e).__name__)
def test_pipeline_cross_validation_and_grid_search(estimator):
    X, y = load_breast_cancer(return_X_y=True)
    pipeline = make_pipeline(StandardScaler(), estimator)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        scores = cross_val_score(pipeline, X, y, cv=3)
        search = GridSearchCV(pipeline, {f"{pipeline.steps[-1][0]}__max_iter": [1, 5]}, cv=3)
        search.fit(X, y)
    assert scores.mean() > 0.9
    assert search.best_score_ > 0.9


def test_one_vs_rest_handles_more_than_two_classes():
    X, y = load_iris(return_X_y=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        model = OneVsRestClassifier(Perceptron(random_state=0, max_iter=50)).fit(X, y)
    assert set(np.unique(model.predict(X))) == {0, 1, 2}
    assert model.score(X, y) > 0.6
