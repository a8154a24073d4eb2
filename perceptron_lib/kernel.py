"""The kernel perceptron: the perceptron in dual form.

It goes back to the potential-function method of Aizerman, Braverman and
Rozonoer (1964).

From zero weights, the perceptron's weight vector is always a sum of the
examples it made mistakes on: ``w = sum_i alpha_i y_i x_i``, where ``alpha_i``
counts the updates example ``i`` caused. So the activation needs only dot
products between examples,

    a(x) = sum_i alpha_i y_i (x_i . x) + b,

and replacing ``x_i . x`` by a kernel ``K(x_i, x) = phi(x_i) . phi(x)`` runs the
perceptron on the features ``phi(x)`` without ever computing them. This module
keeps the counts ``alpha_i`` instead of ``w``.

The cost moves from the features to the examples: training precomputes the
Gram matrix ``K(x_i, x_j)`` of the training set (``8 n^2`` bytes for ``n``
examples), one pass costs up to ``n`` kernel terms per example, and a
prediction costs one kernel evaluation per support vector (per example that
caused an update), a number that grows with the updates.
"""

from __future__ import annotations

import math
import warnings
from numbers import Integral, Real

import numpy as np
from numpy.typing import ArrayLike, NDArray
from sklearn.exceptions import ConvergenceWarning
from sklearn.metrics.pairwise import linear_kernel, polynomial_kernel, rbf_kernel
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import Interval, StrOptions

from ._base import LinearBinaryClassifier, unchecked_overflow
from .loops.jit import compiled

__all__ = ["KernelPerceptron", "kernel_perceptron_epoch"]


@compiled
def kernel_perceptron_epoch(gram, y, order, update_counts, b, mistakes):
    """One pass of the kernel perceptron over the examples in ``order``.

    ``gram[j, i]`` is ``K(x_j, x_i)``; ``update_counts[j]`` is how many updates
    example ``j`` has caused so far (``alpha_j``). The activation on example
    ``i`` is ``sum_j alpha_j y_j K(x_j, x_i) + b``, the primal ``w . x_i + b``
    with ``w = sum_j alpha_j y_j phi(x_j)``. A mistake (``y_i a <= 0``) adds one
    to ``alpha_i`` (the primal ``w <- w + y_i phi(x_i)``) and ``y_i`` to the bias.
    ``update_counts`` is updated in place and ``mistakes[t]`` set for the t-th
    example visited. Returns the new bias.
    """
    for t in range(order.shape[0]):
        i = order[t]
        a = 0.0
        for j in range(gram.shape[0]):
            if update_counts[j] > 0:  # only examples that caused an update count
                a += update_counts[j] * y[j] * gram[j, i]
        a += b
        if not math.isfinite(a):
            return math.nan  # overflow: the caller raises
        mistakes[t] = y[i] * a <= 0.0
        if mistakes[t]:
            update_counts[i] += 1
            b += y[i]
    return b


class KernelPerceptron(LinearBinaryClassifier):
    """The perceptron in dual form, with a kernel.

    It learns exactly what :class:`~perceptron_lib.Perceptron` (with
    ``eta=1``) learns on the feature map ``phi`` of the kernel, making the same
    mistakes in the same order (given the same ``random_state``), but stores
    how many updates each training example caused instead of the weights.
    The decision function is ``sum_i alpha_i y_i K(x_i, x) + b``; it predicts
    ``classes_[1]`` where it is > 0. Training stops after the first epoch
    without a mistake, or after ``max_iter`` epochs with a
    :class:`~sklearn.exceptions.ConvergenceWarning`.

    Parameters
    ----------
    kernel : {"linear", "poly", "rbf"} or callable, default="linear"
        The kernel, with the meaning of :mod:`sklearn.metrics.pairwise`:
        ``"linear"`` is ``x . z``, ``"poly"`` is ``(gamma x . z + coef0) ** degree``,
        ``"rbf"`` is ``exp(-gamma ||x - z||^2)``. A callable ``kernel(A, B)``
        must return the matrix of ``K(a, b)`` for the rows of ``A`` and ``B``.
    degree : int, default=2
        Degree of the polynomial kernel, >= 1; ignored by the others.
    gamma : float or None, default=None
        Scale of ``"poly"`` and ``"rbf"``, > 0; None means ``1 / n_features``.
    coef0 : float, default=1.0
        Constant term of ``"poly"``.
    max_iter : int, default=100
        Maximum number of epochs (passes over the data), >= 1.
    shuffle : bool, default=True
        Visit the examples in a new random order every epoch (the same orders
        as :class:`~perceptron_lib.Perceptron` for the same ``random_state``).
    random_state : int, RandomState instance or None, default=None
        Seeds the order of the examples when ``shuffle=True``.
    n_jobs : int or None, default=1
        With more than two classes: how many threads fit the binary models of
        one-vs-rest at once, in ``fit``. None means 1 (unless inside a
        ``joblib.parallel_backend`` context), -1 every core. The weights do not
        depend on it.

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        The two labels, sorted; ``classes_[1]`` is the positive class.
    update_counts_ : ndarray of int, shape (n_samples,)
        ``alpha_i``: how many updates each training example caused.
    support_ : ndarray of int, shape (n_SV,)
        Indices of the training examples with ``alpha_i > 0``.
    support_vectors_ : ndarray of shape (n_SV, n_features)
        Those examples: all the model keeps of the training data.
    dual_coef_ : ndarray of shape (1, n_SV)
        ``alpha_i y_i`` of the support vectors (as in scikit-learn's SVC).
    intercept_ : ndarray of shape (1,) or (n_classes,)
        The bias ``b``: the sum of ``y_i`` over all updates (one per class with
        more than two classes).
    estimators_ : list of KernelPerceptron
        With more than two classes only: the binary model of each class
        against the rest (one-vs-rest), which holds the attributes above.
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
    Perceptron : The primal form, on the original features.
    sklearn.svm.SVC : A maximum-margin kernel classifier with the same attribute names.

    Examples
    --------
    XOR, which no line separates, with the kernel ``(x . z + 1) ** 2``:

    >>> from perceptron_lib import KernelPerceptron
    >>> X = [[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]]
    >>> y = [-1, 1, 1, -1]
    >>> model = KernelPerceptron(kernel="poly", degree=2, gamma=1.0, shuffle=False)
    >>> model = model.fit(X, y)
    >>> model.predict(X).tolist()
    [-1, 1, 1, -1]
    >>> model.converged_, model.update_counts_.tolist(), model.support_.tolist()
    (True, [8, 6, 6, 5], [0, 1, 2, 3])
    """

    _parameter_constraints: dict = {
        "kernel": [StrOptions({"linear", "poly", "rbf"}), callable],
        "degree": [Interval(Integral, 1, None, closed="left")],
        "gamma": [Interval(Real, 0, None, closed="neither"), None],
        "coef0": [Interval(Real, None, None, closed="neither")],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        "shuffle": ["boolean"],
        "random_state": ["random_state"],
        "n_jobs": LinearBinaryClassifier._parameter_constraints["n_jobs"],
    }

    def __init__(
        self,
        *,
        kernel="linear",
        degree: int = 2,
        gamma: float | None = None,
        coef0: float = 1.0,
        max_iter: int = 100,
        shuffle: bool = True,
        random_state=None,
        n_jobs: int | None = 1,
    ):
        self.kernel = kernel
        self.degree = degree
        self.gamma = gamma
        self.coef0 = coef0
        self.max_iter = max_iter
        self.shuffle = shuffle
        self.random_state = random_state
        self.n_jobs = n_jobs

    def _validate_params(self) -> None:
        super()._validate_params()
        # scikit-learn counts True as the integer 1; a degree of True is a bug.
        if isinstance(self.degree, (bool, np.bool_)):
            raise TypeError(
                f"The 'degree' parameter of {type(self).__name__} must be an int, "
                f"got the bool {self.degree}."
            )

    def _kernel_matrix(self, A: NDArray, B: NDArray) -> NDArray[np.float64]:
        """Return the matrix of ``K(a, b)``, ``a`` a row of ``A``, ``b`` of ``B``."""
        if self.kernel == "linear":
            return linear_kernel(A, B)
        if self.kernel == "poly":
            return polynomial_kernel(
                A,
                B,
                degree=self.degree,
                gamma=self.gamma,
                coef0=self.coef0,
            )
        if self.kernel == "rbf":
            return rbf_kernel(A, B, gamma=self.gamma)
        values = np.asarray(self.kernel(A, B), dtype=np.float64)
        if values.shape != (A.shape[0], B.shape[0]):
            raise ValueError(
                f"The kernel function returned shape {values.shape} for inputs of "
                f"{A.shape[0]} and {B.shape[0]} rows; it must return the matrix of "
                f"K(a, b), shape ({A.shape[0]}, {B.shape[0]})."
            )
        if not np.all(np.isfinite(values)):
            raise ValueError("The kernel function returned NaN or infinite values.")
        return values

    def fit(self, X: ArrayLike, y: ArrayLike):
        """Learn the counts from zero until a mistake-free epoch, or ``max_iter``.

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
        with unchecked_overflow():  # a kernel that overflows is reported just below
            gram = np.ascontiguousarray(self._kernel_matrix(X, X))  # n x n: 8 n^2 bytes
        if not np.all(np.isfinite(gram)):
            raise ValueError(
                f"The kernel {self.kernel!r} overflowed on the training data (NaN or infinite "
                "values); lower its degree or gamma, or scale the features."
            )
        n_samples = X.shape[0]
        update_counts = np.zeros(n_samples, dtype=np.int64)
        bias = 0.0
        rng = check_random_state(self.random_state)
        per_epoch = []
        for _ in range(self.max_iter):
            # The same orders as Perceptron: a permutation per epoch, one generator.
            order = rng.permutation(n_samples) if self.shuffle else np.arange(n_samples)
            mistakes = np.zeros(n_samples, dtype=np.bool_)
            bias = float(
                kernel_perceptron_epoch(
                    gram,
                    signed,
                    order,
                    update_counts,
                    bias,
                    mistakes,
                )
            )
            if not np.isfinite(bias):
                raise ValueError(
                    f"Floating-point overflow in epoch {len(per_epoch) + 1} of KernelPerceptron: "
                    "an activation is no longer finite; lower the kernel's degree or gamma, "
                    "or scale the features."
                )
            per_epoch.append(int(mistakes.sum()))
            if per_epoch[-1] == 0:
                break
        self._store(X, signed, update_counts, bias, per_epoch)
        if not self.converged_:
            warnings.warn(
                f"KernelPerceptron made {per_epoch[-1]} mistake(s) in its last "
                f"epoch and stopped at max_iter={self.max_iter}. The data may not be "
                "separable with this kernel; the model is that of the last epoch.",
                ConvergenceWarning,
                stacklevel=5,
            )

    def _store(self, X, signed, update_counts, bias, per_epoch) -> None:
        """Set the fitted attributes from the final counts and bias."""
        self.update_counts_ = update_counts
        self.support_ = np.flatnonzero(update_counts > 0)
        self.support_vectors_ = X[self.support_]
        alpha_y = update_counts[self.support_] * signed[self.support_]
        self.dual_coef_ = alpha_y[None, :]
        self.intercept_ = np.array([bias])
        self.mistakes_per_epoch_ = np.array(per_epoch, dtype=np.int64)
        self.n_iter_ = len(per_epoch)
        self.converged_ = per_epoch[-1] == 0

    def decision_function(self, X: ArrayLike) -> NDArray[np.float64]:
        """Return ``sum_i alpha_i y_i K(x_i, x) + b`` for every example ``x`` of ``X``.

        Positive scores are predictions of ``classes_[1]``. Costs one kernel
        evaluation per support vector and example.
        """
        X = self._validate_prediction_data(X)
        if hasattr(self, "estimators_"):  # more than two classes: one score per class
            return np.column_stack([model.decision_function(X) for model in self.estimators_])
        # From zero the first example is always a mistake: there is a support vector.
        scores = self.dual_coef_ @ self._kernel_matrix(self.support_vectors_, X)
        return scores[0] + self.intercept_[0]
