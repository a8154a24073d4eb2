"""The verdict on a wrong answer, and the refusals made before any case is run.

:class:`ExerciseFailure` is what every check raises; :func:`not_written` stops
a check on an answer that still holds the scaffold's ``...``;
:func:`refuse_calls` stops a function that calls the library's own answer.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

__all__ = ["ExerciseFailure", "not_written", "refuse_calls"]


class ExerciseFailure(AssertionError):
    """A student's answer is wrong; the message says on which case and how.

    It is an ``AssertionError``, so an exercise check behaves like an
    ``assert`` in a notebook or under pytest (and nbgrader marks the cell
    failed). In Jupyter it shows as its message alone: the checker's own
    frames would only bury the verdict under a screenful of traceback.
    """

    # Students meet it as perceptron_lib.exercises.ExerciseFailure, its public name.
    __module__ = "perceptron_lib.exercises"

    def _render_traceback_(self) -> list[str]:
        # IPython calls this, if it exists, instead of formatting the frames.
        return [f"\x1b[0;31mExerciseFailure\x1b[0m: {self}"]


def not_written(**answers: Any) -> None:
    """Raise :class:`ExerciseFailure` if an answer still holds the ``...`` of its scaffold.

    The students' copies hand out ``w = ...``; a check run on it should say
    what to do, not fail inside NumPy on an ``Ellipsis``.

    Examples
    --------
    >>> not_written(w=[1.0, 2.0], b=0.5)
    >>> not_written(w=[1.0, ...], b=0.5)
    Traceback (most recent call last):
    ...
    perceptron_lib.exercises.ExerciseFailure: w is not written yet: replace each ... by \
your answer (write your answer here).
    """

    def holds_ellipsis(value: Any) -> bool:
        if value is Ellipsis:
            return True
        if isinstance(value, list | tuple):
            return any(holds_ellipsis(item) for item in value)
        return (
            isinstance(value, np.ndarray)
            and value.dtype == object
            and any(holds_ellipsis(item) for item in value.ravel())
        )

    for name, value in answers.items():
        if holds_ellipsis(value):
            raise ExerciseFailure(
                f"{name} is not written yet: replace each ... by your answer "
                "(write your answer here)."
            )


def _names_used(code: Any) -> set[str]:
    """Every global and attribute name a code object (and the functions inside it) uses."""
    names = set(code.co_names)
    for constant in code.co_consts:
        if hasattr(constant, "co_names"):
            names |= _names_used(constant)
    return names


def refuse_calls(function: Callable, names: Sequence[str], *, name: str) -> None:
    """Raise :class:`ExerciseFailure` if ``function`` uses one of the library's ``names``.

    An exercise that asks for a quantity the chapter computes with a library
    function would be answered by calling it; this check sends the student
    back to the definitions.

    Examples
    --------
    >>> from perceptron_lib import lifted_radius
    >>> refuse_calls(lambda X: max(sum(v * v for v in x) for x in X), ["lifted_radius"], name="R")
    >>> refuse_calls(lambda X: lifted_radius(X), ["lifted_radius"], name="R")
    Traceback (most recent call last):
    ...
    perceptron_lib.exercises.ExerciseFailure: R calls the library's lifted_radius: the \
exercise is to compute it yourself, from the definitions.
    """
    code = getattr(function, "__code__", None)
    if code is None:
        return
    used = sorted(set(names) & _names_used(code))
    if used:
        raise ExerciseFailure(
            f"{name} calls the library's {' and '.join(used)}: the exercise is to compute "
            "it yourself, from the definitions."
        )
