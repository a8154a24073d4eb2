"""The exercise checks of chapter 9: right answers pass (in every usual form), slips are named."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from perceptron_lib.exercises import ExerciseFailure, ch09

# -- one step by hand -------------------------------------------------------------------

RIGHT_SCORES = [2.0, 0.0, 0.0, 2.0]
RIGHT_W = [[-1.0, -1.0, -1.0], [2.0, 2.0, 0.0], [-1.0, 0.0, 1.0], [1.0, 0.0, 1.0]]


@pytest.mark.parametrize(
    ("scores", "rival", "W_new"),
    [
        (RIGHT_SCORES, 0, RIGHT_W),  # lists of floats
        ([2, 0, 0, 2], 0, [[-1, -1, -1], [2, 2, 0], [-1, 0, 1], [1, 0, 1]]),  # of ints
        (np.array(RIGHT_SCORES), np.int64(0), np.array(RIGHT_W)),  # arrays
    ],
)
def test_step_right_answers_pass_in_any_form(scores, rival, W_new, capsys):
    ch09.check_multiclass_step(scores, rival, W_new)
    assert capsys.readouterr().out.startswith("Right: the scores")


def test_the_step_example_is_the_one_the_checker_grades():
    # The scores are W z: a wrong STEP_EXAMPLE would make the hand computation wrong.
    W, z = ch09.STEP_EXAMPLE["W"], ch09.STEP_EXAMPLE["z"]
    assert (W @ z).tolist() == RIGHT_SCORES and ch09.STEP_EXAMPLE["c"] == 1


def test_unwritten_step_is_reported():
    with pytest.raises(ExerciseFailure, match="write your answer here"):
        ch09.check_multiclass_step(..., ..., ...)


@pytest.mark.parametrize(
    ("scores", "rival", "W_new", "hint"),
    [
        ([2.0, -1.0, 1.0, 1.0], 0, RIGHT_W, "the whole dot product"),  # bias left out
        (RIGHT_SCORES, 3, RIGHT_W, "takes the lowest index"),  # wrong tie rule
        (
            RIGHT_SCORES,
            1,
            RIGHT_W,
            r"best class \*other than\* the true class 1 \(and classes are numbered from 0",
        ),
        (
            RIGHT_SCORES,
            0,
            [[1.0, 3.0, 1.0], [0.0, -2.0, -2.0], [-1.0, 0.0, 1.0], [1.0, 0.0, 1.0]],
            "yours goes the other way",  # sign slip
        ),
        (
            RIGHT_SCORES,
            0,
            [[-1.0, -1.0, -1.0], [2.0, 2.0, 0.0], [-2.0, -2.0, 0.0], [0.0, -2.0, 0.0]],
            "from its row only",  # every class at least as high updated
        ),
        (
            RIGHT_SCORES,
            0,
            [[0.0, 1.0, 0.0], [2.0, 2.0, 0.0], [-1.0, 0.0, 1.0], [0.0, -2.0, 0.0]],
            "you updated class 3",  # the wrong class of the tie
        ),
        (
            RIGHT_SCORES,
            0,
            [[0.0, 1.0, 0.0], [1.0, 0.0, -1.0], [-1.0, 0.0, 1.0], [1.0, 0.0, 1.0]],
            "that is a mistake",  # no update on a tie with the true class's score
        ),
        (
            RIGHT_SCORES,
            0,
            [[0.0, -1.0, -1.0], [1.0, 2.0, 0.0], [-1.0, 0.0, 1.0], [1.0, 0.0, 1.0]],
            "the constant feature is updated too",
        ),
    ],
)
def test_step_slips_get_their_hint(scores, rival, W_new, hint):
    with pytest.raises(ExerciseFailure, match=hint):
        ch09.check_multiclass_step(scores, rival, W_new)


def test_step_rival_that_is_no_rival_gets_no_hint():
    # Class 2 scores 0, as much as the true class but below the rival: no slip explains it.
    with pytest.raises(ExerciseFailure) as failure:
        ch09.check_multiclass_step(RIGHT_SCORES, 2, RIGHT_W)
    assert "Hint" not in str(failure.value)


def test_step_unrelated_wrong_weights_get_no_hint():
    with pytest.raises(ExerciseFailure) as failure:
        ch09.check_multiclass_step(RIGHT_SCORES, 0, np.zeros((4, 3)))
    assert "Hint" not in str(failure.value) and "row 0" in str(failure.value)


@pytest.mark.parametrize("rival", ["zero", 0.5, True, [0, 1]])
def test_step_rival_must_be_a_class_index(rival):
    with pytest.raises(ExerciseFailure, match="rival must be a class index"):
        ch09.check_multiclass_step(RIGHT_SCORES, rival, RIGHT_W)


def test_step_shape_is_checked():
    with pytest.raises(ExerciseFailure, match=r"shape \(4,\)"):
        ch09.check_multiclass_step([2.0, 0.0, 0.0], 0, RIGHT_W)


# -- three groups by hand -----------------------------------------------------------------

GOOD_W = [[0.0, -1.0], [1.25, 0.0], [0.0, 1.0]]


@pytest.mark.parametrize(
    "W",
    [
        GOOD_W,
        np.array(GOOD_W),
        10 * np.array(GOOD_W),
        0.01 * np.array(GOOD_W),
        [[0, -2], [3, 0], [0, 2]],
    ],
)
def test_any_positive_scale_of_a_separator_passes(W, capsys):
    ch09.check_three_group_weights(W)
    assert capsys.readouterr().out.startswith("Right: all 9 examples")


@pytest.mark.parametrize(
    ("W", "hint"),
    [
        (-np.array(GOOD_W), "every sign is flipped"),
        ([[0.0, -1.0], [0.0, 0.0], [0.0, 1.0]], "the middle class needs the largest bias"),
        ([[0.0, -1.0], [2.0, 0.0], [0.0, 1.0]], "a tie is not enough"),  # ties at x = -2 and 2
    ],
)
def test_three_group_slips_get_their_hint(W, hint):
    with pytest.raises(ExerciseFailure, match=hint):
        ch09.check_three_group_weights(W)


def test_three_group_weights_need_three_rows_of_two():
    with pytest.raises(ExerciseFailure, match=r"shape \(3, 2\)"):
        ch09.check_three_group_weights([[2.0, -1.0], [0.0, 1.0]])


# -- Kesler's vectors ---------------------------------------------------------------------


def kesler_vectors(z, c, n_classes):
    z = np.asarray(z, dtype=float)
    rows = []
    for m in range(n_classes):
        if m != c:
            row = np.zeros((n_classes, len(z)))
            row[c], row[m] = z, -z
            rows.append(row.ravel())
    return np.array(rows)


def test_kesler_right_answer_passes(capsys):
    ch09.check_kesler_vectors(kesler_vectors)
    assert "All 6 checks passed for kesler_vectors." in capsys.readouterr().out


def test_kesler_lists_are_accepted(capsys):
    ch09.check_kesler_vectors(lambda z, c, n_classes: kesler_vectors(z, c, n_classes).tolist())
    assert "passed" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("wrong", "hint"),
    [
        (lambda z, c, n: -kesler_vectors(z, c, n), "your signs are the other way"),
        (
            lambda z, c, n: np.insert(kesler_vectors(z, c, n), c, 0.0, axis=0),
            "leave out k = c",
        ),
        (
            lambda z, c, n: kesler_vectors(z, c + 1, n) if c + 1 < n else kesler_vectors(z, c, n),
            "numbered from 0",
        ),
    ],
)
def test_kesler_slips_get_their_hint(wrong, hint):
    with pytest.raises(ExerciseFailure, match=hint):
        ch09.check_kesler_vectors(wrong)


def test_kesler_library_call_is_refused():
    from perceptron_lib.theory.kesler import kesler_lift

    with pytest.raises(ExerciseFailure, match="kesler_lift"):
        ch09.check_kesler_vectors(lambda z, c, n_classes: kesler_lift(z, c, n_classes))


def test_kesler_in_place_change_is_caught():
    def changes_z(z, c, n_classes):
        result = kesler_vectors(z, c, n_classes)
        z *= 0
        return result

    with pytest.raises(ExerciseFailure, match="in place"):
        ch09.check_kesler_vectors(changes_z)


# -- Viterbi ---------------------------------------------------------------------------------


def viterbi_path(emission, transition, start, *, transpose=False, use_start=True, last_tie=False):
    transition = transition.T if transpose else transition
    best = (start if use_start else 0.0) + emission[0]
    back = []
    for p in range(1, len(emission)):
        candidates = best[:, None] + transition
        if last_tie:  # the highest index among equal maxima
            pick = candidates.shape[0] - 1 - candidates[::-1].argmax(axis=0)
        else:
            pick = candidates.argmax(axis=0)
        back.append(pick)
        best = candidates.max(axis=0) + emission[p]
    last = len(best) - 1 - int(best[::-1].argmax()) if last_tie else int(best.argmax())
    path = [last]
    for pointers in reversed(back):
        path.append(int(pointers[path[-1]]))
    return path[::-1]


def test_viterbi_right_answer_passes(capsys):
    ch09.check_viterbi(viterbi_path)
    assert "All 13 checks passed for viterbi_path." in capsys.readouterr().out


@pytest.mark.parametrize(
    "form",
    [
        lambda e, t, s: np.array(viterbi_path(e, t, s)),  # an int array
        lambda e, t, s: np.array(viterbi_path(e, t, s), dtype=float),  # a float array
        lambda e, t, s: tuple(viterbi_path(e, t, s)),
    ],
)
def test_viterbi_other_forms_pass(form, capsys):
    ch09.check_viterbi(form)
    assert "passed" in capsys.readouterr().out


def test_scaled_scores_change_no_path(capsys):
    # Scale does not matter: a student who multiplies every score by 2 is right.
    ch09.check_viterbi(lambda e, t, s: viterbi_path(2 * e, 2 * t, 2 * s))
    assert "passed" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("wrong", "hint"),
    [
        (
            lambda e, t, s: viterbi_path(e, t, s, transpose=True),
            r"transition\[k, l\] is the score",
        ),
        (lambda e, t, s: viterbi_path(e, t, s, use_start=False), "the start score is missing"),
        (lambda e, t, s: viterbi_path(e, t, s, last_tie=True), "yours takes the highest"),
        (lambda e, t, s: viterbi_path(e, t, s)[::-1], "reverse it"),
        (lambda e, t, s: viterbi_path(e, t, s)[1:], "stops one token early"),
        (lambda e, t, s: [int(v) for v in np.argmax(e, axis=1)], "each token on its own"),
    ],
)
def test_viterbi_slips_get_their_hint(wrong, hint):
    with pytest.raises(ExerciseFailure, match=hint):
        ch09.check_viterbi(wrong)


def test_viterbi_library_call_is_refused():
    from perceptron_lib.loops.viterbi import viterbi_readable

    with pytest.raises(ExerciseFailure, match="viterbi_readable"):
        ch09.check_viterbi(lambda e, t, s: viterbi_readable(e, t, s)[0])


def test_viterbi_unrelated_wrong_answer_gets_no_hint():
    with pytest.raises(ExerciseFailure) as failure:
        ch09.check_viterbi(lambda e, t, s: [0] * len(e))
    assert "Hint" not in str(failure.value)


def test_permitted_helpers_is_a_mapping_of_tuples():
    assert isinstance(ch09.PERMITTED_HELPERS, dict)
    assert all(isinstance(v, tuple) for v in ch09.PERMITTED_HELPERS.values())


# -- slips the review found accepted or misnamed ----------------------------------------------


def greedy_path(emission, transition, start):
    # Left to right, each label the best given only the one before: not Viterbi.
    path = [int(np.argmax(start + emission[0]))]
    for p in range(1, len(emission)):
        path.append(int(np.argmax(transition[path[-1]] + emission[p])))
    return path


def pointers_without_transition(emission, transition, start):
    # The best scores are right, but each back-pointer is argmax(best) of the previous
    # position, as if the transition into the label did not count.
    best, back = start + emission[0], []
    for p in range(1, len(emission)):
        back.append(np.full(len(best), int(np.argmax(best))))
        best = (best[:, None] + transition).max(axis=0) + emission[p]
    path = [int(best.argmax())]
    for pointers in reversed(back):
        path.append(int(pointers[path[-1]]))
    return path[::-1]


def brute_force_first_in_product_order(emission, transition, start):
    # Every labelling in itertools.product order, the first of equal best scores kept:
    # the best score, but not Viterbi's tie rule (which compares from the last position).
    best_score, best_path = None, None
    for labels in itertools.product(range(emission.shape[1]), repeat=len(emission)):
        score = start[labels[0]] + sum(emission[p, m] for p, m in enumerate(labels))
        score += sum(transition[a, b] for a, b in zip(labels[:-1], labels[1:], strict=True))
        if best_score is None or score > best_score:
            best_score, best_path = score, list(labels)
    return best_path


@pytest.mark.parametrize(
    ("wrong", "hint"),
    [
        (greedy_path, "greedy"),
        (pointers_without_transition, "back-pointer"),
        (brute_force_first_in_product_order, "compared from the last position"),
    ],
)
def test_viterbi_near_misses_are_caught_and_named(wrong, hint):
    with pytest.raises(ExerciseFailure, match=hint):
        ch09.check_viterbi(wrong)


def test_three_group_rows_written_w_then_b_get_the_column_order_hint():
    with pytest.raises(ExerciseFailure, match=r"bias first") as failure:
        ch09.check_three_group_weights([[-1.0, 0.0], [0.0, 1.25], [1.0, 0.0]])
    assert "largest bias" not in str(failure.value)


def test_kesler_object_array_of_the_right_numbers_passes(capsys):
    # It used to fail with "returned [[1.0, -1.0]] but should return [[1.0, -1.0]]".
    def as_objects(z, c, n_classes):
        return kesler_vectors(z, c, n_classes).astype(object)

    ch09.check_kesler_vectors(as_objects)
    assert "All 6 checks passed" in capsys.readouterr().out


def test_kesler_object_array_of_words_still_fails():
    def as_words(z, c, n_classes):
        return kesler_vectors(z, c, n_classes).astype(str).astype(object)

    with pytest.raises(ExerciseFailure):
        ch09.check_kesler_vectors(as_words)


def test_step_rival_given_as_a_string_is_refused():
    with pytest.raises(ExerciseFailure, match="rival must be a class index"):
        ch09.check_multiclass_step(RIGHT_SCORES, "0", RIGHT_W)
