"""Kesler's construction: a problem of many classes as one binary problem.

A linear classifier of ``n_classes`` classes on lifted examples ``z = (1, x)``
(the constant feature first, so the bias is a weight) has one weight row
``W[k]`` per class and predicts the class of the largest ``W[k] . z``. Stack the
rows into one long vector ``v = (W[0], W[1], ...)`` of length
``n_classes * D'`` (``D'`` the length of ``z``). For an example ``z`` of class
``c`` and any other class ``k``, the *Kesler vector* ``phi(z, c, k)`` has ``+z``
in block ``c``, ``-z`` in block ``k`` and zeros elsewhere, so that

    ``v . phi(z, c, k) = W[c] . z - W[k] . z``.

Class ``c`` scores strictly above every other class exactly when ``v`` puts all
of the example's ``n_classes - 1`` Kesler vectors strictly on its positive side:
the multiclass problem is the binary problem "every Kesler vector is positive",
with no bias. This is known as Kesler's construction.

The multiclass perceptron is the binary perceptron on these vectors (no bias,
from zero, the same learning rate) when, for each example it visits, it is
shown only the Kesler vector of the *rival* (the highest-scoring other class,
the first on a tie), which is the example's Kesler vector of smallest
activation: in exact arithmetic both make the same mistakes and reach the same
weights, ``v`` being ``W`` flattened. Showing each example's Kesler vectors one
after another instead is another algorithm.

In floating point the equivalence holds when every score is computed exactly,
as with integer features, a learning rate that is a power of two and weights of
moderate size (tested in ``tests/test_multiclass.py``). Otherwise the two runs
can part at a near-tie: the multiclass loop rounds ``W[c] . z`` and
``W[r] . z`` separately and compares them, the binary perceptron rounds their
difference as one sum, so two scores the first finds unequal can give the
second an activation of exactly ``0.0``, a mistake (also tested).

The convergence theorem carries over: if some ``W*`` has a multiclass margin
``gamma > 0`` (below) and every ``||z_i|| <= R_z``, the multiclass perceptron
makes at most ``(R / gamma)^2`` mistakes, with ``R = sqrt(2) R_z`` the radius of
the Kesler vectors. The factor ``sqrt(2)`` is needed: on ``x = -1, 1, 1`` of
classes 0, 1, 1 with ``W* = [[0, -3], [1, 3]]`` the perceptron makes 2 mistakes,
above ``(R_z / gamma)^2 = 1.52``, within ``(R / gamma)^2 = 3.04`` (tested).

NumPy only; nothing here trains a model, and no function modifies its arguments.
"""

from __future__ import annotations

from numbers import Integral

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .checks import _as_float_array, _check_X

__all__ = [
    "kesler_flatten",
    "kesler_lift",
    "kesler_radius",
    "multiclass_margin",
    "multiclass_mistake_bound",
]


def _check_n_classes(n_classes: object) -> int:
    if isinstance(n_classes, bool) or not isinstance(n_classes, Integral):
        raise TypeError(
            f"n_classes must be an int, got {type(n_classes).__name__}: {n_classes!r}."
        )
    if n_classes < 2:
        raise ValueError(f"n_classes must be at least 2, got {n_classes}.")
    return int(n_classes)


def _check_classes(y: ArrayLike, n_samples: int, n_classes: int) -> NDArray[np.intp]:
    """Return ``y`` as a 1-d array of class indices in ``[0, n_classes)``, one per sample."""
    array = np.asarray(y)
    if array.dtype.kind not in "iu":
        if (
            array.dtype.kind == "f"
            and np.all(np.isfinite(array))
            and np.all(array == np.round(array))
        ):
            array = array.astype(np.intp)
        else:
            raise TypeError(
                "y must hold class indices (integers 0 to n_classes - 1), got dtype "
                f"{array.dtype}."
            )
    if array.ndim != 1 or array.shape[0] != n_samples:
        raise ValueError(
            f"y must be 1-d with one class index per example ({n_samples}); got shape "
            f"{array.shape}."
        )
    if array.shape[0] and (array.min() < 0 or array.max() >= n_classes):
        raise ValueError(
            f"y must hold class indices in [0, {n_classes}); got values from {array.min()} "
            f"to {array.max()}."
        )
    return array.astype(np.intp)


def _check_W(W: ArrayLike, n_features: int | None = None) -> NDArray[np.float64]:
    array = _as_float_array(W, "W")
    if array.ndim != 2 or array.shape[0] < 2:
        raise ValueError(
            f"W must be 2-d, one row per class (at least 2), of shape (n_classes, D'); "
            f"got shape {array.shape}."
        )
    if n_features is not None and array.shape[1] != n_features:
        raise ValueError(
            f"W has rows of length {array.shape[1]} but the examples have {n_features} "
            "entries; they must be equal."
        )
    if not np.all(np.isfinite(array)):
        raise ValueError("W contains NaN or infinity; all values must be finite.")
    return array


def kesler_lift(z: ArrayLike, y: ArrayLike, n_classes: int) -> NDArray[np.float64]:
    """The Kesler vectors of examples ``z`` of classes ``y``: ``n_classes - 1`` each.

    Parameters
    ----------
    z : array-like of shape (D',) or (n_samples, D')
        One example or several, already lifted (the constant feature in them if
        the classifier has biases).
    y : int or array-like of shape (n_samples,)
        The class index (``0`` to ``n_classes - 1``) of each example.
    n_classes : int
        Number of classes, >= 2.

    Returns
    -------
    ndarray of shape (n_classes - 1, n_classes * D') or (n_samples, n_classes - 1, n_classes * D')
        Row ``r`` of an example of class ``c`` is its Kesler vector against the
        r-th other class in increasing order (class ``r`` if ``r < c``, else
        ``r + 1``): ``+z`` in block ``c``, ``-z`` in that class's block, zeros
        elsewhere.

    Examples
    --------
    >>> kesler_lift([1.0, 2.0], 1, 3).tolist()
    [[-1.0, -2.0, 1.0, 2.0, 0.0, 0.0], [0.0, 0.0, 1.0, 2.0, -1.0, -2.0]]

    The result is dense, ``n_samples * (n_classes - 1) * n_classes * D'``
    numbers: a way to look at the construction on small problems, not a way to
    train (the multiclass perceptron never builds these vectors).
    """
    n_classes = _check_n_classes(n_classes)
    if np.ndim(z) not in (1, 2):
        raise ValueError(
            f"z must be one example (1-D) or several (2-D), got {np.ndim(z)} dimension(s)."
        )
    one = np.ndim(z) == 1
    Z = _check_X(np.atleast_2d(_as_float_array(z, "z")), "z")
    labels = _check_classes(np.atleast_1d(y), Z.shape[0], n_classes)
    n_samples, width = Z.shape
    lifted = np.zeros((n_samples, n_classes - 1, n_classes, width))
    rows = np.arange(n_classes - 1)
    for i, c in enumerate(labels):
        others = rows + (rows >= c)  # every class but c, in increasing order
        lifted[i, rows, c] = Z[i]
        lifted[i, rows, others] = -Z[i]
    lifted = lifted.reshape(n_samples, n_classes - 1, n_classes * width)
    return lifted[0] if one else lifted


def kesler_flatten(W: ArrayLike) -> NDArray[np.float64]:
    """The weights ``W`` (one row per class) as one vector: the rows end to end.

    ``kesler_flatten(W) @ kesler_lift(z, c, n)[r]`` is ``W[c] . z - W[k] . z``
    for the r-th other class ``k``: exactly when the products and sums are exact
    (integers, say), up to rounding otherwise, since the two are summed in
    different orders.

    Examples
    --------
    >>> kesler_flatten([[1.0, 2.0], [3.0, 4.0]]).tolist()
    [1.0, 2.0, 3.0, 4.0]
    """
    return _check_W(W).reshape(-1).copy()


def kesler_radius(z: ArrayLike) -> float:
    """The radius of the Kesler vectors of examples ``z``: ``sqrt(2) * max_i ||z_i||``.

    Every Kesler vector of ``z_i`` holds ``z_i`` twice (once negated), so its
    length is ``sqrt(2) ||z_i||`` whatever the classes.

    Examples
    --------
    >>> kesler_radius([[3.0, 4.0], [1.0, 0.0]])  # sqrt(2) * 5
    7.0710678118654755
    """
    Z = _check_X(z, "z")
    Z_scaled, scale = _scaled(Z)
    return float(np.sqrt(2.0) * np.linalg.norm(Z_scaled, axis=1).max() / scale)


def _scaled(A: NDArray[np.float64]) -> tuple[NDArray[np.float64], float]:
    """``A`` times a power of two that brings its largest entry into [0.5, 1), and the factor.

    Margins and radii are computed on scaled arrays so that squares neither
    overflow nor underflow for huge or tiny data (a margin does not depend on the
    scale of ``W``); a power of two changes no digit of the entries.
    """
    largest = float(np.max(np.abs(A))) if A.size else 0.0
    if largest == 0.0:
        return A, 1.0
    scale = float(np.ldexp(1.0, -int(np.frexp(largest)[1])))
    return A * scale, scale


def _scaled_margin(W: NDArray, Z: NDArray, labels: NDArray) -> float:
    """The multiclass margin of ``W`` on ``Z`` scaled by :func:`_scaled` (in its units)."""
    W, _ = _scaled(W)
    Z, _ = _scaled(Z)
    scores = Z @ W.T
    rows = np.arange(Z.shape[0])
    true = scores[rows, labels]
    others = scores.copy()
    others[rows, labels] = -np.inf
    gaps = true - others.max(axis=1)
    norm = float(np.linalg.norm(W))
    if norm == 0.0 or np.any(gaps <= 0.0):
        return -np.inf
    return float(gaps.min() / norm)


def multiclass_margin(W: ArrayLike, z: ArrayLike, y: ArrayLike) -> float:
    """The multiclass margin of the weights ``W`` on the examples ``z`` of classes ``y``.

    ``min_i min_{k != y_i} (W[y_i] . z_i - W[k] . z_i) / ||W||``, with ``||W||``
    the length of all the weights together (Frobenius norm): the margin of
    ``kesler_flatten(W)`` on the Kesler vectors, as a hyperplane through the
    origin. ``-inf`` if some example's class does not score strictly above every
    other (or ``W`` is zero). The scores are computed as matrix products (BLAS),
    not in the training loop's order, so at a near-tie "strictly above" may be
    decided differently from the loop's.

    Examples
    --------
    Two classes on a line, ``z = (1, x)``, scores ``-x`` and ``x``; the smallest
    gap is that of ``x = -2``, ``2 - (-2) = 4``, and ``||W|| = sqrt(2)``:

    >>> W = [[0.0, -1.0], [0.0, 1.0]]
    >>> round(multiclass_margin(W, [[1.0, -2.0], [1.0, 3.0]], [0, 1]), 6)  # 4 / sqrt(2)
    2.828427
    """
    Z = _check_X(z, "z")
    W = _check_W(W, Z.shape[1])
    labels = _check_classes(y, Z.shape[0], W.shape[0])
    return _scaled_margin(W, Z, labels) / _scaled(Z)[1]


def multiclass_mistake_bound(W: ArrayLike, z: ArrayLike, y: ArrayLike) -> float:
    """The mistake bound ``(R / gamma)^2`` that the separator ``W`` certifies.

    ``R`` is :func:`kesler_radius` and ``gamma`` :func:`multiclass_margin`: the
    convergence theorem applied to the binary perceptron on the Kesler vectors,
    which makes the multiclass perceptron's mistakes (from zero weights, any
    learning rate, in exact arithmetic).

    Raises
    ------
    ValueError
        If ``W`` does not separate the classes (its margin is not positive).

    Examples
    --------
    >>> W = [[0.0, -1.0], [0.0, 1.0]]
    >>> round(multiclass_mistake_bound(W, [[1.0, -2.0], [1.0, 3.0]], [0, 1]), 9)  # 20 / 8
    2.5
    """
    Z = _check_X(z, "z")
    W = _check_W(W, Z.shape[1])
    gamma = _scaled_margin(W, Z, _check_classes(y, Z.shape[0], W.shape[0]))
    if gamma <= 0.0:
        raise ValueError(
            "W does not separate the classes: some example's class does not score "
            "strictly above every other, so it certifies no mistake bound."
        )
    # R and gamma both in the units of the scaled z: the scale cancels.
    radius = np.sqrt(2.0) * np.linalg.norm(_scaled(Z)[0], axis=1).max()
    return float((radius / gamma) ** 2)
