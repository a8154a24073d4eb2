"""Self-checking exercises: run a student's function on cases and explain a failure.

Every coding exercise of the course follows one pattern. The student writes a
function; a checker runs it on a list of cases next to a reference function
from the library and either prints one line of success or raises
:class:`ExerciseFailure` naming the *smallest* case that goes wrong, what the
student's function returned, and what it should have returned::

    activation(w=[1.0, 2.0], x=[3.0, 4.0], b=0.5) returned 11.0 but should return 11.5.

The checkers of each chapter live in one module per chapter
(``from perceptron_lib.exercises import ch01``, then ``ch01.check_activation(f)``)
and are thin: they choose the cases and the reference, and
:func:`check_function` does the rest. A new exercise only adds cases.

What a check catches, besides a wrong value:

- an exception raised by the student's function (reported with the case and
  the line of the student's code that raised it);
- a student's function that changes its arguments in place (the library never
  does, and a function that does silently corrupts the caller's data);
- a returned value of the wrong kind or shape (a list of three numbers where
  two were expected, an array where one number was expected).

The engine is split by concern (every name below is importable from here, as
the chapters' checkers ``from . import`` them):

- :mod:`~perceptron_lib.exercises.checking`: :func:`check_function` and
  :func:`check_value`;
- :mod:`~perceptron_lib.exercises.cases`: running a function on one case;
- :mod:`~perceptron_lib.exercises.hints`: which suspected mistake fits;
- :mod:`~perceptron_lib.exercises.failure`: :class:`ExerciseFailure` and the
  refusals made before any case;
- :mod:`~perceptron_lib.exercises._values`: describing and comparing values.
"""

from ._values import describe, mismatch, ordinal, size
from ._values import unchanged as unchanged
from .cases import _bind as _bind  # the grading scripts replay cases with these three
from .cases import _call_text as _call_text
from .cases import _changed_argument as _changed_argument
from .checking import check_function, check_value
from .failure import ExerciseFailure, not_written, refuse_calls
from .hints import Hint as Hint
from .hints import diagnose

__all__ = [
    "ExerciseFailure",
    "check_function",
    "check_value",
    "describe",
    "diagnose",
    "mismatch",
    "not_written",
    "ordinal",
    "refuse_calls",
    "size",
]
