"""The appendix's figures and explorer: what they draw, and their errors."""

from __future__ import annotations

import numpy as np
import pytest

from perceptron_lib.experiments.mixing import accuracy_per_round, mixing_data
from perceptron_lib.figures.scale import (
    plot_accuracy_grid,
    plot_accuracy_per_round,
    plot_amdahl,
    plot_mistake_gaps,
    plot_mistakes_per_epoch,
)


def test_mistakes_per_epoch_leaves_out_the_clean_epoch():
    ax = plot_mistakes_per_epoch([[0, 1, 2], [4], []], 10)
    (line,) = ax.get_lines()
    assert line.get_xdata().tolist() == [1, 2]
    assert line.get_ydata().tolist() == [0.3, 0.1]


def test_mistake_gaps_of_a_clean_epoch_is_the_whole_epoch():
    ax = plot_mistake_gaps([[5], []], 10)
    median, longest = ax.get_lines()
    assert median.get_ydata().tolist() == [4.5, 10.0]
    assert longest.get_ydata().tolist() == [5.0, 10.0]


@pytest.mark.parametrize(
    ("positions", "n", "message"),
    [([], 10, "empty"), ([[10]], 10, "below n_examples"), ([[0]], 0, "positive integer")],
)
def test_mistake_plots_reject_bad_positions(positions, n, message):
    with pytest.raises(ValueError, match=message):
        plot_mistakes_per_epoch(positions, n)


def test_amdahl_curves_end_at_the_number_of_workers():
    ax = plot_amdahl(np.linspace(0, 1, 5), workers=(2, 8))
    assert [line.get_ydata()[-1] for line in ax.get_lines()] == pytest.approx([2.0, 8.0])


def test_accuracy_per_round_draws_every_method_for_the_chosen_shards():
    table = accuracy_per_round(mixing_data("separable"), shard_counts=(2, 4), max_rounds=4)
    ax = plot_accuracy_per_round(table, 4)
    labels = [line.get_label() for line in ax.get_lines()]
    assert labels == ["serial", "IPM uniform", "IPM weighted", "single-shot"]
    ipm = table[(table["method"] == "IPM uniform") & (table["n_shards"] == 4)]
    assert ax.get_lines()[1].get_ydata().tolist() == ipm["accuracy"].tolist()
    with pytest.raises(ValueError, match="no rows with n_shards=3"):
        plot_accuracy_per_round(table, 3)


def test_accuracy_grid_puts_tasks_in_columns_and_shards_in_rows():
    import matplotlib.pyplot as plt

    table = accuracy_per_round(mixing_data("separable"), shard_counts=(2, 4), max_rounds=3)
    axes = plot_accuracy_grid({"one": table, "two": table}, (2, 4))
    assert axes.shape == (2, 2)
    assert [ax.get_title() for ax in axes.flat] == [
        "one, 2 shards",
        "two, 2 shards",
        "one, 4 shards",
        "two, 4 shards",
    ]
    assert axes[1, 0].get_xlabel() and not axes[0, 0].get_xlabel()  # outer labels only
    assert axes[1, 0].get_ylabel() and not axes[1, 1].get_ylabel()
    assert len(axes[0, 0].figure.legends) == 1
    plt.close("all")
    with pytest.raises(ValueError, match="one or two tasks"):
        plot_accuracy_grid({"a": table, "b": table, "c": table}, (2,))
    with pytest.raises(ValueError, match="shard_counts is empty"):
        plot_accuracy_grid({"a": table}, ())
    with pytest.raises(ValueError, match="no rows with n_shards=3"):
        plot_accuracy_grid({"a": table}, (3,))
    plt.close("all")


def test_mixing_explorer_view_reports_the_last_round():
    from perceptron_lib.widgets.scale import _mixing_view, mixing_explorer

    text, fig = _mixing_view("noisy", 3, max_rounds=5)
    assert "after 5 rounds, 3 shard(s)" in text and "single-shot" in text
    assert len(fig.axes[0].get_lines()) == 4
    with pytest.raises(ValueError, match="kind must be one of"):
        _mixing_view("moons", 2)
    assert len(mixing_explorer().children) == 2


def test_amdahl_prediction_from_counts_matches_the_law():
    from perceptron_lib.experiments.at_scale import amdahl_speedup
    from perceptron_lib.figures.scale import amdahl_prediction

    result = {
        "mistake_fraction": np.array([0.0, 0.01, 0.1]),
        "speedup": np.array([1.8, 1.3, 1.0]),
        "speculated": np.array([1000, 800, 100]),
        "wasted": np.array([0, 50, 60]),
    }
    predicted = amdahl_prediction(result)
    assert predicted[0] == pytest.approx(1.8)  # everything shared: the full speed-up
    assert predicted[1] == pytest.approx(amdahl_speedup(0.75, 1.8))
    assert predicted[2] == pytest.approx(amdahl_speedup(0.04, 1.8))
    with pytest.raises(ValueError, match="mistake-free"):
        amdahl_prediction({**result, "mistake_fraction": np.array([0.01, 0.02, 0.1])})


def test_amdahl_prediction_accepts_a_measured_slowdown():
    # On a loaded machine the mistake-free epoch can run slower speculating (N < 1):
    # the prediction is then a slow-down too, never an error.
    from perceptron_lib.figures.scale import amdahl_prediction

    result = {
        "mistake_fraction": np.array([0.0, 0.1]),
        "speedup": np.array([0.8, 0.9]),
        "speculated": np.array([1000, 500]),
        "wasted": np.array([0, 0]),
    }
    predicted = amdahl_prediction(result)
    assert predicted[0] == pytest.approx(0.8)
    assert predicted[1] == pytest.approx(1 / (0.5 + 0.5 / 0.8))
    with pytest.raises(ValueError, match="must be positive"):
        amdahl_prediction({**result, "speedup": np.array([0.0, 0.9])})


def test_speedup_plot_draws_measurement_and_prediction():
    from perceptron_lib.experiments.speculation import speedup_against_mistake_fraction
    from perceptron_lib.figures.scale import plot_speedup_against_mistakes

    result = speedup_against_mistake_fraction([0.0, 0.05], n_samples=400, repeats=1)
    ax = plot_speedup_against_mistakes(result)
    measured, predicted, _ = ax.get_lines()
    assert measured.get_ydata().tolist() == result["speedup"].tolist()
    assert predicted.get_xdata().tolist() == pytest.approx([0.0, 5.0])


def test_mixing_rounds_replay_the_reference_run():
    from perceptron_lib import make_separable
    from perceptron_lib.distributed import iterative_parameter_mixing
    from perceptron_lib.figures.scale import mixing_rounds

    data = make_separable(60, margin=0.1, n_features=2, intercept=0.3, random_state=1)
    for mixing in ("uniform", "weighted"):
        rounds = mixing_rounds(data.X, data.y, 3, mixing=mixing)
        reference = iterative_parameter_mixing(data.X, data.y, 3, mixing=mixing)
        assert [r["mistakes"] for r in rounds] == reference.mistakes.tolist()
        for record, w, b in zip(
            rounds, reference.coef_path, reference.intercept_path, strict=True
        ):
            assert np.array_equal(record["mixed"][0], w) and record["mixed"][1] == b
            assert len(record["shards"]) == 3


def test_mixing_animation_has_one_frame_per_round_and_rejects_what_it_cannot_draw():
    from perceptron_lib import make_separable
    from perceptron_lib.figures.animation import animation_html
    from perceptron_lib.figures.scale import animate_mixing, mixing_rounds

    data = make_separable(60, margin=0.1, n_features=2, intercept=0.3, random_state=1)
    html = animation_html(animate_mixing(data.X, data.y, 3))
    assert html.count("data:image/png;base64") == len(mixing_rounds(data.X, data.y, 3))
    with pytest.raises(ValueError, match="n_shards must be from 1 to 4"):
        animate_mixing(data.X, data.y, 5)
    with pytest.raises(ValueError, match="two features"):
        animate_mixing(np.zeros((4, 3)), [1, -1, 1, -1], 2)
