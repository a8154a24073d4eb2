"""perceptron_lib: the perceptron, exactly and fast.

The library behind the executable perceptron course: four scikit-learn
classifiers (:class:`Perceptron`, :class:`AveragedPerceptron`,
:class:`VotedPerceptron`, :class:`BatchPerceptron`), a training trace for
teaching, the theory (margin, radius, mistake bound, separability), data sets,
feature maps, plots and widgets.

The package is built in layers, and every import runs down (the test
``tests/test_layers.py`` reads them): :mod:`~perceptron_lib.loops`,
:mod:`~perceptron_lib.theory` (NumPy and SciPy only) and
:mod:`~perceptron_lib.data` at the bottom; the estimators (``perceptron.py``,
``averaged.py``, ``voted.py``, ``batch.py``, ``margin.py``, ``kernel.py``) with
the training trace (``trace.py``), the joint multiclass perceptron
(``multiclass.py``), the structured perceptron (``structured.py``), Rosenblatt's form of the rule
(``rosenblatt.py``) and the mixing arithmetic (``mixing.py``); then
:mod:`~perceptron_lib.experiments` and ``distributed.py``; then
:mod:`~perceptron_lib.figures` and :mod:`~perceptron_lib.widgets`; and
:mod:`~perceptron_lib.exercises` at the top. This module gathers the public
names of all of them.

The figures and animations are exported lazily: ``import perceptron_lib`` does
not import matplotlib (nor ipywidgets); the first use of a ``plot_*`` or
``animat*`` name imports its module.
"""

import importlib

from . import exercises
from .averaged import AveragedPerceptron
from .batch import BatchPerceptron
from .data.datasets import (
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
from .data.features import (
    PairwiseProducts,
    add_constant_feature,
    n_conjunction_features,
    pairwise_products,
)
from .experiments.averaging import (  # voting and averaging, measured (chapter 6)
    VotingComparison,
    compare_last_voted_averaged,
    naive_average,
)
from .experiments.convergence import proof_steps
from .experiments.training import ErrorCurve, OrderingResult, error_by_epoch, ordering_experiment
from .kernel import KernelPerceptron
from .loops.viterbi import viterbi
from .margin import MarginPerceptron
from .multiclass import MulticlassPerceptron
from .perceptron import Perceptron
from .rosenblatt import RosenblattRun, rosenblatt_train, rosenblatt_update, threshold_sign
from .structured import StructuredPerceptron
from .theory.averaging import vote, weighted_sum  # voting and averaging, written out
from .theory.convergence import (
    hadamard_example,
    lifted_bound,
    lifted_margin,
    lifted_radius,
    max_lifted_margin,
)
from .theory.geometry import margin, mistake_bound, radius, signed_distance
from .theory.joint_features import joint_feature_map, joint_feature_names
from .theory.kesler import (
    kesler_flatten,
    kesler_lift,
    kesler_radius,
    multiclass_margin,
    multiclass_mistake_bound,
)
from .theory.losses import perceptron_criterion, perceptron_criterion_gradient, zero_one_loss
from .theory.separability import MaxMarginResult, is_linearly_separable, max_margin
from .theory.structured_bound import (
    structured_deviation,
    structured_first_pass_bound,
    structured_margin,
    structured_mistake_bound,
    structured_radius,
)
from .trace import MulticlassTrace, TrainingTrace, training_trace
from .voted import VotedPerceptron

# Names whose modules import matplotlib: imported on first use (see __getattr__).
_LAZY = {
    "animate_training": "figures.animation",
    "animation_html": "figures.animation",
    "plot_error_curve": "figures.curves",
    "plot_loss_profile": "figures.curves",
    "plot_run_spread": "figures.curves",
    "plot_boundary": "figures.geometry",
    "plot_data": "figures.geometry",
    "plot_decision_regions": "figures.regions",
    "plot_margin_band": "figures.geometry",
    "plot_mistakes_per_epoch": "figures.training",
    "plot_projections": "figures.geometry",
    "plot_unit_truth_table": "figures.regions",
    "plot_update": "figures.training",
}


def __getattr__(name: str):
    """Import a figure function's module when the function is first asked for."""
    if name in _LAZY:
        value = getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
        globals()[name] = value  # later look-ups skip this function
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


__all__ = [
    "AveragedPerceptron",
    "BatchPerceptron",
    "KernelPerceptron",
    "Perceptron",
    "TrainingTrace",
    "VotedPerceptron",
    "training_trace",
    # convergence (chapter 5): the lifted quantities, the proof on a run, the margin perceptron
    "MarginPerceptron",
    "hadamard_example",
    "lifted_bound",
    "lifted_margin",
    "lifted_radius",
    "max_lifted_margin",
    "proof_steps",
    # many classes: the joint multiclass perceptron, its trace, Kesler's construction
    "MulticlassPerceptron",
    "MulticlassTrace",
    "kesler_flatten",
    "kesler_lift",
    "kesler_radius",
    "multiclass_margin",
    "multiclass_mistake_bound",
    # self-checking exercises (a subpackage: perceptron_lib.exercises.ch01, ...)
    "exercises",
    # theory
    "MaxMarginResult",
    "is_linearly_separable",
    "margin",
    "max_margin",
    "mistake_bound",
    "radius",
    "signed_distance",
    # data
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
    # feature maps
    "PairwiseProducts",
    "add_constant_feature",
    "n_conjunction_features",
    "pairwise_products",
    # plotting
    "plot_boundary",
    "plot_data",
    "plot_decision_regions",
    "plot_margin_band",
    "plot_mistakes_per_epoch",
    "plot_projections",
    "plot_unit_truth_table",
    "plot_update",
    # animation
    "animate_training",
    "animation_html",
    # the learning rule in Rosenblatt's form; losses; training experiments
    "RosenblattRun",
    "rosenblatt_train",
    "rosenblatt_update",
    "threshold_sign",
    "perceptron_criterion",
    "perceptron_criterion_gradient",
    "zero_one_loss",
    "ErrorCurve",
    "OrderingResult",
    "error_by_epoch",
    "ordering_experiment",
    "plot_error_curve",
    "plot_loss_profile",
    "plot_run_spread",
    # voting and averaging (chapter 6)
    "VotingComparison",
    "compare_last_voted_averaged",
    "naive_average",
    "vote",
    "weighted_sum",
    # structured outputs (chapter 9): sequence labelling, Viterbi, Collins' bound
    "StructuredPerceptron",
    "joint_feature_map",
    "joint_feature_names",
    "structured_deviation",
    "structured_first_pass_bound",
    "structured_margin",
    "structured_mistake_bound",
    "structured_radius",
    "viterbi",
]
