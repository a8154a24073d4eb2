"""The training explorer: a recorded run, stepped through update by update (chapter 3)."""

from __future__ import annotations

import ipywidgets as ipw
import numpy as np
from matplotlib.figure import Figure
from numpy.typing import ArrayLike

from ..figures.drawing import _as_points
from ..figures.geometry import plot_boundary, plot_data
from ..trace import TrainingTrace, training_trace
from .panel import _explorer

__all__ = ["training_explorer"]


def _training_view(trace: TrainingTrace, X: ArrayLike, step: int) -> tuple[str, Figure]:
    """Return the row of the trace at ``step`` as text, and the boundary before and after it.

    Parameters
    ----------
    trace : TrainingTrace
    X : array-like of shape (n_samples, 2)
        The data the trace was recorded on.
    step : int
        From 0 to ``trace.n_steps - 1``.

    Returns
    -------
    row : str
    fig : matplotlib Figure
        The data with the current example ringed, the boundary before the step
        (dashed) and after it (solid, positive side shaded).

    Examples
    --------
    >>> from perceptron_lib import Perceptron, training_trace
    >>> X, y = [[1, 3], [2, 3], [-3, 1], [1, -1]], [1, -1, 1, -1]
    >>> trace = training_trace(Perceptron(shuffle=False, fit_intercept=False), X, y)
    >>> row, fig = _training_view(trace, X, 1)
    >>> print(row)
    step 2 of 32, epoch 1, example 1 (y = -1)
    w.x + b = 11.00 before the step: y (w.x + b) <= 0, a mistake
    update: w = (-1.00, 0.00), b = 0.00
    >>> import matplotlib.pyplot as plt
    >>> plt.close(fig)
    """
    X = _as_points(X)
    if not 0 <= step < trace.n_steps:
        raise ValueError(f"step must be in 0..{trace.n_steps - 1}, got {step}.")
    w_before, b_before = trace.weights_before(step)
    w_after, b_after = trace.weights[step], float(trace.bias[step])
    example = int(trace.index[step])
    label = int(trace.labels[example])
    mistake = bool(trace.mistake[step])
    rows = [
        f"step {step + 1} of {trace.n_steps}, epoch {int(trace.epoch[step]) + 1}, "
        f"example {example} (y = {label:+d})",
        f"w.x + b = {trace.activation[step]:.2f} before the step: "
        + ("y (w.x + b) <= 0, a mistake" if mistake else "y (w.x + b) > 0, correct"),
        (
            f"update: w = ({w_after[0]:.2f}, {w_after[1]:.2f}), b = {b_after:.2f}"
            if mistake
            else f"no update: w = ({w_after[0]:.2f}, {w_after[1]:.2f}), b = {b_after:.2f}"
        ),
    ]
    ax = plot_data(X, trace.labels, highlight=example)
    if mistake and np.any(w_before):
        n_lines = len(ax.get_lines())
        plot_boundary(
            w_before,
            b_before,
            ax=ax,
            shade=False,
            show_weight_vector=False,
            color="0.5",
            label="before",
        )
        for line in ax.get_lines()[n_lines:]:
            line.set_linestyle("--")
    if np.any(w_after):
        plot_boundary(w_after, b_after, ax=ax, label="after" if mistake else "unchanged")
    ax.set_title(
        f"step {step + 1}: "
        + ("mistake, update" if mistake else "correct, no update")
        + ("" if np.any(w_after) else " (w = 0, no boundary)"),
        fontsize="medium",
    )
    return "\n".join(rows), ax.figure


def training_explorer(estimator, X: ArrayLike, y: ArrayLike) -> ipw.VBox:
    """An explorer: step through an online perceptron's training, one example at a time.

    A slider (with a play button) moves through the steps of
    :func:`~perceptron_lib.training_trace`; each step shows the trace's row
    and the boundary before and after it.

    Parameters
    ----------
    estimator : Perceptron, AveragedPerceptron or VotedPerceptron
        Its parameters define the run (it is not changed).
    X : array-like of shape (n_samples, 2)
    y : array-like of shape (n_samples,)

    Returns
    -------
    ipywidgets.VBox

    Examples
    --------
    >>> from perceptron_lib import Perceptron
    >>> X, y = [[1, 3], [2, 3], [-3, 1], [1, -1]], [1, -1, 1, -1]
    >>> explorer = training_explorer(Perceptron(shuffle=False), X, y)
    >>> play, step = explorer.children[0].children
    >>> step.max + 1  # the number of steps
    36
    """
    X = _as_points(X)
    trace = training_trace(estimator, X, y)
    step = ipw.IntSlider(
        value=0, min=0, max=trace.n_steps - 1, description="step", continuous_update=False
    )
    play = ipw.Play(value=0, min=0, max=trace.n_steps - 1, interval=800, description="play")
    # The browser moves the slider with the play button; the kernel redraws on the slider only.
    ipw.jslink((play, "value"), (step, "value"))
    return _explorer([play, step], lambda: _training_view(trace, X, step.value), watched=[step])
