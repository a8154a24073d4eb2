"""The training loops the estimators run: one pass over the data each.

- :mod:`~perceptron_lib.loops.plain`: the loops exactly as in the course's
  pseudocode (Algorithms 5 and 7), the reference every other loop must equal;
- :mod:`~perceptron_lib.loops.sparse`: the same passes over the nonzeros of a
  CSR matrix;
- :mod:`~perceptron_lib.loops.multiclass`: the multiclass perceptron's pass
  (one weight vector per class), dense and CSR;
- :mod:`~perceptron_lib.loops.speculative`: the same runs, scored a block of
  examples at a time (what makes the estimators fast on large dense data);
- :mod:`~perceptron_lib.loops.speculative_scoring`: how a block is scored, four
  activations at a time (and, optionally, over threads);
- :mod:`~perceptron_lib.loops.viterbi`: the best label sequence of a chain
  (what the structured perceptron decodes with), compiled, and its readable twin;
- :mod:`~perceptron_lib.loops.jit`: compiling them with numba when it is
  installed (plain Python otherwise);
- :mod:`~perceptron_lib.warm_up`: compiling them ahead of time
  (``python -m perceptron_lib.warm_up``), so that a first fit is quick.
"""
