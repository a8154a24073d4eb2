"""Scoring a block of examples at once, exactly: the speculative epochs' activations.

:mod:`perceptron_lib.loops.speculative` runs the perceptron's epochs a block of
examples at a time between mistakes; this module computes the activations of such
a block with the current ``(w, b)``. Each one has the bits of
:func:`perceptron_lib.loops.plain.activation`: ``total = 0.0``, then
``total += w[j] * x[j]`` for ``j = 0, 1, ..., D - 1``, then ``+ b`` (see
:mod:`perceptron_lib.loops.speculative` for why no other order will do). Only
*which* independent sums run side by side changes:

- in one thread, four examples are scored together with four accumulators, one per
  example (:func:`block_activations`, while the data stay in cache,
  :data:`CACHE_BYTES`);
- with threads (numba ``prange``), different groups of examples go to different
  cores, for blocks of at least :data:`PARALLEL_WORK` multiply-adds only.

Threads are started here, once per process (:func:`_start_threading_layer`), and
taken without waiting (:class:`_ThreadsIfFree`): numba's default threading layer
aborts when two Python threads launch parallel regions at once.
"""

from __future__ import annotations

import threading

import numpy as np

from .jit import compiled
from .plain import activation

try:
    from numba import njit as _numba_njit
    from numba import prange
except ImportError:  # pragma: no cover - exercised where numba is not installed
    _numba_njit = None
    prange = range

__all__ = ["CACHE_BYTES", "LANES", "PARALLEL_WORK", "block_activations", "fits_in_cache"]

#: Threads only for blocks of at least this many multiply-adds (block x features).
PARALLEL_WORK = 1 << 18
#: Data sets up to this size (bytes) are scored four examples at a time in one
#: thread; larger ones stream from memory, where reading four rows at once was
#: measured slower than one (threads still pay there).
CACHE_BYTES = 8 << 20
#: Examples scored together by one thread, one accumulator each.
LANES = 4

_parallel_lock = threading.Lock()


def _compiled_parallel(function):
    """Like :func:`perceptron_lib.loops.jit.compiled`, with numba's ``parallel=True``."""
    if _numba_njit is None:  # pragma: no cover
        function.py_func = function
        return function
    return _numba_njit(cache=True, nogil=True, parallel=True)(function)


def fits_in_cache(X) -> bool:
    """Whether ``X`` is small enough (:data:`CACHE_BYTES`) for interleaved scoring to pay."""
    return X.nbytes <= CACHE_BYTES


@compiled
def _score_four(X, order, t, w, b, out):
    """Activations of examples ``order[t : t + 4]`` into ``out[t : t + 4]``.

    Four independent sums, each in the feature order of ``activation``.
    """
    x0 = X[order[t]]
    x1 = X[order[t + 1]]
    x2 = X[order[t + 2]]
    x3 = X[order[t + 3]]
    a0 = 0.0
    a1 = 0.0
    a2 = 0.0
    a3 = 0.0
    for j in range(w.shape[0]):
        wj = w[j]
        a0 += wj * x0[j]
        a1 += wj * x1[j]
        a2 += wj * x2[j]
        a3 += wj * x3[j]
    out[t] = a0 + b
    out[t + 1] = a1 + b
    out[t + 2] = a2 + b
    out[t + 3] = a3 + b


@compiled
def block_activations(X, order, start, stop, w, b, out, interleave):
    """Write the activation of example ``order[t]`` into ``out[t]``, ``start <= t < stop``.

    One thread. With ``interleave``, :data:`LANES` examples at a time, one
    accumulator each; either way each activation has exactly the bits of
    ``activation(w, b, X[order[t]])``.

    Examples
    --------
    >>> import numpy as np
    >>> from perceptron_lib.loops.plain import activation
    >>> X, w = np.arange(12.0).reshape(6, 2) / 7, np.array([0.3, -1.1])
    >>> out = np.empty(6)
    >>> block_activations(X, np.arange(6), 0, 6, w, 0.1, out, True)
    >>> bool((out == [activation(w, 0.1, x) for x in X]).all())
    True
    """
    t = start
    if interleave:
        while t + LANES <= stop:
            _score_four(X, order, t, w, b, out)
            t += LANES
    while t < stop:
        out[t] = activation(w, b, X[order[t]])
        t += 1


@_compiled_parallel
def _parallel_block_activations(X, order, start, stop, w, b, out, interleave):
    """:func:`block_activations` with the examples spread over threads."""
    if interleave:
        n_groups = (stop - start) // LANES
        for g in prange(n_groups):
            _score_four(X, order, start + g * LANES, w, b, out)
        for t in range(start + n_groups * LANES, stop):
            out[t] = activation(w, b, X[order[t]])
    else:
        for t in prange(start, stop):
            out[t] = activation(w, b, X[order[t]])


@compiled
def _score_block(X, order, start, stop, w, b, out, interleave, threads, stats):
    """Score ``order[start:stop]`` into ``out``: on threads if allowed and long enough.

    ``stats[4]``, if ``stats`` is given, counts the blocks run on threads.
    """
    # ``threads`` is None or an array: numba drops the branch when it is None, so
    # the parallel function is compiled only by a fit that may use threads.
    if threads is not None and (stop - start) * w.shape[0] >= PARALLEL_WORK:
        _parallel_block_activations(X, order, start, stop, w, b, out, interleave)
        if stats is not None:
            stats[4] += 1
    else:
        block_activations(X, order, start, stop, w, b, out, interleave)


class _ThreadsIfFree:
    """Context manager: True inside if this thread may launch parallel blocks now."""

    def __enter__(self) -> bool:
        self._owned = _parallel_lock.acquire(blocking=False)
        return self._owned

    def __exit__(self, *exc_info) -> None:
        if self._owned:
            _parallel_lock.release()


_threads_ready = False


def _start_threading_layer() -> None:
    """Start numba's thread pool once, by a call of the parallel function from Python.

    The compiled epochs contain the parallel block. Loaded from numba's cache, they
    would enter it without the thread pool ever having been started (numba starts it
    when a parallel function is called from Python), and crash, even if no block
    ever runs on threads. A tiny call from Python first starts it properly.
    """
    global _threads_ready
    if _threads_ready:
        return
    with _parallel_lock:  # the one blocking wait: once per process, for microseconds
        if not _threads_ready:
            one = np.zeros((1, 1))
            _parallel_block_activations(
                one, np.zeros(1, np.int64), 0, 1, one[0], 0.0, one[0], False
            )
            _threads_ready = True
