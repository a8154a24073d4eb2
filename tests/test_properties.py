"""Property tests: the theory's promises hold on data hypothesis generates."""

from __future__ import annotations

import warnings

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_array_equal
from sklearn.exceptions import ConvergenceWarning

from perceptron_lib import AveragedPerceptron, Perceptron, VotedPerceptron, training_trace
from perceptron_lib.experiments.at_scale import sequential_activations

SETTINGS = settings(max_examples=40, deadline=None)


@st.composite
def separable_data(draw):
    """Points in a box, labelled by a random separator, with a guaranteed gap around it."""
    seed = draw(st.integers(0, 2**32 - 1))
    n_features = draw(st.integers(1, 5))
    n_samples = draw(st.integers(2, 60))
    gap = draw(st.floats(0.05, 0.5))
    rng = np.random.default_rng(seed)
    w = rng.normal(size=n_features)
    w /= np.linalg.norm(w)
    b = rng.uniform(-0.5, 0.5)
    X = rng.uniform(-2, 2, size=(4 * n_samples, n_features))
    distance = X @ w + b
    keep = np.abs(distance) >= gap
    X, distance = X[keep][:n_samples], distance[keep][:n_samples]
    y = np.where(distance > 0, 1, -1)
    if len(np.unique(y)) < 2:  # make sure both classes are present
        X = np.vstack([X, (gap + 0.1 - b) * w, (-gap - 0.1 - b) * w])
        y = np.append(y, [1, -1])
    return X, y, w, b


def lifted_bound(X, y, w, b):
    """(R/gamma)^2 for the lifted vectors (x, 1) and the unit lifted separator (w, b)."""
    lifted_X = np.hstack([X, np.ones((len(X), 1))])
    lifted_w = np.append(w, b)
    gamma = np.min(y * (lifted_X @ lifted_w)) / np.linalg.norm(lifted_w)
    radius = np.max(np.linalg.norm(lifted_X, axis=1))
    return (radius / gamma) ** 2


@SETTINGS
@given(separable_data(), st.integers(0, 1000))
def test_mistakes_never_exceed_the_bound(data, seed):
    X, y, w, b = data
    model = Perceptron(random_state=seed, max_iter=100_000).fit(X, y)
    assert model.converged_
    assert model.mistakes_per_epoch_.sum() <= lifted_bound(X, y, w, b)


@SETTINGS
@given(separable_data(), st.integers(0, 1000))
def test_after_convergence_every_example_is_on_its_side(data, seed):
    X, y, _, _ = data
    for cls in (Perceptron, AveragedPerceptron, VotedPerceptron):
        model = cls(random_state=seed, max_iter=100_000).fit(X, y)
        # The current (last) weights, the ones the training loop tested. The
        # activations are summed in the loop's order: X @ w would use the BLAS
        # kernel's order, which differs between processors in the last bits.
        current_w = getattr(model, "last_coef_", model.coef_)
        current_b = getattr(model, "last_intercept_", model.intercept_)
        assert (y * sequential_activations(X, current_w, current_b) > 0).all()


@SETTINGS
@given(separable_data(), st.integers(-6, 6), st.integers(0, 1000))
def test_learning_rate_changes_no_decision_from_zero(data, power, seed):
    # From w = 0, eta only scales (w, b). With eta a power of two the scaling is
    # exact in floating point too, so the runs must agree step for step.
    X, y, _, _ = data
    eta = 2.0**power
    base = Perceptron(random_state=seed, max_iter=100_000).fit(X, y)
    scaled = Perceptron(eta=eta, random_state=seed, max_iter=100_000).fit(X, y)
    assert_array_equal(scaled.mistakes_per_epoch_, base.mistakes_per_epoch_)
    assert_array_equal(scaled.coef_, eta * base.coef_)
    assert_array_equal(scaled.predict(X), base.predict(X))


@SETTINGS
@given(st.integers(0, 2**32 - 1), st.integers(2, 30), st.integers(1, 4), st.integers(-6, 6))
def test_power_of_two_learning_rate_keeps_every_tie_on_integer_data(seed, n, d, power):
    # Small integer features make ties a = 0 frequent: the case where a learning
    # rate such as 0.1 changes the run (see test_estimators). A power of two must not.
    rng = np.random.default_rng(seed)
    X = rng.integers(-2, 3, size=(n, d)).astype(float)
    y = np.tile([-1, 1], n)[:n]
    rng.shuffle(y)
    eta = 2.0**power
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        base = Perceptron(random_state=seed % 1000, max_iter=20).fit(X, y)
        scaled = Perceptron(eta=eta, random_state=seed % 1000, max_iter=20).fit(X, y)
    assert_array_equal(scaled.mistakes_per_epoch_, base.mistakes_per_epoch_)
    assert_array_equal(scaled.coef_, eta * base.coef_)
    assert scaled.intercept_ == eta * base.intercept_


@SETTINGS
@given(
    st.integers(0, 2**32 - 1),
    st.integers(2, 40),
    st.integers(1, 4),
    st.booleans(),
    st.booleans(),
    st.integers(1, 6),
)
def test_trace_replays_to_the_fitted_weights(seed, n_samples, n_features, shuffle, bias, epochs):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n_samples, n_features)) * 3
    y = np.tile([0, 1], n_samples)[:n_samples]
    rng.shuffle(y)
    params = dict(shuffle=shuffle, fit_intercept=bias, max_iter=epochs, random_state=seed % 1000)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        model = Perceptron(**params).fit(X, y)
    trace = training_trace(Perceptron(**params), X, y)
    assert_array_equal(trace.weights[-1], model.coef_)
    assert trace.bias[-1] == model.intercept_
    assert trace.n_mistakes == model.mistakes_per_epoch_.sum()
    # Each recorded step is one application of the update rule.
    for step in np.flatnonzero(trace.mistake):
        w_before, b_before = trace.weights_before(step)
        label = trace.labels[trace.index[step]]
        assert label * trace.activation[step] <= 0
        assert np.allclose(trace.weights[step], w_before + label * X[trace.index[step]])
        assert trace.bias[step] == (b_before + label if bias else 0.0)
