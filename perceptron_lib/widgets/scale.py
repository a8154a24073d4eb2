"""The appendix's explorer: parameter mixing for a chosen data set and number of shards.

Like every explorer of :mod:`perceptron_lib.widgets`, the drawing is a plain function
(:func:`_mixing_view`) that returns text and a figure, so it is tested without
a browser. The static page shows small multiples of the same figure instead.
This module imports ipywidgets (and, through the experiments, Dask's
distributed package): ``from perceptron_lib.widgets.scale import mixing_explorer``.
"""

from __future__ import annotations

import ipywidgets as ipw
from matplotlib.figure import Figure

from ..experiments.mixing import accuracy_per_round, mixing_data
from ..figures.scale import plot_accuracy_per_round
from .panel import _explorer

DATA_KINDS = ("separable", "noisy")


def _mixing_view(kind: str, n_shards: int, max_rounds: int = 20) -> tuple[str, Figure]:
    """Accuracy per round of every method for ``kind`` data cut into ``n_shards`` shards."""
    if kind not in DATA_KINDS:
        raise ValueError(f"kind must be one of {DATA_KINDS}; got {kind!r}.")
    table = accuracy_per_round(mixing_data(kind), shard_counts=(n_shards,), max_rounds=max_rounds)
    # A Figure outside pyplot: the explorer shows it as an image, the notebook never does.
    fig = Figure(figsize=(6.0, 3.6), facecolor="white", layout="constrained")
    ax = plot_accuracy_per_round(table, n_shards, ax=fig.subplots())
    ax.legend(frameon=False, fontsize="small")
    last = table[table["round"] == max_rounds].set_index("method")["accuracy"]
    lines = [f"test accuracy after {max_rounds} rounds, {n_shards} shard(s):"]
    lines += [f"  {method:<13} {accuracy:.3f}" for method, accuracy in last.items()]
    return "\n".join(lines), fig


def mixing_explorer() -> ipw.VBox:
    """A data set menu and a shard slider: accuracy per round of every mixing method."""
    kind = ipw.Dropdown(options=DATA_KINDS, value="separable", description="data")
    n_shards = ipw.IntSlider(value=4, min=1, max=16, description="shards", continuous_update=False)
    return _explorer([kind, n_shards], lambda: _mixing_view(kind.value, n_shards.value))
