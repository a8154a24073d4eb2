"""Small, seeded training experiments: the order of the examples, and error per pass.

Each function here runs the course's estimators many times or for many passes
and returns plain arrays, so that a chapter can print their mean and spread or
plot them. Every run is seeded from ``random_state``: the same call gives the
same numbers.
"""

from __future__ import annotations

import warnings
from numbers import Integral
from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike, NDArray
from sklearn.base import clone
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.validation import check_X_y

from ..perceptron import Perceptron

ORDERINGS = ("grouped", "permute_once", "permute_each_epoch")
"""The orderings :func:`ordering_experiment` knows.

``"grouped"``: every positive example, then every negative one (each group in a
random order drawn once per run), the same order in every pass.
``"permute_once"``: one random permutation per run, cycled in every pass.
``"permute_each_epoch"``: a fresh random permutation at every pass.
"""


class OrderingResult(NamedTuple):
    """Per-run results of :func:`ordering_experiment`, one entry per run."""

    strategy: str
    """The ordering used."""
    updates: NDArray[np.int64]
    """Number of updates (mistakes) until training stopped."""
    epochs: NDArray[np.int64]
    """Number of passes, including the final pass without a mistake."""
    converged: NDArray[np.bool_]
    """Whether the run ended with a pass without a mistake (not at ``max_iter``)."""


def _check_positive_int(value, name: str) -> int:
    if not isinstance(value, Integral) or isinstance(value, bool) or value < 1:
        raise ValueError(f"{name} must be an integer >= 1, got {value!r}.")
    return int(value)


def ordering_experiment(
    X: ArrayLike,
    y: ArrayLike,
    strategy: str,
    *,
    n_runs: int = 100,
    max_iter: int = 1000,
    random_state: int | None = None,
) -> OrderingResult:
    """Train a :class:`~perceptron_lib.Perceptron` ``n_runs`` times with one ordering of the data.

    Every run starts from zero weights with ``eta = 1`` and stops after the
    first pass without a mistake (or after ``max_iter`` passes; such runs are
    marked in ``converged`` instead of raising a warning).

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        Examples.
    y : array-like of shape (n_samples,)
        Two distinct labels; the larger one is the positive class.
    strategy : {"grouped", "permute_once", "permute_each_epoch"}
        How the examples are ordered (see :data:`ORDERINGS`).
    n_runs : int, default=100
        Number of runs, each with its own random order.
    max_iter : int, default=1000
        Maximum number of passes per run.
    random_state : int or None, default=None
        Seeds all runs.

    Returns
    -------
    OrderingResult

    Examples
    --------
    >>> from perceptron_lib.experiments.training import ordering_experiment
    >>> X = [[1.0, 1.0], [0.5, 3.0], [2.0, 2.0], [3.0, 0.5]]
    >>> y = [1, 1, -1, -1]
    >>> result = ordering_experiment(X, y, "permute_each_epoch", n_runs=5, random_state=0)
    >>> result.updates.shape, bool(result.converged.all())
    ((5,), True)
    >>> again = ordering_experiment(X, y, "permute_each_epoch", n_runs=5, random_state=0)
    >>> bool((again.updates == result.updates).all())
    True
    """
    if strategy not in ORDERINGS:
        raise ValueError(f"strategy must be one of {ORDERINGS}, got {strategy!r}.")
    n_runs = _check_positive_int(n_runs, "n_runs")
    max_iter = _check_positive_int(max_iter, "max_iter")
    X, y = check_X_y(X, y, dtype=np.float64)
    classes = np.unique(y)
    if classes.shape[0] != 2:
        raise ValueError(f"y must hold exactly two classes, got {classes.tolist()}.")
    positives = np.flatnonzero(y == classes[1])
    negatives = np.flatnonzero(y == classes[0])
    rng = np.random.default_rng(random_state)
    updates = np.zeros(n_runs, dtype=np.int64)
    epochs = np.zeros(n_runs, dtype=np.int64)
    converged = np.zeros(n_runs, dtype=np.bool_)
    for run in range(n_runs):
        if strategy == "permute_each_epoch":
            # The estimator itself re-permutes at every pass, from this run's seed.
            seed = int(rng.integers(2**31 - 1))
            model = Perceptron(shuffle=True, max_iter=max_iter, random_state=seed)
            order = np.arange(X.shape[0])
        else:
            model = Perceptron(shuffle=False, max_iter=max_iter)
            if strategy == "grouped":
                order = np.concatenate([rng.permutation(positives), rng.permutation(negatives)])
            else:
                order = rng.permutation(X.shape[0])
        with warnings.catch_warnings():
            # A run that hits max_iter is reported in `converged`, not as a warning.
            warnings.simplefilter("ignore", ConvergenceWarning)
            model.fit(X[order], y[order])
        updates[run] = model.mistakes_per_epoch_.sum()
        epochs[run] = model.n_iter_
        converged[run] = model.converged_
    return OrderingResult(strategy, updates, epochs, converged)


class ErrorCurve(NamedTuple):
    """Training and held-out error after each pass, from :func:`error_by_epoch`."""

    epochs: NDArray[np.int64]
    """The pass numbers 1, 2, ..., max_epochs."""
    train_error: NDArray[np.float64]
    """Fraction of training examples misclassified after each pass."""
    test_error: NDArray[np.float64]
    """Fraction of held-out examples misclassified after each pass."""


def error_by_epoch(
    estimator,
    X_train: ArrayLike,
    y_train: ArrayLike,
    X_test: ArrayLike,
    y_test: ArrayLike,
    max_epochs: int,
) -> ErrorCurve:
    """Train a copy of an online estimator one pass at a time and record its errors.

    Each pass is one call of ``partial_fit`` on the whole training set, so pass
    ``k`` leaves the same weights as ``fit`` with ``max_iter=k`` (for the same
    ``shuffle`` and ``random_state``). The estimator passed in is not changed.

    Parameters
    ----------
    estimator : estimator with ``partial_fit``
        For example ``Perceptron(random_state=0)`` or ``AveragedPerceptron()``.
    X_train, y_train : array-like
        Training data.
    X_test, y_test : array-like
        Held-out data, never trained on.
    max_epochs : int
        Number of passes, >= 1.

    Returns
    -------
    ErrorCurve

    Examples
    --------
    >>> from perceptron_lib import Perceptron
    >>> from perceptron_lib.experiments.training import error_by_epoch
    >>> X = [[1.0, 1.0], [0.5, 3.0], [2.0, 2.0]]
    >>> y = [1, 1, -1]
    >>> curve = error_by_epoch(Perceptron(shuffle=False), X, y, X, y, max_epochs=8)
    >>> curve.epochs.tolist()
    [1, 2, 3, 4, 5, 6, 7, 8]
    >>> float(curve.train_error[-1])
    0.0
    """
    if not hasattr(estimator, "partial_fit"):
        raise TypeError(
            f"error_by_epoch needs an estimator with partial_fit (an online perceptron), "
            f"got {type(estimator).__name__}."
        )
    max_epochs = _check_positive_int(max_epochs, "max_epochs")
    X_train, y_train = check_X_y(X_train, y_train, dtype=np.float64)
    X_test, y_test = check_X_y(X_test, y_test, dtype=np.float64)
    model = clone(estimator)
    classes = np.unique(y_train)
    train_error = np.zeros(max_epochs)
    test_error = np.zeros(max_epochs)
    for k in range(max_epochs):
        model.partial_fit(X_train, y_train, classes=classes)
        train_error[k] = np.mean(model.predict(X_train) != y_train)
        test_error[k] = np.mean(model.predict(X_test) != y_test)
    return ErrorCurve(np.arange(1, max_epochs + 1), train_error, test_error)
