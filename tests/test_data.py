"""Tests of perceptron_lib.data: guarantees of the generators, gates, examples, real tasks."""

import itertools
import operator
from functools import reduce

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perceptron_lib.data.datasets import (
    at_least_m_of_n,
    lecture_notes_example,
    load_breast_cancer_task,
    load_digits_pair,
    load_iris_pair,
    logic_gate,
    make_separable,
    make_xor,
    min_lift_example,
    sentiment_example,
    three_points_example,
)
from perceptron_lib.theory.geometry import margin, radius
from perceptron_lib.theory.separability import is_linearly_separable

# -- make_separable ----------------------------------------------------------------


@settings(max_examples=80, deadline=None, derandomize=True, database=None)
@given(
    seed=st.integers(0, 2**31 - 1),
    n_samples=st.integers(2, 60),
    n_features=st.integers(1, 30),
    margin_fraction=st.floats(0.01, 0.9),
    data_radius=st.floats(0.1, 100.0),
    intercept_fraction=st.floats(-0.99, 0.99),
)
def test_make_separable_attains_its_margin_and_radius(
    seed, n_samples, n_features, margin_fraction, data_radius, intercept_fraction
):
    wanted_margin = margin_fraction * data_radius
    intercept = intercept_fraction * (data_radius - wanted_margin)
    data = make_separable(
        n_samples,
        margin=wanted_margin,
        radius=data_radius,
        n_features=n_features,
        intercept=intercept,
        random_state=seed,
    )
    assert data.X.shape == (n_samples, n_features)
    assert set(data.y.tolist()) == {-1, 1}
    assert np.linalg.norm(data.coef) == pytest.approx(1.0)
    assert data.intercept == intercept
    measured_margin = margin(data.coef, data.intercept, data.X, data.y)
    measured_radius = radius(data.X)
    assert measured_margin == pytest.approx(wanted_margin, rel=1e-9)
    assert measured_radius == pytest.approx(data_radius, rel=1e-9)
    assert data.margin == pytest.approx(measured_margin, rel=1e-12)
    assert data.radius == pytest.approx(measured_radius, rel=1e-12)


@pytest.mark.parametrize("wanted_margin", [0.01, 0.1, 0.5, 0.9])
def test_make_separable_margin_from_small_to_large_on_many_seeds(wanted_margin):
    for seed in range(20):
        data = make_separable(100, margin=wanted_margin, n_features=10, random_state=seed)
        assert margin(data.coef, data.intercept, data.X, data.y) >= wanted_margin * (1 - 1e-12)
        assert radius(data.X) <= 1.0 + 1e-12


def test_make_separable_is_deterministic_and_seed_dependent():
    first = make_separable(30, random_state=5)
    again = make_separable(30, random_state=5)
    other = make_separable(30, random_state=6)
    np.testing.assert_array_equal(first.X, again.X)
    np.testing.assert_array_equal(first.y, again.y)
    assert not np.array_equal(first.X, other.X)


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"margin": 1.0, "radius": 1.0}, ValueError, "smaller than radius"),
        ({"margin": 0.0}, ValueError, "margin must be > 0"),
        ({"margin": -0.1}, ValueError, "margin must be > 0"),
        ({"radius": -1.0}, ValueError, "radius must be > 0"),
        ({"margin": float("nan")}, ValueError, "finite"),
        ({"intercept": 0.95}, ValueError, "intercept"),
        ({"n_samples": 1}, ValueError, "n_samples must be >= 2"),
        ({"n_samples": 10.0}, TypeError, "n_samples must be an integer"),
        ({"n_features": 0}, ValueError, "n_features must be >= 1"),
        ({"margin": "0.1"}, TypeError, "margin must be a real"),
    ],
)
def test_make_separable_rejects_bad_arguments(kwargs, error, message):
    with pytest.raises(error, match=message):
        make_separable(**kwargs)


# -- gates and boolean functions ----------------------------------------------------

PYTHON_LOGIC = {
    "and": all,
    "or": any,
    "nand": lambda bits: not all(bits),
    "nor": lambda bits: not any(bits),
    "xor": lambda bits: reduce(operator.xor, bits),
}


@pytest.mark.parametrize("name", sorted(PYTHON_LOGIC))
@pytest.mark.parametrize("n_inputs", [1, 2, 3, 4])
def test_logic_gates_match_python_logic(name, n_inputs):
    X, y = logic_gate(name, n_inputs)
    rows = list(itertools.product([False, True], repeat=n_inputs))
    assert X.tolist() == [[float(bit) for bit in row] for row in rows]
    assert y.tolist() == [1 if PYTHON_LOGIC[name](row) else -1 for row in rows]


@pytest.mark.parametrize("name", ["and", "or", "nand", "nor"])
def test_gates_other_than_xor_are_separable(name):
    assert is_linearly_separable(*logic_gate(name, 3))


def test_gate_names_are_checked():
    with pytest.raises(ValueError, match="Unknown gate 'xnor'"):
        logic_gate("xnor")
    with pytest.raises(TypeError, match="name must be a string"):
        logic_gate(1)
    with pytest.raises(ValueError, match="n_inputs must be >= 1"):
        logic_gate("and", 0)
    assert logic_gate("AND")[1].tolist() == [-1, -1, -1, 1]


@pytest.mark.parametrize(("m", "n"), [(0, 2), (1, 3), (2, 3), (3, 3), (2, 4)])
def test_at_least_m_of_n_counts_ones_and_is_separable(m, n):
    X, y = at_least_m_of_n(m, n)
    rows = list(itertools.product([0, 1], repeat=n))
    assert y.tolist() == [1 if sum(row) >= m else -1 for row in rows]
    if 0 < m:  # m = 0 gives one class only, trivially separable too
        assert is_linearly_separable(X, y)
    # The hand-set unit of McCulloch and Pitts: all weights 1, threshold m.
    assert np.array_equal(np.where(X.sum(axis=1) - m + 0.5 > 0, 1, -1), y)


def test_at_least_m_of_n_rejects_m_above_n():
    with pytest.raises(ValueError, match="m must be <= n"):
        at_least_m_of_n(4, 3)


def test_xor_corners_and_noise():
    X, y = make_xor(3)
    assert X.shape == (12, 2) and y.tolist() == [-1] * 3 + [1] * 6 + [-1] * 3
    noisy, noisy_y = make_xor(3, noise=0.05, random_state=0)
    np.testing.assert_array_equal(noisy_y, y)
    assert 0 < np.abs(noisy - X).max() < 0.5
    np.testing.assert_array_equal(noisy, make_xor(3, noise=0.05, random_state=0)[0])
    assert not is_linearly_separable(X, y)
    with pytest.raises(ValueError, match="noise must be >= 0"):
        make_xor(noise=-1.0)


# -- the sources' examples ------------------------------------------------------


def test_lecture_notes_trace_without_bias():
    X, y = lecture_notes_example()
    w = np.zeros(2)
    history = []
    for x, label in zip(X, y, strict=True):
        if label * (w @ x) <= 0:
            w = w + label * x
        history.append(w.tolist())
    assert history == [[1.0, 3.0], [-1.0, 0.0], [-1.0, 0.0], [-1.0, 0.0]]


def test_three_points_example():
    X, y = three_points_example()
    assert X.tolist() == [[1.0, 1.0], [0.5, 3.0], [2.0, 2.0]] and y.tolist() == [1, 1, -1]
    assert is_linearly_separable(X, y)


def test_min_lift_example_and_its_plane():
    X, y = min_lift_example()
    assert y.tolist() == [1 if min(row) == 0 else -1 for row in X.tolist()]
    # As written in the source this labelling is NAND: separable in the plane already.
    assert is_linearly_separable(X, y)
    lifted, lifted_y = min_lift_example(lifted=True)
    np.testing.assert_array_equal(lifted[:, :2], X)
    np.testing.assert_array_equal(lifted_y, y)
    plane = 2 * lifted[:, 2] - lifted[:, 0] - lifted[:, 1] + 0.5
    assert np.array_equal(np.sign(plane), y)
    # The same plane with x3 = x1 AND x2 is the XOR fix: x1 == x2 on its positive side.
    xor_x, xor_y = make_xor()
    conjunction = xor_x[:, 0] * xor_x[:, 1]
    assert np.array_equal(np.sign(2 * conjunction - xor_x[:, 0] - xor_x[:, 1] + 0.5), -xor_y)


def test_sentiment_needs_its_conjunctions():
    base = sentiment_example(conjunctions=False)
    full = sentiment_example()
    assert base.feature_names == ["excellent", "terrible", "not"]
    assert full.feature_names[:3] == base.feature_names
    assert len(full.feature_names) == full.X.shape[1] == 5
    assert set(full.y.tolist()) == {-1, 1}
    assert len(full.documents) == len(full.y) == full.X.shape[0]
    # Features are word presence, recomputed here from the text.
    for text, row in zip(full.documents, base.X, strict=True):
        words = text.lower().split()
        assert row.tolist() == [float(w in words) for w in ("excellent", "terrible", "not")]
    np.testing.assert_array_equal(full.X[:, 3], full.X[:, 0] * full.X[:, 2])
    np.testing.assert_array_equal(full.X[:, 4], full.X[:, 1] * full.X[:, 2])
    assert not is_linearly_separable(base.X, base.y)
    assert is_linearly_separable(full.X, full.y)
    # Daume's hand-set weights classify every review.
    scores = full.X @ np.array([1.0, -1.0, 0.0, -2.0, 2.0])
    assert np.array_equal(np.sign(scores), full.y)


# -- real tasks -----------------------------------------------------------------


def test_breast_cancer_task():
    task = load_breast_cancer_task()
    assert task.X.shape == (569, 30) and task.y.shape == (569,)
    assert set(task.y.tolist()) == {-1, 1}
    assert task.target_names.tolist() == ["benign", "malignant"]
    assert int((task.y == 1).sum()) == 212  # malignant cases in the Wisconsin data
    assert len(task.feature_names) == 30 and "malignant" in task.DESCR


def test_iris_pairs_and_their_separability():
    pair = load_iris_pair()
    assert pair.X.shape == (100, 4) and set(pair.y.tolist()) == {-1, 1}
    assert pair.target_names.tolist() == ["setosa", "versicolor"]
    assert (pair.y == 1).sum() == (pair.y == -1).sum() == 50
    assert is_linearly_separable(pair.X, pair.y)
    hard = load_iris_pair("versicolor", "virginica")
    assert not is_linearly_separable(hard.X, hard.y)
    flipped = load_iris_pair("versicolor", "setosa")
    np.testing.assert_array_equal(np.sort(flipped.y), np.sort(-pair.y))


def test_digits_pair():
    task = load_digits_pair(3, 8)
    assert task.X.shape[1] == 64 and task.X.shape[0] == task.y.shape[0]
    assert set(task.y.tolist()) == {-1, 1}
    assert task.target_names.tolist() == ["3", "8"]
    assert 0 <= task.X.min() and task.X.max() <= 16
    assert task.feature_names[0] == "pixel_0_0"


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: load_iris_pair("rose"), ValueError, "first must be one of"),
        (lambda: load_iris_pair("setosa", "setosa"), ValueError, "different species"),
        (lambda: load_digits_pair(3, 10), ValueError, "0 to 9"),
        (lambda: load_digits_pair(3, 3), ValueError, "different digits"),
        (lambda: load_digits_pair("3", 8), TypeError, "first must be an integer"),
        (lambda: min_lift_example(lifted=1), TypeError, "lifted"),
        (lambda: sentiment_example(conjunctions="yes"), TypeError, "conjunctions"),
    ],
)
def test_loaders_reject_bad_arguments(call, error, message):
    with pytest.raises(error, match=message):
        call()
