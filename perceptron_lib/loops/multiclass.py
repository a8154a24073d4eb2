"""The multiclass perceptron's epoch: one weight vector per class, one pass over the data.

Class ``k`` has the weights ``W[k]`` and the bias ``B[k]``, and scores an example
``x`` with ``s_k = W[k] . x + B[k]``. Labels are class indices ``0, ..., n_classes - 1``.
For an example of class ``c`` the *rival* is the highest-scoring other class, the
first (lowest index) among equal scores. The step is a mistake when the rival's
score is at least the true one, ``s_rival >= s_c``: the true class must score
*strictly* above every other. From zero weights every score is 0, so the first
example is a mistake and learning starts, as ``y a <= 0`` starts the binary
perceptron. On a mistake, ``W[c] += eta x`` and ``W[rival] -= eta x`` (and the biases
by ``+-eta`` when ``fit_intercept``).

Why the lowest index among tied rivals: it makes the run deterministic, and it is
the class ``numpy.argmax`` picks, so the rival is the class the model would
predict if the true class were left out.

The loops are written like the pseudocode and compiled by numba when it is
installed (:mod:`perceptron_lib.loops.jit`); without it the same functions run as
Python, with the same weights. Every score is summed as
:func:`perceptron_lib.loops.plain.activation` sums it (feature by feature, bias last).

Averaging (Algorithm 7 of Daume's *A Course in Machine Learning*, ch. 4, per class):
given arrays ``Q`` and ``beta``, every update also adds ``+-eta j x`` to ``Q`` and
``+-eta j`` to ``beta``, where ``j`` is the example counter (1 at the start, one more
per example visited). The averaged weights are then ``W - Q / j`` and ``B - beta / j``:
the mean of the weights before the first example and after each example visited,
exactly as :class:`perceptron_lib.AveragedPerceptron` defines it for two classes.

A score that is not finite (overflow, or a NaN or an infinity in ``X``) ends the
pass at once and the epoch returns NaN: the estimator then raises a ValueError.
"""

from __future__ import annotations

import math

import numpy as np

from .jit import compiled
from .plain import activation
from .sparse import column, sparse_activation


@compiled
def rival_class(scores, c):
    """The highest-scoring class other than ``c``; the lowest index among equal scores."""
    rival = 1 if c == 0 else 0
    for k in range(rival + 1, scores.shape[0]):
        if k != c and scores[k] > scores[rival]:
            rival = k
    return rival


@compiled
def _update_row(W, B, Q, beta, k, x, step, j, fit_intercept):
    """Add ``step * x`` to ``W[k]`` (and ``step * j * x`` to ``Q[k]`` when averaging)."""
    for d in range(x.shape[0]):
        W[k, d] += step * x[d]
        if Q is not None:
            Q[k, d] += step * j * x[d]
    if fit_intercept:
        B[k] += step
        if beta is not None:
            beta[k] += step * j


@compiled
def multiclass_epoch(
    X, y, order, W, B, eta, fit_intercept, mistakes, rivals, Q=None, beta=None, j=1.0, steps=None
):
    """One pass of the multiclass perceptron over ``X[order]``; returns the counter ``j``.

    ``W`` (n_classes, n_features) and ``B`` (n_classes,) are updated in place;
    ``mistakes[t]`` and ``rivals[t]`` receive whether the t-th example visited was a
    mistake and its rival class. With ``Q`` and ``beta`` (same shapes as ``W`` and
    ``B``), the sums of Algorithm 7 are kept too, and ``j`` is the example counter
    at the start of the pass. With ``steps`` (shape (len(order), n_classes,
    n_features + 2)), ``steps[t, k]`` receives class k's score at step t, then its
    bias and weights after the step. Returns the counter after the pass, or NaN if
    a score was not finite.
    """
    n_classes = W.shape[0]
    scores = np.empty(n_classes)
    for t in range(order.shape[0]):
        i = order[t]
        c = y[i]
        for k in range(n_classes):
            scores[k] = activation(W[k], B[k], X[i])
            if not math.isfinite(scores[k]):
                return math.nan  # overflow, or NaN/infinity in X: the caller raises
        rival = rival_class(scores, c)
        rivals[t] = rival
        # Not strictly above the rival is a mistake: from zero weights, every
        # score ties and the first example starts the learning.
        mistakes[t] = scores[rival] >= scores[c]
        if mistakes[t]:
            _update_row(W, B, Q, beta, c, X[i], eta, j, fit_intercept)
            _update_row(W, B, Q, beta, rival, X[i], -eta, j, fit_intercept)
        if steps is not None:
            for k in range(n_classes):
                steps[t, k, 0] = scores[k]
                steps[t, k, 1] = B[k]
                for d in range(W.shape[1]):
                    steps[t, k, 2 + d] = W[k, d]
        j += 1.0
    return j


@compiled
def _sparse_update_row(W, B, Q, beta, k, data, indices, start, stop, step, j, fit_intercept):
    """:func:`_update_row` over the stored entries ``start:stop`` of a CSR row."""
    for p in range(start, stop):
        W[k, column(indices, p)] += step * data[p]
        if Q is not None:
            Q[k, column(indices, p)] += step * j * data[p]
    if fit_intercept:
        B[k] += step
        if beta is not None:
            beta[k] += step * j


@compiled
def sparse_multiclass_epoch(
    data, indices, indptr, y, order, W, B, eta, fit_intercept, mistakes, rivals, Q, beta, j
):
    """:func:`multiclass_epoch` over the rows ``order`` of a CSR matrix (no ``steps``).

    Each score is summed over the row's stored entries in their stored order, as
    :func:`perceptron_lib.loops.sparse.sparse_activation` does; on a matrix with
    sorted column indices that is the dense pass, the same weights.
    """
    n_classes = W.shape[0]
    scores = np.empty(n_classes)
    for t in range(order.shape[0]):
        i = order[t]
        c = y[i]
        start, stop = np.intp(indptr[i]), np.intp(indptr[i + 1])
        for k in range(n_classes):
            scores[k] = sparse_activation(W[k], B[k], data, indices, start, stop)
            if not math.isfinite(scores[k]):
                return math.nan
        rival = rival_class(scores, c)
        rivals[t] = rival
        mistakes[t] = scores[rival] >= scores[c]
        if mistakes[t]:
            _sparse_update_row(W, B, Q, beta, c, data, indices, start, stop, eta, j, fit_intercept)
            _sparse_update_row(
                W, B, Q, beta, rival, data, indices, start, stop, -eta, j, fit_intercept
            )
        j += 1.0
    return j
