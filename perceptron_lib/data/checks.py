"""The argument checks and the label convention the data sets share (labels -1 / +1)."""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
from numpy.typing import NDArray

Labels = NDArray[np.int64]


def _check_int(value: object, name: str, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, Integral):
        raise TypeError(f"{name} must be an integer, got {type(value).__name__}: {value!r}.")
    if value < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {value}.")
    return int(value)


def _check_real(value: object, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, Real):
        raise TypeError(f"{name} must be a real number, got {type(value).__name__}: {value!r}.")
    if not np.isfinite(value):
        raise ValueError(f"{name} must be finite, got {value}.")
    return float(value)


def _signs(is_positive: NDArray[np.bool_]) -> Labels:
    return np.where(is_positive, 1, -1).astype(np.int64)
