"""Checks for the exercises of chapter 9: many classes and structured outputs.

The references are the library's own: the multiclass perceptron's rival rule
(:func:`perceptron_lib.loops.multiclass.rival_class`: the highest-scoring other
class, the lowest index on a tie), Viterbi
(:func:`perceptron_lib.loops.viterbi.viterbi_readable`, ties to the lowest label
index) and Kesler's construction (:func:`perceptron_lib.theory.kesler.kesler_lift`).
A hint is given only when the suspected slip, recomputed on the failing case,
gives exactly what the student answered.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from numbers import Real
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from ..data.examples import three_groups_example
from ..loops.multiclass import rival_class
from ..loops.viterbi import viterbi, viterbi_readable
from ..theory.joint_features import all_labellings
from ..theory.kesler import kesler_lift, multiclass_margin
from . import (
    ExerciseFailure,
    check_function,
    describe,
    diagnose,
    mismatch,
    not_written,
    refuse_calls,
)

__all__ = [
    "STEP_EXAMPLE",
    "THREE_GROUPS",
    "check_kesler_vectors",
    "check_multiclass_step",
    "check_three_group_weights",
    "check_viterbi",
]


def _array(name: str, value: Any, shape: tuple[int, ...] | None = None) -> np.ndarray:
    """Numbers as a float array (a list or an array alike), of ``shape`` when given."""
    try:
        array = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise ExerciseFailure(f"{name} must hold numbers; got {value!r}.") from None
    if not np.all(np.isfinite(array)):
        raise ExerciseFailure(f"{name} must hold finite numbers; got {describe(value)}.")
    if shape is not None and array.shape != shape:
        raise ExerciseFailure(
            f"{name} must have shape {shape}; yours has shape {array.shape} ({describe(value)})."
        )
    return array


# -- one step of the multiclass perceptron, by hand -------------------------------------

#: The step of the by-hand exercise: four classes, lifted examples ``z = (1, x1, x2)``.
STEP_EXAMPLE = {
    "W": np.array(
        [
            [0.0, 1.0, 0.0],
            [1.0, 0.0, -1.0],
            [-1.0, 0.0, 1.0],
            [1.0, 0.0, 1.0],
        ]
    ),
    "z": np.array([1.0, 2.0, 1.0]),
    "c": 1,
}


def _step_answers(W: np.ndarray, z: np.ndarray, c: int) -> tuple[np.ndarray, int, np.ndarray]:
    scores = W @ z
    rival = int(rival_class(scores, c))
    new_W = W.copy()
    if scores[rival] >= scores[c]:
        new_W[c] += z
        new_W[rival] -= z
    return scores, rival, new_W


def check_multiclass_step(scores: ArrayLike, rival: int, W_new: ArrayLike) -> None:
    """Check one step of the multiclass perceptron on :data:`STEP_EXAMPLE`, done by hand.

    The example ``z`` (lifted: its constant feature first, the chapter's x̃)
    is of class ``c`` (the chapter's y);
    ``scores[k]`` is class ``k``'s score ``W[k] . z``; ``rival`` is the
    highest-scoring class other than ``c`` (the lowest index on a tie); and
    ``W_new`` the weights after the step (learning rate 1): on a mistake (the
    rival scores at least as much as ``c``), ``z`` added to row ``c`` and
    subtracted from row ``rival``, else unchanged. Lists or arrays are accepted.

    Examples
    --------
    >>> W_new = [[0, 1, 0], [2, 2, 0], [-1, 0, 1], [0, -2, 0]]
    >>> check_multiclass_step([2, 0, 0, 2], 0, W_new)
    Traceback (most recent call last):
    ...
    perceptron_lib.exercises.ExerciseFailure: Your scores and rival are right, but W_new is
    wrong in row 0 and row 3: it should be [[-1.0, -1.0, -1.0], [2.0, 2.0, 0.0], [-1.0, 0.0,
    1.0], [1.0, 0.0, 1.0]].
    Hint: you updated class 3; on a tie the rival is the lowest index, class 0.
    >>> W_new = [[-1, -1, -1], [2, 2, 0], [-1, 0, 1], [1, 0, 1]]
    >>> check_multiclass_step([2, 0, 0, 2], 0, W_new)
    Right: the scores, the rival (class 0, the lowest index among the tied wrong classes) and
    the new weights.
    """
    not_written(scores=scores, rival=rival, W_new=W_new)
    W, z, c = STEP_EXAMPLE["W"], STEP_EXAMPLE["z"], STEP_EXAMPLE["c"]
    n_classes = W.shape[0]
    right_scores, right_rival, right_W = _step_answers(W, z, c)
    scores = _array("scores", scores, (n_classes,))
    if not np.allclose(scores, right_scores):
        wrong = [k for k in range(n_classes) if not np.isclose(scores[k], right_scores[k])]
        message = (
            f"scores is {describe(scores)} but should be {describe(right_scores)} (wrong for "
            f"class {', '.join(map(str, wrong))})."
        )
        if np.allclose(scores, W[:, 1:] @ z[1:]):
            message += (
                "\nHint: the example x̃ is lifted, its first entry is the constant 1: each score "
                "is the whole dot product W[m] . x̃, bias included."
            )
        raise ExerciseFailure(message)
    try:
        # A bool or a str ("0") converts to a number but is not a class index.
        whole = not isinstance(rival, bool | str | bytes) and float(rival).is_integer()
    except (TypeError, ValueError):
        whole = False
    if not whole:
        raise ExerciseFailure(f"rival must be a class index (an int); got {rival!r}.")
    rival = int(rival)
    if rival != right_rival:
        message = f"rival is {rival} but should be {right_rival}."
        tied = [k for k in range(n_classes) if k != c and scores[k] == scores[right_rival]]
        if rival == c:
            message += (
                f"\nHint: the rival is the best class *other than* the true class {c} "
                "(and classes are numbered from 0, as the rows of W)."
            )
        elif rival in tied:
            message += (
                f"\nHint: classes {' and '.join(map(str, tied))} tie for the highest wrong "
                "score; the rule takes the lowest index, as numpy.argmax does."
            )
        elif rival == right_rival + 1:
            message += "\nHint: classes are numbered from 0, as the rows of W."
        raise ExerciseFailure(message)
    W_new = _array("W_new", W_new, W.shape)
    if np.allclose(W_new, right_W):
        print(
            f"Right: the scores, the rival (class {rival}, the lowest index among the "
            "tied wrong classes) and the new weights."
        )
        return
    rows = [k for k in range(n_classes) if not np.allclose(W_new[k], right_W[k])]
    message = (
        f"Your scores and rival are right, but W_new is wrong in "
        f"{' and '.join(f'row {k}' for k in rows)}: it should be {describe(right_W)}."
    )
    slips = []
    swapped = W.copy()
    swapped[c] -= z
    swapped[rival] += z
    slips.append(
        (
            swapped,
            "the update adds x̃ to the true class's row and subtracts it from "
            "the rival's; yours goes the other way.",
        )
    )
    every = W.copy()
    every[c] += z
    for k in range(n_classes):
        if k != c and scores[k] >= scores[c]:
            every[k] -= z
    slips.append(
        (
            every,
            "the rival is the one wrong class that the update moves: subtract x̃ "
            "from its row only, not from every class that scores at least as much as "
            "the true one.",
        )
    )
    highest = max(k for k in range(n_classes) if k != c and scores[k] == scores[rival])
    other = W.copy()
    other[c] += z
    other[highest] -= z
    slips.append(
        (
            other,
            f"you updated class {highest}; on a tie the rival is the lowest index, class {rival}.",
        )
    )
    slips.append(
        (
            W,
            f"class {rival} scores {describe(float(scores[rival]))}, at least as much "
            f"as the true class {c} ({describe(float(scores[c]))}): that is a mistake, and the "
            "weights change.",
        )
    )
    no_bias = right_W.copy()
    no_bias[:, 0] = W[:, 0]
    slips.append(
        (
            no_bias,
            "the constant feature is updated too: its entry of x̃ is 1, so "
            "the true class's bias goes up by 1 and the rival's down by 1.",
        )
    )
    for value, hint in slips:
        if np.allclose(W_new, value):
            message += f"\nHint: {hint}"
            break
    raise ExerciseFailure(message)


# -- Viterbi -----------------------------------------------------------------------------


def _reference_viterbi(emission, transition, start):
    path, _ = viterbi_readable(
        np.asarray(emission, dtype=float),
        np.asarray(transition, dtype=float),
        np.asarray(start, dtype=float),
    )
    return path.tolist()


def _same_path(got: Any, expected: list[int]) -> bool:
    try:
        array = np.asarray(got, dtype=float)
    except (TypeError, ValueError):
        return False
    return array.shape == (len(expected),) and bool(np.all(array == np.asarray(expected)))


def _brute_force_last_tie(emission, transition, start) -> list[int]:
    """The best labelling, ties to the *highest* label (the other tie rule)."""
    path, _ = viterbi_readable(emission[:, ::-1], transition[::-1, ::-1], start[::-1])
    n_labels = emission.shape[1]
    return [n_labels - 1 - int(label) for label in path]


def _greedy_path(emission, transition, start) -> list[int]:
    """Left to right, each label the best after the one already chosen: not Viterbi."""
    path = [int(np.argmax(start + emission[0]))]
    for p in range(1, emission.shape[0]):
        path.append(int(np.argmax(transition[path[-1]] + emission[p])))
    return path


def _pointers_without_transition(emission, transition, start) -> list[int]:
    """Viterbi's best scores, but back-pointers that forget the transition."""
    best, back = start + emission[0], []
    for p in range(1, emission.shape[0]):
        back.append(int(np.argmax(best)))  # the same pointer for every label
        best = (best[:, None] + transition).max(axis=0) + emission[p]
    path = [int(np.argmax(best))]
    for pointer in reversed(back):
        path.append(pointer)
    return path[::-1]


def _first_in_product_order(emission, transition, start) -> list[int]:
    """The best labelling, ties to the first in ``itertools.product`` order."""
    best_score, best_path = -np.inf, []
    for labels in all_labellings(emission.shape[0], emission.shape[1]):
        score = start[labels[0]] + emission[np.arange(len(labels)), labels].sum()
        score += transition[labels[:-1], labels[1:]].sum()
        if score > best_score:
            best_score, best_path = score, labels.tolist()
    return best_path


def _viterbi_hint(arguments: Mapping[str, Any], got: Any, expected: Any) -> list[str] | str:
    emission = np.asarray(arguments["emission"], dtype=float)
    transition = np.asarray(arguments["transition"], dtype=float)
    start = np.asarray(arguments["start"], dtype=float)
    n_tokens = emission.shape[0]
    try:
        returned = np.asarray(got, dtype=float)
    except (TypeError, ValueError):
        return []
    if returned.ndim == 1 and returned.shape[0] == n_tokens - 1:
        return (
            f"your path has {n_tokens - 1} labels for {n_tokens} tokens: the loop over "
            "positions stops one token early (positions run from 1 to len(emission) - 1 "
            "included)."
        )
    mistakes = [
        (
            _reference_viterbi(emission, transition.T, start),
            "transition[k, l] is the score of label k *followed by* label l: the best "
            "predecessor k of label l maximises best[k] + transition[k, l] (a column of "
            "transition), not transition[l, k].",
        ),
        (
            _reference_viterbi(emission, transition, np.zeros_like(start)),
            "the first token's score is start[l] + emission[0, l]: the start score is missing.",
        ),
        (
            _brute_force_last_tie(emission, transition, start),
            "on a tie take the lowest label index (a strict > while k counts up, as "
            "numpy.argmax does); yours takes the highest.",
        ),
        (
            _reference_viterbi(emission, transition, start)[::-1],
            "the back-pointers give the path from the last token to the first: reverse it "
            "(or fill path[t - 1] from path[t]).",
        ),
        (
            _greedy_path(emission, transition, start),
            "that is a greedy path: it fixes each label as it goes, the best given the one "
            "before it. "
            "Viterbi keeps, for every label at every position, the best score of a path "
            "ending there, and only the walk back along the back-pointers fixes the labels.",
        ),
        (
            _pointers_without_transition(emission, transition, start),
            "your best scores add the transition, but each back-pointer must be the k that "
            "wins best[k] + transition[k, l] for that label l, not the k of the largest "
            "best[k] alone.",
        ),
        (
            _first_in_product_order(emission, transition, start),
            "your path reaches the best score, but among equal best labellings it keeps the "
            "first in itertools.product order; the tie rule (lowest index at every "
            "back-pointer and at the last token) picks the smallest compared from the last "
            "position backwards.",
        ),
        (
            [int(label) for label in np.argmax(emission, axis=1)],
            "that is the best label of each token on its own (emission only); Viterbi adds "
            "the start and transition scores and keeps the best score of each label so far.",
        ),
    ]
    return [
        hint
        for value, hint in mistakes
        if not _same_path(value, expected) and _same_path(got, value)
    ]


def _viterbi_cases() -> list[tuple]:
    cases = [
        (np.array([[0.0, 1.0]]), np.zeros((2, 2)), np.zeros(2)),
        (np.array([[1.0, 0.0]]), np.zeros((2, 2)), np.array([0.0, 2.0])),  # start decides
        (np.zeros((3, 2)), np.zeros((2, 2)), np.zeros(2)),  # every labelling ties: 0 0 0
        (
            np.array([[0.0, 1.0], [0.0, 0.0], [0.0, 1.0]]),
            np.array([[0.0, 2.0], [2.0, 0.0]]),
            np.zeros(2),
        ),
        (  # transition not symmetric: transposing it changes the answer
            np.array([[1.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]),
            np.array([[0.0, 3.0, 0.0], [0.0, 0.0, 3.0], [1.0, 0.0, 0.0]]),
            np.zeros(3),
        ),
        (  # a greedy path (0, 0), or back-pointers without the transition (0, 1), miss (1, 1)
            np.zeros((2, 2)),
            np.array([[0.0, 0.0], [0.0, 5.0]]),
            np.array([0.1, 0.0]),
        ),
        (  # (0, 1) and (1, 0) tie; the tie rule gives (1, 0), product order (0, 1)
            np.zeros((2, 2)),
            np.array([[0.0, 1.0], [1.0, 0.0]]),
            np.zeros(2),
        ),
        (  # three labellings tie at 4: the rule gives (1, 0, 0), product order (0, 1, 0)
            np.array([[0.0, 1.0], [0.0, 1.0], [1.0, 0.0]]),
            np.array([[1.0, 1.0], [1.0, 0.0]]),
            np.zeros(2),
        ),
        (  # a tie between two predecessors
            np.array([[1.0, 1.0], [0.0, 0.5]]),
            np.array([[0.0, 1.0], [0.0, 1.0]]),
            np.zeros(2),
        ),
    ]
    rng = np.random.default_rng(9)
    for n_tokens, n_labels in [(2, 3), (4, 2), (4, 3), (5, 3)]:
        cases.append(
            (
                rng.integers(-3, 4, size=(n_tokens, n_labels)).astype(float),
                rng.integers(-3, 4, size=(n_labels, n_labels)).astype(float),
                rng.integers(-3, 4, size=n_labels).astype(float),
            )
        )
    return cases


_VITERBI_CASES = _viterbi_cases()


def check_viterbi(viterbi_path: Callable) -> None:
    """Check ``viterbi_path(emission, transition, start)``: the best labelling of a chain.

    ``emission`` is ``(n_tokens, n_labels)`` (the chapter's ``(ℓ, M)``),
    ``transition`` ``(n_labels, n_labels)`` (row: the label before, column: the
    label after) and ``start`` ``(n_labels,)``, NumPy arrays; the function
    returns the labels of the best-scoring labelling, a list or a 1-d array of
    ``n_tokens`` ints, the lowest label index winning every tie (at each
    back-pointer and at the last token). The cases include ties, a non-symmetric
    transition matrix, a start score that decides and a lattice where a greedy
    left-to-right choice goes wrong.

    Examples
    --------
    >>> def viterbi_path(emission, transition, start):
    ...     best, back = start + emission[0], []
    ...     for t in range(1, len(emission)):
    ...         candidates = best[:, None] + transition  # [k, l]: k, then l
    ...         back.append(candidates.argmax(axis=0))
    ...         best = candidates.max(axis=0) + emission[t]
    ...     path = [int(best.argmax())]
    ...     for pointers in reversed(back):
    ...         path.append(int(pointers[path[-1]]))
    ...     return path[::-1]
    >>> check_viterbi(viterbi_path)
    All 13 checks passed for viterbi_path.
    """
    refuse_calls(viterbi_path, (viterbi, viterbi_readable, all_labellings), name="viterbi_path")
    check_function(
        viterbi_path,
        _reference_viterbi,
        _VITERBI_CASES,
        name="viterbi_path",
        compare=_same_path,
        hint=_viterbi_hint,
    )


# -- Kesler's construction ---------------------------------------------------------------


def _reference_kesler(z, c, n_classes):
    return kesler_lift(np.asarray(z, dtype=float), int(c), int(n_classes))


def _same_vectors(got: Any, expected: np.ndarray) -> bool:
    """The right numbers in the right shape, whatever holds them (list, array, object array)."""
    if isinstance(got, np.ndarray) and got.dtype == object:
        # An object array of plain numbers (for instance built from np.array(rows,
        # dtype=object)) holds the right answer as well as a float array does.
        if not all(isinstance(v, Real) and not isinstance(v, bool) for v in got.ravel()):
            return False
        got = got.astype(float)
    return mismatch(got, expected) is None


def _kesler_hint(arguments: Mapping[str, Any], got: Any, expected: Any) -> list[str]:
    z = np.asarray(arguments["z"], dtype=float)
    c, n_classes = int(arguments["c"]), int(arguments["n_classes"])
    right = _reference_kesler(z, c, n_classes)
    width = z.shape[0]
    every = np.zeros((n_classes, n_classes * width))
    for k in range(n_classes):
        every[k, c * width : (c + 1) * width] += z
        every[k, k * width : (k + 1) * width] -= z
    shifted = np.zeros_like(right)
    if c + 1 < n_classes:
        shifted = _reference_kesler(z, c + 1, n_classes)
    return diagnose(
        got,
        expected,
        [
            (
                -right,
                "the vector of class c against class k has +z in block c and -z in "
                "block k, so that v . psi = W[c] . z - W[k] . z; your signs are the other way.",
            ),
            (
                every,
                "leave out k = c: its vector would be all zeros (+z and -z in the same "
                "block), so there are n_classes - 1 rows.",
            ),
            (
                shifted if c + 1 < n_classes else right,
                "classes are numbered from 0: block c "
                "holds entries c * len(z) to (c + 1) * len(z) - 1.",
            ),
        ],
    )


_KESLER_CASES = [
    (np.array([1.0]), 0, 2),
    (np.array([1.0, 2.0]), 1, 3),
    (np.array([1.0, 2.0]), 0, 3),
    (np.array([1.0, -1.0, 0.5]), 2, 3),
    (np.array([1.0, 3.0]), 1, 4),
    (np.array([1.0, 0.0, -2.0]), 3, 4),
]


def check_kesler_vectors(kesler_vectors: Callable) -> None:
    """Check ``kesler_vectors(z, c, n_classes)``: Kesler's vectors of one lifted example.

    ``z`` is a 1-d NumPy array (a lifted example), ``c`` its class index and
    ``n_classes`` the number of classes. The function returns an array (or a
    list of lists) with ``n_classes - 1`` rows, one per other class ``k`` in
    increasing order, each of length ``n_classes * len(z)``: ``+z`` in block
    ``c``, ``-z`` in block ``k``, zeros elsewhere.

    Examples
    --------
    >>> from perceptron_lib.theory.kesler import kesler_lift
    >>> check_kesler_vectors(lambda z, c, n_classes: kesler_lift(z, c, n_classes))
    Traceback (most recent call last):
    ...
    perceptron_lib.exercises.ExerciseFailure: kesler_vectors calls the library's kesler_lift:
    the exercise is to compute it yourself, from the definitions.
    """
    refuse_calls(kesler_vectors, (kesler_lift,), name="kesler_vectors")
    check_function(
        kesler_vectors,
        _reference_kesler,
        _KESLER_CASES,
        name="kesler_vectors",
        compare=_same_vectors,
        hint=_kesler_hint,
    )


# -- weights for the three groups, by hand -------------------------------------------------

#: The three groups along a line of the chapter: x and the class index (0 left, 1 middle, 2 right).
THREE_GROUPS = {
    "x": three_groups_example()[0].ravel(),
    "y": three_groups_example()[1],
}


def _separates(Z: np.ndarray, y: np.ndarray, W: np.ndarray) -> bool:
    """Whether every example's class scores strictly above the others under ``W``."""
    scores = Z @ W.T
    return all(scores[i, y[i]] > np.delete(scores[i], y[i]).max() for i in range(len(y)))


def check_three_group_weights(W: ArrayLike) -> None:
    """Check weights that separate the chapter's three groups along a line.

    ``W`` has one row ``(b_k, w_k)`` per class (the bias first, as the lifted
    examples ``z = (1, x)``): class k scores ``b_k + w_k x``. Every example's
    class must score *strictly* above the two others; any positive scale of a
    right answer is right too (only the comparisons matter). Lists or arrays
    are accepted.

    Examples
    --------
    >>> check_three_group_weights([[0.0, -1.0], [1.25, 0.0], [0.0, 1.0]])
    Right: all 9 examples are separated; the multiclass margin of these weights is 0.397.
    >>> check_three_group_weights([[0.0, -1.0], [0.0, 0.0], [0.0, 1.0]])
    Traceback (most recent call last):
    ...
    perceptron_lib.exercises.ExerciseFailure: At x = -0.5 (class 1) the scores are
    [0.5, 0.0, -0.5]: class 1 does not score strictly above every other class.
    Hint: at x = 0, a middle example, the three scores are the biases b_0, b_1, b_2: the
    middle class needs the largest bias.
    """
    not_written(W=W)
    W = _array("W", W)
    if W.ndim != 2 or W.shape != (3, 2):
        raise ExerciseFailure(
            f"W must have one row (b_k, w_k) per class, shape (3, 2); yours has shape {W.shape}."
        )
    x, y = THREE_GROUPS["x"], THREE_GROUPS["y"]
    Z = np.column_stack([np.ones_like(x), x])
    scores = Z @ W.T
    for i in range(len(x)):
        others = np.delete(scores[i], y[i])
        if scores[i, y[i]] > others.max():
            continue
        message = (
            f"At x = {describe(float(x[i]))} (class {y[i]}) the scores are "
            f"{describe(scores[i])}: class {y[i]} does not score strictly above every other "
            "class."
        )
        if _separates(Z, y, -W):
            message += (
                "\nHint: every sign is flipped: with -W every example would be right. The "
                "prediction is the class of the *highest* score."
            )
        elif _separates(Z, y, W[:, ::-1]):
            message += (
                "\nHint: your rows read (w, b): with the two columns swapped every example "
                "would be right. Each row is (b, w), the bias first, as in x̃ = (1, x)."
            )
        elif W[1, 0] <= max(W[0, 0], W[2, 0]):
            message += (
                "\nHint: at x = 0, a middle example, the three scores are the biases b_0, "
                "b_1, b_2: the middle class needs the largest bias."
            )
        elif scores[i, y[i]] == others.max():
            message += (
                "\nHint: a tie is not enough: the class must score strictly above the others "
                "(in training a tie with the rival is always a mistake, whichever class "
                "argmax would pick)."
            )
        raise ExerciseFailure(message)
    print(
        f"Right: all {len(x)} examples are separated; the multiclass margin of these weights is "
        f"{multiclass_margin(W, Z, y):.3f}."
    )


#: What a student's function may call without being refused (none here).
PERMITTED_HELPERS: dict[str, tuple] = {}
