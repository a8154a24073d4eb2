"""A step-by-step record of online training, for tables, animations and proofs."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray
from sklearn.base import clone

from ._online import OnlineLinearClassifier
from .multiclass import MulticlassPerceptron


class _RecordedSteps:
    """What a binary and a multiclass trace share: counts, and the weights after each update."""

    @property
    def n_steps(self) -> int:
        """Number of examples visited."""
        return int(self.index.shape[0])

    @property
    def n_mistakes(self) -> int:
        """Number of updates made."""
        return int(self.mistake.sum())

    def updates(self) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """Return the weights and biases after each update, starting from the initial ones.

        Entry ``k`` is the weights and bias after the k-th mistake; entry 0 is the
        start (for a multiclass trace, a weight matrix and a bias per class).
        """
        weights = np.concatenate([self.initial_weights[None], self.weights[self.mistake]])
        bias = np.concatenate([np.asarray(self.initial_bias)[None], self.bias[self.mistake]])
        return weights, bias


@dataclass(frozen=True)
class TrainingTrace(_RecordedSteps):
    """Every step of an online perceptron run, as arrays indexed by step.

    Step ``t`` visits example ``index[t]`` in epoch ``epoch[t]`` (from 0), with
    the weights as they were before the step; ``activation[t]`` is
    ``w . x + b`` for that example and ``mistake[t]`` whether
    ``y * activation <= 0``. ``weights[t]`` and ``bias[t]`` are the weights
    *after* the step. ``initial_weights`` and ``initial_bias`` are those before
    the first step (zero).

    Attributes
    ----------
    epoch, index : ndarray of int, shape (n_steps,)
    activation : ndarray of float, shape (n_steps,)
    mistake : ndarray of bool, shape (n_steps,)
    weights : ndarray of float, shape (n_steps, n_features)
    bias : ndarray of float, shape (n_steps,)
    labels : ndarray of float, shape (n_samples,)
        The training labels mapped to -1/+1.
    initial_weights : ndarray of float, shape (n_features,)
    initial_bias : float
    """

    epoch: NDArray[np.int64]
    index: NDArray[np.int64]
    activation: NDArray[np.float64]
    mistake: NDArray[np.bool_]
    weights: NDArray[np.float64]
    bias: NDArray[np.float64]
    labels: NDArray[np.float64]
    initial_weights: NDArray[np.float64]
    initial_bias: float

    def weights_before(self, step: int) -> tuple[NDArray[np.float64], float]:
        """Return ``(w, b)`` as they were just before ``step``."""
        if step == 0:
            return self.initial_weights, self.initial_bias
        return self.weights[step - 1], float(self.bias[step - 1])

    def rows(self, mistakes_only: bool = False) -> list[dict]:
        """Return the steps as a list of dicts, one per row of a table."""
        steps = np.flatnonzero(self.mistake) if mistakes_only else range(self.n_steps)
        return [
            {
                "epoch": int(self.epoch[t]),
                "example": int(self.index[t]),
                "y": int(self.labels[self.index[t]]),
                "activation": float(self.activation[t]),
                "mistake": bool(self.mistake[t]),
                "weights": self.weights[t].tolist(),
                "bias": float(self.bias[t]),
            }
            for t in steps
        ]


@dataclass(frozen=True)
class MulticlassTrace(_RecordedSteps):
    """Every step of a :class:`~perceptron_lib.MulticlassPerceptron` run.

    Step ``t`` visits example ``index[t]`` (of class index ``labels[index[t]]``) in
    epoch ``epoch[t]``; ``scores[t, k]`` is class k's score ``w_k . x + b_k``
    with the weights before the step, ``rival[t]`` the highest-scoring other
    class (the first on a tie) and ``mistake[t]`` whether its score was at least
    the true class's. ``weights[t]`` (one row per class) and ``bias[t]`` are the
    current weights *after* the step (not the averaged ones).

    Attributes
    ----------
    epoch, index, rival : ndarray of int, shape (n_steps,)
    scores : ndarray of float, shape (n_steps, n_classes)
    mistake : ndarray of bool, shape (n_steps,)
    weights : ndarray of float, shape (n_steps, n_classes, n_features)
    bias : ndarray of float, shape (n_steps, n_classes)
    labels : ndarray of int, shape (n_samples,)
        The training labels as class indices (positions in ``classes``).
    classes : ndarray of shape (n_classes,)
    initial_weights : ndarray of float, shape (n_classes, n_features)
    initial_bias : ndarray of float, shape (n_classes,)

    Examples
    --------
    >>> from perceptron_lib import MulticlassPerceptron, training_trace
    >>> X, y = [[-3.0], [-0.5], [2.0]], ["a", "b", "c"]
    >>> trace = training_trace(MulticlassPerceptron(shuffle=False, max_iter=1), X, y)
    >>> trace.mistake.tolist(), trace.rival.tolist()
    ([True, True, True], [1, 0, 1])
    >>> trace.scores[1].tolist()  # before step 1: class a now scores 2.5
    [2.5, -2.5, 0.0]
    >>> trace.weights[-1].ravel().tolist(), trace.bias[-1].tolist()
    ([-2.5, 0.5, 2.0], [0.0, -1.0, 1.0])
    """

    epoch: NDArray[np.int64]
    index: NDArray[np.int64]
    scores: NDArray[np.float64]
    rival: NDArray[np.int64]
    mistake: NDArray[np.bool_]
    weights: NDArray[np.float64]
    bias: NDArray[np.float64]
    labels: NDArray[np.int64]
    classes: NDArray
    initial_weights: NDArray[np.float64]
    initial_bias: NDArray[np.float64]


def _multiclass_trace(estimator: MulticlassPerceptron, X: ArrayLike, y: ArrayLike):
    """:func:`training_trace` for the multiclass perceptron."""
    model = clone(estimator)
    X, labels = model._prepare_multiclass(X, y, first_call=True, accept_sparse=False)
    record: list = []
    model._train(X, labels, record)  # fit's own epochs, with the loop recording
    orders, mistakes, rivals, steps = (np.concatenate(part) for part in zip(*record, strict=True))
    n_classes = model.classes_.shape[0]
    return MulticlassTrace(
        epoch=np.repeat(np.arange(len(record)), X.shape[0]).astype(np.int64),
        index=orders.astype(np.int64),
        scores=steps[:, :, 0].copy(),
        rival=rivals.astype(np.int64),
        mistake=mistakes.astype(np.bool_),
        weights=steps[:, :, 2:].copy(),
        bias=steps[:, :, 1].copy(),
        labels=labels.astype(np.int64),
        classes=model.classes_,
        initial_weights=np.zeros((n_classes, X.shape[1])),
        initial_bias=np.zeros(n_classes),
    )


def training_trace(
    estimator: OnlineLinearClassifier, X: ArrayLike, y: ArrayLike
) -> TrainingTrace | MulticlassTrace:
    """Fit a copy of an online perceptron and record every step of its training.

    The copy is trained by its own ``fit`` machinery: the same epochs, the same
    order of the examples (same ``shuffle`` and ``random_state``) and the same
    compiled training loop, which is asked to write each step into a record
    array as it goes (:mod:`perceptron_lib.loops.speculative` for the perceptron and the
    averaged perceptron, :mod:`perceptron_lib.loops.multiclass` for the multiclass
    perceptron, :mod:`perceptron_lib.loops.plain` otherwise). So the trace is a
    recording of the run, not a re-implementation: its last weights are, bit
    for bit, those ``estimator.fit(X, y)`` ends with (for the averaged and
    voted perceptrons: the current weights, not the averaged or voted ones).
    ``estimator`` itself is not changed, and no ``ConvergenceWarning`` is issued.

    For a :class:`~perceptron_lib.MulticlassPerceptron` (any number of classes)
    the record is a :class:`MulticlassTrace`: every class's score, the rival class
    and every class's weights at every step.

    Parameters
    ----------
    estimator : an online perceptron
        Perceptron, AveragedPerceptron, VotedPerceptron, MarginPerceptron or
        MulticlassPerceptron. Its parameters define the run; it need not be fitted.
    X : array-like of shape (n_samples, n_features)
        Dense examples.
    y : array-like of shape (n_samples,)
        Labels of two classes (of any number for the multiclass perceptron).

    Returns
    -------
    TrainingTrace or MulticlassTrace

    Examples
    --------
    The worked example of the lecture notes: no bias, four examples.

    >>> from perceptron_lib import Perceptron, training_trace
    >>> X = [[1, 3], [2, 3], [-3, 1], [1, -1]]
    >>> y = [1, -1, 1, -1]
    >>> model = Perceptron(shuffle=False, fit_intercept=False, max_iter=1)
    >>> trace = training_trace(model, X, y)
    >>> [w.tolist() for w in trace.updates()[0]]
    [[0.0, 0.0], [1.0, 3.0], [-1.0, 0.0]]
    """
    if isinstance(estimator, MulticlassPerceptron):
        return _multiclass_trace(estimator, X, y)
    if not isinstance(estimator, OnlineLinearClassifier):
        raise TypeError(
            "training_trace needs an online perceptron (Perceptron, AveragedPerceptron, "
            "VotedPerceptron, MarginPerceptron or MulticlassPerceptron), got "
            f"{type(estimator).__name__}."
        )
    model = clone(estimator)
    X, signed = model._prepare_fit(X, y)
    record: list = []
    model._train(X, signed, record)  # fit's own epochs, with the loop recording
    orders, mistakes, steps = (np.concatenate(part) for part in zip(*record, strict=True))
    epochs = np.repeat(np.arange(len(record)), X.shape[0])
    return TrainingTrace(
        epoch=epochs.astype(np.int64),
        index=orders.astype(np.int64),
        activation=steps[:, 0].copy(),
        mistake=mistakes.astype(np.bool_),
        weights=steps[:, 2:].copy(),
        bias=steps[:, 1].copy(),
        labels=signed,
        initial_weights=np.zeros(X.shape[1]),
        initial_bias=0.0,
    )
