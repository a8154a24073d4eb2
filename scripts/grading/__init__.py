"""Grading a class's submissions safely: sandboxed runs, answers judged outside them.

- :mod:`grading.sandbox` runs one submission in a bubblewrap sandbox;
- :mod:`grading.runner` (inside the sandbox) executes the notebook, cell by cell;
- :mod:`grading.probe` (inside the student's kernel) runs the student's functions
  on the cases and writes what they returned, as data (or, for a value
  question, the values of the names it checks);
- :mod:`grading.codec` turns values into JSON and back (never pickles);
- :mod:`grading.judge` (in the grader) compares those results with the
  library's references: scores and reasons;
- :mod:`grading.fill` (an nbgrader preprocessor) puts the verdicts into
  ``nbgrader autograde``, which keeps the gradebook and the feedback as usual.
"""
