"""The training loops on sparse data (CSR): the same passes, over the nonzeros only.

A CSR matrix stores row ``i`` as its nonzero values ``data[indptr[i]:indptr[i + 1]]``
and their columns ``indices[...]``. Each loop here is its dense twin in
:mod:`perceptron_lib._loops` with the sum over features replaced by a sum over
the row's stored entries, in the order they are stored, and the update touching
only those features. That is exactly what scikit-learn's SGD loop does on a
sparse row, so the weights agree with scikit-learn's on the same matrix.

Leaving out a zero changes nothing: ``total + w[j] * 0.0`` is ``total`` (up to
the sign of a zero), and ``w[j] + step * 0.0`` is ``w[j]``. So on a matrix with
sorted column indices these loops also give the dense loops' weights.

An activation that overflows ends the pass with a NaN bias, as in the dense loops.
"""

from __future__ import annotations

import math

from ._compile import compiled


@compiled
def sparse_activation(w, b, data, indices, start, stop):
    """Return ``w . x + b`` for the row stored in ``data[start:stop]``, ``indices[start:stop]``."""
    total = 0.0
    for p in range(start, stop):
        total += w[indices[p]] * data[p]
    return total + b


@compiled
def sparse_perceptron_epoch(data, indices, indptr, y, order, w, b, eta, fit_intercept, mistakes):
    """One pass of the perceptron over the rows ``order`` of a CSR matrix; returns the bias."""
    for t in range(order.shape[0]):
        i = order[t]
        start, stop = indptr[i], indptr[i + 1]
        a = sparse_activation(w, b, data, indices, start, stop)
        if not math.isfinite(a):
            return math.nan  # overflow: the caller raises
        mistakes[t] = y[i] * a <= 0.0
        if mistakes[t]:
            step = eta * y[i]
            for p in range(start, stop):
                w[indices[p]] += step * data[p]
            if fit_intercept:
                b += step
    return b


@compiled
def sparse_averaged_perceptron_epoch(
    data, indices, indptr, y, order, w, b, u, beta, count, eta, fit_intercept, mistakes
):
    """One pass of the averaged perceptron over a CSR matrix; returns ``(b, beta, count)``."""
    for t in range(order.shape[0]):
        i = order[t]
        start, stop = indptr[i], indptr[i + 1]
        a = sparse_activation(w, b, data, indices, start, stop)
        if not math.isfinite(a):
            return math.nan, beta, count  # overflow: the caller raises
        mistakes[t] = y[i] * a <= 0.0
        if mistakes[t]:
            step = eta * y[i]
            for p in range(start, stop):
                w[indices[p]] += step * data[p]
                u[indices[p]] += step * count * data[p]
            if fit_intercept:
                b += step
                beta += step * count
        count += 1.0
    return b, beta, count


@compiled
def sparse_margin_perceptron_epoch(
    data, indices, indptr, y, order, w, b, eta, tau, fit_intercept, updates
):
    """One pass of the margin perceptron over a CSR matrix; returns the bias."""
    for t in range(order.shape[0]):
        i = order[t]
        start, stop = indptr[i], indptr[i + 1]
        a = sparse_activation(w, b, data, indices, start, stop)
        if not math.isfinite(a):
            return math.nan  # overflow: the caller raises
        updates[t] = y[i] * a <= tau
        if updates[t]:
            step = eta * y[i]
            for p in range(start, stop):
                w[indices[p]] += step * data[p]
            if fit_intercept:
                b += step
    return b
