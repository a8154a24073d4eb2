"""The explorers: their pure views, and the widgets redrawing when a control moves."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.figure import Figure

from perceptron_lib import (
    AveragedPerceptron,
    BatchPerceptron,
    Perceptron,
    lecture_notes_example,
    logic_gate,
    margin,
    three_points_example,
    training_trace,
)
from perceptron_lib.widgets.gates import _gate_view, gate_explorer
from perceptron_lib.widgets.geometry import _geometry_view, geometry_explorer
from perceptron_lib.widgets.training import _training_view, training_explorer

LECTURE_X, LECTURE_Y = lecture_notes_example()


def controls(explorer):
    """The explorer's controls by description, its text panel and its image."""
    control_box, output_box = explorer.children
    image, text = output_box.children
    return {c.description: c for c in control_box.children}, text, image


def test_importing_the_package_does_not_import_ipywidgets():
    import subprocess
    import sys

    code = "import sys, perceptron_lib; print('ipywidgets' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.stdout.strip() == "False", result.stderr


# -- gate explorer ----------------------------------------------------------


def parse_table(table):
    """Rows of (x1, x2, weighted sum, unit output, gate output) from the table text."""
    rows = [line.split() for line in table.splitlines()[1:5]]
    return np.array(rows, dtype=float)


@pytest.mark.parametrize("gate", ["AND", "OR", "NAND", "NOR", "XOR"])
def test_gate_table_compares_the_unit_with_the_gate(gate):
    w1, w2, theta = 0.7, -0.4, 0.2
    table, fig = _gate_view(w1, w2, theta, gate)
    assert isinstance(fig, Figure)
    rows = parse_table(table)
    X, y = logic_gate(gate.lower())
    np.testing.assert_array_equal(rows[:, :2], X)
    np.testing.assert_allclose(rows[:, 2], X @ [w1, w2], atol=0.005)
    np.testing.assert_array_equal(rows[:, 3], X @ [w1, w2] > theta)
    np.testing.assert_array_equal(rows[:, 4], y == 1)
    right = int((rows[:, 3] == rows[:, 4]).sum())
    expected = (
        f"The unit computes {gate}."
        if right == 4
        else f"{right} of 4 rows match {gate}; the boxed inputs are wrong."
    )
    assert table.splitlines()[-1] == expected
    assert fig.axes[0].get_title() == f"{gate}: {right} of 4 inputs right"


def test_gate_unit_is_silent_exactly_at_the_threshold():
    # Like the estimators' predict (activation > 0): a sum equal to theta does not fire.
    rows = parse_table(_gate_view(1.0, 1.0, 1.0, "OR")[0])
    np.testing.assert_array_equal(rows[:, 3], [0, 0, 0, 1])


def test_gate_view_rejects_unknown_gates():
    with pytest.raises(ValueError, match="Unknown gate"):
        _gate_view(1.0, 1.0, 1.0, "IMPLIES")


def test_gate_explorer_redraws_when_a_slider_moves():
    sliders, text, image = controls(gate_explorer())
    assert set(sliders) == {"w1", "w2", "theta", "gate"}
    assert "The unit computes AND." in text.value  # the default setting: w = (1, 1), theta 1.5
    before_text, before_image = text.value, image.value
    sliders["theta"].value = 0.5
    assert "2 of 4 rows match AND" in text.value  # the unit now computes OR
    assert image.value != before_image and text.value != before_text
    sliders["gate"].value = "OR"
    assert "The unit computes OR." in text.value
    assert image.value[:8] == b"\x89PNG\r\n\x1a\n"


# -- geometry explorer ------------------------------------------------------


def test_geometry_view_reports_the_margin_of_a_separator():
    X, y = three_points_example()
    summary, fig = _geometry_view(180.0, 2.0, 3.0, X, y)  # w = (-2, 0), b = 3: x1 = 1.5
    w = np.array([-2.0, 0.0])
    assert (
        summary.splitlines()[-1]
        == f"margin = {margin(w, 3.0, X, y):.3f}: (w, b) separates the data."
    )
    assert "|b|/||w|| = 1.500" in summary
    ax = fig.axes[0]
    assert any(p.get_label().startswith("margin band") for p in ax.patches)
    assert any(c.get_label() == "projections" for c in ax.collections)


def test_geometry_view_says_when_w_b_does_not_separate():
    X, y = three_points_example()
    summary, fig = _geometry_view(0.0, 1.0, 0.0, X, y)  # w = (1, 0): all points positive
    assert "does not separate" in summary
    assert "(1 point on the wrong side" in summary
    assert not any(p.get_label().startswith("margin band") for p in fig.axes[0].patches)


def test_geometry_view_lists_activations_and_signed_distances():
    X, y = three_points_example()
    angle, length, b = 30.0, 2.0, -0.5
    summary, _ = _geometry_view(angle, length, b, X, y)
    w = length * np.array([np.cos(np.radians(angle)), np.sin(np.radians(angle))])
    rows = [line for line in summary.splitlines() if line.startswith("(")]
    activations = np.array([float(r.split()[-2]) for r in rows])
    distances = np.array([float(r.split()[-1]) for r in rows])
    np.testing.assert_allclose(activations, X @ w + b, atol=0.005)
    np.testing.assert_allclose(distances, (X @ w + b) / length, atol=0.0005)


def test_geometry_view_with_zero_w_has_no_boundary():
    X, y = three_points_example()
    summary, fig = _geometry_view(0.0, 0.0, 1.0, X, y)
    assert "w = 0" in summary
    assert fig.axes[0].get_lines() == []


def test_geometry_explorer_redraws_when_a_slider_moves():
    sliders, text, image = controls(geometry_explorer())
    before_text, before_image = text.value, image.value
    sliders["angle of w"].value = 180.0
    sliders["b"].value = 1.5
    assert "margin = 0.500" in text.value
    assert text.value != before_text and image.value != before_image


def test_geometry_explorer_takes_other_data_and_rejects_half_of_it():
    X, y = logic_gate("and")
    sliders, text, _ = controls(geometry_explorer(X, y))
    assert text.value.count("(") >= 4
    with pytest.raises(ValueError, match="both X and y"):
        geometry_explorer(X)


# -- training explorer ------------------------------------------------------


@pytest.fixture(scope="module")
def lecture_trace():
    return training_trace(Perceptron(shuffle=False, fit_intercept=False), LECTURE_X, LECTURE_Y)


def test_training_view_shows_the_row_and_both_boundaries(lecture_trace):
    for step in range(6):
        row, fig = _training_view(lecture_trace, LECTURE_X, step)
        ax = fig.axes[0]
        example = lecture_trace.index[step]
        assert f"example {example} (y = {int(LECTURE_Y[example]):+d})" in row
        assert f"w.x + b = {lecture_trace.activation[step]:.2f}" in row
        mistake = lecture_trace.mistake[step]
        assert ("a mistake" in row) == bool(mistake)
        w, b = lecture_trace.weights[step], lecture_trace.bias[step]
        solid = [line for line in ax.get_lines() if line.get_linestyle() == "-"]
        np.testing.assert_allclose(solid[0].get_xydata() @ w + b, 0.0, atol=1e-9)
        dashed = [line for line in ax.get_lines() if line.get_linestyle() == "--"]
        w_old, b_old = lecture_trace.weights_before(step)
        assert len(dashed) == int(bool(mistake and np.any(w_old)))
        for line in dashed:
            np.testing.assert_allclose(line.get_xydata() @ w_old + b_old, 0.0, atol=1e-9)
        plt.close(fig)


def test_training_view_rejects_a_step_out_of_range(lecture_trace):
    with pytest.raises(ValueError, match="step must be in"):
        _training_view(lecture_trace, LECTURE_X, lecture_trace.n_steps)


def test_training_explorer_steps_through_the_trace():
    model = AveragedPerceptron(shuffle=False)
    explorer = training_explorer(model, LECTURE_X, LECTURE_Y)
    sliders, text, image = controls(explorer)
    trace = training_trace(model, LECTURE_X, LECTURE_Y)
    assert sliders["step"].max == trace.n_steps - 1 == sliders["play"].max
    assert text.value.count("step 1 of") == 1
    before_image = image.value
    sliders["step"].value = 3
    assert f"step 4 of {trace.n_steps}" in text.value
    assert image.value != before_image
    assert not hasattr(model, "coef_")  # the estimator itself is not fitted


def test_training_explorer_needs_an_online_perceptron():
    with pytest.raises(TypeError, match="online perceptron"):
        training_explorer(BatchPerceptron(), LECTURE_X, LECTURE_Y)
