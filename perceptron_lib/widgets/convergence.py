"""An explorer for the convergence theorem: change the margin and radius, watch bound and count.

For readers with a kernel; the chapter shows small multiples of the same view
(:func:`perceptron_lib.figures.convergence.plot_bound_case`) as its static
counterpart. Like every explorer of :mod:`perceptron_lib.widgets`, the drawing is a plain
function (``_bound_view``) so that it is tested without a browser.
"""

from __future__ import annotations

import ipywidgets as ipw
from matplotlib.figure import Figure

from ..experiments.convergence import bound_case
from ..figures.convergence import plot_bound_case
from .panel import _explorer, _slider


def _bound_view(margin: float, radius: float, seed: int) -> tuple[str, Figure]:
    """Return the numbers and the figure of one seeded data set of that margin and radius."""
    import matplotlib.pyplot as plt

    case = bound_case(min(margin, 0.95 * radius), radius, random_state=seed)
    text = "\n".join(
        [
            f"planted margin        {min(margin, 0.95 * radius):8.3f}",
            f"lifted radius R       {case.lifted_radius:8.3f}",
            f"largest lifted margin {case.best.margin:8.3f}",
            f"bound (R / gamma)^2   {case.bound:8.1f}",
            f"mistakes made         {case.mistakes:8d}",
            f"mistakes / bound      {case.mistakes / case.bound:8.3f}",
        ]
    )
    fig, ax = plt.subplots(figsize=(4.5, 4.5), facecolor="white", layout="constrained")
    plot_bound_case(case, ax=ax)
    return text, fig


def bound_explorer() -> ipw.VBox:
    """Sliders for the planted margin and radius of a data set (and its seed).

    Each change makes a new separable data set of 60 examples, computes the
    lifted radius, the largest lifted margin and the bound, trains the
    perceptron and shows the data, the two boundaries and the numbers.
    """
    margin = _slider("margin", 0.1, 0.01, 0.5, 0.01)
    radius = _slider("radius", 1.0, 0.6, 3.0, 0.1)
    seed = ipw.IntSlider(value=0, min=0, max=20, description="seed", continuous_update=False)
    return _explorer(
        [margin, radius, seed],
        lambda: _bound_view(margin.value, radius.value, seed.value),
    )
