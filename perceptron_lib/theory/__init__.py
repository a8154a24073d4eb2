"""The theory of the perceptron, as numbers a reader can compute and check.

Nothing here trains an estimator: these modules need NumPy and SciPy only
(what trains a perceptron to check the theory is in
:mod:`~perceptron_lib.experiments`).

- :mod:`~perceptron_lib.theory.geometry`: distance, margin, radius, the mistake
  bound (chapter 2);
- :mod:`~perceptron_lib.theory.separability`: is a data set linearly
  separable, and its largest margin (chapters 2 and 5);
- :mod:`~perceptron_lib.theory.losses`: the 0/1 loss and the perceptron
  criterion (chapter 4);
- :mod:`~perceptron_lib.theory.convergence`: the convergence theorem's
  quantities in the lifted space (chapter 5);
- :mod:`~perceptron_lib.theory.nonseparable`: the mistake bound on any data,
  from the deviations of the examples (chapter 5);
- :mod:`~perceptron_lib.theory.averaging`: the vote and the weighted sum,
  written out (chapter 6);
- :mod:`~perceptron_lib.theory.kesler`: Kesler's construction, many classes as
  one binary problem, with the multiclass margin, radius and mistake bound;
- :mod:`~perceptron_lib.theory.joint_features`: the joint feature map of a
  labelled sequence, named (the structured perceptron, chapter 9);
- :mod:`~perceptron_lib.theory.structured_bound`: Collins' margin, radius,
  deviation and mistake bounds for it, by brute force on small problems;
- :mod:`~perceptron_lib.theory.checks`: the argument checks they share.

The names of :mod:`~perceptron_lib.theory.geometry` and
:mod:`~perceptron_lib.theory.separability` are importable from here too
(``from perceptron_lib.theory import margin``).
"""

from .geometry import margin, mistake_bound, radius, signed_distance
from .nonseparable import (
    DeviationBound,
    best_deviation_bound,
    best_direction,
    deviation_bound,
    deviations,
)
from .separability import MaxMarginResult, is_linearly_separable, max_margin

__all__ = [
    "DeviationBound",
    "MaxMarginResult",
    "best_deviation_bound",
    "best_direction",
    "deviation_bound",
    "deviations",
    "is_linearly_separable",
    "margin",
    "max_margin",
    "mistake_bound",
    "radius",
    "signed_distance",
]
