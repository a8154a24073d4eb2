"""Figures for chapter 7: a lifted data set in 3-D, and a kernel perceptron's regions.

- :func:`plot_lifted_plane` draws points with a third coordinate and a plane
  ``w . x + b = 0`` in three dimensions (how one new feature separates XOR);
- :func:`plot_kernel_model` colours the plane by a fitted
  :class:`~perceptron_lib.KernelPerceptron` and rings its support vectors;
- :func:`animate_kernel_training` shows its regions after each epoch, the
  static counterpart of :func:`perceptron_lib.widgets.kernels.kernel_explorer`.

Like :mod:`perceptron_lib.figures.geometry`, every function takes ``ax=None`` and
returns the Axes; figures have an opaque white background.
"""

from __future__ import annotations

import numpy as np
from matplotlib.animation import FuncAnimation
from matplotlib.axes import Axes
from numpy.typing import ArrayLike
from sklearn.base import clone

from ..kernel import KernelPerceptron
from .animation import FRAME_INTERVAL_MS, sample_updates
from .drawing import (
    LEGEND_STYLE,
    NEGATIVE_STYLE,
    POSITIVE_STYLE,
    _as_points,
    _positive_mask,
    _ring,
)
from .regions import plot_decision_regions

__all__ = ["animate_kernel_training", "plot_kernel_model", "plot_lifted_plane"]


def plot_lifted_plane(
    X: ArrayLike,
    y: ArrayLike,
    w: ArrayLike,
    b: float,
    ax: Axes | None = None,
    *,
    labels: tuple[str, str] = ("negative", "positive"),
) -> Axes:
    """Draw labelled points in 3-D and the plane ``w . x + b = 0`` (solved for ``x3``).

    Parameters
    ----------
    X : array-like of shape (n_samples, 3)
    y : array-like of shape (n_samples,)
        Labels 0/1 or -1/+1; 1 is the positive class.
    w : array-like of shape (3,)
        The plane's normal; ``w[2]`` must not be 0 (the plane is drawn as a
        surface over the ``(x1, x2)`` box of the data).
    b : float
    ax : matplotlib 3-D Axes, optional
        A new 5 x 4.5 inch figure with a white background if None.
    labels : (str, str)
        Legend entries of the negative and the positive class.

    Returns
    -------
    matplotlib 3-D Axes

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> X = [[0, 0, 0], [0, 1, 0], [1, 0, 0], [1, 1, 1]]
    >>> ax = plot_lifted_plane(X, [-1, 1, 1, -1], [-1, -1, 2], 0.5)
    >>> ax.name, ax.get_zlabel()
    ('3d', '$x_3$')
    >>> plt.close("all")
    """
    X = np.asarray(X, dtype=np.float64)
    if X.ndim != 2 or X.shape[1] != 3 or X.shape[0] == 0 or not np.all(np.isfinite(X)):
        raise ValueError(f"X must be finite, of shape (n_samples, 3); got {X.shape}.")
    positive = _positive_mask(y, X.shape[0])
    w = np.asarray(w, dtype=np.float64)
    if w.shape != (3,) or not np.all(np.isfinite(w)):
        raise ValueError(f"w must be a finite vector of shape (3,), got {w.shape}.")
    if w[2] == 0:
        raise ValueError("w[2] is 0: a vertical plane is not a graph x3(x1, x2).")
    b = float(b)
    if ax is None:
        import matplotlib.pyplot as plt

        fig = plt.figure(figsize=(5.0, 4.5), facecolor="white", layout="constrained")
        ax = fig.add_subplot(projection="3d")
    elif getattr(ax, "name", None) != "3d":
        raise TypeError("ax must be a 3-D Axes (projection='3d') or None.")
    ax.set_facecolor("white")
    low, high = X[:, :2].min(axis=0) - 0.25, X[:, :2].max(axis=0) + 0.25
    axis1, axis2 = np.linspace(low[0], high[0], 2), np.linspace(low[1], high[1], 2)
    grid1, grid2 = np.meshgrid(axis1, axis2)
    height = _plane_height(w, b, grid1, grid2)
    ax.plot_surface(grid1, grid2, height, color="0.6", alpha=0.35, linewidth=0)
    for mask, style, label in (
        (~positive, NEGATIVE_STYLE, labels[0]),
        (positive, POSITIVE_STYLE, labels[1]),
    ):
        if mask.any():
            ax.scatter(
                X[mask, 0],
                X[mask, 1],
                X[mask, 2],
                s=60,
                label=label,
                depthshade=False,
                **style,
            )
    ax.set_xlabel("$x_1$")
    ax.set_ylabel("$x_2$")
    ax.set_zlabel("$x_3$")
    # Medium, not LEGEND_STYLE's small: the figure is shown 342 px wide on a phone.
    ax.legend(loc="upper left", **{**LEGEND_STYLE, "fontsize": "medium"})
    return ax


def _plane_height(w, b: float, x1, x2):
    """Return ``x3`` on the plane ``w . x + b = 0`` above ``(x1, x2)``."""
    return -(w[0] * x1 + w[1] * x2 + b) / w[2]


def plot_kernel_model(
    model: KernelPerceptron, X: ArrayLike, y: ArrayLike, ax: Axes | None = None
) -> Axes:
    """Colour the plane by a fitted kernel perceptron and ring its support vectors.

    A ring's size grows with the number of updates its example caused.

    Parameters
    ----------
    model : fitted KernelPerceptron
        Trained on two-feature data with labels 0/1 or -1/+1.
    X : array-like of shape (n_samples, 2)
        The training data (the support vectors are looked up in it).
    y : array-like of shape (n_samples,)
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from perceptron_lib import KernelPerceptron, make_xor
    >>> X, y = make_xor()
    >>> model = KernelPerceptron(kernel="poly", gamma=1.0, shuffle=False).fit(X, y)
    >>> ax = plot_kernel_model(model, X, y)
    >>> ax.get_title()
    'poly kernel: 4 support vectors, 0 training errors'
    >>> plt.close("all")
    """
    if not isinstance(model, KernelPerceptron) or not hasattr(model, "support_"):
        raise TypeError("model must be a fitted KernelPerceptron.")
    X = _as_points(X)
    ax = plot_decision_regions(model, X, y, ax=ax, resolution=120)
    counts = model.update_counts_
    _ring(
        ax,
        model.support_vectors_[:, :2],
        size=120 + 40 * np.sqrt(counts[model.support_]),
        linewidths=1.0,
        zorder=4,
        label="support vectors",
    )
    errors = int(np.sum(model.predict(X) != np.asarray(y)))
    name = model.kernel if isinstance(model.kernel, str) else "custom"
    n_support = len(model.support_)
    title = f"{name} kernel: {n_support} support vectors, {errors} training errors"
    ax.set_title(title, fontsize="medium")
    ax.legend(**LEGEND_STYLE)
    return ax


def animate_kernel_training(
    model: KernelPerceptron,
    X: ArrayLike,
    y: ArrayLike,
    *,
    max_frames: int = 12,
    figsize: tuple[float, float] = (4.5, 4.5),
    dpi: int = 72,
) -> FuncAnimation:
    """Animate a kernel perceptron's training: its regions after each epoch.

    Frame ``k`` is ``model`` (unfitted, not changed) fitted with
    ``max_iter=k``; for a fixed ``random_state`` that is exactly the state
    after ``k`` epochs of the full run, since each epoch's order is drawn from
    the same sequence. With more epochs than ``max_frames``, evenly spaced
    ones are shown, always with the first and the last.

    Parameters
    ----------
    model : KernelPerceptron
        Its parameters define the run; give it a ``random_state`` (or
        ``shuffle=False``) so that the frames belong to one run.
    X : array-like of shape (n_samples, 2)
    y : array-like of shape (n_samples,)
    max_frames : int, default 12
    figsize : (float, float), default (4.5, 4.5)
    dpi : int, default 72

    Returns
    -------
    matplotlib.animation.FuncAnimation
        Render it with :func:`perceptron_lib.figures.animation.animation_html`.

    Examples
    --------
    >>> from perceptron_lib import KernelPerceptron, make_xor
    >>> from perceptron_lib.figures.animation import animation_html
    >>> X, y = make_xor()
    >>> model = KernelPerceptron(kernel="poly", gamma=1.0, shuffle=False)
    >>> anim = animate_kernel_training(model, X, y, max_frames=5)
    >>> list(anim.new_frame_seq())  # the epochs shown, of 9
    [1, 3, 5, 7, 9]
    >>> html = animation_html(anim)
    """
    import warnings

    import matplotlib.pyplot as plt
    from sklearn.exceptions import ConvergenceWarning

    if not isinstance(model, KernelPerceptron):
        raise TypeError(f"need a KernelPerceptron, got {type(model).__name__}.")
    if model.shuffle and model.random_state is None:
        raise ValueError(
            "Give the model a random_state (or shuffle=False): otherwise each frame "
            "would be a different run."
        )
    X = _as_points(X)
    full = clone(model).fit(X, y)
    epochs = (sample_updates(full.n_iter_, max_frames) + 1).tolist()
    fig, ax = plt.subplots(
        figsize=figsize,
        dpi=dpi,
        facecolor="white",
        layout="constrained",
    )
    fig.canvas.draw()

    def draw(epoch: int) -> list:
        ax.clear()
        with warnings.catch_warnings():
            # Early epochs have not converged yet: expected.
            warnings.simplefilter("ignore", ConvergenceWarning)
            partial = clone(model).set_params(max_iter=epoch).fit(X, y)
        plot_kernel_model(partial, X, y, ax=ax)
        ax.set_title(
            f"epoch {epoch} of {full.n_iter_}: "
            f"{partial.mistakes_per_epoch_[-1]} mistakes in this epoch",
            fontsize="medium",
        )
        return list(ax.get_children())

    return FuncAnimation(
        fig,
        draw,
        frames=epochs,
        interval=FRAME_INTERVAL_MS,
        repeat=False,
    )
