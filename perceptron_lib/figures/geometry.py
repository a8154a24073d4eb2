"""Figures of a linear classifier's geometry: data, a boundary, the margin band, projections.

Every function draws on ``ax`` (a new figure when ``ax`` is None) and returns
the Axes, so plots compose like those of seaborn and scikit-learn's displays::

    ax = plot_data(X, y)
    plot_boundary(model.coef_, model.intercept_, ax=ax)

The conventions every figure follows are listed in :mod:`perceptron_lib.figures`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from matplotlib.axes import Axes
from matplotlib.collections import LineCollection
from matplotlib.patches import Polygon
from numpy.typing import ArrayLike, NDArray

from ..theory.geometry import margin
from .drawing import (
    LEGEND_STYLE,
    NEGATIVE_STYLE,
    POSITIVE_STYLE,
    POSITIVE_TINT,
    _as_points,
    _as_scalar,
    _as_vector,
    _clip_half_plane,
    _draw_arrow,
    _ensure_view,
    _get_axes,
    _line_in_view,
    _nonzero_norm,
    _positive_mask,
    _ring,
    _room_along,
    _show_points,
    _style_plane,
    _view,
    _view_corners,
)

__all__ = ["plot_boundary", "plot_data", "plot_margin_band", "plot_projections"]


def plot_data(
    X: ArrayLike,
    y: ArrayLike,
    ax: Axes | None = None,
    *,
    labels: tuple[str, str] = ("negative", "positive"),
    highlight: int | Sequence[int] | None = None,
) -> Axes:
    """Draw two-dimensional labelled points, one marker and colour per class.

    Parameters
    ----------
    X : array-like of shape (n_samples, 2)
    y : array-like of shape (n_samples,)
        Labels 0/1 or -1/+1; 1 is the positive class.
    ax : matplotlib Axes, optional
        Where to draw; a new 4.5 x 4.5 inch figure if None.
    labels : (str, str), default ("negative", "positive")
        Legend entries of the negative and the positive class.
    highlight : int or sequence of int, optional
        Indices of points to circle (for example the example being processed).

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> ax = plot_data([[1, 1], [0.5, 3], [2, 2]], [1, 1, -1])
    >>> ax.get_xlabel(), len(ax.collections)
    ('$x_1$', 2)
    >>> plt.close("all")
    """
    X = _as_points(X)
    positive = _positive_mask(y, X.shape[0])
    if len(labels) != 2:
        raise ValueError(f"labels must be two strings (negative, positive), got {labels!r}.")
    ax = _get_axes(ax)
    classes = ((~positive, NEGATIVE_STYLE, labels[0]), (positive, POSITIVE_STYLE, labels[1]))
    for mask, style, label in classes:
        if mask.any():
            ax.scatter(X[mask, 0], X[mask, 1], s=45, label=label, zorder=3, **style)
    if highlight is not None:
        indices = np.atleast_1d(np.asarray(highlight))
        if indices.dtype.kind not in "iu" or np.any((indices < 0) | (indices >= X.shape[0])):
            raise ValueError(
                f"highlight must hold indices of points in 0..{X.shape[0] - 1}, got {highlight!r}."
            )
        _ring(ax, X[indices], linewidths=1.8)
    _show_points(ax, X)
    ax.legend(**LEGEND_STYLE)
    return ax


def plot_boundary(
    w: ArrayLike,
    b: float,
    ax: Axes | None = None,
    *,
    shade: bool = True,
    show_weight_vector: bool = True,
    label: str | None = None,
    color: str | None = None,
) -> Axes:
    """Draw the decision boundary ``w . x + b = 0`` of a linear classifier in the plane.

    The line is clipped to the current axes limits (draw the data first, so
    that the limits are those of the data), the positive half plane
    ``w . x + b > 0`` is shaded (the line itself, where the activation is 0,
    is predicted -1 by the course's convention: it is drawn, not shaded), and
    ``w`` is drawn as an arrow from the point of the boundary nearest the
    origin (or from the middle of the visible part of the boundary when that
    point is out of view). The arrow
    shows the direction of ``w``, not its length: its length is a quarter of
    the view, because scaling ``w`` does not move the boundary.

    Parameters
    ----------
    w : array-like of shape (2,)
        The weights; the zero vector has no boundary and raises ValueError.
    b : float
        The bias.
    ax : matplotlib Axes, optional
        Where to draw; a new figure with a square view around the origin if None.
    shade : bool, default True
        Shade the positive half plane.
    show_weight_vector : bool, default True
        Draw the direction of ``w`` as an arrow.
    label : str, optional
        Legend entry of the line.
    color : str, optional
        Colour of the line and arrow (black by default).

    Returns
    -------
    matplotlib Axes

    Raises
    ------
    ValueError
        If ``w`` is the zero vector, or ``w`` or ``b`` is not finite.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> ax = plot_data([[1, 1], [0.5, 3], [2, 2]], [1, 1, -1])
    >>> ax = plot_boundary([-1, 1], -0.5, ax=ax, label="boundary")
    >>> line = ax.get_lines()[0]
    >>> x1, x2 = line.get_data()
    >>> bool(np.allclose(-x1 + x2 - 0.5, 0))  # both end points are on the line
    True
    >>> plt.close("all")
    """
    w = _as_vector(w)
    b = _as_scalar(b)
    norm = _nonzero_norm(w, "plot_boundary")
    ax = _get_axes(ax)
    _ensure_view(ax, w, b)
    xlim, ylim = _view(ax)
    color = "black" if color is None else color
    if shade:
        region = _clip_half_plane(_view_corners(ax), w, b)
        if len(region) >= 3:
            ax.add_patch(
                Polygon(region, closed=True, facecolor=POSITIVE_TINT, edgecolor="none", zorder=0)
            )
    segment = _line_in_view(w, b, xlim, ylim)
    if segment is not None:
        ax.plot(segment[:, 0], segment[:, 1], color=color, linewidth=2, label=label, zorder=2)
    if show_weight_vector and segment is not None:
        start = -b * w / norm**2
        if not (xlim[0] <= start[0] <= xlim[1] and ylim[0] <= start[1] <= ylim[1]):
            start = segment.mean(axis=0)
        # A quarter of the view, shortened if the frame is nearer: the arrow stays inside.
        room = _room_along(start, w / norm, xlim, ylim)
        length = min(0.25 * min(np.ptp(xlim), np.ptp(ylim)), 0.9 * room)
        _draw_arrow(ax, start, length * w / norm, color=color, label=r"$\mathbf{w}$")
    # Drawing must not move the view: the data region stays what it was.
    ax.set_xlim(xlim)
    ax.set_ylim(ylim)
    _style_plane(ax)
    if label is not None and segment is not None:
        ax.legend(**LEGEND_STYLE)
    return ax


def _class_signs(y: ArrayLike, n_samples: int) -> NDArray[np.float64]:
    return np.where(_positive_mask(y, n_samples), 1.0, -1.0)


def plot_margin_band(
    w: ArrayLike, b: float, X: ArrayLike, y: ArrayLike, ax: Axes | None = None
) -> Axes:
    """Draw the margin of ``(w, b)`` on a data set: the empty band around the boundary.

    The margin ``gamma = min_i y_i (w . x_i + b) / ||w||`` is the distance from
    the boundary to the nearest point on the correct side. The band of width
    ``2 gamma`` centred on the boundary holds no point; the points on its
    edges (those achieving the margin) are circled. If the axes hold no data
    yet, the data are drawn first.

    Parameters
    ----------
    w : array-like of shape (2,)
    b : float
    X : array-like of shape (n_samples, 2)
    y : array-like of shape (n_samples,)
        Labels 0/1 or -1/+1.
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib Axes

    Raises
    ------
    ValueError
        If ``(w, b)`` does not separate the data (margin not positive), or ``w`` is zero.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> X, y = [[1, 1], [0.5, 3], [2, 2]], [1, 1, -1]
    >>> ax = plot_margin_band([-1, 0], 1.5, X, y)  # the line x1 = 1.5
    >>> print(ax.get_legend().get_texts()[-2].get_text())
    margin band, $\\gamma$ = 0.5
    >>> plt.close("all")
    """
    w = _as_vector(w)
    b = _as_scalar(b)
    X = _as_points(X)
    signs = _class_signs(y, X.shape[0])
    norm = _nonzero_norm(w, "plot_margin_band")
    gamma = float(margin(w, b, X, signs))
    if not gamma > 0:
        raise ValueError(
            f"(w, b) does not separate the data (its margin is {gamma}): some point is on the "
            "wrong side of the boundary or on it, so there is no empty band to draw."
        )
    ax = _get_axes(ax)
    if ax.has_data():
        _show_points(ax, X)
    else:
        plot_data(X, y, ax=ax)
    xlim, ylim = _view(ax)
    offset = gamma * norm  # |w . x + b| = offset on the edges of the band
    band = _clip_half_plane(_clip_half_plane(_view_corners(ax), w, b + offset), -w, offset - b)
    if len(band) >= 3:
        ax.add_patch(
            Polygon(
                band,
                closed=True,
                facecolor="0.85",
                edgecolor="none",
                zorder=1,
                label=rf"margin band, $\gamma$ = {gamma:.3g}",
            )
        )
    for shift in (offset, -offset):
        edge = _line_in_view(w, b + shift, xlim, ylim)
        if edge is not None:
            ax.plot(edge[:, 0], edge[:, 1], color="0.35", linewidth=1, linestyle="--", zorder=2)
    plot_boundary(w, b, ax=ax, shade=False, show_weight_vector=False)
    distances = signs * (X @ w + b) / norm
    closest = distances <= gamma * (1 + 1e-9)
    _ring(ax, X[closest], label="closest points")
    ax.set_xlim(xlim)
    ax.set_ylim(ylim)
    ax.legend(**LEGEND_STYLE)
    return ax


def plot_projections(
    w: ArrayLike,
    X: ArrayLike,
    ax: Axes | None = None,
    *,
    b: float | None = None,
    name: str = "w",
) -> Axes:
    """Draw each point's projection onto the direction of ``w``, and ``w`` to scale.

    The projection of ``x`` is the point ``(w . x / ||w||) u`` on the line
    through the origin along ``u = w / ||w||``; its signed length
    ``w . x / ||w||`` is what a linear classifier compares with
    ``-b / ||w||``, the signed distance from the origin at which the boundary
    crosses that line. ``w`` is drawn as an arrow from the origin at its true
    length (equal aspect), labelled ``name``. If a bias ``b`` is given, the
    crossing is marked: points whose projection lands beyond the mark (on the
    side ``w`` points to) have a positive activation and are predicted +1; a
    projection exactly on the mark has activation 0 and is predicted -1. If the
    axes hold no data yet, the points are drawn in grey.

    Parameters
    ----------
    w : array-like of shape (2,), not zero
    X : array-like of shape (n_samples, 2)
    ax : matplotlib Axes, optional
    b : float, optional
        The bias of a classifier with weights ``w``; if given, the place where
        its boundary crosses the line along ``w`` is marked. Without it only
        the projections are drawn (a dot product needs no boundary).
    name : str, default "w"
        The vector's name, drawn in bold maths at the arrow's tip (``"u"`` for
        the projection of ``v`` on ``u``).

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    The source's example: u = (0.8, 0.6) and v = (0.37, 0.73) projects to length 0.734.

    >>> import matplotlib.pyplot as plt
    >>> ax = plot_projections([0.8, 0.6], [[0.37, 0.73]], name="u")
    >>> feet = next(c for c in ax.collections if c.get_label() == "projections")
    >>> np.round(np.asarray(feet.get_offsets()), 4).tolist()
    [[0.5872, 0.4404]]
    >>> plt.close("all")
    """
    w = _as_vector(w)
    X = _as_points(X)
    if b is not None:
        b = _as_scalar(b)
    if not isinstance(name, str) or not name:
        raise TypeError(f"name must be a non-empty string, got {name!r}.")
    norm = _nonzero_norm(w, "plot_projections")
    unit = w / norm
    lengths = X @ unit
    feet = lengths[:, None] * unit
    ax = _get_axes(ax)
    if not ax.has_data():
        ax.scatter(X[:, 0], X[:, 1], s=35, color="0.3", zorder=3, label="points")
    shown = [X, feet, [[0.0, 0.0]], w[None, :]]  # w is drawn to scale from the origin
    if b is not None:
        crossing = -b / norm * unit
        shown.append(crossing[None, :])
    _show_points(ax, np.vstack(shown))
    xlim, ylim = _view(ax)
    # The line along w through the origin is the line whose normal is w turned by 90 degrees.
    axis_line = _line_in_view([-unit[1], unit[0]], 0.0, xlim, ylim)
    if axis_line is not None:
        ax.plot(axis_line[:, 0], axis_line[:, 1], color="0.4", linewidth=1, linestyle=":")
    ax.add_collection(
        LineCollection(
            np.stack([X, feet], axis=1), colors="0.45", linewidths=1, linestyles="--", zorder=2
        ),
        autolim=False,
    )
    ax.scatter(feet[:, 0], feet[:, 1], s=22, color="black", zorder=4, label="projections")
    if b is not None:
        ax.scatter(
            [crossing[0]],
            [crossing[1]],
            s=70,
            marker="D",
            facecolors="white",
            edgecolors="black",
            zorder=4,
            label=r"boundary crosses, at $-b/\|\mathbf{" + name + r"}\|$",
        )
    _draw_arrow(ax, [0.0, 0.0], w, color="black", label=r"$\mathbf{" + name + "}$")
    ax.set_xlim(xlim)
    ax.set_ylim(ylim)
    _style_plane(ax)
    ax.legend(**LEGEND_STYLE)
    return ax
