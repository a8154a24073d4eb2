"""Figures of the appendix: where a run's mistakes fall, speed-ups, parameter mixing.

Like :mod:`perceptron_lib.figures.curves`, every function draws on ``ax`` (a new figure
with an opaque white background when ``ax`` is None) and returns the Axes.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from matplotlib.axes import Axes
from numpy.typing import ArrayLike

from ..experiments.at_scale import amdahl_speedup, gaps_between_mistakes
from ..mixing import _check_signed_data, mix, mixing_weights, shard_bounds, train_shard_epoch
from .curves import CURVE_COLORS, _axes

__all__ = [
    "MIXING_STYLES",
    "SHARD_COLORS",
    "amdahl_prediction",
    "animate_mixing",
    "mixing_rounds",
    "plot_accuracy_grid",
    "plot_accuracy_per_round",
    "plot_amdahl",
    "plot_mistake_gaps",
    "plot_mistakes_per_epoch",
    "plot_speedup_against_mistakes",
]


def _positions(positions: Sequence[ArrayLike], n_examples: int) -> list[np.ndarray]:
    if not isinstance(n_examples, int | np.integer) or n_examples < 1:
        raise ValueError(f"n_examples must be a positive integer; got {n_examples!r}.")
    arrays = [np.asarray(p, dtype=np.int64) for p in positions]
    if not arrays:
        raise ValueError("positions is empty: give the mistakes of at least one epoch.")
    for p in arrays:
        if p.ndim != 1 or (p.size and (p.min() < 0 or p.max() >= n_examples)):
            raise ValueError(
                f"mistake positions must be 1-d indices below n_examples={n_examples}."
            )
    return arrays


def plot_mistakes_per_epoch(
    positions: Sequence[ArrayLike], n_examples: int, ax: Axes | None = None
) -> Axes:
    """Draw the fraction of each epoch's steps that were mistakes, on a log scale.

    Parameters
    ----------
    positions : sequence of 1-d integer arrays
        For each epoch, the steps that were mistakes
        (:func:`~perceptron_lib.experiments.at_scale.epoch_mistake_positions`).
    n_examples : int
        Steps per epoch.
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> ax = plot_mistakes_per_epoch([[0, 3], [5], []], 10)
    >>> ax.get_lines()[0].get_ydata().tolist()
    [0.2, 0.1]
    >>> plt.close("all")
    """
    arrays = _positions(positions, n_examples)
    ax = _axes(ax)
    counts = np.array([p.size for p in arrays], dtype=float)
    with_mistakes = counts > 0  # a log scale has no place for the final clean epoch
    epochs = np.arange(1, counts.size + 1)
    ax.plot(
        epochs[with_mistakes],
        counts[with_mistakes] / n_examples,
        marker="o",
        markersize=3,
        color=CURVE_COLORS[0],
    )
    ax.set_yscale("log")
    ax.set_xlabel("epoch")
    ax.set_ylabel("fraction of steps that are mistakes")
    ax.grid(True, which="major", alpha=0.3)
    return ax


def plot_mistake_gaps(
    positions: Sequence[ArrayLike], n_examples: int, ax: Axes | None = None
) -> Axes:
    """Draw, per epoch, the median and the longest mistake-free stretch, on a log scale.

    The stretches are those of :func:`~perceptron_lib.experiments.at_scale.gaps_between_mistakes`:
    before the first mistake, between two, and after the last. An epoch without
    mistakes is one stretch of ``n_examples`` steps.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> ax = plot_mistake_gaps([[0, 3], [5]], 10)
    >>> [line.get_ydata().tolist() for line in ax.get_lines()]
    [[2.0, 4.5], [6.0, 5.0]]
    >>> plt.close("all")
    """
    arrays = _positions(positions, n_examples)
    ax = _axes(ax)
    medians, longest = [], []
    for p in arrays:
        flags = np.zeros(n_examples, dtype=bool)
        flags[p] = True
        gaps = gaps_between_mistakes(flags)
        medians.append(float(np.median(gaps)))
        longest.append(float(gaps.max()))
    epochs = np.arange(1, len(arrays) + 1)
    ax.plot(epochs, medians, marker="o", markersize=3, color=CURVE_COLORS[0], label="median")
    ax.plot(
        epochs, longest, marker="s", markersize=3, color=CURVE_COLORS[1], linestyle="--",
        label="longest",
    )  # fmt: skip
    ax.set_yscale("log")
    ax.set_xlabel("epoch")
    ax.set_ylabel("mistake-free stretch (examples)")
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(frameon=False)
    return ax


def plot_amdahl(
    parallel_fractions: ArrayLike,
    workers: Sequence[int] = (2, 4, 16, 64),
    ax: Axes | None = None,
) -> Axes:
    """Draw Amdahl's speed-up against the parallel fraction, one curve per worker count.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> ax = plot_amdahl([0.0, 0.5, 1.0], workers=(2,))
    >>> ax.get_lines()[0].get_ydata().round(3).tolist()
    [1.0, 1.333, 2.0]
    >>> plt.close("all")
    """
    p = np.asarray(parallel_fractions, dtype=float)
    ax = _axes(ax)
    styles = ("-", "--", "-.", ":")
    for k, n in enumerate(workers):
        ax.plot(
            p,
            amdahl_speedup(p, n),
            color=CURVE_COLORS[k % len(CURVE_COLORS)],
            linestyle=styles[k % len(styles)],
            label=f"{n} workers",
        )
    ax.set_yscale("log", base=2)
    ax.set_xlabel("parallel fraction p of the one-worker time")
    ax.set_ylabel("speed-up")
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(frameon=False)
    return ax


# The methods of perceptron_lib.experiments.mixing.accuracy_per_round, in the
# order of the legend, each with its colour and line style.
MIXING_STYLES = {
    "serial": (CURVE_COLORS[0], "-"),
    "IPM uniform": (CURVE_COLORS[1], "--"),
    "IPM weighted": (CURVE_COLORS[2], "-."),
    "single-shot": (CURVE_COLORS[3], ":"),
}


def plot_accuracy_per_round(table, n_shards: int, ax: Axes | None = None) -> Axes:
    """Draw test accuracy against the round for every method, at one number of shards.

    Parameters
    ----------
    table : pandas.DataFrame
        From :func:`perceptron_lib.experiments.mixing.accuracy_per_round`.
    n_shards : int
        Which number of shards to draw (a value of ``table["n_shards"]``).
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> import pandas as pd
    >>> table = pd.DataFrame({"method": ["serial", "serial"], "n_shards": [2, 2],
    ...                       "round": [1, 2], "accuracy": [0.9, 1.0]})
    >>> ax = plot_accuracy_per_round(table, 2)
    >>> ax.get_lines()[0].get_ydata().tolist()
    [0.9, 1.0]
    >>> plt.close("all")
    """
    rows = table[table["n_shards"] == n_shards]
    if rows.empty:
        raise ValueError(
            f"no rows with n_shards={n_shards}; the table has "
            f"{sorted(table['n_shards'].unique().tolist())}."
        )
    ax = _axes(ax)
    for method, (color, style) in MIXING_STYLES.items():
        part = rows[rows["method"] == method].sort_values("round")
        if not part.empty:
            ax.plot(part["round"], part["accuracy"], color=color, linestyle=style, label=method)
    ax.set_xlabel("round (epochs per shard)")
    ax.set_ylabel("test accuracy")
    ax.set_title(f"{n_shards} shard{'s' if n_shards > 1 else ''}", fontsize="medium")
    ax.grid(True, alpha=0.3)
    return ax


def amdahl_prediction(result: dict) -> np.ndarray:
    """Amdahl's law applied to a speculation measurement, from its counts alone.

    ``result`` is :func:`perceptron_lib.experiments.speculation.speedup_against_mistake_fraction`.
    The shared part ``p`` is the fraction of examples scored inside a block and
    used (``speculated - wasted``); its speed-up ``F`` (chapter 8's letter) is the
    one measured on the mistake-free epoch (the first fraction must be 0). The
    result is an estimate, not a bound: wasted activations and the cost of
    starting blocks are not in the law, which pushes the measured speed-up
    below it, but every measured speed-up (``F`` included) is a ratio of timings
    that vary from run to run, so a row can also measure above it.

    ``F`` is a measured ratio of times, not a number of workers: on a busy
    machine speculation can be slower than the plain loop even without
    mistakes (``F < 1``). The law ``1 / ((1 - p) + p / F)`` still says what that
    part of the epoch costs, so it is applied as it stands; ``F`` must be positive.

    Examples
    --------
    >>> result = {"mistake_fraction": np.array([0.0, 0.5]), "speedup": np.array([2.0, 1.2]),
    ...           "speculated": np.array([100, 60]), "wasted": np.array([0, 10])}
    >>> amdahl_prediction(result).round(3).tolist()
    [2.0, 1.333]
    """
    fractions = np.asarray(result["mistake_fraction"], dtype=float)
    if fractions.size == 0 or fractions[0] != 0.0:
        raise ValueError("the first measurement must be the mistake-free epoch (fraction 0).")
    shared_speedup = float(result["speedup"][0])
    if not np.isfinite(shared_speedup) or shared_speedup <= 0:
        raise ValueError(f"the mistake-free speed-up must be positive; got {shared_speedup}.")
    n_samples = np.asarray(result["speculated"], dtype=float)[0]
    used = np.clip(
        (np.asarray(result["speculated"]) - np.asarray(result["wasted"])) / n_samples, 0.0, 1.0
    )
    # Not amdahl_speedup(used, shared_speedup): that function counts workers (>= 1),
    # and a measured ratio below 1 is a slow-down the law handles all the same.
    return 1.0 / ((1.0 - used) + used / shared_speedup)


def plot_speedup_against_mistakes(result: dict, ax: Axes | None = None) -> Axes:
    """Draw the measured speed-up of speculative epochs and Amdahl's prediction.

    Parameters
    ----------
    result : dict
        From :func:`perceptron_lib.experiments.speculation.speedup_against_mistake_fraction`,
        starting with a mistake-free epoch.
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> result = {"mistake_fraction": np.array([0.0, 0.5]), "speedup": np.array([2.0, 1.2]),
    ...           "speculated": np.array([100, 60]), "wasted": np.array([0, 10])}
    >>> ax = plot_speedup_against_mistakes(result)
    >>> [line.get_label() for line in ax.get_lines()]
    ['measured', "Amdahl's law from the counts", 'no speed-up']
    >>> plt.close("all")
    """
    ax = _axes(ax)
    percent = 100 * np.asarray(result["mistake_fraction"], dtype=float)
    ax.plot(percent, result["speedup"], marker="o", color=CURVE_COLORS[0], label="measured")
    ax.plot(
        percent,
        amdahl_prediction(result),
        marker="s",
        linestyle="--",
        color=CURVE_COLORS[1],
        label="Amdahl's law from the counts",
    )
    ax.axhline(1.0, color="0.4", linewidth=0.8, linestyle=":", label="no speed-up")
    ax.set_xscale("symlog", linthresh=0.1)
    ax.set_xlim(left=0.0)  # no negative fractions: no tick for them
    ax.set_xlabel("mistakes in the epoch (% of examples)")
    ax.set_ylabel("speed-up over the plain loop")
    ax.grid(True, alpha=0.3)
    ax.legend(frameon=False)
    return ax


# Okabe-Ito colours not used for the two classes: one per shard.
SHARD_COLORS = ("#009E73", "#CC79A7", "#E69F00", "#56B4E9")


def mixing_rounds(X: ArrayLike, y: ArrayLike, n_shards: int, *, mixing: str = "uniform",
                  max_rounds: int = 30) -> list[dict]:  # fmt: skip
    """Replay iterative parameter mixing round by round, keeping every shard's weights.

    The same rounds as :func:`perceptron_lib.distributed.iterative_parameter_mixing`
    (whose result records only the mixed weights), for drawing. Stops after the
    first round without a mistake, which is kept.

    Returns
    -------
    list of dict
        Per round: ``"shards"``, a list of ``(w, b)``, one per shard;
        ``"mixed"``, the mixed ``(w, b)``; ``"mistakes"``, the mistakes per shard.

    Examples
    --------
    >>> rounds = mixing_rounds([[2.0, 0.0], [1.0, 1.0], [-1.0, 0.0], [-2.0, 1.0]],
    ...                        [1, 1, -1, -1], n_shards=2)
    >>> [r["mistakes"] for r in rounds]
    [[1, 1], [0, 0]]
    """

    X, y = _check_signed_data(X, y)
    w, b = np.zeros(X.shape[1]), 0.0
    rounds = []
    for _ in range(max_rounds):
        shards = [
            train_shard_epoch(X[start:stop], y[start:stop], w, b, 1.0, True)
            for start, stop in shard_bounds(len(X), n_shards)
        ]
        mistakes = [k for _, _, k in shards]
        w, b = mix(
            [s[0] for s in shards], [s[1] for s in shards], mixing_weights(mistakes, mixing)
        )
        rounds.append({"shards": [(s[0], s[1]) for s in shards], "mixed": (w, b),
                       "mistakes": mistakes})  # fmt: skip
        if sum(mistakes) == 0:
            break
    return rounds


def animate_mixing(
    X: ArrayLike,
    y: ArrayLike,
    n_shards: int,
    *,
    mixing: str = "uniform",
    max_rounds: int = 30,
    figsize: tuple[float, float] = (4.8, 4.8),
    dpi: int = 80,
):
    """Animate iterative parameter mixing in the plane: one frame per round.

    Each point is ringed in its shard's colour. A frame draws, for that round,
    the boundary each shard ended its epoch on (thin, in the shard's colour)
    and the mixed boundary (black, with the positive side shaded) that every
    shard starts the next round from. Render it with
    :func:`perceptron_lib.figures.animation.animation_html`.

    Examples
    --------
    >>> from perceptron_lib.figures.animation import animation_html
    >>> X, y = [[2.0, 0.0], [1.0, 1.0], [-1.0, 0.0], [-2.0, 1.0]], [1, 1, -1, -1]
    >>> animation_html(animate_mixing(X, y, 2)).count("data:image/png;base64")
    2
    """
    import matplotlib.pyplot as plt
    from matplotlib.animation import FuncAnimation
    from matplotlib.lines import Line2D

    from .geometry import plot_boundary, plot_data

    if not 1 <= n_shards <= len(SHARD_COLORS):
        raise ValueError(f"n_shards must be from 1 to {len(SHARD_COLORS)} to be drawn.")
    X = np.asarray(X, dtype=np.float64)
    if X.ndim != 2 or X.shape[1] != 2:
        raise ValueError(f"X must have two features to be drawn; got shape {X.shape}.")
    rounds = mixing_rounds(X, y, n_shards, mixing=mixing, max_rounds=max_rounds)
    fig, ax = plt.subplots(figsize=figsize, dpi=dpi, facecolor="white", layout="constrained")
    plot_data(X, y, ax=ax)
    for k, (start, stop) in enumerate(shard_bounds(len(X), n_shards)):
        ax.scatter(*X[start:stop].T, s=110, facecolors="none", edgecolors=SHARD_COLORS[k],
                   linewidths=1.2)  # fmt: skip
    handles = [Line2D([], [], color=SHARD_COLORS[k], label=f"shard {k + 1}")
               for k in range(n_shards)]  # fmt: skip
    handles.append(Line2D([], [], color="black", linewidth=2, label="mixed"))
    ax.legend(handles=handles, loc="lower left", fontsize="small", framealpha=0.9)
    fig.canvas.draw()
    fig.set_layout_engine("none")  # lay out once; per-frame layout is slow
    drawn: list = []

    def draw(frame: int) -> list:
        for artist in drawn:
            artist.remove()
        before = set(ax.get_children())
        record = rounds[frame]
        for k, (w, b) in enumerate(record["shards"]):
            if np.any(w):  # the zero vector has no boundary
                plot_boundary(w, b, ax=ax, shade=False, show_weight_vector=False,
                              color=SHARD_COLORS[k])  # fmt: skip
        w, b = record["mixed"]
        if np.any(w):
            plot_boundary(w, b, ax=ax, color="black")
        ax.set_title(f"round {frame + 1}: mistakes per shard {record['mistakes']}",
                     fontsize="small")  # fmt: skip
        drawn[:] = [artist for artist in ax.get_children() if artist not in before]
        return drawn

    return FuncAnimation(fig, draw, frames=len(rounds), interval=900, repeat=False)


def plot_accuracy_grid(tables: dict, shard_counts: Sequence[int], axes=None):
    """:func:`plot_accuracy_per_round` for every task (columns) and number of shards (rows).

    At most two tasks side by side, so that a phone shows the grid legibly;
    axis labels on the outer panels only, one legend under the grid.

    Parameters
    ----------
    tables : dict of str to pandas.DataFrame
        Task name to its table from
        :func:`perceptron_lib.experiments.mixing.accuracy_per_round`; one or two.
    shard_counts : sequence of int
        The numbers of shards to draw, one row each.
    axes : 2-d array of matplotlib Axes, optional
        Of shape ``(len(shard_counts), len(tables))``; a new figure if omitted.

    Returns
    -------
    numpy.ndarray of matplotlib Axes, shape (len(shard_counts), len(tables))

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> import pandas as pd
    >>> table = pd.DataFrame({"method": ["serial"] * 4, "n_shards": [2, 2, 4, 4],
    ...                       "round": [1, 2, 1, 2], "accuracy": [0.9, 1.0, 0.8, 0.9]})
    >>> axes = plot_accuracy_grid({"a task": table}, (2, 4))
    >>> axes.shape, axes[1, 0].get_title()
    ((2, 1), 'a task, 4 shards')
    >>> plt.close("all")
    """
    import matplotlib.pyplot as plt

    shard_counts = list(shard_counts)
    if not 1 <= len(tables) <= 2:
        raise ValueError(f"tables must hold one or two tasks (columns); got {len(tables)}.")
    if not shard_counts:
        raise ValueError("shard_counts is empty: there is nothing to draw.")
    shape = (len(shard_counts), len(tables))
    if axes is None:
        _, axes = plt.subplots(
            *shape,
            figsize=(2.3 * len(tables), 0.9 + 2.6 * len(shard_counts)),
            sharey="col",
            facecolor="white",
            layout="constrained",
            squeeze=False,
        )
    axes = np.asarray(axes, dtype=object).reshape(shape)
    for column, (kind, table) in zip(axes.T, tables.items(), strict=True):
        for ax, n_shards in zip(column, shard_counts, strict=True):
            plot_accuracy_per_round(table, n_shards, ax=ax)
            ax.set_title(f"{kind}, {n_shards} shards", fontsize="medium")
    for ax in axes[:-1].flat:
        ax.set_xlabel("")
    for ax in axes[:, 1:].flat:
        ax.set_ylabel("")
    handles, labels = axes[0, 0].get_legend_handles_labels()
    axes[0, 0].figure.legend(handles, labels, loc="outside lower center", ncol=2, fontsize="small")
    return axes
