"""Figures of the voted perceptron: every vector's boundary, its survival count, its vote.

Companion of :mod:`perceptron_lib.experiments.averaging`. :func:`plot_vote` draws one
:class:`~perceptron_lib.experiments.averaging.VotingSnapshot` on two-dimensional data;
:func:`animate_voting` plays the snapshots pass by pass (the static
counterpart of :func:`perceptron_lib.widgets.voting.voting_explorer`). Like
:mod:`perceptron_lib.figures.geometry`, functions take ``ax=None`` and return the Axes.
"""

from __future__ import annotations

import numpy as np
from matplotlib.animation import FuncAnimation
from matplotlib.artist import Artist
from matplotlib.axes import Axes
from numpy.typing import ArrayLike

from ..experiments.averaging import VotingSnapshot
from ..theory.averaging import vote, weighted_sum
from .drawing import (
    LEGEND_STYLE,
    NEGATIVE_STYLE,
    POSITIVE_STYLE,
    _as_points,
    _as_vector,
    _get_axes,
    _line_in_view,
    _view,
)
from .geometry import plot_data

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
        From :func:`~perceptron_lib.experiments.averaging.voting_snapshots` on two-feature data.
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
    >>> from perceptron_lib.experiments.averaging import voting_snapshots
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

    Render it with :func:`perceptron_lib.figures.animation.animation_html`.

    Examples
    --------
    >>> from perceptron_lib import VotedPerceptron
    >>> from perceptron_lib.figures.animation import animation_html
    >>> from perceptron_lib.experiments.averaging import voting_snapshots
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


# Line style and marker of each kind of perceptron, so that the three lines
# stay apart in grey print and for colour-blind readers.
KIND_STYLES = {"last": ("-", "o"), "voted": ("--", "s"), "averaged": (":", "^")}


def plot_prediction_cost(
    n_vectors: ArrayLike,
    vote_seconds: ArrayLike,
    average_seconds: ArrayLike,
    ax: Axes | None = None,
) -> Axes:
    """Time to predict against the number of stored vectors, for the vote and the average.

    Parameters
    ----------
    n_vectors : array-like of int
        Number of vectors each voted perceptron stores.
    vote_seconds, average_seconds : array-like of float
        Measured time (seconds) of the vote and of the averaged vector, one
        per entry of ``n_vectors``; drawn in milliseconds.
    ax : matplotlib Axes, optional
        Where to draw; a new figure sized for a phone's screen if omitted.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> ax = plot_prediction_cost([10, 20], [0.001, 0.002], [0.0001, 0.0001])
    >>> [line.get_label() for line in ax.get_lines()]
    ['vote', 'average']
    >>> plt.close("all")
    """
    from .curves import CURVE_COLORS

    n_vectors = np.asarray(n_vectors)
    times = {
        "vote": np.asarray(vote_seconds, dtype=float),
        "average": np.asarray(average_seconds, dtype=float),
    }
    for name, seconds in times.items():
        if seconds.shape != n_vectors.shape:
            raise ValueError(
                f"{name} times have shape {seconds.shape}, n_vectors {n_vectors.shape}."
            )
    ax = _get_axes(ax, figsize=(4.6, 3.2))
    for (name, seconds), color, (line, marker) in zip(
        times.items(), CURVE_COLORS, (("-", "o"), ("--", "s")), strict=False
    ):
        ax.plot(n_vectors, 1e3 * seconds, marker=marker, color=color, linestyle=line, label=name)
    ax.set_xlabel("stored vectors (updates)")
    ax.set_ylabel("time to predict (ms, median)")
    ax.set_ylim(bottom=0)
    ax.legend(fontsize="small")
    return ax


def plot_voting_comparison(comparisons: dict, axes=None):
    """Test error of the last, voted and averaged perceptron against passes, one panel a task.

    The panels are stacked, one above the other (a phone shows one column),
    and share their axes; each line is the mean over the splits, its band one
    standard deviation either side. One legend, in the first panel.

    Parameters
    ----------
    comparisons : dict of str to VotingComparison
        Panel title to the result of
        :func:`~perceptron_lib.experiments.averaging.compare_last_voted_averaged`.
    axes : sequence of matplotlib Axes, optional
        One per task; a new figure of stacked panels if omitted.

    Returns
    -------
    numpy.ndarray of matplotlib Axes

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from perceptron_lib.experiments.averaging import VotingComparison
    >>> errors = np.array([[0.2, 0.1], [0.3, 0.1]])
    >>> result = VotingComparison(np.arange(1, 3), errors, errors, errors, np.ones(2, int))
    >>> axes = plot_voting_comparison({"a task": result, "another": result})
    >>> [ax.get_title() for ax in axes]
    ['a task', 'another']
    >>> plt.close("all")
    """
    import matplotlib.pyplot as plt

    from ..experiments.averaging import VotingComparison
    from .curves import CURVE_COLORS

    if not comparisons:
        raise ValueError("comparisons is empty: there is nothing to draw.")
    for name, result in comparisons.items():
        if not isinstance(result, VotingComparison):
            raise TypeError(
                f"comparisons[{name!r}] must be a VotingComparison, got {type(result).__name__}."
            )
    if axes is None:
        _, axes = plt.subplots(
            len(comparisons),
            1,
            figsize=(4.6, 1.2 + 2.2 * len(comparisons)),
            facecolor="white",
            layout="constrained",
            sharex=True,
            sharey=True,
            squeeze=False,
        )
    axes = np.ravel(np.asarray(axes, dtype=object))
    if axes.size != len(comparisons):
        raise ValueError(f"{len(comparisons)} tasks need as many axes, got {axes.size}.")
    for ax, (name, result) in zip(axes, comparisons.items(), strict=True):
        for color, (kind, (line, marker)) in zip(CURVE_COLORS, KIND_STYLES.items(), strict=False):
            errors = 100 * getattr(result, kind)
            mean, sd = errors.mean(axis=0), errors.std(axis=0, ddof=1)
            ax.plot(
                result.passes,
                mean,
                color=color,
                linestyle=line,
                marker=marker,
                markersize=3,
                label=kind,
            )
            ax.fill_between(result.passes, mean - sd, mean + sd, color=color, alpha=0.12)
        ax.set_title(name, fontsize="medium")
        ax.set_ylabel("test error (%)")
    axes[-1].set_xlabel("passes (lines: mean, bands: ± sd)")
    axes[0].set_ylim(bottom=0)
    axes[0].legend(fontsize="small")
    return axes
