"""The argument checks of :mod:`perceptron_lib.theory` (and of the data and experiments on it).

Each check returns its argument as a float array (or float) of the right
shape, or raises a ``TypeError`` / ``ValueError`` that names the argument and
says what it should be. No check modifies its argument.
"""

from __future__ import annotations

from numbers import Real

import numpy as np
from numpy.typing import ArrayLike, NDArray


def _as_float_array(values: ArrayLike, name: str) -> NDArray[np.float64]:
    """Return ``values`` as a float array (a copy if it needs converting), or raise TypeError."""
    if isinstance(values, str):
        raise TypeError(f"{name} must be numeric, got the string {values!r}.")
    try:
        array = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError) as error:
        raise TypeError(f"{name} must be numeric: {error}") from None
    return array


def _check_finite(array: NDArray, name: str) -> None:
    if not np.all(np.isfinite(array)):
        raise ValueError(f"{name} contains NaN or infinity; all values must be finite.")


def _check_X(X: ArrayLike, name: str = "X") -> NDArray[np.float64]:
    """Return ``X`` as a finite, non-empty 2-d float array of shape (n_samples, n_features)."""
    array = _as_float_array(X, name)
    if array.ndim != 2:
        hint = " For a single example use X.reshape(1, -1)." if array.ndim == 1 else ""
        raise ValueError(
            f"{name} must be 2-d, of shape (n_samples, n_features); got {array.ndim}-d "
            f"with shape {array.shape}.{hint}"
        )
    if array.shape[0] == 0:
        raise ValueError(f"{name} is empty: it has 0 samples.")
    if array.shape[1] == 0:
        raise ValueError(f"{name} has 0 features.")
    _check_finite(array, name)
    return array


def _check_labels(y: ArrayLike, n_samples: int) -> NDArray[np.float64]:
    """Return ``y`` as a 1-d float array of -1/+1 labels, one per sample."""
    array = _as_float_array(y, "y")
    if array.ndim != 1:
        raise ValueError(f"y must be 1-d, of shape (n_samples,); got shape {array.shape}.")
    if array.shape[0] != n_samples:
        raise ValueError(
            f"X and y have inconsistent lengths: X has {n_samples} samples, "
            f"y has {array.shape[0]} labels."
        )
    bad = ~np.isin(array, (-1.0, 1.0))
    if bad.any():
        raise ValueError(
            "labels must be -1 or +1; y contains "
            f"{np.unique(array[bad])[:5].tolist()}. Map them first, e.g. "
            "np.where(y == positive_class, 1, -1)."
        )
    return array


def _check_weights(w: ArrayLike, n_features: int) -> NDArray[np.float64]:
    """Return ``w`` as a finite 1-d float array of length ``n_features``."""
    array = _as_float_array(w, "w")
    if array.ndim != 1:
        raise ValueError(f"w must be 1-d, of shape (n_features,); got shape {array.shape}.")
    if array.shape[0] != n_features:
        raise ValueError(
            f"w has {array.shape[0]} weights but X has {n_features} features; they must be equal."
        )
    _check_finite(array, "w")
    return array


def _check_bias(b: object) -> float:
    """Return the bias ``b`` as a finite float."""
    if isinstance(b, bool) or not isinstance(b, Real | np.number) or isinstance(b, complex):
        raise TypeError(f"b must be a real number, got {type(b).__name__}: {b!r}.")
    value = float(b)
    if not np.isfinite(value):
        raise ValueError(f"b must be finite, got {value}.")
    return value


def _check_separator(w, b, X, y=None):
    """Validate a hyperplane ``(w, b)`` together with its data (and labels)."""
    X = _check_X(X)
    w = _check_weights(w, X.shape[1])
    b = _check_bias(b)
    if y is None:
        return w, b, X
    return w, b, X, _check_labels(y, X.shape[0])


# -- a fixed hyperplane -------------------------------------------------------
