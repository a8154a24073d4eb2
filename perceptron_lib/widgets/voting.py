"""The voting explorer: the voted perceptron's vectors and their vote, pass by pass (chapter 6)."""

from __future__ import annotations

import ipywidgets as ipw
import numpy as np
from matplotlib.figure import Figure
from numpy.typing import ArrayLike

from ..figures.drawing import _as_points
from .panel import _explorer, _slider

__all__ = ["voting_explorer"]


def _voting_view(snapshots, X: ArrayLike, y: ArrayLike, passes: int, point) -> tuple[str, Figure]:
    """Return the vectors after ``passes`` passes and their votes on ``point``, and a plot.

    Examples
    --------
    >>> from perceptron_lib import VotedPerceptron
    >>> from perceptron_lib.experiments.averaging import voting_snapshots
    >>> X, y = [[1.0, 1.0], [0.5, 3.0], [2.0, 2.0]], [1, 1, -1]
    >>> snaps = voting_snapshots(VotedPerceptron(shuffle=False), X, y, 2)
    >>> table, fig = _voting_view(snaps, X, y, 1, (1.0, 2.0))
    >>> print(table)
     k      w1      w2       b    c  vote
     1    1.00    1.00    1.00    2    +1
     2   -1.00   -1.00    0.00    1    -1
    pass 1, 2 vectors: votes for +1: 2, for -1: 1; vote +1, average +1
    >>> import matplotlib.pyplot as plt
    >>> plt.close(fig)
    """
    from ..figures.voting import plot_vote, vote_summary

    if not 1 <= passes <= len(snapshots):
        raise ValueError(f"passes must be in 1..{len(snapshots)}, got {passes}.")
    snapshot = snapshots[passes - 1]
    point = np.asarray(point, dtype=np.float64)
    rows = [f"{'k':>2} {'w1':>7} {'w2':>7} {'b':>7} {'c':>4}  vote"]
    shown = 12  # the table stays short; the plot shows every vector
    for k, (w, b, c) in enumerate(
        zip(snapshot.weights, snapshot.intercepts, snapshot.counts, strict=True), start=1
    ):
        if k > shown and k < len(snapshot.counts) - 1:
            if k == shown + 1:
                rows.append("   ...")
            continue
        says = "+1" if w @ point + b > 0 else "-1"
        rows.append(f"{k:2d} {w[0]:7.2f} {w[1]:7.2f} {b:7.2f} {c:4d}    {says}")
    rows.append(vote_summary(snapshot, point))
    ax = plot_vote(snapshot, X, y, point)
    return "\n".join(rows), ax.figure


def voting_explorer(estimator, X: ArrayLike, y: ArrayLike, n_passes: int = 5) -> ipw.VBox:
    """An explorer: the voted perceptron's vectors pass by pass, voting on a point you pick.

    A slider chooses the number of passes; two sliders place the point (the
    star). Every vector is drawn as a line as thick as its survival count,
    coloured by its vote on the point; the table lists the vectors.

    Parameters
    ----------
    estimator : VotedPerceptron
        Its parameters define the run (it is not changed).
    X : array-like of shape (n_samples, 2)
    y : array-like of shape (n_samples,)
    n_passes : int, default=5

    Returns
    -------
    ipywidgets.VBox

    Examples
    --------
    >>> from perceptron_lib import VotedPerceptron
    >>> X, y = [[1.0, 1.0], [0.5, 3.0], [2.0, 2.0]], [1, 1, -1]
    >>> explorer = voting_explorer(VotedPerceptron(shuffle=False), X, y, n_passes=3)
    >>> [c.description for c in explorer.children[0].children]
    ['passes', 'point x1', 'point x2']
    """
    from ..experiments.averaging import voting_snapshots

    X = _as_points(X)
    snapshots = voting_snapshots(estimator, X, y, n_passes)
    low, high = X.min(axis=0), X.max(axis=0)
    centre = (low + high) / 2
    passes = ipw.IntSlider(
        value=1, min=1, max=n_passes, description="passes", continuous_update=False
    )
    x1 = _slider("point x1", float(centre[0]), float(low[0]), float(high[0]), 0.05)
    x2 = _slider("point x2", float(centre[1]), float(low[1]), float(high[1]), 0.05)
    return _explorer(
        [passes, x1, x2],
        lambda: _voting_view(snapshots, X, y, passes.value, (x1.value, x2.value)),
    )
