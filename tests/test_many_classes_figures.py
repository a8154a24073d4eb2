"""Chapter 9's figures and explorer: what they draw, and the inputs they refuse."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pytest

from perceptron_lib.figures.many_classes import (
    plot_accuracy_runs,
    plot_class_scores,
    plot_transition_weights,
)


def test_class_scores_draws_one_line_per_class_and_the_envelope():
    ax = plot_class_scores([[-1.0], [0.0], [1.0]], [0.0, 1.0, 0.0], [-2.0, 0.0, 2.0], [0, 1, 2])
    lines = ax.get_lines()
    # The envelope, three class lines and the zero line.
    assert len(lines) == 5
    envelope = lines[0].get_ydata()
    assert np.allclose(envelope, np.maximum.reduce([line.get_ydata() for line in lines[1:4]]))
    plt.close("all")


@pytest.mark.parametrize(
    ("args", "match"),
    [
        (([[1.0]], [0.0], [0.0], [0]), "one number per class"),
        (([[1.0], [2.0]], [0.0], [0.0], [0]), "one number per class"),
        (([[1.0], [2.0]], [0.0, 1.0], [0.0, 1.0], [0]), "same length"),
        (([[1.0], [np.nan]], [0.0, 1.0], [0.0], [0]), "finite"),
    ],
)
def test_class_scores_refuses_bad_input(args, match):
    with pytest.raises(ValueError, match=match):
        plot_class_scores(*args)


def test_accuracy_runs_marks_each_mean():
    ax = plot_accuracy_runs({"a": [0.5, 0.7], "b": [0.9]})
    bars = [line.get_xdata()[0] for line in ax.get_lines()]
    assert bars == pytest.approx([0.6, 0.9])
    assert [t.get_text() for t in ax.get_yticklabels()] == ["a", "b"]
    with pytest.raises(ValueError, match="empty"):
        plot_accuracy_runs({})
    with pytest.raises(ValueError, match="finite"):
        plot_accuracy_runs({"a": [np.inf]})
    plt.close("all")


def test_transition_weights_outline_the_allowed_cells_and_centre_the_colours():
    transition = np.array([[1.0, -3.0], [2.0, 0.0]])
    ax = plot_transition_weights(transition, ["A", "B"], allowed=[[True, False], [False, True]])
    assert len(ax.patches) == 2
    image = ax.get_images()[0]
    assert image.get_clim() == (-3.0, 3.0)
    with pytest.raises(ValueError, match="square"):
        plot_transition_weights(np.zeros((2, 3)))
    with pytest.raises(ValueError, match="shape of transition"):
        plot_transition_weights(transition, allowed=np.ones((3, 3), dtype=bool))
    with pytest.raises(ValueError, match="names"):
        plot_transition_weights(transition, ["A"])
    plt.close("all")


def test_step_explorer_view_reports_the_recorded_step():
    from perceptron_lib.widgets.many_classes import (
        _multiclass_step_view,
        multiclass_step_explorer,
        three_group_trace,
    )

    trace = three_group_trace()
    text, fig = _multiclass_step_view(trace, 0)
    assert "scores before: 0, 0, 0" in text and "rival: class 1" in text and "yes" in text
    text, _ = _multiclass_step_view(trace, len(trace.index) - 1)
    assert "mistake: no" in text and f"updates so far: {int(trace.mistake.sum())}" in text
    assert len(multiclass_step_explorer().children) == 2
    plt.close("all")
