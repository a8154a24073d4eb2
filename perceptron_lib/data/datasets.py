"""Data sets for the course: planted separators, logic gates, the sources' examples, real tasks.

Every function returns labels ``-1`` / ``+1`` (the perceptron's convention)
and float features, and is deterministic given ``random_state``. The real
tasks use data that ships with scikit-learn (Pedregosa et al. 2011), so nothing
is downloaded.

Each kind lives in its own module; this one gathers their names, so that
``from perceptron_lib.data.datasets import logic_gate`` finds every data set:

- :mod:`~perceptron_lib.data.separable`: data with a planted separator;
- :mod:`~perceptron_lib.data.boolean`: logic gates, at-least-m-of-n, XOR;
- :mod:`~perceptron_lib.data.examples`: the sources' small worked examples and
  a tiny corpus of reviews;
- :mod:`~perceptron_lib.data.tasks`: real tasks shipped with scikit-learn.
"""

from .boolean import at_least_m_of_n, logic_gate, make_xor
from .examples import (
    lecture_notes_example,
    min_lift_example,
    sentiment_example,
    three_points_example,
)
from .separable import SeparableData, make_separable
from .tasks import load_breast_cancer_task, load_digits_pair, load_iris_pair

__all__ = [
    "SeparableData",
    "at_least_m_of_n",
    "lecture_notes_example",
    "load_breast_cancer_task",
    "load_digits_pair",
    "load_iris_pair",
    "logic_gate",
    "make_separable",
    "make_xor",
    "min_lift_example",
    "sentiment_example",
    "three_points_example",
]
