"""Speculative epochs: the perceptron's exact run, scored a block of examples at a time.

The online perceptron scores example ``t + 1`` with the weights left by example
``t``, so it looks sequential. But between two mistakes the weights do not
change: once the scan is at ``t``, the activations of ``t, t + 1, ..., t + B - 1``
can all be computed at once with the current ``(w, b)``. Scanning them in order,
every example before the first mistake is handled exactly as the plain loop would
handle it (same weights, same activation); at the first mistake the update is
applied and the scan resumes just after it. The activations computed past that
mistake are thrown away: that is the price of speculating.

Why it is exact, bit for bit
----------------------------
Each activation is summed exactly as :func:`perceptron_lib.loops.plain.activation`
sums it: ``total = 0.0``, then ``total += w[j] * x[j]`` for ``j = 0, 1, ..., D - 1``,
then ``+ b``. What changes is only *which* independent sums run side by side:

- in one thread, four examples are scored together with four accumulators, one per
  example (:func:`~perceptron_lib.loops.speculative_scoring.block_activations`).
  The plain loop is latency-bound (each ``+=`` waits for the previous one); four
  independent chains hide that wait, yet each chain still adds the same products
  in the same order, so each result has the same bits;
- with threads (numba ``prange``), different groups of examples go to different
  cores, for long mistake-free stretches only.

Floating-point addition is not associative: ``(p + q) + r`` can round differently
from ``p + (q + r)``. Summing *one* activation in another order (``np.dot`` and
BLAS split it into lanes and pairwise blocks; ``fastmath`` lets the compiler do
the same) changes some of its last bits, an activation near 0 can change sign,
and from there the run takes another path. So none of that is used here: no
``np.dot``, no ``X @ w``, no ``fastmath``. The averaged perceptron's counter
``j`` goes up by one per example, as in the plain loop, and past a block's right
examples by their number at once: a whole number below 2**53, so the sum is exact
and ``j`` has the plain loop's value at every update. The update on a mistake is
one small compiled function per algorithm (:func:`_update`,
:func:`_averaged_update`), called by the example-at-a-time part and at a block's
first mistake alike. The compiler may or may not inline such a call; either way
it comes once per mistake, and the epochs measured no slower than with the update
written out in both places.

When it pays
------------
A block ended early by a mistake wastes the activations computed after it, so
the epoch adapts. It runs the plain loop while mistakes are dense and switches
to blocks of :data:`SERIAL_BLOCK` examples once :data:`SPECULATE_AFTER` examples
in a row were right; each block cut short in its first half doubles that wait
(up to :data:`MAX_WAIT`), each mistake-free block halves it again. Noisy data
thus stays in the plain loop, and long mistake-free stretches run in blocks.

Scoring four examples at once pays only while the data stays in cache
(:data:`CACHE_BYTES`): measured on 2 cores, a mistake-free epoch of 10,000 x 50
ran 1.6x faster than the plain loop, but on 100,000 x 100 (80 MB) reading four
rows at once was *slower* than one, so there, in one thread, the plain loop runs.

Threads (numba ``prange``) spread long blocks (:data:`MAX_BLOCK`, at least
:data:`PARALLEL_WORK` multiply-adds) over the cores. They are off by default
(:data:`USE_THREADS`): on 2 cores shared with other work, waking the second
thread often cost more than the block, and a 50-epoch run was slower with them
(a mistake-free 80 MB epoch alone was 1.3x faster). When on, a thread takes a
lock without waiting for it (numba's default threading layer aborts when two
Python threads launch parallel regions at once); if another thread holds it, the
epoch runs in one thread, with the same result. The scoring of a block, in one
thread or on threads, is in :mod:`perceptron_lib.loops.speculative_scoring`.
"""

from __future__ import annotations

import contextlib
import math

import numpy as np

from .jit import compiled
from .plain import activation, record_step
from .plain import averaged_perceptron_epoch as _plain_averaged_epoch
from .plain import perceptron_epoch as _plain_perceptron_epoch

# The scoring of a block, re-exported: it was defined here and is used from here.
from .speculative_scoring import (  # noqa: F401
    CACHE_BYTES,
    LANES,
    PARALLEL_WORK,
    _parallel_block_activations,
    _parallel_lock,
    _score_block,
    _score_four,
    _start_threading_layer,
    _ThreadsIfFree,
    block_activations,
    fits_in_cache,
)

__all__ = [
    "MAX_BLOCK",
    "PARALLEL_WORK",
    "SPECULATE_AFTER",
    "SPECULATE_MIN_WORK",
    "USE_THREADS",
    "averaged_perceptron_epoch",
    "block_activations",
    "perceptron_epoch",
    "speculation_pays",
]

#: Mistake-free examples in a row, in the plain loop, before scoring in blocks.
SPECULATE_AFTER = 16
#: The most mistake-free examples in a row ever waited for (after many blocks cut
#: short by a mistake, the wait doubles from :data:`SPECULATE_AFTER` up to this).
MAX_WAIT = 1024
#: Block length in one thread: short, so that a mistake wastes few activations
#: (in one thread a block costs nothing to start, so there is no reason to grow it).
SERIAL_BLOCK = 32
#: With threads: the first block after a mistake (then doubled after every
#: mistake-free block, up to :data:`MAX_BLOCK`, to amortise the parallel start).
MIN_BLOCK = 16
#: With threads: the largest block.
MAX_BLOCK = 4096
#: Whether long blocks may be spread over threads (numba ``prange``). Off by default:
#: on the 2 shared cores this was measured on, waking the second thread often cost
#: milliseconds, far more than the block itself (see the module docstring).
USE_THREADS = False
#: The estimators speculate only on epochs of at least this many multiply-adds
#: (examples x features); smaller ones run the plain loop. Such an epoch takes well
#: under a millisecond either way, while compiling the speculative epoch costs the
#: first fit with an empty numba cache about 2 s of CPU more than the plain loop's
#: 0.65 s (measured on this project's 2-core machine): a small first fit, as in every
#: chapter, compiles only the plain loop. Both give the same run, bit for bit.
SPECULATE_MIN_WORK = 1 << 18

# Stats recorded by the diagnostic variant, in this order.
STAT_NAMES = ("blocks", "restarts", "speculated", "wasted", "parallel_blocks")


@compiled
def _update(w, b, x, step, fit_intercept):
    """The perceptron's update on a mistake: ``w += step * x`` and ``b += step``.

    ``w`` changes in place; returns the new ``b``. Feature by feature, as in
    :func:`perceptron_lib.loops.plain.perceptron_epoch`.
    """
    for d in range(w.shape[0]):
        w[d] += step * x[d]
    if fit_intercept:
        b += step
    return b


@compiled
def _averaged_update(w, b, q, beta, j, x, step, fit_intercept):
    """The averaged perceptron's update on a mistake at example count ``j``.

    Adds ``step * x`` to ``w`` and ``step * j * x`` to the cached sum ``q`` (in
    place), ``step`` to ``b`` and ``step * j`` to ``beta``; returns ``(b, beta)``.
    As in :func:`perceptron_lib.loops.plain.averaged_perceptron_epoch`.
    """
    for d in range(w.shape[0]):
        w[d] += step * x[d]
        q[d] += step * j * x[d]
    if fit_intercept:
        b += step
        beta += step * j
    return b, beta


@compiled
def _first_mistake(y, order, out, start, stop, w, b, mistakes, steps):
    """The position of the first mistake among the block's activations ``out[start:stop]``.

    Returns ``stop`` if there is none. A non-finite activation also ends the scan
    (the caller stops there). The examples before it were right: they are marked
    so in ``mistakes`` and their steps recorded, with the unchanged ``(w, b)``.
    """
    k = start
    while k < stop:
        i = order[k]
        if not math.isfinite(out[k]) or y[i] * out[k] <= 0.0:
            break
        mistakes[k] = False
        if steps is not None:
            record_step(steps, k, out[k], b, w)
        k += 1
    return k


@compiled
def _next_block(start, k, stop, wait, block, stats):
    """Adapt the schedule to a block ``[start, stop)`` whose first mistake is at ``k``.

    ``k == stop`` means the block had no mistake. Returns the new ``(wait, block)``
    and adds the block to ``stats`` (if given).
    """
    if stats is not None:
        stats[0] += 1
        stats[2] += stop - start
    if k == stop:
        return max(SPECULATE_AFTER, wait // 2), min(2 * block, MAX_BLOCK)
    if stats is not None:
        stats[1] += 1
        stats[3] += stop - k - 1
    if k - start < (stop - start) // 2:
        # Cut short in its first half: mistakes are dense again, speculate later.
        wait = min(2 * wait, MAX_WAIT)
    return wait, MIN_BLOCK


@compiled
def _speculative_perceptron_epoch(
    X, y, order, w, b, eta, fit_intercept, mistakes, steps, out, interleave, threads, stats
):
    """The perceptron epoch of ``_loops.perceptron_epoch``, speculating on long stretches.

    ``out`` (length ``len(order)``) receives the block activations; ``stats``, if
    not None, counts blocks, restarts, examples scored in blocks, wasted activations
    and parallel blocks.
    """
    n = order.shape[0]
    t = 0
    gap = 0  # examples since the last mistake
    block = MIN_BLOCK
    wait = SPECULATE_AFTER  # grows while blocks keep being cut short
    while t < n:
        if gap < wait:
            # Mistakes are near: the plain loop, one example at a time.
            i = order[t]
            a = activation(w, b, X[i])
            if not math.isfinite(a):
                return math.nan  # overflow: the caller raises
            mistakes[t] = y[i] * a <= 0.0
            if mistakes[t]:
                b = _update(w, b, X[i], eta * y[i], fit_intercept)
                gap = 0
            else:
                gap += 1
            if steps is not None:
                record_step(steps, t, a, b, w)
            t += 1
            continue
        # A long mistake-free stretch: score a whole block with the current weights.
        stop = min(t + (block if threads is not None else SERIAL_BLOCK), n)
        _score_block(X, order, t, stop, w, b, out, interleave, threads, stats)
        k = _first_mistake(y, order, out, t, stop, w, b, mistakes, steps)
        if k < stop:
            if not math.isfinite(out[k]):
                return math.nan  # overflow: the caller raises
            # The first mistake of the block: update, then resume right after it.
            i = order[k]
            mistakes[k] = True
            b = _update(w, b, X[i], eta * y[i], fit_intercept)
            if steps is not None:
                record_step(steps, k, out[k], b, w)
            gap = 0
        wait, block = _next_block(t, k, stop, wait, block, stats)
        t = min(k + 1, stop)  # just after the mistake, or after the block
    return b


@compiled
def _speculative_averaged_epoch(
    X,
    y,
    order,
    w,
    b,
    q,
    beta,
    j,
    eta,
    fit_intercept,
    mistakes,
    steps,
    out,
    interleave,
    threads,
    stats,
):
    """The averaged perceptron's epoch (``_loops.averaged_perceptron_epoch``), speculating.

    The perceptron's epoch, with :func:`_averaged_update` for the update and the
    example counter ``j`` advanced by one per example.
    """
    n = order.shape[0]
    t = 0
    gap = 0  # examples since the last mistake
    block = MIN_BLOCK
    wait = SPECULATE_AFTER  # grows while blocks keep being cut short
    while t < n:
        if gap < wait:
            i = order[t]
            a = activation(w, b, X[i])
            if not math.isfinite(a):
                return math.nan, beta, j  # overflow: the caller raises
            mistakes[t] = y[i] * a <= 0.0
            if mistakes[t]:
                b, beta = _averaged_update(w, b, q, beta, j, X[i], eta * y[i], fit_intercept)
                gap = 0
            else:
                gap += 1
            if steps is not None:
                record_step(steps, t, a, b, w)
            j += 1.0
            t += 1
            continue
        stop = min(t + (block if threads is not None else SERIAL_BLOCK), n)
        _score_block(X, order, t, stop, w, b, out, interleave, threads, stats)
        k = _first_mistake(y, order, out, t, stop, w, b, mistakes, steps)
        # One per example scanned: a whole number below 2**53, so as exact as k - t
        # additions of 1.0, and ``j`` is the count at the mistake.
        j += k - t
        if k < stop:
            if not math.isfinite(out[k]):
                return math.nan, beta, j  # overflow: the caller raises
            i = order[k]
            mistakes[k] = True
            b, beta = _averaged_update(w, b, q, beta, j, X[i], eta * y[i], fit_intercept)
            if steps is not None:
                record_step(steps, k, out[k], b, w)
            j += 1.0
            gap = 0
        wait, block = _next_block(t, k, stop, wait, block, stats)
        t = min(k + 1, stop)  # just after the mistake, or after the block
    return b, beta, j


@contextlib.contextmanager
def _threads_if_allowed():
    """Yield None (one thread) or a marker array (threads allowed and free now).

    Threads are used only with :data:`USE_THREADS`; only then is numba's thread
    pool started and the parallel scoring compiled.
    """
    if not USE_THREADS:
        yield None
        return
    _start_threading_layer()
    with _ThreadsIfFree() as threads_free:
        yield np.ones(1) if threads_free else None


def speculation_pays(X) -> bool:
    """Whether the estimators run the speculative epochs on ``X``: :data:`SPECULATE_MIN_WORK`.

    Examples
    --------
    >>> import numpy as np
    >>> speculation_pays(np.zeros((100, 4))), speculation_pays(np.zeros((10_000, 50)))
    (False, True)
    """
    return X.shape[0] * X.shape[1] >= SPECULATE_MIN_WORK


def _speculate_if_it_pays(plain_epoch, speculative_epoch, args, steps, stats):
    """Run ``speculative_epoch(*args, steps, ...)``, or ``plain_epoch(*args, steps)``.

    ``args`` start with ``X, y, order``. The plain loop runs where blocks gain
    nothing: data out of cache (:func:`fits_in_cache`) and no threads.
    """
    X, order = args[0], args[2]
    interleave = fits_in_cache(X)
    with _threads_if_allowed() as threads:
        if not (interleave or threads is not None):
            return plain_epoch(*args, steps)
        out = np.empty(order.shape[0])
        return speculative_epoch(*args, steps, out, interleave, threads, stats)


def perceptron_epoch(X, y, order, w, b, eta, fit_intercept, mistakes, steps=None, stats=None):
    """One speculative perceptron epoch: same arguments and result as the plain loop.

    Gives the weights, bias, ``mistakes`` and ``steps`` of
    :func:`perceptron_lib.loops.plain.perceptron_epoch` bit for bit. ``stats``, an
    int64 array of length 5 (optional), is increased by the number of blocks,
    restarts (blocks ended by a mistake), examples scored in blocks, activations
    wasted past a mistake, and blocks run on threads (see :data:`STAT_NAMES`).

    Examples
    --------
    >>> import numpy as np
    >>> from perceptron_lib.loops import plain as _loops
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(500, 3))
    >>> y = np.where(X[:, 0] > 0, 1.0, -1.0)
    >>> order, w1, w2 = np.arange(500), np.zeros(3), np.zeros(3)
    >>> m1, m2 = np.zeros(500, bool), np.zeros(500, bool)
    >>> b1 = _loops.perceptron_epoch(X, y, order, w1, 0.0, 1.0, True, m1)
    >>> b2 = perceptron_epoch(X, y, order, w2, 0.0, 1.0, True, m2)
    >>> bool(b1 == b2 and (w1 == w2).all() and (m1 == m2).all())
    True
    """
    args = (X, y, order, w, b, eta, fit_intercept, mistakes)
    return _speculate_if_it_pays(
        _plain_perceptron_epoch, _speculative_perceptron_epoch, args, steps, stats
    )


def averaged_perceptron_epoch(
    X, y, order, w, b, q, beta, j, eta, fit_intercept, mistakes, steps=None, stats=None
):
    """One speculative averaged-perceptron epoch, identical to the plain loop's.

    Same arguments and return value ``(b, beta, j)`` as
    :func:`perceptron_lib.loops.plain.averaged_perceptron_epoch`; ``stats`` as in
    :func:`perceptron_epoch`.
    """
    args = (X, y, order, w, b, q, beta, j, eta, fit_intercept, mistakes)
    return _speculate_if_it_pays(
        _plain_averaged_epoch, _speculative_averaged_epoch, args, steps, stats
    )
