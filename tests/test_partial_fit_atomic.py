"""partial_fit either completes its epoch or leaves the model exactly as it was.

``partial_fit`` does not scan ``X`` for NaN and infinity before its epoch: the
epoch runs on a copy of the weights, its loop stops at the first activation that
is not finite (which a NaN or an infinity in ``X`` always makes), and only a
finished epoch is committed. Here every online estimator, binary and one-vs-rest,
dense and sparse, first call and later calls, is given bad data wherever it can
hide, and must raise scikit-learn's message and keep every attribute, the order
generators included, bit for bit (compared as pickles).
"""

from __future__ import annotations

import pickle
import warnings

import numpy as np
import pytest
from scipy import sparse
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.validation import validate_data

from perceptron_lib import (
    AveragedPerceptron,
    MarginPerceptron,
    MulticlassPerceptron,
    Perceptron,
    VotedPerceptron,
)

ONLINE = [Perceptron, AveragedPerceptron, VotedPerceptron, MarginPerceptron, MulticlassPerceptron]
BAD = {"nan": np.nan, "inf": np.inf, "-inf": -np.inf}
MATRIX = {"dense": np.asarray, "csr": sparse.csr_matrix}


def data(n_classes: int, n_samples: int = 300, n_features: int = 5, seed: int = 0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n_samples, n_features))
    y = (X[:, 0] > 0).astype(int) + (n_classes == 3) * (X[:, 1] > 0.5)
    return X, y


def state(model) -> bytes:
    """Every attribute of ``model`` (binary models and order generators included)."""
    return pickle.dumps(model)


def expected_message(cls, X) -> str:
    """The message of scikit-learn's own check of ``X`` for ``cls`` (as before this change)."""
    with pytest.raises(ValueError) as error:
        validate_data(cls(), X, np.zeros(X.shape[0]), accept_sparse="csr", dtype=np.float64)
    return str(error.value)


def with_bad_value(X, value, row: int, column: int, to_matrix):
    X = X.copy()
    X[row, column] = value
    return to_matrix(X)


def quietly(method, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return method(*args, **kwargs)


@pytest.mark.parametrize("cls", ONLINE, ids=lambda c: c.__name__)
@pytest.mark.parametrize("n_classes", [2, 3])
@pytest.mark.parametrize("to_matrix", MATRIX.values(), ids=MATRIX.keys())
@pytest.mark.parametrize("bad", BAD)
@pytest.mark.parametrize("row", [0, 137, 299])
def test_bad_data_raises_and_leaves_the_model_as_it_was(cls, n_classes, to_matrix, bad, row):
    X, y = data(n_classes)
    X_bad = with_bad_value(X, BAD[bad], row, 3, to_matrix)
    message = expected_message(cls, X_bad)
    # First call: the model stays unfitted.
    model = cls(random_state=0)
    before = state(model)
    with pytest.raises(ValueError) as error:
        model.partial_fit(X_bad, y, classes=np.unique(y))
    assert str(error.value) == message
    assert state(model) == before
    assert not hasattr(model, "classes_") and not hasattr(model, "n_features_in_")
    # Later call, after two good epochs.
    for _ in range(2):
        model.partial_fit(to_matrix(X), y, classes=np.unique(y))
    before = state(model)
    with pytest.raises(ValueError) as error:
        model.partial_fit(X_bad, y)
    assert str(error.value) == message
    assert state(model) == before


@pytest.mark.parametrize("cls", ONLINE, ids=lambda c: c.__name__)
@pytest.mark.parametrize("n_classes", [2, 3])
def test_a_failed_call_changes_nothing_that_follows(cls, n_classes):
    # With shuffling: the next call draws the order the failed one drew.
    X, y = data(n_classes)
    X_bad = with_bad_value(X, np.nan, 200, 1, np.asarray)
    kept, failed = cls(random_state=3), cls(random_state=3)
    for model in (kept, failed):
        model.partial_fit(X, y)
    with pytest.raises(ValueError, match="Input X contains NaN"):
        failed.partial_fit(X_bad, y)
    for model in (kept, failed):
        model.partial_fit(X[::-1], y[::-1])
    assert state(kept) == state(failed)


@pytest.mark.parametrize("cls", ONLINE, ids=lambda c: c.__name__)
def test_global_generator_is_put_back_when_random_state_is_none(cls):
    X, y = data(2)
    X_bad = with_bad_value(X, np.nan, 299, 0, np.asarray)
    model = cls().partial_fit(X, y)  # random_state=None: numpy's global generator
    assert model._rng is np.random.mtrand._rand  # the shared generator, not a copy
    before = pickle.dumps(model._rng)
    with pytest.raises(ValueError, match="Input X contains NaN"):
        model.partial_fit(X_bad, y)
    assert pickle.dumps(model._rng) == before


# -- where a NaN could hide -------------------------------------------------------------


@pytest.mark.parametrize("cls", ONLINE, ids=lambda c: c.__name__)
@pytest.mark.parametrize("bad", BAD)
def test_bad_value_in_a_feature_whose_weight_is_zero(cls, bad):
    # Column 2 is 0 everywhere else: its weight is exactly 0 when the bad row comes,
    # and NaN * 0 and inf * 0 are NaN, not 0.
    X, y = data(2)
    X[:, 2] = 0.0
    model = cls(shuffle=False).partial_fit(X, y)
    assert np.all(np.ravel(getattr(model, "last_coef_", model.coef_))[2] == 0.0)
    before = state(model)
    with pytest.raises(ValueError, match="Input X contains"):
        model.partial_fit(with_bad_value(X, BAD[bad], 150, 2, np.asarray), y)
    assert state(model) == before


@pytest.mark.parametrize("cls", ONLINE, ids=lambda c: c.__name__)
def test_bad_value_in_a_row_that_is_no_mistake(cls):
    # A converged model updates on no example: every row is read, none is an update.
    X, y = data(2)
    model = quietly(cls(shuffle=False, max_iter=200).fit, X[:, :1], y)
    before = state(model)
    X_bad = X[:, :1].copy()
    X_bad[10, 0] = np.nan
    with pytest.raises(ValueError, match="Input X contains NaN"):
        model.partial_fit(X_bad, y)
    assert state(model) == before


@pytest.mark.parametrize("cls", ONLINE, ids=lambda c: c.__name__)
@pytest.mark.parametrize("bad", BAD)
def test_sparse_stored_bad_value_and_duplicates(cls, bad):
    X, y = data(3)
    X[np.abs(X) < 0.8] = 0.0
    csr = sparse.csr_matrix(X)
    # A duplicate entry (summed by scipy, read one by one by the loops) holding the value.
    row = 40
    start = csr.indptr[row]
    data_, indices = csr.data.copy(), csr.indices.copy()
    data_ = np.insert(data_, start, BAD[bad])
    indices = np.insert(indices, start, indices[start])
    indptr = csr.indptr.copy()
    indptr[row + 1 :] += 1
    duplicated = sparse.csr_matrix((data_, indices, indptr), shape=csr.shape)
    model = cls(random_state=0).partial_fit(csr, y)
    before = state(model)
    with pytest.raises(ValueError, match="Input X contains"):
        model.partial_fit(duplicated, y)
    assert state(model) == before


def test_bad_value_past_the_stored_entries_of_a_sparse_matrix():
    # X.data longer than indptr[-1]: no row reads the tail, scikit-learn's check does.
    X, y = data(2)
    csr = sparse.csr_matrix(X)
    csr.data = np.append(csr.data, np.nan)
    csr.indices = np.append(csr.indices, 0).astype(csr.indices.dtype)
    model = Perceptron().partial_fit(X, y)
    before = state(model)
    with pytest.raises(ValueError) as error:
        model.partial_fit(csr, y)
    assert str(error.value) == expected_message(Perceptron, csr)
    assert state(model) == before


@pytest.mark.parametrize("cls", [Perceptron, AveragedPerceptron], ids=lambda c: c.__name__)
@pytest.mark.parametrize("row", [0, 1234, 2999])
def test_bad_value_in_a_speculative_block(cls, row):
    # 3,000 x 100 is large enough for the speculative epochs; a converged model scores
    # the rows in blocks, the bad one among them.
    rng = np.random.default_rng(5)
    w = rng.normal(size=100) / 10.0
    X = rng.normal(size=(6000, 100))
    X = X[np.abs(X @ w) > 0.5][:3000]  # a margin around the hyperplane: it converges
    y = np.where(X @ w > 0, 1, 0)
    model = quietly(cls(shuffle=False, max_iter=300).fit, X, y)
    assert model.converged_
    before = state(model)
    with pytest.raises(ValueError, match="Input X contains NaN"):
        model.partial_fit(with_bad_value(X, np.nan, row, 99, np.asarray), y)
    assert state(model) == before


def test_margin_perceptron_with_a_wide_margin():
    # Every example updates (tau far above any activation): the NaN row is an update.
    X, y = data(2)
    model = MarginPerceptron(tau=1e6, shuffle=False).partial_fit(X, y)
    before = state(model)
    with pytest.raises(ValueError, match="Input X contains infinity"):
        model.partial_fit(with_bad_value(X, np.inf, 5, 4, np.asarray), y)
    assert state(model) == before


@pytest.mark.parametrize("cls", ONLINE, ids=lambda c: c.__name__)
@pytest.mark.parametrize("n_classes", [2, 3])
def test_overflow_leaves_the_model_as_it_was(cls, n_classes):
    X, y = data(n_classes)
    model = cls(random_state=0).partial_fit(X, y)
    before = state(model)
    with pytest.raises(ValueError, match="overflow"):
        model.partial_fit(X * 1e200, y)
    assert state(model) == before


@pytest.mark.parametrize("cls", ONLINE, ids=lambda c: c.__name__)
def test_unknown_label_leaves_the_model_as_it_was(cls):
    X, y = data(3)
    model = cls(random_state=0).partial_fit(X, y)
    before = state(model)
    with pytest.raises(ValueError, match="not in classes_"):
        model.partial_fit(X, np.where(y == 2, 9, y))
    assert state(model) == before


@pytest.mark.parametrize("cls", ONLINE, ids=lambda c: c.__name__)
@pytest.mark.parametrize("n_classes", [2, 3])
@pytest.mark.parametrize("to_matrix", MATRIX.values(), ids=MATRIX.keys())
def test_good_calls_still_equal_fit_epoch_by_epoch(cls, n_classes, to_matrix):
    X, y = data(n_classes)
    stepped = cls(shuffle=False)
    for _ in range(3):
        stepped.partial_fit(to_matrix(X), y)
    fitted = quietly(cls(shuffle=False, max_iter=3).fit, to_matrix(X), y)
    assert np.array_equal(stepped.coef_, fitted.coef_)
    assert np.array_equal(stepped.intercept_, fitted.intercept_)
    assert np.array_equal(stepped.mistakes_per_epoch_, fitted.mistakes_per_epoch_)
