"""The shortcuts of a fit keep its behaviour: labels, non-finite data, sparse matrices.

``fit`` counts integer labels instead of sorting them (``_base.classes_of``),
leaves the check for NaN and infinity in ``X`` to the online perceptrons' loops
(``_loop_checks_finite``; partial_fit's side of it: test_partial_fit_atomic.py),
and the sparse loops index ``w`` without Python's negative indexing, after a
check of the matrix's structure (``_base.check_csr_structure``). Each is checked
here against what it replaces.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from scipy import sparse
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import Perceptron as SklearnPerceptron
from sklearn.utils.multiclass import check_classification_targets

from perceptron_lib import (
    AveragedPerceptron,
    MarginPerceptron,
    MulticlassPerceptron,
    Perceptron,
    VotedPerceptron,
)
from perceptron_lib._base import check_csr_structure, classes_of

ONLINE = [Perceptron, AveragedPerceptron, VotedPerceptron, MarginPerceptron, MulticlassPerceptron]

# -- labels ------------------------------------------------------------------------------

LABELS = {
    "int8, full range": np.array([127, -128, 0, 5, -128], dtype=np.int8),
    "uint8": np.array([255, 0, 3, 3], dtype=np.uint8),
    "uint64 above 2**63": np.array([2**64 - 1, 2**63 + 5, 2**64 - 1], dtype=np.uint64),
    "int64, wide span": np.array([-(2**62), 7, 2**62, 7]),
    "int64, two classes": np.array([-1, 1, 1, -1, 1]),
    "int32, three": np.array([2, 9, 4, 9, 2, 4, 4], dtype=np.int32),
    "bool": np.array([True, False, True]),
    "float integers": np.array([1.0, 0.0, 1.0]),
    "strings": np.array(["spam", "ham", "spam"]),
    "objects": np.array(["b", "a", "c"], dtype=object),
}


@pytest.mark.parametrize("case", LABELS)
def test_classes_are_numpys_unique_values_with_their_dtype(case):
    y = LABELS[case]
    classes = classes_of(y)
    expected = np.unique(y)
    assert classes.dtype == expected.dtype
    assert np.array_equal(classes, expected)


def test_random_integer_labels_give_numpys_unique_values():
    rng = np.random.default_rng(0)
    for dtype in (np.int8, np.int16, np.int64, np.uint16, np.uint32):
        for n_classes in (2, 5, 40):
            info = np.iinfo(dtype)
            values = rng.integers(info.min, info.max, size=n_classes, endpoint=True)
            y = rng.choice(values, size=500).astype(dtype)
            assert np.array_equal(classes_of(y), np.unique(y))


def test_continuous_labels_are_rejected_as_scikit_learn_does():
    y = np.array([0.5, 1.2, 3.3])
    with pytest.raises(ValueError, match="Unknown label type: continuous"):
        check_classification_targets(y)
    with pytest.raises(ValueError, match="Unknown label type: continuous"):
        classes_of(y)


def test_many_integer_classes_warn_as_scikit_learn_does():
    # 30 examples of 25 classes: scikit-learn's warning that y may be a regression target.
    y = np.arange(30) % 25
    with pytest.warns(UserWarning, match="greater than 50% of the number of samples"):
        check_classification_targets(y)
    with pytest.warns(UserWarning, match="greater than 50% of the number of samples"):
        assert np.array_equal(classes_of(y), np.arange(25))


def test_few_integer_classes_do_not_warn():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert classes_of(np.arange(30) % 3).tolist() == [0, 1, 2]


@pytest.mark.parametrize("cls", ONLINE, ids=lambda c: c.__name__)
def test_fit_sets_the_labels_dtype_and_values(cls):
    X = np.array([[1.0, 2.0], [-1.0, 0.5], [2.0, -1.0], [0.0, 1.0]])
    y = np.array([200, 7, 200, 7], dtype=np.uint8)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        model = cls(max_iter=3, shuffle=False).fit(X, y)
    assert model.classes_.dtype == np.uint8
    assert model.classes_.tolist() == [7, 200]
    assert set(model.predict(X).tolist()) <= {7, 200}


# -- NaN and infinity in X, left to the online loops -------------------------------------


def _bad_data(value, where, to_matrix):
    """Data with ``value`` at row ``where``; two classes, and three."""
    rng = np.random.default_rng(1)
    X = rng.normal(size=(300, 4))
    y = np.where(X[:, 0] > 0, 1, 0)
    three = y + (X[:, 1] > 1)
    X[where, 2] = value
    return to_matrix(X), y, three


@pytest.mark.parametrize("to_matrix", [np.asarray, sparse.csr_matrix], ids=["dense", "csr"])
@pytest.mark.parametrize("where", [0, 150, 299])
@pytest.mark.parametrize(
    ("value", "message"),
    [
        (np.nan, "Input X contains NaN"),
        (np.inf, "Input X contains infinity"),
        (-np.inf, "Input X contains infinity"),
    ],
)
@pytest.mark.parametrize("shuffle", [False, True])
@pytest.mark.parametrize("cls", ONLINE, ids=lambda c: c.__name__)
def test_online_fit_rejects_non_finite_X_with_scikit_learns_message(
    cls, to_matrix, where, value, message, shuffle
):
    X, y, three = _bad_data(value, where, to_matrix)
    with pytest.raises(ValueError, match=message):
        cls(shuffle=shuffle, random_state=0).fit(X, y)
    with pytest.raises(ValueError, match=message):  # one-vs-rest
        cls(shuffle=shuffle, random_state=0).fit(X, three)


def test_non_finite_X_beside_an_overflow_is_reported_as_such():
    # Huge finite values overflow the activations; the NaN is named, not the overflow.
    X, y, _ = _bad_data(np.nan, 299, np.asarray)
    X[:10] *= 1e300
    with pytest.raises(ValueError, match="Input X contains NaN"):
        Perceptron(shuffle=False).fit(X, y)


@pytest.mark.parametrize("cls", ONLINE, ids=lambda c: c.__name__)
@pytest.mark.parametrize("method", ["fit", "partial_fit"])
def test_error_message_is_validate_datas(cls, method):
    X, y, _ = _bad_data(np.nan, 3, np.asarray)
    messages = []
    for check_first in (True, False):
        Checked = type(cls.__name__, (cls,), {"_loop_checks_finite": not check_first})
        with pytest.raises(ValueError) as error:
            getattr(Checked(), method)(X, y)
        messages.append(str(error.value))
    assert messages[0] == messages[1]
    assert cls.__name__ in messages[0]


def test_partial_fit_rejects_X_and_keeps_the_weights():
    X, y, _ = _bad_data(np.nan, 299, np.asarray)
    model = Perceptron(shuffle=False).partial_fit(X[:100], y[:100])
    coef = model.coef_.copy()
    with pytest.raises(ValueError, match="Input X contains NaN"):
        model.partial_fit(X, y)
    assert np.array_equal(model.coef_, coef)


# -- sparse matrices ---------------------------------------------------------------------


def _csr(data, indices, indptr, shape):
    # scipy checks the column indices only on request: build a malformed matrix as a
    # user's code can, by setting the arrays after construction.
    X = sparse.csr_matrix(shape)
    X.data, X.indices, X.indptr = (
        np.asarray(data, dtype=np.float64),
        np.asarray(indices, dtype=np.int32),
        np.asarray(indptr, dtype=np.int32),
    )
    return X


MALFORMED = {
    "column index too large": (
        _csr([1.0, 2.0], [0, 1_000_000], [0, 1, 2], (2, 3)),
        "column index 1000000 outside",
    ),
    "negative column index": (_csr([1.0, 2.0], [0, -1], [0, 1, 2], (2, 3)), "column index -1"),
    "decreasing indptr": (_csr([1.0, 2.0], [0, 1], [0, 2, 1], (2, 3)), "malformed indptr"),
    "indptr past the data": (_csr([1.0, 2.0], [0, 1], [0, 1, 9], (2, 3)), "malformed indptr"),
}


@pytest.mark.parametrize("case", MALFORMED)
def test_malformed_csr_is_rejected_before_the_loop(case):
    X, message = MALFORMED[case]
    with pytest.raises(ValueError, match=message):
        check_csr_structure(X)
    for cls in ONLINE:
        with pytest.raises(ValueError, match=message):
            cls().fit(X, [0, 1])


def _non_canonical(seed=0):
    """A CSR matrix with unsorted column indices and duplicate entries, and labels."""
    rng = np.random.default_rng(seed)
    n_samples, n_features, per_row = 200, 30, 6
    indices = rng.integers(0, n_features, size=(n_samples, per_row)).astype(np.int32)
    indices[:, 1] = indices[:, 0]  # a duplicate in every row
    data = rng.integers(1, 4, size=(n_samples, per_row)).astype(np.float64)
    indptr = np.arange(0, n_samples * per_row + 1, per_row, dtype=np.int32)
    X = sparse.csr_matrix((data.ravel(), indices.ravel(), indptr), shape=(n_samples, n_features))
    y = np.where(X @ rng.normal(size=n_features) > 0, 1, -1)
    return X, y


def test_non_canonical_csr_gives_scikit_learns_weights_and_is_not_changed():
    X, y = _non_canonical()
    assert not X.has_canonical_format
    before = (X.data.copy(), X.indices.copy(), X.indptr.copy())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        ours = Perceptron(shuffle=False, max_iter=20, fit_intercept=False).fit(X, y)
        theirs = SklearnPerceptron(shuffle=False, max_iter=20, tol=None, fit_intercept=False).fit(
            X, y
        )
    assert ours.mistakes_per_epoch_.sum() > 0
    assert np.array_equal(ours.coef_, theirs.coef_[0])
    after = (X.data, X.indices, X.indptr)
    assert all(np.array_equal(a, b) for a, b in zip(before, after, strict=True))
    assert not X.has_canonical_format


def test_int64_indices_give_the_same_weights():
    X, y = _non_canonical(1)
    X64 = X.copy()
    X64.indices, X64.indptr = X.indices.astype(np.int64), X.indptr.astype(np.int64)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        a = Perceptron(shuffle=False, max_iter=10).fit(X, y)
        b = Perceptron(shuffle=False, max_iter=10).fit(X64, y)
    assert X64.indices.dtype == np.int64
    assert np.array_equal(a.coef_, b.coef_) and a.intercept_ == b.intercept_


def test_a_float64_csr_matrix_is_trained_on_without_a_copy():
    X, y = _non_canonical(2)
    model = Perceptron()
    X_checked, _ = model._validate_training_data(X, y, finite=False, targets=False)
    for name in ("data", "indices", "indptr"):
        assert np.shares_memory(getattr(X_checked, name), getattr(X, name)), name
