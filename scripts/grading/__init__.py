"""Grading a class's submissions safely: sandboxed runs, answers judged outside them.

- :mod:`grading.sandbox` runs one submission in a bubblewrap sandbox;
- :mod:`grading.runner` (inside the sandbox) executes the notebook, cell by cell;
  a coding question's test cell runs nothing there;
- :mod:`grading.evaluation` (in the grader) starts a second, fresh sandbox and
  serves it the cases one at a time, over a pipe; the hidden cases are never
  written where the student's code could read them;
- :mod:`grading.probe` (in that fresh sandbox) defines the student's functions
  from the answer cells, runs them on the cases under a trace of the library
  functions they enter, and answers each case with the nonce it came with
  (or, in the notebook's kernel, writes a value question's values);
- :mod:`grading.codec` turns values into JSON and back (never pickles);
- :mod:`grading.judge` (in the grader) compares those results with the
  library's references: scores and reasons;
- :mod:`grading.fill` (an nbgrader preprocessor) puts the verdicts into
  ``nbgrader autograde``, which keeps the gradebook and the feedback as usual.
"""
