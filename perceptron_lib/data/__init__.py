"""Data for the course, and the feature maps that change what a perceptron can separate.

- :mod:`~perceptron_lib.data.datasets`: planted separators, logic gates, the
  sources' worked examples, and real tasks that ship with scikit-learn;
- :mod:`~perceptron_lib.data.features`: the constant feature and products
  (conjunctions) of pairs of features (chapters 1 and 7);
- :mod:`~perceptron_lib.data.sequences`: constructed strings of real
  handwritten digits that follow a grammar, for sequence labelling (chapter 9).

Every name of these is importable from here (``from perceptron_lib.data import make_xor``).
"""

from .datasets import (
    SeparableData,
    at_least_m_of_n,
    lecture_notes_example,
    load_breast_cancer_task,
    load_digits_pair,
    load_iris_pair,
    logic_gate,
    make_separable,
    make_xor,
    min_lift_example,
    sentiment_example,
    three_points_example,
)
from .examples import three_groups_example
from .features import (
    PairwiseProducts,
    add_constant_feature,
    n_conjunction_features,
    pairwise_products,
)
from .sequences import downsample_digits, load_digit_strings

__all__ = [
    "PairwiseProducts",
    "SeparableData",
    "add_constant_feature",
    "at_least_m_of_n",
    "downsample_digits",
    "lecture_notes_example",
    "load_breast_cancer_task",
    "load_digit_strings",
    "load_digits_pair",
    "load_iris_pair",
    "logic_gate",
    "make_separable",
    "make_xor",
    "min_lift_example",
    "n_conjunction_features",
    "pairwise_products",
    "sentiment_example",
    "three_groups_example",
    "three_points_example",
]
