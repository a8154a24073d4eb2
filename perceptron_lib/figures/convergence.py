"""Figures for the convergence theorem: the proof along a run, bound against count, norms.

Like :mod:`perceptron_lib.figures.geometry`, every function draws on the Axes it is
given (new ones when None), returns them, and uses an opaque white figure
background.
"""

from __future__ import annotations

import numpy as np
from matplotlib.axes import Axes
from numpy.typing import ArrayLike

from ..experiments.convergence import BoundCase, ProofSteps
from ..trace import TrainingTrace
from .drawing import _get_axes
from .geometry import plot_boundary, plot_data

MEASURED = "#0072B2"  # blue, from the Okabe-Ito palette used by plotting.py
BOUND = "#D55E00"  # vermilion


def plot_proof_steps(steps: ProofSteps, axes=None):
    """Draw the three inequalities of the proof after every update k of a run.

    Top: ``u . v_k`` and its lower bound ``k gamma``; middle: ``||v_k||^2``
    and its upper bound ``k R^2``; bottom: the cosine of the angle between ``v_k`` and
    ``u`` and its lower bound ``sqrt(k) gamma / R``, with the ceiling ``1`` that ends the
    proof. The panels are stacked, one per row, so that their text stays
    legible on a phone (at least 8 CSS px when shown 342 px wide).

    Parameters
    ----------
    steps : ProofSteps
        From :func:`perceptron_lib.experiments.convergence.proof_steps`.
    axes : sequence of three matplotlib Axes, optional
        A new 4.8 x 8 inch figure of three rows if None.

    Returns
    -------
    ndarray of three Axes

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from perceptron_lib import Perceptron, training_trace
    >>> from perceptron_lib.theory.convergence import hadamard_example, max_lifted_margin
    >>> from perceptron_lib.experiments.convergence import proof_steps
    >>> X, y = hadamard_example(8)
    >>> trace = training_trace(Perceptron(shuffle=False), X, y)
    >>> steps = proof_steps(trace, X, max_lifted_margin(X, y).unit_vector)
    >>> [ax.get_ylabel() for ax in plot_proof_steps(steps)]
    ['$u \\\\cdot v_k$', '$\\\\|v_k\\\\|^2$', '$\\\\cos\\\\angle(v_k, u)$']
    >>> plt.close("all")
    """
    import matplotlib.pyplot as plt

    if not isinstance(steps, ProofSteps):
        raise TypeError(f"steps must be ProofSteps, got {type(steps).__name__}.")
    if axes is None:
        _, axes = plt.subplots(3, 1, figsize=(4.8, 8.0), facecolor="white", layout="constrained")
    axes = np.asarray(axes).ravel()
    if axes.shape != (3,):
        raise ValueError(f"axes must hold three Axes, got {axes.shape[0]}.")
    k = steps.k
    panels = (
        (steps.alignment, k * steps.gamma, r"$u \cdot v_k$", r"$k\gamma$ (lower bound)"),
        (steps.squared_norm, k * steps.radius**2, r"$\|v_k\|^2$", r"$kR^2$ (upper bound)"),
        (
            steps.cosine,
            np.sqrt(k) * steps.gamma / steps.radius,
            r"$\cos\angle(v_k, u)$",
            r"$\sqrt{k}\,\gamma/R$ (lower bound)",
        ),
    )
    for ax, (measured, bound, name, bound_name) in zip(axes, panels, strict=True):
        ax.plot(k, measured, "o-", color=MEASURED, markersize=3, label="the run")
        ax.plot(k, bound, "--", color=BOUND, label=bound_name)
        ax.set_xlabel("update $k$")
        ax.set_ylabel(name)
        ax.legend(frameon=False)
    axes[2].axhline(1.0, color="0.5", linewidth=0.8)
    return axes


def plot_bound_vs_mistakes(
    bound: ArrayLike, mistakes: ArrayLike, ax: Axes | None = None, *, label: str = "data sets"
) -> Axes:
    """Log-log scatter of measured mistakes against the bound, with the line count = bound.

    Every point must lie on or below the line: that is the theorem.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> ax = plot_bound_vs_mistakes([10.0, 100.0], [3, 20])
    >>> ax.get_xscale(), ax.get_yscale()
    ('log', 'log')
    >>> plt.close("all")
    """
    bound = np.asarray(bound, dtype=float)
    mistakes = np.asarray(mistakes, dtype=float)
    if bound.shape != mistakes.shape or bound.ndim != 1:
        raise ValueError("bound and mistakes must be 1-d arrays of the same length.")
    if np.any(bound <= 0) or np.any(mistakes <= 0):
        raise ValueError("bound and mistakes must be positive for a log-log plot.")
    ax = _get_axes(ax, figsize=(5, 4))
    ax.scatter(bound, mistakes, s=18, color=MEASURED, label=label, zorder=3)
    low, high = min(bound.min(), mistakes.min()) / 1.5, bound.max() * 1.5
    ax.plot([low, high], [low, high], "--", color=BOUND, label=r"mistakes $= (R/\gamma)^2$")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel(r"bound $(R/\gamma)^2$, lifted $R$ and $\gamma$")
    ax.set_ylabel("mistakes made")
    ax.legend(frameon=False)
    return ax


def plot_weight_norm(trace: TrainingTrace, ax: Axes | None = None, *, label: str = "") -> Axes:
    """The length ``||(b, w)||`` of the lifted weights after every step of a run.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from perceptron_lib import Perceptron, make_xor, training_trace
    >>> X, y = make_xor()
    >>> trace = training_trace(Perceptron(shuffle=False, max_iter=5), X, y)
    >>> ax = plot_weight_norm(trace)
    >>> len(ax.get_lines())
    1
    >>> plt.close("all")
    """
    if not isinstance(trace, TrainingTrace):
        raise TypeError(f"trace must be a TrainingTrace, got {type(trace).__name__}.")
    ax = _get_axes(ax, figsize=(5, 3.2))
    norms = np.hypot(np.linalg.norm(trace.weights, axis=1), trace.bias)
    epochs = (np.arange(trace.n_steps) + 1) / trace.labels.shape[0]
    ax.plot(epochs, norms, color=MEASURED, linewidth=1, label=label or None)
    ax.set_xlabel("epochs")
    ax.set_ylabel(r"$\|(b, \mathbf{w})\|$")
    ax.set_ylim(bottom=0)
    if label:
        ax.legend(frameon=False)
    return ax


def plot_bound_case(case: BoundCase, ax: Axes | None = None) -> Axes:
    """Draw a :class:`~perceptron_lib.experiments.convergence.BoundCase`: data, boundaries, bound.

    The boundary with the largest lifted margin is drawn solid with its
    positive side shaded, the perceptron's dashed; the title gives the lifted
    ``R`` and ``gamma``, the bound and the mistakes made.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from perceptron_lib.experiments.convergence import bound_case
    >>> ax = plot_bound_case(bound_case(0.2, random_state=1))
    >>> "bound" in ax.get_title()
    True
    >>> plt.close("all")
    """
    if not isinstance(case, BoundCase):
        raise TypeError(f"case must be a BoundCase, got {type(case).__name__}.")
    ax = plot_data(case.X, case.y, ax=ax)
    plot_boundary(case.best.coef, case.best.intercept, ax=ax, show_weight_vector=False)
    n_lines = len(ax.get_lines())
    model = case.model
    plot_boundary(
        model.coef_, model.intercept_, ax=ax, shade=False, show_weight_vector=False, color="0.3"
    )
    for line in ax.get_lines()[n_lines:]:
        line.set_linestyle("--")
    ax.set_title(
        f"R = {case.lifted_radius:.2f}, γ = {case.best.margin:.3f}\n"
        f"bound {case.bound:.0f}, mistakes {case.mistakes}",
        fontsize="medium",
    )
    legend = ax.get_legend()
    if legend is not None:
        legend.remove()
    return ax


def plot_tau_boundaries(X: ArrayLike, y: ArrayLike, models: dict, widest, axes=None):
    """The margin perceptron's boundary for several tau, against the maximum-margin one.

    One panel per entry of ``models``, stacked one above the other (a phone
    shows one column): the data, the model's boundary (solid, positive side
    shaded), the maximum-margin boundary (dotted, grey) and, in the title, tau
    and the margin the model reached on ``(X, y)``.

    Parameters
    ----------
    X : array-like of shape (n_samples, 2)
    y : array-like of shape (n_samples,)
    models : dict of float to fitted linear model
        tau to a model with ``coef_`` and ``intercept_`` (a
        :class:`~perceptron_lib.MarginPerceptron`, or a perceptron for tau = 0).
    widest : MaxMarginResult
        From :func:`perceptron_lib.theory.separability.max_margin`: ``coef`` and ``intercept``.
    axes : sequence of matplotlib Axes, optional
        One per model; a new figure of stacked panels if omitted.

    Returns
    -------
    numpy.ndarray of matplotlib Axes

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from perceptron_lib import Perceptron, make_separable
    >>> from perceptron_lib.theory.separability import max_margin
    >>> data = make_separable(20, margin=0.1, random_state=0)
    >>> model = Perceptron(random_state=0).fit(data.X, data.y)
    >>> axes = plot_tau_boundaries(data.X, data.y, {0.0: model}, max_margin(data.X, data.y))
    >>> axes[0].get_title().startswith("tau = 0: margin")
    True
    >>> plt.close("all")
    """
    import matplotlib.pyplot as plt

    from ..theory.geometry import margin

    if not models:
        raise ValueError("models is empty: there is nothing to draw.")
    if axes is None:
        _, axes = plt.subplots(
            len(models),
            1,
            figsize=(4.6, 0.6 + 3.2 * len(models)),
            facecolor="white",
            layout="constrained",
            squeeze=False,
        )
    axes = np.ravel(np.asarray(axes, dtype=object))
    if axes.size != len(models):
        raise ValueError(f"{len(models)} models need as many axes, got {axes.size}.")
    dotted_style = {"shade": False, "show_weight_vector": False, "color": "0.5"}
    for ax, (tau, model) in zip(axes, models.items(), strict=True):
        plot_data(X, y, ax=ax)
        plot_boundary(model.coef_, model.intercept_, ax=ax, show_weight_vector=False)
        n_lines = len(ax.get_lines())
        plot_boundary(widest.coef, widest.intercept, ax=ax, **dotted_style)
        for line in ax.get_lines()[n_lines:]:
            line.set_linestyle(":")
        reached = margin(model.coef_, model.intercept_, X, y)
        ax.set_title(f"tau = {tau:g}: margin {reached:.3f}", fontsize="medium")
        ax.legend().remove()
    return axes


def plot_deviation_bound(
    gammas: ArrayLike,
    bounds: ArrayLike,
    mistakes: int,
    n_visits: int,
    ax: Axes | None = None,
    *,
    title: str = "",
) -> Axes:
    """The bound ``((R + ||zeta||) / gamma)^2`` against ``gamma``, beside the mistakes made.

    Both axes are logarithmic. A solid line is the bound for each ``gamma``, a
    dashed one the mistakes the run made, a dotted one ``n_visits`` (one
    mistake per example visited, the count no run can exceed). The theorem
    says the solid line never dips below the dashed one.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> ax = plot_deviation_bound([0.5, 1.0, 2.0], [90.0, 40.0, 60.0], 8, 100)
    >>> len(ax.get_lines()), ax.get_xscale(), ax.get_yscale()
    (3, 'log', 'log')
    >>> plt.close("all")
    """
    gammas = np.asarray(gammas, dtype=float)
    bounds = np.asarray(bounds, dtype=float)
    if gammas.shape != bounds.shape or gammas.ndim != 1:
        raise ValueError("gammas and bounds must be 1-d arrays of the same length.")
    if np.any(gammas <= 0) or np.any(bounds <= 0) or mistakes <= 0 or n_visits <= 0:
        raise ValueError("gammas, bounds, mistakes and n_visits must be positive (log axes).")
    ax = _get_axes(ax, figsize=(4.6, 3.4))
    ax.plot(gammas, bounds, color=BOUND, label="bound")
    ax.axhline(n_visits, color="0.4", linestyle=":", label="examples visited")
    ax.axhline(mistakes, color=MEASURED, linestyle="--", label="mistakes made")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel(r"margin $\gamma$ (lifted)")
    ax.set_ylabel("mistakes")
    if title:
        ax.set_title(title, fontsize="medium")
    ax.legend(frameon=False, fontsize="small")
    return ax
