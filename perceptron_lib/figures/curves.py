"""Figures of training: error against passes, spread over runs, loss along a line, descent.

The companions of :mod:`perceptron_lib.experiments.training` and
:mod:`perceptron_lib.theory.losses`. Like :mod:`perceptron_lib.figures.geometry`, every
function draws on ``ax`` (a new figure with an opaque white background when
``ax`` is None) and returns the Axes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import numpy as np
from matplotlib.axes import Axes
from numpy.typing import ArrayLike, NDArray

from ..experiments.training import ErrorCurve, OrderingResult

# The two class colours of perceptron_lib.figures.drawing, reused for training (blue)
# and held-out (vermilion) curves; a third Okabe-Ito colour for a third curve.
CURVE_COLORS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7")
CURVE_FIGSIZE = (5.0, 3.2)


def _axes(ax: Axes | None) -> Axes:
    if ax is None:
        import matplotlib.pyplot as plt  # here, to keep `import perceptron_lib` fast

        _, ax = plt.subplots(figsize=CURVE_FIGSIZE, facecolor="white", layout="constrained")
    elif not isinstance(ax, Axes):
        raise TypeError(f"ax must be a matplotlib Axes or None, got {type(ax).__name__}.")
    return ax


def plot_error_curve(
    curve: ErrorCurve,
    ax: Axes | None = None,
    *,
    stop: int | None = None,
    labels: tuple[str, str] = ("training error", "held-out error"),
) -> Axes:
    """Draw training and held-out error against the number of passes.

    Parameters
    ----------
    curve : ErrorCurve
        From :func:`~perceptron_lib.experiments.training.error_by_epoch`.
    ax : matplotlib Axes, optional
    stop : int, optional
        A pass number to mark with a vertical line (for example where early
        stopping stops).
    labels : (str, str), default=("training error", "held-out error")
        Legend entries of the two curves (say "validation error" when the
        held-out set is used to choose the number of passes).

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from perceptron_lib.experiments.training import ErrorCurve
    >>> curve = ErrorCurve(np.arange(1, 4), np.array([0.3, 0.1, 0.0]), np.array([0.3, 0.2, 0.25]))
    >>> ax = plot_error_curve(curve, stop=2)
    >>> [line.get_label() for line in ax.get_lines()]
    ['training error', 'held-out error', 'stop after pass 2']
    >>> plt.close("all")
    """
    if not isinstance(curve, ErrorCurve):
        raise TypeError(f"curve must be an ErrorCurve, got {type(curve).__name__}.")
    ax = _axes(ax)
    if len(labels) != 2:
        raise ValueError(f"labels must name the two curves, got {len(labels)} labels.")
    ax.plot(curve.epochs, curve.train_error, color=CURVE_COLORS[0], label=labels[0])
    ax.plot(curve.epochs, curve.test_error, color=CURVE_COLORS[1], linestyle="--", label=labels[1])
    if stop is not None:
        ax.axvline(stop, color="0.3", linestyle=":", label=f"stop after pass {stop}")
    ax.set_xlabel("passes over the training data")
    ax.set_ylabel("fraction misclassified")
    ax.set_ylim(bottom=0)
    ax.legend(framealpha=0.9)
    return ax


def plot_run_spread(
    results: Sequence[OrderingResult],
    ax: Axes | None = None,
    *,
    quantity: str = "epochs",
    labels: Sequence[str] | None = None,
) -> Axes:
    """Draw the spread over runs of one quantity, one box per ordering.

    Parameters
    ----------
    results : sequence of OrderingResult
        From :func:`~perceptron_lib.experiments.training.ordering_experiment`.
    ax : matplotlib Axes, optional
    quantity : {"epochs", "updates"}, default="epochs"
    labels : sequence of str, optional
        Box labels; default the strategies' names.

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from perceptron_lib.experiments.training import OrderingResult
    >>> runs = OrderingResult("permute_once", np.array([5, 7]), np.array([2, 3]), np.ones(2, bool))
    >>> ax = plot_run_spread([runs], quantity="updates")
    >>> ax.get_ylabel()
    'updates until convergence'
    >>> plt.close("all")
    """
    if quantity not in ("epochs", "updates"):
        raise ValueError(f"quantity must be 'epochs' or 'updates', got {quantity!r}.")
    results = list(results)
    if not results or not all(isinstance(r, OrderingResult) for r in results):
        raise TypeError("results must be a non-empty sequence of OrderingResult.")
    labels = [r.strategy.replace("_", " ") for r in results] if labels is None else list(labels)
    if len(labels) != len(results):
        raise ValueError(f"Got {len(labels)} labels for {len(results)} results.")
    ax = _axes(ax)
    values = [getattr(r, quantity) for r in results]
    ax.boxplot(values, tick_labels=labels, showmeans=True, meanprops={"markerfacecolor": "white"})
    ax.set_ylabel(
        "passes until convergence" if quantity == "epochs" else f"{quantity} until convergence"
    )
    return ax


def plot_loss_profile(
    t: ArrayLike,
    losses: Mapping[str, ArrayLike],
    ax: Axes | None = None,
    *,
    xlabel: str = "λ",
) -> Axes:
    """Draw one or more losses along a line ``(w, b) = start + λ * direction``.

    Parameters
    ----------
    t : array-like of shape (n_points,)
        Positions λ along the line (the parameter keeps its old name ``t``).
    losses : mapping of str to array-like of shape (n_points,)
        The loss values at each position, by name (the legend entry).
    ax : matplotlib Axes, optional
    xlabel : str, default="λ"

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> ax = plot_loss_profile([0, 1, 2], {"0/1 loss": [0.5, 0.5, 0.0]})
    >>> ax.get_lines()[0].get_label()
    '0/1 loss'
    >>> plt.close("all")
    """
    t = np.asarray(t, dtype=np.float64)
    if t.ndim != 1 or not losses:
        raise ValueError("t must be 1-d and losses must name at least one loss.")
    ax = _axes(ax)
    for k, (name, values) in enumerate(losses.items()):
        values = np.asarray(values, dtype=np.float64)
        if values.shape != t.shape:
            raise ValueError(f"losses[{name!r}] has shape {values.shape}, t has {t.shape}.")
        ax.plot(t, values, color=CURVE_COLORS[k % len(CURVE_COLORS)], label=name)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("loss")
    ax.legend(framealpha=0.9)
    return ax


def plot_descent_path(
    function: Callable[[NDArray[np.float64]], ArrayLike],
    path: ArrayLike,
    ax: Axes | None = None,
    *,
    span: tuple[float, float] | None = None,
    label: str = "L(λ)",
) -> Axes:
    """Draw a function of one variable and the points a descent method visits on it.

    The function is drawn as a curve; the path's points ``(λ_k, L(λ_k))`` as
    numbered dots joined by arrows, from ``λ_0`` on. This is the picture of
    gradient descent in one dimension: each step moves ``λ`` against the slope
    (the course writes λ for a position on a line: t counts examples).

    Parameters
    ----------
    function : callable
        Takes an array of positions and returns the function's values there.
    path : array-like of shape (n_steps + 1,)
        The positions visited, the start first.
    ax : matplotlib Axes, optional
    span : (float, float), optional
        The range of ``λ`` to draw; default: the path's range plus one on
        each side.
    label : str, default="L(λ)"
        Legend entry (and y-axis label) of the function.

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> import numpy as np
    >>> ax = plot_descent_path(np.abs, [-2.0, -1.0, 0.0])
    >>> ax.get_lines()[0].get_label(), ax.get_lines()[1].get_xdata().tolist()
    ('L(λ)', [-2.0, -1.0, 0.0])
    >>> plt.close("all")
    """
    if not callable(function):
        raise TypeError(f"function must be callable, got {type(function).__name__}.")
    path = np.asarray(path, dtype=np.float64)
    if path.ndim != 1 or path.size == 0 or not np.all(np.isfinite(path)):
        raise ValueError("path must be a non-empty 1-d sequence of finite positions.")
    low, high = span if span is not None else (path.min() - 1.0, path.max() + 1.0)
    if not low < high:
        raise ValueError(f"span must be (low, high) with low < high, got {(low, high)}.")
    positions = np.linspace(low, high, 401)
    values = np.asarray(function(positions), dtype=np.float64)
    heights = np.asarray(function(path), dtype=np.float64)
    if values.shape != positions.shape or heights.shape != path.shape:
        raise ValueError("function must return one value per position it is given.")
    ax = _axes(ax)
    ax.plot(positions, values, color=CURVE_COLORS[0], label=label)
    ax.plot(path, heights, "o", color=CURVE_COLORS[1], label="descent steps", zorder=3)
    for k in range(path.size - 1):
        ax.annotate(
            "",
            xy=(path[k + 1], heights[k + 1]),
            xytext=(path[k], heights[k]),
            arrowprops={"arrowstyle": "->", "color": CURVE_COLORS[1]},
        )
    for k, (x, y) in enumerate(zip(path, heights, strict=True)):
        ax.annotate(str(k), (x, y), textcoords="offset points", xytext=(0, 6), ha="center")
    ax.set_xlabel("λ")
    ax.set_ylabel(label)
    ax.legend(framealpha=0.9)
    return ax
