"""The one convention of the course (its Notation page), in the library's data and words.

Prediction +1 iff a = w . x + b > 0 (a = 0 predicts -1); lifted vectors with
the constant first, (1, x) and (b, w). Each test here failed on the text or
code an expert review found (issue 9, items 5, 8 and 10).
"""

from __future__ import annotations

import inspect
import itertools

import numpy as np
import pytest

from perceptron_lib.data import datasets as data
from perceptron_lib.data.features import add_constant_feature
from perceptron_lib.figures import geometry as plotting
from perceptron_lib.figures import regions
from perceptron_lib.figures.drawing import _clip_half_plane
from perceptron_lib.theory import geometry, separability
from perceptron_lib.theory.convergence import max_lifted_margin


@pytest.mark.parametrize(("m", "n"), [(m, n) for n in range(1, 6) for m in range(0, n + 1)])
def test_at_least_m_of_n_is_a_threshold_unit_firing_iff_a_is_positive(m, n):
    X, y = data.at_least_m_of_n(m, n)
    a = X @ np.ones(n) - (m - 0.5)  # weights 1, threshold m - 1/2
    assert np.all(a != 0)  # no input on the boundary
    assert np.array_equal(y, np.where(a > 0, 1, -1))


def test_at_least_m_of_n_is_written_with_the_a_greater_than_zero_rule():
    doc = words(data.at_least_m_of_n)
    assert "a > 0" in doc and "m - 1/2" in doc
    assert ">= m" not in doc  # the old text: a second convention


def test_shading_and_drawing_state_the_a_greater_than_zero_rule():
    assert "w . x + b >= 0" not in inspect.getdoc(plotting.plot_boundary)
    assert "w . x + b > 0" in inspect.getdoc(plotting.plot_boundary)
    assert ">= 0" not in inspect.getdoc(_clip_half_plane).splitlines()[0]


def test_a_point_on_the_boundary_is_drawn_negative():
    # w = (1, 1), b = -1: the inputs (0, 1) and (1, 0) have a = 0 exactly.
    ax = regions.plot_unit_truth_table([1.0, 1.0], -1.0)
    (silent,) = [c for c in ax.collections if c.get_label() == "silent, output -1"]
    assert {tuple(p) for p in silent.get_offsets()} == {(0, 0), (0, 1), (1, 0)}


def test_the_lift_puts_the_constant_first_in_the_library_and_its_words():
    X = np.array([[2.0, 3.0]])
    assert add_constant_feature(X).tolist() == [[1.0, 2.0, 3.0]]
    doc = words(geometry.mistake_bound)
    assert "(1, x_i)" in doc and "(b, w)" in doc
    assert "(x_i, 1)" not in doc


def test_the_lifted_bound_uses_the_constant_first_lift():
    X, y = data.three_points_example()
    w, b = np.array([-2.0, 1.0]), 1.5
    Z, v = add_constant_feature(X), np.concatenate([[b], w])
    lifted_margin = np.min(y * (Z @ v)) / np.linalg.norm(v)
    lifted_radius_sq = np.max(np.sum(Z**2, axis=1))
    assert geometry.mistake_bound(X, y, w, b) == pytest.approx(lifted_radius_sq / lifted_margin**2)


def test_xor_of_one_input_is_separable_and_the_docstring_says_so():
    for name in ("and", "or", "nand", "nor", "xor"):
        assert separability.is_linearly_separable(*data.logic_gate(name, 1))
    for n_inputs in (2, 3):
        assert not separability.is_linearly_separable(*data.logic_gate("xor", n_inputs))
    assert "All gates but xor" not in inspect.getdoc(data.logic_gate)


def words(obj) -> str:
    return " ".join(inspect.getdoc(obj).split())


def test_attributions():
    module = words(separability)
    assert "Vapnik and Lerner 1963" in module and "Boser, Guyon and Vapnik 1992" in module
    assert "support vector machine, Cortes and Vapnik 1995" not in module
    assert "Vapnik and Lerner 1963" in words(separability.max_margin)
    assert "An exact test" not in words(separability.is_linearly_separable)
    assert "tolerance" in words(separability.is_linearly_separable)
    xor = words(data.make_xor)
    assert "older than Minsky and" in xor and "parity" in xor


def test_every_two_input_boolean_function_but_xor_and_xnor_is_separable():
    # The count behind "XOR is elementary": 14 of the 16 functions of two bits.
    X = data.logic_gate("and")[0]
    separable = [
        separability.is_linearly_separable(X, np.array(labels))
        for labels in itertools.product((-1, 1), repeat=4)
        if len(set(labels)) == 2
    ]
    assert sum(separable) == len(separable) - 2


def test_the_lifted_margin_of_the_three_points_matches_a_brute_force_search():
    # Issue 9, item 9: the convergence theorem uses the lifted margin and radius.
    X, y = data.three_points_example()
    gamma = max_lifted_margin(X, y).margin
    signed = y[:, None] * add_constant_feature(X)
    # Every unit vector (b, w1, w2) on a fine grid of the sphere.
    theta, phi = np.meshgrid(np.linspace(0, np.pi, 721), np.linspace(0, 2 * np.pi, 1441))
    directions = np.stack(
        [np.cos(theta), np.sin(theta) * np.cos(phi), np.sin(theta) * np.sin(phi)], axis=-1
    ).reshape(-1, 3)
    brute_force = np.max(np.min(directions @ signed.T, axis=1))
    assert brute_force <= gamma + 1e-9  # the solver's answer is at least as good ...
    assert gamma - brute_force < 1e-3  # ... and the grid comes close to it
    assert gamma < separability.max_margin(X, y).margin  # the bias counts in the lifted length


def test_the_lifted_margin_refuses_non_separable_data():
    with pytest.raises(ValueError, match="not linearly separable"):
        max_lifted_margin(*data.logic_gate("xor"))
