"""What the course's four classifiers share: parameters, input checks, prediction.

Each classifier learns from two classes and predicts from an activation, with
the course's one convention: the positive class ``classes_[1]`` where the
activation is positive, the negative class ``classes_[0]`` where it is negative
*or exactly zero*. For the perceptron, the averaged and the batch perceptron the
activation is ``a = w . x + b``, so they are linear threshold units
``f(x) = +1 if w . x + b > 0 else -1``; the voted perceptron's activation is a
vote of several such units, which is not a linear function of ``x``. This
module holds the parts that do not depend on *how* the weights are learnt, so
that each algorithm's own module shows only its loop.
"""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
from numpy.typing import ArrayLike, NDArray
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils._param_validation import Interval
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

MULTICLASS_HINT = (
    "Only binary classification is supported by the perceptrons of perceptron_lib. "
    "For more than two classes wrap one in sklearn.multiclass.OneVsRestClassifier, e.g. "
    "OneVsRestClassifier(Perceptron())."
)


class LinearBinaryClassifier(ClassifierMixin, BaseEstimator):
    """Base class: a binary linear classifier with ``coef_`` and ``intercept_``.

    Subclasses implement ``fit``; this class gives them label handling,
    ``decision_function``, ``predict`` and ``score``.
    """

    _parameter_constraints: dict = {
        "eta": [Interval(Real, 0, None, closed="neither")],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        "shuffle": ["boolean"],
        "fit_intercept": ["boolean"],
        "random_state": ["random_state"],
    }

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        # Binary only: scikit-learn's estimator checks then skip multiclass checks.
        tags.classifier_tags.multi_class = False
        return tags

    def _validate_params(self) -> None:
        super()._validate_params()
        # scikit-learn counts True as the integer 1; an epoch count of True is a bug.
        if isinstance(self.max_iter, (bool, np.bool_)):
            raise TypeError(
                f"The 'max_iter' parameter of {type(self).__name__} must be an int, "
                f"got the bool {self.max_iter}."
            )

    # -- input checks -------------------------------------------------------

    def _validate_training_data(self, X: ArrayLike, y: ArrayLike, *, reset: bool = True):
        """Return ``X`` as a C-ordered float array and ``y`` as a 1-d label array."""
        X, y = validate_data(self, X, y, dtype=np.float64, order="C", reset=reset)
        check_classification_targets(y)
        return X, y

    def _prepare_fit(self, X: ArrayLike, y: ArrayLike) -> tuple[NDArray, NDArray]:
        """Check parameters and data, set ``classes_``; return ``X`` and ``y`` as -1/+1."""
        self._validate_params()
        X, y = self._validate_training_data(X, y)
        self._set_classes(y)
        return X, self._signed_labels(y)

    def _set_classes(self, y: NDArray, classes: ArrayLike | None = None) -> None:
        """Set ``classes_`` (sorted) from ``classes`` or from the labels in ``y``."""
        found = np.unique(y if classes is None else np.asarray(classes))
        if found.shape[0] > 2:
            raise ValueError(
                f"Expected two classes, got {found.shape[0]}: {found[:10].tolist()}. "
                + MULTICLASS_HINT
            )
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

    def _signed_labels(self, y: NDArray) -> NDArray[np.float64]:
        """Map labels to +1 (``classes_[1]``) and -1 (``classes_[0]``)."""
        unknown = ~np.isin(y, self.classes_)
        if unknown.any():
            raise ValueError(
                f"y contains labels {np.unique(y[unknown])[:10].tolist()} that are not in "
                f"classes_ {self.classes_.tolist()}."
            )
        return np.where(y == self.classes_[1], 1.0, -1.0)

    def _validate_prediction_data(self, X: ArrayLike) -> NDArray[np.float64]:
        check_is_fitted(self)
        return validate_data(self, X, dtype=np.float64, reset=False)

    # -- prediction ---------------------------------------------------------

    def decision_function(self, X: ArrayLike) -> NDArray[np.float64]:
        """Return the activation ``X @ coef_ + intercept_`` of every example.

        Positive scores are predictions of ``classes_[1]``.
        """
        X = self._validate_prediction_data(X)
        return X @ self.coef_ + self.intercept_

    def predict(self, X: ArrayLike) -> NDArray:
        """Return ``classes_[1]`` where the score is positive, else ``classes_[0]``.

        A score of exactly 0 predicts ``classes_[0]``, the negative class.
        """
        positive = self.decision_function(X) > 0
        return self.classes_[positive.astype(int)]
