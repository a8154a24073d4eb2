"""The exercise checks of chapter 7: a right answer passes, wrong ones are explained."""

from __future__ import annotations

from math import comb

import numpy as np
import pytest

from perceptron_lib.exercises import ExerciseFailure, ch07

# -- XOR with x1 AND x2 -------------------------------------------------------------


def test_lifted_xor_weights_right_and_wrong(capsys):
    ch07.check_lifted_xor_weights([1.0, 1.0, -2.0], -0.5)
    assert "All 4 inputs of XOR are right" in capsys.readouterr().out
    with pytest.raises(ExerciseFailure) as failure:
        ch07.check_lifted_xor_weights([1.0, 1.0, 0.0], -0.5)  # OR: wrong on (1, 1) only
    assert str(failure.value).startswith("On input (1, 1), with x1 AND x2 = 1")
    assert "Hint" not in str(failure.value)


def test_lifted_xor_xnor_hint_only_when_every_input_is_wrong():
    with pytest.raises(ExerciseFailure, match="computes XNOR"):
        ch07.check_lifted_xor_weights([-1.0, -1.0, 2.0], 0.5)  # the blog's plane
    with pytest.raises(ExerciseFailure) as failure:
        ch07.check_lifted_xor_weights([-1.0, -1.0, 2.0], 0.0)  # 2 wrong, 2 with a = 0
    message = str(failure.value)
    assert "XNOR" not in message
    # Issue 32: the old hint said to lower the bias, which leaves (0, 1) and (1, 0)
    # wrong; the slip is the flipped signs.
    assert "lowering the bias" not in message
    assert "every input off the boundary is on the wrong side: flip the signs" in message
    with pytest.raises(ExerciseFailure) as failure:  # OR's plane: (1, 1) wrong, b = 0
        ch07.check_lifted_xor_weights([1.0, 0.0, 0.0], 0.0)
    assert "Hint" not in str(failure.value)
    with pytest.raises(ExerciseFailure, match="three weights"):
        ch07.check_lifted_xor_weights([1.0, 1.0], 0.0)


def test_lifted_xor_margin_zero_is_not_a_separator():
    # b = 0 puts (0, 0) and (1, 1) on the boundary: a = 0 predicts -1, the right
    # label, but y a = 0 is no separation (issue 32; the old check accepted it).
    with pytest.raises(ExerciseFailure) as failure:
        ch07.check_lifted_xor_weights([1.0, 1.0, -2.0], 0.0)
    message = str(failure.value)
    assert message.startswith("On input (0, 0), with x1 AND x2 = 0, the activation is exactly 0")
    assert "move the boundary off (0, 0) and (1, 1), for example by lowering the bias" in message
    # A positive on the boundary is wrong as a prediction too; no bias advice then.
    with pytest.raises(ExerciseFailure) as failure:
        ch07.check_lifted_xor_weights([1.0, 0.0, -2.0], 0.0)  # (0, 1): a = 0
    assert "lowering the bias" not in str(failure.value)
    ch07.check_lifted_xor_weights([2.0, 2.0, -4.0], -1.0)  # a multiple: right


# -- the degree-2 feature map ----------------------------------------------------------


def poly2_features(x):
    x = np.asarray(x, dtype=float)
    first, second = np.triu_indices(len(x), k=1)  # every pair j < l
    return np.concatenate([[1.0], np.sqrt(2) * x, x**2, np.sqrt(2) * x[first] * x[second]])


def all_ordered_products(x):
    # A different right answer: every ordered product x_j x_l, no sqrt(2) needed there.
    x = np.asarray(x, dtype=float)
    return np.concatenate([[1.0], np.sqrt(2) * x, np.outer(x, x).ravel()])


def test_right_feature_maps_pass(capsys):
    ch07.check_poly2_features(poly2_features)
    ch07.check_poly2_features(all_ordered_products)
    assert capsys.readouterr().out.count("All 6 checks passed for feature_dot.") == 2


@pytest.mark.parametrize(
    ("wrong", "hint"),
    [
        (lambda x: poly2_features(x)[1:], "add the feature 1"),
        (
            lambda x: np.concatenate([[1.0], np.asarray(x, float), np.outer(x, x).ravel()]),
            "give x_j a factor sqrt(2)",
        ),
        (
            lambda x: np.concatenate(
                [
                    [1.0],
                    np.sqrt(2) * np.asarray(x, float),
                    np.asarray(x, float) ** 2,
                    [x[j] * x[k] for j in range(len(x)) for k in range(j + 1, len(x))],
                ]
            ),
            "x_j x_l (j < l) a factor sqrt(2)",
        ),
    ],
)
def test_feature_map_mistakes_get_their_hint(wrong, hint):
    with pytest.raises(ExerciseFailure) as failure:
        ch07.check_poly2_features(wrong)
    assert hint in str(failure.value)


def test_missing_constant_fails_on_the_smallest_pair():
    # The smallest case already fails; its hint is the constant's, not the cross terms'.
    def no_constant_one_feature(x):
        return poly2_features(x)[1:]

    with pytest.raises(ExerciseFailure) as failure:
        ch07.check_poly2_features(no_constant_one_feature)
    message = str(failure.value)
    assert message.startswith("feature_dot(x=[1.0], z=[2.0]) returned 8.0 but should return 9.0")
    assert "cross term" not in message


def test_feature_map_with_a_wrong_shape_is_reported():
    with pytest.raises(ExerciseFailure, match="1-d vector"):
        ch07.check_poly2_features(lambda x: np.outer(x, x))


# -- counting conjunctions ------------------------------------------------------------


def test_conjunction_count_right_and_wrong(capsys):
    ch07.check_conjunction_count(lambda D, k: sum(comb(D, j) for j in range(1, k + 1)))
    assert "All 8 checks passed" in capsys.readouterr().out
    with pytest.raises(ExerciseFailure, match="every order from 1 to k") as failure:
        ch07.check_conjunction_count(lambda D, k: comb(D, k))
    assert str(failure.value).startswith("n_conjunctions(D=3, k=2) returned 3 but should return 6")
    with pytest.raises(ExerciseFailure, match="empty conjunction"):
        ch07.check_conjunction_count(lambda D, k: sum(comb(D, j) for j in range(k + 1)))
    with pytest.raises(ExerciseFailure, match="distinct features"):
        ch07.check_conjunction_count(lambda D, k: sum(D**j for j in range(1, k + 1)))


def test_conjunction_count_other_mistake_gets_no_hint():
    with pytest.raises(ExerciseFailure) as failure:
        ch07.check_conjunction_count(lambda D, k: D * k)
    assert "Hint" not in str(failure.value)


# -- two layers ---------------------------------------------------------------------


def test_two_layer_networks(capsys):
    # XNOR = OR(AND, NOR), every unit outputting +1 or -1: OR of two +-1 outputs
    # fires unless both are -1, g1 + g2 > -2.
    ch07.check_two_layer_network([[1, 1], [-1, -1]], [-1.5, 0.5], [1, 1], 1.0)
    assert "All 4 inputs of XNOR are right." in capsys.readouterr().out
    with pytest.raises(ExerciseFailure, match="negation of XNOR") as failure:
        ch07.check_two_layer_network([[1, 1], [-1, -1]], [-0.5, 1.5], [1, 1], -1.5)  # XOR
    assert str(failure.value).startswith(
        "On input (0, 0) the hidden units output (-1, +1) and the network outputs -1, "
        "but XNOR(0, 0) = 1 (it should output +1)."
    )
    with pytest.raises(ExerciseFailure) as failure:  # AND: wrong on (0, 0) only
        ch07.check_two_layer_network([[1, 1]], [-1.5], [1], -0.5)
    assert "Hint" not in str(failure.value)
    with pytest.raises(ExerciseFailure, match="one weight per hidden unit"):
        ch07.check_two_layer_network([[1, 1], [1, 1]], [0, 0], [1], 0)


def test_two_layer_xnor_built_for_plus_minus_one_passes(capsys):
    # Issue 32: notation.md has units output +1 or -1; the old check read hidden
    # outputs as 0/1 and rejected this right network with no hint.
    ch07.check_two_layer_network([[1, 1], [-1, -1]], [-1.5, 0.5], [0.5, 0.5], 0.5)
    ch07.check_two_layer_network([[-1, -1], [1, 1]], [1.5, -0.5], [-1, -1], 1.0)  # NAND, OR
    assert capsys.readouterr().out.count("All 4 inputs of XNOR are right.") == 2


def test_two_layer_output_built_for_bits_gets_its_hint():
    # OR(AND, NOR) with the output unit of hidden outputs 0/1 (b_out = -0.5): the old
    # check accepted it; with +-1 hidden outputs it fails on (0, 0) and (1, 1).
    with pytest.raises(ExerciseFailure) as failure:
        ch07.check_two_layer_network([[1, 1], [-1, -1]], [-1.5, 0.5], [1, 1], -0.5)
    message = str(failure.value)
    assert message.startswith("On input (0, 0) the hidden units output (-1, +1)")
    assert "right for hidden outputs 0 and 1, but a silent unit outputs -1, not 0" in message
    assert "w_out = [0.5, 0.5] and b_out = 0.5" in message
    # The suggested fix is right.
    ch07.check_two_layer_network([[1, 1], [-1, -1]], [-1.5, 0.5], [0.5, 0.5], 0.5)


def test_two_layer_tie_at_zero_gets_the_boundary_hint():
    # OR(AND, NOR) with b_out = 0: g1 + g2 = 0 on (0, 0) and (1, 1) gives a = 0, which
    # predicts -1. The old check gave the hint for hidden outputs 0/1 instead.
    with pytest.raises(ExerciseFailure) as failure:
        ch07.check_two_layer_network([[1, 1], [-1, -1]], [-1.5, 0.5], [1, 1], 0)
    message = str(failure.value)
    assert "output activation w_out . g + b_out is exactly 0, and a = 0 predicts -1" in message
    assert "for example to 1.0" in message and "hidden outputs 0 and 1" not in message
    ch07.check_two_layer_network([[1, 1], [-1, -1]], [-1.5, 0.5], [1, 1], 1.0)  # the fix


# -- input shapes ----------------------------------------------------------------------


def test_a_bias_given_as_a_list_and_a_coef_row_are_accepted(capsys):
    # Issue 32: b=[-0.5] raised a raw TypeError; coef_ of shape (1, 3) was rejected.
    ch07.check_lifted_xor_weights([1.0, 1.0, -2.0], [-0.5])
    ch07.check_lifted_xor_weights(np.array([[1.0, 1.0, -2.0]]), np.array([-0.5]))
    ch07.check_two_layer_network([[1, 1], [-1, -1]], [-1.5, 0.5], [[1, 1]], [1])
    assert capsys.readouterr().out.count("are right") == 3


@pytest.mark.parametrize("bias", [[1.0, 2.0], "a half", None])
def test_a_bias_that_is_not_one_number_is_named(bias):
    with pytest.raises(ExerciseFailure, match="b must be one number"):
        ch07.check_lifted_xor_weights([1.0, 1.0, -2.0], bias)
    with pytest.raises(ExerciseFailure, match="b_out must be one number"):
        ch07.check_two_layer_network([[1, 1], [-1, -1]], [-1.5, 0.5], [1, 1], bias)
