"""Drawing primitives shared by the course's figures.

The style (colours, markers, sizes), the checks that turn inputs into float
arrays with clear errors, and the plane geometry of drawing inside the current
view: clipping a line or a half plane to the axes limits and fitting an arrow.
Every module of :mod:`perceptron_lib.figures` builds its figures from these.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from matplotlib.axes import Axes
from numpy.typing import ArrayLike, NDArray

NEGATIVE_STYLE = {"color": "#0072B2", "marker": "o"}
POSITIVE_STYLE = {"color": "#D55E00", "marker": "P"}
# Light tints of the two class colours, for shaded half planes and regions.
NEGATIVE_TINT = "#CFE3F0"
POSITIVE_TINT = "#F7D9C4"
DEFAULT_FIGSIZE = (4.5, 4.5)
LEGEND_STYLE = {"fontsize": "small", "framealpha": 0.9}


# -- input checks -----------------------------------------------------------


def _as_points(X: ArrayLike, name: str = "X") -> NDArray[np.float64]:
    """Return ``X`` as a finite float array of shape (n_samples, 2)."""
    X = np.asarray(X, dtype=np.float64)
    if X.ndim != 2 or X.shape[1] != 2 or X.shape[0] == 0:
        raise ValueError(
            f"{name} must be a non-empty array of shape (n_samples, 2) to be drawn in the "
            f"plane, got shape {X.shape}."
        )
    if not np.all(np.isfinite(X)):
        raise ValueError(f"{name} contains NaN or infinite values.")
    return X


def _as_vector(w: ArrayLike, name: str = "w") -> NDArray[np.float64]:
    """Return ``w`` as a finite float vector of shape (2,)."""
    w = np.asarray(w, dtype=np.float64)
    if w.shape != (2,):
        raise ValueError(f"{name} must have shape (2,) to be drawn in the plane, got {w.shape}.")
    if not np.all(np.isfinite(w)):
        raise ValueError(f"{name} contains NaN or infinite values.")
    return w


def _as_scalar(b: float, name: str = "b") -> float:
    """Return ``b`` as a finite float (a one-element array is accepted too)."""
    values = np.asarray(b, dtype=np.float64)
    if values.size != 1:
        raise ValueError(f"{name} must be a single number, got shape {values.shape}.")
    b = float(values.reshape(()))
    if not np.isfinite(b):
        raise ValueError(f"{name} must be finite, got {b}.")
    return b


def _positive_mask(y: ArrayLike, n_samples: int | None = None) -> NDArray[np.bool_]:
    """Return ``y == 1`` after checking that ``y`` holds 0/1 or -1/+1 labels."""
    y = np.asarray(y)
    if y.ndim != 1 or (n_samples is not None and y.shape[0] != n_samples):
        raise ValueError(
            f"y must be a 1-d array with one label per point ({n_samples}), got shape {y.shape}."
        )
    values = set(np.unique(y).tolist())
    if not (values <= {0, 1} or values <= {-1, 1}):
        raise ValueError(
            f"y must hold the labels 0/1 or -1/+1 (1 is positive), got {sorted(values)[:10]}."
        )
    return y == 1


def _nonzero_norm(w: NDArray[np.float64], what: str) -> float:
    """Return ``||w||``; a zero ``w`` has no boundary, which ``what`` cannot draw."""
    norm = float(np.linalg.norm(w))
    if norm == 0.0:
        raise ValueError(
            f"{what}: w is the zero vector, so w.x + b = 0 is not a line (every point gets "
            "the activation b); there is no boundary to draw."
        )
    return norm


# -- axes and view ----------------------------------------------------------


def _get_axes(ax: Axes | None, figsize: tuple[float, float] = DEFAULT_FIGSIZE) -> Axes:
    """Return ``ax``, or the Axes of a new figure with an opaque white background."""
    if ax is None:
        # pyplot is imported here, not at the top, to keep `import perceptron_lib` fast.
        import matplotlib.pyplot as plt

        _, ax = plt.subplots(figsize=figsize, facecolor="white", layout="constrained")
    elif not isinstance(ax, Axes):
        raise TypeError(f"ax must be a matplotlib Axes or None, got {type(ax).__name__}.")
    return ax


def _style_plane(ax: Axes) -> None:
    """Label the axes x1, x2 and give them equal aspect."""
    ax.set_xlabel("$x_1$")
    ax.set_ylabel("$x_2$")
    # adjustable="box" keeps the limits exactly as set, so clipped lines end at the frame.
    ax.set_aspect("equal", adjustable="box")


def _view(ax: Axes) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Return the current x and y limits."""
    return np.array(ax.get_xlim(), dtype=float), np.array(ax.get_ylim(), dtype=float)


def _ring(ax: Axes, points: ArrayLike, *, size=260, linewidths=1.5, zorder=5, **options):
    """Circle ``points`` (rows of x, y) with an open black marker, to single them out."""
    points = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    return ax.scatter(
        points[:, 0],
        points[:, 1],
        s=size,
        facecolors="none",
        edgecolors="black",
        linewidths=linewidths,
        zorder=zorder,
        **options,
    )


def _show_points(
    ax: Axes, points: NDArray[np.float64], *, pad: float = 0.12, min_ratio: float = 0.5
) -> None:
    """Set the limits to a padded box around ``points`` and, if drawn before, the old view.

    The shorter side of the box is widened to at least ``min_ratio`` times the
    longer one, so that equal aspect never squeezes the plot into a thin strip.
    """
    low, high = points.min(axis=0), points.max(axis=0)
    margin = pad * max(float(np.max(high - low)), 1.0)
    low, high = low - margin, high + margin
    if getattr(ax, "_perceptron_view_set", False):
        xlim, ylim = _view(ax)
        low = np.minimum(low, [xlim[0], ylim[0]])
        high = np.maximum(high, [xlim[1], ylim[1]])
    centre, half = (low + high) / 2, (high - low) / 2
    half = np.maximum(half, min_ratio * half.max())
    ax.set_xlim(centre[0] - half[0], centre[0] + half[0])
    ax.set_ylim(centre[1] - half[1], centre[1] + half[1])
    # Remember that this Axes has a view chosen by us, so later calls extend it.
    ax._perceptron_view_set = True
    _style_plane(ax)


def _ensure_view(ax: Axes, w: NDArray[np.float64], b: float) -> None:
    """Give an empty Axes whose limits nobody chose a square view that shows the boundary."""
    chosen = not (ax.get_autoscalex_on() and ax.get_autoscaley_on())  # set by the caller
    if getattr(ax, "_perceptron_view_set", False) or ax.has_data() or chosen:
        return
    distance = abs(b) / float(np.linalg.norm(w)) if np.any(w) else 0.0
    half = max(2.0, 2.0 * distance)
    _show_points(ax, np.array([[-half, -half], [half, half]]), pad=0.0)


# -- geometry of a line inside the view ------------------------------------


def _view_corners(ax: Axes) -> NDArray[np.float64]:
    (x0, x1), (y0, y1) = _view(ax)
    return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])


def _clip_half_plane(polygon: NDArray[np.float64], w: ArrayLike, b: float) -> NDArray[np.float64]:
    """Return the part of a convex polygon on the positive side of ``w . x + b = 0``.

    That is the closure of the part where ``w . x + b > 0``: as an area to
    shade it is the same set; the boundary line itself, where the classifier
    predicts -1, is drawn on top by the caller.

    One step of Sutherland-Hodgman clipping: keep the vertices on the positive
    side and add the points where an edge crosses the line.

    Parameters
    ----------
    polygon : ndarray of shape (n_vertices, 2)
        Vertices of a convex polygon, in order.
    w : array-like of shape (2,)
    b : float

    Returns
    -------
    ndarray of shape (m, 2)
        The clipped polygon (``m == 0`` if nothing is left).

    Examples
    --------
    >>> square = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], dtype=float)
    >>> _clip_half_plane(square, [1, 0], -0.5).tolist()  # the part with x1 >= 0.5
    [[0.5, 0.0], [1.0, 0.0], [1.0, 1.0], [0.5, 1.0]]
    """
    w = np.asarray(w, dtype=float)
    values = polygon @ w + b
    kept = []
    for i in range(len(polygon)):
        j = (i + 1) % len(polygon)
        if values[i] >= 0:
            kept.append(polygon[i])
        if (values[i] >= 0) != (values[j] >= 0):
            t = values[i] / (values[i] - values[j])
            kept.append(polygon[i] + t * (polygon[j] - polygon[i]))
    return np.array(kept).reshape(-1, 2)


def _line_in_view(
    w: ArrayLike, b: float, xlim: Sequence[float], ylim: Sequence[float]
) -> NDArray[np.float64] | None:
    """Return the two end points of the line ``w . x + b = 0`` inside a rectangle.

    Parameters
    ----------
    w : array-like of shape (2,), not zero
    b : float
    xlim, ylim : pairs of floats
        The rectangle ``[xlim[0], xlim[1]] x [ylim[0], ylim[1]]``.

    Returns
    -------
    ndarray of shape (2, 2) or None
        The end points, or None if the line misses the rectangle.

    Examples
    --------
    A vertical line:

    >>> _line_in_view([1, 0], -0.5, (0, 1), (0, 2)).tolist()
    [[0.5, 0.0], [0.5, 2.0]]
    """
    w = np.asarray(w, dtype=float)
    norm_sq = float(w @ w)
    point = -b * w / norm_sq  # the point of the line nearest the origin
    direction = np.array([-w[1], w[0]])
    # Liang-Barsky: the line is point + t * direction; each side of the
    # rectangle bounds t from one side.
    t_low, t_high = -np.inf, np.inf
    for axis, (low, high) in enumerate((xlim, ylim)):
        if direction[axis] == 0.0:
            if not low <= point[axis] <= high:
                return None
            continue
        t1 = (low - point[axis]) / direction[axis]
        t2 = (high - point[axis]) / direction[axis]
        t_low, t_high = max(t_low, min(t1, t2)), min(t_high, max(t1, t2))
    if not t_low < t_high:
        return None
    return np.array([point + t_low * direction, point + t_high * direction])


def _room_along(start: NDArray[np.float64], direction: NDArray[np.float64], xlim, ylim) -> float:
    """Return how far one can go from ``start`` along ``direction`` before leaving the view."""
    room = np.inf
    for axis, (low, high) in enumerate((xlim, ylim)):
        if direction[axis] > 0:
            room = min(room, (high - start[axis]) / direction[axis])
        elif direction[axis] < 0:
            room = min(room, (low - start[axis]) / direction[axis])
    return max(float(room), 0.0)


def _draw_arrow(ax: Axes, start: ArrayLike, vector: ArrayLike, *, color: str, label: str | None):
    """Draw ``vector`` as an arrow from ``start``, in data units (a quiver of one arrow)."""
    start, vector = np.asarray(start, dtype=float), np.asarray(vector, dtype=float)
    arrow = ax.quiver(
        start[0],
        start[1],
        vector[0],
        vector[1],
        angles="xy",
        scale_units="xy",
        scale=1,
        color=color,
        width=0.012,
        zorder=4,
    )
    if label:
        tip = start + vector
        ax.annotate(
            label,
            tip,
            xytext=(4, 4),
            textcoords="offset points",
            color=color,
            annotation_clip=True,
            zorder=4,
        )
    return arrow
