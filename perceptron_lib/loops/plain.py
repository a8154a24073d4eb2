"""The training loops, one pass over the data each, exactly as in the pseudocode.

Every function here takes the examples in the order given by ``order``, works on
plain float arrays (labels already mapped to -1/+1), updates the weights in
place and returns the scalars it changed. Each can also record every step in an
optional ``steps`` array, for :func:`perceptron_lib.training_trace`. Left out
(``None``), the recording branch is removed when numba compiles the loop, so
training pays nothing for it. The loops are compiled by numba when it is
installed (see :mod:`perceptron_lib.loops.jit`) and run unchanged as Python
otherwise.

These are the readable reference. ``Perceptron`` and ``AveragedPerceptron``
run the speculative versions in :mod:`perceptron_lib.loops.speculative`, which score
several examples at once between mistakes and are tested to give exactly these
functions' mistakes, weights and step records.

The activation is computed as the dot product first and the bias added last,
feature by feature from the first: the same arithmetic, in the same order, as
scikit-learn's SGD loop, so the weights agree with scikit-learn's ``Perceptron``
to the last bit.

An activation that overflows (``inf`` or NaN, from huge weights or data) ends
the pass at once with a NaN bias: the callers check the weights after every
epoch and raise a ``ValueError`` (a NaN activation would otherwise count as
correct, since ``NaN <= 0`` is false).
"""

from __future__ import annotations

import math

from .jit import compiled


@compiled
def activation(w, b, x):
    """Return ``w . x + b``, summing the products from the first feature on."""
    total = 0.0
    for j in range(x.shape[0]):
        total += w[j] * x[j]
    return total + b


@compiled
def record_step(steps, t, a, b, w):
    """Write step ``t`` into row ``t`` of ``steps``: ``a``, then ``b`` and ``w`` after it."""
    steps[t, 0] = a
    steps[t, 1] = b
    for j in range(w.shape[0]):
        steps[t, 2 + j] = w[j]


@compiled
def perceptron_epoch(X, y, order, w, b, eta, fit_intercept, mistakes, steps=None):
    """One pass of the perceptron (Daume's Algorithm 5) over ``X[order]``.

    ``w`` is updated in place; ``mistakes[t]`` is set to whether the t-th
    example visited was a mistake. If ``steps`` is given (shape
    ``(len(order), n_features + 2)``), its row t receives the activation of the
    t-th step, then the bias and the weights after it. Returns the new bias.
    """
    for t in range(order.shape[0]):
        i = order[t]
        a = activation(w, b, X[i])
        if not math.isfinite(a):
            return math.nan  # overflow: the caller raises
        # A mistake is y * a <= 0: from w = 0 every example is a mistake,
        # which is what gets learning started (with < 0 nothing would ever change).
        mistakes[t] = y[i] * a <= 0.0
        if mistakes[t]:
            step = eta * y[i]
            for j in range(w.shape[0]):
                w[j] += step * X[i, j]
            if fit_intercept:
                b += step
        if steps is not None:
            record_step(steps, t, a, b, w)
    return b


@compiled
def averaged_perceptron_epoch(
    X, y, order, w, b, q, beta, j, eta, fit_intercept, mistakes, steps=None
):
    """One pass of the averaged perceptron (Daume's Algorithm 7) over ``X[order]``.

    The names follow chapter 6's Algorithm 7. Besides the current weights
    ``(w, b)`` it keeps the cached sums ``q`` and ``beta`` of every update,
    weighted by the example counter ``j`` at the time of the update. The
    averaged weights are then ``w - q / j`` and ``b - beta / j`` at any moment,
    with no per-example averaging. ``w`` and ``q`` are updated in place;
    ``steps``, if given, records the current ``(w, b)`` as in
    :func:`perceptron_epoch`. Returns ``(b, beta, j)``.
    """
    for t in range(order.shape[0]):
        i = order[t]
        a = activation(w, b, X[i])
        if not math.isfinite(a):
            return math.nan, beta, j  # overflow: the caller raises
        mistakes[t] = y[i] * a <= 0.0
        if mistakes[t]:
            step = eta * y[i]
            # d runs over the features (j is the example counter of Algorithm 7).
            for d in range(w.shape[0]):
                w[d] += step * X[i, d]
                q[d] += step * j * X[i, d]
            if fit_intercept:
                b += step
                beta += step * j
        if steps is not None:
            record_step(steps, t, a, b, w)
        j += 1.0
    return b, beta, j
