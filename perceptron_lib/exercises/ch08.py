"""Checks for the exercises of the appendix, the perceptron at scale.

The references are the library's own: :func:`perceptron_lib.experiments.at_scale.amdahl_speedup`
for Amdahl's law, the compiled activation of the training loop
(:func:`perceptron_lib.loops.plain.activation`, summed from the first feature on) for
the first mistake of a block, and the mixing step of iterative parameter
mixing. A hint is given only when the suspected slip, recomputed on the failing
case, gives exactly what the student's function returned.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..experiments.at_scale import amdahl_speedup
from ..loops.plain import activation
from ..mixing import mixing_weights
from . import check_function, diagnose

__all__ = ["check_amdahl", "check_first_mistake", "check_mix"]


# -- Amdahl's law ------------------------------------------------------------------


def _reference_amdahl(p: float, workers: int) -> float:
    return float(amdahl_speedup(p, workers))


def _amdahl_hint(arguments: Mapping[str, Any], got: Any, expected: float) -> list[str]:
    p, workers = float(arguments["p"]), float(arguments["workers"])
    return diagnose(
        got,
        expected,
        [
            (
                1.0 / (p + (1.0 - p) / workers),
                "p is the part that runs in parallel: it is p, not 1 - p, that the workers share.",
            ),
            (
                workers,
                "the serial part 1 - p takes as long as before, whatever the number of "
                "workers: the speed-up is 1 / ((1 - p) + p / workers).",
            ),
            (
                (1.0 - p) + p / workers,
                "that is the new running time as a fraction of the old one; the speed-up "
                "is its inverse.",
            ),
        ],
    )


_AMDAHL_CASES = [
    (0.0, 4),
    (1.0, 4),
    (0.5, 2),
    (0.9, 2),
    (0.9, 10),
    (0.99, 100),
    (0.75, 1),
]


def check_amdahl(amdahl: Callable[[float, int], float]) -> None:
    """Check ``amdahl(p, workers)``, the speed-up of Amdahl's law.

    ``p`` is the fraction of the one-worker running time that can be shared
    among ``workers``; the rest stays serial.

    Examples
    --------
    >>> def amdahl(p, workers):
    ...     return 1 / ((1 - p) + p / workers)
    >>> check_amdahl(amdahl)
    All 7 checks passed for amdahl.
    """
    check_function(amdahl, _reference_amdahl, _AMDAHL_CASES, name="amdahl", hint=_amdahl_hint)


# -- the first mistake of a block -----------------------------------------------------


def _reference_first_mistake(X: ArrayLike, y: ArrayLike, w: ArrayLike, b: float, start: int):
    X = np.asarray(X, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    w = np.asarray(w, dtype=np.float64)
    for i in range(int(start), X.shape[0]):
        if y[i] * activation(w, float(b), X[i]) <= 0.0:
            return i
    return X.shape[0]


def _first_at_or_after(scores: NDArray, start: int, *, strict: bool = False) -> int:
    wrong = np.flatnonzero(scores[start:] < 0 if strict else scores[start:] <= 0)
    return int(start + wrong[0]) if wrong.size else scores.shape[0]


def _first_wrong_prediction(
    activations: NDArray, y: NDArray, start: int, *, positive_at_zero: bool
) -> int:
    """The slip "a mistake is a wrong prediction": a = 0 predicted +1 or -1, never a tie."""
    predicted = np.where(activations >= 0 if positive_at_zero else activations > 0, 1.0, -1.0)
    wrong = np.flatnonzero(predicted[start:] != y[start:])
    return int(start + wrong[0]) if wrong.size else y.shape[0]


def _first_mistake_hint(arguments: Mapping[str, Any], got: Any, expected: int) -> list[str]:
    X = np.asarray(arguments["X"], dtype=float)
    y = np.asarray(arguments["y"], dtype=float)
    w, b = np.asarray(arguments["w"], dtype=float), float(arguments["b"])
    start = int(arguments["start"])
    scores = y * (X @ w + b)
    right = _first_at_or_after(scores, start)  # not `expected`, which may be unknown
    no_mistake = "when the block has no mistake, return len(y), the index just past the end."
    return diagnose(
        got,
        expected,
        [
            (
                _first_at_or_after(scores, start, strict=True),
                "an example exactly on the boundary (y a = 0) is a mistake too: test "
                "y * a <= 0, not < 0.",
            ),
            (
                _first_wrong_prediction(X @ w + b, y, start, positive_at_zero=True),
                "you predicted +1 when a >= 0 and counted a mistake when the prediction "
                "differs from y, so an example with a = 0 and y = +1 passes; training "
                "counts every y * a <= 0 as a mistake, a = 0 included, for either label.",
            ),
            (
                _first_wrong_prediction(X @ w + b, y, start, positive_at_zero=False),
                "you counted a mistake when the prediction (+1 if a > 0, else -1) "
                "differs from y; the prediction rule counts a = 0 with y = -1 as right, "
                "but training counts every y * a <= 0 as a mistake, a = 0 included.",
            ),
            (
                _first_at_or_after(scores, 0),
                "start looking at index start, not at 0: the examples before it were "
                "already scored.",
            ),
            (
                _first_at_or_after(y * (X @ w), start),
                "the activation is w . x + b: add the bias.",
            ),
            (
                right - start if right < len(y) else right,
                "return the example's index in X, not its position counted from start.",
            ),
            (-1 if right == len(y) else right, no_mistake),
            (None if right == len(y) else right, no_mistake),
        ],
    )


_FIRST_MISTAKE_CASES = [
    (np.array(X, dtype=float), np.array(y), np.array(w, dtype=float), b, start)
    for X, y, w, b, start in [
        ([[1.0]], [1], [1.0], 0.0, 0),
        ([[1.0]], [-1], [1.0], 0.0, 0),
        ([[1.0]], [1], [1.0], -2.0, 0),  # the bias makes it a mistake
        ([[2.0]], [1], [1.0], -2.0, 0),  # a = 0 exactly, through the bias: a mistake
        ([[1.0], [-1.0]], [1, 1], [1.0], 0.0, 0),
        ([[1.0], [0.0]], [1, 1], [1.0], 0.0, 0),  # a = 0 exactly: a mistake
        # a = 0 with y = -1: a mistake, though the prediction rule (-1) gets it right
        ([[1.0], [0.0]], [1, -1], [1.0], 0.0, 0),
        ([[-1.0], [2.0], [-3.0]], [1, 1, 1], [1.0], 0.0, 1),  # the mistake before start
        ([[-1.0], [2.0], [1.0]], [1, -1, 1], [1.0], 1.5, 1),
        ([[1.0, 2.0], [2.0, -1.0], [0.5, 0.5]], [1, -1, 1], [1.0, 1.0], -0.5, 0),
        ([[1.0, 2.0], [2.0, 1.0], [0.5, 0.5]], [1, 1, 1], [1.0, 1.0], -0.5, 0),  # none
        ([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [-1.0, 1.0]], [1, 1, -1, -1], [1.0, 1.0], 0.0, 2),
    ]
]


def check_first_mistake(first_mistake: Callable[..., int]) -> None:
    """Check ``first_mistake(X, y, w, b, start)``, the speculative block's search.

    It returns the smallest index ``i >= start`` with ``y[i] * (w . X[i] + b) <= 0``,
    or ``len(y)`` if there is none (``X``, ``y`` and ``w`` are NumPy arrays): the
    examples from ``start`` on are scored with the same weights, and the block
    ends at its first mistake.

    Examples
    --------
    >>> import numpy as np
    >>> def first_mistake(X, y, w, b, start):
    ...     for i in range(start, len(y)):
    ...         if y[i] * (np.dot(w, X[i]) + b) <= 0:
    ...             return i
    ...     return len(y)
    >>> check_first_mistake(first_mistake)
    All 12 checks passed for first_mistake.
    """
    check_function(
        first_mistake,
        _reference_first_mistake,
        _FIRST_MISTAKE_CASES,
        name="first_mistake",
        hint=_first_mistake_hint,
    )


# -- mixing ---------------------------------------------------------------------------


def _reference_mix(weights: ArrayLike, mistakes: ArrayLike, mixing: str) -> NDArray:
    weights = np.asarray(weights, dtype=np.float64)
    return mixing_weights(mistakes, mixing) @ weights


def _mix_hint(arguments: Mapping[str, Any], got: Any, expected: Any) -> list[str]:
    weights = np.asarray(arguments["weights"], dtype=float)
    mistakes = np.asarray(arguments["mistakes"], dtype=float)
    # Weights that do not add up to 1: the raw counts, or all zero in a round
    # without mistakes (k / sum k with the 0/0 replaced by 0). One hint for both.
    total = mistakes.sum()
    unnormalised = mistakes @ weights if total > 0 else np.zeros(weights.shape[1])
    # Or never divided at all, the uniform mix included: the plain sum of the rows.
    uniform = arguments["mixing"] == "uniform" or total == 0
    never_divided = (np.ones_like(mistakes) if uniform else mistakes) @ weights
    with np.errstate(invalid="ignore", divide="ignore"):
        undefined = (mistakes / total) @ weights  # 0 / 0 in a round without mistakes
    return diagnose(
        got,
        expected,
        [
            (
                weights.mean(axis=0),
                "with mixing='weighted' each shard's vector counts in proportion to its "
                "mistakes, mu_i = k_i / sum_j k_j; this is the uniform mix.",
            ),
            (
                unnormalised,
                "the weights mu_i must add up to 1: divide the mistakes by their total, "
                "and in a round without mistakes (total 0) mix uniformly.",
            ),
            (
                never_divided,
                "the weights mu_i must add up to 1: the uniform mix (and the mix of a "
                "round without mistakes) divides the sum of the rows by the number of "
                "shards S, mu_i = 1 / S; the weighted mix divides the mistakes by their total.",
            ),
            (
                undefined
                if total == 0
                else _reference_mix(weights, mistakes, arguments["mixing"]),
                "in a round without mistakes k / sum(k) is 0 / 0: mix uniformly then.",
            ),
        ],
    )


_MIX_CASES = [
    (np.array(weights, dtype=float), np.array(mistakes), mixing)
    for weights, mistakes, mixing in [
        ([[1.0, 2.0]], [3], "uniform"),
        ([[1.0, 2.0]], [3], "weighted"),
        ([[1.0, 0.0], [0.0, 1.0]], [1, 1], "uniform"),
        ([[1.0, 0.0], [0.0, 1.0]], [1, 3], "weighted"),
        ([[1.0, 0.0], [0.0, 1.0]], [1, 3], "uniform"),
        ([[2.0, 2.0], [2.0, 2.0]], [0, 0], "weighted"),
        ([[1.0, 3.0], [3.0, 1.0]], [0, 0], "weighted"),
        ([[1.0, -1.0, 0.5], [3.0, 1.0, -0.5], [0.0, 0.0, 4.0]], [2, 0, 6], "weighted"),
        # 3 shards of 2 coordinates: the mean is neither the median, nor the mean of
        # the first and last rows, nor the sum divided by the number of coordinates
        ([[1.0, 2.0], [0.0, 3.0], [5.0, 1.0]], [1, 2, 1], "uniform"),
        ([[1.0, 2.0], [4.0, 0.0], [1.0, 4.0]], [0, 0, 0], "weighted"),
    ]
]


def check_mix(mix: Callable[[ArrayLike, ArrayLike, str], NDArray]) -> None:
    """Check ``mix(weights, mistakes, mixing)``, one mixing step of parameter mixing.

    ``weights`` (a 2-d NumPy array) has one row per shard, the (lifted) weight
    vector it ended its epoch with; ``mistakes`` (an array) the number of
    mistakes each shard made; ``mixing`` is ``"uniform"`` (every shard counts
    1/S) or ``"weighted"`` (in proportion to its mistakes; uniformly in a round
    without mistakes). Returns the mixed vector.

    Examples
    --------
    >>> import numpy as np
    >>> def mix(weights, mistakes, mixing):
    ...     k = np.asarray(mistakes, dtype=float)
    ...     if mixing == "uniform" or k.sum() == 0:
    ...         k = np.ones_like(k)
    ...     return (k / k.sum()) @ np.asarray(weights, dtype=float)
    >>> check_mix(mix)
    All 10 checks passed for mix.
    """
    check_function(mix, _reference_mix, _MIX_CASES, name="mix", hint=_mix_hint)


# The library's functions an answer may call while ``make grade`` grades it, by
# checker (none for a checker not listed): the grader refuses an answer that
# reaches any other function of the library, which holds every solution.
PERMITTED_HELPERS: dict[str, tuple] = {}
