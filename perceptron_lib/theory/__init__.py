"""The theory of the perceptron, as numbers a reader can compute and check.

- :mod:`~perceptron_lib.theory.geometry`: distance, margin, radius, the mistake
  bound, separability and the largest margin (chapters 2 and 5);
- :mod:`~perceptron_lib.theory.losses`: the 0/1 loss and the perceptron
  criterion (chapter 4);
- :mod:`~perceptron_lib.theory.convergence`: the convergence theorem's
  quantities in the lifted space, and its proof checked along a run (chapter 5);
- :mod:`~perceptron_lib.theory.averaging`: voting and averaging taken apart
  (chapter 6).

The names of :mod:`~perceptron_lib.theory.geometry` are importable from here too
(``from perceptron_lib.theory import margin``).
"""

from .geometry import (
    MaxMarginResult,
    is_linearly_separable,
    margin,
    max_margin,
    mistake_bound,
    radius,
    signed_distance,
)

__all__ = [
    "MaxMarginResult",
    "is_linearly_separable",
    "margin",
    "max_margin",
    "mistake_bound",
    "radius",
    "signed_distance",
]
