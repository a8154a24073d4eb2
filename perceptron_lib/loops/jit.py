"""Compile the training loops with numba when it is available.

The loops in :mod:`perceptron_lib.loops.plain` are plain Python, written like the
pseudocode they implement. numba compiles them to machine code; without numba
(or with ``NUMBA_DISABLE_JIT=1``) the very same functions run as Python and give
the very same weights, only slower.
"""

from __future__ import annotations

try:
    from numba import njit as _numba_njit
except ImportError:  # pragma: no cover - exercised where numba is not installed
    _numba_njit = None

JIT_AVAILABLE = _numba_njit is not None


def compiled(function):
    """Return ``function`` compiled by numba if possible, else ``function`` itself.

    The Python original stays reachable as ``compiled(f).py_func`` in both cases,
    so tests can compare the two modes.
    """
    if _numba_njit is None:  # pragma: no cover
        function.py_func = function
        return function
    # cache=True keeps the compiled code on disk next to this package, so that
    # only the very first import on a machine pays the compile time.
    return _numba_njit(cache=True, nogil=True)(function)
