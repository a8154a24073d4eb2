"""The geometry explorer: a separator's boundary, margin and projections (chapter 2)."""

from __future__ import annotations

import ipywidgets as ipw
import numpy as np
from matplotlib.figure import Figure
from numpy.typing import ArrayLike

from ..data.datasets import three_points_example
from ..figures.drawing import _as_points, _positive_mask
from ..figures.geometry import plot_boundary, plot_data, plot_margin_band, plot_projections
from ..theory.geometry import margin
from .panel import _explorer, _slider

__all__ = ["geometry_explorer"]


def _geometry_view(
    angle: float, length: float, b: float, X: ArrayLike, y: ArrayLike
) -> tuple[str, Figure]:
    """Return a summary of ``w = length (cos angle, sin angle)`` and ``b`` on data, and its plot.

    Parameters
    ----------
    angle : float
        Direction of ``w`` in degrees.
    length : float
        ``||w||``, at least 0.
    b : float
    X : array-like of shape (n_samples, 2)
    y : array-like of shape (n_samples,)
        Labels 0/1 or -1/+1.

    Returns
    -------
    summary : str
        ``w``, its length, ``b``, the boundary's distance from the origin, each
        point's activation and signed distance (up to 10 points), and the margin.
    fig : matplotlib Figure
        The data, the half planes, the projections onto ``w`` and, if
        ``(w, b)`` separates the data, the margin band.

    Examples
    --------
    >>> X, y = [[1, 1], [0.5, 3], [2, 2]], [1, 1, -1]
    >>> summary, fig = _geometry_view(180.0, 1.0, 1.5, X, y)
    >>> print(summary.splitlines()[-1])
    margin = 0.500: (w, b) separates the data.
    >>> import matplotlib.pyplot as plt
    >>> plt.close(fig)
    """
    X = _as_points(X)
    signs = np.where(_positive_mask(y, X.shape[0]), 1, -1)
    if length < 0:
        raise ValueError(f"length is ||w|| and cannot be negative, got {length}.")
    radians = np.deg2rad(angle)
    w = length * np.array([np.cos(radians), np.sin(radians)])
    lines = [f"w = ({w[0]:.2f}, {w[1]:.2f}),  ||w|| = {length:.2f},  b = {b:.2f}"]
    ax = plot_data(X, signs)
    if length == 0:
        lines.append("w = 0: there is no boundary; every point gets activation b.")
        return "\n".join(lines), ax.figure
    lines.append(f"distance of the boundary from the origin |b|/||w|| = {abs(b) / length:.3f}")
    activations = X @ w + b
    if X.shape[0] <= 10:
        lines.append("")
        lines.append("point          y   w.x+b   distance")
        for (x1, x2), label, a in zip(X, signs, activations, strict=True):
            lines.append(f"({x1:5.2f},{x2:5.2f})  {label:+d}  {a:6.2f}   {a / length:7.3f}")
        lines.append("")
    gamma = margin(w, b, X, signs)
    plot_projections(w, X, ax=ax, b=b)
    if np.isfinite(gamma):
        plot_margin_band(w, b, X, signs, ax=ax)
        lines.append(f"margin = {gamma:.3f}: (w, b) separates the data.")
    else:
        wrong = int(np.sum(signs * activations <= 0))
        lines.append(
            f"margin = -inf: (w, b) does not separate the data "
            f"({wrong} point{'s' if wrong != 1 else ''} on the wrong side or on the boundary)."
        )
    # plot_projections has drawn w from the origin; one arrow is enough.
    plot_boundary(w, b, ax=ax, show_weight_vector=False)
    return "\n".join(lines), ax.figure


def geometry_explorer(X: ArrayLike | None = None, y: ArrayLike | None = None) -> ipw.VBox:
    """An explorer: rotate ``w``, change its length and move ``b``; watch boundary and margin.

    Shows the half planes, each point's projection onto the direction of
    ``w``, and the margin of ``(w, b)`` on the data (or that it does not
    separate them).

    Parameters
    ----------
    X : array-like of shape (n_samples, 2), optional
        The data; by default the three examples (1, 1, +), (0.5, 3, +), (2, 2, -).
    y : array-like of shape (n_samples,), optional
        Labels 0/1 or -1/+1; required when ``X`` is given.

    Returns
    -------
    ipywidgets.VBox

    Examples
    --------
    >>> explorer = geometry_explorer()
    >>> [w.description for w in explorer.children[0].children]
    ['angle of w', 'length ||w||', 'b']
    """
    if X is None and y is None:
        X, y = three_points_example()
    elif X is None or y is None:
        raise ValueError("Pass both X and y, or neither (for the default three examples).")
    X = _as_points(X)
    _positive_mask(y, X.shape[0])
    angle = ipw.FloatSlider(
        value=135.0,
        min=-180.0,
        max=180.0,
        step=5.0,
        description="angle of w",
        continuous_update=False,
        readout_format=".0f",
    )
    length = _slider("length ||w||", 1.0, 0.1, 3.0, 0.1)
    bias = _slider("b", 0.5, -4.0, 4.0, 0.1)
    return _explorer(
        [angle, length, bias], lambda: _geometry_view(angle.value, length.value, bias.value, X, y)
    )
