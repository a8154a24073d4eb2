"""Voting and averaging, taken apart on real runs: the quantities chapter 6 measures.

:class:`~perceptron_lib.VotedPerceptron` and
:class:`~perceptron_lib.AveragedPerceptron` give the answers; this module
trains them (or reads a recorded run) to compute the same things the slow,
obvious way, so that a chapter (and a test) can check the fast forms:

- :func:`naive_average`: the mean of every weight vector of a run, one per
  example visited (what Daume's Algorithm 7 computes without storing them);
- :func:`voting_snapshots`: the vectors and survival counts after each pass;
- :func:`last_update`: the final update of a run, to see what it did;
- :func:`compare_last_voted_averaged`: test error of the three predictions
  against passes, over seeded splits;
- :func:`model_nbytes` and :func:`median_time`: what a prediction costs.

The vote and the weighted sum themselves, from a list of vectors, are in
:mod:`perceptron_lib.theory.averaging`. The prediction convention is the
course's: a vector predicts +1 iff its activation ``w . x + b`` is positive.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from numbers import Integral, Real
from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike, NDArray
from sklearn.base import clone
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler
from sklearn.utils.validation import check_X_y

from ..averaged import AveragedPerceptron
from ..trace import TrainingTrace
from ..voted import VotedPerceptron

__all__ = [
    "LastUpdate",
    "VotingComparison",
    "VotingSnapshot",
    "compare_last_voted_averaged",
    "last_update",
    "median_time",
    "model_nbytes",
    "naive_average",
    "voting_snapshots",
]


def _check_trace(trace: TrainingTrace) -> TrainingTrace:
    if not isinstance(trace, TrainingTrace):
        raise TypeError(
            f"trace must be a TrainingTrace (from training_trace), got {type(trace).__name__}."
        )
    return trace


def naive_average(trace: TrainingTrace) -> tuple[NDArray[np.float64], float]:
    """Return the mean of the ``T + 1`` weight vectors ``w_0 = 0, w_1, ..., w_T`` of a run.

    ``w_t`` is the weight vector after the t-th example visited (changed or
    not), so a vector that survives many examples is counted many times. This
    is the average the averaged perceptron predicts with, computed the slow
    way: by storing every vector.

    Parameters
    ----------
    trace : TrainingTrace
        From :func:`~perceptron_lib.training_trace`.

    Returns
    -------
    w : ndarray of shape (n_features,)
    b : float

    Examples
    --------
    >>> from perceptron_lib import Perceptron, training_trace
    >>> trace = training_trace(Perceptron(shuffle=False), [[1.0], [-1.0]], [1, -1])
    >>> [w.tolist() for w in trace.weights], trace.bias.tolist()
    ([[1.0], [2.0], [2.0], [2.0]], [1.0, 0.0, 0.0, 0.0])
    >>> w, b = naive_average(trace)  # w: (0 + 1 + 2 + 2 + 2) / 5, b: (0 + 1) / 5
    >>> w.tolist(), round(b, 12)
    ([1.4], 0.2)
    """
    trace = _check_trace(trace)
    weights = np.vstack([trace.initial_weights, trace.weights])
    biases = np.concatenate([[trace.initial_bias], trace.bias])
    return weights.mean(axis=0), float(biases.mean())


class VotingSnapshot(NamedTuple):
    """The voted perceptron's vectors after a number of passes, from :func:`voting_snapshots`."""

    passes: int
    """Passes made so far."""
    weights: NDArray[np.float64]
    """Every weight vector so far, shape (n_vectors, n_features)."""
    intercepts: NDArray[np.float64]
    """Their biases."""
    counts: NDArray[np.int64]
    """Their survival counts so far (the last one is still growing)."""


def voting_snapshots(
    estimator: VotedPerceptron, X: ArrayLike, y: ArrayLike, n_passes: int
) -> list[VotingSnapshot]:
    """Train a copy of a voted perceptron pass by pass; return its vectors after each pass.

    Parameters
    ----------
    estimator : VotedPerceptron
        Its parameters define the run (it is not changed).
    X, y : array-like
        Training data.
    n_passes : int
        Number of passes, >= 1 (made even if a pass has no mistake).

    Returns
    -------
    list of VotingSnapshot, one per pass

    Examples
    --------
    >>> from perceptron_lib import VotedPerceptron
    >>> X, y = [[1.0, 1.0], [0.5, 3.0], [2.0, 2.0]], [1, 1, -1]
    >>> snaps = voting_snapshots(VotedPerceptron(shuffle=False), X, y, 2)
    >>> [(s.passes, s.counts.tolist()) for s in snaps]
    [(1, [2, 1]), (2, [2, 1, 2, 1])]
    """
    if not isinstance(estimator, VotedPerceptron):
        raise TypeError(f"estimator must be a VotedPerceptron, got {type(estimator).__name__}.")
    n_passes = _check_count(n_passes, "n_passes")
    model = clone(estimator)
    X, y = check_X_y(X, y, dtype=np.float64)
    classes = np.unique(y)
    snapshots = []
    for k in range(1, n_passes + 1):
        model.partial_fit(X, y, classes=classes)
        snapshots.append(
            VotingSnapshot(
                k,
                model.weights_.copy(),
                model.intercepts_.copy(),
                model.survival_counts_.copy(),
            )
        )
    return snapshots


class LastUpdate(NamedTuple):
    """The final update of a run, from :func:`last_update`."""

    step: int
    """Its position among the examples visited (from 0)."""
    index: int
    """The example that caused it."""
    weights_before: NDArray[np.float64]
    bias_before: float
    weights_after: NDArray[np.float64]
    bias_after: float
    examples_after: int
    """How many examples were visited after it (the last vector's survival)."""


def last_update(trace: TrainingTrace) -> LastUpdate:
    """Return the last update of a traced run: where it happened and what it changed.

    Raises
    ------
    ValueError
        If the run made no update.

    Examples
    --------
    >>> from perceptron_lib import Perceptron, training_trace
    >>> trace = training_trace(Perceptron(shuffle=False), [[1.0], [-1.0]], [1, -1])
    >>> update = last_update(trace)
    >>> update.step, update.index, update.weights_after.tolist(), update.examples_after
    (1, 1, [2.0], 2)
    """
    trace = _check_trace(trace)
    steps = np.flatnonzero(trace.mistake)
    if steps.size == 0:
        raise ValueError("The run made no update, so it has no last update.")
    step = int(steps[-1])
    w_before, b_before = trace.weights_before(step)
    return LastUpdate(
        step=step,
        index=int(trace.index[step]),
        weights_before=np.array(w_before),
        bias_before=float(b_before),
        weights_after=trace.weights[step].copy(),
        bias_after=float(trace.bias[step]),
        examples_after=trace.n_steps - 1 - step,
    )


# -- the comparison on real data ---------------------------------------------


class VotingComparison(NamedTuple):
    """Test errors from :func:`compare_last_voted_averaged`, shape (n_splits, max_passes) each."""

    passes: NDArray[np.int64]
    """1, 2, ..., max_passes."""
    last: NDArray[np.float64]
    """Test error of the last weight vector after each pass."""
    voted: NDArray[np.float64]
    """Test error of the vote."""
    averaged: NDArray[np.float64]
    """Test error of the averaged vector."""
    n_vectors: NDArray[np.int64]
    """Number of vectors the vote stores after each pass."""


def _check_count(value, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, Integral) or value < 1:
        raise ValueError(f"{name} must be an integer >= 1, got {value!r}.")
    return int(value)


def compare_last_voted_averaged(
    X: ArrayLike,
    y: ArrayLike,
    *,
    max_passes: int = 20,
    n_splits: int = 20,
    test_size: float = 0.5,
    label_noise: float = 0.0,
    standardize: bool = False,
    random_state: int = 0,
) -> VotingComparison:
    """Test error of the last, the voted and the averaged perceptron against passes.

    For each of ``n_splits`` seeded stratified splits, the three predictions
    come from *one* run: a :class:`VotedPerceptron` and an
    :class:`AveragedPerceptron` with the same seed visit the examples in the same
    order and make the same updates (the last vector is the voted perceptron's
    ``coef_``). Examples are re-permuted every pass.

    Parameters
    ----------
    X, y : array-like
        Examples and two distinct labels.
    max_passes : int, default=20
    n_splits : int, default=20
    test_size : float, default=0.5
        Share of the data held out, in (0, 1).
    label_noise : float, default=0.0
        Share of *training* labels flipped at random, in [0, 0.5); the test
        labels stay clean.
    standardize : bool, default=False
        Scale features with the training split's mean and standard deviation.
    random_state : int, default=0
        Split ``s`` uses seed ``random_state + s`` for the split, the noise and
        the order.

    Returns
    -------
    VotingComparison

    Examples
    --------
    >>> from perceptron_lib.data.datasets import load_digits_pair
    >>> task = load_digits_pair(1, 7)
    >>> result = compare_last_voted_averaged(task.X, task.y, max_passes=3, n_splits=2)
    >>> result.voted.shape, bool((result.n_vectors[:, 0] > 0).all())
    ((2, 3), True)
    """
    max_passes = _check_count(max_passes, "max_passes")
    n_splits = _check_count(n_splits, "n_splits")
    for name, value, high in (
        ("test_size", test_size, 1.0),
        ("label_noise", label_noise, 0.5),
    ):
        if isinstance(value, bool) or not isinstance(value, Real) or not 0 <= value < high:
            raise ValueError(f"{name} must be a number in [0, {high}), got {value!r}.")
    if test_size == 0:
        raise ValueError("test_size must be > 0: the comparison needs held-out data.")
    X, y = check_X_y(X, y, dtype=np.float64)
    classes = np.unique(y)
    if classes.shape[0] != 2:
        raise ValueError(f"y must hold exactly two classes, got {classes.tolist()}.")
    shape = (n_splits, max_passes)
    errors = {name: np.zeros(shape) for name in ("last", "voted", "averaged")}
    n_vectors = np.zeros(shape, dtype=np.int64)
    for split in range(n_splits):
        seed = random_state + split
        X_train, X_test, y_train, y_test = train_test_split(
            X, y, test_size=test_size, random_state=seed, stratify=y
        )
        if standardize:
            scaler = StandardScaler().fit(X_train)
            X_train, X_test = scaler.transform(X_train), scaler.transform(X_test)
        if label_noise > 0:
            flip = np.random.default_rng(seed).random(y_train.shape[0]) < label_noise
            y_train = np.where(flip, np.where(y_train == classes[0], *classes[::-1]), y_train)
        voted = VotedPerceptron(random_state=seed)
        averaged = AveragedPerceptron(random_state=seed)
        counts_after = []
        for k in range(max_passes):
            voted.partial_fit(X_train, y_train, classes=classes)
            averaged.partial_fit(X_train, y_train, classes=classes)
            last = X_test @ voted.coef_ + voted.intercept_ > 0
            errors["last"][split, k] = np.mean(voted.classes_[last.astype(int)] != y_test)
            errors["averaged"][split, k] = np.mean(averaged.predict(X_test) != y_test)
            counts_after.append(voted.survival_counts_.astype(np.float64))
            n_vectors[split, k] = voted.weights_.shape[0]
        # Vectors are only ever appended, so every pass's vote uses a prefix of the
        # final ones: their predictions on the test set are computed once.
        predictions = np.where(X_test @ voted.weights_.T + voted.intercepts_ > 0, 1.0, -1.0)
        for k, counts in enumerate(counts_after):
            votes = predictions[:, : counts.shape[0]] @ counts
            errors["voted"][split, k] = np.mean(voted.classes_[(votes > 0).astype(int)] != y_test)
    return VotingComparison(
        np.arange(1, max_passes + 1),
        errors["last"],
        errors["voted"],
        errors["averaged"],
        n_vectors,
    )


# -- what a prediction costs ---------------------------------------------------


def model_nbytes(model) -> int:
    """Return the bytes a fitted perceptron keeps for prediction.

    For a :class:`VotedPerceptron`: every vector, bias and survival count. For
    the other linear models: ``coef_`` and the bias (8 bytes).

    Examples
    --------
    >>> from perceptron_lib import AveragedPerceptron
    >>> model_nbytes(AveragedPerceptron().fit([[0.0, 1.0], [1.0, 0.0]], [0, 1]))
    24
    """
    if isinstance(model, VotedPerceptron) and hasattr(model, "weights_"):
        return int(
            model.weights_.nbytes + model.intercepts_.nbytes + model.survival_counts_.nbytes
        )
    if not hasattr(model, "coef_"):
        raise ValueError(f"{type(model).__name__} is not fitted: it has no coef_.")
    return int(np.asarray(model.coef_, dtype=np.float64).nbytes + 8)


def median_time(function: Callable[[], object], *, repeats: int = 7, number: int = 1) -> float:
    """Return the median, over ``repeats``, of the time of ``number`` calls of ``function``.

    The median of several repeats shrugs off the odd slow run (another
    process taking the core), which a single timing or a mean would not. The
    result is in seconds per call.

    Examples
    --------
    >>> median_time(lambda: sum(range(100)), repeats=3) > 0
    True
    """
    if not callable(function):
        raise TypeError(f"function must be callable, got {type(function).__name__}.")
    repeats = _check_count(repeats, "repeats")
    number = _check_count(number, "number")
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(number):
            function()
        times.append((time.perf_counter() - start) / number)
    return float(np.median(times))
