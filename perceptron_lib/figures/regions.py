"""Figures of what a classifier predicts where: decision regions, a threshold unit's truth table.

Like :mod:`perceptron_lib.figures.geometry`, every function takes ``ax=None``
and returns the Axes.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from matplotlib.axes import Axes
from matplotlib.colors import ListedColormap
from matplotlib.patches import Polygon
from numpy.typing import ArrayLike, NDArray

from ..data.datasets import logic_gate
from .drawing import (
    LEGEND_STYLE,
    NEGATIVE_STYLE,
    NEGATIVE_TINT,
    POSITIVE_STYLE,
    POSITIVE_TINT,
    _as_points,
    _as_scalar,
    _as_vector,
    _get_axes,
    _positive_mask,
    _ring,
    _show_points,
    _style_plane,
    _view,
    _view_corners,
)
from .geometry import plot_boundary, plot_data

# The two-input gates that plot_unit_truth_table compares a unit with; their
# truth tables come from perceptron_lib.data.datasets.logic_gate, rows (0,0), (0,1), (1,0), (1,1).
GATE_NAMES = ("and", "or", "nand", "nor", "xor")
GATE_INPUTS = logic_gate("and")[0]

__all__ = ["GATE_INPUTS", "GATE_NAMES", "plot_decision_regions", "plot_unit_truth_table"]


def plot_decision_regions(
    predict: Callable[[NDArray], ArrayLike] | object,
    X: ArrayLike,
    y: ArrayLike,
    ax: Axes | None = None,
    *,
    resolution: int = 200,
) -> Axes:
    """Colour the plane by a fitted classifier's prediction, and draw the data on top.

    Works for any model, linear or not (a tree, nearest neighbours), so their
    boundaries can be compared on the same data.

    Parameters
    ----------
    predict : callable or fitted estimator
        A function mapping an array of shape (n, 2) to labels 0/1 or -1/+1, or
        an object with such a ``predict`` method.
    X : array-like of shape (n_samples, 2)
    y : array-like of shape (n_samples,)
    ax : matplotlib Axes, optional
    resolution : int, default 200
        Grid points per axis.

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> X, y = [[0, 0], [1, 1]], [-1, 1]
    >>> ax = plot_decision_regions(lambda Z: np.where(Z.sum(axis=1) > 1, 1, -1), X, y)
    >>> ax.get_images()[0].get_array().shape
    (200, 200)
    >>> plt.close("all")
    """
    if hasattr(predict, "predict"):
        predict = predict.predict
    if not callable(predict):
        raise TypeError(
            f"predict must be a function or a fitted estimator, got {type(predict).__name__}."
        )
    X = _as_points(X)
    _positive_mask(y, X.shape[0])
    if not isinstance(resolution, int | np.integer) or not 2 <= resolution <= 2000:
        raise ValueError(f"resolution must be an integer in 2..2000, got {resolution!r}.")
    ax = _get_axes(ax)
    _show_points(ax, X)
    xlim, ylim = _view(ax)
    grid_x, grid_y = np.meshgrid(np.linspace(*xlim, resolution), np.linspace(*ylim, resolution))
    predictions = np.asarray(predict(np.column_stack([grid_x.ravel(), grid_y.ravel()])))
    if predictions.shape != (resolution * resolution,):
        raise ValueError(
            f"predict returned shape {predictions.shape} for {resolution**2} points; "
            "expected one label per point."
        )
    try:
        positive = _positive_mask(predictions)
    except ValueError as error:
        raise ValueError(f"predict must return labels 0/1 or -1/+1: {error}") from None
    ax.imshow(
        positive.reshape(grid_x.shape),
        origin="lower",
        extent=(*xlim, *ylim),
        cmap=ListedColormap([NEGATIVE_TINT, POSITIVE_TINT]),
        vmin=0,
        vmax=1,
        interpolation="nearest",
        zorder=0,
    )
    plot_data(X, y, ax=ax)
    ax.set_xlim(xlim)
    ax.set_ylim(ylim)
    return ax


def _gate_targets(target: str | ArrayLike) -> tuple[str, NDArray[np.bool_]]:
    """Return a display name and the four wanted outputs (True = fires) of a target gate."""
    if isinstance(target, str):
        key = target.lower()
        if key not in GATE_NAMES:
            names = ", ".join(name.upper() for name in GATE_NAMES)
            raise ValueError(f"Unknown gate {target!r}; choose one of {names}.")
        return key.upper(), logic_gate(key)[1] == 1
    values = np.asarray(target)
    if values.shape != (4,):
        raise ValueError(
            "target must be a gate name or 4 outputs for the inputs (0,0), (0,1), (1,0), (1,1), "
            f"got shape {values.shape}."
        )
    return "target", _positive_mask(values)


def plot_unit_truth_table(
    w: ArrayLike, b: float, ax: Axes | None = None, *, target: str | ArrayLike | None = None
) -> Axes:
    """Draw a two-input threshold unit on the four inputs of {0, 1}^2.

    The unit fires (outputs +1) when ``w . x + b > 0``, that is when
    ``w1 x1 + w2 x2`` exceeds the threshold ``theta = -b``: the same rule as the
    estimators' ``predict``, so a unit drawn here and a fitted model agree on
    every input, even one that lies exactly on the boundary. Each input is
    drawn in the style of its output, the boundary with the firing side
    shaded, and, when a target gate is given, the inputs where the unit
    disagrees with it are boxed.

    Parameters
    ----------
    w : array-like of shape (2,)
    b : float
        The bias, minus the threshold.
    ax : matplotlib Axes, optional
    target : {"and", "or", "nand", "nor", "xor"} or array-like of shape (4,), optional
        The gate to compare with, by name (any case) or as its outputs (0/1 or
        -1/+1) for the inputs (0,0), (0,1), (1,0), (1,1).

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    AND with weights 1, 1 and threshold 1.5:

    >>> import matplotlib.pyplot as plt
    >>> ax = plot_unit_truth_table([1, 1], -1.5, target="and")
    >>> ax.get_title()
    'AND: 4 of 4 inputs right'
    >>> plt.close("all")
    """
    w = _as_vector(w)
    b = _as_scalar(b)
    fires = GATE_INPUTS @ w + b > 0
    ax = _get_axes(ax)
    ax.set_xlim(-0.5, 1.5)
    ax.set_ylim(-0.5, 1.5)
    ax._perceptron_view_set = True
    if np.any(w):
        plot_boundary(
            w, b, ax=ax, show_weight_vector=False, label=r"$\mathbf{w}\cdot\mathbf{x} + b = 0$"
        )
    else:
        if b > 0:  # the unit always fires: the whole square is on the firing side
            ax.add_patch(
                Polygon(_view_corners(ax), closed=True, facecolor=POSITIVE_TINT, zorder=0)
            )
        ax.text(
            0.5,
            0.98,
            f"w = 0: the output is {+1 if b > 0 else -1:+d} for every input",
            transform=ax.transAxes,
            ha="center",
            va="top",
            fontsize="small",
        )
    for mask, style, label in (
        (~fires, NEGATIVE_STYLE, "silent, output -1"),
        (fires, POSITIVE_STYLE, "fires, output +1"),
    ):
        if mask.any():
            ax.scatter(
                GATE_INPUTS[mask, 0], GATE_INPUTS[mask, 1], s=90, zorder=3, label=label, **style
            )
    if target is not None:
        name, wanted = _gate_targets(target)
        wrong = fires != wanted
        if wrong.any():
            _ring(
                ax,
                GATE_INPUTS[wrong],
                size=420,
                marker="s",
                zorder=4,
                label=f"differs from {name}",
            )
        ax.set_title(f"{name}: {int((~wrong).sum())} of 4 inputs right", fontsize="medium")
    ax.set_xticks([0, 1])
    ax.set_yticks([0, 1])
    _style_plane(ax)
    # Below the axes, clear of the x1 label (two rows of ticks and label above it).
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=2, **LEGEND_STYLE)
    return ax
