"""Interactive explorers for readers with a running kernel (Binder, Colab, local Jupyter).

Each explorer is a small ipywidgets layout whose drawing is done by a plain
function (``_gate_view``, ``_geometry_view``, ``_training_view``) that returns
text and a matplotlib figure, so the logic is tested without a browser. The
figure is shown as a PNG image, which works in every Jupyter front end.

The static book has no kernel: each chapter pairs an explorer with a static
counterpart (:func:`perceptron_lib.figures.animation.animate_training`, or small
multiples drawn with :mod:`perceptron_lib.figures.basic`).

This module imports ipywidgets, so ``import perceptron_lib`` does not import it;
use ``from perceptron_lib.widgets.explorers import gate_explorer``.
"""

from __future__ import annotations

import io
from collections.abc import Callable

import ipywidgets as ipw
import numpy as np
from matplotlib.figure import Figure
from numpy.typing import ArrayLike

from ..data.datasets import three_points_example
from ..figures.basic import (
    GATE_INPUTS,
    GATE_NAMES,
    _gate_targets,
    plot_boundary,
    plot_data,
    plot_margin_band,
    plot_projections,
    plot_unit_truth_table,
)
from ..figures.drawing import _as_points, _positive_mask
from ..theory.geometry import margin
from ..trace import TrainingTrace, training_trace

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


# -- the neuron: a threshold unit computing a gate ---------------------------


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
        :func:`~perceptron_lib.figures.basic.plot_unit_truth_table` of the unit.

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


# -- the geometry of a linear classifier -------------------------------------


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


# -- stepping through training -----------------------------------------------


def _training_view(trace: TrainingTrace, X: ArrayLike, step: int) -> tuple[str, Figure]:
    """Return the row of the trace at ``step`` as text, and the boundary before and after it.

    Parameters
    ----------
    trace : TrainingTrace
    X : array-like of shape (n_samples, 2)
        The data the trace was recorded on.
    step : int
        From 0 to ``trace.n_steps - 1``.

    Returns
    -------
    row : str
    fig : matplotlib Figure
        The data with the current example ringed, the boundary before the step
        (dashed) and after it (solid, positive side shaded).

    Examples
    --------
    >>> from perceptron_lib import Perceptron, training_trace
    >>> X, y = [[1, 3], [2, 3], [-3, 1], [1, -1]], [1, -1, 1, -1]
    >>> trace = training_trace(Perceptron(shuffle=False, fit_intercept=False), X, y)
    >>> row, fig = _training_view(trace, X, 1)
    >>> print(row)
    step 2 of 32, epoch 1, example 1 (y = -1)
    w.x + b = 11.00 before the step: y (w.x + b) <= 0, a mistake
    update: w = (-1.00, 0.00), b = 0.00
    >>> import matplotlib.pyplot as plt
    >>> plt.close(fig)
    """
    X = _as_points(X)
    if not 0 <= step < trace.n_steps:
        raise ValueError(f"step must be in 0..{trace.n_steps - 1}, got {step}.")
    w_before, b_before = trace.weights_before(step)
    w_after, b_after = trace.weights[step], float(trace.bias[step])
    example = int(trace.index[step])
    label = int(trace.labels[example])
    mistake = bool(trace.mistake[step])
    rows = [
        f"step {step + 1} of {trace.n_steps}, epoch {int(trace.epoch[step]) + 1}, "
        f"example {example} (y = {label:+d})",
        f"w.x + b = {trace.activation[step]:.2f} before the step: "
        + ("y (w.x + b) <= 0, a mistake" if mistake else "y (w.x + b) > 0, correct"),
        (
            f"update: w = ({w_after[0]:.2f}, {w_after[1]:.2f}), b = {b_after:.2f}"
            if mistake
            else f"no update: w = ({w_after[0]:.2f}, {w_after[1]:.2f}), b = {b_after:.2f}"
        ),
    ]
    ax = plot_data(X, trace.labels, highlight=example)
    if mistake and np.any(w_before):
        n_lines = len(ax.get_lines())
        plot_boundary(
            w_before,
            b_before,
            ax=ax,
            shade=False,
            show_weight_vector=False,
            color="0.5",
            label="before",
        )
        for line in ax.get_lines()[n_lines:]:
            line.set_linestyle("--")
    if np.any(w_after):
        plot_boundary(w_after, b_after, ax=ax, label="after" if mistake else "unchanged")
    ax.set_title(
        f"step {step + 1}: "
        + ("mistake, update" if mistake else "correct, no update")
        + ("" if np.any(w_after) else " (w = 0, no boundary)"),
        fontsize="medium",
    )
    return "\n".join(rows), ax.figure


def training_explorer(estimator, X: ArrayLike, y: ArrayLike) -> ipw.VBox:
    """An explorer: step through an online perceptron's training, one example at a time.

    A slider (with a play button) moves through the steps of
    :func:`~perceptron_lib.training_trace`; each step shows the trace's row
    and the boundary before and after it.

    Parameters
    ----------
    estimator : Perceptron, AveragedPerceptron or VotedPerceptron
        Its parameters define the run (it is not changed).
    X : array-like of shape (n_samples, 2)
    y : array-like of shape (n_samples,)

    Returns
    -------
    ipywidgets.VBox

    Examples
    --------
    >>> from perceptron_lib import Perceptron
    >>> X, y = [[1, 3], [2, 3], [-3, 1], [1, -1]], [1, -1, 1, -1]
    >>> explorer = training_explorer(Perceptron(shuffle=False), X, y)
    >>> play, step = explorer.children[0].children
    >>> step.max + 1  # the number of steps
    36
    """
    X = _as_points(X)
    trace = training_trace(estimator, X, y)
    step = ipw.IntSlider(
        value=0, min=0, max=trace.n_steps - 1, description="step", continuous_update=False
    )
    play = ipw.Play(value=0, min=0, max=trace.n_steps - 1, interval=800, description="play")
    # The browser moves the slider with the play button; the kernel redraws on the slider only.
    ipw.jslink((play, "value"), (step, "value"))
    return _explorer([play, step], lambda: _training_view(trace, X, step.value), watched=[step])


# -- the voted perceptron, pass by pass ----------------------------------------


def _voting_view(snapshots, X: ArrayLike, y: ArrayLike, passes: int, point) -> tuple[str, Figure]:
    """Return the vectors after ``passes`` passes and their votes on ``point``, and a plot.

    Examples
    --------
    >>> from perceptron_lib import VotedPerceptron
    >>> from perceptron_lib.experiments.averaging import voting_snapshots
    >>> X, y = [[1.0, 1.0], [0.5, 3.0], [2.0, 2.0]], [1, 1, -1]
    >>> snaps = voting_snapshots(VotedPerceptron(shuffle=False), X, y, 2)
    >>> table, fig = _voting_view(snaps, X, y, 1, (1.0, 2.0))
    >>> print(table)
     k      w1      w2       b    c  vote
     1    1.00    1.00    1.00    2    +1
     2   -1.00   -1.00    0.00    1    -1
    pass 1, 2 vectors: votes for +1: 2, for -1: 1; vote +1, average +1
    >>> import matplotlib.pyplot as plt
    >>> plt.close(fig)
    """
    from ..figures.voting import plot_vote, vote_summary

    if not 1 <= passes <= len(snapshots):
        raise ValueError(f"passes must be in 1..{len(snapshots)}, got {passes}.")
    snapshot = snapshots[passes - 1]
    point = np.asarray(point, dtype=np.float64)
    rows = [f"{'k':>2} {'w1':>7} {'w2':>7} {'b':>7} {'c':>4}  vote"]
    shown = 12  # the table stays short; the plot shows every vector
    for k, (w, b, c) in enumerate(
        zip(snapshot.weights, snapshot.intercepts, snapshot.counts, strict=True), start=1
    ):
        if k > shown and k < len(snapshot.counts) - 1:
            if k == shown + 1:
                rows.append("   ...")
            continue
        says = "+1" if w @ point + b > 0 else "-1"
        rows.append(f"{k:2d} {w[0]:7.2f} {w[1]:7.2f} {b:7.2f} {c:4d}    {says}")
    rows.append(vote_summary(snapshot, point))
    ax = plot_vote(snapshot, X, y, point)
    return "\n".join(rows), ax.figure


def voting_explorer(estimator, X: ArrayLike, y: ArrayLike, n_passes: int = 5) -> ipw.VBox:
    """An explorer: the voted perceptron's vectors pass by pass, voting on a point you pick.

    A slider chooses the number of passes; two sliders place the point (the
    star). Every vector is drawn as a line as thick as its survival count,
    coloured by its vote on the point; the table lists the vectors.

    Parameters
    ----------
    estimator : VotedPerceptron
        Its parameters define the run (it is not changed).
    X : array-like of shape (n_samples, 2)
    y : array-like of shape (n_samples,)
    n_passes : int, default=5

    Returns
    -------
    ipywidgets.VBox

    Examples
    --------
    >>> from perceptron_lib import VotedPerceptron
    >>> X, y = [[1.0, 1.0], [0.5, 3.0], [2.0, 2.0]], [1, 1, -1]
    >>> explorer = voting_explorer(VotedPerceptron(shuffle=False), X, y, n_passes=3)
    >>> [c.description for c in explorer.children[0].children]
    ['passes', 'point x1', 'point x2']
    """
    from ..experiments.averaging import voting_snapshots

    X = _as_points(X)
    snapshots = voting_snapshots(estimator, X, y, n_passes)
    low, high = X.min(axis=0), X.max(axis=0)
    centre = (low + high) / 2
    passes = ipw.IntSlider(
        value=1, min=1, max=n_passes, description="passes", continuous_update=False
    )
    x1 = _slider("point x1", float(centre[0]), float(low[0]), float(high[0]), 0.05)
    x2 = _slider("point x2", float(centre[1]), float(low[1]), float(high[1]), 0.05)
    return _explorer(
        [passes, x1, x2],
        lambda: _voting_view(snapshots, X, y, passes.value, (x1.value, x2.value)),
    )


# -- kernels: the perceptron in dual form -------------------------------------


def _kernel_view(
    kernel: str,
    degree: int,
    rho: float,
    X: ArrayLike,
    y: ArrayLike,
    max_iter: int = 50,
) -> tuple[str, Figure]:
    """Return a summary of a kernel perceptron trained on ``(X, y)``, and its regions.

    The run is seeded (``random_state=0``), so the same settings give the same picture.

    Parameters
    ----------
    kernel : {"linear", "poly", "rbf"}
    degree : int
        Used by "poly".
    rho : float
        The kernel's scale, chapter 7's rho (scikit-learn's ``gamma``: the
        course keeps gamma for margins). Used by "poly" and "rbf".
    X : array-like of shape (n_samples, 2)
    y : array-like of shape (n_samples,)
    max_iter : int, default 50

    Returns
    -------
    summary : str
        Epochs, whether training converged, mistakes per epoch, support vectors.
    fig : matplotlib Figure
        :func:`~perceptron_lib.figures.beyond_linear.plot_kernel_model` of the model.

    Examples
    --------
    >>> from perceptron_lib import make_xor
    >>> X, y = make_xor()
    >>> summary, fig = _kernel_view("poly", 2, 1.0, X, y)
    >>> print(summary.splitlines()[0])
    poly kernel, degree 2, rho 1.00: converged after 9 epochs
    >>> import matplotlib.pyplot as plt
    >>> plt.close(fig)
    """
    import warnings

    from sklearn.exceptions import ConvergenceWarning

    from ..figures.beyond_linear import plot_kernel_model
    from ..kernel import KernelPerceptron

    X = _as_points(X)
    model = KernelPerceptron(  # scikit-learn's name for the scale rho is `gamma`
        kernel=kernel, degree=degree, gamma=rho, max_iter=max_iter, random_state=0
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)  # reported in the summary
        model.fit(X, y)
    settings = {"linear": "", "poly": f", degree {degree}, rho {rho:.2f}"}.get(
        kernel, f", rho {rho:.2f}"
    )
    outcome = (
        f"converged after {model.n_iter_} epochs"
        if model.converged_
        else f"not converged in {model.n_iter_} epochs"
    )
    shown = model.mistakes_per_epoch_[:12].tolist()
    more = ", ..." if model.n_iter_ > 12 else ""
    lines = [
        f"{kernel} kernel{settings}: {outcome}",
        f"mistakes per epoch: {', '.join(str(m) for m in shown)}{more}",
        f"support vectors: {model.support_.shape[0]} of {X.shape[0]} examples",
        f"updates in all: {int(model.update_counts_.sum())}",
    ]
    ax = plot_kernel_model(model, X, y)
    return "\n".join(lines), ax.figure


def kernel_explorer(datasets: dict | None = None) -> ipw.VBox:
    """An explorer: pick data, a kernel and its parameters; watch regions and mistakes.

    Parameters
    ----------
    datasets : dict of name -> (X, y), optional
        Two-feature data sets to choose from; by default noisy XOR, two
        circles and two moons (seeded).

    Returns
    -------
    ipywidgets.VBox

    Examples
    --------
    >>> explorer = kernel_explorer()
    >>> [w.description for w in explorer.children[0].children]
    ['data', 'kernel', 'degree', 'rho']
    """
    from sklearn.datasets import make_circles, make_moons

    from ..data.datasets import make_xor

    if datasets is None:
        datasets = {
            "XOR": make_xor(10, noise=0.15, random_state=0),
            "circles": make_circles(60, factor=0.5, noise=0.08, random_state=0),
            "moons": make_moons(60, noise=0.1, random_state=0),
        }
    if not isinstance(datasets, dict) or not datasets:
        raise ValueError("datasets must be a non-empty dict of name -> (X, y).")
    data = ipw.Dropdown(options=list(datasets), description="data")
    kernels = ["linear", "poly", "rbf"]
    kernel = ipw.Dropdown(options=kernels, value="poly", description="kernel")
    degree = ipw.IntSlider(value=2, min=1, max=6, description="degree")
    # The kernel's scale rho (scikit-learn's `gamma`) from 0.01 to 100 on a log scale.
    rho = ipw.FloatLogSlider(value=1.0, min=-2, max=2, step=0.1, description="rho")
    for slider in (degree, rho):
        slider.continuous_update = False  # redraw when released, not at every pixel
    return _explorer(
        [data, kernel, degree, rho],
        lambda: _kernel_view(
            kernel.value,
            degree.value,
            rho.value,
            *datasets[data.value],
        ),
    )
