"""Tests of perceptron_lib.data.features: constant feature, pairwise products, the transformer."""

import itertools
import warnings
from math import factorial

import numpy as np
import pandas
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from sklearn.exceptions import ConvergenceWarning, SkipTestWarning
from sklearn.model_selection import cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.utils.estimator_checks import check_estimator

from perceptron_lib import Perceptron
from perceptron_lib.data.datasets import make_xor, sentiment_example
from perceptron_lib.data.features import (
    PairwiseProducts,
    add_constant_feature,
    n_conjunction_features,
    pairwise_products,
)
from perceptron_lib.theory.separability import is_linearly_separable


def reference_pairwise_products(X):
    """Plain loops over the pairs j < k."""
    rows = []
    for x in X:
        products = [x[j] * x[k] for j, k in itertools.combinations(range(len(x)), 2)]
        rows.append(list(x) + products)
    return np.array(rows, dtype=float)


def test_add_constant_feature_puts_ones_first_and_keeps_the_input():
    X = np.array([[2.0, -1.0], [0.5, 4.0], [3.0, 3.0]])
    before = X.copy()
    lifted = add_constant_feature(X)
    np.testing.assert_array_equal(lifted, [[1, 2, -1], [1, 0.5, 4], [1, 3, 3]])
    np.testing.assert_array_equal(X, before)
    # A weight vector (b, w) on the lifted data gives the same activations as (w, b).
    w, b = np.array([0.3, -0.7]), 0.25
    np.testing.assert_allclose(lifted @ np.r_[b, w], X @ w + b)


@settings(max_examples=50, deadline=None, derandomize=True, database=None)
@given(
    X=arrays(
        np.float64, st.tuples(st.integers(1, 6), st.integers(1, 6)), elements=st.floats(-10, 10)
    )
)
def test_pairwise_products_match_plain_loops_and_leave_the_input(X):
    before = X.copy()
    X_new, names = pairwise_products(X)
    np.testing.assert_allclose(X_new, reference_pairwise_products(X))
    np.testing.assert_array_equal(X, before)
    d = X.shape[1]
    assert X_new.shape[1] == len(names) == d + n_conjunction_features(d, 2)
    assert len(set(names)) == len(names)
    only, only_names = pairwise_products(X, include_original=False)
    np.testing.assert_array_equal(only, X_new[:, d:])
    assert only_names == names[d:]


def test_names_are_conjunctions_for_binary_and_products_otherwise():
    _, names = pairwise_products([[0, 1, 1], [1, 0, 1]], ["excellent", "terrible", "not"])
    assert names[3:] == ["excellent AND terrible", "excellent AND not", "terrible AND not"]
    _, names = pairwise_products([[0.5, 1.0], [1.0, 2.0]])
    assert names == ["x1", "x2", "x1*x2"]


def test_products_make_xor_separable():
    X, y = make_xor()
    assert not is_linearly_separable(X, y)
    X_new, names = pairwise_products(X)
    assert names[-1] == "x1 AND x2"
    assert is_linearly_separable(X_new, y)
    # The weights of the source's exercise: x1 + x2 - 2 (x1 AND x2) - 1/2.
    assert np.array_equal(np.sign(X_new @ [1.0, 1.0, -2.0] - 0.5), y)


def test_all_pairwise_conjunctions_of_the_sentiment_words_make_it_separable():
    base = sentiment_example(conjunctions=False)
    X_new, names = pairwise_products(base.X, base.feature_names)
    assert "excellent AND not" in names and "terrible AND not" in names
    assert is_linearly_separable(X_new, base.y)


@pytest.mark.parametrize("d", [0, 1, 2, 5, 30])
def test_n_conjunction_features_counts_pairs_and_triples(d):
    assert n_conjunction_features(d, 2) == d * (d - 1) // 2
    assert n_conjunction_features(d, 3) == d * (d - 1) * (d - 2) // 6
    if d >= 1:
        assert n_conjunction_features(d, d) == 1
        assert n_conjunction_features(d, 1) == factorial(d) // factorial(d - 1)


def test_n_conjunction_features_rejects_bad_arguments():
    with pytest.raises(ValueError, match="degree must be >= 1"):
        n_conjunction_features(3, 0)
    with pytest.raises(ValueError, match="n_features must be >= 0"):
        n_conjunction_features(-1, 2)
    with pytest.raises(TypeError, match="degree must be an integer"):
        n_conjunction_features(3, 2.0)


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: pairwise_products([[1.0, 2.0]], ["a"]), ValueError, "1 names but X has 2"),
        (lambda: pairwise_products([[1.0, 2.0]], "ab"), TypeError, "list of strings"),
        (lambda: pairwise_products([1.0, 2.0]), ValueError, "must be 2-d"),
        (lambda: pairwise_products([[np.nan, 1.0]]), ValueError, "NaN"),
        (lambda: pairwise_products([[1.0]], include_original=1), TypeError, "True or False"),
        (lambda: add_constant_feature(np.zeros((0, 3))), ValueError, "empty"),
    ],
)
def test_feature_maps_reject_bad_arguments(call, error, message):
    with pytest.raises(error, match=message):
        call()


# -- the transformer ----------------------------------------------------------


def test_transformer_passes_scikit_learn_estimator_checks():
    # check_array_api_input skips itself unless SCIPY_ARRAY_API is set; all others run.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SkipTestWarning)
        results = check_estimator(PairwiseProducts(), on_fail=None)
    failed = [r["check_name"] for r in results if r["status"] == "failed"]
    assert failed == []
    assert sum(r["status"] == "passed" for r in results) >= 40


def test_transformer_agrees_with_the_function_and_names_its_outputs():
    X, _ = make_xor(2, noise=0.1, random_state=0)
    transformer = PairwiseProducts().fit(X)
    expected, names = pairwise_products(X)
    np.testing.assert_array_equal(transformer.transform(X), expected)
    assert transformer.get_feature_names_out().tolist() == names == ["x1", "x2", "x1*x2"]
    assert transformer.get_feature_names_out(["a", "b"]).tolist() == ["a", "b", "a*b"]
    assert transformer.n_output_features_ == 3
    without = PairwiseProducts(include_original=False).fit(X)
    assert without.get_feature_names_out().tolist() == ["x1*x2"]


def test_transformer_uses_dataframe_column_names():
    frame = pandas.DataFrame({"excellent": [1, 0], "not": [1, 1]})
    names = PairwiseProducts().fit(frame).get_feature_names_out().tolist()
    assert names == ["excellent", "not", "excellent AND not"]


def test_transformer_in_a_pipeline_learns_xor():
    X, y = make_xor(10, noise=0.05, random_state=1)
    plain = Perceptron(max_iter=100, random_state=0)
    with pytest.warns(ConvergenceWarning):  # no line separates XOR: the plain perceptron gives up
        plain.fit(X, y)
    assert plain.score(X, y) < 1.0
    pipeline = make_pipeline(PairwiseProducts(), Perceptron(max_iter=1000, random_state=0))
    pipeline.fit(X, y)
    assert pipeline.score(X, y) == 1.0
    scores = cross_val_score(pipeline, X, y, cv=4)
    assert scores.mean() > 0.9
