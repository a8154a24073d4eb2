"""Separable data with a planted separator: a chosen margin, radius and intercept.

Deterministic given ``random_state``; labels ``-1`` / ``+1``, float features.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray
from sklearn.utils import check_random_state

from .checks import Labels, _check_int, _check_real, _signs

__all__ = ["SeparableData", "make_separable"]


class SeparableData(NamedTuple):
    """Labelled data with a known separator, from :func:`make_separable`."""

    X: NDArray[np.float64]
    """Examples, shape (n_samples, n_features)."""
    y: Labels
    """Labels -1/+1, shape (n_samples,)."""
    coef: NDArray[np.float64]
    """The planted separator's unit-norm weight vector."""
    intercept: float
    """The planted separator's bias."""
    margin: float
    """Geometric margin of ``(coef, intercept)`` on ``(X, y)``."""
    radius: float
    """Radius of the data, ``max ||x_i||``."""


def make_separable(
    n_samples: int = 100,
    *,
    margin: float = 0.1,
    radius: float = 1.0,
    n_features: int = 2,
    intercept: float = 0.0,
    random_state=None,
) -> SeparableData:
    """Random linearly separable data with a chosen margin and radius.

    A unit vector ``coef`` is drawn at random. Every example lies in the ball
    ``||x|| <= radius`` and at distance at least ``margin`` from the plane
    ``coef . x + intercept = 0``, on the side of its label. The construction is
    direct, not by rejection, so large margins work in any dimension: each
    example's coordinate along ``coef`` is drawn uniformly from the allowed
    interval and its orthogonal part uniformly from the ball that remains.

    Both numbers are attained, not just bounded: one example sits exactly at
    distance ``margin`` from the plane and one at norm ``radius`` (up to
    floating-point rounding, about 1e-15 relative). So the returned ``margin``
    and ``radius`` equal the requested ones, and
    :func:`~perceptron_lib.theory.geometry.margin` and
    :func:`~perceptron_lib.theory.geometry.radius` give them back. The data set's
    *maximum* margin (over all separators) can be larger.

    Parameters
    ----------
    n_samples : int, default=100
        Number of examples, >= 2. Both classes always occur.
    margin : float, default=0.1
        Margin of the planted separator, ``0 < margin < radius``.
    radius : float, default=1.0
        Radius of the data, > 0.
    n_features : int, default=2
        Dimension, >= 1.
    intercept : float, default=0.0
        Bias of the planted separator; 0 puts the boundary through the
        origin, so that the perceptron without a bias can also learn it.
        Needs ``|intercept| + margin < radius``.
    random_state : int, RandomState instance or None, default=None
        Seed for reproducible data.

    Returns
    -------
    SeparableData
        Named tuple ``(X, y, coef, intercept, margin, radius)``.

    Examples
    --------
    >>> from perceptron_lib.data.separable import make_separable
    >>> from perceptron_lib.theory.geometry import margin, radius
    >>> data = make_separable(50, margin=0.2, radius=2.0, random_state=0)
    >>> data.X.shape, sorted(set(data.y.tolist()))
    ((50, 2), [-1, 1])
    >>> round(margin(data.coef, data.intercept, data.X, data.y), 9), round(radius(data.X), 9)
    (0.2, 2.0)
    """
    n_samples = _check_int(n_samples, "n_samples", 2)
    n_features = _check_int(n_features, "n_features", 1)
    margin = _check_real(margin, "margin")
    radius = _check_real(radius, "radius")
    intercept = _check_real(intercept, "intercept")
    if radius <= 0:
        raise ValueError(f"radius must be > 0, got {radius}.")
    if margin <= 0:
        raise ValueError(f"margin must be > 0, got {margin}.")
    if margin >= radius:
        raise ValueError(
            f"margin must be smaller than radius (got margin={margin}, radius={radius}): "
            "no example in the ball ||x|| <= radius is that far from a plane through it."
        )
    if abs(intercept) + margin >= radius:
        raise ValueError(
            f"|intercept| + margin must be < radius (got {abs(intercept)} + {margin} >= "
            f"{radius}): otherwise one side of the plane has no room for examples."
        )
    rng = check_random_state(random_state)
    coef = rng.standard_normal(n_features)
    coef /= np.linalg.norm(coef)

    y = _signs(rng.random_sample(n_samples) < 0.5)
    y[:2] = (1, -1)  # both classes occur
    # Along coef, a positive example needs t + intercept >= margin and |t| <= radius.
    low = np.where(y > 0, margin - intercept, -radius)
    high = np.where(y > 0, radius, -margin - intercept)
    along = low + (high - low) * rng.random_sample(n_samples)
    along[0] = margin - intercept  # example 0 lies exactly on the margin ...
    room = np.sqrt(np.maximum(radius**2 - along**2, 0.0))
    on_sphere = np.zeros(n_samples, dtype=np.bool_)
    if n_features > 1:
        on_sphere[0] = True  # ... and on the sphere
    else:
        along[1] = -radius  # in 1-d the sphere is reached by example 1 instead
    orthogonal = _uniform_in_balls(rng, room, coef, on_sphere)
    X = along[:, None] * coef + orthogonal

    order = rng.permutation(n_samples)  # so the special examples are not always first
    X, y = X[order], y[order]
    distances = y * (X @ coef + intercept)
    return SeparableData(
        X=X,
        y=y,
        coef=coef,
        intercept=intercept,
        margin=float(distances.min()),
        radius=float(np.linalg.norm(X, axis=1).max()),
    )


def _uniform_in_balls(rng, radii: NDArray, normal: NDArray, on_sphere: NDArray) -> NDArray:
    """One point uniform in each ball of the given radius, orthogonal to the unit ``normal``.

    Where ``on_sphere`` is True the point is on the ball's surface instead.
    """
    n_samples, dimension = radii.shape[0], normal.shape[0]
    if dimension == 1:
        return np.zeros((n_samples, 1))
    directions = rng.standard_normal((n_samples, dimension))
    directions -= np.outer(directions @ normal, normal)  # project onto the plane
    directions /= np.linalg.norm(directions, axis=1, keepdims=True)
    # In k dimensions the volume within distance r grows like r^k, hence U^(1/k).
    lengths = radii * rng.random_sample(n_samples) ** (1.0 / (dimension - 1))
    lengths[on_sphere] = radii[on_sphere]
    return directions * lengths[:, None]
