"""Tests of perceptron_lib.theory.geometry: distances, margins, the bound, separability."""

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from sklearn.exceptions import ConvergenceWarning

from perceptron_lib import Perceptron
from perceptron_lib.data.datasets import logic_gate, make_separable, make_xor
from perceptron_lib.theory.geometry import margin, mistake_bound, radius, signed_distance
from perceptron_lib.theory.separability import is_linearly_separable, max_margin

finite = st.floats(-100, 100, allow_nan=False, allow_infinity=False)


def reference_margin(w, b, X, y):
    """Plain loop: the distance of the closest example, or -inf if any is misclassified."""
    norm = sum(wj * wj for wj in w) ** 0.5
    if norm == 0:
        return -np.inf
    smallest = np.inf
    for x, label in zip(X, y, strict=True):
        score = label * (sum(wj * xj for wj, xj in zip(w, x, strict=True)) + b)
        if score <= 0:
            return -np.inf
        smallest = min(smallest, score / norm)
    return smallest


def brute_force_max_margin_2d(X, y, n_angles=100_000):
    """Best margin over a fine grid of unit directions w (for each, the best b is midway)."""
    angles = np.linspace(0, 2 * np.pi, n_angles, endpoint=False)
    directions = np.stack([np.cos(angles), np.sin(angles)], axis=1)
    projected = X @ directions.T
    gaps = projected[y > 0].min(axis=0) - projected[y < 0].max(axis=0)
    return gaps.max() / 2


# -- signed distance, margin, radius ------------------------------------------


def test_signed_distance_of_points_on_both_sides_and_on_the_boundary():
    distances = signed_distance([0.0, 2.0], -2.0, [[5.0, 4.0], [0.0, 1.0], [-3.0, -2.0]])
    np.testing.assert_allclose(distances, [3.0, 0.0, -3.0])


def test_signed_distance_rejects_zero_w():
    with pytest.raises(ValueError, match="zero vector"):
        signed_distance([0.0, 0.0], 1.0, [[1.0, 2.0]])


@settings(max_examples=60, deadline=None, derandomize=True, database=None)
@given(
    w=arrays(np.float64, 3, elements=finite),
    b=finite,
    X=arrays(np.float64, (5, 3), elements=finite),
)
def test_signed_distance_sign_agrees_with_the_prediction(w, b, X):
    if np.linalg.norm(w) < 1e-3:
        return  # no hyperplane (tested above)
    activation = X @ w + b
    distances = signed_distance(w, b, X)
    clear = np.abs(activation) > 1e-9 * (1 + np.abs(X) @ np.abs(w) + abs(b))
    assert np.array_equal(np.sign(distances[clear]), np.sign(activation[clear]))


def test_margin_is_distance_of_the_closest_example():
    X = [[3.0, 0.0], [1.0, 5.0], [-2.0, 0.0]]
    assert margin([1.0, 0.0], 0.0, X, [1, 1, -1]) == pytest.approx(1.0)
    assert margin([1.0, 0.0], -0.5, X, [1, 1, -1]) == pytest.approx(0.5)


def test_margin_is_minus_infinity_when_not_separating_or_w_zero():
    X = [[1.0, 0.0], [-1.0, 0.0]]
    assert margin([-1.0, 0.0], 0.0, X, [1, -1]) == -np.inf
    assert margin([1.0, 0.0], 1.0, X, [1, -1]) == -np.inf  # example on the boundary
    assert margin([0.0, 0.0], 1.0, X, [1, 1]) == -np.inf


@settings(max_examples=60, deadline=None, derandomize=True, database=None)
@given(
    w=arrays(np.float64, 2, elements=finite),
    b=finite,
    X=arrays(np.float64, (6, 2), elements=finite),
    c=st.floats(1e-3, 1e3),
)
def test_margin_matches_a_plain_loop_and_is_invariant_to_positive_scaling(w, b, X, c):
    activation = X @ w + b
    # Near 0, a plain loop and numpy may round to different signs; keep clear cases.
    assume(np.all(np.abs(activation) > 1e-9 * (1 + np.abs(X) @ np.abs(w) + abs(b))))
    y = np.where(activation > 0, 1, -1)  # labels that (w, b) separates
    expected = reference_margin(w, b, X, y)
    assert margin(w, b, X, y) == pytest.approx(expected, rel=1e-9)
    scaled = margin(c * w, c * b, X, y)
    if np.isfinite(expected) and expected > 1e-6:
        assert scaled == pytest.approx(expected, rel=1e-9)
    # Scaling by a negative number flips every prediction.
    if np.isfinite(expected):
        assert margin(-c * w, -c * b, X, y) == -np.inf


def test_radius_is_the_largest_norm():
    assert radius([[1.0, 1.0], [0.0, -2.0], [0.5, 0.5]]) == pytest.approx(2.0)


# -- the mistake bound ----------------------------------------------------------


def test_mistake_bound_uses_lifted_radius_and_margin():
    X = np.array([[2.0, 0.0], [-2.0, 0.0]])
    w, b = np.array([1.0, 0.0]), 1.0
    # lifted radius^2 = 4 + 1; lifted margin = min y(w.x+b)/||(w,b)|| = 1/sqrt(2)
    assert mistake_bound(X, [1, -1], w, b) == pytest.approx(5.0 / 0.5)
    assert mistake_bound(X, [1, -1], w, 0.0, fit_intercept=False) == pytest.approx(1.0)


def test_mistake_bound_is_invariant_to_scaling_the_separator():
    data = make_separable(40, margin=0.2, random_state=3)
    bound = mistake_bound(data.X, data.y, data.coef, data.intercept)
    scaled = mistake_bound(data.X, data.y, 7 * data.coef, 7 * data.intercept)
    assert scaled == pytest.approx(bound)


@pytest.mark.parametrize("seed", range(8))
def test_perceptron_mistakes_never_exceed_the_bound(seed):
    data = make_separable(60, margin=0.05, radius=1.0, intercept=0.3, random_state=seed)
    model = Perceptron(random_state=seed).fit(data.X, data.y)
    bound = mistake_bound(data.X, data.y, data.coef, data.intercept)
    assert model.converged_
    assert model.mistakes_per_epoch_.sum() <= bound
    no_bias = make_separable(60, margin=0.05, radius=1.0, random_state=seed)
    model = Perceptron(fit_intercept=False, random_state=seed).fit(no_bias.X, no_bias.y)
    assert model.mistakes_per_epoch_.sum() <= mistake_bound(
        no_bias.X, no_bias.y, no_bias.coef, 0.0, fit_intercept=False
    )


def test_mistake_bound_rejects_a_non_separator():
    with pytest.raises(ValueError, match="does not separate"):
        mistake_bound([[1.0], [-1.0]], [1, -1], [-1.0], 0.0)
    with pytest.raises(ValueError, match="b = 0.5"):
        mistake_bound([[1.0], [-1.0]], [1, -1], [1.0], 0.5, fit_intercept=False)


# -- linear separability ----------------------------------------------------------


@pytest.mark.parametrize(("gate", "separable"), [("and", True), ("or", True), ("xor", False)])
def test_separability_of_gates(gate, separable):
    X, y = logic_gate(gate, 3)
    assert is_linearly_separable(X, y) is separable


def test_separable_data_is_separable_and_noisy_xor_is_not():
    data = make_separable(200, margin=0.01, n_features=5, random_state=0)
    assert is_linearly_separable(data.X, data.y)
    X, y = make_xor(5, noise=0.1, random_state=0)
    assert not is_linearly_separable(X, y)


def test_identical_points_with_different_labels_are_not_separable():
    assert not is_linearly_separable([[1.0, 2.0], [1.0, 2.0]], [1, -1])


# -- the maximum margin ------------------------------------------------------------


def test_max_margin_of_two_points_is_half_their_distance():
    result = max_margin([[1.0, 1.0], [4.0, 5.0]], [-1, 1])
    assert result.margin == pytest.approx(2.5, rel=1e-7)
    np.testing.assert_allclose(result.coef, [0.6, 0.8], atol=1e-7)
    assert result.intercept == pytest.approx(-(0.6 * 2.5 + 0.8 * 3.0), abs=1e-6)


def test_max_margin_of_a_symmetric_set():
    # Two columns of points at x1 = -1 and x1 = +1: the best boundary is x1 = 0.
    heights = np.linspace(-3, 3, 7)
    X = np.array([[side, h] for side in (-1.0, 1.0) for h in heights])
    y = np.repeat([-1, 1], len(heights))
    result = max_margin(X, y)
    assert result.margin == pytest.approx(1.0, rel=1e-7)
    np.testing.assert_allclose(result.coef, [1.0, 0.0], atol=1e-6)
    assert result.intercept == pytest.approx(0.0, abs=1e-6)


def test_max_margin_with_features_on_very_different_scales():
    # Columns at x1 = -0.001 and x1 = +0.001, spread over x2 in [-1000, 1000]: the
    # best boundary is still x1 = 0, margin 0.001, though the radius is 1e6 times that.
    rng = np.random.default_rng(0)
    heights = rng.uniform(-1000, 1000, size=(2, 30))
    sides = np.repeat([-1e-3, 1e-3], 30)
    X = np.column_stack([sides, heights.ravel()])
    X = np.column_stack([X, rng.uniform(0, 50, size=60)])  # an irrelevant third feature
    y = np.repeat([-1, 1], 30)
    result = max_margin(X, y)
    assert result.margin == pytest.approx(1e-3, rel=1e-6)
    np.testing.assert_allclose(result.coef, [1.0, 0.0, 0.0], atol=1e-6)


@pytest.mark.parametrize("seed", range(5))
def test_max_margin_agrees_with_a_brute_force_search_in_2d(seed):
    data = make_separable(40, margin=0.05, intercept=0.2, random_state=seed)
    result = max_margin(data.X, data.y)
    brute = brute_force_max_margin_2d(data.X, data.y)
    # The grid can only miss the optimum from below.
    assert brute - 1e-9 <= result.margin <= brute + 1e-4
    assert np.linalg.norm(result.coef) == pytest.approx(1.0)
    assert result.margin == pytest.approx(margin(result.coef, result.intercept, data.X, data.y))


@pytest.mark.parametrize("seed", range(5))
def test_max_margin_beats_the_planted_and_the_perceptron_separator(seed):
    data = make_separable(80, margin=0.1, n_features=4, intercept=-0.2, random_state=seed)
    result = max_margin(data.X, data.y)
    model = Perceptron(random_state=seed).fit(data.X, data.y)
    found = margin(model.coef_, model.intercept_, data.X, data.y)
    assert found > 0
    assert result.margin >= data.margin - 1e-12
    assert result.margin >= found - 1e-12


def test_max_margin_matches_a_support_vector_machine():
    from sklearn.svm import SVC

    data = make_separable(60, margin=0.2, n_features=3, random_state=11)
    result = max_margin(data.X, data.y)
    svm = SVC(kernel="linear", C=1e8, tol=1e-8).fit(data.X, data.y)
    svm_margin = margin(svm.coef_.ravel(), svm.intercept_[0], data.X, data.y)
    assert result.margin == pytest.approx(svm_margin, rel=1e-3)
    assert result.margin >= svm_margin - 1e-12


def test_max_margin_rejects_non_separable_and_one_class_data():
    X, y = make_xor()
    with pytest.raises(ValueError, match="not linearly separable"):
        max_margin(X, y)
    with pytest.raises(ValueError, match="both classes"):
        max_margin([[0.0], [1.0]], [1, 1])
    with pytest.raises(ValueError, match="same point"):
        max_margin([[2.0, 1.0], [2.0, 1.0]], [1, -1])


def test_perceptron_on_xor_does_not_converge():
    # The theorem's hypothesis matters: without a separator there is no bound.
    X, y = make_xor()
    with pytest.warns(ConvergenceWarning):
        model = Perceptron(max_iter=50, random_state=0).fit(X, y)
    assert (model.mistakes_per_epoch_ > 0).all()


# -- bad arguments -------------------------------------------------------------------

X2 = [[0.0, 1.0], [1.0, 0.0]]


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: margin([1.0], 0.0, X2, [1, -1]), ValueError, "w has 1 weights"),
        (lambda: margin([1.0, 0.0], 0.0, X2, [1, -1, 1]), ValueError, "inconsistent"),
        (lambda: margin([1.0, 0.0], 0.0, X2, [1, 0]), ValueError, "-1 or \\+1"),
        (lambda: margin([1.0, 0.0], 0.0, X2, [[1, -1]]), ValueError, "y must be 1-d"),
        (lambda: margin([1.0, np.nan], 0.0, X2, [1, -1]), ValueError, "w contains NaN"),
        (lambda: margin([1.0, 0.0], np.inf, X2, [1, -1]), ValueError, "b must be finite"),
        (lambda: margin([1.0, 0.0], "0", X2, [1, -1]), TypeError, "b must be a real"),
        (lambda: margin([1.0, 0.0], [0.0], X2, [1, -1]), TypeError, "b must be a real"),
        (lambda: radius([[1.0, np.inf]]), ValueError, "X contains NaN"),
        (lambda: radius(np.zeros((0, 2))), ValueError, "empty"),
        (lambda: radius([1.0, 2.0]), ValueError, "must be 2-d"),
        (lambda: radius([["a", "b"]]), TypeError, "X must be numeric"),
        (lambda: signed_distance([[1.0, 0.0]], 0.0, X2), ValueError, "w must be 1-d"),
        (lambda: is_linearly_separable(X2, ["a", "b"]), TypeError, "y must be numeric"),
        (lambda: is_linearly_separable(X2, [1, 2]), ValueError, "-1 or \\+1"),
        (lambda: mistake_bound(X2, [1, -1], [1.0, 0.0, 0.0], 0.0), ValueError, "features"),
        (lambda: max_margin(np.zeros((0, 2)), []), ValueError, "empty"),
    ],
)
def test_bad_arguments_raise_clear_errors(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_inputs_are_not_modified():
    X = np.array([[1.0, 2.0], [3.0, -1.0], [-2.0, -2.0]])
    y = np.array([1, 1, -1])
    w = np.array([1.0, 1.0])
    copies = X.copy(), y.copy(), w.copy()
    signed_distance(w, 0.5, X)
    margin(w, 0.5, X, y)
    radius(X)
    mistake_bound(X, y, w, 0.5)
    is_linearly_separable(X, y)
    max_margin(X, y)
    for original, copy in zip((X, y, w), copies, strict=True):
        np.testing.assert_array_equal(original, copy)
