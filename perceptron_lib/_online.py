"""The training driver shared by the online perceptrons: epochs, order, stopping.

The perceptron, the averaged and the voted perceptron all learn the same way,
one example at a time; they differ only in what they keep from the run. This
base class runs the epochs (``fit``) or one epoch (``partial_fit``) and leaves
the pass itself to each subclass's ``_run_epoch``.
"""

from __future__ import annotations

import copy
import warnings

import numpy as np
from numpy.typing import ArrayLike, NDArray
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils import check_random_state

from ._base import (
    LinearBinaryClassifier,
    all_or_nothing,
    check_finite_weights,
    classes_of,
    unchecked_overflow,
)


class OnlineLinearClassifier(LinearBinaryClassifier):
    """Base class of the error-driven online perceptrons.

    Subclasses define ``_start(n_features)`` (fresh state, weights at zero) and
    ``_run_epoch(X, y, order, mistakes, steps=None)`` (one pass over ``X[order]``
    that fills the boolean array ``mistakes`` and, if ``steps`` is an array, the
    record of every step that :func:`perceptron_lib.training_trace` reads).
    ``X`` is a C-ordered float array or a CSR matrix (no ``steps`` then).
    ``_updated_in_place`` names the arrays that ``_run_epoch`` changes in place
    (the others it replaces): ``partial_fit`` gives its trial copy of the model
    copies of these.
    """

    _accepts_sparse = True
    # Every epoch of these loops computes the full activation of every example (over
    # every stored entry of a sparse row) and stops at the first one that is not
    # finite. A NaN or an infinity in X always makes one: NaN times anything, and
    # infinity times 0, are NaN, a sum with a NaN or with both infinities is NaN.
    # So fit and partial_fit leave that check to the loop (see _base).
    _loop_checks_finite = True
    _updated_in_place: tuple = ("coef_",)

    def __init__(
        self,
        *,
        eta: float = 1.0,
        max_iter: int = 1000,
        shuffle: bool = True,
        fit_intercept: bool = True,
        random_state=None,
        n_jobs: int | None = 1,
    ):
        self.eta = eta
        self.max_iter = max_iter
        self.shuffle = shuffle
        self.fit_intercept = fit_intercept
        self.random_state = random_state
        self.n_jobs = n_jobs

    def fit(self, X: ArrayLike, y: ArrayLike):
        """Learn from zero weights until an epoch makes no mistake, or ``max_iter`` epochs.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Training examples; a sparse matrix is converted to CSR.
        y : array-like of shape (n_samples,)
            Labels, two or more distinct values of any type (more than two:
            one-vs-rest).

        Returns
        -------
        self
            The fitted classifier.
        """
        return self._fit_classes(X, y)

    def _fit_binary(self, X, y: NDArray) -> None:
        self._train(X, y)
        self._warn_if_not_converged()

    def _begin(self, n_features: int) -> None:
        """Zero weights, a fresh order generator and an empty record of epochs."""
        self._start(n_features)
        self._rng = check_random_state(self.random_state)
        self.mistakes_per_epoch_ = np.zeros(0, dtype=np.int64)

    def _train(self, X: NDArray, y: NDArray, record: list | None = None) -> None:
        """Run the epochs of ``fit`` on validated data, labels already -1/+1.

        With ``record`` (a list), every epoch appends ``(order, mistakes, steps)``:
        the order visited, the mistakes and the step record of the training loop.
        """
        self._begin(X.shape[1])
        for _ in range(self.max_iter):
            if self._one_epoch(X, y, record) == 0:
                break

    def partial_fit(self, X: ArrayLike, y: ArrayLike, classes: ArrayLike | None = None):
        """Make one pass over ``(X, y)``, continuing from the current weights.

        ``k`` calls on the same data with ``shuffle=False`` give the same weights
        as ``fit`` with ``max_iter=k``. If the call raises (a NaN or an infinity in
        ``X``, an overflow, a bad label), the model is left exactly as it was.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Training examples.
        y : array-like of shape (n_samples,)
            Their labels.
        classes : array-like, optional
            All the labels. Needed on the first call only when ``y`` does not
            hold every one of them.

        Returns
        -------
        self
            The classifier, updated.
        """
        # If it raises, what this call set (on a first call, classes_ and
        # n_features_in_ too) goes, and the weights it updated were copies.
        with all_or_nothing(self):
            self._partial_fit(X, y, classes)
        return self

    def _partial_fit(self, X: ArrayLike, y: ArrayLike, classes: ArrayLike | None) -> None:
        first_call = not hasattr(self, "classes_")
        self._validate_params()  # on every call: set_params may have changed them
        # No pass over X for NaN and infinity: the epoch meets any of them (see
        # _loop_checks_finite) and, run on copies, commits nothing then.
        X, y = self._validate_training_data(
            X, y, reset=first_call, finite=not self._loop_checks_finite, targets=False
        )
        found = classes_of(y)  # the labels of y, checked as scikit-learn checks them
        if first_call:
            self._set_classes(y, classes, found=None if classes is not None else found)
            self.__dict__.pop("estimators_", None)
            if self.classes_.shape[0] == 2:
                self._begin(X.shape[1])
            else:
                self.estimators_ = self._binary_models()
                for model in self.estimators_:
                    model._begin(X.shape[1])
        elif classes is not None and not np.array_equal(np.unique(classes), self.classes_):
            raise ValueError(
                f"classes={np.unique(classes).tolist()} differs from the classes of the "
                f"first call to partial_fit, {self.classes_.tolist()}."
            )
        self._check_known_labels(found)
        if self.classes_.shape[0] == 2:
            (trial,) = self._epochs_on_copies([self], X, [self._signed_labels(y, known=True)])
            vars(self).update(vars(trial))
            return
        params = self._shared_params()
        labels = [np.where(y == label, 1.0, -1.0) for label in self.classes_]
        self.estimators_ = self._epochs_on_copies(self.estimators_, X, labels, params)
        self._combine_binary_models()

    def _epochs_on_copies(self, models: list, X, labels: list, params=None) -> list:
        """Run one epoch of each binary model on a copy of it; return the copies.

        ``labels[k]`` (-1/+1) are those of ``models[k]``; ``params``, if given, are set
        on each copy first. The models themselves are not changed: if an epoch raises,
        the generators of the order are put back too, so that the next call draws
        the same orders as if this one had not happened.
        """
        generators = [(model._rng, model._rng.get_state()) for model in models]

        def epoch_on_copy(model, y):
            trial = copy.copy(model)  # its own attributes: the epoch sets them on it
            for name in model._updated_in_place:  # and its own arrays: updated in place
                setattr(trial, name, getattr(model, name).copy())
            if params is not None:
                trial.set_params(**params)
            trial._one_epoch(X, y)
            return trial

        try:
            return self._for_each_class(epoch_on_copy, models, labels)
        except BaseException:
            for rng, state in generators:
                rng.set_state(state)
            raise

    def _shared_params(self) -> dict:
        """The parameters the binary models of one-vs-rest take from this model."""
        params = self.get_params(deep=False)
        params.pop("random_state", None)  # each binary model keeps its own seed
        return params

    # -- the pass -----------------------------------------------------------

    def _one_epoch(self, X: NDArray, y: NDArray, record: list | None = None) -> int:
        """Run one epoch in this epoch's order; count and return its mistakes."""
        n_samples = X.shape[0]
        order = self._rng.permutation(n_samples) if self.shuffle else np.arange(n_samples)
        mistakes = np.zeros(n_samples, dtype=np.bool_)
        # Run as Python (NUMBA_DISABLE_JIT=1), the loops' NumPy scalars would warn on a NaN
        # or an overflow before the ValueError of the check below.
        with unchecked_overflow():
            if record is None:
                self._run_epoch(X, y, order, mistakes)
            else:
                steps = np.empty((n_samples, X.shape[1] + 2))
                self._run_epoch(X, y, order, mistakes, steps)
                record.append((order, mistakes, steps))
        check_finite_weights(self, self.mistakes_per_epoch_.shape[0] + 1, X)
        count = int(mistakes.sum())
        self.mistakes_per_epoch_ = np.append(self.mistakes_per_epoch_, count)
        self.n_iter_ = self.mistakes_per_epoch_.shape[0]
        self.converged_ = count == 0
        return count

    def _warn_if_not_converged(self, stacklevel: int = 6) -> None:
        # 6: this method, _fit_binary, _fit_classes_unguarded, _fit_classes, fit, the caller.
        if not self.converged_:
            warnings.warn(
                f"{type(self).__name__} made {self.mistakes_per_epoch_[-1]} mistake(s) in "
                f"its last epoch and stopped at max_iter={self.max_iter}. The data may not "
                "be linearly separable; the weights are those after the last epoch.",
                ConvergenceWarning,
                stacklevel=stacklevel,
            )
