"""Every figure function the chapters call is legible on a phone (issue 24).

A 390 px phone shows a figure 342 CSS px wide; its smallest text must then be
at least 8 CSS px tall (:mod:`perceptron_lib.figures.legibility`). Each library
function is called as a chapter calls it when it makes its own figure (no
``ax``), and each animation's figure is measured as ``to_jshtml()`` saves its
frames (the whole figure, not cropped). Figures that a chapter lays out itself
(``plt.subplots`` in a notebook) are measured as the chapter draws them by
tests/test_chapter_figures.py.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pytest
from sklearn.datasets import make_moons

from perceptron_lib import (
    KernelPerceptron,
    Perceptron,
    make_separable,
    training_trace,
)
from perceptron_lib.experiments.averaging import VotingComparison, voting_snapshots
from perceptron_lib.experiments.convergence import bound_case, proof_steps
from perceptron_lib.experiments.mixing import accuracy_per_round, mixing_data
from perceptron_lib.experiments.training import ErrorCurve, OrderingResult
from perceptron_lib.figures.animation import animate_training
from perceptron_lib.figures.beyond_linear import (
    animate_kernel_training,
    plot_kernel_model,
    plot_lifted_plane,
)
from perceptron_lib.figures.convergence import (
    plot_bound_case,
    plot_bound_vs_mistakes,
    plot_proof_steps,
    plot_tau_boundaries,
    plot_weight_norm,
)
from perceptron_lib.figures.curves import plot_error_curve, plot_loss_profile, plot_run_spread
from perceptron_lib.figures.legibility import SMALLEST_TEXT, smallest_text
from perceptron_lib.figures.many_classes import (
    plot_accuracy_runs,
    plot_class_scores,
    plot_transition_weights,
)
from perceptron_lib.figures.scale import (
    animate_mixing,
    plot_accuracy_grid,
    plot_accuracy_per_round,
    plot_amdahl,
    plot_mistake_gaps,
)
from perceptron_lib.figures.scale import plot_mistakes_per_epoch as plot_epoch_mistakes
from perceptron_lib.figures.training import plot_mistakes_per_epoch
from perceptron_lib.figures.voting import plot_prediction_cost, plot_voting_comparison
from perceptron_lib.margin import MarginPerceptron
from perceptron_lib.theory.convergence import max_lifted_margin
from perceptron_lib.theory.separability import max_margin
from perceptron_lib.voted import VotedPerceptron

DATA = make_separable(30, margin=0.05, intercept=0.2, random_state=2)
TRACE = training_trace(Perceptron(random_state=0), DATA.X, DATA.y)
LIFTED = np.array([[0, 0, 0], [0, 1, 0], [1, 0, 0], [1, 1, 1]], dtype=float)
MOONS_X, MOONS_Y = make_moons(30, noise=0.1, random_state=0)
MOONS_Y = np.where(MOONS_Y == 1, 1, -1)
# Chapter 6's comparison: three tasks, 15 passes, test errors over 4 splits.
ERRORS = np.linspace(0.3, 0.05, 15) + np.linspace(0.0, 0.02, 4)[:, None]
COMPARISON = VotingComparison(np.arange(1, 16), ERRORS, ERRORS, ERRORS, np.arange(1, 16))


def kernel_model():
    return KernelPerceptron(kernel="rbf", gamma=2.0, random_state=0).fit(MOONS_X, MOONS_Y)


FIGURES = {
    "plot_mistakes_per_epoch": lambda: plot_mistakes_per_epoch([5, 2, 0]),
    "plot_proof_steps": lambda: plot_proof_steps(
        proof_steps(TRACE, DATA.X, max_lifted_margin(DATA.X, DATA.y).unit_vector)
    ),
    "plot_bound_vs_mistakes": lambda: plot_bound_vs_mistakes([10.0, 20.0], [3, 8]),
    "plot_weight_norm": lambda: plot_weight_norm(TRACE, label="a run"),
    "plot_bound_case": lambda: plot_bound_case(bound_case(0.1, 2.0, random_state=3)),
    "plot_lifted_plane": lambda: plot_lifted_plane(LIFTED, [-1, 1, 1, -1], [-1.0, -1.0, 2.0], 0.5),
    "plot_kernel_model": lambda: plot_kernel_model(kernel_model(), MOONS_X, MOONS_Y),
    "figures.scale.plot_mistakes_per_epoch": lambda: plot_epoch_mistakes([[1, 5], [3]], 10),
    "plot_mistake_gaps": lambda: plot_mistake_gaps([[5], []], 10),
    "plot_amdahl": lambda: plot_amdahl(np.linspace(0, 1, 5), workers=(2, 8)),
    "plot_accuracy_grid": lambda: plot_accuracy_grid(
        {
            kind: accuracy_per_round(mixing_data(kind), shard_counts=(2, 4, 8), max_rounds=3)
            for kind in ("separable", "noisy")
        },
        (2, 4, 8),
    ),
    "plot_tau_boundaries": lambda: plot_tau_boundaries(
        DATA.X,
        DATA.y,
        {tau: MarginPerceptron(tau=tau, random_state=0).fit(DATA.X, DATA.y) for tau in (0.0, 1.0)},
        max_margin(DATA.X, DATA.y),
    ),
    "plot_accuracy_per_round": lambda: plot_accuracy_per_round(
        accuracy_per_round(mixing_data("separable"), shard_counts=(2, 4), max_rounds=4), 4
    ),
    "plot_error_curve": lambda: plot_error_curve(
        ErrorCurve(np.arange(1, 5), np.array([0.4, 0.2, 0.1, 0.0]), np.array([0.5, 0.3, 0.2, 0.3]))
    ),
    "plot_run_spread": lambda: plot_run_spread(
        [
            OrderingResult("grouped", np.array([9, 12]), np.array([4, 6]), np.ones(2, bool)),
            OrderingResult("permute_once", np.array([5, 7]), np.array([2, 3]), np.ones(2, bool)),
        ]
    ),
    "plot_prediction_cost": lambda: plot_prediction_cost(
        [100, 400, 1600], [0.002, 0.008, 0.03], [0.0001, 0.0001, 0.0001]
    ),
    "plot_voting_comparison": lambda: plot_voting_comparison(
        {"digits 3 vs 8": COMPARISON, "breast cancer": COMPARISON, "digits, 10% noise": COMPARISON}
    ),
    "plot_loss_profile": lambda: plot_loss_profile([0.0, 1.0], {"a": [1.0, 0.0], "b": [0.5, 0.5]}),
    "plot_class_scores": lambda: plot_class_scores(
        [[-1.0], [0.0], [1.0]], [0.0, 1.25, 0.0], [-3.0, 0.0, 3.0], [0, 1, 2]
    ),
    "plot_accuracy_runs": lambda: plot_accuracy_runs(
        {"joint": [0.93, 0.94], "averaged joint": [0.96, 0.97], "one-vs-rest": [0.94, 0.95]}
    ),
    "plot_transition_weights": lambda: plot_transition_weights(
        np.arange(100.0).reshape(10, 10) - 50, allowed=np.eye(10, dtype=bool)
    ),
}

ANIMATIONS = {
    "animate_training": lambda: animate_training(TRACE, DATA.X, max_frames=3),
    "animate_voting": lambda: animate_voting_small(),
    "animate_kernel_training": lambda: animate_kernel_training(
        KernelPerceptron(kernel="rbf", gamma=2.0, random_state=0), MOONS_X, MOONS_Y, max_frames=3
    ),
    "animate_mixing": lambda: animate_mixing(DATA.X, DATA.y, 3),
}


def animate_voting_small():
    from perceptron_lib.figures.voting import animate_voting

    snapshots = voting_snapshots(VotedPerceptron(random_state=0), DATA.X, DATA.y, 3)
    return animate_voting(snapshots, DATA.X, DATA.y, [0.0, 0.0])


def figure_of(drawn):
    """The Figure of what a function returned (Axes, array of Axes, animation)."""
    if hasattr(drawn, "_fig"):
        return drawn._fig
    first = np.ravel(np.asarray(drawn, dtype=object))[0]
    return first.figure


@pytest.mark.parametrize("name", FIGURES)
def test_a_figure_reads_on_a_phone(name: str) -> None:
    found = smallest_text(figure_of(FIGURES[name]()))
    print(f"{name}: {found}")
    assert found.css_px >= SMALLEST_TEXT, f"{name}: smallest text {found}"


@pytest.mark.parametrize("name", ANIMATIONS)
def test_an_animation_reads_on_a_phone(name: str) -> None:
    found = smallest_text(figure_of(ANIMATIONS[name]()), tight=False)
    print(f"{name}: {found}")
    assert found.css_px >= SMALLEST_TEXT, f"{name}: smallest text {found}"


def test_a_wide_figure_with_small_text_is_reported() -> None:
    """The measure fails where it should: three panels side by side, 10 in wide."""
    fig, axes = plt.subplots(1, 3, figsize=(10, 3.2), layout="constrained")
    for ax in axes:
        ax.plot([0, 1], [0, 1], label="a line")
        ax.legend(fontsize="small")
    found = smallest_text(fig)
    assert found.css_px < SMALLEST_TEXT, found
    assert found.text == "a line"


def test_bad_input_is_refused() -> None:
    with pytest.raises(TypeError, match="Figure"):
        smallest_text("a figure")
    fig = plt.figure()
    with pytest.raises(ValueError, match="no text"):
        smallest_text(fig)
    with pytest.raises(ValueError, match="shown_width"):
        smallest_text(fig, shown_width=0)


def test_a_closed_figure_is_measured_and_keeps_its_canvas() -> None:
    """The chapters close a figure before showing it: it is measured all the same."""
    fig, ax = plt.subplots(figsize=(3.0, 2.0), dpi=100)
    ax.set_title("ten points", fontsize=10)
    open_size = smallest_text(fig).css_px
    plt.close(fig)
    canvas = fig.canvas
    assert smallest_text(fig).css_px == open_size
    assert fig.canvas is canvas
