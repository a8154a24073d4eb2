"""Figures of the voted perceptron: every vector's boundary, its survival count, its vote.

Companion of :mod:`perceptron_lib.averaging`. :func:`plot_vote` draws one
:class:`~perceptron_lib.averaging.VotingSnapshot` on two-dimensional data;
:func:`animate_voting` plays the snapshots pass by pass (the static
counterpart of :func:`perceptron_lib.widgets.voting_explorer`). Like
:mod:`perceptron_lib.plotting`, functions take ``ax=None`` and return the Axes.
"""

from __future__ import annotations

import numpy as np
from matplotlib.animation import FuncAnimation
from matplotlib.artist import Artist
from matplotlib.axes import Axes
from numpy.typing import ArrayLike

from ._drawing import (
    LEGEND_STYLE,
    NEGATIVE_STYLE,
    POSITIVE_STYLE,
    _as_points,
    _as_vector,
    _get_axes,
    _line_in_view,
    _view,
)
from .averaging import VotingSnapshot, vote, weighted_sum
from .plotting import plot_data

# The thickest line belongs to the vector with the largest survival count.
MAX_LINE_WIDTH = 5.0


def _check_snapshot(snapshot: VotingSnapshot) -> VotingSnapshot:
    if not isinstance(snapshot, VotingSnapshot):
        raise TypeError(
            f"snapshot must be a VotingSnapshot (from voting_snapshots), "
            f"got {type(snapshot).__name__}."
        )
    if snapshot.weights.ndim != 2 or snapshot.weights.shape[1] != 2:
        raise ValueError(
            f"Only vectors of two features can be drawn, got weights of shape "
            f"{snapshot.weights.shape}."
        )
    return snapshot


def vote_summary(snapshot: VotingSnapshot, point: ArrayLike) -> str:
    """Return one line saying how the vectors of ``snapshot`` vote on ``point``.

    Examples
    --------
    >>> weights = np.array([[1.0, 0.0], [-1.0, 0.0]])
    >>> snap = VotingSnapshot(1, weights, np.zeros(2), np.array([3, 1]))
    >>> vote_summary(snap, [1.0, 0.0])
    'pass 1, 2 vectors: votes for +1: 3, for -1: 1; vote +1, average +1'
    """
    snapshot = _check_snapshot(snapshot)
    point = _as_vector(point, "point")
    counts = snapshot.counts.astype(np.float64)
    positive = snapshot.weights @ point + snapshot.intercepts > 0
    total = float(vote(snapshot.weights, snapshot.intercepts, counts, [point])[0])
    average = float(weighted_sum(snapshot.weights, snapshot.intercepts, counts, [point])[0])
    return (
        f"pass {snapshot.passes}, {counts.shape[0]} vectors: "
        f"votes for +1: {counts[positive].sum():.0f}, for -1: {counts[~positive].sum():.0f}; "
        f"vote {'+1' if total > 0 else '-1'}, average {'+1' if average > 0 else '-1'}"
    )


def plot_vote(
    snapshot: VotingSnapshot,
    X: ArrayLike,
    y: ArrayLike,
    point: ArrayLike,
    ax: Axes | None = None,
) -> Axes:
    """Draw every vector's boundary, as thick as its survival count, coloured by its vote.

    Each line ``w_k . x + b_k = 0`` is drawn with a width proportional to the
    vector's survival count ``c_k`` and in the colour of the class it predicts
    for ``point`` (the star): vermilion for +1, blue for -1. The title gives
    the tally (see :func:`vote_summary`). Vectors with ``w = 0`` have no line.

    Parameters
    ----------
    snapshot : VotingSnapshot
        From :func:`~perceptron_lib.averaging.voting_snapshots` on two-feature data.
    X : array-like of shape (n_samples, 2)
    y : array-like of shape (n_samples,)
        Labels 0/1 or -1/+1.
    point : array-like of shape (2,)
        The point the vectors vote on.
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from perceptron_lib import VotedPerceptron
    >>> from perceptron_lib.averaging import voting_snapshots
    >>> X, y = [[1.0, 1.0], [0.5, 3.0], [2.0, 2.0]], [1, 1, -1]
    >>> snap = voting_snapshots(VotedPerceptron(shuffle=False), X, y, 2)[-1]
    >>> ax = plot_vote(snap, X, y, [1.0, 2.0])
    >>> ax.get_title()
    'pass 2, 4 vectors: votes for +1: 4, for -1: 2; vote +1, average +1'
    >>> plt.close("all")
    """
    snapshot = _check_snapshot(snapshot)
    X = _as_points(X)
    point = _as_vector(point, "point")
    ax = _get_axes(ax)
    plot_data(X, y, ax=ax)
    _draw_vectors(ax, snapshot, point)
    ax.set_title(vote_summary(snapshot, point), fontsize="small")
    return ax


def _draw_vectors(ax: Axes, snapshot: VotingSnapshot, point) -> list[Artist]:
    """Draw the lines and the star on ``ax`` (which shows the data); return the artists."""
    xlim, ylim = _view(ax)
    drawn: list[Artist] = []
    widest = max(float(snapshot.counts.max()), 1.0)
    for w, b, c in zip(snapshot.weights, snapshot.intercepts, snapshot.counts, strict=True):
        segment = _line_in_view(w, b, xlim, ylim) if np.any(w) else None
        if segment is None:
            continue
        style = POSITIVE_STYLE if w @ point + b > 0 else NEGATIVE_STYLE
        (line,) = ax.plot(
            segment[:, 0],
            segment[:, 1],
            color=style["color"],
            linewidth=0.5 + MAX_LINE_WIDTH * c / widest,
            alpha=0.7,
            zorder=2,
        )
        drawn.append(line)
    drawn.append(
        ax.scatter(
            [point[0]],
            [point[1]],
            marker="*",
            s=320,
            color="gold",
            edgecolors="black",
            zorder=6,
            label="the point voted on",
        )
    )
    ax.set_xlim(xlim)
    ax.set_ylim(ylim)
    drawn.append(ax.legend(**LEGEND_STYLE))
    return drawn


def animate_voting(
    snapshots: list[VotingSnapshot],
    X: ArrayLike,
    y: ArrayLike,
    point: ArrayLike,
    *,
    figsize: tuple[float, float] = (4.8, 4.8),
    dpi: int = 80,
) -> FuncAnimation:
    """Animate the vote pass by pass: one frame per snapshot, drawn as :func:`plot_vote`.

    Render it with :func:`perceptron_lib.animation.animation_html`.

    Examples
    --------
    >>> from perceptron_lib import VotedPerceptron
    >>> from perceptron_lib.animation import animation_html
    >>> from perceptron_lib.averaging import voting_snapshots
    >>> X, y = [[1.0, 1.0], [0.5, 3.0], [2.0, 2.0]], [1, 1, -1]
    >>> snaps = voting_snapshots(VotedPerceptron(shuffle=False), X, y, 3)
    >>> html = animation_html(animate_voting(snaps, X, y, [1.0, 2.0]))
    >>> html.count("data:image/png;base64")
    3
    """
    import matplotlib.pyplot as plt

    snapshots = [_check_snapshot(s) for s in snapshots]
    if not snapshots:
        raise ValueError("snapshots is empty: there is nothing to animate.")
    X = _as_points(X)
    point = _as_vector(point, "point")
    fig, ax = plt.subplots(figsize=figsize, dpi=dpi, facecolor="white", layout="constrained")
    plot_data(X, y, ax=ax)
    ax.set_title("pass", fontsize="small")
    fig.canvas.draw()
    fig.set_layout_engine("none")  # lay out once; per-frame layout is slow
    drawn: list[Artist] = []

    def draw(frame: int) -> list[Artist]:
        for artist in drawn:
            artist.remove()
        drawn[:] = _draw_vectors(ax, snapshots[frame], point)
        ax.set_title(vote_summary(snapshots[frame], point), fontsize="small")
        return drawn

    return FuncAnimation(fig, draw, frames=len(snapshots), interval=900, repeat=False)
