"""The kernel explorer: the perceptron in dual form, its regions for a kernel (chapter 7)."""

from __future__ import annotations

import ipywidgets as ipw
from matplotlib.figure import Figure
from numpy.typing import ArrayLike

from ..figures.drawing import _as_points
from .panel import _explorer

__all__ = ["kernel_explorer"]


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
