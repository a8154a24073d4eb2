"""The multiclass perceptron: one weight vector per class, learnt jointly."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ._base import (
    all_or_nothing,
    check_finite_weights,
    classes_of,
    is_sparse,
    raise_overflow,
    unchecked_overflow,
)
from ._online import OnlineLinearClassifier
from .loops.multiclass import multiclass_epoch, sparse_multiclass_epoch


class MulticlassPerceptron(OnlineLinearClassifier):
    """The multiclass perceptron: every class scores, the highest score wins.

    Class ``k`` has its own weights ``w_k`` and bias ``b_k`` and scores an
    example ``x`` with ``s_k = w_k . x + b_k``; the prediction is the class of
    the highest score (the first class, in ``classes_`` order, on a tie, as
    :func:`numpy.argmax`). Starting from zero, it visits the examples one at a
    time. An example of class ``c`` is a mistake when its score is not
    *strictly* above every other class's score: from zero weights every score
    ties, so the first example is a mistake and learning starts, just as
    ``y a <= 0`` starts the binary perceptron. On a mistake, with ``r`` the
    highest-scoring other class (the *rival*),

        ``w_c <- w_c + eta x``,  ``w_r <- w_r - eta x``

    and ``b_c <- b_c + eta``, ``b_r <- b_r - eta``. Among rivals with equal
    scores the first class is taken: the run is then deterministic, and the
    rival is the class ``numpy.argmax`` would predict with ``c`` left out.

    The classes are learnt *jointly*: one update moves two classes' weights,
    and no class is trained against "the rest". So data in which some class
    cannot be cut off from all the others by one hyperplane (three groups in a
    row along a line: the middle one) can still be fitted so that every
    training example is classified correctly, where every linear one-vs-rest
    model for the middle class must err.

    With two classes the update moves both vectors by opposite amounts, so the
    difference ``v = w_1 - w_0`` (and ``b_1 - b_0``) moves by ``+-2 eta x``
    exactly when ``y (v . x + b) <= 0``, labels -1/+1 as ``classes_[0]``,
    ``classes_[1]``: the binary :class:`Perceptron` with the learning rate
    ``2 eta``. Training follows it bit for bit in floating point too (the same
    mistakes, and ``w_1 - w_0`` equal to its weights; tested): ``w_0`` stays
    exactly ``-w_1``, so class 0's score is exactly minus class 1's, and doubling
    is exact (barring overflow and numbers too small for full precision, below
    ``2**-1022``). Prediction is computed differently (a matrix product for all
    classes), so ``decision_function`` matches the binary perceptron's up to
    rounding, and a prediction can differ only on an example that scores zero
    or within rounding of it.

    ``average=True`` predicts with the average of the weights instead, kept per
    class with the cached sums of Algorithm 7 (Daume, ch. 4) exactly as
    :class:`AveragedPerceptron` keeps them: after ``T`` examples visited, the
    mean of the ``T + 1`` weight matrices before the first example and after
    each one. Training is unchanged: the updates are made on the current
    weights, and an epoch without a mistake of the current weights ends it.

    Parameters
    ----------
    eta : float, default=1.0
        Learning rate, > 0. From zero weights, in exact arithmetic it only scales
        every weight of the run, so it changes no mistake and no prediction
        (in floating point when ``eta`` is a power of two).
    max_iter : int, default=1000
        Maximum number of epochs (passes over the data), >= 1.
    shuffle : bool, default=True
        Visit the examples in a new random order every epoch.
    fit_intercept : bool, default=True
        Learn the biases; if False they stay 0.
    random_state : int, RandomState instance or None, default=None
        Seeds the order of the examples when ``shuffle=True``.
    average : bool, default=False
        Predict with the averaged weights (Algorithm 7, per class).

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        The labels, sorted: class ``k`` is ``classes_[k]``.
    coef_ : ndarray of shape (n_classes, n_features)
        Row ``k`` is the weight vector of class ``k`` (averaged if ``average``),
        even with two classes.
    intercept_ : ndarray of shape (n_classes,)
        The bias of each class (averaged if ``average``).
    last_coef_, last_intercept_ : ndarray
        With ``average=True`` only: the current (last) weights and biases.
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
    Perceptron : Learns more than two classes one-vs-rest.
    perceptron_lib.theory.kesler.kesler_lift : The same run as a binary perceptron.

    Examples
    --------
    Three groups along a line; a model of the middle group against the other
    two would need two thresholds, but the joint model needs none:

    >>> from perceptron_lib import MulticlassPerceptron
    >>> X = [[-3.0], [-2.0], [-0.5], [0.5], [2.0], [3.0]]
    >>> y = ["left", "left", "middle", "middle", "right", "right"]
    >>> model = MulticlassPerceptron(shuffle=False).fit(X, y)
    >>> model.predict(X).tolist() == y, model.converged_
    (True, True)
    >>> model.coef_.shape, model.classes_.tolist()
    ((3, 1), ['left', 'middle', 'right'])
    """

    _parameter_constraints: dict = {
        **{
            name: constraint
            for name, constraint in OnlineLinearClassifier._parameter_constraints.items()
            if name != "n_jobs"  # a joint model: nothing to fit side by side
        },
        "average": ["boolean"],
    }
    _updated_in_place = ("_weights", "_biases", "_cached_weights", "_cached_biases")

    def __init__(
        self,
        *,
        eta: float = 1.0,
        max_iter: int = 1000,
        shuffle: bool = True,
        fit_intercept: bool = True,
        random_state=None,
        average: bool = False,
    ):
        self.eta = eta
        self.max_iter = max_iter
        self.shuffle = shuffle
        self.fit_intercept = fit_intercept
        self.random_state = random_state
        self.average = average

    def fit(self, X: ArrayLike, y: ArrayLike):
        """Learn from zero weights until an epoch makes no mistake, or ``max_iter`` epochs.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Training examples; a sparse matrix is converted to CSR.
        y : array-like of shape (n_samples,)
            Labels: two or more distinct values of any type.

        Returns
        -------
        self
            The fitted classifier.
        """
        with all_or_nothing(self):  # if it raises, the model is left as it was
            X, labels = self._prepare_multiclass(X, y, first_call=True)
            self._train(X, labels)
        self._warn_if_not_converged(stacklevel=3)  # this method, fit, the caller
        return self

    def _prepare_multiclass(self, X, y, *, first_call: bool, classes=None, accept_sparse=True):
        """Check parameters and data; return ``X`` and the labels as class indices."""
        self._validate_params()
        # No pass over X for NaN and infinity: every epoch computes every score and
        # stops at the first one that is not finite (see _base._loop_checks_finite).
        X, y = self._validate_training_data(
            X,
            y,
            reset=first_call,
            accept_sparse=accept_sparse,
            finite=not self._loop_checks_finite,
            targets=False,
        )
        found = classes_of(y)
        if first_call:
            self._set_classes(y, classes, found=None if classes is not None else found)
        self._check_known_labels(found)
        return X, np.searchsorted(self.classes_, y).astype(np.intp)

    def _start(self, n_features: int) -> None:
        n_classes = self.classes_.shape[0]
        self._weights = np.zeros((n_classes, n_features))
        self._biases = np.zeros(n_classes)
        # Algorithm 7's sums and counter, kept whether or not ``average`` is set
        # (an update costs two more row additions), so that set_params(average=...)
        # between calls to partial_fit leaves a consistent model.
        self._cached_weights = np.zeros((n_classes, n_features))
        self._cached_biases = np.zeros(n_classes)
        self._counter = 1.0

    def _partial_fit(self, X: ArrayLike, y: ArrayLike, classes: ArrayLike | None) -> None:
        first_call = not hasattr(self, "classes_")
        if (
            not first_call
            and classes is not None
            and not np.array_equal(np.unique(classes), self.classes_)
        ):
            raise ValueError(
                f"classes={np.unique(classes).tolist()} differs from the classes of the "
                f"first call to partial_fit, {self.classes_.tolist()}."
            )
        X, labels = self._prepare_multiclass(X, y, first_call=first_call, classes=classes)
        if first_call:
            self._begin(X.shape[1])
        # The epoch updates these arrays in place: it gets copies, so that if it raises,
        # partial_fit's restore of the attributes also restores the weights.
        for name in self._updated_in_place:
            setattr(self, name, getattr(self, name).copy())
        state = self._rng.get_state()
        try:
            self._one_epoch(X, labels)
        except BaseException:
            self._rng.set_state(state)  # the next call draws the order this one drew
            raise

    def _one_epoch(self, X, y: NDArray, record: list | None = None) -> int:
        """Run one epoch in this epoch's order; count and return its mistakes.

        With ``record`` (a list), append ``(order, mistakes, rivals, steps)``.
        """
        n_samples = X.shape[0]
        order = self._rng.permutation(n_samples) if self.shuffle else np.arange(n_samples)
        mistakes = np.zeros(n_samples, dtype=np.bool_)
        rivals = np.zeros(n_samples, dtype=np.intp)
        state = (
            self._weights,
            self._biases,
            float(self.eta),
            self.fit_intercept,
            mistakes,
            rivals,
            self._cached_weights,
            self._cached_biases,
            self._counter,
        )
        epoch = self.mistakes_per_epoch_.shape[0] + 1
        with unchecked_overflow():
            if is_sparse(X):
                counter = sparse_multiclass_epoch(X.data, X.indices, X.indptr, y, order, *state)
            elif record is None:
                counter = multiclass_epoch(X, y, order, *state)
            else:
                steps = np.empty((n_samples, self._weights.shape[0], X.shape[1] + 2))
                counter = multiclass_epoch(X, y, order, *state, steps)
                record.append((order, mistakes, rivals, steps))
            if np.isnan(counter):
                raise_overflow(self, epoch, X)
            self._counter = float(counter)
            self._set_public_weights()
        check_finite_weights(self, epoch, X)
        count = int(mistakes.sum())
        self.mistakes_per_epoch_ = np.append(self.mistakes_per_epoch_, count)
        self.n_iter_ = self.mistakes_per_epoch_.shape[0]
        self.converged_ = count == 0
        return count

    def _set_public_weights(self) -> None:
        """``coef_`` and ``intercept_``: the current weights, or their average."""
        if not self.average:
            self.coef_, self.intercept_ = self._weights, self._biases
            self.__dict__.pop("last_coef_", None)
            self.__dict__.pop("last_intercept_", None)
            return
        self.last_coef_, self.last_intercept_ = self._weights, self._biases
        self.coef_ = self._weights - self._cached_weights / self._counter
        self.intercept_ = self._biases - self._cached_biases / self._counter

    # -- prediction ---------------------------------------------------------

    def _scores(self, X: ArrayLike) -> NDArray[np.float64]:
        X = self._validate_prediction_data(X)
        return np.asarray(X @ self.coef_.T + self.intercept_)

    def decision_function(self, X: ArrayLike) -> NDArray[np.float64]:
        """Return every class's score ``w_k . x + b_k``, shape (n_samples, n_classes).

        With two classes, as scikit-learn's classifiers, a 1-d array: the
        difference ``s_1 - s_0``, positive where ``classes_[1]`` is predicted.
        """
        scores = self._scores(X)
        if scores.shape[1] == 2:
            return scores[:, 1] - scores[:, 0]
        return scores

    def predict(self, X: ArrayLike) -> NDArray:
        """Return the class of the highest score; the first class on a tie.

        With two classes, ``classes_[1]`` exactly where ``decision_function`` is
        positive (for finite scores, ``s_1 - s_0 > 0`` exactly when ``s_1 > s_0``).
        """
        scores = self._scores(X)  # first: it checks that the model is fitted
        return self.classes_[np.argmax(scores, axis=1)]
