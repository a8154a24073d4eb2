"""Feature maps: the constant feature and products (conjunctions) of pairs of features.

A linear classifier can only draw a hyperplane, but in *which space* is up to
us. Adding a constant feature folds the bias into the weights (the canonical
representation); adding products of features lets a hyperplane in the new
space draw curved boundaries in the old one, and for 0/1 features a product is
a conjunction ("x1 AND x2"), which is what XOR needs. The price is size: all
pairs of ``D`` features are ``D (D - 1) / 2 = O(D^2)`` new features, all
triples ``O(D^3)``.
"""

from __future__ import annotations

from math import comb
from numbers import Integral

import numpy as np
from numpy.typing import ArrayLike, NDArray
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils.validation import _check_feature_names_in, check_is_fitted, validate_data

from ..theory.checks import _check_X

__all__ = [
    "PairwiseProducts",
    "add_constant_feature",
    "n_conjunction_features",
    "pairwise_products",
]


def add_constant_feature(X: ArrayLike) -> NDArray[np.float64]:
    """Prepend the constant feature ``x0 = 1``: the canonical representation.

    With it, a weight vector ``(w0, w1, ..., wD)`` on the new examples does the
    work of ``(w, b)`` on the old ones, with ``w0`` playing the bias, and the
    decision boundary passes through the origin of the new space.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        Examples; not modified.

    Returns
    -------
    ndarray of shape (n_samples, n_features + 1)
        A new array whose first column is all ones.

    Examples
    --------
    >>> from perceptron_lib.data.features import add_constant_feature
    >>> add_constant_feature([[2.0, 3.0], [4.0, 5.0]]).tolist()
    [[1.0, 2.0, 3.0], [1.0, 4.0, 5.0]]
    """
    X = _check_X(X)
    return np.hstack([np.ones((X.shape[0], 1)), X])


def _is_binary(X: NDArray) -> bool:
    return bool(np.isin(X, (0.0, 1.0)).all())


def _default_names(n_features: int) -> list[str]:
    # x1, x2, ... as in the course's formulas (not Python's 0-based x0).
    return [f"x{j + 1}" for j in range(n_features)]


def _pair_names(names: list[str], binary: bool, include_original: bool) -> list[str]:
    joiner = " AND " if binary else "*"
    products = [f"{a}{joiner}{b}" for i, a in enumerate(names) for b in names[i + 1 :]]
    return (list(names) if include_original else []) + products


def _pair_products(X: NDArray, include_original: bool) -> NDArray[np.float64]:
    first, second = np.triu_indices(X.shape[1], k=1)  # every pair j < k, in order
    products = X[:, first] * X[:, second]
    return np.hstack([X, products]) if include_original else products


def pairwise_products(
    X: ArrayLike,
    feature_names: list[str] | None = None,
    *,
    include_original: bool = True,
) -> tuple[NDArray[np.float64], list[str]]:
    """Add the product ``x_j * x_k`` of every pair of distinct features ``j < k``.

    For 0/1 features the product is the conjunction ``x_j AND x_k`` and is
    named that way; otherwise it is named ``x_j*x_k``. Squares are not added
    (for 0/1 features ``x AND x = x``). ``D`` features give
    ``n_conjunction_features(D, 2) = D (D - 1) / 2`` products.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        Examples; not modified.
    feature_names : list of str, optional
        Names of the input features; default ``x1, x2, ...``.
    include_original : bool, default=True
        Keep the original features in front of the products.

    Returns
    -------
    X_new : ndarray of shape (n_samples, n_outputs)
        The original features (if kept), then the products in the order
        (1, 2), (1, 3), ..., (2, 3), ...
    names : list of str
        A readable name for each column of ``X_new``.

    See Also
    --------
    PairwiseProducts : The same map as a scikit-learn transformer.

    Examples
    --------
    >>> from perceptron_lib.data.features import pairwise_products
    >>> X_new, names = pairwise_products([[0, 1, 1], [1, 1, 0]])
    >>> names
    ['x1', 'x2', 'x3', 'x1 AND x2', 'x1 AND x3', 'x2 AND x3']
    >>> X_new.tolist()
    [[0.0, 1.0, 1.0, 0.0, 0.0, 1.0], [1.0, 1.0, 0.0, 1.0, 0.0, 0.0]]
    >>> pairwise_products([[2.0, 3.0]], ["height", "width"], include_original=False)
    (array([[6.]]), ['height*width'])
    """
    X = _check_X(X)
    if not isinstance(include_original, bool | np.bool_):
        raise TypeError(f"include_original must be True or False, got {include_original!r}.")
    if feature_names is None:
        names = _default_names(X.shape[1])
    else:
        if isinstance(feature_names, str):
            raise TypeError("feature_names must be a list of strings, not one string.")
        names = [str(name) for name in feature_names]
        if len(names) != X.shape[1]:
            raise ValueError(
                f"feature_names has {len(names)} names but X has {X.shape[1]} features."
            )
    return _pair_products(X, include_original), _pair_names(names, _is_binary(X), include_original)


class PairwiseProducts(TransformerMixin, BaseEstimator):
    """Transformer that adds the product of every pair of distinct features.

    The scikit-learn form of :func:`pairwise_products`, for pipelines such as
    ``make_pipeline(PairwiseProducts(), Perceptron())``. Names come from the
    data seen in ``fit``: conjunctions ``"a AND b"`` if it was all 0/1,
    products ``"a*b"`` otherwise.

    Parameters
    ----------
    include_original : bool, default=True
        Keep the original features in front of the products.

    Attributes
    ----------
    n_features_in_ : int
        Number of features seen during ``fit``.
    feature_names_in_ : ndarray of shape (n_features_in_,)
        Names of the features seen during ``fit``, when ``X`` had string
        column names (a pandas DataFrame).
    binary_inputs_ : bool
        Whether every value seen in ``fit`` was 0 or 1.
    n_output_features_ : int
        Number of columns ``transform`` returns.

    See Also
    --------
    sklearn.preprocessing.PolynomialFeatures : All monomials up to a degree,
        with ``interaction_only=True`` the same products plus a constant.

    Examples
    --------
    >>> from perceptron_lib.data.datasets import make_xor
    >>> from perceptron_lib.data.features import PairwiseProducts
    >>> X, y = make_xor()
    >>> products = PairwiseProducts().fit(X)
    >>> products.get_feature_names_out().tolist()
    ['x1', 'x2', 'x1 AND x2']
    >>> products.transform(X).tolist()
    [[0.0, 0.0, 0.0], [0.0, 1.0, 0.0], [1.0, 0.0, 0.0], [1.0, 1.0, 1.0]]
    """

    _parameter_constraints: dict = {"include_original": ["boolean"]}

    def __init__(self, *, include_original: bool = True):
        self.include_original = include_original

    def fit(self, X: ArrayLike, y: object = None):
        """Record the number of input features and whether they are 0/1.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training examples.
        y : None
            Ignored; accepted for pipelines.

        Returns
        -------
        self
            The fitted transformer.
        """
        self._validate_params()
        X = validate_data(self, X, dtype=np.float64)
        self.binary_inputs_ = _is_binary(X)
        d = self.n_features_in_
        self.n_output_features_ = n_conjunction_features(d, 2) + (
            d if self.include_original else 0
        )
        return self

    def transform(self, X: ArrayLike) -> NDArray[np.float64]:
        """Return the original features (if kept) followed by the pairwise products.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features_in_)
            Examples; not modified.

        Returns
        -------
        ndarray of shape (n_samples, n_output_features_)
            The transformed examples.
        """
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        return _pair_products(X, self.include_original)

    def get_feature_names_out(self, input_features: ArrayLike | None = None) -> NDArray:
        """Readable names of the output columns.

        Parameters
        ----------
        input_features : array-like of str, optional
            Input names; default ``feature_names_in_`` if fitted on a
            DataFrame, else ``x1, x2, ...``.

        Returns
        -------
        ndarray of str objects, shape (n_output_features_,)
            The names.
        """
        check_is_fitted(self)
        if input_features is None and not hasattr(self, "feature_names_in_"):
            names = _default_names(self.n_features_in_)
        else:
            names = list(_check_feature_names_in(self, input_features))
        out = _pair_names(names, self.binary_inputs_, self.include_original)
        return np.asarray(out, dtype=object)


def n_conjunction_features(n_features: int, degree: int) -> int:
    """Number of conjunctions of ``degree`` distinct features out of ``n_features``.

    This is the binomial coefficient ``C(D, k)``: ``D (D - 1) / 2`` pairs,
    which grows like ``O(D^2)``, and ``D (D - 1) (D - 2) / 6`` triples, which
    grows like ``O(D^3)``. For ``D = 10000`` word features that is about 5e7
    pairs and 1.7e11 triples: why explicit feature maps get expensive.

    Parameters
    ----------
    n_features : int
        Number of base features ``D``, >= 0.
    degree : int
        Number of features in each conjunction ``k``, >= 1.

    Returns
    -------
    int
        ``C(n_features, degree)`` (0 if ``degree > n_features``).

    Examples
    --------
    >>> from perceptron_lib.data.features import n_conjunction_features
    >>> n_conjunction_features(3, 2), n_conjunction_features(10, 2), n_conjunction_features(10, 3)
    (3, 45, 120)
    """
    for name, value, minimum in (("n_features", n_features, 0), ("degree", degree, 1)):
        if isinstance(value, bool) or not isinstance(value, Integral):
            raise TypeError(f"{name} must be an integer, got {type(value).__name__}: {value!r}.")
        if value < minimum:
            raise ValueError(f"{name} must be >= {minimum}, got {value}.")
    return comb(int(n_features), int(degree))
