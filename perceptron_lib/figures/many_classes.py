"""Figures of chapter 9: class scores along a line, accuracies over runs, learnt transitions.

Each function draws on ``ax`` (a new figure when ``ax`` is None) and returns
the Axes. Classes are told apart by colour *and* marker (Okabe and Ito's
colour-blind-safe palette), and every figure is sized to be read on a phone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.axes import Axes
from matplotlib.patches import Rectangle
from numpy.typing import ArrayLike

from .drawing import LEGEND_STYLE

__all__ = ["plot_accuracy_runs", "plot_class_scores", "plot_transition_weights"]

#: Colour and marker of class k (up to five classes), Okabe and Ito's palette.
CLASS_STYLES = (
    {"color": "#0072B2", "marker": "o"},
    {"color": "#D55E00", "marker": "P"},
    {"color": "#009E73", "marker": "s"},
    {"color": "#CC79A7", "marker": "^"},
    {"color": "#E69F00", "marker": "D"},
)


def plot_class_scores(
    W: ArrayLike,
    b: ArrayLike,
    x: ArrayLike,
    y: ArrayLike,
    *,
    class_names: Sequence[str] | None = None,
    ax: Axes | None = None,
) -> Axes:
    """Draw each class's score ``s_k(x) = W[k] x + b[k]`` along a line, with the data below.

    Parameters
    ----------
    W : array-like of shape (n_classes, 1)
        One weight per class (the data have one feature).
    b : array-like of shape (n_classes,)
        The biases.
    x : array-like of shape (n_samples,) or (n_samples, 1)
        The examples' positions on the line.
    y : array-like of shape (n_samples,)
        Their class indices, 0 to n_classes - 1.
    class_names : sequence of str, optional
        Legend names; ``class 0``, ... if left out.
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib Axes
        The class whose line is highest at ``x`` is the prediction there: the
        upper envelope is drawn thick.
    """
    W = np.asarray(W, dtype=np.float64).reshape(-1)
    b = np.asarray(b, dtype=np.float64).reshape(-1)
    x = np.asarray(x, dtype=np.float64).reshape(-1)
    y = np.asarray(y).reshape(-1)
    if W.shape != b.shape or not 2 <= W.shape[0] <= len(CLASS_STYLES):
        raise ValueError(
            f"W and b must hold one number per class (2 to {len(CLASS_STYLES)} classes); "
            f"got {W.shape[0]} weights and {b.shape[0]} biases."
        )
    if x.shape != y.shape:
        raise ValueError(f"x and y must have the same length; got {x.shape} and {y.shape}.")
    if not (np.all(np.isfinite(W)) and np.all(np.isfinite(b)) and np.all(np.isfinite(x))):
        raise ValueError("W, b and x must be finite.")
    names = list(class_names) if class_names is not None else [f"class {k}" for k in range(len(W))]
    if ax is None:
        _, ax = plt.subplots(figsize=(4.6, 3.8), facecolor="white", layout="constrained")
    span = x.max() - x.min() if x.size else 1.0
    grid = np.linspace(x.min() - 0.1 * span, x.max() + 0.1 * span, 401)
    scores = W[:, None] * grid[None, :] + b[:, None]
    top = scores.max(axis=0)
    ax.plot(grid, top, color="0.75", linewidth=6, zorder=1, label="highest score")
    for k, style in enumerate(CLASS_STYLES[: len(W)]):
        ax.plot(grid, scores[k], color=style["color"], linewidth=1.8, zorder=2)
    low = min(scores.min(), 0.0)
    height = max(scores.max(), 0.0) - low or 1.0
    level = low - 0.12 * height
    for k, style in enumerate(CLASS_STYLES[: len(W)]):
        chosen = y == k
        ax.scatter(
            x[chosen],
            np.full(chosen.sum(), level),
            s=60,
            zorder=3,
            label=names[k],
            **style,
        )
    ax.axhline(0.0, color="0.4", linewidth=0.6, linestyle=":")
    ax.set_xlabel("x (the one feature)")
    ax.set_ylabel("score of each class")
    ax.legend(loc="upper center", ncol=2, **LEGEND_STYLE)
    ax.set_ylim(level - 0.1 * height, max(scores.max(), 0.0) + 0.45 * height)
    return ax


def plot_accuracy_runs(
    accuracies: Mapping[str, ArrayLike],
    *,
    xlabel: str = "held-out accuracy",
    ax: Axes | None = None,
) -> Axes:
    """Draw each model's accuracy on every run as a dot, one row per model, the mean as a bar.

    Parameters
    ----------
    accuracies : mapping of str to array-like of shape (n_runs,)
        Model name to its accuracies (fractions between 0 and 1), one per run.
    xlabel : str
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib Axes
    """
    if not accuracies:
        raise ValueError("accuracies is empty: give at least one model.")
    if ax is None:
        height = 1.2 + 0.55 * len(accuracies)
        _, ax = plt.subplots(figsize=(4.6, height), facecolor="white", layout="constrained")
    names = list(accuracies)
    for row, name in enumerate(names):
        values = np.asarray(accuracies[name], dtype=np.float64).reshape(-1)
        if values.size == 0 or not np.all(np.isfinite(values)):
            raise ValueError(f"the accuracies of {name!r} must be finite and not empty.")
        style = CLASS_STYLES[row % len(CLASS_STYLES)]
        ax.scatter(values, np.full(values.size, row), s=36, alpha=0.8, zorder=3, **style)
        ax.plot([values.mean()] * 2, [row - 0.3, row + 0.3], color="black", linewidth=2)
    ax.set_yticks(range(len(names)), names)
    ax.set_ylim(len(names) - 0.5, -0.5)
    ax.set_xlabel(xlabel)
    ax.grid(axis="x", color="0.85")
    return ax


def plot_transition_weights(
    transition: ArrayLike,
    labels: Sequence | None = None,
    *,
    allowed: ArrayLike | None = None,
    ax: Axes | None = None,
) -> Axes:
    """Draw learnt transition weights as a heat map: row = label before, column = label after.

    Parameters
    ----------
    transition : array-like of shape (L, L)
        ``transition[k, l]``: the weight of label ``k`` followed by label ``l``.
    labels : sequence of length L, optional
        Tick labels; ``0, ..., L - 1`` if left out.
    allowed : array-like of bool, shape (L, L), optional
        Cells to outline (for instance the pairs a grammar allows).
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib Axes
        With a colour bar; the colour scale is symmetric about 0 (red positive,
        blue negative).
    """
    transition = np.asarray(transition, dtype=np.float64)
    if transition.ndim != 2 or transition.shape[0] != transition.shape[1]:
        raise ValueError(f"transition must be square, (L, L); got shape {transition.shape}.")
    if not np.all(np.isfinite(transition)):
        raise ValueError("transition must be finite.")
    n = transition.shape[0]
    labels = [str(label) for label in (labels if labels is not None else range(n))]
    if len(labels) != n:
        raise ValueError(f"labels has {len(labels)} names for {n} labels.")
    if ax is None:
        _, ax = plt.subplots(figsize=(4.6, 4.0), facecolor="white", layout="constrained")
    limit = float(np.abs(transition).max()) or 1.0
    image = ax.imshow(transition, cmap="RdBu_r", vmin=-limit, vmax=limit)
    if allowed is not None:
        allowed = np.asarray(allowed, dtype=bool)
        if allowed.shape != transition.shape:
            raise ValueError(
                f"allowed must have the shape of transition, {transition.shape}; got "
                f"{allowed.shape}."
            )
        for before, after in zip(*np.nonzero(allowed), strict=True):
            ax.add_patch(
                Rectangle(
                    (after - 0.5, before - 0.5), 1, 1, fill=False, edgecolor="black", linewidth=1.6
                )
            )
    ax.set_xticks(range(n), labels)
    ax.set_yticks(range(n), labels)
    ax.set_xlabel("label after")
    ax.set_ylabel("label before")
    ax.figure.colorbar(image, ax=ax, shrink=0.85, label="transition weight")
    return ax
