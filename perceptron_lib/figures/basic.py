"""Figures for the course: data, boundaries, margins, projections, updates.

Every function draws on ``ax`` (a new figure when ``ax`` is None) and returns
the Axes, so plots compose like those of seaborn and scikit-learn's displays::

    ax = plot_data(X, y)
    plot_boundary(model.coef_, model.intercept_, ax=ax)

Conventions that hold for every figure:

- the figure background is opaque white, so the figure reads on light and
  dark page themes;
- the two classes differ in colour (blue and vermilion, a colour-blind-safe
  pair from Okabe and Ito's palette) *and* in marker (circle and filled plus);
- labels are ``0/1`` or ``-1/+1``; the positive class is label 1;
- two-dimensional geometry uses equal aspect, so that ``w`` really looks
  perpendicular to the boundary, and lines are clipped to the axes limits.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from matplotlib.axes import Axes
from matplotlib.collections import LineCollection
from matplotlib.colors import ListedColormap
from matplotlib.patches import Polygon
from numpy.typing import ArrayLike, NDArray

from ..data.datasets import logic_gate
from ..theory.geometry import margin
from .drawing import (
    LEGEND_STYLE,
    NEGATIVE_STYLE,
    NEGATIVE_TINT,
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
    _room_along,
    _show_points,
    _style_plane,
    _view,
    _view_corners,
)

# The two-input gates that plot_unit_truth_table compares a unit with; their
# truth tables come from perceptron_lib.data.datasets.logic_gate, rows (0,0), (0,1), (1,0), (1,1).
GATE_NAMES = ("and", "or", "nand", "nor", "xor")
GATE_INPUTS = logic_gate("and")[0]


# -- the plotting functions -------------------------------------------------


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
        ax.scatter(
            X[indices, 0],
            X[indices, 1],
            s=260,
            facecolors="none",
            edgecolors="black",
            linewidths=1.8,
            zorder=5,
        )
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
    ax.scatter(
        X[closest, 0],
        X[closest, 1],
        s=260,
        facecolors="none",
        edgecolors="black",
        linewidths=1.5,
        zorder=5,
        label="closest points",
    )
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


def plot_update(
    x: ArrayLike,
    y: float,
    w_before: ArrayLike,
    b_before: float,
    w_after: ArrayLike,
    b_after: float,
    ax: Axes | None = None,
) -> Axes:
    """Draw one perceptron update: the boundary before and after, and ``w + y x``.

    The weight vectors are drawn from the origin at their true length, with
    the step ``w_after - w_before`` (``y x``, times the learning rate) drawn
    from the tip of ``w_before``, so the picture is the vector sum of the
    update rule. The old boundary is dashed and grey, the new one solid with
    its positive side shaded. A zero weight vector has no boundary; that is
    said in a note instead (it happens at the first update from zero).

    Parameters
    ----------
    x : array-like of shape (2,)
        The misclassified example.
    y : {-1, +1}
        Its label.
    w_before, b_before : array-like of shape (2,), float
        The weights and bias before the update.
    w_after, b_after : array-like of shape (2,), float
        The weights and bias after it.
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib Axes

    Raises
    ------
    ValueError
        If ``y`` is not -1 or +1, or ``w_after - w_before`` is not a non-negative
        multiple of ``y x`` (then it is not a perceptron update).

    Examples
    --------
    The second update of the lecture notes' example: ``(1, 3) - (2, 3) = (-1, 0)``.

    >>> import matplotlib.pyplot as plt
    >>> ax = plot_update([2, 3], -1, [1, 3], 0, [-1, 0], 0)
    >>> arrows = [c for c in ax.collections if c.get_label().startswith("step")]
    >>> float(arrows[0].U[0]), float(arrows[0].V[0])
    (-2.0, -3.0)
    >>> plt.close("all")
    """
    x = _as_vector(x, "x")
    w_before, w_after = _as_vector(w_before, "w_before"), _as_vector(w_after, "w_after")
    b_before, b_after = _as_scalar(b_before, "b_before"), _as_scalar(b_after, "b_after")
    if y not in (-1, 1):
        raise ValueError(f"y must be the label -1 or +1 of the example, got {y!r}.")
    step = w_after - w_before
    direction = y * x
    # A perceptron update adds eta * y * x with eta > 0: parallel to y x, same sense.
    scale = max(float(np.abs(step).max()), float(np.abs(direction).max()), 1.0)
    parallel = abs(step[0] * direction[1] - step[1] * direction[0]) <= 1e-9 * scale**2
    if not parallel or step @ direction < 0:
        raise ValueError(
            f"w_after - w_before = {step.tolist()} is not a non-negative multiple of y x = "
            f"{direction.tolist()}, so this is not a perceptron update."
        )
    ax = _get_axes(ax)
    _show_points(ax, np.array([[0.0, 0.0], x, w_before, w_after]), pad=0.25, min_ratio=1.0)
    notes = []
    for w, b, when in ((w_before, b_before, "before"), (w_after, b_after, "after")):
        if not np.any(w):
            notes.append(f"{when}: w = 0, no boundary")
            continue
        n_lines = len(ax.get_lines())
        plot_boundary(
            w,
            b,
            ax=ax,
            shade=when == "after",
            show_weight_vector=False,
            label=f"boundary {when}",
            color="black" if when == "after" else "0.5",
        )
        if when == "before":
            for line in ax.get_lines()[n_lines:]:
                line.set_linestyle("--")
    origin = np.zeros(2)
    for w, name, color in (
        (w_before, r"$\mathbf{w}_{\mathrm{before}}$", "0.5"),
        (w_after, r"$\mathbf{w}_{\mathrm{after}}$", "black"),
    ):
        if np.any(w):
            _draw_arrow(ax, origin, w, color=color, label=name)
    style = POSITIVE_STYLE if y == 1 else NEGATIVE_STYLE
    if np.any(step):
        arrow = _draw_arrow(ax, w_before, step, color=style["color"], label=None)
        arrow.set_label(r"step $y\,\mathbf{x}$")
    ax.scatter([x[0]], [x[1]], s=70, zorder=5, label=f"example, y = {y:+d}", **style)
    ax.scatter([x[0]], [x[1]], s=260, facecolors="none", edgecolors="black", zorder=5)
    if notes:
        ax.text(
            0.02,
            0.98,
            "\n".join(notes),
            transform=ax.transAxes,
            ha="left",
            va="top",
            fontsize="small",
            bbox={"facecolor": "white", "edgecolor": "0.7"},
        )
    ax.legend(**LEGEND_STYLE)
    return ax


def plot_mistakes_per_epoch(
    counts: ArrayLike | object, ax: Axes | None = None, *, label: str | None = None
) -> Axes:
    """Draw the number of mistakes made in each pass over the training data.

    Parameters
    ----------
    counts : array-like of shape (n_epochs,) or a fitted estimator
        Non-negative counts, or a model with a ``mistakes_per_epoch_`` attribute.
    ax : matplotlib Axes, optional
        Where to draw; a new 4.5 x 3 inch figure if None.
    label : str, optional
        Legend entry (for comparing several runs on one Axes).

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> ax = plot_mistakes_per_epoch([3, 2, 0])
    >>> ax.get_lines()[0].get_xdata().tolist()  # epochs are counted from 1
    [1, 2, 3]
    >>> plt.close("all")
    """
    if hasattr(counts, "fit") or hasattr(counts, "mistakes_per_epoch_"):
        if not hasattr(counts, "mistakes_per_epoch_"):
            raise ValueError(
                f"This {type(counts).__name__} has no mistakes_per_epoch_: fit it first."
            )
        counts = counts.mistakes_per_epoch_
    counts = np.asarray(counts, dtype=np.float64)
    if counts.ndim != 1 or counts.shape[0] == 0:
        raise ValueError(f"counts must be a non-empty 1-d array, got shape {counts.shape}.")
    if not np.all(np.isfinite(counts)) or np.any(counts < 0):
        raise ValueError("counts must be finite and non-negative.")
    ax = _get_axes(ax, figsize=(4.5, 3.0))
    epochs = np.arange(1, counts.shape[0] + 1)
    (line,) = ax.plot(epochs, counts, marker="o", markersize=4, label=label)
    # Keep the axis starting at 0 without freezing the limits: a sticky edge
    # stops autoscaling below 0, and a later run drawn here still fits.
    line.sticky_edges.y.append(0.0)
    ax.set_xlabel("epoch (pass over the data)")
    ax.set_ylabel("mistakes")
    ax.xaxis.get_major_locator().set_params(integer=True)
    if label is not None:
        ax.legend(**LEGEND_STYLE)
    return ax


def plot_decision_regions(
    predict: Callable[[NDArray], ArrayLike] | object,
    X: ArrayLike,
    y: ArrayLike,
    ax: Axes | None = None,
    *,
    resolution: int = 200,
) -> Axes:
    """Colour the plane by a fitted classifier's prediction, and draw the data on top.

    Works for any model, linear or not (a tree, nearest neighbours), so their
    boundaries can be compared on the same data.

    Parameters
    ----------
    predict : callable or fitted estimator
        A function mapping an array of shape (n, 2) to labels 0/1 or -1/+1, or
        an object with such a ``predict`` method.
    X : array-like of shape (n_samples, 2)
    y : array-like of shape (n_samples,)
    ax : matplotlib Axes, optional
    resolution : int, default 200
        Grid points per axis.

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> X, y = [[0, 0], [1, 1]], [-1, 1]
    >>> ax = plot_decision_regions(lambda Z: np.where(Z.sum(axis=1) > 1, 1, -1), X, y)
    >>> ax.get_images()[0].get_array().shape
    (200, 200)
    >>> plt.close("all")
    """
    if hasattr(predict, "predict"):
        predict = predict.predict
    if not callable(predict):
        raise TypeError(
            f"predict must be a function or a fitted estimator, got {type(predict).__name__}."
        )
    X = _as_points(X)
    _positive_mask(y, X.shape[0])
    if not isinstance(resolution, int | np.integer) or not 2 <= resolution <= 2000:
        raise ValueError(f"resolution must be an integer in 2..2000, got {resolution!r}.")
    ax = _get_axes(ax)
    _show_points(ax, X)
    xlim, ylim = _view(ax)
    grid_x, grid_y = np.meshgrid(np.linspace(*xlim, resolution), np.linspace(*ylim, resolution))
    predictions = np.asarray(predict(np.column_stack([grid_x.ravel(), grid_y.ravel()])))
    if predictions.shape != (resolution * resolution,):
        raise ValueError(
            f"predict returned shape {predictions.shape} for {resolution**2} points; "
            "expected one label per point."
        )
    try:
        positive = _positive_mask(predictions)
    except ValueError as error:
        raise ValueError(f"predict must return labels 0/1 or -1/+1: {error}") from None
    ax.imshow(
        positive.reshape(grid_x.shape),
        origin="lower",
        extent=(*xlim, *ylim),
        cmap=ListedColormap([NEGATIVE_TINT, POSITIVE_TINT]),
        vmin=0,
        vmax=1,
        interpolation="nearest",
        zorder=0,
    )
    plot_data(X, y, ax=ax)
    ax.set_xlim(xlim)
    ax.set_ylim(ylim)
    return ax


def _gate_targets(target: str | ArrayLike) -> tuple[str, NDArray[np.bool_]]:
    """Return a display name and the four wanted outputs (True = fires) of a target gate."""
    if isinstance(target, str):
        key = target.lower()
        if key not in GATE_NAMES:
            names = ", ".join(name.upper() for name in GATE_NAMES)
            raise ValueError(f"Unknown gate {target!r}; choose one of {names}.")
        return key.upper(), logic_gate(key)[1] == 1
    values = np.asarray(target)
    if values.shape != (4,):
        raise ValueError(
            "target must be a gate name or 4 outputs for the inputs (0,0), (0,1), (1,0), (1,1), "
            f"got shape {values.shape}."
        )
    return "target", _positive_mask(values)


def plot_unit_truth_table(
    w: ArrayLike, b: float, ax: Axes | None = None, *, target: str | ArrayLike | None = None
) -> Axes:
    """Draw a two-input threshold unit on the four inputs of {0, 1}^2.

    The unit fires (outputs +1) when ``w . x + b > 0``, that is when
    ``w1 x1 + w2 x2`` exceeds the threshold ``theta = -b``: the same rule as the
    estimators' ``predict``, so a unit drawn here and a fitted model agree on
    every input, even one that lies exactly on the boundary. Each input is
    drawn in the style of its output, the boundary with the firing side
    shaded, and, when a target gate is given, the inputs where the unit
    disagrees with it are boxed.

    Parameters
    ----------
    w : array-like of shape (2,)
    b : float
        The bias, minus the threshold.
    ax : matplotlib Axes, optional
    target : {"and", "or", "nand", "nor", "xor"} or array-like of shape (4,), optional
        The gate to compare with, by name (any case) or as its outputs (0/1 or
        -1/+1) for the inputs (0,0), (0,1), (1,0), (1,1).

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    AND with weights 1, 1 and threshold 1.5:

    >>> import matplotlib.pyplot as plt
    >>> ax = plot_unit_truth_table([1, 1], -1.5, target="and")
    >>> ax.get_title()
    'AND: 4 of 4 inputs right'
    >>> plt.close("all")
    """
    w = _as_vector(w)
    b = _as_scalar(b)
    fires = GATE_INPUTS @ w + b > 0
    ax = _get_axes(ax)
    ax.set_xlim(-0.5, 1.5)
    ax.set_ylim(-0.5, 1.5)
    ax._perceptron_view_set = True
    if np.any(w):
        plot_boundary(
            w, b, ax=ax, show_weight_vector=False, label=r"$\mathbf{w}\cdot\mathbf{x} + b = 0$"
        )
    else:
        if b > 0:  # the unit always fires: the whole square is on the firing side
            ax.add_patch(
                Polygon(_view_corners(ax), closed=True, facecolor=POSITIVE_TINT, zorder=0)
            )
        ax.text(
            0.5,
            0.98,
            f"w = 0: the output is {+1 if b > 0 else -1:+d} for every input",
            transform=ax.transAxes,
            ha="center",
            va="top",
            fontsize="small",
        )
    for mask, style, label in (
        (~fires, NEGATIVE_STYLE, "silent, output -1"),
        (fires, POSITIVE_STYLE, "fires, output +1"),
    ):
        if mask.any():
            ax.scatter(
                GATE_INPUTS[mask, 0], GATE_INPUTS[mask, 1], s=90, zorder=3, label=label, **style
            )
    if target is not None:
        name, wanted = _gate_targets(target)
        wrong = fires != wanted
        if wrong.any():
            ax.scatter(
                GATE_INPUTS[wrong, 0],
                GATE_INPUTS[wrong, 1],
                s=420,
                marker="s",
                facecolors="none",
                edgecolors="black",
                linewidths=1.5,
                zorder=4,
                label=f"differs from {name}",
            )
        ax.set_title(f"{name}: {int((~wrong).sum())} of 4 inputs right", fontsize="medium")
    ax.set_xticks([0, 1])
    ax.set_yticks([0, 1])
    _style_plane(ax)
    # Below the axes, clear of the x1 label (two rows of ticks and label above it).
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=2, **LEGEND_STYLE)
    return ax
