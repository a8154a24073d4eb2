"""The source texts' small worked examples, a tiny corpus of reviews, three groups on a line.

Each returns float features and labels ``-1`` / ``+1`` (chapters 1-7), except
the three groups of chapter 9, whose labels are class indices; none is random.
"""

from __future__ import annotations

import re

import numpy as np
from numpy.typing import NDArray
from sklearn.utils import Bunch

from .boolean import _all_inputs
from .checks import Labels, _signs

__all__ = [
    "lecture_notes_example",
    "min_lift_example",
    "sentiment_example",
    "three_groups_example",
    "three_points_example",
]


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
    >>> from perceptron_lib.data.examples import lecture_notes_example
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
    >>> from perceptron_lib.data.examples import three_points_example
    >>> X, y = three_points_example()
    >>> X.tolist(), y.tolist()
    ([[1.0, 1.0], [0.5, 3.0], [2.0, 2.0]], [1, 1, -1])
    """
    X = np.array([[1.0, 1.0], [0.5, 3.0], [2.0, 2.0]])
    return X, np.array([1, 1, -1], dtype=np.int64)


def three_groups_example() -> tuple[NDArray[np.float64], NDArray[np.int64]]:
    """Three groups of three points along a line: left (class 0), middle (1), right (2).

    No single threshold separates the middle group from the two others, so the
    middle class's one-vs-rest model must err; a joint multiclass model (one
    score line per class, the highest wins) separates all three (chapter 9).
    Every value is a multiple of 1/2, exact in floating point.

    Returns
    -------
    X : ndarray of shape (9, 1)
    y : ndarray of shape (9,), class indices 0, 1, 2

    Examples
    --------
    >>> from perceptron_lib.data.examples import three_groups_example
    >>> X, y = three_groups_example()
    >>> X.ravel().tolist(), y.tolist()
    ([-4.0, -3.0, -2.0, -0.5, 0.0, 0.5, 2.0, 3.0, 4.0], [0, 0, 0, 1, 1, 1, 2, 2, 2])
    """
    X = np.array([[-4.0], [-3.0], [-2.0], [-0.5], [0.0], [0.5], [2.0], [3.0], [4.0]])
    return X, np.repeat(np.arange(3, dtype=np.int64), 3)


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
    >>> from perceptron_lib.data.examples import min_lift_example
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
    >>> from perceptron_lib.data.examples import sentiment_example
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
