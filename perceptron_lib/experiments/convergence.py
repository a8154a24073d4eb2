"""The convergence theorem on real runs: its proof along a run, its bound against counts.

:mod:`perceptron_lib.theory.convergence` computes the theorem's quantities
(lifted radius, lifted margins, the bound); this module trains the perceptron
to hold them against what it does: :func:`proof_steps` follows each
inequality of the proof along a recorded run, :func:`bound_experiment` and
:func:`bound_case` count the mistakes on seeded data sets next to their bound.

Labels are -1 and +1. No function modifies its arguments.
"""

from __future__ import annotations

from numbers import Real
from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..data.datasets import make_separable
from ..perceptron import Perceptron
from ..theory.checks import _check_weights, _check_X
from ..theory.convergence import (
    LiftedSeparator,
    _check_constant,
    lift,
    lifted_radius,
    max_lifted_margin,
)
from ..trace import TrainingTrace

__all__ = [
    "BoundCase",
    "BoundMeasurement",
    "ProofSteps",
    "bound_case",
    "bound_experiment",
    "proof_steps",
]


class ProofSteps(NamedTuple):
    """The quantities of the convergence proof after each update ``k = 1..K`` of a run.

    ``alignment[k-1]`` is ``u . v_k`` and ``squared_norm[k-1]`` is
    ``||v_k||^2`` for the lifted weights ``v_k = (b_k / s, w_k)`` after the
    k-th update, divided by the learning rate so that they do not depend on
    it; ``cosine`` is ``u . v_k / ||v_k||``. The proof says, at every k,
    ``alignment >= k gamma``, ``squared_norm <= k R^2`` and
    ``cosine >= sqrt(k) gamma / R``.
    """

    k: NDArray[np.int64]
    alignment: NDArray[np.float64]
    squared_norm: NDArray[np.float64]
    cosine: NDArray[np.float64]
    gamma: float
    radius: float

    def smallest_slack(self) -> dict[str, float]:
        """The smallest relative slack of each inequality over all updates (>= 0 if it holds)."""
        k = self.k.astype(float)
        return {
            "alignment": float(np.min(self.alignment / (k * self.gamma) - 1.0)),
            "squared_norm": float(np.min(1.0 - self.squared_norm / (k * self.radius**2))),
            "cosine": float(np.min(self.cosine / (np.sqrt(k) * self.gamma / self.radius) - 1.0)),
        }


def proof_steps(
    trace: TrainingTrace,
    X: ArrayLike,
    unit_vector: ArrayLike,
    *,
    eta: float = 1.0,
    constant: float = 1.0,
) -> ProofSteps:
    """Follow the convergence proof along a recorded run, one entry per update.

    Parameters
    ----------
    trace : TrainingTrace
        From :func:`perceptron_lib.training_trace` (with a bias, constant 1).
    X : array-like of shape (n_samples, n_features)
        The data the trace was recorded on.
    unit_vector : array-like of shape (n_features + 1,)
        A lifted separator ``u = (b / s, w)`` of unit length, for example
        :attr:`LiftedSeparator.unit_vector`.
    eta : float, default 1.0
        The learning rate of the run (the weights are divided by it).
    constant : float, default 1.0
        The constant feature ``s`` the run was lifted with.

    Returns
    -------
    ProofSteps
        With ``gamma`` the lifted margin of ``u`` and ``radius`` the lifted radius.

    Examples
    --------
    >>> from perceptron_lib import Perceptron, hadamard_example, max_lifted_margin, training_trace
    >>> X, y = hadamard_example(4)
    >>> trace = training_trace(Perceptron(shuffle=False), X, y)
    >>> steps = proof_steps(trace, X, max_lifted_margin(X, y).unit_vector)
    >>> steps.k.tolist(), steps.alignment.round(9).tolist()
    ([1, 2, 3, 4], [1.0, 2.0, 3.0, 4.0])
    """
    if not isinstance(trace, TrainingTrace):
        raise TypeError(f"trace must be a TrainingTrace, got {type(trace).__name__}.")
    X = _check_X(X)
    s = _check_constant(constant)
    if isinstance(eta, bool) or not isinstance(eta, Real) or not 0 < eta < np.inf:
        raise ValueError(f"eta must be a finite number > 0, got {eta!r}.")
    u = _check_weights(unit_vector, X.shape[1] + 1)
    if not np.isclose(np.linalg.norm(u), 1.0, rtol=1e-12, atol=0.0):
        raise ValueError(f"unit_vector must have length 1, got {np.linalg.norm(u)!r}.")
    if X.shape[0] != trace.labels.shape[0] or trace.weights.shape[1] != X.shape[1]:
        raise ValueError("X must be the data the trace was recorded on.")
    weights, biases = trace.updates()
    lifted_weights = np.hstack([biases[1:, None] / s, weights[1:]]) / eta
    scores = trace.labels * (lift(X, s) @ u)
    if np.any(scores <= 0.0):
        raise ValueError("unit_vector does not separate the data: it has no margin.")
    alignment = lifted_weights @ u
    squared_norm = np.einsum("ij,ij->i", lifted_weights, lifted_weights)
    return ProofSteps(
        k=np.arange(1, lifted_weights.shape[0] + 1),
        alignment=alignment,
        squared_norm=squared_norm,
        cosine=alignment / np.sqrt(squared_norm),
        gamma=float(scores.min()),
        radius=lifted_radius(X, s),
    )


class BoundMeasurement(NamedTuple):
    """Mistakes counted against the bound, one entry per data set."""

    planted_margin: NDArray[np.float64]
    """The margin each data set was made with (radius 1, no intercept)."""
    lifted_margin: NDArray[np.float64]
    """Its largest lifted margin."""
    bound: NDArray[np.float64]
    """``(R / gamma)^2`` with the lifted radius and the largest lifted margin."""
    mistakes: NDArray[np.int64]
    """Mistakes the perceptron made until an epoch without one."""


def bound_experiment(
    margins: ArrayLike,
    *,
    n_samples: int = 100,
    n_features: int = 2,
    random_state: int = 0,
) -> BoundMeasurement:
    """Train the perceptron on one seeded data set per margin; count mistakes, compute bounds.

    Data set ``i`` is ``make_separable(n_samples, margin=margins[i], radius=1,
    n_features=n_features, random_state=random_state + i)`` and is learnt by
    ``Perceptron(shuffle=True, random_state=random_state + i)`` until an epoch
    without mistakes (which the theorem guarantees).

    Examples
    --------
    >>> result = bound_experiment([0.3, 0.1], n_samples=20)
    >>> bool(np.all(result.mistakes <= result.bound))
    True
    """
    margins = np.asarray(margins, dtype=np.float64)
    if margins.ndim != 1 or margins.size == 0:
        raise ValueError("margins must be a non-empty 1-d sequence of numbers.")
    found, bounds, counts = [], [], []
    for i, planted in enumerate(margins):
        seed = random_state + i
        data = make_separable(
            n_samples, margin=float(planted), n_features=n_features, random_state=seed
        )
        best = max_lifted_margin(data.X, data.y)
        found.append(best.margin)
        bounds.append((lifted_radius(data.X) / best.margin) ** 2)
        # The bound guarantees convergence long before this many epochs.
        epochs = int(np.ceil(bounds[-1])) + 2
        model = Perceptron(max_iter=epochs, random_state=seed).fit(data.X, data.y)
        if not model.converged_:  # pragma: no cover - would contradict the theorem
            raise RuntimeError(f"data set {i} did not converge in {epochs} epochs")
        counts.append(int(model.mistakes_per_epoch_.sum()))
    return BoundMeasurement(
        margins,
        np.array(found),
        np.array(bounds),
        np.array(counts, dtype=np.int64),
    )


class BoundCase(NamedTuple):
    """One seeded data set of a chosen margin and radius, its bound and the measured count."""

    X: NDArray[np.float64]
    y: NDArray[np.int64]
    lifted_radius: float
    best: LiftedSeparator
    bound: float
    model: Perceptron

    @property
    def mistakes(self) -> int:
        """Mistakes the perceptron made until an epoch without one."""
        return int(self.model.mistakes_per_epoch_.sum())


def bound_case(
    margin: float, radius: float = 1.0, *, n_samples: int = 60, random_state: int = 0
) -> BoundCase:
    """Make a separable data set (no intercept), compute its bound and train the perceptron.

    The data come from ``make_separable(n_samples, margin=margin, radius=radius,
    random_state=random_state)``; the bound uses the lifted radius and the
    largest lifted margin; the perceptron shuffles with the same seed.

    Examples
    --------
    >>> case = bound_case(0.2, random_state=1)
    >>> case.mistakes <= case.bound
    True
    """
    data = make_separable(n_samples, margin=margin, radius=radius, random_state=random_state)
    best = max_lifted_margin(data.X, data.y)
    big_r = lifted_radius(data.X)
    bound = (big_r / best.margin) ** 2
    epochs = int(np.ceil(bound)) + 2  # the theorem guarantees convergence before this
    model = Perceptron(max_iter=epochs, random_state=random_state).fit(data.X, data.y)
    return BoundCase(data.X, data.y, big_r, best, bound, model)
