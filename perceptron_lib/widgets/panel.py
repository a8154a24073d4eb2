"""The frame every explorer shares: controls above a figure and a text panel.

Each explorer is a small ipywidgets layout whose drawing is done by a plain
function (``_gate_view``, ``_geometry_view``, ``_training_view``, ...) that
returns text and a matplotlib figure, so the logic is tested without a
browser. :func:`_explorer` lays the controls out and redraws on a change; the
figure is shown as a PNG image, which works in every Jupyter front end.
"""

from __future__ import annotations

import io
from collections.abc import Callable

import ipywidgets as ipw
from matplotlib.figure import Figure

FIGURE_WIDTH = "360px"


def _figure_png(fig: Figure) -> bytes:
    """Render a figure to PNG bytes and close it (explorers redraw from scratch)."""
    import matplotlib.pyplot as plt

    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=80, facecolor="white")
    plt.close(fig)
    return buffer.getvalue()


def _pre(text: str) -> str:
    """Wrap text for an HTML widget, keeping its columns aligned."""
    escaped = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return f"<pre style='font-size: 0.9em; line-height: 1.3'>{escaped}</pre>"


def _explorer(
    controls: list[ipw.Widget],
    render: Callable[[], tuple[str, Figure]],
    watched: list[ipw.Widget] | None = None,
) -> ipw.VBox:
    """Lay out controls above a figure and a text panel; redraw when a watched value changes."""
    text = ipw.HTML()
    image = ipw.Image(format="png", layout=ipw.Layout(width=FIGURE_WIDTH, max_width="100%"))

    def redraw(_change: object = None) -> None:
        table, fig = render()
        text.value = _pre(table)
        image.value = _figure_png(fig)

    for control in controls if watched is None else watched:
        control.observe(redraw, names="value")
    redraw()
    return ipw.VBox(
        [ipw.VBox(controls), ipw.HBox([image, text], layout=ipw.Layout(flex_flow="row wrap"))]
    )


def _slider(description: str, value: float, low: float, high: float, step: float):
    return ipw.FloatSlider(
        value=value,
        min=low,
        max=high,
        step=step,
        description=description,
        continuous_update=False,  # redraw when the slider is released, not at every pixel
        readout_format=".2f",
    )
