"""Two losses for a linear classifier: the 0/1 loss and the perceptron criterion.

The 0/1 loss counts wrong predictions. It is what we care about, but it is flat
almost everywhere: a small change of ``(w, b)`` changes no prediction, so its
gradient is zero and tells gradient descent nothing. The perceptron criterion
``J(w, b) = (1/n) sum_i max(0, -y_i (w . x_i + b))`` instead charges each
misclassified example its activation, so it slopes down towards the solutions;
its gradient drives :class:`~perceptron_lib.BatchPerceptron`.

Labels are -1/+1 throughout, with the course's one convention for a = 0: the
prediction is +1 if a > 0 and -1 otherwise, so :func:`zero_one_loss` counts a
*positive* example at a = 0 as wrong and a negative one as right, exactly as
``predict`` does; the training test ``y * a <= 0`` (used by the criterion's
gradient) counts both as mistakes.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray


def _check(w: ArrayLike, b: float, X: ArrayLike, y: ArrayLike):
    w = np.asarray(w, dtype=np.float64)
    X = np.asarray(X, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    if X.ndim != 2 or w.shape != (X.shape[1],) or y.shape != (X.shape[0],):
        raise ValueError(
            "Expected w of shape (n_features,), X of shape (n_samples, n_features) and y of "
            f"shape (n_samples,), got {w.shape}, {X.shape} and {y.shape}."
        )
    if X.shape[0] == 0:
        raise ValueError("The loss of an empty data set is undefined: X has no rows.")
    if not np.isin(y, (-1.0, 1.0)).all():
        raise ValueError(f"Labels must be -1 or +1, got {np.unique(y).tolist()}.")
    margins = y * (X @ w + float(b))
    return X, y, margins


def zero_one_loss(w: ArrayLike, b: float, X: ArrayLike, y: ArrayLike) -> float:
    """Return the fraction of examples that the rule ``+1 if a > 0 else -1`` gets wrong.

    ``a = w . x + b``; the rule is the classifiers' ``predict``.

    Examples
    --------
    >>> zero_one_loss([1.0, 0.0], 0.0, [[2.0, 1.0], [-1.0, 3.0]], [1, 1])
    0.5

    At zero weights every activation is 0 and every prediction is -1: the
    negative example is right, the positive one wrong.

    >>> zero_one_loss([0.0, 0.0], 0.0, [[2.0, 1.0], [-1.0, 3.0]], [1, -1])
    0.5
    """
    X, y, _ = _check(w, b, X, y)
    predictions = np.where(X @ np.asarray(w, dtype=np.float64) + float(b) > 0, 1.0, -1.0)
    return float(np.mean(predictions != y))


def perceptron_criterion(w: ArrayLike, b: float, X: ArrayLike, y: ArrayLike) -> float:
    """Return ``(1/n) sum_i max(0, -y_i (w . x_i + b))``.

    Examples
    --------
    The second example is on the wrong side with activation -1:

    >>> perceptron_criterion([1.0, 0.0], 0.0, [[2.0, 1.0], [-1.0, 3.0]], [1, 1])
    0.5
    """
    _, _, margins = _check(w, b, X, y)
    return float(np.mean(np.maximum(0.0, -margins)))


def perceptron_criterion_gradient(
    w: ArrayLike, b: float, X: ArrayLike, y: ArrayLike
) -> tuple[NDArray[np.float64], float]:
    """Return a subgradient of :func:`perceptron_criterion` with respect to ``(w, b)``.

    It is ``-(1/n) sum y_i x_i`` over the examples with ``y_i (w . x_i + b) <= 0``
    (and ``-(1/n) sum y_i`` for ``b``); correctly classified examples contribute
    nothing. Where no activation is exactly 0 this is the gradient. At an
    activation of exactly 0 the criterion has a kink and no gradient; of the
    valid subgradients we pick the one that counts that example as a mistake,
    like the perceptron's test ``y * a <= 0`` (at ``w = 0, b = 0`` the vector 0
    would be a valid subgradient too, and descent would never start).

    Returns
    -------
    grad_w : ndarray of shape (n_features,)
    grad_b : float

    Examples
    --------
    >>> grad_w, grad_b = perceptron_criterion_gradient(
    ...     [1.0, 0.0], 0.0, [[2.0, 1.0], [-1.0, 3.0]], [1, 1]
    ... )
    >>> grad_w.tolist(), grad_b
    ([0.5, -1.5], -0.5)
    """
    X, y, margins = _check(w, b, X, y)
    wrong = margins <= 0
    n_samples = X.shape[0]
    grad_w = -(y[wrong] @ X[wrong]) / n_samples
    grad_b = -float(y[wrong].sum()) / n_samples
    return grad_w, grad_b
