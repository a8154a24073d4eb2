"""The averaged perceptron, with Daume's cached-weights trick (Algorithm 7)."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from ._base import is_sparse, unchecked_overflow
from ._online import OnlineLinearClassifier
from .loops.plain import averaged_perceptron_epoch as plain_averaged_epoch
from .loops.sparse import sparse_averaged_perceptron_epoch
from .loops.speculative import averaged_perceptron_epoch, speculation_pays


class AveragedPerceptron(OnlineLinearClassifier):
    """The perceptron that predicts with the average of its weight vectors.

    Training is exactly that of :class:`Perceptron` on the current weights
    ``(w, b)``. Alongside, it keeps the sums ``q`` and ``beta`` of every update
    multiplied by the example counter ``j`` at the moment of the update (``j``
    starts at 1 and grows by one per example visited). The averaged weights are
    then ``w - q / j`` and ``b - beta / j``: no averaging per example and no
    stored history (Algorithm 7 of Daume's *A Course in Machine Learning*, ch. 4).

    After ``T`` examples have been visited this equals the mean of the ``T + 1``
    weight vectors ``w_0 = 0, w_1, ..., w_T``, where ``w_t`` is the weight vector
    after the t-th example. scikit-learn's ``SGDClassifier(loss="perceptron",
    average=True)`` runs the same updates only with ``learning_rate="constant",
    eta0=1, penalty=None, shuffle=False, tol=None`` (its defaults regularise,
    shuffle and use another step size, and the relation fails). With those
    settings it averages ``w_1, ..., w_T``, so its ``coef_`` *and* its
    ``intercept_`` are these times ``(T + 1) / T`` (up to rounding): the whole
    activation is scaled by a positive number, hence the predictions agree,
    with or without ``fit_intercept`` (barring activations within rounding of 0).

    Parameters
    ----------
    eta : float, default=1.0
        Learning rate, > 0.
    max_iter : int, default=1000
        Maximum number of epochs, >= 1.
    shuffle : bool, default=True
        Visit the examples in a new random order every epoch.
    fit_intercept : bool, default=True
        Learn the bias.
    random_state : int, RandomState instance or None, default=None
        Seeds the order of the examples when ``shuffle=True``.
    n_jobs : int or None, default=1
        With more than two classes: how many threads fit the binary models of
        one-vs-rest at once, in ``fit`` and ``partial_fit``. None means 1 (unless inside a
        ``joblib.parallel_backend`` context), -1 every core. The weights do not
        depend on it.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        The labels, sorted; with two, ``classes_[1]`` is the positive class.
    coef_ : ndarray of shape (n_features,) or (n_classes, n_features)
        The averaged weight vector (one row per class with more than two
        classes, one-vs-rest).
    intercept_ : float or ndarray of shape (n_classes,)
        The averaged bias.
    last_coef_ : ndarray of shape (n_features,) or (n_classes, n_features)
        The current (last) weight vector, as :class:`Perceptron` would return it.
    last_intercept_ : float or ndarray of shape (n_classes,)
        The current (last) bias.
    estimators_ : list of AveragedPerceptron
        With more than two classes only: the binary model of each class.
    n_features_in_ : int
        Number of features seen during ``fit``.
    n_iter_ : int
        Number of epochs run, including a final mistake-free one.
    converged_ : bool
        Whether the last epoch made no mistake.
    mistakes_per_epoch_ : ndarray of shape (n_iter_,)
        Number of updates made in each epoch.

    See Also
    --------
    Perceptron : Predicts with the last weight vector.
    VotedPerceptron : The average's ancestor: every weight vector votes.

    Examples
    --------
    >>> from perceptron_lib import AveragedPerceptron, Perceptron
    >>> X = [[1.0, 1.0], [0.5, 3.0], [2.0, 2.0]]
    >>> y = [1, 1, -1]
    >>> averaged = AveragedPerceptron(shuffle=False).fit(X, y)
    >>> averaged.predict(X).tolist()
    [1, 1, -1]
    >>> last = Perceptron(shuffle=False).fit(X, y)
    >>> bool((averaged.last_coef_ == last.coef_).all())
    True
    """

    _stacked_attributes = ("last_coef_", "last_intercept_")
    _updated_in_place = ("last_coef_", "_cached_coef")

    def _start(self, n_features: int) -> None:
        self.last_coef_ = np.zeros(n_features)
        self.last_intercept_ = 0.0
        self._cached_coef = np.zeros(n_features)  # q in Algorithm 7 (CIML ch. 4)
        self._cached_intercept = 0.0  # beta in Algorithm 7
        self._counter = 1.0  # j in Algorithm 7

    def _run_epoch(
        self, X: NDArray, y: NDArray, order: NDArray, mistakes: NDArray, steps=None
    ) -> None:
        state = (
            self.last_coef_,
            self.last_intercept_,
            self._cached_coef,
            self._cached_intercept,
            self._counter,
            float(self.eta),
            self.fit_intercept,
            mistakes,
        )
        if is_sparse(X):
            b, beta, j = sparse_averaged_perceptron_epoch(
                X.data, X.indices, X.indptr, y, order, *state
            )
        else:
            # Small epochs: the plain loop, the same run, without compiling the speculative one.
            epoch = averaged_perceptron_epoch if speculation_pays(X) else plain_averaged_epoch
            b, beta, j = epoch(X, y, order, *state, steps)
        self.last_intercept_, self._cached_intercept, self._counter = (
            float(b),
            float(beta),
            float(j),
        )
        with unchecked_overflow():  # inf - inf is NaN here: the epoch's check raises
            self.coef_ = self.last_coef_ - self._cached_coef / self._counter
            self.intercept_ = self.last_intercept_ - self._cached_intercept / self._counter
