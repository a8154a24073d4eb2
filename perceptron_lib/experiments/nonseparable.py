"""The mistake bound without separability on real runs: good directions, and the proof.

:mod:`perceptron_lib.theory.nonseparable` computes the deviations and the
bound ``((R + ||zeta||) / gamma)^2`` for a direction ``u``; this module trains
models to propose directions (:func:`candidate_directions`) and follows the
proof of the bound along a recorded run (:func:`deviation_proof_steps`).

Labels are -1 and +1. No function modifies its arguments.
"""

from __future__ import annotations

import warnings
from numbers import Real
from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike, NDArray
from sklearn.exceptions import ConvergenceWarning
from sklearn.svm import LinearSVC

from ..averaged import AveragedPerceptron
from ..theory.checks import _check_labels, _check_X
from ..theory.convergence import lift
from ..theory.nonseparable import _check_gamma, _check_unit_vector
from ..trace import TrainingTrace

__all__ = ["DeviationProofSteps", "candidate_directions", "deviation_proof_steps"]


def candidate_directions(
    X: ArrayLike, y: ArrayLike, *, random_state: int = 0, max_iter: int = 20
) -> dict[str, NDArray[np.float64]]:
    """Unit vectors of the lifted space that make good ``u``: trained linear classifiers.

    The averaged perceptron (``max_iter`` passes) and a linear support vector
    machine (hinge loss, ``C`` = 0.01, 0.1, 1 and 10: smaller ``C`` prefers a
    wider margin, larger fewer deviations); each lifted ``(b, w)`` is divided
    by its length. The theorem holds for every ``u``, so any of them gives a
    valid bound; these are simply directions along which most examples have a
    positive margin.

    Examples
    --------
    >>> X, y = [[1.0], [2.0], [-1.0], [-2.0]], [1, 1, -1, -1]
    >>> directions = candidate_directions(X, y)
    >>> list(directions)[:2]
    ['averaged perceptron', 'linear SVM, C = 0.01']
    >>> [round(float(np.linalg.norm(u)), 12) for u in directions.values()]
    [1.0, 1.0, 1.0, 1.0, 1.0]
    """
    X = _check_X(X)
    y = _check_labels(y, X.shape[0])
    averaged = AveragedPerceptron(max_iter=max_iter, random_state=random_state)
    with warnings.catch_warnings():
        # Expected on data that no hyperplane separates: the run cannot converge.
        warnings.simplefilter("ignore", ConvergenceWarning)
        averaged.fit(X, y)
    found = {"averaged perceptron": (averaged.intercept_, averaged.coef_)}
    for C in (0.01, 0.1, 1, 10):
        # The intercept is a feature of constant 1 here too (intercept_scaling=1).
        svm = LinearSVC(C=C, loss="hinge", dual=True, max_iter=100_000, random_state=random_state)
        svm.fit(X, y)
        found[f"linear SVM, C = {C}"] = (svm.intercept_, svm.coef_)
    directions = {}
    for name, (intercept, coef) in found.items():
        v = np.concatenate([np.ravel(intercept), np.ravel(coef)])
        directions[name] = v / np.linalg.norm(v)
    return directions


class DeviationProofSteps(NamedTuple):
    """The quantities of the proof of the bound after each update ``k = 1..K`` of a run.

    ``alignment[k-1]`` is ``u . v_k`` and ``squared_norm[k-1]`` is
    ``||v_k||^2`` for the lifted weights ``v_k`` after the k-th update,
    divided by the learning rate; ``deviation_sum[k-1]`` is the sum of the
    deviations of the examples of the first k updates, and
    ``mistake_deviation_norm[k-1]`` the square root of the sum of their
    squares. ``sequence_deviation_norm`` is ``||zeta||`` of the whole sequence
    the run visited (every visit, mistake or not). The proof says, at every k:
    ``alignment >= k gamma - deviation_sum``,
    ``deviation_sum <= sqrt(k) mistake_deviation_norm``,
    ``mistake_deviation_norm <= sequence_deviation_norm``,
    ``squared_norm <= k R^2``, hence
    ``sqrt(k) gamma <= R + sequence_deviation_norm``.
    """

    k: NDArray[np.int64]
    alignment: NDArray[np.float64]
    deviation_sum: NDArray[np.float64]
    mistake_deviation_norm: NDArray[np.float64]
    squared_norm: NDArray[np.float64]
    sequence_deviation_norm: float
    gamma: float
    radius: float


def deviation_proof_steps(
    trace: TrainingTrace,
    X: ArrayLike,
    unit_vector: ArrayLike,
    gamma: float,
    *,
    eta: float = 1.0,
) -> DeviationProofSteps:
    """Follow the proof of the bound ``((R + ||zeta||) / gamma)^2`` along a recorded run.

    Parameters
    ----------
    trace : TrainingTrace
        From :func:`perceptron_lib.training_trace` (with a bias, from zero),
        on data that need not be separable.
    X : array-like of shape (n_samples, n_features)
        The data the trace was recorded on.
    unit_vector : array-like of shape (n_features + 1,)
        Any unit vector ``u`` of the lifted space.
    gamma : float
        Any margin > 0.
    eta : float, default 1.0
        The learning rate of the run.

    Examples
    --------
    >>> from perceptron_lib import Perceptron, training_trace
    >>> X, y = [[1.0], [1.0]], [1, -1]  # an example and its contradiction
    >>> trace = training_trace(Perceptron(shuffle=False, max_iter=2), X, y)
    >>> steps = deviation_proof_steps(trace, X, [0.6, 0.8], 1.0)
    >>> steps.k.tolist(), steps.deviation_sum.round(9).tolist()
    ([1, 2, 3, 4], [0.0, 2.4, 2.4, 4.8])
    """
    if not isinstance(trace, TrainingTrace):
        raise TypeError(f"trace must be a TrainingTrace, got {type(trace).__name__}.")
    X = _check_X(X)
    u = _check_unit_vector(unit_vector, X.shape[1])
    gamma = _check_gamma(gamma)
    if isinstance(eta, bool) or not isinstance(eta, Real) or not 0 < eta < np.inf:
        raise ValueError(f"eta must be a finite number > 0, got {eta!r}.")
    if X.shape[0] != trace.labels.shape[0] or trace.weights.shape[1] != X.shape[1]:
        raise ValueError("X must be the data the trace was recorded on.")
    Z = lift(X)
    per_example = np.maximum(0.0, gamma - trace.labels * (Z @ u))
    visited = per_example[trace.index]  # the deviation of every visit, in order
    on_mistakes = visited[trace.mistake]
    weights, biases = trace.updates()
    lifted_weights = np.hstack([biases[1:, None], weights[1:]]) / eta
    return DeviationProofSteps(
        k=np.arange(1, lifted_weights.shape[0] + 1),
        alignment=lifted_weights @ u,
        deviation_sum=np.cumsum(on_mistakes),
        mistake_deviation_norm=np.sqrt(np.cumsum(on_mistakes**2)),
        squared_norm=np.einsum("ij,ij->i", lifted_weights, lifted_weights),
        sequence_deviation_norm=float(np.sqrt(np.sum(visited**2))),
        gamma=gamma,
        radius=float(np.linalg.norm(Z, axis=1).max()),
    )
