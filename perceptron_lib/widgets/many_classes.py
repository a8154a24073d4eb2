"""An explorer for the multiclass perceptron: step through a run, watch the class scores.

For readers with a kernel; chapter 9 shows small multiples of the same view
(the scores after a few chosen steps, drawn by
:func:`perceptron_lib.figures.many_classes.plot_class_scores`) as its static
counterpart. The drawing is a plain function (``_multiclass_step_view``),
tested without a browser.
"""

from __future__ import annotations

import ipywidgets as ipw
import numpy as np
from matplotlib.figure import Figure

from ..data.examples import three_groups_example
from ..figures.many_classes import plot_class_scores
from ..multiclass import MulticlassPerceptron
from ..trace import MulticlassTrace, training_trace
from .panel import _explorer

#: The chapter's three groups along a line: x, and the class (0 left, 1 middle, 2 right).
THREE_GROUPS_X = three_groups_example()[0].ravel()
THREE_GROUPS_Y = three_groups_example()[1]
GROUP_NAMES = ("left", "middle", "right")


def three_group_trace() -> MulticlassTrace:
    """The recorded run of the multiclass perceptron on the three groups, in their order."""
    model = MulticlassPerceptron(shuffle=False)
    return training_trace(model, THREE_GROUPS_X.reshape(-1, 1), THREE_GROUPS_Y)


def _multiclass_step_view(trace: MulticlassTrace, step: int) -> tuple[str, Figure]:
    """The numbers of step ``step`` of the run, and the class scores after it."""
    import matplotlib.pyplot as plt

    step = int(np.clip(step, 0, len(trace.index) - 1))
    i = trace.index[step]
    true = trace.labels[i]
    scores = ", ".join(f"{s:g}" for s in trace.scores[step])
    text = "\n".join(
        [
            f"step {step} (epoch {trace.epoch[step] + 1})",
            f"example x = {THREE_GROUPS_X[i]:g}, class {true} ({GROUP_NAMES[true]})",
            f"scores before: {scores}",
            f"rival: class {trace.rival[step]}",
            "mistake: " + ("yes, weights updated" if trace.mistake[step] else "no"),
            f"updates so far: {int(trace.mistake[: step + 1].sum())}",
        ]
    )
    fig, ax = plt.subplots(figsize=(4.6, 3.8), facecolor="white", layout="constrained")
    plot_class_scores(
        trace.weights[step],
        trace.bias[step],
        THREE_GROUPS_X,
        THREE_GROUPS_Y,
        class_names=list(GROUP_NAMES),
        ax=ax,
    )
    ax.set_title(f"after step {step}", fontsize="medium")
    return text, fig


def multiclass_step_explorer() -> ipw.VBox:
    """A slider over the steps of the multiclass perceptron's run on the three groups.

    Each position shows the example visited, the scores before the step, the
    rival class, whether it was a mistake, and every class's score line after
    the step.
    """
    trace = three_group_trace()
    step = ipw.IntSlider(
        value=0,
        min=0,
        max=len(trace.index) - 1,
        description="step",
        continuous_update=False,
    )
    return _explorer([step], lambda: _multiclass_step_view(trace, step.value))
