"""The verdict on a wrong answer, and the refusals made before any case is run.

:class:`ExerciseFailure` is what every check raises; :func:`not_written` stops
a check on an answer that still holds the scaffold's ``...``;
:func:`refuse_calls` stops a function that calls the library's own answer.
"""

from __future__ import annotations

import dis
import functools
import importlib
import sys
from collections.abc import Callable, Iterator, Sequence
from types import CodeType, FunctionType, ModuleType
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


def _code_objects(code: CodeType) -> Iterator[CodeType]:
    """``code`` and every code object nested in it (inner functions, lambdas, comprehensions)."""
    yield code
    for constant in code.co_consts:
        if isinstance(constant, CodeType):
            yield from _code_objects(constant)


def _objects_used(
    function: Callable, seen: set[int], label: str = "functools.partial"
) -> Iterator[tuple[str, Any]]:
    """``(name, object)`` for everything ``function`` can reach by a name it uses.

    A name is looked up where Python would look it up when the function runs:
    in the function's closure cells, then in its module's globals, and its
    default arguments' values are used by their parameters' names; a module
    the function imports itself is found by its name. An attribute name
    (``pl.lifted_radius``, or ``from perceptron_lib import lifted_radius``
    inside the function) is looked up on every module so reached, and on the
    modules those give (``pl.theory.convergence.lifted_radius``).
    Helpers the student wrote next to the function (functions with the same
    globals, lambdas, ``functools.partial``) are followed in turn; ``seen``
    stops a helper that calls itself, and ``label`` is the name a partial was
    found under.
    """
    if id(function) in seen:
        return
    seen.add(id(function))
    if isinstance(function, functools.partial):
        yield label, function.func
        yield from _objects_used(function.func, seen)
        return
    code = getattr(function, "__code__", None)
    if not isinstance(code, CodeType):
        return
    instructions = [i for c in _code_objects(code) for i in dis.get_instructions(c)]
    names = {i.argval for i in instructions if i.opname in ("LOAD_GLOBAL", "LOAD_NAME")}
    attributes = {
        i.argval for i in instructions if i.opname in ("LOAD_ATTR", "LOAD_METHOD", "IMPORT_FROM")
    }
    # An import inside the function: the module it names, searched like a global one.
    imported = {i.argval for i in instructions if i.opname == "IMPORT_NAME"}
    cells = dict(zip(code.co_freevars, function.__closure__ or (), strict=True))
    namespace = getattr(function, "__globals__", {})
    found: list[tuple[str, Any]] = []
    for used in sorted(names | set(cells)):
        if used in cells:
            try:
                found.append((used, cells[used].cell_contents))
            except ValueError:  # a cell not filled yet
                continue
        elif used in namespace:
            found.append((used, namespace[used]))
    # A default argument is a name the function uses too: def f(X, radius=lifted_radius).
    defaults = dict(
        zip(
            reversed(code.co_varnames[: code.co_argcount]),
            reversed(function.__defaults__ or ()),
            strict=False,
        )
    )
    defaults.update(function.__kwdefaults__ or {})
    found += sorted(defaults.items(), key=lambda item: item[0])
    for module_name in sorted(imported):
        module = sys.modules.get(module_name)
        if module is None:
            try:
                module = importlib.import_module(module_name)
            except Exception:  # noqa: BLE001 - running the function would fail there too
                continue
        found.append((module_name, module))
    modules = [(used, value) for used, value in found if isinstance(value, ModuleType)]
    visited_modules: set[int] = set()
    while modules:  # attribute access, one module deeper at a time
        prefix, module = modules.pop()
        if id(module) in visited_modules:
            continue
        visited_modules.add(id(module))
        for attribute in sorted(attributes):
            value = getattr(module, attribute, None)
            if value is not None:
                found.append((f"{prefix}.{attribute}", value))
                if isinstance(value, ModuleType):
                    modules.append((f"{prefix}.{attribute}", value))
    for used, value in found:
        yield used, value
        # Follow the student's own helpers, not the libraries' (NumPy's functions
        # have other globals), so the walk stays small.
        if isinstance(value, functools.partial) or (
            isinstance(value, FunctionType)
            and (value.__globals__ is namespace or value.__name__ == "<lambda>")
        ):
            yield from _objects_used(value, seen, used)


def refuse_calls(function: Callable, forbidden: Sequence[Callable], *, name: str) -> None:
    """Raise :class:`ExerciseFailure` if ``function`` uses one of the ``forbidden`` functions.

    An exercise that asks for a quantity the chapter computes with a library
    function would be answered by calling it; this check sends the student
    back to the definitions. It compares objects, not names: the library's
    function imported under another name, reached as an attribute
    (``pl.lifted_radius``), given as a default argument, or wrapped in a
    helper, a lambda or a ``functools.partial`` of the student's is refused;
    a student's own function that happens to carry the library's name is
    accepted. It reads the function's code, so it is a first check, given
    in the notebook: an object whose ``__call__`` hides the call escapes it.
    ``make grade`` traces what the function actually enters instead (see
    the course's "Assigning and grading a chapter").

    Parameters
    ----------
    function : callable
        The student's answer.
    forbidden : sequence of callables
        The library's functions themselves (not their names).
    name : str
        The answer's name, for the message.

    Raises
    ------
    ExerciseFailure
        If ``function`` uses one of ``forbidden``.
    TypeError
        If ``forbidden`` holds something other than functions, such as names.

    Examples
    --------
    >>> import perceptron_lib as pl
    >>> from perceptron_lib import lifted_radius
    >>> own = lambda X: max(sum(v * v for v in x) for x in X) ** 0.5
    >>> refuse_calls(own, [lifted_radius], name="R")
    >>> refuse_calls(lambda X: pl.lifted_radius(X), [lifted_radius], name="R")
    Traceback (most recent call last):
    ...
    perceptron_lib.exercises.ExerciseFailure: R calls the library's lifted_radius: the \
exercise is to compute it yourself, from the definitions.
    >>> radius = lifted_radius
    >>> refuse_calls(lambda X: radius(X), [lifted_radius], name="R")
    Traceback (most recent call last):
    ...
    perceptron_lib.exercises.ExerciseFailure: R calls the library's lifted_radius (as radius): \
the exercise is to compute it yourself, from the definitions.
    """
    forbidden = tuple(forbidden)
    if not all(callable(item) for item in forbidden):
        raise TypeError(
            "forbidden must hold the library's functions themselves, not their names; "
            f"got {[type(item).__name__ for item in forbidden]}."
        )
    used: dict[str, str] = {}
    for alias, value in _objects_used(function, set()):
        for library_function in forbidden:
            if value is library_function:
                used.setdefault(library_function.__name__, alias)
    if used:
        # Name the alias only where the student wrote another name (LR, not pl.lifted_radius).
        calls = " and ".join(
            real if alias.rsplit(".", 1)[-1] == real else f"{real} (as {alias})"
            for real, alias in used.items()
        )
        raise ExerciseFailure(
            f"{name} calls the library's {calls}: the exercise is to compute "
            "it yourself, from the definitions."
        )
