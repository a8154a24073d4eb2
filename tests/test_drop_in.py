"""perceptron_lib as a drop-in for scikit-learn's Perceptron (issue 25).

Many classes (one-vs-rest, scikit-learn's weights bit for bit), sparse input
(scikit-learn's weights on the same matrix), no silent failure (parameters
checked on every call, overflow raises), and an import that leaves matplotlib
alone.
"""

from __future__ import annotations

import subprocess
import sys
import warnings

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from scipy import sparse
from sklearn.base import clone
from sklearn.datasets import load_digits, load_iris
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import Perceptron as SklearnPerceptron

from perceptron_lib import (
    AveragedPerceptron,
    BatchPerceptron,
    KernelPerceptron,
    MarginPerceptron,
    Perceptron,
    VotedPerceptron,
    training_trace,
)

ONLINE = [Perceptron, AveragedPerceptron, VotedPerceptron, MarginPerceptron]
ALL = [*ONLINE, BatchPerceptron, KernelPerceptron]
LINEAR = [Perceptron, AveragedPerceptron, MarginPerceptron, BatchPerceptron]


def quietly(fit, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return fit(*args, **kwargs)


def sklearn_perceptron(**params):
    """scikit-learn's Perceptron doing exactly the course's updates."""
    return SklearnPerceptron(eta0=1.0, penalty=None, alpha=0.0, shuffle=False, tol=None, **params)


def text_like(n_samples=300, n_features=500, density=0.02, seed=0):
    """A sparse non-negative count matrix with labels from a sparse hyperplane."""
    rng = np.random.default_rng(seed)
    X = sparse.random(n_samples, n_features, density=density, format="csr", random_state=seed)
    X.data = np.ceil(X.data * 4)  # counts 1..4
    w = rng.normal(size=n_features)
    y = np.where(X @ w > 0, 1, 0)
    return X, y


# -- many classes -----------------------------------------------------------------------


@pytest.mark.parametrize("loader", [load_iris, load_digits], ids=["iris", "digits"])
def test_multiclass_weights_are_scikit_learns_bit_for_bit(loader):
    X, y = loader(return_X_y=True)
    ours = quietly(Perceptron(shuffle=False, max_iter=20).fit, X, y)
    theirs = quietly(sklearn_perceptron(max_iter=20).fit, X, y)
    assert ours.coef_.shape == theirs.coef_.shape == (len(np.unique(y)), X.shape[1])
    # Exact-order loops on both sides: equal in every bit.
    assert_array_equal(ours.coef_, theirs.coef_)
    assert_array_equal(ours.intercept_, theirs.intercept_)
    assert ours.decision_function(X).shape == theirs.decision_function(X).shape
    assert_array_equal(ours.predict(X), theirs.predict(X))
    assert ours.score(X, y) == theirs.score(X, y)


@pytest.mark.parametrize("cls", ALL, ids=lambda c: c.__name__)
def test_every_estimator_learns_many_classes_one_vs_rest(cls):
    X, y = load_iris(return_X_y=True)
    X = (X - X.mean(axis=0)) / X.std(axis=0)
    labels = np.array(["setosa", "versicolor", "virginica"])[y]
    model = cls(max_iter=20)
    if "random_state" in model.get_params():  # seeded: unseeded runs scored 0.80-0.96
        model.set_params(random_state=0)
    model = quietly(model.fit, X, labels)
    assert_array_equal(model.classes_, ["setosa", "versicolor", "virginica"])
    scores = model.decision_function(X)
    assert scores.shape == (150, 3)
    # The prediction is the class of the largest score, and each score is its binary
    # model's (through BLAS, X @ coef_.T and X @ coef_[k] may differ in the last bits).
    assert_array_equal(model.predict(X), model.classes_[scores.argmax(axis=1)])
    for k, binary in enumerate(model.estimators_):
        assert_allclose(scores[:, k], binary.decision_function(X), rtol=1e-12, atol=1e-12)
    assert model.score(X, labels) > 0.8
    if cls in LINEAR:
        assert model.coef_.shape == (3, 4) and model.intercept_.shape == (3,)


@pytest.mark.parametrize("cls", ALL, ids=lambda c: c.__name__)
def test_binary_shapes_are_unchanged(cls):
    X, y = load_iris(return_X_y=True)
    X, y = X[y < 2], y[y < 2]
    model = quietly(cls(max_iter=5).fit, X, y)
    assert not hasattr(model, "estimators_")
    assert model.decision_function(X).shape == (100,)
    if cls in LINEAR:
        assert model.coef_.shape == (4,) and isinstance(model.intercept_, float)
    # A binary fit after a multiclass one forgets the classes' models.
    quietly(model.fit, *load_iris(return_X_y=True))
    quietly(model.fit, X, y)
    assert not hasattr(model, "estimators_") and model.decision_function(X).ndim == 1


@pytest.mark.parametrize("cls", ONLINE, ids=lambda c: c.__name__)
def test_multiclass_partial_fit_is_fit_epoch_by_epoch(cls):
    X, y = load_iris(return_X_y=True)
    fitted = quietly(cls(shuffle=False, max_iter=3).fit, X, y)
    model = cls(shuffle=False)
    for _ in range(3):
        model.partial_fit(X[y > 0], y[y > 0], classes=[0, 1, 2])  # y holds two of three
        model.partial_fit(X[y == 0], y[y == 0])
    again = cls(shuffle=False)
    for _ in range(3):
        again.partial_fit(X, y)
    assert_array_equal(again.coef_ if hasattr(again, "coef_") else 0, fitted.coef_)
    assert_array_equal(again.intercept_, fitted.intercept_)
    assert model.decision_function(X).shape == (150, 3)
    with pytest.raises(ValueError, match="not in classes_"):
        model.partial_fit(X[:2], [0, 7])


# -- sparse input -----------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["csr", "csc"])
@pytest.mark.parametrize("cls", ONLINE, ids=lambda c: c.__name__)
def test_sparse_input_gives_the_dense_weights(cls, fmt):
    X, y = text_like()
    X = X.asformat(fmt)
    dense = quietly(cls(shuffle=True, random_state=1, max_iter=4).fit, X.toarray(), y)
    ours = quietly(cls(shuffle=True, random_state=1, max_iter=4).fit, X, y)
    # Zeros left out change no sum and no update: the same weights (== ignores the sign of 0).
    if hasattr(dense, "coef_"):
        assert_array_equal(ours.coef_, dense.coef_)
        assert ours.intercept_ == dense.intercept_
    assert_array_equal(ours.mistakes_per_epoch_, dense.mistakes_per_epoch_)
    assert_array_equal(ours.predict(X), dense.predict(X.toarray()))


@pytest.mark.parametrize("fmt", ["csr", "csc"])
def test_sparse_weights_are_scikit_learns_on_the_same_matrix(fmt):
    X, y = text_like(density=0.05)
    X = X.asformat(fmt)
    # scikit-learn damps the intercept's updates on sparse data (by 0.01, its
    # SPARSE_INTERCEPT_DECAY), so the same matrix gives the same run without one ...
    ours = quietly(Perceptron(shuffle=False, max_iter=5, fit_intercept=False).fit, X, y)
    theirs = quietly(sklearn_perceptron(max_iter=5, fit_intercept=False).fit, X, y)
    assert_array_equal(ours.coef_, theirs.coef_[0])
    # ... and with one, scikit-learn's run on the dense copy.
    ours = quietly(Perceptron(shuffle=False, max_iter=5).fit, X, y)
    theirs = quietly(sklearn_perceptron(max_iter=5).fit, X.toarray(), y)
    assert_array_equal(ours.coef_, theirs.coef_[0])
    assert ours.intercept_ == theirs.intercept_[0]


def test_sparse_multiclass_is_scikit_learns():
    X, y = load_digits(return_X_y=True)
    X = sparse.csr_matrix(X)  # about half the pixels are zero
    ours = quietly(Perceptron(shuffle=False, max_iter=10, fit_intercept=False).fit, X, y)
    theirs = quietly(sklearn_perceptron(max_iter=10, fit_intercept=False).fit, X, y)
    assert_array_equal(ours.coef_, theirs.coef_)


def test_sparse_input_is_not_changed_and_training_trace_asks_for_dense():
    X, y = text_like()
    before = X.copy()
    quietly(Perceptron(max_iter=3, random_state=0).fit, X, y)
    assert (X != before).nnz == 0
    with pytest.raises(TypeError, match="dense data is required"):
        training_trace(Perceptron(), X, y)


# -- no silent failure ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cls", "bad"),
    [
        (Perceptron, {"eta": -1.0}),
        (AveragedPerceptron, {"eta": 0.0}),
        (VotedPerceptron, {"max_iter": 0}),
        (MarginPerceptron, {"tau": -5.0}),
    ],
    ids=lambda p: p.__name__ if isinstance(p, type) else str(p),
)
def test_partial_fit_checks_the_parameters_on_every_call(cls, bad):
    X, y = load_iris(return_X_y=True)
    model = cls().partial_fit(X, y)
    coef = model.coef_.copy()
    model.set_params(**bad)
    with pytest.raises(ValueError, match=f"'{next(iter(bad))}' parameter"):
        model.partial_fit(X, y)
    assert_array_equal(model.coef_, coef)


def binary_iris():
    X, y = load_iris(return_X_y=True)
    return X[y < 2], y[y < 2]


@pytest.mark.parametrize("cls", [*ONLINE, BatchPerceptron], ids=lambda c: c.__name__)
@pytest.mark.parametrize(
    ("eta", "scale", "blame"),
    [
        (1e308, 1.0, "eta=1e\\+308"),  # the weights overflow to inf
        (1.0, 1e200, "largest \\|x\\| = 7e\\+200"),  # the weights and activations overflow
        (1.0, 1e160, "largest \\|x\\| = 7e\\+160"),  # finite weights, NaN activations
    ],
)
def test_overflow_raises_naming_the_cause(cls, eta, scale, blame):
    X, y = binary_iris()
    with pytest.raises(ValueError, match=f"overflow.*{blame}"):
        quietly(
            cls(eta=eta, shuffle=False).fit if cls is not BatchPerceptron else cls(eta=eta).fit,
            X * scale,
            y,
        )


@pytest.mark.parametrize("cls", ONLINE, ids=lambda c: c.__name__)
def test_overflow_in_partial_fit_and_with_many_classes_raises(cls):
    X, y = load_iris(return_X_y=True)
    with pytest.raises(ValueError, match="overflow"):
        cls().partial_fit(X * 1e200, y)
    with pytest.raises(ValueError, match="overflow"):
        quietly(cls(eta=1e308).fit, X, y)


def overflowing_fits(cls):
    """Every way a fit of ``cls`` can overflow: eta, or the data's scale; dense or sparse;
    two or three classes; fit, or one partial_fit; four shuffled orders.

    Yields ``(case, bound method, X, y, keyword arguments)``.
    """
    iris_X, iris_y = load_iris(return_X_y=True)
    accepted = cls().get_params()
    for X, y in ((iris_X[iris_y < 2], iris_y[iris_y < 2]), (iris_X, iris_y)):
        for eta, scale in ((1e308, 1.0), (1.0, 1e200), (1.0, 1e160)):
            for to_matrix in (np.asarray, sparse.csr_matrix):
                if to_matrix is sparse.csr_matrix and cls not in ONLINE:
                    continue
                for seed in range(4):
                    params = {"random_state": seed, "eta": eta}
                    model = cls(**{key: v for key, v in params.items() if key in accepted})
                    case = f"{eta=} {scale=} {to_matrix.__name__} {seed=} classes={np.unique(y)}"
                    yield case, model.fit, to_matrix(X * scale), y, {}
                    if hasattr(model, "partial_fit"):
                        method, classes = clone(model).partial_fit, np.unique(y)
                        yield (
                            f"partial_fit {case}",
                            method,
                            to_matrix(X * scale),
                            y,
                            {"classes": classes},
                        )


@pytest.mark.parametrize("cls", ALL, ids=lambda c: c.__name__)
def test_an_overflow_reaches_the_user_as_the_value_error_alone(cls):
    # NumPy's "overflow encountered" RuntimeWarnings used to be printed just before the
    # ValueError. Every warning is recorded here and none may appear (but the ConvergenceWarning
    # of a fit that did not overflow: KernelPerceptron has no eta, so eta=1e308 is no overflow).
    escaped = []
    for case, method, X, y, kwargs in overflowing_fits(cls):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            warnings.simplefilter("ignore", ConvergenceWarning)
            try:
                method(X, y, **kwargs)
            except ValueError as error:
                assert "overflow" in str(error), case
        escaped += [f"{case}: {w.category.__name__}: {w.message}" for w in caught]
    assert escaped == []


def test_a_kernel_that_overflows_raises():
    X, y = binary_iris()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the ValueError alone, no RuntimeWarning before it
        with pytest.raises(ValueError, match="overflowed"):
            KernelPerceptron(kernel="poly", degree=200).fit(10 * X, y)
    # Finite kernel values whose weighted sum overflows: caught in the loop. Seeded: whether
    # the sum reaches inf depends on the order of the examples (2 of 8 seeds never do).
    with pytest.raises(ValueError, match="overflow"):
        KernelPerceptron(kernel=lambda A, B: 1e306 * (A @ B.T), random_state=0).fit(X, y)


@pytest.mark.parametrize(
    ("cls", "params", "error", "match"),
    [
        (Perceptron, {"eta": True}, TypeError, "'eta' parameter.*bool"),
        (MarginPerceptron, {"tau": True}, TypeError, "'tau' parameter.*bool"),
        (BatchPerceptron, {"tol": True}, TypeError, "'tol' parameter.*bool"),
        (
            KernelPerceptron,
            {"degree": 0, "kernel": "poly"},
            ValueError,
            "'degree' parameter of Ker",
        ),
        (KernelPerceptron, {"coef0": True}, TypeError, "'coef0' parameter.*bool"),
    ],
)
def test_parameters_that_were_accepted_by_mistake(cls, params, error, match):
    X, y = binary_iris()
    with pytest.raises(error, match=match):
        cls(**params).fit(X, y)


def test_training_trace_records_the_margin_perceptron():
    X, y = binary_iris()
    model = MarginPerceptron(tau=2.0, shuffle=False, max_iter=30)
    trace = training_trace(model, X, y)
    fitted = quietly(model.fit, X, y)
    assert_array_equal(trace.weights[-1], fitted.coef_)
    assert trace.bias[-1] == fitted.intercept_
    assert trace.n_mistakes == fitted.mistakes_per_epoch_.sum()


# -- import -----------------------------------------------------------------------------


def test_import_leaves_matplotlib_and_widgets_alone_until_a_figure_is_asked_for():
    code = (
        "import sys\n"
        "import perceptron_lib\n"
        "print('matplotlib' in sys.modules, 'ipywidgets' in sys.modules)\n"
        "perceptron_lib.plot_data\n"
        "print('matplotlib' in sys.modules)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.split()
    assert out == ["False", "False", "True"]
