"""The voted perceptron of Freund and Schapire (1999)."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ._base import is_sparse, unchecked_overflow
from ._online import OnlineLinearClassifier
from .loops.plain import perceptron_epoch
from .loops.sparse import sparse_perceptron_epoch

# Scores are computed in blocks of examples so that the (block x n_vectors)
# matrix of votes stays near this many entries, whatever the data size.
_VOTE_BLOCK_ENTRIES = 4_000_000


class VotedPerceptron(OnlineLinearClassifier):
    """The perceptron in which every weight vector of the run casts a vote.

    Training is that of :class:`Perceptron`. Each update starts a new weight
    vector ``(w_k, b_k)`` with survival count ``c_k = 1``; each example it then
    classifies correctly adds 1 to its count. A prediction is the weighted vote
    ``sum_k c_k * p_k(x)`` (Freund and Schapire, 1999), where ``p_k(x)`` is the
    prediction of vector k: +1 if ``w_k . x + b_k > 0``, -1 otherwise, as
    everywhere in this library (``sign(0) = 0`` would be no label). A vector
    whose activation is exactly 0 therefore votes for the negative class, and a
    vote of exactly 0 predicts the negative class too. The initial zero vector,
    which never survives an example, is not stored.

    Storage and prediction cost grow with the number of updates: one vector per
    mistake. The default ``max_iter`` is therefore smaller than the other
    perceptrons'.

    Parameters
    ----------
    eta : float, default=1.0
        Learning rate, > 0.
    max_iter : int, default=100
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
    classes_ : ndarray of shape (2,)
        The two labels, sorted; ``classes_[1]`` is the positive class.
    weights_ : ndarray of shape (n_vectors, n_features)
        Every weight vector of the run, in order.
    intercepts_ : ndarray of shape (n_vectors,)
        Their biases.
    survival_counts_ : ndarray of shape (n_vectors,)
        Freund and Schapire's ``c_k``: 1 for the example whose mistake created
        the vector (which the vector itself never classified), plus 1 for each
        example it then classified correctly, up to the next mistake.
    coef_ : ndarray of shape (n_features,) or (n_classes, n_features)
        The last weight vector (the vote itself is not linear); one per class
        with more than two classes, whose other attributes are in ``estimators_``.
    intercept_ : float
        The last bias.
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
    AveragedPerceptron : Replaces the vote of signs by one averaged vector.

    Examples
    --------
    >>> from perceptron_lib import VotedPerceptron
    >>> X = [[1.0, 1.0], [0.5, 3.0], [2.0, 2.0]]
    >>> y = [1, 1, -1]
    >>> voted = VotedPerceptron(shuffle=False).fit(X, y)
    >>> voted.predict(X).tolist()
    [1, 1, -1]
    >>> int(voted.survival_counts_.sum()) == 3 * voted.n_iter_
    True

    Without a bias, every activation at the origin is exactly 0, so every stored
    vector votes -1 with its whole count (with ``sign(0) = 0`` the vote would be 0):

    >>> no_bias = VotedPerceptron(shuffle=False, fit_intercept=False)
    >>> no_bias = no_bias.fit([[1.0, 2.0], [-1.0, -1.0]], [1, -1])
    >>> no_bias.survival_counts_.tolist()
    [4]
    >>> no_bias.decision_function([[0.0, 0.0]]).tolist()
    [-4.0]
    """

    def __init__(
        self,
        *,
        eta: float = 1.0,
        max_iter: int = 100,
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

    _updated_in_place = ("coef_", "survival_counts_")

    def _start(self, n_features: int) -> None:
        self.coef_ = np.zeros(n_features)
        self.intercept_ = 0.0
        self.weights_ = np.zeros((0, n_features))
        self.intercepts_ = np.zeros(0)
        self.survival_counts_ = np.zeros(0, dtype=np.int64)

    def _run_epoch(
        self, X: NDArray, y: NDArray, order: NDArray, mistakes: NDArray, steps=None
    ) -> None:
        start_coef, start_intercept = self.coef_.copy(), self.intercept_
        state = (self.coef_, self.intercept_, float(self.eta), self.fit_intercept, mistakes)
        if is_sparse(X):
            b = sparse_perceptron_epoch(X.data, X.indices, X.indptr, y, order, *state)
        else:
            b = perceptron_epoch(X, y, order, *state, steps)
        self.intercept_ = float(b)
        positions = np.flatnonzero(mistakes)
        n_visited = order.shape[0]
        # Examples classified before this epoch's first mistake extend the
        # survival of the vector that was current when the epoch began.
        if self.survival_counts_.shape[0] > 0:
            self.survival_counts_[-1] += positions[0] if positions.size else n_visited
        if positions.size == 0:
            return
        # One new vector per mistake: the running sum of the updates, added in
        # the same order as the training loop adds them.
        updated = order[positions]
        steps = float(self.eta) * y[updated]
        rows = X[updated].toarray() if is_sparse(X) else X[updated]
        with unchecked_overflow():  # an overflow here is raised by the epoch's check
            new_weights = np.cumsum(np.vstack([start_coef, steps[:, None] * rows]), axis=0)[1:]
            if self.fit_intercept:
                new_intercepts = np.cumsum(np.concatenate([[start_intercept], steps]))[1:]
            else:
                new_intercepts = np.zeros(positions.size)
        self.weights_ = np.vstack([self.weights_, new_weights])
        self.intercepts_ = np.concatenate([self.intercepts_, new_intercepts])
        self.survival_counts_ = np.concatenate(
            [self.survival_counts_, np.diff(np.append(positions, n_visited))]
        )

    def decision_function(self, X: ArrayLike) -> NDArray[np.float64]:
        """Return the vote ``sum_k c_k * yhat_k`` for every example.

        ``yhat_k`` is +1 if ``w_k . x + b_k > 0`` and -1 otherwise (the course's
        convention: an activation of 0 predicts -1). Positive votes are
        predictions of ``classes_[1]``.
        """
        X = self._validate_prediction_data(X)
        if hasattr(self, "estimators_"):  # more than two classes: one vote per class
            return np.column_stack([model.decision_function(X) for model in self.estimators_])
        block = max(1, _VOTE_BLOCK_ENTRIES // max(1, self.weights_.shape[0]))
        votes = np.empty(X.shape[0])
        for start in range(0, X.shape[0], block):
            scores = np.asarray(X[start : start + block] @ self.weights_.T) + self.intercepts_
            signs = np.where(scores > 0, 1.0, -1.0)  # a = 0 votes -1, as it predicts
            votes[start : start + block] = signs @ self.survival_counts_
        return votes
