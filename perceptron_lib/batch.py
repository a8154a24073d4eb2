"""The batch perceptron: gradient descent on the perceptron criterion."""

from __future__ import annotations

import warnings
from numbers import Real

import numpy as np
from numpy.typing import ArrayLike
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils._param_validation import Interval

from ._base import (
    LinearBinaryClassifier,
    check_finite_activations,
    check_finite_weights,
    unchecked_overflow,
)


class BatchPerceptron(LinearBinaryClassifier):
    """Gradient descent on the perceptron criterion, one step per pass.

    The perceptron criterion is ``J(w, b) = mean_i max(0, -y_i (w . x_i + b))``,
    zero exactly when every example is on its correct side or on the boundary.
    A (sub)gradient is ``delta = -(1/N) sum over the misclassified examples
    (y_i * (w . x_i + b) <= 0) of y_i * x_i`` (and ``-(1/N) sum y_i`` for the
    bias). Each pass computes it over all examples and steps
    ``w <- w - eta * delta``. Training stops when the norm of the correction
    (bias included) is ``<= tol``, or after a pass with no mistake, or after
    ``max_iter`` passes with a :class:`~sklearn.exceptions.ConvergenceWarning`.

    The order of the examples does not matter in a batch step, so unlike the
    online perceptrons this one has no ``shuffle`` or ``random_state``.

    Parameters
    ----------
    eta : float, default=1.0
        Step size, > 0.
    max_iter : int, default=1000
        Maximum number of passes, >= 1.
    tol : float, default=0.0
        Stop when the norm of the averaged correction is at most ``tol``. With
        the default 0, training stops at the first pass with no mistake.
    fit_intercept : bool, default=True
        Learn the bias.
    n_jobs : int or None, default=1
        With more than two classes: how many threads fit the binary models of
        one-vs-rest at once, in ``fit``. None means 1 (unless inside a
        ``joblib.parallel_backend`` context), -1 every core. The weights do not
        depend on it.

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        The two labels, sorted; ``classes_[1]`` is the positive class.
    coef_ : ndarray of shape (n_features,)
        The weight vector.
    intercept_ : float
        The bias.
    n_features_in_ : int
        Number of features seen during ``fit``.
    n_iter_ : int
        Number of passes run, including a final mistake-free one.
    converged_ : bool
        Whether the stopping rule was met before ``max_iter``.
    mistakes_per_epoch_ : ndarray of shape (n_iter_,)
        Number of misclassified examples at each pass.

    See Also
    --------
    Perceptron : The online version: one step per mistaken example.

    Examples
    --------
    >>> from perceptron_lib import BatchPerceptron
    >>> X = [[1.0, 1.0], [0.5, 3.0], [2.0, 2.0]]
    >>> y = [1, 1, -1]
    >>> batch = BatchPerceptron().fit(X, y)
    >>> batch.predict(X).tolist(), batch.converged_
    ([1, 1, -1], True)
    """

    _parameter_constraints: dict = {
        "eta": [Interval(Real, 0, None, closed="neither")],
        "max_iter": LinearBinaryClassifier._parameter_constraints["max_iter"],
        "tol": [Interval(Real, 0, None, closed="left")],
        "fit_intercept": ["boolean"],
        "n_jobs": LinearBinaryClassifier._parameter_constraints["n_jobs"],
    }

    def __init__(
        self,
        *,
        eta: float = 1.0,
        max_iter: int = 1000,
        tol: float = 0.0,
        fit_intercept: bool = True,
        n_jobs: int | None = 1,
    ):
        self.eta = eta
        self.max_iter = max_iter
        self.tol = tol
        self.fit_intercept = fit_intercept
        self.n_jobs = n_jobs

    def fit(self, X: ArrayLike, y: ArrayLike):
        """Take gradient steps on the perceptron criterion from zero weights.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training examples.
        y : array-like of shape (n_samples,)
            Labels, two or more distinct values of any type (more than two:
            one-vs-rest).

        Returns
        -------
        self
            The fitted classifier.
        """
        return self._fit_classes(X, y)

    def _fit_binary(self, X, signed) -> None:
        n_samples = X.shape[0]
        self.coef_, self.intercept_ = np.zeros(X.shape[1]), 0.0
        mistakes_per_pass = []
        self.converged_ = False
        stuck = False
        for _ in range(self.max_iter):
            with unchecked_overflow():  # checked on the next line
                activations = X @ self.coef_ + self.intercept_
            check_finite_activations(self, activations, len(mistakes_per_pass) + 1, X)
            misclassified = signed * activations <= 0
            mistakes_per_pass.append(int(misclassified.sum()))
            if not misclassified.any():
                self.converged_ = True
                break
            # An overflow in the step leaves weights or activations that are not
            # finite: the checks above and after the loop raise.
            with unchecked_overflow():
                delta = -(signed[misclassified] @ X[misclassified]) / n_samples
                delta_bias = 0.0
                if self.fit_intercept:
                    delta_bias = -signed[misclassified].sum() / n_samples
                size = np.sqrt(delta @ delta + delta_bias**2)
            if size <= self.tol:
                # With tol = 0 a zero correction while examples are misclassified
                # means the weights would never move again: stop, not converged.
                self.converged_ = self.tol > 0
                stuck = not self.converged_
                break
            with unchecked_overflow():
                self.coef_ -= self.eta * delta
                self.intercept_ = float(self.intercept_ - self.eta * delta_bias)
        self.mistakes_per_epoch_ = np.array(mistakes_per_pass, dtype=np.int64)
        check_finite_weights(self, len(mistakes_per_pass), X)  # after a last step
        self.n_iter_ = len(mistakes_per_pass)
        if not self.converged_:
            reason = (
                "the correction is zero although examples are misclassified"
                if stuck
                else f"it stopped at max_iter={self.max_iter}"
            )
            warnings.warn(
                f"BatchPerceptron did not converge: {reason} "
                f"({mistakes_per_pass[-1]} misclassified).",
                ConvergenceWarning,
                stacklevel=5,
            )
