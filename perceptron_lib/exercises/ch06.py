"""Checks for the exercises of chapter 6, voting and averaging.

The references are the library's: :func:`perceptron_lib.theory.averaging.vote` for the
voted prediction and the compiled loop
:func:`perceptron_lib.loops.plain.averaged_perceptron_epoch` (Daume's Algorithm 7,
the loop of :class:`~perceptron_lib.AveragedPerceptron`) for the averaged
perceptron. A hint is given only when the suspected slip, recomputed on the
failing case, gives exactly what the student's function returned.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..loops.plain import averaged_perceptron_epoch
from ..theory.averaging import vote as _library_vote
from ..theory.averaging import weighted_sum as _library_weighted_sum
from . import ExerciseFailure, check_function, describe, diagnose, not_written

__all__ = ["check_averaged_perceptron", "check_disagreement", "check_vote"]


# -- the vote -----------------------------------------------------------------


def _arrays(vectors: Sequence) -> tuple[NDArray, NDArray, NDArray]:
    """Split a list of ``(w, b, c)`` into weights, biases and counts."""
    weights = np.array([np.asarray(w, dtype=float) for w, _, _ in vectors])
    biases = np.array([float(b) for _, b, _ in vectors])
    counts = np.array([float(c) for _, _, c in vectors])
    return weights, biases, counts


def _reference_vote(vectors: Sequence, x: ArrayLike) -> int:
    weights, biases, counts = _arrays(vectors)
    total = _library_vote(weights, biases, counts, [np.asarray(x, dtype=float)])[0]
    return 1 if total > 0 else -1


def _voted(
    vectors: Sequence,
    x: ArrayLike,
    *,
    tie=-1,
    total_tie=-1,
    bias=True,
    counts=True,
    own=True,
    longest=False,
) -> int:
    """The vote, or the vote with one of the usual slips (to confirm a hint).

    ``tie`` is what a vector with activation 0 votes (-1 right, +1 for ``>= 0``,
    0 for ``np.sign``); ``total_tie`` what a total of 0 predicts; ``bias=False``
    forgets ``b``; ``counts=False`` gives every vector one vote; ``own=False``
    adds up ``c * a`` (the averaged perceptron's rule); ``longest=True``
    predicts with the longest-lived vector alone (the first of equal counts,
    as ``max`` and ``np.argmax`` pick it).
    """
    weights, biases, counts_ = _arrays(vectors)
    activations = weights @ np.asarray(x, dtype=float) + (biases if bias else 0.0)
    if longest:
        return 1 if activations[int(np.argmax(counts_))] > 0 else -1
    votes = np.where(activations > 0, 1.0, np.where(activations < 0, -1.0, tie))
    if not own:
        votes = activations
    total = float((counts_ if counts else np.ones_like(counts_)) @ votes)
    return 1 if total > 0 else (-1 if total < 0 else total_tie)


_VOTE_SLIPS = [
    (
        {"own": False},
        "you added up c * (w . x + b), which is the averaged perceptron's rule. The vote "
        "takes each vector's own prediction (+1 or -1) first, then adds c times it.",
    ),
    (
        {"counts": False},
        "every vector's vote counts c times: multiply its prediction by its count.",
    ),
    ({"bias": False}, "each vector's activation is w . x + b: add its bias b."),
    (
        {"tie": 1},
        "a vector whose activation is exactly 0 predicts -1: test w . x + b > 0, not >= 0.",
    ),
    (
        {"tie": 0},
        "np.sign(0) is 0, so a vector whose activation is exactly 0 did not vote; it "
        "predicts -1 and votes -1.",
    ),
    ({"total_tie": 1}, "a total vote of exactly 0 predicts -1: test total > 0, not >= 0."),
    (
        {"longest": True},
        "you predicted with the longest-lived vector alone. Every vector votes: add up "
        "c times each vector's prediction, and predict +1 if the total is positive.",
    ),
]


def _vote_hint(arguments: Mapping[str, Any], got: Any, expected: int) -> list[str]:
    vectors, x = arguments["vectors"], arguments["x"]
    return diagnose(
        got, expected, [(_voted(vectors, x, **slip), hint) for slip, hint in _VOTE_SLIPS]
    )


def _vote_case(vectors: Sequence, x: Sequence) -> tuple:
    """A case as the chapter holds its vectors: NumPy arrays for w and x."""
    return ([(np.array(w, dtype=float), b, c) for w, b, c in vectors], np.array(x, dtype=float))


_VOTE_CASES = [
    _vote_case([([1.0], 0.0, 1)], [2.0]),
    _vote_case([([1.0], 0.0, 1)], [0.0]),  # a = 0: -1
    _vote_case([([1.0], -2.0, 1)], [1.0]),  # the bias turns it negative
    _vote_case([([1.0], -1.0, 3)], [1.0]),
    _vote_case([([1.0], 0.0, 1), ([-1.0], 0.0, 1)], [1.0]),  # a total of 0: -1
    _vote_case([([1.0], 0.0, 3), ([-1.0], 0.0, 1)], [1.0]),
    _vote_case([([1.0], 0.0, 2), ([-10.0], 0.0, 1)], [1.0]),
    # The longest-lived vector (count 3) says +1, but 4 votes against 3 say -1.
    _vote_case([([1.0], 0.0, 3), ([-1.0], 0.0, 2), ([-1.0], 0.0, 2)], [1.0]),
    _vote_case([([1.0], 0.0, 3), ([1.0], 1.0, 2)], [0.0]),  # a = 0 votes -1, not 0
    _vote_case([([1.0, 1.0], 1.0, 2), ([-1.0, -1.0], 0.0, 1)], [1.0, 2.0]),
    _vote_case([([0.0, 1.0], 0.0, 4), ([2.0, -1.0], 1.0, 1), ([1.0, 1.0], -1.0, 2)], [0.5, -1.0]),
]


def check_vote(voted_prediction: Callable[[Sequence, ArrayLike], int]) -> None:
    """Check ``voted_prediction(vectors, x) -> +1 or -1``, the voted perceptron's prediction.

    ``vectors`` is a list of ``(w, b, c)``: a weight vector (a NumPy array), its
    bias and its survival count; ``x`` is a NumPy array. Each vector predicts
    +1 if ``w . x + b > 0`` and -1 otherwise; the answer is +1 if
    ``sum_k c_k * prediction_k > 0``, else -1.

    Examples
    --------
    >>> import numpy as np
    >>> def voted_prediction(vectors, x):
    ...     total = sum(c * (1 if np.dot(w, x) + b > 0 else -1) for w, b, c in vectors)
    ...     return 1 if total > 0 else -1
    >>> check_vote(voted_prediction)
    All 11 checks passed for voted_prediction.
    """
    check_function(
        voted_prediction, _reference_vote, _VOTE_CASES, name="voted_prediction", hint=_vote_hint
    )


# -- a case where the vote and the average disagree ----------------------------

# A total within this fraction of the size of its terms is 0 up to rounding. Floating
# point rounds each term by about 1e-16 of its size; 1e-9 leaves room for long sums
# and is still far below any difference a student chooses on purpose.
_ROUNDING = 1e-9


def check_disagreement(vectors: Sequence, x: ArrayLike) -> None:
    """Check that the vote and the averaged prediction of ``vectors`` differ at ``x``.

    ``vectors`` is a list of ``(w, b, c)`` with whole survival counts ``c >= 1``;
    ``x`` a point with as many features as each ``w``. The averaged prediction
    is +1 if ``sum_k c_k (w_k . x + b_k) > 0`` and -1 otherwise; the vote is +1
    if ``sum_k c_k * prediction_k > 0`` and -1 otherwise. The two must differ
    because of the vote itself, not because of the rule at 0: a total of
    exactly 0, or a vector whose activation at ``x`` is exactly 0, is decided
    by that rule (it predicts -1), so such a case is refused. So is an
    activation or a sum that is 0 up to rounding (within ``1e-9`` of the size
    of its terms, as ``0.1 * 3 - 0.3``, which comes out as ``5.55e-17``): its
    sign is rounding error.

    Examples
    --------
    >>> check_disagreement([([1.0], 0.0, 2), ([-10.0], 0.0, 1)], [1.0])
    Right: the vote predicts +1 (score 1), the average -1 (score -8).
    >>> check_disagreement([([1.0], 0.0, 1)], [1.0])
    Traceback (most recent call last):
    ...
    perceptron_lib.exercises.ExerciseFailure: These vectors agree at x = [1.0]: the vote \
predicts +1 (score 1) and so does the average (score 1).
    >>> check_disagreement([([2.0], 0.0, 1), ([-1.0], 0.0, 1)], [1.0])
    Traceback (most recent call last):
    ...
    perceptron_lib.exercises.ExerciseFailure: The vote is a tie at x = [1.0] (score 0): it \
predicts -1 only because a total of 0 predicts -1, not because more votes say -1. Find a \
case where the vote has a majority.
    >>> check_disagreement([([0.1], -0.3, 2), ([-1.0], 0.0, 1)], [3.0])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    perceptron_lib.exercises.ExerciseFailure: Vector number 1 has activation 5.55e-17 at \
x = [3.0], which is 0 up to rounding...
    """
    not_written(vectors=vectors, x=x)
    try:
        weights, biases, counts = _arrays(vectors)
        x = np.asarray(x, dtype=float)
        if weights.ndim != 2 or x.shape != (weights.shape[1],):
            raise ValueError
    except (TypeError, ValueError):
        raise ExerciseFailure(
            "Pass a list of (w, b, c) whose w all have the same length, and a point x "
            "of that length."
        ) from None
    if np.any(counts < 1) or np.any(counts != np.round(counts)):
        raise ExerciseFailure(
            "A survival count is a number of examples: a whole number, at least 1 "
            f"(got {describe(counts.tolist())})."
        )
    activations = weights @ x + biases
    on_boundary = np.flatnonzero(activations == 0)
    if on_boundary.size:
        raise ExerciseFailure(
            f"Vector number {on_boundary[0] + 1} has activation exactly 0 at x = "
            f"{describe(x)}: it votes -1 only by the rule at the boundary. Choose x off "
            "every vector's boundary, so that the difference comes from the vote itself."
        )
    # Floating point rounds each term by about 1e-16 of its size, so an activation
    # that is 0 in exact arithmetic (0.1 * 3 - 0.3) can come out as 5.6e-17: its
    # sign is then rounding error, and so is the vote that rests on it.
    near = np.flatnonzero(
        np.abs(activations) <= _ROUNDING * (np.abs(weights) @ np.abs(x) + np.abs(biases))
    )
    if near.size:
        k = near[0]
        raise ExerciseFailure(
            f"Vector number {k + 1} has activation {activations[k]:.3g} at x = "
            f"{describe(x)}, which is 0 up to rounding: it is within {_ROUNDING:g} of "
            "the size of the terms that make it up, as 0.1 * 3 - 0.3 (0 in exact "
            "arithmetic) comes out as 5.55e-17 in floating point. Its sign, and so "
            "its vote, is rounding error. Choose x clearly off every vector's boundary."
        )
    voted = float(_library_vote(weights, biases, counts, [x])[0])
    averaged = float(_library_weighted_sum(weights, biases, counts, [x])[0])
    # A total of exactly 0 predicts -1 by the course's rule at 0: a disagreement
    # that rests on it says nothing about votes against activations.
    if voted == 0:
        raise ExerciseFailure(
            f"The vote is a tie at x = {describe(x)} (score 0): it predicts -1 only "
            "because a total of 0 predicts -1, not because more votes say -1. Find a "
            "case where the vote has a majority."
        )
    if averaged == 0:
        raise ExerciseFailure(
            f"The sum of activations is exactly 0 at x = {describe(x)}: the average "
            "predicts -1 there only by the rule at 0. Find a case where the sum is not 0."
        )
    # The same rounding can leave a sum that is 0 in exact arithmetic just off 0.
    if abs(averaged) <= _ROUNDING * float(counts @ (np.abs(weights) @ np.abs(x) + np.abs(biases))):
        raise ExerciseFailure(
            f"The sum of activations is {averaged:.3g} at x = {describe(x)}, which is 0 "
            f"up to rounding: it is within {_ROUNDING:g} of the size of the terms that "
            "make it up. Its sign is rounding error, so the average predicts it only by "
            "accident. Find a case where the sum is clearly not 0."
        )
    said = {True: "+1", False: "-1"}
    if (voted > 0) == (averaged > 0):
        raise ExerciseFailure(
            f"These vectors agree at x = {describe(x)}: the vote predicts "
            f"{said[voted > 0]} (score {voted:g}) and so does the average "
            f"(score {averaged:g})."
        )
    print(
        f"Right: the vote predicts {said[voted > 0]} (score {voted:g}), the average "
        f"{said[averaged > 0]} (score {averaged:g})."
    )


# -- Algorithm 7 ----------------------------------------------------------------


def _reference_averaged(X: ArrayLike, y: ArrayLike, passes: int):
    X = np.ascontiguousarray(X, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    if X.ndim != 2 or y.shape != (X.shape[0],):
        raise ValueError("X must be 2-d with one label in y per row.")
    w, q = np.zeros(X.shape[1]), np.zeros(X.shape[1])
    b, beta, j = 0.0, 0.0, 1.0
    order = np.arange(X.shape[0])
    mistakes = np.zeros(X.shape[0], dtype=np.bool_)
    for _ in range(passes):  # every pass, as in Algorithm 7 (no early stop)
        b, beta, j = averaged_perceptron_epoch(X, y, order, w, b, q, beta, j, 1.0, True, mistakes)
    return w - q / j, float(b - beta / j)


def _variant(
    X,
    y,
    passes,
    *,
    count_every_example=True,
    start=1.0,
    sign=-1.0,
    count_first=False,
    strict=False,
    bias=True,
    divide=True,
):
    """Algorithm 7 with one of the usual slips, to confirm a hint.

    ``start=0.0`` is also what averaging the T vectors after the examples gives
    (dividing by T, leaving out the starting vector); ``divide=False`` returns
    the sum of the T + 1 vectors instead of their average.
    """
    X, y = np.asarray(X, dtype=float), np.asarray(y, dtype=float)
    w, q = np.zeros(X.shape[1]), np.zeros(X.shape[1])
    b, beta, j = 0.0, 0.0, start
    for _ in range(passes):
        for x, label in zip(X, y, strict=True):
            if count_first:
                j += 1
            score = label * (w @ x + b)
            mistake = score < 0 if strict else score <= 0
            if mistake:
                w, q = w + label * x, q + label * j * x
                if bias:
                    b, beta = b + label, beta + label * j
            if not count_first and (count_every_example or mistake):
                j += 1
    if not divide:
        return j * w + sign * q, j * b + sign * beta
    return w + sign * q / j, b + sign * beta / j


_AVERAGED_SLIPS = [
    (
        {"sign": 0.0},
        "that is the last (w, b); return the averaged ones, w - q / j and b - beta / j.",
    ),
    (
        {"count_every_example": False},
        "the counter j must grow by one after every example, mistake or not: it "
        "counts how long each vector survives.",
    ),
    (
        {"start": 0.0},
        "you divided by T, the number of examples visited, where chapter 6's average "
        "divides by T + 1: it averages the T + 1 vectors w_0, ..., w_T, the starting "
        "w_0 = 0 included. If you averaged the vectors w_1, ..., w_T after the examples, "
        "count w_0 too; if you wrote Algorithm 7, it starts its counter at j = 1; yours "
        "starts at 0. Yours is (T + 1) / T times the average: it predicts the same, but it "
        "is not the number the exercise asks for.",
    ),
    (
        {"divide": False},
        "that is the sum of the T + 1 vectors w_0, ..., w_T; their average divides it by "
        "T + 1: return w - q / j and b - beta / j.",
    ),
    (
        {"count_first": True},
        "add 1 to j after the example (and its update), not before it.",
    ),
    ({"sign": 1.0}, "subtract the cached sums: the average is w - q / j, not w + q / j."),
    (
        {"strict": True},
        "an example exactly on the boundary is a mistake: test y (w . x + b) <= 0, not "
        "< 0 (from zero weights every activation is 0).",
    ),
    ({"bias": False}, "update the bias too: b += y and beta += j y at every mistake."),
]


def _averaged_hint(arguments: Mapping[str, Any], got: Any, expected: Any) -> list[str]:
    X, y, passes = arguments["X"], arguments["y"], arguments["passes"]
    return diagnose(
        got, expected, [(_variant(X, y, passes, **slip), hint) for slip, hint in _AVERAGED_SLIPS]
    )


_AVERAGED_CASES = [
    (np.array(X, dtype=float), np.array(y), passes)
    for X, y, passes in [
        ([[1.0]], [1], 1),
        ([[1.0], [-1.0]], [1, -1], 1),
        ([[1.0], [-1.0]], [1, -1], 3),
        ([[2.0, 1.0], [-1.0, -2.0], [1.0, -1.0]], [1, -1, 1], 2),
        ([[1.0, 1.0], [0.5, 3.0], [2.0, 2.0]], [1, 1, -1], 4),
        ([[1.0, 3.0], [2.0, 3.0], [-3.0, 1.0], [1.0, -1.0]], [1, -1, 1, -1], 5),
        ([[0.0, 1.0], [1.0, 0.0], [1.0, 1.0], [0.0, 0.0]], [1, 1, -1, -1], 6),
    ]
]


def check_averaged_perceptron(
    averaged_perceptron: Callable[[ArrayLike, ArrayLike, int], Any],
) -> None:
    """Check ``averaged_perceptron(X, y, passes) -> (w, b)``: Daume's Algorithm 7.

    The answer is the average of the ``T + 1`` weight vectors ``w_0 = 0, w_1,
    ..., w_T`` (and biases) of a run that visits ``T`` examples, chapter 6's
    definition. Dividing by ``T`` instead predicts alike but is another number:
    it is refused with a hint that says so. Start from ``w = q = 0``,
    ``b = beta = 0`` and ``j = 1``; visit the examples in the order given,
    ``passes`` times (no early stop). On a mistake (``y (w . x + b) <= 0``)
    add ``y x`` to ``w``, ``y`` to ``b``, ``j y x`` to ``q`` and ``j y`` to
    ``beta``; after every example add 1 to ``j``. Return
    ``w - q / j`` and ``b - beta / j`` (the names of chapter 6's Algorithm 7).
    ``X`` is a 2-d NumPy array and ``y`` an array of labels -1 and +1.

    Examples
    --------
    >>> import numpy as np
    >>> def averaged_perceptron(X, y, passes):
    ...     X, y = np.asarray(X, dtype=float), np.asarray(y, dtype=float)
    ...     w, q, b, beta, j = np.zeros(X.shape[1]), np.zeros(X.shape[1]), 0.0, 0.0, 1.0
    ...     for _ in range(passes):
    ...         for x, label in zip(X, y):
    ...             if label * (w @ x + b) <= 0:
    ...                 w, b = w + label * x, b + label
    ...                 q, beta = q + j * label * x, beta + j * label
    ...             j += 1
    ...     return w - q / j, b - beta / j
    >>> check_averaged_perceptron(averaged_perceptron)
    All 7 checks passed for averaged_perceptron.
    """
    check_function(
        averaged_perceptron,
        _reference_averaged,
        _AVERAGED_CASES,
        name="averaged_perceptron",
        hint=_averaged_hint,
    )


# The library's functions an answer may call while ``make grade`` grades it, by
# checker (none for a checker not listed): the grader refuses an answer that
# reaches any other function of the library, which holds every solution.
PERMITTED_HELPERS: dict[str, tuple] = {}
