"""The training loops on sparse data (CSR): the same passes, over the nonzeros only.

A CSR matrix stores row ``i`` as its nonzero values ``data[indptr[i]:indptr[i + 1]]``
and their columns ``indices[...]``. Each loop here is its dense twin in
:mod:`perceptron_lib.loops.plain` with the sum over features replaced by a sum over
the row's stored entries, in the order they are stored, and the update touching
only those features. That is exactly what scikit-learn's SGD loop does on a
sparse row, so the weights agree with scikit-learn's on the same matrix.

Leaving out a zero changes nothing: ``total + w[j] * 0.0`` is ``total`` (up to
the sign of a zero), and ``w[j] + step * 0.0`` is ``w[j]``. So on a matrix with
sorted column indices these loops also give the dense loops' weights.

An activation that overflows ends the pass with a NaN bias, as in the dense loops.

No speculative version (as :mod:`perceptron_lib.loops.speculative` for dense data): it
was tried and never paid (``benchmarks/sparse_speculation.py``). Scoring four
rows at once over their nonzeros between mistakes, each row summed in its stored
order (so the same weights, bit for bit), against these loops, in CPU time on
this project's 2-core machine (2026-11-24, loaded; no intercept):

- 20,000 x 50,000 at 0.1 % (the bench's text-sized problem): 5 epochs 0.88x,
  50 epochs 0.70x, a mistake-free epoch 0.68x (2.2 ms against 3.3 ms);
- 20,000 x 2,000 at 5 %: 5 epochs 0.98x, 50 epochs 0.86x;
- 5,000 x 1,000 at 20 %: 5 epochs 0.96x, 50 epochs 0.72x, a mistake-free epoch 0.59x.

The likely reason (not measured further): on dense rows the four examples read
the same ``w[j]`` in step and their four sums hide each other's latency, while
sparse rows share no ``w`` loads and have different lengths; and the processor,
predicting "no mistake" at the branch, may already overlap the next row with this
one. What is measured is that the bookkeeping costs more than it saves.
"""

from __future__ import annotations

import math

import numpy as np

from .jit import compiled


@compiled
def column(indices, p):
    """The column ``indices[p]``, as an unsigned integer.

    A signed index makes numba add a test per access for Python's negative
    indexing; an unsigned one reads ``w[j]`` directly. With that, and the row's
    bounds ``indptr[i]`` taken as ``intp`` (so that ``p`` is a 64-bit position, not
    an int32 one to widen and test at every read), 5 epochs over the bench's
    20,000 x 50,000 at 0.1 % ran 1.15x faster: 10.0 and 11.1 ms of CPU against 11.6
    and 12.7 ms (thread time, medians of 41 alternated runs, two runs, on the
    2-core machine at load 3.4, 2026-11-24), same weights. The estimators check
    that every index is in ``[0, n_features)`` first
    (:func:`perceptron_lib._base.check_csr_structure`).
    """
    return np.uintp(indices[p])


@compiled
def sparse_activation(w, b, data, indices, start, stop):
    """Return ``w . x + b`` for the row stored in ``data[start:stop]``, ``indices[start:stop]``."""
    total = 0.0
    for p in range(start, stop):
        total += w[column(indices, p)] * data[p]
    return total + b


@compiled
def sparse_perceptron_epoch(data, indices, indptr, y, order, w, b, eta, fit_intercept, mistakes):
    """One pass of the perceptron over the rows ``order`` of a CSR matrix; returns the bias."""
    for t in range(order.shape[0]):
        i = order[t]
        start, stop = np.intp(indptr[i]), np.intp(indptr[i + 1])
        a = sparse_activation(w, b, data, indices, start, stop)
        if not math.isfinite(a):
            return math.nan  # overflow: the caller raises
        mistakes[t] = y[i] * a <= 0.0
        if mistakes[t]:
            step = eta * y[i]
            for p in range(start, stop):
                w[column(indices, p)] += step * data[p]
            if fit_intercept:
                b += step
    return b


@compiled
def sparse_averaged_perceptron_epoch(
    data, indices, indptr, y, order, w, b, q, beta, j, eta, fit_intercept, mistakes
):
    """One pass of the averaged perceptron over a CSR matrix; returns ``(b, beta, j)``."""
    for t in range(order.shape[0]):
        i = order[t]
        start, stop = np.intp(indptr[i]), np.intp(indptr[i + 1])
        a = sparse_activation(w, b, data, indices, start, stop)
        if not math.isfinite(a):
            return math.nan, beta, j  # overflow: the caller raises
        mistakes[t] = y[i] * a <= 0.0
        if mistakes[t]:
            step = eta * y[i]
            for p in range(start, stop):
                w[column(indices, p)] += step * data[p]
                q[column(indices, p)] += step * j * data[p]
            if fit_intercept:
                b += step
                beta += step * j
        j += 1.0
    return b, beta, j


@compiled
def sparse_margin_perceptron_epoch(
    data, indices, indptr, y, order, w, b, eta, tau, fit_intercept, updates
):
    """One pass of the margin perceptron over a CSR matrix; returns the bias."""
    for t in range(order.shape[0]):
        i = order[t]
        start, stop = np.intp(indptr[i]), np.intp(indptr[i + 1])
        a = sparse_activation(w, b, data, indices, start, stop)
        if not math.isfinite(a):
            return math.nan  # overflow: the caller raises
        updates[t] = y[i] * a <= tau
        if updates[t]:
            step = eta * y[i]
            for p in range(start, stop):
                w[column(indices, p)] += step * data[p]
            if fit_intercept:
                b += step
    return b
