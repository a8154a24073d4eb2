"""Viterbi decoding of a first-order chain: the best label sequence, exactly.

A sequence of ``T`` tokens gets one label from ``0, ..., L - 1`` per token. A
labelling ``y = (y_0, ..., y_{T-1})`` scores

    start[y_0] + sum_t emission[t, y_t] + sum_{t >= 1} transition[y_{t-1}, y_t],

with ``emission`` of shape ``(T, L)``, ``transition`` of shape ``(L, L)`` (row:
the label before, column: the label after) and ``start`` of shape ``(L,)``.
There is no end score: the last label is scored by its emission and its
transition in only. Trying all ``L^T`` labellings costs exponential time; Viterbi
finds the best one in ``O(T L^2)``, because the best labelling that ends in
label ``l`` at position ``t`` extends the best labelling of the first ``t``
tokens that ends in *some* label ``k``: it keeps, for each ``l``, the best score
so far (``best[l]``) and which ``k`` it came from (``back[t, l]``).

**Ties.** Several labellings can share the best score (from zero weights, every
labelling scores 0). Both functions here break ties the same way: at each
back-pointer and at the last position, the *lowest* label index among the tied
ones (a strict ``>`` while ``k`` counts up, as ``numpy.argmax`` does). The
labelling returned is then, among the best ones, the smallest when compared
from the last position backwards (last label first, then the one before, ...).
The result is a function of the scores alone, which is what lets a test compare
a training run label for label with one that enumerates every labelling.

:func:`viterbi_readable` is the algorithm as a reader would write it with NumPy;
:func:`viterbi` is the same recursion as plain loops, compiled by numba (see
:mod:`perceptron_lib.loops.jit`); both add in the same order, so they return
the same labelling on any finite scores. :func:`emission_scores` computes the
emission scores from token features and per-label weights, summing the
products from the first feature on (as :func:`perceptron_lib.loops.plain.activation`
does), so that no result depends on the BLAS library or the CPU.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from .jit import compiled

__all__ = ["emission_scores", "viterbi", "viterbi_readable"]


@compiled
def emission_scores(X, W):
    """Return the ``(T, L)`` scores ``W[l] . X[t]``, each summed from the first feature on.

    ``X`` is ``(T, D)`` (one row of features per token), ``W`` is ``(L, D)``
    (one row of weights per label).
    """
    scores = np.zeros((X.shape[0], W.shape[0]))
    for t in range(X.shape[0]):
        for label in range(W.shape[0]):
            total = 0.0
            for d in range(X.shape[1]):
                total += W[label, d] * X[t, d]
            scores[t, label] = total
    return scores


@compiled
def viterbi(emission, transition, start):
    """Return the best labelling of a chain and its score (compiled loops).

    Parameters
    ----------
    emission : ndarray of shape (T, L), T >= 1
        Score of label ``l`` at position ``t``.
    transition : ndarray of shape (L, L)
        Score of label ``k`` followed by label ``l``, at ``[k, l]``.
    start : ndarray of shape (L,)
        Score of label ``l`` at position 0.

    Returns
    -------
    path : ndarray of shape (T,), int64
        The labels; among tied best labellings, the lowest label index at each
        back-pointer (see the module's docstring).
    score : float
        Its score.

    Examples
    --------
    >>> import numpy as np
    >>> emission = np.array([[0.0, 1.0], [0.0, 0.0], [0.0, 1.0]])
    >>> transition = np.array([[0.0, 2.0], [2.0, 0.0]])  # labels alternate
    >>> path, score = viterbi(emission, transition, np.zeros(2))
    >>> path.tolist(), float(score)  # 1 + 2 + 0 + 2 + 1
    ([1, 0, 1], 6.0)
    """
    n_tokens, n_labels = emission.shape
    back = np.zeros((n_tokens, n_labels), dtype=np.int64)
    best = np.empty(n_labels)
    for label in range(n_labels):
        best[label] = start[label] + emission[0, label]
    following = np.empty(n_labels)
    for t in range(1, n_tokens):
        for label in range(n_labels):
            # The best predecessor k of label at t; a later k must beat it strictly.
            top = best[0] + transition[0, label]
            came_from = 0
            for k in range(1, n_labels):
                candidate = best[k] + transition[k, label]
                if candidate > top:
                    top = candidate
                    came_from = k
            following[label] = top + emission[t, label]
            back[t, label] = came_from
        for label in range(n_labels):
            best[label] = following[label]
    path = np.zeros(n_tokens, dtype=np.int64)
    last = 0
    for label in range(1, n_labels):
        if best[label] > best[last]:
            last = label
    path[n_tokens - 1] = last
    for t in range(n_tokens - 1, 0, -1):
        path[t - 1] = back[t, path[t]]
    return path, best[last]


def viterbi_readable(
    emission: NDArray[np.float64], transition: NDArray[np.float64], start: NDArray[np.float64]
) -> tuple[NDArray[np.int64], float]:
    """Return the best labelling and its score, written with NumPy (the readable twin).

    The same recursion, arithmetic and ties as :func:`viterbi`: ``argmax``
    returns the first (lowest) index among equal maxima.

    Examples
    --------
    >>> import numpy as np
    >>> path, score = viterbi_readable(np.zeros((3, 2)), np.zeros((2, 2)), np.zeros(2))
    >>> path.tolist(), float(score)  # every labelling scores 0: the lowest labels
    ([0, 0, 0], 0.0)
    """
    n_tokens = emission.shape[0]
    back = np.zeros(emission.shape, dtype=np.int64)
    best = start + emission[0]  # best[l]: the best score of a labelling of token 0 ending in l
    for t in range(1, n_tokens):
        # candidates[k, l]: the best labelling of tokens 0..t-1 ending in k, then label l.
        candidates = best[:, np.newaxis] + transition
        back[t] = candidates.argmax(axis=0)
        best = candidates.max(axis=0) + emission[t]
    path = np.zeros(n_tokens, dtype=np.int64)
    path[-1] = best.argmax()
    for t in range(n_tokens - 1, 0, -1):  # follow the back-pointers from the end
        path[t - 1] = back[t, path[t]]
    return path, float(best[path[-1]])
