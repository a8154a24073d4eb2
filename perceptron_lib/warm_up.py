"""Compile the training loops once, ahead of time, so that a first fit is quick.

numba compiles a loop the first time it is called and keeps the machine code in
its cache on disk (``cache=True``, next to the package). In a fresh environment
the first ``fit`` therefore pays the compile time, seconds, before it trains.
:func:`warm_up` pays it in advance by fitting every estimator of the library
once, and recording one training trace, on a small data set, then by running the
speculative epochs that larger fits use (small fits run the plain loop, see
:data:`perceptron_lib.loops.speculative.SPECULATE_MIN_WORK`). Binder's image
build runs it (``binder/postBuild``), so a student's first "Run" loads compiled
code from the cache instead of compiling it.

Usage: ``python -m perceptron_lib.warm_up`` prints the time of each fit.
"""

from __future__ import annotations

import inspect
import time
import warnings

import numpy as np
from sklearn.base import ClassifierMixin
from sklearn.exceptions import ConvergenceWarning


def _estimator_classes() -> list[type]:
    """Every classifier the package exports, by name (so that new ones are included)."""
    import perceptron_lib

    return [
        value
        for name in perceptron_lib.__all__
        if inspect.isclass(value := getattr(perceptron_lib, name))
        and issubclass(value, ClassifierMixin)
    ]


def warm_up() -> dict[str, float]:
    """Fit each estimator once (and trace one run); return each step's time in seconds.

    Returns
    -------
    dict
        ``{"Perceptron.fit": seconds, ..., "training_trace": seconds}``, in the
        order the steps ran. A step that compiles takes seconds; once the
        cache holds its code, milliseconds.

    Examples
    --------
    >>> times = warm_up()
    >>> "Perceptron.fit" in times and all(t >= 0 for t in times.values())
    True
    """
    from perceptron_lib import Perceptron, make_separable, training_trace

    data = make_separable(40, margin=0.1, random_state=0)
    times = {}
    with warnings.catch_warnings():
        # A few passes may not separate the data; that does not matter here.
        warnings.simplefilter("ignore", ConvergenceWarning)
        for estimator_class in _estimator_classes():
            start = time.perf_counter()
            estimator_class().fit(data.X, data.y)
            times[f"{estimator_class.__name__}.fit"] = time.perf_counter() - start
        start = time.perf_counter()
        training_trace(Perceptron(random_state=0), data.X, data.y)
        times["training_trace"] = time.perf_counter() - start
        times.update(_many_classes_and_sequences(data.X))
    start = time.perf_counter()
    _speculative_epochs(data.X, np.where(data.y == data.y.max(), 1.0, -1.0))
    times["speculative epochs"] = time.perf_counter() - start
    return times


def _many_classes_and_sequences(X) -> dict[str, float]:
    """The joint multiclass loops (dense, sparse, traced) and Viterbi, each run once.

    The loop above fits every classifier on two classes and dense data; these
    loops are compiled only for three or more classes, CSR input, a multiclass
    trace and sequences.
    """
    from scipy import sparse

    from perceptron_lib import MulticlassPerceptron, StructuredPerceptron, training_trace

    three = np.arange(X.shape[0]) % 3
    times = {}
    for name, data in (("dense", X), ("sparse", sparse.csr_matrix(X))):
        start = time.perf_counter()
        MulticlassPerceptron(max_iter=2, random_state=0).fit(data, three)
        times[f"MulticlassPerceptron.fit ({name})"] = time.perf_counter() - start
    start = time.perf_counter()
    training_trace(MulticlassPerceptron(max_iter=2, random_state=0), X, three)
    times["multiclass training_trace"] = time.perf_counter() - start
    start = time.perf_counter()
    StructuredPerceptron(max_iter=2, random_state=0).fit(
        [X[:5], X[5:12]], [three[:5], three[5:12]]
    )
    times["StructuredPerceptron.fit"] = time.perf_counter() - start
    return times


def _speculative_epochs(X, y) -> None:
    """One speculative epoch of each kind, as a fit on large data (and the statistics) run it."""
    from perceptron_lib.loops import speculative as _speculative

    X = np.ascontiguousarray(X, dtype=np.float64)
    n, d = X.shape
    order = np.arange(n)
    stats = np.zeros(len(_speculative.STAT_NAMES), dtype=np.int64)
    for recorded in (None, stats):  # a fit; speculation.speculative_epoch_statistics
        mistakes = np.zeros(n, dtype=np.bool_)
        _speculative.perceptron_epoch(
            X, y, order, np.zeros(d), 0.0, 1.0, True, mistakes, None, recorded
        )
    mistakes = np.zeros(n, dtype=np.bool_)
    _speculative.averaged_perceptron_epoch(
        X, y, order, np.zeros(d), 0.0, np.zeros(d), 0.0, 1.0, 1.0, True, mistakes
    )


if __name__ == "__main__":
    for step, seconds in warm_up().items():
        print(f"{step:<32} {seconds:8.3f} s")
