"""fit either finishes or leaves the model exactly as it was; its warnings point at the caller.

A fit that raises part-way (a NaN met during an epoch, an overflow) used to
leave the new ``classes_`` beside the old weights: a model that predicted the
new labels from the old fit, silently. Every estimator's fit now runs inside
``_base.all_or_nothing``.
"""

from __future__ import annotations

import pickle
import warnings

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning

from perceptron_lib import (
    AveragedPerceptron,
    BatchPerceptron,
    KernelPerceptron,
    MarginPerceptron,
    MulticlassPerceptron,
    Perceptron,
    StructuredPerceptron,
    VotedPerceptron,
)

ESTIMATORS = [
    Perceptron,
    AveragedPerceptron,
    VotedPerceptron,
    MarginPerceptron,
    BatchPerceptron,
    KernelPerceptron,
    MulticlassPerceptron,
]


def data(n_classes: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(80, 4))
    y = rng.integers(0, n_classes, size=80)
    return X, y


def make(cls, **params):
    """``cls(**params)``, leaving out what ``cls`` does not take (BatchPerceptron has no order)."""
    return cls(**{k: v for k, v in params.items() if k in cls().get_params()})


def quiet_fit(model, *args):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return model.fit(*args)


@pytest.mark.parametrize("cls", ESTIMATORS, ids=lambda c: c.__name__)
@pytest.mark.parametrize("n_classes", [2, 3])
@pytest.mark.parametrize("bad", ["nan", "overflow"])
def test_a_failed_fit_leaves_the_fitted_model_as_it_was(cls, n_classes, bad):
    X, y = data(n_classes)
    model = quiet_fit(make(cls, max_iter=5, random_state=0), X, y)
    before = pickle.dumps(model)
    X_bad = X.copy()
    if bad == "nan":
        X_bad[50, 2] = np.nan
    else:  # finite, but the scores overflow
        X_bad[50] = 1e308
    with pytest.raises(ValueError):
        quiet_fit(model, X_bad, y + 10)  # new labels: classes_ would change
    assert pickle.dumps(model) == before
    np.testing.assert_array_equal(model.classes_, np.unique(y))


def test_a_failed_structured_fit_leaves_the_fitted_model_as_it_was():
    rng = np.random.default_rng(0)
    sequences = [rng.normal(size=(4, 3)) for _ in range(6)]
    labels = [rng.integers(0, 3, size=4) for _ in range(6)]
    model = quiet_fit(StructuredPerceptron(max_iter=3, random_state=0), sequences, labels)
    before = pickle.dumps(model)
    huge = [1e307 * s for s in sequences]  # finite features whose scores overflow
    with pytest.raises(ValueError, match="overflow"):
        quiet_fit(model, huge, [y + 10 for y in labels])
    assert pickle.dumps(model) == before


@pytest.mark.parametrize("cls", [*ESTIMATORS, StructuredPerceptron], ids=lambda c: c.__name__)
@pytest.mark.parametrize("n_classes", [2, 3])
def test_the_convergence_warning_points_at_the_callers_line(cls, n_classes):
    X, y = data(n_classes, seed=1)
    if cls is StructuredPerceptron:
        X, y = [X[i : i + 4] for i in range(0, 80, 4)], [y[i : i + 4] for i in range(0, 80, 4)]
    with pytest.warns(ConvergenceWarning) as caught:
        cls(max_iter=1).fit(X, y)
    assert {record.filename for record in caught} == {__file__}
