"""Checks for the exercises of chapter 6, voting and averaging.

The references are the library's: :func:`perceptron_lib.averaging.vote` for the
voted prediction and the compiled loop
:func:`perceptron_lib._loops.averaged_perceptron_epoch` (Daume's Algorithm 7,
the loop of :class:`~perceptron_lib.AveragedPerceptron`) for the averaged
perceptron. A hint is given only when the suspected slip, recomputed on the
failing case, gives exactly what the student's function returned.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .._loops import averaged_perceptron_epoch
from ..averaging import vote as _library_vote
from ..averaging import weighted_sum as _library_weighted_sum
from . import ExerciseFailure, check_function, describe

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


def _sign(value: float) -> int:
    return 1 if value > 0 else -1


def _vote_hint(arguments: Mapping[str, Any], got: Any, expected: int) -> str | None:
    weights, biases, counts = _arrays(arguments["vectors"])
    x = np.asarray(arguments["x"], dtype=float)
    activations = weights @ x + biases
    own = np.where(activations > 0, 1.0, -1.0)
    hints = []
    if got == _sign(float(counts @ activations)):
        hints.append(
            "you added up c * (w . x + b), which is the averaged perceptron's rule. The vote "
            "takes each vector's own prediction (+1 or -1) first, then adds c times it."
        )
    if got == _sign(float(own.sum())):
        hints.append("every vector's vote counts c times: multiply its prediction by its count.")
    # The tie slips: a vector with a = 0 voting +1 or abstaining (np.sign), or a total
    # of 0 predicting +1.
    at_least = np.where(activations >= 0, 1.0, -1.0)
    abstaining = np.sign(activations)
    tie_answers = {
        _sign(float(at_least @ counts)),
        1 if float(abstaining @ counts) >= 0 else -1,
        1 if float(own @ counts) >= 0 else -1,
    }
    if got in tie_answers and got != expected:
        hints.append(
            "an activation of 0 predicts -1, and so does a total vote of 0: test > 0, "
            "not >= 0 (and np.sign(0) is 0, which is neither)."
        )
    return " Or: ".join(hints) if hints else None


_VOTE_CASES = [
    ([([1.0], 0.0, 1)], [2.0]),
    ([([1.0], 0.0, 1)], [0.0]),
    ([([1.0], -1.0, 3)], [1.0]),
    ([([1.0], 0.0, 1), ([-1.0], 0.0, 1)], [1.0]),
    ([([1.0], 0.0, 3), ([-1.0], 0.0, 1)], [1.0]),
    ([([1.0], 0.0, 2), ([-10.0], 0.0, 1)], [1.0]),
    ([([1.0], 0.0, 1), ([1.0], 0.0, 1), ([-1.0], 0.0, 3)], [2.0]),
    ([([1.0, 1.0], 1.0, 2), ([-1.0, -1.0], 0.0, 1)], [1.0, 2.0]),
    ([([0.0, 1.0], 0.0, 4), ([2.0, -1.0], 1.0, 1), ([1.0, 1.0], -1.0, 2)], [0.5, -1.0]),
]


def check_vote(vote: Callable[[Sequence, ArrayLike], int]) -> None:
    """Check ``vote(vectors, x) -> +1 or -1``, the voted perceptron's prediction.

    ``vectors`` is a list of ``(w, b, c)``: a weight vector, its bias and its
    survival count. Each vector predicts +1 if ``w . x + b > 0`` and -1
    otherwise; the answer is +1 if ``sum_k c_k * prediction_k > 0``, else -1.

    Examples
    --------
    >>> import numpy as np
    >>> def vote(vectors, x):
    ...     total = sum(c * (1 if np.dot(w, x) + b > 0 else -1) for w, b, c in vectors)
    ...     return 1 if total > 0 else -1
    >>> check_vote(vote)
    All 9 checks passed for vote.
    """
    check_function(vote, _reference_vote, _VOTE_CASES, name="vote", hint=_vote_hint)


# -- a case where the vote and the average disagree ----------------------------


def check_disagreement(vectors: Sequence, x: ArrayLike) -> None:
    """Check that the vote and the averaged prediction of ``vectors`` differ at ``x``.

    ``vectors`` is a list of ``(w, b, c)`` with counts ``c >= 1``; ``x`` a point
    with as many features as each ``w``. The averaged prediction is the sign of
    ``sum_k c_k (w_k . x + b_k)``; the vote that of ``sum_k c_k * prediction_k``.

    Examples
    --------
    >>> check_disagreement([([1.0], 0.0, 2), ([-10.0], 0.0, 1)], [1.0])
    Right: the vote predicts +1 (score 1), the average -1 (score -8).
    >>> check_disagreement([([1.0], 0.0, 1)], [1.0])
    Traceback (most recent call last):
    ...
    perceptron_lib.exercises.ExerciseFailure: These vectors agree at x = [1.0]: the vote \
predicts +1 (score 1) and so does the average (score 1).
    """
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
    if np.any(counts < 1):
        raise ExerciseFailure("Survival counts are at least 1: every stored vector has c >= 1.")
    voted = float(_library_vote(weights, biases, counts, [x])[0])
    averaged = float(_library_weighted_sum(weights, biases, counts, [x])[0])
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
    w, u = np.zeros(X.shape[1]), np.zeros(X.shape[1])
    b, beta, count = 0.0, 0.0, 1.0
    order = np.arange(X.shape[0])
    mistakes = np.zeros(X.shape[0], dtype=np.bool_)
    for _ in range(passes):  # every pass, as in Algorithm 7 (no early stop)
        b, beta, count = averaged_perceptron_epoch(
            X, y, order, w, b, u, beta, count, 1.0, True, mistakes
        )
    return w - u / count, float(b - beta / count)


def _variant(X, y, passes, *, count_every_example=True, start=1.0, sign=-1.0):
    """Algorithm 7 with one of the usual slips, to confirm a hint."""
    X, y = np.asarray(X, dtype=float), np.asarray(y, dtype=float)
    w, u = np.zeros(X.shape[1]), np.zeros(X.shape[1])
    b, beta, count = 0.0, 0.0, start
    for _ in range(passes):
        for x, label in zip(X, y, strict=True):
            mistake = label * (w @ x + b) <= 0
            if mistake:
                w, b = w + label * x, b + label
                u, beta = u + label * count * x, beta + label * count
            if count_every_example or mistake:
                count += 1
    return w + sign * u / count, b + sign * beta / count


def _last_weights(X, y, passes):
    w, b = _variant(X, y, passes, sign=0.0)
    return w, b


def _averaged_hint(arguments: Mapping[str, Any], got: Any, expected: Any) -> str | None:
    if not isinstance(got, tuple | list) or len(got) != 2:
        return "return two values: the averaged weights (an array) and the averaged bias."
    X, y, passes = arguments["X"], arguments["y"], arguments["passes"]

    def same(candidate) -> bool:
        try:
            return bool(
                np.allclose(np.asarray(got[0], dtype=float), candidate[0])
                and np.isclose(float(got[1]), candidate[1])
            )
        except (TypeError, ValueError):
            return False

    slips = [
        (
            _last_weights(X, y, passes),
            "that is the last (w, b); return the averaged ones, w - u / c and b - beta / c.",
        ),
        (
            _variant(X, y, passes, count_every_example=False),
            "the counter c must grow by one after every example, mistake or not: it "
            "counts how long each vector survives.",
        ),
        (_variant(X, y, passes, start=0.0), "start the counter at c = 1, as Algorithm 7 does."),
        (
            _variant(X, y, passes, sign=1.0),
            "subtract the cached sums: the average is w - u / c, not w + u / c.",
        ),
    ]
    # On a small case two slips can give the same answer: name every one that does.
    hints = [hint for candidate, hint in slips if same(candidate)]
    return " Or: ".join(hints) if hints else None


_AVERAGED_CASES = [
    ([[1.0]], [1], 1),
    ([[1.0], [-1.0]], [1, -1], 1),
    ([[1.0], [-1.0]], [1, -1], 3),
    ([[2.0, 1.0], [-1.0, -2.0], [1.0, -1.0]], [1, -1, 1], 2),
    ([[1.0, 1.0], [0.5, 3.0], [2.0, 2.0]], [1, 1, -1], 4),
    ([[1.0, 3.0], [2.0, 3.0], [-3.0, 1.0], [1.0, -1.0]], [1, -1, 1, -1], 5),
    ([[0.0, 1.0], [1.0, 0.0], [1.0, 1.0], [0.0, 0.0]], [1, 1, -1, -1], 6),
]


def check_averaged_perceptron(
    averaged_perceptron: Callable[[ArrayLike, ArrayLike, int], Any],
) -> None:
    """Check ``averaged_perceptron(X, y, passes) -> (w, b)``: Daume's Algorithm 7.

    Start from ``w = u = 0``, ``b = beta = 0`` and ``c = 1``; visit the examples
    in the order given, ``passes`` times (no early stop). On a mistake
    (``y (w . x + b) <= 0``) add ``y x`` to ``w``, ``y`` to ``b``, ``c y x`` to
    ``u`` and ``c y`` to ``beta``; after every example add 1 to ``c``. Return
    ``w - u / c`` and ``b - beta / c``. Labels are -1 and +1.

    Examples
    --------
    >>> import numpy as np
    >>> def averaged_perceptron(X, y, passes):
    ...     X, y = np.asarray(X, dtype=float), np.asarray(y, dtype=float)
    ...     w, u, b, beta, c = np.zeros(X.shape[1]), np.zeros(X.shape[1]), 0.0, 0.0, 1.0
    ...     for _ in range(passes):
    ...         for x, label in zip(X, y):
    ...             if label * (w @ x + b) <= 0:
    ...                 w, b = w + label * x, b + label
    ...                 u, beta = u + c * label * x, beta + c * label
    ...             c += 1
    ...     return w - u / c, b - beta / c
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
