"""perceptron_lib: the perceptron, exactly and fast.

The library behind the executable perceptron course: four scikit-learn
classifiers (:class:`Perceptron`, :class:`AveragedPerceptron`,
:class:`VotedPerceptron`, :class:`BatchPerceptron`), a training trace for
teaching, the theory (margin, radius, mistake bound, separability), data sets,
feature maps, plots and widgets.
"""

from .averaged import AveragedPerceptron
from .batch import BatchPerceptron
from .perceptron import Perceptron
from .trace import TrainingTrace, training_trace
from .voted import VotedPerceptron

__all__ = [
    "AveragedPerceptron",
    "BatchPerceptron",
    "Perceptron",
    "TrainingTrace",
    "VotedPerceptron",
    "training_trace",
]
