"""The course's figures and animations, drawn with matplotlib.

Importing :mod:`perceptron_lib` does not import this subpackage (nor
matplotlib); the ``plot_*`` and ``animat*`` names of :mod:`perceptron_lib`
import their module on first use.

- :mod:`~perceptron_lib.figures.basic`: data, boundaries, margins, projections,
  an update, decision regions, a unit's truth table (chapters 1-4);
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
- :mod:`~perceptron_lib.figures.legibility`: how large a figure's text is on a
  phone (the tests hold every figure to it).
"""
