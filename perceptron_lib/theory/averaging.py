"""The voted prediction and the averaged one, written out from a list of vectors (chapter 6).

:class:`~perceptron_lib.VotedPerceptron` and
:class:`~perceptron_lib.AveragedPerceptron` give the answers; this module
computes the two scores the slow, obvious way from a list of ``(w, b, c)``
(weights, bias, survival count), so that a chapter (and a test) can check the
fast forms against them:

- :func:`vote`: the voted score, a sum of the vectors' predictions (+1 or -1);
- :func:`weighted_sum`: the averaged score, one activation from the summed weights.

What trains a perceptron to take voting and averaging apart (the naive
average of a run, the vectors after each pass, the comparison over seeded
splits, the cost of a prediction) is in :mod:`perceptron_lib.experiments.averaging`.

The prediction convention is the course's: a vector predicts +1 iff its
activation ``w . x + b`` is positive, so ``a = 0`` votes -1; a total of 0 is
predicted -1 too.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = ["vote", "weighted_sum"]


def _check_vectors(
    weights: ArrayLike, intercepts: ArrayLike, counts: ArrayLike, X: ArrayLike
) -> tuple[NDArray, NDArray, NDArray, NDArray]:
    weights = np.asarray(weights, dtype=np.float64)
    intercepts = np.asarray(intercepts, dtype=np.float64)
    counts = np.asarray(counts, dtype=np.float64)
    X = np.asarray(X, dtype=np.float64)
    if weights.ndim != 2 or weights.shape[0] == 0:
        raise ValueError(
            f"weights must have shape (n_vectors, n_features) with n_vectors >= 1, "
            f"got {weights.shape}."
        )
    if intercepts.shape != (weights.shape[0],) or counts.shape != (weights.shape[0],):
        raise ValueError(
            f"intercepts and counts need one entry per vector ({weights.shape[0]}), "
            f"got shapes {intercepts.shape} and {counts.shape}."
        )
    if np.any(counts < 0):
        raise ValueError("Survival counts must be non-negative.")
    if X.ndim != 2 or X.shape[1] != weights.shape[1]:
        raise ValueError(f"X must have shape (n_examples, {weights.shape[1]}), got {X.shape}.")
    for name, values in (("weights", weights), ("intercepts", intercepts), ("X", X)):
        if not np.all(np.isfinite(values)):
            raise ValueError(f"{name} contains NaN or infinite values.")
    return weights, intercepts, counts, X


def vote(
    weights: ArrayLike, intercepts: ArrayLike, counts: ArrayLike, X: ArrayLike
) -> NDArray[np.float64]:
    """Return the voted score ``sum_k c_k * yhat_k(x)`` of every example.

    ``yhat_k(x)`` is vector k's own prediction: +1 if ``w_k . x + b_k > 0``,
    else -1. The voted prediction is +1 where the score is positive. This is
    :meth:`VotedPerceptron.decision_function`, written out.

    Parameters
    ----------
    weights : array-like of shape (n_vectors, n_features)
    intercepts : array-like of shape (n_vectors,)
    counts : array-like of shape (n_vectors,)
        Survival counts, >= 0.
    X : array-like of shape (n_examples, n_features)

    Returns
    -------
    ndarray of shape (n_examples,)

    Examples
    --------
    Two vectors voting +1 (count 1 each) lose to one voting -1 with count 3; at
    ``x = 0`` every activation is 0, so every vector votes -1.

    >>> vote([[1.0], [1.0], [-1.0]], [0.0, 0.0, 0.0], [1, 1, 3], [[2.0], [0.0]]).tolist()
    [-1.0, -5.0]
    """
    weights, intercepts, counts, X = _check_vectors(weights, intercepts, counts, X)
    predictions = np.where(X @ weights.T + intercepts > 0, 1.0, -1.0)
    return predictions @ counts


def weighted_sum(
    weights: ArrayLike, intercepts: ArrayLike, counts: ArrayLike, X: ArrayLike
) -> NDArray[np.float64]:
    """Return ``sum_k c_k (w_k . x + b_k)``: the averaged score, before dividing.

    It is the activation of the single vector ``(sum_k c_k w_k, sum_k c_k b_k)``;
    dividing by ``sum_k c_k`` (which is positive) changes no sign. Compare
    :func:`vote`, which takes each vector's sign *before* summing.

    Examples
    --------
    >>> weighted_sum([[1.0], [1.0], [-1.0]], [0.0, 0.0, 0.0], [1, 1, 3], [[2.0]]).tolist()
    [-2.0]
    """
    weights, intercepts, counts, X = _check_vectors(weights, intercepts, counts, X)
    return X @ (counts @ weights) + counts @ intercepts
