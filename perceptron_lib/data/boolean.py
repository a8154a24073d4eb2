"""Boolean functions as data sets: the logic gates, at-least-m-of-n, XOR with noise.

Inputs are 0/1 floats, rows in the order of :func:`itertools.product`; labels
``-1`` / ``+1``.
"""

from __future__ import annotations

import itertools

import numpy as np
from numpy.typing import NDArray
from sklearn.utils import check_random_state

from .checks import Labels, _check_int, _check_real, _signs

__all__ = ["at_least_m_of_n", "logic_gate", "make_xor"]


def _all_inputs(n_inputs: int) -> NDArray[np.float64]:
    """Every row of {0,1}^n, in truth-table order (0...0 first, 1...1 last)."""
    return np.array(list(itertools.product((0.0, 1.0), repeat=n_inputs)))


_GATES = {
    "and": lambda bits: all(bits),
    "or": lambda bits: any(bits),
    "nand": lambda bits: not all(bits),
    "nor": lambda bits: not any(bits),
    "xor": lambda bits: sum(bits) % 2 == 1,
}


def logic_gate(name: str, n_inputs: int = 2) -> tuple[NDArray[np.float64], Labels]:
    """The truth table of a logic gate as a data set.

    ``X`` holds every input in {0,1}^n (``2**n_inputs`` rows, truth-table
    order) and ``y`` is +1 where the gate outputs true, -1 where false. With
    more than two inputs, "xor" is the parity function (true for an odd number
    of ones). "and", "or", "nand" and "nor" are linearly separable for every
    number of inputs; "xor" is not for two or more inputs, but with one input
    it is the input itself, which one unit computes.

    Parameters
    ----------
    name : {"and", "or", "nand", "nor", "xor"}
        The gate (case-insensitive).
    n_inputs : int, default=2
        Number of inputs, >= 1.

    Returns
    -------
    X : ndarray of shape (2**n_inputs, n_inputs)
        All 0/1 inputs.
    y : ndarray of shape (2**n_inputs,)
        +1 where the gate is true.

    Examples
    --------
    >>> from perceptron_lib.data.boolean import logic_gate
    >>> X, y = logic_gate("and")
    >>> X.tolist(), y.tolist()
    ([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]], [-1, -1, -1, 1])
    """
    if not isinstance(name, str):
        raise TypeError(f"name must be a string, got {type(name).__name__}: {name!r}.")
    gate = _GATES.get(name.lower())
    if gate is None:
        raise ValueError(f"Unknown gate {name!r}; choose one of {sorted(_GATES)}.")
    n_inputs = _check_int(n_inputs, "n_inputs", 1)
    X = _all_inputs(n_inputs)
    y = _signs(np.array([gate(row.astype(bool).tolist()) for row in X]))
    return X, y


def at_least_m_of_n(m: int, n: int) -> tuple[NDArray[np.float64], Labels]:
    """All of {0,1}^n, labelled +1 where at least ``m`` of the ``n`` inputs are 1.

    The labels are computed by the linear threshold unit that represents the
    function (McCulloch and Pitts 1943), with the course's one convention: all
    weights 1 and bias ``b = -(m - 1/2)``, that is threshold ``m - 1/2``, and
    the unit fires (+1) exactly when its activation
    ``a = x_1 + ... + x_n - (m - 1/2)`` is positive, ``a > 0``. The threshold
    sits halfway between two possible sums, so no input has ``a = 0``.
    ``m = n`` is AND and ``m = 1`` is OR.

    Parameters
    ----------
    m : int
        Threshold, ``0 <= m <= n``.
    n : int
        Number of inputs (the course writes it D; the name n is kept for the
        function's signature), >= 1.

    Returns
    -------
    X : ndarray of shape (2**n, n)
        All 0/1 inputs in truth-table order.
    y : ndarray of shape (2**n,)
        +1 where ``sum(x) - (m - 1/2) > 0``, that is where ``sum(x)`` is at least ``m``.

    Examples
    --------
    >>> from perceptron_lib.data.boolean import at_least_m_of_n
    >>> X, y = at_least_m_of_n(2, 3)
    >>> y.tolist()
    [-1, -1, -1, 1, -1, 1, 1, 1]
    """
    n = _check_int(n, "n", 1)
    m = _check_int(m, "m", 0)
    if m > n:
        raise ValueError(f"m must be <= n, got m={m} > n={n}: no input has that many ones.")
    X = _all_inputs(n)
    activation = X @ np.ones(n) - (m - 0.5)  # weights 1, bias -(m - 1/2)
    return X, _signs(activation > 0)


def make_xor(
    n_per_corner: int = 1, *, noise: float = 0.0, random_state=None
) -> tuple[NDArray[np.float64], Labels]:
    """The XOR problem: the corners of the unit square, +1 where exactly one input is 1.

    The corners come in truth-table order, ``n_per_corner`` copies of each,
    each copy moved by independent Gaussian noise of standard deviation
    ``noise``. With no noise, no line separates the classes: the two positive
    corners and the two negative ones are the two diagonals of the square, and
    their midpoints coincide. This elementary fact is older than Minsky and
    Papert (1969), whose theorems concern more: the limits of order- and
    diameter-limited perceptrons on predicates such as parity and
    connectedness.

    Parameters
    ----------
    n_per_corner : int, default=1
        Examples per corner, >= 1.
    noise : float, default=0.0
        Standard deviation of the noise, >= 0.
    random_state : int, RandomState instance or None, default=None
        Seed for the noise.

    Returns
    -------
    X : ndarray of shape (4 * n_per_corner, 2)
        The examples.
    y : ndarray of shape (4 * n_per_corner,)
        +1 where ``x1 XOR x2`` is true for the corner.

    Examples
    --------
    >>> from perceptron_lib.data.boolean import make_xor
    >>> X, y = make_xor()
    >>> X.tolist(), y.tolist()
    ([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]], [-1, 1, 1, -1])
    """
    n_per_corner = _check_int(n_per_corner, "n_per_corner", 1)
    noise = _check_real(noise, "noise")
    if noise < 0:
        raise ValueError(f"noise must be >= 0, got {noise}.")
    corners, labels = logic_gate("xor")
    X = np.repeat(corners, n_per_corner, axis=0)
    y = np.repeat(labels, n_per_corner)
    if noise > 0:
        X = X + noise * check_random_state(random_state).standard_normal(X.shape)
    return X, y
