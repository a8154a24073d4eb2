"""Figures of training: one update of the rule drawn in the plane, mistakes per epoch.

Like :mod:`perceptron_lib.figures.geometry`, every function takes ``ax=None``
and returns the Axes.
"""

from __future__ import annotations

import numpy as np
from matplotlib.axes import Axes
from numpy.typing import ArrayLike

from .drawing import (
    LEGEND_STYLE,
    NEGATIVE_STYLE,
    POSITIVE_STYLE,
    _as_scalar,
    _as_vector,
    _draw_arrow,
    _get_axes,
    _ring,
    _show_points,
)
from .geometry import plot_boundary

__all__ = ["plot_mistakes_per_epoch", "plot_update"]


def plot_update(
    x: ArrayLike,
    y: float,
    w_before: ArrayLike,
    b_before: float,
    w_after: ArrayLike,
    b_after: float,
    ax: Axes | None = None,
) -> Axes:
    """Draw one perceptron update: the boundary before and after, and ``w + y x``.

    The weight vectors are drawn from the origin at their true length, with
    the step ``w_after - w_before`` (``y x``, times the learning rate) drawn
    from the tip of ``w_before``, so the picture is the vector sum of the
    update rule. The old boundary is dashed and grey, the new one solid with
    its positive side shaded. A zero weight vector has no boundary; that is
    said in a note instead (it happens at the first update from zero).

    Parameters
    ----------
    x : array-like of shape (2,)
        The misclassified example.
    y : {-1, +1}
        Its label.
    w_before, b_before : array-like of shape (2,), float
        The weights and bias before the update.
    w_after, b_after : array-like of shape (2,), float
        The weights and bias after it.
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib Axes

    Raises
    ------
    ValueError
        If ``y`` is not -1 or +1, or ``w_after - w_before`` is not a non-negative
        multiple of ``y x`` (then it is not a perceptron update).

    Examples
    --------
    The second update of the lecture notes' example: ``(1, 3) - (2, 3) = (-1, 0)``.

    >>> import matplotlib.pyplot as plt
    >>> ax = plot_update([2, 3], -1, [1, 3], 0, [-1, 0], 0)
    >>> arrows = [c for c in ax.collections if c.get_label().startswith("step")]
    >>> float(arrows[0].U[0]), float(arrows[0].V[0])
    (-2.0, -3.0)
    >>> plt.close("all")
    """
    x = _as_vector(x, "x")
    w_before, w_after = _as_vector(w_before, "w_before"), _as_vector(w_after, "w_after")
    b_before, b_after = _as_scalar(b_before, "b_before"), _as_scalar(b_after, "b_after")
    if y not in (-1, 1):
        raise ValueError(f"y must be the label -1 or +1 of the example, got {y!r}.")
    step = w_after - w_before
    direction = y * x
    # A perceptron update adds eta * y * x with eta > 0: parallel to y x, same sense.
    scale = max(float(np.abs(step).max()), float(np.abs(direction).max()), 1.0)
    parallel = abs(step[0] * direction[1] - step[1] * direction[0]) <= 1e-9 * scale**2
    if not parallel or step @ direction < 0:
        raise ValueError(
            f"w_after - w_before = {step.tolist()} is not a non-negative multiple of y x = "
            f"{direction.tolist()}, so this is not a perceptron update."
        )
    ax = _get_axes(ax)
    _show_points(ax, np.array([[0.0, 0.0], x, w_before, w_after]), pad=0.25, min_ratio=1.0)
    notes = []
    for w, b, when in ((w_before, b_before, "before"), (w_after, b_after, "after")):
        if not np.any(w):
            notes.append(f"{when}: w = 0, no boundary")
            continue
        n_lines = len(ax.get_lines())
        plot_boundary(
            w,
            b,
            ax=ax,
            shade=when == "after",
            show_weight_vector=False,
            label=f"boundary {when}",
            color="black" if when == "after" else "0.5",
        )
        if when == "before":
            for line in ax.get_lines()[n_lines:]:
                line.set_linestyle("--")
    origin = np.zeros(2)
    for w, name, color in (
        (w_before, r"$\mathbf{w}_{\mathrm{before}}$", "0.5"),
        (w_after, r"$\mathbf{w}_{\mathrm{after}}$", "black"),
    ):
        if np.any(w):
            _draw_arrow(ax, origin, w, color=color, label=name)
    style = POSITIVE_STYLE if y == 1 else NEGATIVE_STYLE
    if np.any(step):
        arrow = _draw_arrow(ax, w_before, step, color=style["color"], label=None)
        arrow.set_label(r"step $y\,\mathbf{x}$")
    ax.scatter([x[0]], [x[1]], s=70, zorder=5, label=f"example, y = {y:+d}", **style)
    _ring(ax, x, linewidths=None)  # matplotlib's default width
    if notes:
        ax.text(
            0.02,
            0.98,
            "\n".join(notes),
            transform=ax.transAxes,
            ha="left",
            va="top",
            fontsize="small",
            bbox={"facecolor": "white", "edgecolor": "0.7"},
        )
    ax.legend(**LEGEND_STYLE)
    return ax


def plot_mistakes_per_epoch(
    counts: ArrayLike | object, ax: Axes | None = None, *, label: str | None = None
) -> Axes:
    """Draw the number of mistakes made in each pass over the training data.

    Parameters
    ----------
    counts : array-like of shape (n_epochs,) or a fitted estimator
        Non-negative counts, or a model with a ``mistakes_per_epoch_`` attribute.
    ax : matplotlib Axes, optional
        Where to draw; a new 4.5 x 3 inch figure if None.
    label : str, optional
        Legend entry (for comparing several runs on one Axes).

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> ax = plot_mistakes_per_epoch([3, 2, 0])
    >>> ax.get_lines()[0].get_xdata().tolist()  # epochs are counted from 1
    [1, 2, 3]
    >>> plt.close("all")
    """
    if hasattr(counts, "fit") or hasattr(counts, "mistakes_per_epoch_"):
        if not hasattr(counts, "mistakes_per_epoch_"):
            raise ValueError(
                f"This {type(counts).__name__} has no mistakes_per_epoch_: fit it first."
            )
        counts = counts.mistakes_per_epoch_
    counts = np.asarray(counts, dtype=np.float64)
    if counts.ndim != 1 or counts.shape[0] == 0:
        raise ValueError(f"counts must be a non-empty 1-d array, got shape {counts.shape}.")
    if not np.all(np.isfinite(counts)) or np.any(counts < 0):
        raise ValueError("counts must be finite and non-negative.")
    ax = _get_axes(ax, figsize=(4.5, 3.0))
    epochs = np.arange(1, counts.shape[0] + 1)
    (line,) = ax.plot(epochs, counts, marker="o", markersize=4, label=label)
    # Keep the axis starting at 0 without freezing the limits: a sticky edge
    # stops autoscaling below 0, and a later run drawn here still fits.
    line.sticky_edges.y.append(0.0)
    ax.set_xlabel("epoch (pass over the data)")
    ax.set_ylabel("mistakes")
    ax.xaxis.get_major_locator().set_params(integer=True)
    if label is not None:
        ax.legend(**LEGEND_STYLE)
    return ax
