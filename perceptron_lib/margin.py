"""The margin perceptron: update whenever ``y * a <= tau``, not only on mistakes.

With ``tau = 0`` it is the perceptron. With ``tau > 0`` an example that is on
its correct side but closer than ``tau`` (in activation) still triggers the
update, so training stops only when every example has ``y * a > tau``: the
final boundary keeps some distance from the data. It is a first step from the
perceptron towards the maximum-margin separator of support vector machines.
"""

from __future__ import annotations

import math
from numbers import Real

import numpy as np
from numpy.typing import NDArray
from sklearn.utils._param_validation import Interval

from ._base import is_sparse
from ._online import OnlineLinearClassifier
from .loops.jit import compiled
from .loops.plain import activation, record_step
from .loops.sparse import sparse_margin_perceptron_epoch


@compiled
def margin_perceptron_epoch(X, y, order, w, b, eta, tau, fit_intercept, updates, steps=None):
    """One pass of the margin perceptron over ``X[order]``.

    ``w`` is updated in place; ``updates[t]`` is set to whether the t-th
    example visited triggered an update; ``steps``, if given, records every
    step as in :func:`perceptron_lib.loops.plain.perceptron_epoch`. Returns the new
    bias (NaN if an activation overflowed).
    """
    for t in range(order.shape[0]):
        i = order[t]
        a = activation(w, b, X[i])
        if not math.isfinite(a):
            return math.nan  # overflow: the caller raises
        # tau = 0 is exactly the perceptron's test y * a <= 0.
        updates[t] = y[i] * a <= tau
        if updates[t]:
            step = eta * y[i]
            for j in range(w.shape[0]):
                w[j] += step * X[i, j]
            if fit_intercept:
                b += step
        if steps is not None:
            record_step(steps, t, a, b, w)
    return b


class MarginPerceptron(OnlineLinearClassifier):
    """The perceptron that also updates on correct examples with ``y * a <= tau``.

    Starting from ``w = 0, b = 0``, it visits the examples one at a time and,
    whenever ``y * (w . x + b) <= tau`` (labels mapped to -1/+1), updates
    ``w <- w + eta * y * x`` and ``b <- b + eta * y``. Training stops after the
    first epoch without an update, when every example has ``y * a > tau``, or
    after ``max_iter`` epochs with a ConvergenceWarning.

    Unlike the perceptron's, its decisions depend on ``eta``: only the ratio
    ``tau / eta`` matters. In exact arithmetic (and in floating point when
    ``eta`` is a power of two) the weights are ``eta`` times those of
    ``eta = 1`` and ``tau / eta``.

    Parameters
    ----------
    tau : float, default=1.0
        The activation an example must exceed, >= 0 and finite; 0 gives the
        perceptron.
    eta : float, default=1.0
        Learning rate, > 0.
    max_iter : int, default=1000
        Maximum number of epochs, >= 1.
    shuffle : bool, default=True
        Visit the examples in a new random order every epoch.
    fit_intercept : bool, default=True
        Learn the bias ``b``.
    random_state : int, RandomState instance or None, default=None
        Seeds the order of the examples when ``shuffle=True``.
    n_jobs : int or None, default=1
        With more than two classes: how many threads fit the binary models of
        one-vs-rest at once, in ``fit`` and ``partial_fit``. None means 1 (unless inside a
        ``joblib.parallel_backend`` context), -1 every core. The weights do not
        depend on it.

    Attributes
    ----------
    classes_, coef_, intercept_, n_features_in_, n_iter_, converged_
        As for :class:`~perceptron_lib.Perceptron`.
    mistakes_per_epoch_ : ndarray of shape (n_iter_,)
        Number of updates made in each epoch (mistakes and examples within
        ``tau``).

    Examples
    --------
    >>> from perceptron_lib import Perceptron
    >>> X = [[1.0, 1.0], [0.5, 3.0], [2.0, 2.0]]
    >>> y = [1, 1, -1]
    >>> model = MarginPerceptron(tau=0.0, shuffle=False).fit(X, y)
    >>> plain = Perceptron(shuffle=False).fit(X, y)
    >>> model.coef_.tolist() == plain.coef_.tolist()
    True
    >>> wide = MarginPerceptron(tau=5.0, shuffle=False).fit(X, y)
    >>> bool(min(wide.decision_function(X) * [1, 1, -1]) > 5.0)
    True
    """

    _parameter_constraints: dict = {
        **OnlineLinearClassifier._parameter_constraints,
        "tau": [Interval(Real, 0, None, closed="left")],
    }

    def __init__(
        self,
        *,
        tau: float = 1.0,
        eta: float = 1.0,
        max_iter: int = 1000,
        shuffle: bool = True,
        fit_intercept: bool = True,
        random_state=None,
        n_jobs: int | None = 1,
    ):
        super().__init__(
            eta=eta,
            max_iter=max_iter,
            shuffle=shuffle,
            fit_intercept=fit_intercept,
            random_state=random_state,
            n_jobs=n_jobs,
        )
        self.tau = tau

    def _start(self, n_features: int) -> None:
        self.coef_ = np.zeros(n_features)
        self.intercept_ = 0.0

    def _run_epoch(
        self, X: NDArray, y: NDArray, order: NDArray, updates: NDArray, steps=None
    ) -> None:
        state = (
            self.coef_,
            self.intercept_,
            float(self.eta),
            float(self.tau),
            self.fit_intercept,
            updates,
        )
        if is_sparse(X):
            b = sparse_margin_perceptron_epoch(X.data, X.indices, X.indptr, y, order, *state)
        else:
            b = margin_perceptron_epoch(X, y, order, *state, steps)
        self.intercept_ = float(b)
