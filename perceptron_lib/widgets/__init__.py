"""Interactive explorers (ipywidgets) for readers with a running kernel.

Importing :mod:`perceptron_lib` does not import this subpackage (nor
ipywidgets or matplotlib): ``from perceptron_lib.widgets import gate_explorer``.

- :mod:`~perceptron_lib.widgets.gates`: a threshold unit against a gate (chapter 1);
- :mod:`~perceptron_lib.widgets.geometry`: a separator's margin and projections
  (chapter 2);
- :mod:`~perceptron_lib.widgets.training`: a run, update by update (chapter 3);
- :mod:`~perceptron_lib.widgets.voting`: the voted perceptron, pass by pass
  (chapter 6);
- :mod:`~perceptron_lib.widgets.kernels`: a kernel perceptron's regions (chapter 7);
- :mod:`~perceptron_lib.widgets.convergence`: margin and radius against the
  mistake bound (chapter 5);
- :mod:`~perceptron_lib.widgets.many_classes`: the multiclass perceptron's run,
  step by step (chapter 9);
- :mod:`~perceptron_lib.widgets.scale`: parameter mixing for a chosen number of
  shards (the appendix on scale; needs Dask);
- :mod:`~perceptron_lib.widgets.panel`: the frame they share (controls above a
  figure and a text panel).

The explorers of chapters 1-3, 6, 7 and 9 are importable from here. Each one's
drawing is a plain function returning text and a figure, tested without a
browser. The static book has no kernel: each chapter pairs an explorer with a
static counterpart (:func:`perceptron_lib.figures.animation.animate_training`,
or small multiples drawn with :mod:`perceptron_lib.figures`).
"""

from .gates import gate_explorer
from .geometry import geometry_explorer
from .kernels import kernel_explorer
from .many_classes import multiclass_step_explorer
from .training import training_explorer
from .voting import voting_explorer

__all__ = [
    "gate_explorer",
    "geometry_explorer",
    "kernel_explorer",
    "multiclass_step_explorer",
    "training_explorer",
    "voting_explorer",
]
