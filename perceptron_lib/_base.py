"""What the course's classifiers share: parameters, input checks, prediction.

Each classifier learns from two classes and predicts from an activation, with
the course's one convention: the positive class ``classes_[1]`` where the
activation is positive, the negative class ``classes_[0]`` where it is negative
*or exactly zero*. For the perceptron, the averaged and the batch perceptron the
activation is ``a = w . x + b``, so they are linear threshold units
``f(x) = +1 if w . x + b > 0 else -1``; the voted perceptron's activation is a
vote of several such units, which is not a linear function of ``x``. This
module holds the parts that do not depend on *how* the weights are learnt, so
that each algorithm's own module shows only its loop.

More than two classes are learnt one-vs-rest, as scikit-learn's linear
classifiers do: one binary model per class ``k`` (labels +1 for class ``k``, -1
for the others), kept in ``estimators_``; ``coef_`` then has one row per class
and an example goes to the class of the largest activation. The binary models
are independent, so ``n_jobs`` threads fit them side by side, to the same weights.
"""

from __future__ import annotations

import warnings
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from numbers import Integral, Real

import numpy as np
from joblib import effective_n_jobs
from numpy.typing import ArrayLike, NDArray
from scipy import sparse
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils import assert_all_finite, check_random_state
from sklearn.utils._param_validation import Interval
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

# Numeric parameters: scikit-learn's constraints count True as the number 1.
NUMERIC_PARAMETERS = (
    "eta",
    "tau",
    "max_iter",
    "tol",
    "degree",
    "gamma",
    "coef0",
    "timeout",
    "n_shards",
    "n_jobs",
)
# The largest seed drawn for the binary models of one-vs-rest (as scikit-learn's).
MAX_SEED = np.iinfo(np.int32).max


def unchecked_overflow():
    """Silence NumPy's overflow and invalid-value warnings inside a ``with`` block.

    For the array arithmetic of training only, whose result is checked right after
    (:func:`check_finite_weights`, :func:`check_finite_activations`): an overflow
    there then reaches the user as one clear ValueError, not as a RuntimeWarning
    printed just before it.
    """
    return np.errstate(over="ignore", invalid="ignore")


@contextmanager
def all_or_nothing(model):
    """Put back every attribute of ``model`` if the ``with`` block raises.

    ``fit`` and ``partial_fit`` run inside it, so a call that fails (bad data
    met during an epoch, an overflow, a bad label) leaves the model exactly as it
    was: a model fitted before stays that model, not new ``classes_`` beside old
    weights. Training never updates the arrays of the model it replaces in place
    (``fit`` starts from new zero arrays, ``partial_fit`` works on copies), so
    keeping the attribute dictionary is enough.
    """
    before = dict(vars(model))
    try:
        yield
    except BaseException:
        vars(model).clear()
        vars(model).update(before)
        raise


def check_finite_weights(model, epoch: int, X=None) -> None:
    """Raise a ValueError naming the cause if ``coef_`` or ``intercept_`` is not finite.

    The training loops end an epoch with a NaN bias when an activation
    overflows, so that this check also catches an overflow that left the
    weights finite.
    """
    if np.all(np.isfinite(model.coef_)) and np.all(np.isfinite(model.intercept_)):
        return
    raise_overflow(model, epoch, X)


def check_finite_activations(model, activations, epoch: int, X=None) -> None:
    """Raise as :func:`check_finite_weights` if an activation is not finite.

    A NaN activation would otherwise count as a correct prediction.
    """
    if not np.all(np.isfinite(activations)):
        raise_overflow(model, epoch, X)


def raise_overflow(model, epoch: int, X=None) -> None:
    """Raise the ValueError of an overflow, naming the learning rate and the data's scale.

    If ``X`` itself holds a NaN or an infinity, raise scikit-learn's error for that
    instead: the estimators that leave that check to their loop
    (``_loop_checks_finite``) end up here.
    """
    if X is not None:
        assert_all_finite(X, input_name="X", estimator_name=type(model).__name__)
    scale = "the scale of the data"
    if X is not None and X.shape[0]:
        scale += f" (largest |x| = {float(abs(X).max()):.3g})"
    raise ValueError(
        f"Floating-point overflow in epoch {epoch} of {type(model).__name__}: the weights "
        f"or an activation are no longer finite. The learning rate eta={model.eta!r} or "
        f"{scale} is too large; lower eta or scale the features, e.g. with "
        "sklearn.preprocessing.StandardScaler."
    )


class LinearBinaryClassifier(ClassifierMixin, BaseEstimator):
    """Base class: a linear classifier with ``coef_`` and ``intercept_``.

    Subclasses implement ``_fit_binary(X, y)`` (labels -1/+1, data validated) and
    call :meth:`_fit_classes` from ``fit``; this class gives them label
    handling, one-vs-rest for more than two classes, ``decision_function``,
    ``predict`` and ``score``.
    """

    #: Whether ``fit`` accepts scipy sparse matrices (converted to CSR).
    _accepts_sparse = False
    #: Whether ``fit`` may leave the check for NaN and infinity in ``X`` to the
    #: training loop. True only where the first epoch computes every example's full
    #: activation and stops at the first one that is not finite, which a NaN or an
    #: infinity in ``X`` always makes (a finite weight times it is not finite, nor is
    #: any sum with it); :func:`raise_overflow` then raises scikit-learn's error. It
    #: saves a pass over ``X`` before training (3.6 ms of the 80 MB bench's fit).
    _loop_checks_finite = False

    _parameter_constraints: dict = {
        "eta": [Interval(Real, 0, None, closed="neither")],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        "shuffle": ["boolean"],
        "fit_intercept": ["boolean"],
        "random_state": ["random_state"],
        "n_jobs": [Integral, None],
    }

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = self._accepts_sparse
        return tags

    def _validate_params(self) -> None:
        super()._validate_params()
        # scikit-learn counts True as the number 1; an eta or epoch count of True is a bug.
        params = self.get_params(deep=False)
        for name in NUMERIC_PARAMETERS:
            if isinstance(params.get(name), (bool, np.bool_)):
                raise TypeError(
                    f"The '{name}' parameter of {type(self).__name__} must be a number, "
                    f"got the bool {params[name]}."
                )
        if params.get("n_jobs", 1) == 0:
            raise ValueError(
                f"The 'n_jobs' parameter of {type(self).__name__} must be a nonzero int "
                "(-1 for every core) or None (one thread), got 0."
            )

    # -- input checks -------------------------------------------------------

    def _validate_training_data(
        self,
        X: ArrayLike,
        y: ArrayLike,
        *,
        reset: bool = True,
        accept_sparse: bool = True,
        finite: bool = True,
        targets: bool = True,
    ):
        """Return ``X`` as a C-ordered float array (or CSR matrix) and ``y`` as 1-d labels.

        ``finite=False`` leaves out the check for NaN and infinity in ``X`` (see
        ``_loop_checks_finite``); ``targets=False`` leaves out the check that ``y``
        holds class labels, for a caller that runs :func:`classes_of` instead.
        """
        X, y = validate_data(
            self,
            X,
            y,
            dtype=np.float64,
            order="C",
            reset=reset,
            ensure_all_finite=finite,
            accept_sparse="csr" if self._accepts_sparse and accept_sparse else False,
        )
        if sparse.issparse(X):
            check_csr_structure(X)
            if not finite:
                # The loops read the stored entries up to indptr[-1]; scikit-learn's check
                # reads all of X.data, so its rare unused tail is checked here.
                assert_all_finite(
                    X.data[X.indptr[-1] :], input_name="X", estimator_name=type(self).__name__
                )
        if targets:
            check_classification_targets(y)
        return X, y

    def _prepare_fit(self, X: ArrayLike, y: ArrayLike) -> tuple[NDArray, NDArray]:
        """Check parameters and dense data of two classes; return ``X`` and ``y`` as -1/+1."""
        self._validate_params()
        X, y = self._validate_training_data(X, y, accept_sparse=False)
        self._set_classes(y)
        if self.classes_.shape[0] > 2:
            raise ValueError(
                f"Only binary classification is supported by {type(self).__name__}: "
                f"expected two classes, got {self.classes_.shape[0]}: "
                f"{self.classes_[:10].tolist()}."
            )
        return X, self._signed_labels(y)

    def _fit_classes(self, X: ArrayLike, y: ArrayLike):
        """``fit``: check, then one binary run, or one per class for more than two.

        All or nothing: if it raises, the model is left as it was.
        """
        with all_or_nothing(self):
            return self._fit_classes_unguarded(X, y)

    def _fit_classes_unguarded(self, X: ArrayLike, y: ArrayLike):
        self._validate_params()
        X, y = self._validate_training_data(
            X, y, finite=not self._loop_checks_finite, targets=False
        )
        self._set_classes(y, found=classes_of(y))
        self.__dict__.pop("estimators_", None)  # from an earlier fit on more classes
        # Every label of y is in classes_, which come from y: no check of unknown labels.
        if self.classes_.shape[0] == 2:
            self._fit_binary(X, self._signed_labels(y, known=True))
            return self

        def fit_one(model, label):
            model._fit_binary(X, np.where(y == label, 1.0, -1.0))
            return model

        with warnings.catch_warnings():
            # One warning for the whole model, below, not one per class. The filters are
            # the process's (Python 3.11), so this also silences the worker threads.
            warnings.simplefilter("ignore", ConvergenceWarning)
            self.estimators_ = self._for_each_class(fit_one, self._binary_models(), self.classes_)
        self._combine_binary_models()
        if not self.converged_:
            warnings.warn(
                f"{type(self).__name__} did not converge for class(es) "
                f"{self._unconverged_classes()} (one-vs-rest) within "
                f"max_iter={self.max_iter}; the weights are those of the last epoch.",
                ConvergenceWarning,
                stacklevel=4,
            )
        return self

    def _unconverged_classes(self) -> list:
        return [
            label.item() if hasattr(label, "item") else label
            for model, label in zip(self.estimators_, self.classes_, strict=True)
            if not model.converged_
        ]

    def _for_each_class(self, function, models, *arguments) -> list:
        """Return ``[function(model, ...) for each binary model]``, in ``n_jobs`` threads.

        Each call reads the shared data and writes only its own model, so the results do
        not depend on the threads: the same weights for every ``n_jobs``. Threads, not
        processes, because the compiled loops release the GIL (numba's ``nogil``, see
        :mod:`perceptron_lib.loops.jit`) and NumPy's array arithmetic does too; the data
        are shared, not copied.
        """
        n_threads = min(effective_n_jobs(getattr(self, "n_jobs", 1)), len(models))
        if n_threads <= 1:
            return list(map(function, models, *arguments))
        with ThreadPoolExecutor(max_workers=n_threads) as pool:
            return list(pool.map(function, models, *arguments))

    def _binary_models(self) -> list:
        """One unfitted binary copy per class, seeded as scikit-learn seeds them."""
        params = self.get_params(deep=False)
        seeds = [None] * self.classes_.shape[0]
        if "random_state" in params:
            rng = check_random_state(self.random_state)
            seeds = rng.randint(MAX_SEED, size=self.classes_.shape[0]).tolist()
        models = []
        for seed in seeds:
            model = clone(self)
            if seed is not None:
                model.set_params(random_state=seed)
            model.classes_ = np.array([-1, 1])  # class k is +1, the rest -1
            model.n_features_in_ = self.n_features_in_
            models.append(model)
        return models

    def _combine_binary_models(self) -> None:
        """Set the one-vs-rest attributes from the fitted ``estimators_``."""
        models = self.estimators_
        if hasattr(models[0], "coef_"):
            self.coef_ = np.vstack([m.coef_ for m in models])
        self.intercept_ = np.concatenate([np.ravel(m.intercept_) for m in models])
        for name in self._stacked_attributes:
            setattr(self, name, np.stack([np.asarray(getattr(m, name)) for m in models]))
        per_epoch = [m.mistakes_per_epoch_ for m in models]
        self.n_iter_ = max(len(p) for p in per_epoch)
        total = np.zeros(self.n_iter_, dtype=np.int64)
        for p in per_epoch:
            total[: len(p)] += p
        self.mistakes_per_epoch_ = total
        self.converged_ = all(m.converged_ for m in models)

    #: Further per-class attributes stacked into one array by one-vs-rest.
    _stacked_attributes: tuple = ()

    def _set_classes(
        self, y: NDArray, classes: ArrayLike | None = None, *, found: NDArray | None = None
    ) -> None:
        """Set ``classes_`` (sorted) from ``classes`` or from the labels in ``y``.

        ``found``, if given, is ``np.unique(y)`` already computed (:func:`classes_of`).
        """
        if found is None:
            found = np.unique(y if classes is None else np.asarray(classes))
        if found.shape[0] < 2:
            raise ValueError(
                "Training needs examples of two classes, but y contains only one "
                f"class: {found.tolist()}."
                + (
                    " Pass both labels with partial_fit(X, y, classes=...)."
                    if classes is None and hasattr(self, "partial_fit")
                    else ""
                )
            )
        self.classes_ = found

    def _check_known_labels(self, y: NDArray) -> None:
        unknown = ~np.isin(y, self.classes_)
        if unknown.any():
            raise ValueError(
                f"y contains labels {np.unique(y[unknown])[:10].tolist()} that are not in "
                f"classes_ {self.classes_.tolist()}."
            )

    def _signed_labels(self, y: NDArray, known: bool = False) -> NDArray[np.float64]:
        """Map labels to +1 (``classes_[1]``) and -1 (``classes_[0]``).

        A label not in ``classes_`` raises a ValueError, unless ``known`` says that
        every label is in it.
        """
        if not known:
            self._check_known_labels(y)
        return np.where(y == self.classes_[1], 1.0, -1.0)

    def _validate_prediction_data(self, X: ArrayLike) -> NDArray[np.float64]:
        check_is_fitted(self)
        return validate_data(
            self,
            X,
            dtype=np.float64,
            reset=False,
            accept_sparse="csr" if self._accepts_sparse else False,
        )

    # -- prediction ---------------------------------------------------------

    def decision_function(self, X: ArrayLike) -> NDArray[np.float64]:
        """Return the activation ``X @ coef_ + intercept_`` of every example.

        With two classes, a 1-d array: positive scores are predictions of
        ``classes_[1]``. With more, shape ``(n_samples, n_classes)``: column
        ``k`` is the activation of the model of class ``k`` against the rest.
        """
        X = self._validate_prediction_data(X)
        if self.coef_.ndim == 2:
            scores = X @ self.coef_.T + self.intercept_
        else:
            scores = X @ self.coef_ + self.intercept_
        return np.asarray(scores)

    def predict(self, X: ArrayLike) -> NDArray:
        """Return the predicted class of every example.

        With two classes, ``classes_[1]`` where the score is positive, else
        ``classes_[0]``: a score of exactly 0 predicts ``classes_[0]``, the
        negative class. With more, the class of the largest score (the first
        such class on a tie), as scikit-learn's linear classifiers.
        """
        scores = self.decision_function(X)
        if scores.ndim == 2:
            return self.classes_[np.argmax(scores, axis=1)]
        return self.classes_[(scores > 0).astype(int)]


def classes_of(y: NDArray) -> NDArray:
    """Check that validated 1-d labels ``y`` are classes; return them, sorted and distinct.

    The same labels, errors and warnings as scikit-learn's
    ``check_classification_targets(y)`` followed by ``np.unique(y)``, with one
    shortcut: integer labels are always class labels, and when they span a short
    range they are counted (:func:`numpy.bincount`, one pass) rather than sorted.
    That check then has nothing to say unless there are more than two classes,
    more than half as many as the examples (its warning that ``y`` may be a
    regression target): that case takes the general path, which warns.

    Examples
    --------
    >>> import numpy as np
    >>> classes_of(np.array([3, -1, 3, 7], dtype=np.int8))
    array([-1,  3,  7], dtype=int8)
    >>> classes_of(np.array(["b", "a", "b"]))
    array(['a', 'b'], dtype='<U1')
    """
    n = y.shape[0]
    if y.ndim == 1 and y.dtype.kind in "iu" and n:
        lo, hi = int(y.min()), int(y.max())
        limits = np.iinfo(np.intp)
        if limits.min <= lo and hi <= limits.max and hi - lo < max(n, 1024):
            counts = np.bincount(y.astype(np.intp, copy=False) - lo)
            classes = (np.flatnonzero(counts) + lo).astype(y.dtype)
            if classes.shape[0] <= 2 or classes.shape[0] <= round(0.5 * n):
                return classes
    check_classification_targets(y)
    return np.unique(y)


def check_csr_structure(X) -> None:
    """Raise a ValueError unless every stored entry of the CSR matrix ``X`` is in bounds.

    The compiled sparse loops read ``data[p]``, ``indices[p]`` for ``p`` from
    ``indptr[i]`` to ``indptr[i + 1]`` and then ``w[indices[p]]`` without bounds
    checks, so a malformed matrix (scipy checks column indices only when asked)
    must be stopped before them. Reads only; the user's matrix is not changed.

    Examples
    --------
    >>> from scipy import sparse
    >>> X = sparse.csr_matrix(([1.0], [5], [0, 1]), shape=(1, 3))
    >>> check_csr_structure(X)
    Traceback (most recent call last):
    ...
    ValueError: The sparse matrix X has a column index 5 outside [0, 3).
    """
    indptr, indices = X.indptr, X.indices
    if indptr.shape[0] != X.shape[0] + 1 or indptr[0] != 0:
        raise ValueError(
            f"The sparse matrix X has a malformed indptr: {indptr.shape[0]} entries "
            f"starting at {indptr[0] if indptr.shape[0] else None} for {X.shape[0]} rows."
        )
    if indptr[-1] > min(indices.shape[0], X.data.shape[0]) or np.any(np.diff(indptr) < 0):
        raise ValueError(
            "The sparse matrix X has a malformed indptr: not non-decreasing, or "
            "pointing past its stored entries."
        )
    stored = indices[: indptr[-1]]
    if stored.shape[0]:
        for bad in (stored.min(), stored.max()):
            if not 0 <= bad < X.shape[1]:
                raise ValueError(
                    f"The sparse matrix X has a column index {bad} outside [0, {X.shape[1]})."
                )


def is_sparse(X) -> bool:
    """Whether ``X`` is a scipy sparse matrix or array."""
    return sparse.issparse(X)
