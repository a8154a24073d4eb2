"""The measured comparisons the chapters run: seeded, small, and repeatable.

- :mod:`~perceptron_lib.experiments.training`: the order of the examples, and
  error per pass (chapter 4); its names are importable from here;
- :mod:`~perceptron_lib.experiments.convergence`: the convergence proof along
  a recorded run, the mistake bound against measured counts (chapter 5);
- :mod:`~perceptron_lib.experiments.nonseparable`: directions for the
  mistake bound on any data, and its proof along a run (chapter 5);
- :mod:`~perceptron_lib.experiments.averaging`: voting and averaging taken
  apart on real runs, the cost of a prediction (chapter 6);
- :mod:`~perceptron_lib.experiments.at_scale`: what is sequential in a run and
  what changes it, Amdahl's law (the appendix on scale);
- :mod:`~perceptron_lib.experiments.speculation`: where a speculative epoch's
  time goes (the appendix);
- :mod:`~perceptron_lib.experiments.mixing`: parameter mixing's accuracy, time
  and data movement per round (the appendix; needs Dask).
"""

from .training import ErrorCurve, OrderingResult, error_by_epoch, ordering_experiment

__all__ = ["ErrorCurve", "OrderingResult", "error_by_epoch", "ordering_experiment"]
