"""Data sets for the course: planted separators, logic gates, the sources' examples, real tasks.

Every function returns labels ``-1`` / ``+1`` (the perceptron's convention)
and float features, and is deterministic given ``random_state``. The real
tasks use data that ships with scikit-learn (Pedregosa et al. 2011), so nothing
is downloaded.
"""

from __future__ import annotations

import itertools
import re
from numbers import Integral, Real
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray
from sklearn import datasets
from sklearn.utils import Bunch, check_random_state

__all__ = [
    "SeparableData",
    "at_least_m_of_n",
    "lecture_notes_example",
    "load_breast_cancer_task",
    "load_digits_pair",
    "load_iris_pair",
    "logic_gate",
    "make_separable",
    "make_xor",
    "min_lift_example",
    "sentiment_example",
    "three_points_example",
]

Labels = NDArray[np.int64]


def _check_int(value: object, name: str, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, Integral):
        raise TypeError(f"{name} must be an integer, got {type(value).__name__}: {value!r}.")
    if value < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {value}.")
    return int(value)


def _check_real(value: object, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, Real):
        raise TypeError(f"{name} must be a real number, got {type(value).__name__}: {value!r}.")
    if not np.isfinite(value):
        raise ValueError(f"{name} must be finite, got {value}.")
    return float(value)


def _signs(is_positive: NDArray[np.bool_]) -> Labels:
    return np.where(is_positive, 1, -1).astype(np.int64)


# -- separable data with a planted separator ----------------------------------


class SeparableData(NamedTuple):
    """Labelled data with a known separator, from :func:`make_separable`."""

    X: NDArray[np.float64]
    """Examples, shape (n_samples, n_features)."""
    y: Labels
    """Labels -1/+1, shape (n_samples,)."""
    coef: NDArray[np.float64]
    """The planted separator's unit-norm weight vector."""
    intercept: float
    """The planted separator's bias."""
    margin: float
    """Geometric margin of ``(coef, intercept)`` on ``(X, y)``."""
    radius: float
    """Radius of the data, ``max ||x_i||``."""


def make_separable(
    n_samples: int = 100,
    *,
    margin: float = 0.1,
    radius: float = 1.0,
    n_features: int = 2,
    intercept: float = 0.0,
    random_state=None,
) -> SeparableData:
    """Random linearly separable data with a chosen margin and radius.

    A unit vector ``coef`` is drawn at random. Every example lies in the ball
    ``||x|| <= radius`` and at distance at least ``margin`` from the plane
    ``coef . x + intercept = 0``, on the side of its label. The construction is
    direct, not by rejection, so large margins work in any dimension: each
    example's coordinate along ``coef`` is drawn uniformly from the allowed
    interval and its orthogonal part uniformly from the ball that remains.

    Both numbers are attained, not just bounded: one example sits exactly at
    distance ``margin`` from the plane and one at norm ``radius`` (up to
    floating-point rounding, about 1e-15 relative). So the returned ``margin``
    and ``radius`` equal the requested ones, and
    :func:`~perceptron_lib.theory.geometry.margin` and
    :func:`~perceptron_lib.theory.geometry.radius` give them back. The data set's
    *maximum* margin (over all separators) can be larger.

    Parameters
    ----------
    n_samples : int, default=100
        Number of examples, >= 2. Both classes always occur.
    margin : float, default=0.1
        Margin of the planted separator, ``0 < margin < radius``.
    radius : float, default=1.0
        Radius of the data, > 0.
    n_features : int, default=2
        Dimension, >= 1.
    intercept : float, default=0.0
        Bias of the planted separator; 0 puts the boundary through the
        origin, so that the perceptron without a bias can also learn it.
        Needs ``|intercept| + margin < radius``.
    random_state : int, RandomState instance or None, default=None
        Seed for reproducible data.

    Returns
    -------
    SeparableData
        Named tuple ``(X, y, coef, intercept, margin, radius)``.

    Examples
    --------
    >>> from perceptron_lib.data.datasets import make_separable
    >>> from perceptron_lib.theory.geometry import margin, radius
    >>> data = make_separable(50, margin=0.2, radius=2.0, random_state=0)
    >>> data.X.shape, sorted(set(data.y.tolist()))
    ((50, 2), [-1, 1])
    >>> round(margin(data.coef, data.intercept, data.X, data.y), 9), round(radius(data.X), 9)
    (0.2, 2.0)
    """
    n_samples = _check_int(n_samples, "n_samples", 2)
    n_features = _check_int(n_features, "n_features", 1)
    margin = _check_real(margin, "margin")
    radius = _check_real(radius, "radius")
    intercept = _check_real(intercept, "intercept")
    if radius <= 0:
        raise ValueError(f"radius must be > 0, got {radius}.")
    if margin <= 0:
        raise ValueError(f"margin must be > 0, got {margin}.")
    if margin >= radius:
        raise ValueError(
            f"margin must be smaller than radius (got margin={margin}, radius={radius}): "
            "no example in the ball ||x|| <= radius is that far from a plane through it."
        )
    if abs(intercept) + margin >= radius:
        raise ValueError(
            f"|intercept| + margin must be < radius (got {abs(intercept)} + {margin} >= "
            f"{radius}): otherwise one side of the plane has no room for examples."
        )
    rng = check_random_state(random_state)
    coef = rng.standard_normal(n_features)
    coef /= np.linalg.norm(coef)

    y = _signs(rng.random_sample(n_samples) < 0.5)
    y[:2] = (1, -1)  # both classes occur
    # Along coef, a positive example needs t + intercept >= margin and |t| <= radius.
    low = np.where(y > 0, margin - intercept, -radius)
    high = np.where(y > 0, radius, -margin - intercept)
    along = low + (high - low) * rng.random_sample(n_samples)
    along[0] = margin - intercept  # example 0 lies exactly on the margin ...
    room = np.sqrt(np.maximum(radius**2 - along**2, 0.0))
    on_sphere = np.zeros(n_samples, dtype=np.bool_)
    if n_features > 1:
        on_sphere[0] = True  # ... and on the sphere
    else:
        along[1] = -radius  # in 1-d the sphere is reached by example 1 instead
    orthogonal = _uniform_in_balls(rng, room, coef, on_sphere)
    X = along[:, None] * coef + orthogonal

    order = rng.permutation(n_samples)  # so the special examples are not always first
    X, y = X[order], y[order]
    distances = y * (X @ coef + intercept)
    return SeparableData(
        X=X,
        y=y,
        coef=coef,
        intercept=intercept,
        margin=float(distances.min()),
        radius=float(np.linalg.norm(X, axis=1).max()),
    )


def _uniform_in_balls(rng, radii: NDArray, normal: NDArray, on_sphere: NDArray) -> NDArray:
    """One point uniform in each ball of the given radius, orthogonal to the unit ``normal``.

    Where ``on_sphere`` is True the point is on the ball's surface instead.
    """
    n_samples, dimension = radii.shape[0], normal.shape[0]
    if dimension == 1:
        return np.zeros((n_samples, 1))
    directions = rng.standard_normal((n_samples, dimension))
    directions -= np.outer(directions @ normal, normal)  # project onto the plane
    directions /= np.linalg.norm(directions, axis=1, keepdims=True)
    # In k dimensions the volume within distance r grows like r^k, hence U^(1/k).
    lengths = radii * rng.random_sample(n_samples) ** (1.0 / (dimension - 1))
    lengths[on_sphere] = radii[on_sphere]
    return directions * lengths[:, None]


# -- boolean functions ------------------------------------------------------


def _all_inputs(n_inputs: int) -> NDArray[np.float64]:
    """Every row of {0,1}^n, in truth-table order (0...0 first, 1...1 last)."""
    return np.array(list(itertools.product((0.0, 1.0), repeat=n_inputs)))


_GATES = {
    "and": lambda bits: all(bits),
    "or": lambda bits: any(bits),
    "nand": lambda bits: not all(bits),
    "nor": lambda bits: not any(bits),
    "xor": lambda bits: sum(bits) % 2 == 1,
}


def logic_gate(name: str, n_inputs: int = 2) -> tuple[NDArray[np.float64], Labels]:
    """The truth table of a logic gate as a data set.

    ``X`` holds every input in {0,1}^n (``2**n_inputs`` rows, truth-table
    order) and ``y`` is +1 where the gate outputs true, -1 where false. With
    more than two inputs, "xor" is the parity function (true for an odd number
    of ones). "and", "or", "nand" and "nor" are linearly separable for every
    number of inputs; "xor" is not for two or more inputs, but with one input
    it is the input itself, which one unit computes.

    Parameters
    ----------
    name : {"and", "or", "nand", "nor", "xor"}
        The gate (case-insensitive).
    n_inputs : int, default=2
        Number of inputs, >= 1.

    Returns
    -------
    X : ndarray of shape (2**n_inputs, n_inputs)
        All 0/1 inputs.
    y : ndarray of shape (2**n_inputs,)
        +1 where the gate is true.

    Examples
    --------
    >>> from perceptron_lib.data.datasets import logic_gate
    >>> X, y = logic_gate("and")
    >>> X.tolist(), y.tolist()
    ([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]], [-1, -1, -1, 1])
    """
    if not isinstance(name, str):
        raise TypeError(f"name must be a string, got {type(name).__name__}: {name!r}.")
    gate = _GATES.get(name.lower())
    if gate is None:
        raise ValueError(f"Unknown gate {name!r}; choose one of {sorted(_GATES)}.")
    n_inputs = _check_int(n_inputs, "n_inputs", 1)
    X = _all_inputs(n_inputs)
    y = _signs(np.array([gate(row.astype(bool).tolist()) for row in X]))
    return X, y


def at_least_m_of_n(m: int, n: int) -> tuple[NDArray[np.float64], Labels]:
    """All of {0,1}^n, labelled +1 where at least ``m`` of the ``n`` inputs are 1.

    The labels are computed by the linear threshold unit that represents the
    function (McCulloch and Pitts 1943), with the course's one convention: all
    weights 1 and bias ``b = -(m - 1/2)``, that is threshold ``m - 1/2``, and
    the unit fires (+1) exactly when its activation
    ``a = x_1 + ... + x_n - (m - 1/2)`` is positive, ``a > 0``. The threshold
    sits halfway between two possible sums, so no input has ``a = 0``.
    ``m = n`` is AND and ``m = 1`` is OR.

    Parameters
    ----------
    m : int
        Threshold, ``0 <= m <= n``.
    n : int
        Number of inputs, >= 1.

    Returns
    -------
    X : ndarray of shape (2**n, n)
        All 0/1 inputs in truth-table order.
    y : ndarray of shape (2**n,)
        +1 where ``sum(x) - (m - 1/2) > 0``, that is where ``sum(x)`` is at least ``m``.

    Examples
    --------
    >>> from perceptron_lib.data.datasets import at_least_m_of_n
    >>> X, y = at_least_m_of_n(2, 3)
    >>> y.tolist()
    [-1, -1, -1, 1, -1, 1, 1, 1]
    """
    n = _check_int(n, "n", 1)
    m = _check_int(m, "m", 0)
    if m > n:
        raise ValueError(f"m must be <= n, got m={m} > n={n}: no input has that many ones.")
    X = _all_inputs(n)
    activation = X @ np.ones(n) - (m - 0.5)  # weights 1, bias -(m - 1/2)
    return X, _signs(activation > 0)


def make_xor(
    n_per_corner: int = 1, *, noise: float = 0.0, random_state=None
) -> tuple[NDArray[np.float64], Labels]:
    """The XOR problem: the corners of the unit square, +1 where exactly one input is 1.

    The corners come in truth-table order, ``n_per_corner`` copies of each,
    each copy moved by independent Gaussian noise of standard deviation
    ``noise``. With no noise, no line separates the classes: the two positive
    corners and the two negative ones are the two diagonals of the square, and
    their midpoints coincide. This elementary fact is older than Minsky and
    Papert (1969), whose theorems concern more: the limits of order- and
    diameter-limited perceptrons on predicates such as parity and
    connectedness.

    Parameters
    ----------
    n_per_corner : int, default=1
        Examples per corner, >= 1.
    noise : float, default=0.0
        Standard deviation of the noise, >= 0.
    random_state : int, RandomState instance or None, default=None
        Seed for the noise.

    Returns
    -------
    X : ndarray of shape (4 * n_per_corner, 2)
        The examples.
    y : ndarray of shape (4 * n_per_corner,)
        +1 where ``x1 XOR x2`` is true for the corner.

    Examples
    --------
    >>> from perceptron_lib.data.datasets import make_xor
    >>> X, y = make_xor()
    >>> X.tolist(), y.tolist()
    ([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]], [-1, 1, 1, -1])
    """
    n_per_corner = _check_int(n_per_corner, "n_per_corner", 1)
    noise = _check_real(noise, "noise")
    if noise < 0:
        raise ValueError(f"noise must be >= 0, got {noise}.")
    corners, labels = logic_gate("xor")
    X = np.repeat(corners, n_per_corner, axis=0)
    y = np.repeat(labels, n_per_corner)
    if noise > 0:
        X = X + noise * check_random_state(random_state).standard_normal(X.shape)
    return X, y


# -- the source texts' small examples ---------------------------------------


def lecture_notes_example() -> tuple[NDArray[np.float64], Labels]:
    """The four examples of the lecture notes' worked trace (perceptron without bias).

    Visited in this order from ``w = (0, 0)``, the perceptron updates on the
    first two and ends at ``w = (-1, 0)``.

    Returns
    -------
    X : ndarray of shape (4, 2)
    y : ndarray of shape (4,)

    Examples
    --------
    >>> from perceptron_lib.data.datasets import lecture_notes_example
    >>> X, y = lecture_notes_example()
    >>> X.tolist(), y.tolist()
    ([[1.0, 3.0], [2.0, 3.0], [-3.0, 1.0], [1.0, -1.0]], [1, -1, 1, -1])
    """
    X = np.array([[1.0, 3.0], [2.0, 3.0], [-3.0, 1.0], [1.0, -1.0]])
    return X, np.array([1, -1, 1, -1], dtype=np.int64)


def three_points_example() -> tuple[NDArray[np.float64], Labels]:
    """The three examples (1, 1, +), (0.5, 3, +), (2, 2, -) of the linear-discriminant slides.

    Returns
    -------
    X : ndarray of shape (3, 2)
    y : ndarray of shape (3,)

    Examples
    --------
    >>> from perceptron_lib.data.datasets import three_points_example
    >>> X, y = three_points_example()
    >>> X.tolist(), y.tolist()
    ([[1.0, 1.0], [0.5, 3.0], [2.0, 2.0]], [1, 1, -1])
    """
    X = np.array([[1.0, 1.0], [0.5, 3.0], [2.0, 2.0]])
    return X, np.array([1, 1, -1], dtype=np.int64)


def min_lift_example(lifted: bool = False) -> tuple[NDArray[np.float64], Labels]:
    """The four corners of the unit square, +1 where ``min(x1, x2) = 0``; optionally lifted.

    This is the blog post's feature-engineering example. A caution: read
    literally, the labelling is NAND (only ``(1, 1)`` is negative), which *is*
    linearly separable in the plane, e.g. by ``-x1 - x2 + 3/2 = 0``; the claim
    that no line separates it does not hold. The post's plane
    ``2 x3 - x1 - x2 + 1/2 = 0`` is the classic XOR fix: with
    ``x3 = x1 AND x2`` it puts ``(0, 0)`` and ``(1, 1)`` on its positive side
    and ``(0, 1)``, ``(1, 0)`` on its negative side.

    With ``lifted=True`` this function adds ``x3 = |x1 - x2|`` (1 exactly when
    one input is 1), a third coordinate for which the post's plane separates
    *this* labelling, positive side up. The post's figure is not available, so
    this lift is our choice.

    Parameters
    ----------
    lifted : bool, default=False
        Add the third coordinate.

    Returns
    -------
    X : ndarray of shape (4, 2) or (4, 3)
    y : ndarray of shape (4,)

    Examples
    --------
    >>> from perceptron_lib.data.datasets import min_lift_example
    >>> X, y = min_lift_example(lifted=True)
    >>> X.tolist(), y.tolist()
    ([[0.0, 0.0, 0.0], [0.0, 1.0, 1.0], [1.0, 0.0, 1.0], [1.0, 1.0, 0.0]], [1, 1, 1, -1])
    >>> (X @ [-1.0, -1.0, 2.0] + 0.5).tolist()
    [0.5, 1.5, 1.5, -1.5]
    """
    if not isinstance(lifted, bool | np.bool_):
        raise TypeError(f"lifted must be True or False, got {lifted!r}.")
    X = _all_inputs(2)
    y = _signs(X.min(axis=1) == 0)
    if lifted:
        X = np.hstack([X, np.abs(X[:, :1] - X[:, 1:])])
    return X, y


# -- the sentiment example -----------------------------------------------------

# Short course reviews, each with exactly one of "excellent" / "terrible". The
# word "not" flips the sentiment of that word, which is what makes the three
# word-presence features XOR-like (Daume, A Course in Machine Learning, 4.7).
_REVIEWS = (
    ("An excellent course", 1),
    ("The lectures were excellent", 1),
    ("Excellent exercises and excellent notes", 1),
    ("The instructor is excellent", 1),
    ("Not an excellent course", -1),
    ("The lectures were not excellent", -1),
    ("The notes are not excellent at all", -1),
    ("A terrible course", -1),
    ("The homework was terrible", -1),
    ("Terrible slides and a terrible exam", -1),
    ("Not a terrible course", 1),
    ("The exam was not terrible", 1),
    ("The homework is not terrible at all", 1),
)
_WORDS = ("excellent", "terrible", "not")
_CONJUNCTIONS = (("excellent", "not"), ("terrible", "not"))


def sentiment_example(*, conjunctions: bool = True) -> Bunch:
    """A tiny deterministic corpus of course reviews, as word-presence features.

    The base features say whether a review contains the word ``excellent``,
    ``terrible`` or ``not``. "Excellent" signals a positive review and
    "terrible" a negative one, but "not" flips either; so, as in Daume's
    example, no linear classifier on the three base features gets every review
    right. The conjunction features ``excellent AND not`` and
    ``terrible AND not`` fix that: Daume's hand-set weights ``+1, -1, 0, -2,
    +2`` (in the order of ``feature_names``) with bias 0 classify every review
    correctly. A bag of words does not know *what* "not" negates; the corpus
    is written so that it always negates the sentiment word.

    Parameters
    ----------
    conjunctions : bool, default=True
        Add the two conjunction features after the three base features.

    Returns
    -------
    Bunch
        ``X`` (n_reviews, 3 or 5) of 0/1 floats; ``y`` (+1 for a positive
        review, -1 for a negative one); ``feature_names``; ``documents``, the
        reviews' text.

    Examples
    --------
    >>> from perceptron_lib.data.datasets import sentiment_example
    >>> reviews = sentiment_example()
    >>> reviews.feature_names
    ['excellent', 'terrible', 'not', 'excellent AND not', 'terrible AND not']
    >>> reviews.documents[4], reviews.X[4].tolist(), int(reviews.y[4])
    ('Not an excellent course', [1.0, 0.0, 1.0, 1.0, 0.0], -1)
    """
    if not isinstance(conjunctions, bool | np.bool_):
        raise TypeError(f"conjunctions must be True or False, got {conjunctions!r}.")
    documents = [text for text, _ in _REVIEWS]
    words = [set(re.findall(r"[a-z]+", text.lower())) for text in documents]
    present = {
        word: np.array([word in found for found in words], dtype=np.float64) for word in _WORDS
    }
    columns = [present[word] for word in _WORDS]
    names = list(_WORDS)
    if conjunctions:
        columns += [present[a] * present[b] for a, b in _CONJUNCTIONS]
        names += [f"{a} AND {b}" for a, b in _CONJUNCTIONS]
    return Bunch(
        X=np.column_stack(columns),
        y=np.array([label for _, label in _REVIEWS], dtype=np.int64),
        feature_names=names,
        documents=documents,
    )


# -- real binary tasks from data shipped with scikit-learn --------------------


def _task(X, is_positive, feature_names, target_names, summary, original_descr) -> Bunch:
    return Bunch(
        X=np.asarray(X, dtype=np.float64),
        y=_signs(np.asarray(is_positive)),
        feature_names=np.asarray(feature_names, dtype=object),
        target_names=np.asarray(target_names, dtype=object),
        DESCR=summary + "\n\n" + original_descr,
    )


def load_breast_cancer_task() -> Bunch:
    """The Wisconsin breast cancer data as a -1/+1 task: +1 is malignant.

    569 tumours, 30 real features. scikit-learn codes malignant as 0 and benign
    as 1; here the class to detect, malignant, is the positive class.

    Returns
    -------
    Bunch
        ``X`` (569, 30), ``y`` (+1 malignant, -1 benign), ``feature_names``,
        ``target_names`` (``target_names[0]`` names the -1 class,
        ``target_names[1]`` the +1 class) and ``DESCR``.

    Examples
    --------
    >>> from perceptron_lib.data.datasets import load_breast_cancer_task
    >>> task = load_breast_cancer_task()
    >>> task.X.shape, task.target_names.tolist(), int((task.y == 1).sum())
    ((569, 30), ['benign', 'malignant'], 212)
    """
    raw = datasets.load_breast_cancer()
    return _task(
        raw.data,
        raw.target == 0,  # 0 is malignant in scikit-learn's coding
        raw.feature_names,
        ["benign", "malignant"],
        "Binary task from scikit-learn's breast cancer data: y = +1 malignant, y = -1 benign.",
        raw.DESCR,
    )


_IRIS_SPECIES = ("setosa", "versicolor", "virginica")


def load_iris_pair(first: str = "setosa", second: str = "versicolor") -> Bunch:
    """Two of the three iris species as a -1/+1 task: ``first`` is -1, ``second`` is +1.

    100 flowers, 4 features (sepal and petal length and width, cm). Setosa is
    linearly separable from either other species; versicolor and virginica are
    not separable from each other.

    Parameters
    ----------
    first : {"setosa", "versicolor", "virginica"}, default="setosa"
        The species labelled -1.
    second : {"setosa", "versicolor", "virginica"}, default="versicolor"
        The species labelled +1; must differ from ``first``.

    Returns
    -------
    Bunch
        ``X`` (100, 4), ``y``, ``feature_names``, ``target_names`` (``[first,
        second]``, the names of the -1 and +1 class) and ``DESCR``.

    Examples
    --------
    >>> from perceptron_lib.data.datasets import load_iris_pair
    >>> task = load_iris_pair("versicolor", "virginica")
    >>> task.X.shape, task.target_names.tolist(), sorted(set(task.y.tolist()))
    ((100, 4), ['versicolor', 'virginica'], [-1, 1])
    """
    for name, value in (("first", first), ("second", second)):
        if value not in _IRIS_SPECIES:
            raise ValueError(f"{name} must be one of {list(_IRIS_SPECIES)}, got {value!r}.")
    if first == second:
        raise ValueError(f"first and second must be different species, both are {first!r}.")
    raw = datasets.load_iris()
    codes = (_IRIS_SPECIES.index(first), _IRIS_SPECIES.index(second))
    keep = np.isin(raw.target, codes)
    return _task(
        raw.data[keep],
        raw.target[keep] == codes[1],
        raw.feature_names,
        [first, second],
        f"Binary task from scikit-learn's iris data: y = -1 {first}, y = +1 {second}.",
        raw.DESCR,
    )


def load_digits_pair(first: int = 3, second: int = 8) -> Bunch:
    """Two handwritten digits as a -1/+1 task: ``first`` is -1, ``second`` is +1.

    8x8 images with pixel intensities 0 to 16, flattened to 64 features; about
    180 images of each digit.

    Parameters
    ----------
    first : int, default=3
        The digit labelled -1, 0 to 9.
    second : int, default=8
        The digit labelled +1, 0 to 9; must differ from ``first``.

    Returns
    -------
    Bunch
        ``X`` (n, 64), ``y``, ``feature_names`` (``pixel_row_column``),
        ``target_names`` (``[str(first), str(second)]``) and ``DESCR``.

    Examples
    --------
    >>> from perceptron_lib.data.datasets import load_digits_pair
    >>> task = load_digits_pair(3, 8)
    >>> task.X.shape, task.target_names.tolist()
    ((357, 64), ['3', '8'])
    """
    for name, value in (("first", first), ("second", second)):
        _check_int(value, name, 0)
        if value > 9:
            raise ValueError(f"{name} must be a digit from 0 to 9, got {value}.")
    if first == second:
        raise ValueError(f"first and second must be different digits, both are {first}.")
    raw = datasets.load_digits()
    keep = np.isin(raw.target, (first, second))
    return _task(
        raw.data[keep],
        raw.target[keep] == second,
        raw.feature_names,
        [str(first), str(second)],
        f"Binary task from scikit-learn's digits data: y = -1 digit {first}, "
        f"y = +1 digit {second}.",
        raw.DESCR,
    )
