"""Realistic wrong answers to the coding exercises of chapters 1 and 5-8 fail, rightly reported.

Each checker is run on answers a first-year student writes: a slip that
ignores one of the inputs (the bias, the labels, an example exactly on the
boundary, an argument), and the usual slips of each exercise. Every one must
fail; the message names the smallest failing case and gives a hint only when
the slip, recomputed, reproduces the student's answer. The right answers,
written the way a student writes them (NumPy operators on the arrays the
checker hands over), pass.
"""

from __future__ import annotations

from math import comb, perm

import numpy as np
import pytest

from perceptron_lib.exercises import ExerciseFailure, ch01, ch05, ch06, ch07, ch08

# -- chapter 5 ---------------------------------------------------------------------------


def lifted_quantities(X, y, w, b, *, strict=False, bias=True, lift=True, norm_b=True, power=2):
    scores = y * (X @ w + (b if bias else 0))
    if np.any(scores < 0 if strict else scores <= 0):
        raise ValueError("(w, b) does not separate the data")
    R = np.sqrt((1 if lift else 0) + np.max(np.sum(X**2, axis=1)))
    gamma = scores.min() / np.sqrt(w @ w + (b * b if norm_b else 0))
    return R, gamma, (R / gamma) ** power


def scaled_bound(X, y, w, b, s, *, strict=False, raises=True, b_over_s=True, radius_s=True):
    scores = y * (X @ w + b)
    if raises and np.any(scores < 0 if strict else scores <= 0):
        raise ValueError("(w, b) does not separate the data")
    bias_weight = b / s if b_over_s else b
    gamma = scores.min() / np.sqrt(w @ w + bias_weight**2)
    return ((s * s if radius_s else 1) + np.max(np.sum(X**2, axis=1))) / gamma**2


def test_chapter_5_right_answers_pass(capsys):
    ch05.check_lifted_quantities(lifted_quantities)
    ch05.check_scaled_bound(scaled_bound)
    assert capsys.readouterr().out.splitlines() == [
        "All 9 checks passed for lifted_quantities.",
        "All 9 checks passed for scaled_bound.",
    ]


def uses_the_library(X, y, w, b):
    from perceptron_lib import lifted_bound, lifted_margin, lifted_radius

    return lifted_radius(X), lifted_margin(w, b, X, y), lifted_bound(w, b, X, y)


CHAPTER_5 = [
    (  # strict `< 0`: an example on the boundary is taken as separated
        ch05.check_lifted_quantities,
        lambda X, y, w, b: lifted_quantities(X, y, w, b, strict=True),
        "lifted_quantities(X=[[1.0], [0.0]], y=[1, -1], w=[1.0], b=0.0) returned",
        "test y * a <= 0, not < 0, and raise ValueError",
    ),
    (  # the bias forgotten in the activation
        ch05.check_lifted_quantities,
        lambda X, y, w, b: lifted_quantities(X, y, w, b, bias=False),
        "lifted_quantities(X=[[2.0], [0.0]], y=[1, -1], w=[1.0], b=-1.0) raised ValueError",
        None,
    ),
    (
        ch05.check_lifted_quantities,
        lambda X, y, w, b: lifted_quantities(X, y, w, b, lift=False),
        "lifted_quantities(X=[[1.0], [-1.0]], y=[1, -1], w=[1.0], b=0.0) returned",
        "include the constant feature",
    ),
    (
        ch05.check_lifted_quantities,
        lambda X, y, w, b: lifted_quantities(X, y, w, b, norm_b=False),
        "lifted_quantities(X=[[2.0], [0.0]], y=[1, -1], w=[1.0], b=-1.0) returned",
        "not of w alone",
    ),
    (
        ch05.check_lifted_quantities,
        lambda X, y, w, b: lifted_quantities(X, y, w, b, power=1),
        "lifted_quantities(X=[[1.0], [-1.0]], y=[1, -1], w=[1.0], b=0.0) returned",
        "the bound is (R / gamma) squared",
    ),
    (  # the labels ignored: |a| for y a
        ch05.check_lifted_quantities,
        lambda X, y, w, b: lifted_quantities(X, np.sign(X @ w + b) + (X @ w + b == 0), w, b),
        "y=[-1, -1, 1], w=[-1.0, 0.0], b=1.5) returned",
        None,
    ),
    (
        ch05.check_lifted_quantities,
        uses_the_library,
        "lifted_quantities calls the library's lifted_bound and lifted_margin and lifted_radius",
        None,
    ),
    (
        ch05.check_scaled_bound,
        lambda X, y, w, b, s: scaled_bound(X, y, w, b, s, b_over_s=False),
        "scaled_bound(X=[[2.0], [0.0]], y=[1, -1], w=[1.0], b=-1.0, s=2.0) returned",
        "the lifted weight on it is b / s",
    ),
    (
        ch05.check_scaled_bound,
        lambda X, y, w, b, s: scaled_bound(X, y, w, b, s, radius_s=False),
        "scaled_bound(X=[[2.0], [0.0]], y=[1, -1], w=[1.0], b=-1.0, s=2.0) returned",
        "their radius includes s, not 1",
    ),
    (  # s ignored altogether: the bound of chapter 5's lifting
        ch05.check_scaled_bound,
        lambda X, y, w, b, s: scaled_bound(X, y, w, b, 1.0),
        # (at s = 2 this data set's bound happens to be the one at s = 1)
        "scaled_bound(X=[[2.0], [0.0]], y=[1, -1], w=[1.0], b=-1.0, s=0.5) returned",
        None,
    ),
    (
        ch05.check_scaled_bound,
        lambda X, y, w, b, s: scaled_bound(X, y, w, b, s, strict=True),
        "scaled_bound(X=[[2.0], [1.0]], y=[1, -1], w=[1.0], b=-1.0, s=2.0) returned",
        "test y * a <= 0, not < 0",
    ),
    (
        ch05.check_scaled_bound,
        lambda X, y, w, b, s: scaled_bound(X, y, w, b, s, raises=False),
        "scaled_bound(X=[[2.0], [1.0]], y=[1, -1], w=[1.0], b=-1.0, s=2.0) returned",
        None,
    ),
]

# -- chapter 6 ---------------------------------------------------------------------------


def voted_prediction(vectors, x, *, tie=-1, total_tie=-1, bias=True, counts=True, own=True):
    total = 0
    for w, b, c in vectors:
        a = np.dot(w, x) + (b if bias else 0)
        vote = (1 if a > 0 else -1 if a < 0 else tie) if own else a
        total += (c if counts else 1) * vote
    return 1 if total > 0 else -1 if total < 0 else total_tie


def averaged_perceptron(X, y, passes, *, start=1, strict=False, bias=True, every=True):
    w, q = np.zeros(X.shape[1]), np.zeros(X.shape[1])
    b, beta, j = 0.0, 0.0, start
    for _ in range(passes):
        for x, label in zip(X, y, strict=True):
            score = label * (w @ x + b)
            if score < 0 if strict else score <= 0:
                w, q = w + label * x, q + j * label * x
                if bias:
                    b, beta = b + label, beta + j * label
                j += 1
            elif every:
                j += 1
    return w - q / j, b - beta / j


def test_chapter_6_right_answers_pass(capsys):
    ch06.check_vote(voted_prediction)
    ch06.check_averaged_perceptron(averaged_perceptron)
    assert capsys.readouterr().out.splitlines() == [
        "All 11 checks passed for voted_prediction.",
        "All 7 checks passed for averaged_perceptron.",
    ]


CHAPTER_6 = [
    (  # the bias forgotten: blamed on the bias, never on `>= 0`
        ch06.check_vote,
        lambda vectors, x: voted_prediction(vectors, x, bias=False),
        "voted_prediction(vectors=[([1.0], -2.0, 1)], x=[1.0]) returned 1",
        "add its bias b",
    ),
    (
        ch06.check_vote,
        lambda vectors, x: voted_prediction(vectors, x, tie=1),
        "voted_prediction(vectors=[([1.0], 0.0, 1)], x=[0.0]) returned 1",
        "not >= 0",
    ),
    (
        ch06.check_vote,
        lambda vectors, x: voted_prediction(vectors, x, total_tie=1),
        "voted_prediction(vectors=[([1.0], 0.0, 1), ([-1.0], 0.0, 1)], x=[1.0]) returned 1",
        "a total vote of exactly 0 predicts -1",
    ),
    (
        ch06.check_vote,
        lambda vectors, x: voted_prediction(vectors, x, counts=False),
        "voted_prediction(vectors=[([1.0], 0.0, 3), ([-1.0], 0.0, 1)], x=[1.0]) returned -1",
        "multiply its prediction by its count",
    ),
    (
        ch06.check_vote,
        lambda vectors, x: voted_prediction(vectors, x, own=False),
        "voted_prediction(vectors=[([1.0], 0.0, 2), ([-10.0], 0.0, 1)], x=[1.0]) returned -1",
        "the averaged perceptron's rule",
    ),
    (  # x ignored: the vote of the biases
        ch06.check_vote,
        lambda vectors, x: voted_prediction(vectors, np.zeros_like(x)),
        "voted_prediction(vectors=[([1.0], 0.0, 1)], x=[2.0]) returned -1",
        None,
    ),
    (
        ch06.check_averaged_perceptron,
        lambda X, y, passes: averaged_perceptron(X, y, passes, start=0),
        "averaged_perceptron(X=[[1.0]], y=[1], passes=1) returned",
        "starts its counter at j = 1; yours starts at 0",
    ),
    (
        ch06.check_averaged_perceptron,
        lambda X, y, passes: averaged_perceptron(X, y, passes, strict=True),
        "averaged_perceptron(X=[[1.0]], y=[1], passes=1) returned",
        "test y (w . x + b) <= 0, not < 0",
    ),
    (
        ch06.check_averaged_perceptron,
        lambda X, y, passes: averaged_perceptron(X, y, passes, bias=False),
        "averaged_perceptron(X=[[1.0]], y=[1], passes=1) returned",
        "update the bias too",
    ),
    (
        ch06.check_averaged_perceptron,
        lambda X, y, passes: averaged_perceptron(X, y, passes, every=False),
        "averaged_perceptron(X=[[1.0], [-1.0]], y=[1, -1], passes=3) returned",
        "mistake or not",
    ),
    (  # passes ignored: one pass only
        ch06.check_averaged_perceptron,
        lambda X, y, passes: averaged_perceptron(X, y, 1),
        "averaged_perceptron(X=[[1.0], [-1.0]], y=[1, -1], passes=3) returned",
        None,
    ),
]

# -- chapter 7 ---------------------------------------------------------------------------


ROOT2 = np.sqrt(2)


def poly2_features(x, *, constant=1.0, linear=ROOT2, squares=1.0, pairs=ROOT2):
    j, k = np.triu_indices(len(x), k=1)
    return np.concatenate([[constant], linear * x, squares * x**2, pairs * x[j] * x[k]])


def n_conjunctions(D, k, *, first=1, last=0):
    return sum(comb(D, j) for j in range(first, k + 1 + last))


def test_chapter_7_right_answers_pass(capsys):
    ch07.check_poly2_features(poly2_features)
    # Every ordered pair j != k without sqrt(2): the same kernel, more features.
    ch07.check_poly2_features(
        lambda x: np.concatenate([[1.0], np.sqrt(2) * x, np.outer(x, x).ravel()])
    )
    ch07.check_poly2_features(lambda x: list(poly2_features(x)))  # a list is fine too
    ch07.check_conjunction_count(n_conjunctions)
    assert capsys.readouterr().out.splitlines() == [
        "All 6 checks passed for feature_dot.",
        "All 6 checks passed for feature_dot.",
        "All 6 checks passed for feature_dot.",
        "All 8 checks passed for n_conjunctions.",
    ]


CHAPTER_7 = [
    (
        ch07.check_poly2_features,
        lambda x: poly2_features(x, constant=0.0),
        "feature_dot(x=[1.0], z=[2.0]) returned 8.0 but should return 9.0",
        "add the feature 1",
    ),
    (
        ch07.check_poly2_features,
        lambda x: poly2_features(x, linear=1.0),
        "feature_dot(x=[1.0], z=[2.0]) returned 7.0 but should return 9.0",
        "give x_j a factor sqrt(2)",
    ),
    (
        ch07.check_poly2_features,
        lambda x: poly2_features(x, pairs=1.0),
        "feature_dot(x=[1.0, 2.0], z=[3.0, -1.0]) returned",
        "give the features x_j x_l (j < l) a factor sqrt(2)",
    ),
    (
        ch07.check_poly2_features,
        lambda x: poly2_features(x, squares=0.0),
        "feature_dot(x=[1.0], z=[2.0]) returned 5.0 but should return 9.0",
        "add the features x_j^2",
    ),
    (  # 2 * x where sqrt(2) * x was meant
        ch07.check_poly2_features,
        lambda x: poly2_features(x, linear=2.0),
        "feature_dot(x=[1.0], z=[2.0]) returned 13.0 but should return 9.0",
        None,
    ),
    (
        ch07.check_conjunction_count,
        lambda D, k: comb(D, k),
        "n_conjunctions(D=3, k=2) returned 3 but should return 6",
        "not only of order k",
    ),
    (
        ch07.check_conjunction_count,
        lambda D, k: n_conjunctions(D, k, first=0),
        "n_conjunctions(D=1, k=1) returned 2 but should return 1",
        "start at order 1",
    ),
    (
        ch07.check_conjunction_count,
        lambda D, k: n_conjunctions(D, k, last=-1),
        "n_conjunctions(D=1, k=1) returned 0 but should return 1",
        "range(1, k) stops before k",
    ),
    (
        ch07.check_conjunction_count,
        lambda D, k: sum(perm(D, j) for j in range(1, k + 1)),
        "n_conjunctions(D=3, k=2) returned 9 but should return 6",
        "comb, not perm",
    ),
    (  # k ignored
        ch07.check_conjunction_count,
        lambda D, k: D,
        "n_conjunctions(D=3, k=2) returned 3 but should return 6",
        None,
    ),
]

# -- chapter 8 ---------------------------------------------------------------------------


def first_mistake(X, y, w, b, start, *, strict=False, bias=True, none=None):
    for i in range(start, len(y)):
        score = y[i] * (w @ X[i] + (b if bias else 0))
        if score < 0 if strict else score <= 0:
            return i
    return len(y) if none is None else none


def mix(weights, mistakes, mixing, *, normalise=True, zero_total=True):
    k = mistakes.astype(float)
    if mixing == "uniform" or (zero_total and k.sum() == 0):
        k = np.ones_like(k)
    return (k / k.sum() if normalise else k) @ weights


def test_chapter_8_right_answers_pass(capsys):
    ch08.check_first_mistake(first_mistake)
    ch08.check_mix(mix)
    ch08.check_amdahl(lambda p, workers: 1 / ((1 - p) + p / workers))
    assert capsys.readouterr().out.splitlines() == [
        "All 12 checks passed for first_mistake.",
        "All 10 checks passed for mix.",
        "All 7 checks passed for amdahl.",
    ]


CHAPTER_8 = [
    (  # the bias forgotten: blamed on the bias, never on `< 0`
        ch08.check_first_mistake,
        lambda X, y, w, b, start: first_mistake(X, y, w, b, start, bias=False),
        "(X=[[1.0]], y=[1], w=[1.0], b=-2.0, start=0) returned 1 but should return 0",
        "the activation is w . x + b: add the bias",
    ),
    (
        ch08.check_first_mistake,
        lambda X, y, w, b, start: first_mistake(X, y, w, b, start, strict=True),
        "(X=[[2.0]], y=[1], w=[1.0], b=-2.0, start=0) returned 1 but should return 0",
        "not < 0",
    ),
    (
        ch08.check_first_mistake,
        lambda X, y, w, b, start: first_mistake(X, y, w, b, 0),
        "(X=[[-1.0], [2.0], [-3.0]], y=[1, 1, 1], w=[1.0], b=0.0, start=1) returned 0",
        "start looking at index start",
    ),
    (
        ch08.check_first_mistake,
        lambda X, y, w, b, start: first_mistake(X[start:], y[start:], w, b, 0),
        "(X=[[-1.0], [2.0], [-3.0]], y=[1, 1, 1], w=[1.0], b=0.0, start=1) returned 1",
        "not its position counted from start",
    ),
    (
        ch08.check_first_mistake,
        lambda X, y, w, b, start: first_mistake(X, y, w, b, start, none=-1),
        "(X=[[1.0]], y=[1], w=[1.0], b=0.0, start=0) returned -1 but should return 1",
        "return len(y)",
    ),
    (
        ch08.check_mix,
        lambda weights, mistakes, mixing: mix(weights, mistakes, "uniform"),
        "mix(weights=[[1.0, 0.0], [0.0, 1.0]], mistakes=[1, 3], mixing='weighted') returned",
        "this is the uniform mix",
    ),
    (
        ch08.check_mix,
        lambda weights, mistakes, mixing: mix(weights, mistakes, "weighted"),
        "mix(weights=[[1.0, 0.0], [0.0, 1.0]], mistakes=[1, 3], mixing='uniform') returned",
        None,
    ),
    (
        ch08.check_mix,
        lambda weights, mistakes, mixing: mix(weights, mistakes, mixing, normalise=False),
        "mix(weights=[[1.0, 2.0]], mistakes=[3], mixing='weighted') returned [3.0, 6.0]",
        "must add up to 1",
    ),
    (
        ch08.check_mix,
        lambda weights, mistakes, mixing: mix(weights, mistakes, mixing, zero_total=False),
        "mixing='weighted') returned [nan, nan] but should return [2.0, 2.0]",
        "k / sum(k) is 0 / 0",
    ),
    (
        ch08.check_amdahl,
        lambda p, workers: 1 / (p + (1 - p) / workers),
        "(p=0.0, workers=4) returned 4.0 but should return 1.0",
        "it is p, not 1 - p",
    ),
    (  # workers ignored: the limit 1 / (1 - p)
        ch08.check_amdahl,
        lambda p, workers: 1 / (1 - p) if p < 1 else float("inf"),
        "(p=1.0, workers=4) returned inf but should return 4.0",
        None,
    ),
]


@pytest.mark.parametrize(
    ("check", "wrong", "case", "hint"),
    CHAPTER_5 + CHAPTER_6 + CHAPTER_7 + CHAPTER_8,
    ids=lambda value: getattr(value, "__name__", None) if callable(value) else "",
)
def test_a_wrong_answer_fails_with_its_case_and_only_a_confirmed_hint(check, wrong, case, hint):
    with np.errstate(divide="ignore", invalid="ignore"):
        with pytest.raises(ExerciseFailure) as failure:
            check(wrong)
    message = str(failure.value)
    assert case in message.splitlines()[0], message
    if hint is None:
        assert "Hint" not in message, message
    else:
        assert message.splitlines()[-1].startswith("Hint: ") and hint in message, message
    assert len(message.splitlines()) <= 3  # the case, how many failed, the hint
    assert " Or: " not in message


# -- answers that are not written yet, and values of the wrong shape -----------------------


@pytest.mark.parametrize(
    ("check", "arguments"),
    [
        (ch01.check_three_gates, (..., ..., ...)),
        (ch01.check_three_gates, (([1.0, -1.0], 0.5), ([1.0, ..., 1.0], 1.5), ...)),
        (ch06.check_disagreement, (..., ...)),
        (ch07.check_lifted_xor_weights, (..., ...)),
        (ch07.check_lifted_xor_weights, ([1.0, ..., 1.0], -0.5)),
        (ch07.check_two_layer_network, (..., ..., ..., ...)),
        (ch07.check_two_layer_network, ([[1.0, 1.0], [..., ...]], [-1.5, 0.5], [1.0, 1.0], ...)),
    ],
)
def test_a_value_answer_still_holding_its_dots_is_not_written(check, arguments):
    with pytest.raises(ExerciseFailure, match=r"is not written yet: replace each \.\.\."):
        check(*arguments)


# -- chapter 1: three gates by hand, each a pair (weights, threshold) ----------------------

RIGHT_GATES = {
    "and_not": ([1.0, -1.0], 0.5),
    "two_of_three": ([1.0, 1.0, 1.0], 1.5),
    "implies": ([-1.0, 1.0], -0.5),
}


def test_chapter_1_right_gates_pass(capsys):
    ch01.check_three_gates(**RIGHT_GATES)
    assert capsys.readouterr().out.splitlines() == [
        "All 4 rows of the truth table of x1_and_not_x2 are right.",
        "All 8 rows of the truth table of at-least-2-of-3 are right.",
        "All 4 rows of the truth table of x1_implies_x2 are right.",
    ]


@pytest.mark.parametrize(
    ("wrong", "message"),
    [
        # the threshold on a possible sum: (1, 0) gives w . x = 1, not above 1
        ({"and_not": ([1.0, -1.0], 1.0)}, "and_not: On input (1, 0) the unit outputs -1"),
        # the negation forgotten: x1 or x2
        ({"and_not": ([1.0, 1.0], 0.5)}, "and_not: On input (0, 1) the unit outputs +1"),
        # ">= 2" written as a threshold of 2: two ones give exactly 2, not above it
        ({"two_of_three": ([1.0, 1.0, 1.0], 2.0)}, "two_of_three: On input (0, 1, 1)"),
        # at least 1 of 3
        ({"two_of_three": ([1.0, 1.0, 1.0], 0.5)}, "two_of_three: On input (0, 0, 1)"),
        # the threshold 0 leaves (0, 0) on it, and the unit silent there
        ({"implies": ([-1.0, 1.0], 0.0)}, "implies: On input (0, 0) the unit outputs -1"),
        # the implication read backwards, x2 => x1
        ({"implies": ([1.0, -1.0], -0.5)}, "implies: On input (0, 1) the unit outputs -1"),
        # the pair the other way round
        ({"and_not": (0.5, [1.0, -1.0])}, "and_not must be a pair (weights, threshold) of"),
        # weights and threshold not in a pair
        ({"implies": [-1.0, 1.0, -0.5]}, "implies must be a pair (weights, threshold)"),
        # one weight short
        ({"two_of_three": ([1.0, 1.0], 1.5)}, "two_of_three needs 3 weights, one per input"),
    ],
)
def test_a_wrong_gate_fails_naming_its_answer_and_input(wrong, message):
    with pytest.raises(ExerciseFailure) as failure:
        ch01.check_three_gates(**{**RIGHT_GATES, **wrong})
    assert str(failure.value).startswith(message), str(failure.value)
    assert len(str(failure.value).splitlines()) <= 3
