"""The figures of training experiments: what they draw, and what they refuse."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pytest

from perceptron_lib.experiments.training import ErrorCurve, OrderingResult
from perceptron_lib.figures.curves import plot_error_curve, plot_loss_profile, plot_run_spread


def test_error_curve_draws_both_errors_against_passes():
    curve = ErrorCurve(
        np.arange(1, 5), np.array([0.4, 0.2, 0.1, 0.0]), np.array([0.5, 0.3, 0.2, 0.3])
    )
    ax = plot_error_curve(curve)
    train, held_out = ax.get_lines()
    assert train.get_xdata().tolist() == [1, 2, 3, 4]
    assert held_out.get_ydata().tolist() == [0.5, 0.3, 0.2, 0.3]
    assert ax.figure.get_facecolor() == (1.0, 1.0, 1.0, 1.0)


def test_error_curve_takes_its_legend_labels():
    curve = ErrorCurve(np.arange(1, 3), np.array([0.2, 0.1]), np.array([0.3, 0.2]))
    ax = plot_error_curve(curve, labels=("train", "validation"))
    assert [line.get_label() for line in ax.get_lines()] == ["train", "validation"]
    with pytest.raises(ValueError, match="two curves"):
        plot_error_curve(curve, labels=("only one",))


def test_error_curve_needs_an_error_curve():
    with pytest.raises(TypeError, match="ErrorCurve"):
        plot_error_curve(([1, 2], [0.1, 0.2], [0.2, 0.3]))


def test_run_spread_draws_one_box_per_result_on_a_given_axes():
    _, ax = plt.subplots()
    results = [
        OrderingResult("grouped", np.array([9, 12]), np.array([4, 6]), np.ones(2, bool)),
        OrderingResult("permute_once", np.array([5, 7]), np.array([2, 3]), np.ones(2, bool)),
    ]
    assert plot_run_spread(results, ax=ax) is ax
    assert [t.get_text() for t in ax.get_xticklabels()] == ["grouped", "permute once"]
    # Each box's median line is horizontal at the median number of passes.
    levels = {tuple(line.get_ydata()) for line in ax.lines if len(line.get_ydata()) == 2}
    assert (5.0, 5.0) in levels and (2.5, 2.5) in levels
    with pytest.raises(ValueError, match="quantity"):
        plot_run_spread(results, quantity="mistakes")
    with pytest.raises(ValueError, match="labels"):
        plot_run_spread(results, labels=["only one"])


def test_loss_profile_checks_shapes():
    ax = plot_loss_profile([0.0, 1.0], {"a": [1.0, 0.0], "b": [0.5, 0.5]})
    assert [line.get_label() for line in ax.get_lines()] == ["a", "b"]
    with pytest.raises(ValueError, match="shape"):
        plot_loss_profile([0.0, 1.0], {"a": [1.0, 0.0, 2.0]})


def test_descent_path_draws_the_function_and_each_step_on_it():
    from perceptron_lib.figures.curves import plot_descent_path

    def f(t):
        return np.maximum(0.0, 1.0 - t)

    ax = plot_descent_path(f, [-2.0, -1.5, -1.0], span=(-3.0, 3.0))
    curve, steps = ax.get_lines()
    assert curve.get_xdata()[0] == -3.0 and curve.get_xdata()[-1] == 3.0
    assert np.array_equal(curve.get_ydata(), f(curve.get_xdata()))
    assert steps.get_xdata().tolist() == [-2.0, -1.5, -1.0]
    assert steps.get_ydata().tolist() == [3.0, 2.5, 2.0]
    assert len([a for a in ax.texts if a.get_text() in {"0", "1", "2"}]) == 3
    assert ax.figure.get_facecolor() == (1.0, 1.0, 1.0, 1.0)


def test_descent_path_refuses_bad_input():
    from perceptron_lib.figures.curves import plot_descent_path

    with pytest.raises(TypeError, match="callable"):
        plot_descent_path([1, 2], [0.0])
    with pytest.raises(ValueError, match="non-empty"):
        plot_descent_path(np.abs, [])
    with pytest.raises(ValueError, match="low < high"):
        plot_descent_path(np.abs, [0.0], span=(1.0, 1.0))
    with pytest.raises(ValueError, match="one value per position"):
        plot_descent_path(lambda t: 0.0, [0.0])
