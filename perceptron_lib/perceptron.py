"""The perceptron: Rosenblatt's error-driven online learning rule."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from ._base import is_sparse
from ._online import OnlineLinearClassifier
from .loops.plain import perceptron_epoch as plain_perceptron_epoch
from .loops.sparse import sparse_perceptron_epoch
from .loops.speculative import perceptron_epoch, speculation_pays


class Perceptron(OnlineLinearClassifier):
    """The online, error-driven perceptron.

    Starting from ``w = 0, b = 0``, it visits the examples one at a time and,
    whenever ``y * (w . x + b) <= 0`` (labels mapped to -1/+1), updates
    ``w <- w + eta * y * x`` and ``b <- b + eta * y``. Training stops after the
    first epoch without a mistake, or after ``max_iter`` epochs with a
    :class:`~sklearn.exceptions.ConvergenceWarning`.

    Parameters
    ----------
    eta : float, default=1.0
        Learning rate, > 0. From zero weights, in exact arithmetic it only scales
        every ``(w, b)`` of the run by ``eta``, so it changes no mistake and no
        prediction. In floating point this stays true when ``eta`` is a power
        of two (scaling by it is exact). Otherwise rounding can turn a tie
        ``a = 0`` into a tiny nonzero activation, and on integer data, where ties
        are common, the run can take another path: on ``logic_gate("and")`` with
        ``shuffle=False``, ``eta=1`` makes 18 updates and ``eta=0.1`` only 8: it
        stops where the negative example ``(1, 0)`` lies exactly on the boundary
        in exact arithmetic, and rounding alone (an activation of about
        ``-2.8e-17``) makes it count as right; with exact fractions ``eta=0.1``
        makes the same 18 updates as ``eta=1``.
    max_iter : int, default=1000
        Maximum number of epochs (passes over the data), >= 1.
    shuffle : bool, default=True
        Visit the examples in a new random order every epoch.
    fit_intercept : bool, default=True
        Learn the bias ``b``; if False, ``b`` stays 0 and the boundary passes
        through the origin.
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
        The weight vector ``w``; with more than two classes, one row per class
        (one-vs-rest, as scikit-learn's ``Perceptron``).
    intercept_ : float or ndarray of shape (n_classes,)
        The bias ``b``; with more than two classes, one per class.
    estimators_ : list of Perceptron
        With more than two classes only: the binary model of each class against
        the rest (labels -1/+1).
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
    AveragedPerceptron : Predicts with the average of the weights seen in training.
    VotedPerceptron : Lets every intermediate weight vector vote.
    BatchPerceptron : Gradient descent on the perceptron criterion.
    sklearn.linear_model.Perceptron : The same updates, with regularization options.

    Examples
    --------
    >>> from perceptron_lib import Perceptron
    >>> X = [[1.0, 1.0], [0.5, 3.0], [2.0, 2.0]]
    >>> y = [1, 1, -1]
    >>> model = Perceptron(shuffle=False).fit(X, y)
    >>> model.predict(X).tolist()
    [1, 1, -1]
    >>> model.converged_, model.n_iter_
    (True, 8)

    Three classes are learnt one-vs-rest, a binary model per class; ``n_jobs=2``
    fits two of them at a time, in threads, to the very same weights:

    >>> X = [[0.0, 0.0], [3.0, 0.0], [0.0, 3.0], [0.5, 0.5], [3.5, 0.5], [0.5, 3.5]]
    >>> y = [0, 1, 2, 0, 1, 2]
    >>> one = Perceptron(random_state=0).fit(X, y)
    >>> two = Perceptron(random_state=0, n_jobs=2).fit(X, y)
    >>> one.coef_.shape, bool((one.coef_ == two.coef_).all())
    ((3, 2), True)
    """

    def _start(self, n_features: int) -> None:
        self.coef_ = np.zeros(n_features)
        self.intercept_ = 0.0

    def _run_epoch(
        self, X: NDArray, y: NDArray, order: NDArray, mistakes: NDArray, steps=None
    ) -> None:
        if is_sparse(X):
            self.intercept_ = float(
                sparse_perceptron_epoch(
                    X.data,
                    X.indices,
                    X.indptr,
                    y,
                    order,
                    self.coef_,
                    self.intercept_,
                    float(self.eta),
                    self.fit_intercept,
                    mistakes,
                )
            )
            return
        # Small epochs: the plain loop, the same run, without compiling the speculative one.
        epoch = perceptron_epoch if speculation_pays(X) else plain_perceptron_epoch
        self.intercept_ = float(
            epoch(
                X,
                y,
                order,
                self.coef_,
                self.intercept_,
                float(self.eta),
                self.fit_intercept,
                mistakes,
                steps,
            )
        )
