"""The gate explorer: a threshold unit ``w1 x1 + w2 x2 > theta`` against a gate (chapter 1)."""

from __future__ import annotations

import ipywidgets as ipw
import numpy as np
from matplotlib.figure import Figure

from ..figures.regions import GATE_INPUTS, GATE_NAMES, _gate_targets, plot_unit_truth_table
from .panel import _explorer, _slider

__all__ = ["gate_explorer"]


def _gate_view(w1: float, w2: float, theta: float, target: str) -> tuple[str, Figure]:
    """Return the truth table of the unit ``w1 x1 + w2 x2 > theta`` against a gate, and its plot.

    Parameters
    ----------
    w1, w2 : float
        The weights.
    theta : float
        The threshold; the bias is ``b = -theta``.
    target : {"AND", "OR", "NAND", "NOR", "XOR"}

    Returns
    -------
    table : str
        One row per input: the weighted sum, the unit's output, the gate's.
    fig : matplotlib Figure
        :func:`~perceptron_lib.figures.regions.plot_unit_truth_table` of the unit.

    Examples
    --------
    >>> table, fig = _gate_view(1.0, 1.0, 1.5, "AND")
    >>> print(table)
    x1  x2  w.x    unit  AND
     0   0   0.00     0    0
     0   1   1.00     0    0
     1   0   1.00     0    0
     1   1   2.00     1    1
    The unit computes AND.
    >>> import matplotlib.pyplot as plt
    >>> plt.close(fig)
    """
    w, b = np.array([w1, w2], dtype=float), -float(theta)
    name, wanted = _gate_targets(target)
    sums = GATE_INPUTS @ w
    fires = sums + b > 0  # the same test as plot_unit_truth_table draws
    lines = [f"x1  x2  w.x    unit  {name}"]
    for (x1, x2), total, out, want in zip(GATE_INPUTS, sums, fires, wanted, strict=True):
        lines.append(f"{x1:2.0f}  {x2:2.0f}  {total:5.2f}  {out:4d}  {want:3d}")
    right = int((fires == wanted).sum())
    lines.append(
        f"The unit computes {name}."
        if right == 4
        else f"{right} of 4 rows match {name}; the boxed inputs are wrong."
    )
    ax = plot_unit_truth_table(w, b, target=name)
    return "\n".join(lines), ax.figure


def gate_explorer() -> ipw.VBox:
    """An explorer: set the weights and threshold of a two-input unit to compute a gate.

    Sliders set ``w1``, ``w2`` and the threshold ``theta`` of the unit that
    fires when ``w1 x1 + w2 x2 > theta`` (bias ``b = -theta``); a menu picks
    the target gate. The truth table (unit against gate) and the picture of
    the four inputs and the line update as the sliders move.

    Returns
    -------
    ipywidgets.VBox

    Examples
    --------
    >>> explorer = gate_explorer()
    >>> sorted(w.description for w in explorer.children[0].children)
    ['gate', 'theta', 'w1', 'w2']
    """
    w1 = _slider("w1", 1.0, -3.0, 3.0, 0.1)
    w2 = _slider("w2", 1.0, -3.0, 3.0, 0.1)
    theta = _slider("theta", 1.5, -3.0, 3.0, 0.1)
    gate = ipw.Dropdown(
        options=[name.upper() for name in GATE_NAMES], value="AND", description="gate"
    )
    return _explorer(
        [w1, w2, theta, gate], lambda: _gate_view(w1.value, w2.value, theta.value, gate.value)
    )
