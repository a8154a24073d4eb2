"""KernelPerceptron: the dual form makes exactly the primal perceptron's mistakes.

The equivalence tests use small integer data. There every kernel value, every
activation and every bias is an integer far below 2**53, so both forms compute
the exact real-number activation whatever order they add their terms in; the
mistake sequences must then be identical, and any difference is a bug in the
algorithm, not rounding. (On general float data the two forms add the same
terms in different orders and may round differently; an activation within
rounding of 0 could then flip a decision. The chapter shows that case.)
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning, NotFittedError
from sklearn.metrics.pairwise import polynomial_kernel, rbf_kernel
from sklearn.utils.estimator_checks import parametrize_with_checks

import perceptron_lib.kernel as kernel_module
from perceptron_lib import KernelPerceptron, Perceptron, make_xor, training_trace
from perceptron_lib.kernel import kernel_perceptron_epoch


def mistake_sequence(model: KernelPerceptron, X, y) -> list[int]:
    """Fit ``model`` and return the indices of the examples it updated on, in order."""
    sequence: list[int] = []
    original = kernel_perceptron_epoch

    def recording(gram, signed, order, counts, b, mistakes):
        b = original(gram, signed, order, counts, b, mistakes)
        sequence.extend(order[mistakes].tolist())
        return b

    kernel_module.kernel_perceptron_epoch = recording
    try:
        model.fit(X, y)
    finally:
        kernel_module.kernel_perceptron_epoch = original
    return sequence


def integer_data(seed: int, n_samples: int = 40, n_features: int = 3, separable: bool = True):
    """Small integers in -3..3, labelled by a planted integer plane (or at random)."""
    rng = np.random.default_rng(seed)
    X = rng.integers(-3, 4, size=(n_samples, n_features)).astype(float)
    if separable:
        w = rng.integers(-3, 4, size=n_features)
        y = np.where(X @ w + 0.5 > 0, 1, -1)  # + 0.5: nothing on the plane
    else:
        y = rng.choice([-1, 1], size=n_samples)
    if len(set(y.tolist())) < 2:
        y[0] = -y[0]
    return X, y


def primal_mistakes(X, y, **params) -> tuple[list[int], Perceptron]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        trace = training_trace(Perceptron(eta=1.0, **params), X, y)
        model = Perceptron(eta=1.0, **params).fit(X, y)
    return trace.index[trace.mistake].tolist(), model


def dual_mistakes(X, y, **params) -> tuple[list[int], KernelPerceptron]:
    model = KernelPerceptron(**params)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        sequence = mistake_sequence(model, X, y)
    return sequence, model


# -- exact equivalence ------------------------------------------------------------


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("separable", [True, False])
@pytest.mark.parametrize("shuffle", [True, False])
def test_linear_kernel_makes_the_primal_mistakes_in_the_same_order(seed, separable, shuffle):
    X, y = integer_data(seed, separable=separable)
    params = {"max_iter": 30, "shuffle": shuffle, "random_state": seed}
    primal, perceptron = primal_mistakes(X, y, **params)
    dual, model = dual_mistakes(X, y, kernel="linear", **params)
    assert len(primal) > 0
    assert dual == primal
    np.testing.assert_array_equal(model.mistakes_per_epoch_, perceptron.mistakes_per_epoch_)
    assert model.n_iter_ == perceptron.n_iter_
    assert model.converged_ == perceptron.converged_
    assert model.intercept_[0] == perceptron.intercept_
    # w = sum_i alpha_i y_i x_i, exactly, and the same scores on new points.
    np.testing.assert_array_equal(model.dual_coef_[0] @ model.support_vectors_, perceptron.coef_)
    X_new, _ = integer_data(seed + 100)
    np.testing.assert_array_equal(
        model.decision_function(X_new), perceptron.decision_function(X_new)
    )


def degree_two_map(X):
    """phi with phi(x) . phi(z) = (x . z + 2) ** 2 and no irrational coefficient.

    (x . z + 2)^2 = 4 + 4 x . z + sum_{j,k} x_j x_k z_j z_k: the features are 2,
    2 x_j and every ordered product x_j x_k (both (j, k) and (k, j)).
    """
    X = np.asarray(X, dtype=float)
    products = (X[:, :, None] * X[:, None, :]).reshape(X.shape[0], -1)
    return np.hstack([np.full((X.shape[0], 1), 2.0), 2.0 * X, products])


def test_degree_two_map_reproduces_the_kernel():
    X, _ = integer_data(0, n_samples=10)
    features = degree_two_map(X)
    np.testing.assert_array_equal(
        features @ features.T, polynomial_kernel(X, X, degree=2, gamma=1.0, coef0=2.0)
    )


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("shuffle", [True, False])
def test_polynomial_kernel_makes_the_mistakes_of_the_explicit_feature_map(seed, shuffle):
    rng = np.random.default_rng(seed)
    X = rng.integers(-2, 3, size=(40, 2)).astype(float)
    y = np.where(X[:, 0] * X[:, 1] + 0.5 * X[:, 0] - 0.5 > 0, 1, -1)  # a conic boundary
    params = {"max_iter": 50, "shuffle": shuffle, "random_state": seed}
    primal, perceptron = primal_mistakes(degree_two_map(X), y, **params)
    dual, model = dual_mistakes(X, y, kernel="poly", degree=2, gamma=1.0, coef0=2.0, **params)
    assert dual == primal
    np.testing.assert_array_equal(model.mistakes_per_epoch_, perceptron.mistakes_per_epoch_)
    assert model.intercept_[0] == perceptron.intercept_
    X_new = rng.integers(-3, 4, size=(20, 2)).astype(float)
    np.testing.assert_array_equal(
        model.decision_function(X_new),
        perceptron.decision_function(degree_two_map(X_new)),
    )


def test_polynomial_kernel_solves_xor_and_the_linear_one_cycles():
    X, y = make_xor()
    model = KernelPerceptron(kernel="poly", degree=2, gamma=1.0, shuffle=False).fit(X, y)
    assert model.converged_
    np.testing.assert_array_equal(model.predict(X), y)
    with pytest.warns(ConvergenceWarning, match="max_iter=20"):
        linear = KernelPerceptron(kernel="linear", max_iter=20, random_state=0).fit(X, y)
    assert not linear.converged_
    assert linear.mistakes_per_epoch_.min() > 0


# -- kernels and attributes ------------------------------------------------------


def test_kernels_agree_with_scikit_learn_pairwise():
    rng = np.random.default_rng(1)
    X, Z = rng.normal(size=(7, 3)), rng.normal(size=(5, 3))
    for params, reference in [
        (
            {"kernel": "poly", "degree": 3, "gamma": 0.5, "coef0": 2.0},
            polynomial_kernel(X, Z, degree=3, gamma=0.5, coef0=2.0),
        ),
        ({"kernel": "poly"}, polynomial_kernel(X, Z, degree=2, gamma=None, coef0=1.0)),
        ({"kernel": "rbf", "gamma": 0.7}, rbf_kernel(X, Z, gamma=0.7)),
        ({"kernel": "rbf"}, rbf_kernel(X, Z, gamma=None)),  # gamma None: 1 / n_features
        ({"kernel": "linear"}, X @ Z.T),
    ]:
        np.testing.assert_allclose(
            KernelPerceptron(**params)._kernel_matrix(X, Z), reference, rtol=1e-12
        )


def test_callable_kernel_is_used_and_checked():
    X, y = make_xor()

    def quadratic(A, B):
        return (A @ B.T + 1.0) ** 2

    model = KernelPerceptron(kernel=quadratic, shuffle=False).fit(X, y)
    reference = KernelPerceptron(kernel="poly", gamma=1.0, shuffle=False).fit(X, y)
    np.testing.assert_array_equal(model.update_counts_, reference.update_counts_)
    with pytest.raises(ValueError, match="returned shape"):
        KernelPerceptron(kernel=lambda A, B: (A @ B.T).sum(axis=1)).fit(X, y)
    with pytest.raises(ValueError, match="NaN or infinite"):
        KernelPerceptron(kernel=lambda A, B: np.full((len(A), len(B)), np.nan)).fit(X, y)


def test_fitted_attributes_follow_svc_and_the_updates():
    X, y = make_xor()
    model = KernelPerceptron(kernel="poly", gamma=1.0, shuffle=False).fit(X, y)
    counts = model.update_counts_
    assert counts.sum() == model.mistakes_per_epoch_.sum()
    np.testing.assert_array_equal(model.support_, np.flatnonzero(counts))
    np.testing.assert_array_equal(model.support_vectors_, X[model.support_])
    assert model.dual_coef_.shape == (1, model.support_.shape[0])
    np.testing.assert_array_equal(model.dual_coef_[0], counts[model.support_] * y[model.support_])
    assert model.intercept_.shape == (1,)
    assert model.intercept_[0] == float(np.sum(counts * y))  # each update adds y_i to b


def test_a_tie_predicts_the_negative_class():
    # One update, on (1, +1): alpha = (1, 0), b = 1, so a(x) = x + 1, zero at x = -1.
    model = KernelPerceptron(shuffle=False).fit([[1.0], [-3.0]], [1, -1])
    assert model.update_counts_.tolist() == [1, 0]
    assert model.decision_function([[-1.0]]).tolist() == [0.0]
    assert model.predict([[-1.0], [-0.5]]).tolist() == [-1, 1]


# -- bad input ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("params", "error", "message"),
    [
        ({"kernel": "sigmoid"}, ValueError, "'kernel' parameter"),
        ({"kernel": 3}, ValueError, "'kernel' parameter"),
        ({"degree": -1}, ValueError, "'degree' parameter"),
        ({"degree": 2.5}, TypeError, "'degree' parameter"),
        ({"degree": True}, TypeError, "'degree' parameter"),
        ({"gamma": 0.0}, ValueError, "'gamma' parameter"),
        ({"gamma": "scale"}, ValueError, "'gamma' parameter"),
        ({"coef0": float("inf")}, ValueError, "'coef0' parameter"),
        ({"max_iter": 0}, ValueError, "'max_iter' parameter"),
        ({"max_iter": True}, TypeError, "'max_iter' parameter"),
        ({"shuffle": "yes"}, ValueError, "'shuffle' parameter"),
        ({"random_state": "seed"}, ValueError, "'random_state' parameter"),
    ],
)
def test_bad_parameters_are_rejected_by_name(params, error, message):
    with pytest.raises((ValueError, TypeError), match=message) as raised:
        KernelPerceptron(**params).fit([[0.0], [1.0]], [0, 1])
    assert isinstance(raised.value, error)


def test_bad_data_and_unfitted_use():
    with pytest.raises(NotFittedError):
        KernelPerceptron().predict([[0.0]])
    with pytest.raises(ValueError, match="contains NaN"):
        KernelPerceptron().fit([[np.nan], [1.0]], [0, 1])
    with pytest.raises(ValueError, match="only one class"):
        KernelPerceptron().fit([[0.0], [1.0]], [1, 1])
    model = KernelPerceptron().fit([[0.0, 0.0], [1.0, 1.0]], [0, 1])
    with pytest.raises(ValueError, match="X has 3 features"):
        model.predict([[1.0, 2.0, 3.0]])
    with pytest.raises(TypeError):
        KernelPerceptron("poly")


def test_nothing_is_changed_in_place():
    X, y = make_xor()
    X_in, y_in = X.copy(), y.copy()
    model = KernelPerceptron(kernel="rbf", max_iter=5, random_state=0)
    params = model.get_params()
    model.fit(X_in, y_in)
    model.predict(X_in)
    np.testing.assert_array_equal(X_in, X)
    np.testing.assert_array_equal(y_in, y)
    assert model.get_params() == params


def test_compiled_and_python_loops_agree():
    X, y = integer_data(3, separable=False)
    gram = X @ X.T
    signed = y.astype(float)
    results = []
    for loop in (kernel_perceptron_epoch, kernel_perceptron_epoch.py_func):
        counts, mistakes = (
            np.zeros(len(y), dtype=np.int64),
            np.zeros(len(y), dtype=np.bool_),
        )
        b = loop(gram, signed, np.arange(len(y)), counts, 0.0, mistakes)
        results.append((counts.tolist(), mistakes.tolist(), float(b)))
    assert results[0] == results[1]


@parametrize_with_checks(
    [KernelPerceptron(), KernelPerceptron(kernel="rbf")], expected_failed_checks=None
)
def test_scikit_learn_estimator_checks(estimator, check):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        check(estimator)
