"""The course's figures and animations, drawn with matplotlib.

Importing :mod:`perceptron_lib` does not import this subpackage (nor
matplotlib); the ``plot_*`` and ``animat*`` names of :mod:`perceptron_lib`
import their module on first use.

- :mod:`~perceptron_lib.figures.geometry`: data, a boundary, the margin band,
  projections (chapters 2-3);
- :mod:`~perceptron_lib.figures.training`: one update drawn in the plane,
  mistakes per epoch (chapters 3-4);
- :mod:`~perceptron_lib.figures.regions`: decision regions, a threshold unit's
  truth table (chapter 1 and on);
- :mod:`~perceptron_lib.figures.drawing`: the drawing primitives they share;
- :mod:`~perceptron_lib.figures.animation`: training as a film, one frame per
  update, playable in a static page;
- :mod:`~perceptron_lib.figures.curves`: error per pass, spread over runs, a loss
  along a line (chapter 4);
- :mod:`~perceptron_lib.figures.convergence`: the proof along a run, bound
  against count (chapter 5);
- :mod:`~perceptron_lib.figures.voting`: the voted perceptron's vectors and
  votes (chapter 6);
- :mod:`~perceptron_lib.figures.beyond_linear`: lifted data in 3-D, a kernel
  perceptron's regions (chapter 7);
- :mod:`~perceptron_lib.figures.scale`: mistakes over a run, speed-ups,
  parameter mixing (the appendix on scale);
- :mod:`~perceptron_lib.figures.many_classes`: class scores along a line,
  accuracies over runs, learnt transition weights (chapter 9);
- :mod:`~perceptron_lib.figures.legibility`: how large a figure's text is on a
  phone (the tests hold every figure to it).

Conventions that hold for every figure:

- every function draws on ``ax`` (a new figure when ``ax`` is None) and
  returns the Axes, so plots compose;
- the figure background is opaque white, so the figure reads on light and
  dark page themes;
- the two classes differ in colour (blue and vermilion, a colour-blind-safe
  pair from Okabe and Ito's palette) *and* in marker (circle and filled plus);
- labels are ``0/1`` or ``-1/+1``; the positive class is label 1;
- two-dimensional geometry uses equal aspect, so that ``w`` really looks
  perpendicular to the boundary, and lines are clipped to the axes limits.
"""
