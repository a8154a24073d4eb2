"""Interactive explorers (ipywidgets) for readers with a running kernel.

Importing :mod:`perceptron_lib` does not import this subpackage (nor
ipywidgets or matplotlib): ``from perceptron_lib.widgets import gate_explorer``.

- :mod:`~perceptron_lib.widgets.explorers`: a unit's gates, the geometry of a
  separator, training step by step, voting, kernels (chapters 1-3, 6, 7); its
  explorers are importable from here;
- :mod:`~perceptron_lib.widgets.convergence`: margin and radius against the
  mistake bound (chapter 5);
- :mod:`~perceptron_lib.widgets.scale`: parameter mixing for a chosen number of
  shards (the appendix on scale; needs Dask).
"""

from .explorers import (
    gate_explorer,
    geometry_explorer,
    kernel_explorer,
    training_explorer,
    voting_explorer,
)

__all__ = [
    "gate_explorer",
    "geometry_explorer",
    "kernel_explorer",
    "training_explorer",
    "voting_explorer",
]
