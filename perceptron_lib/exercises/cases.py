"""Running a function on one case: naming its arguments, calling it on a copy, spotting changes.

A case is a tuple of positional arguments or a dict of keyword arguments. The
helpers here are shared by :mod:`~perceptron_lib.exercises.checking` and
:mod:`~perceptron_lib.exercises.hints` (and by the grading scripts).
"""

from __future__ import annotations

import copy
import inspect
import traceback
from collections.abc import Callable, Sequence
from typing import Any

from ._values import describe, unchanged


def _bind(function: Callable, arguments: tuple | dict) -> dict[str, Any] | None:
    """Name each argument of a case after ``function``'s parameters, if possible."""
    args, kwargs = ((), arguments) if isinstance(arguments, dict) else (arguments, {})
    try:
        bound = inspect.signature(function).bind(*args, **kwargs)
    except (TypeError, ValueError):  # builtins without a signature, or a mismatch
        return None
    return dict(bound.arguments)


def _call_text(name: str, arguments: tuple | dict, named: dict[str, Any] | None) -> str:
    """Write the call as the student would type it: ``name(w=[1.0], b=0.5)``."""
    if named is not None:
        inside = ", ".join(f"{key}={describe(value)}" for key, value in named.items())
    elif isinstance(arguments, dict):
        inside = ", ".join(f"{key}={describe(value)}" for key, value in arguments.items())
    else:
        inside = ", ".join(describe(value) for value in arguments)
    return f"{name}({inside})"


def _call(function: Callable, arguments: tuple | dict) -> Any:
    # Each function gets its own deep copy: neither can disturb the other's
    # input, and the original stays intact for the in-place check and the message.
    arguments = copy.deepcopy(arguments)
    if isinstance(arguments, dict):
        return function(**arguments), arguments
    return function(*arguments), arguments


def _validate_cases(cases: Sequence) -> list[tuple | dict]:
    if isinstance(cases, tuple | dict) or not isinstance(cases, Sequence):
        raise TypeError(
            "cases must be a list of cases, each a tuple of positional arguments "
            f"or a dict of keyword arguments; got a {type(cases).__name__}."
        )
    if len(cases) == 0:
        raise ValueError("cases is empty: a check needs at least one case.")
    for position, case in enumerate(cases):
        if not isinstance(case, tuple | dict):
            raise TypeError(
                f"case {position} is a {type(case).__name__}; each case must be a tuple of "
                "positional arguments (write (x,) for a single argument) or a dict of "
                "keyword arguments."
            )
    return list(cases)


def _student_line(error: BaseException, function: Callable) -> str:
    """Say which line of the student's function raised ``error`` (empty if none did)."""
    code = getattr(function, "__code__", None)
    if code is None:
        return ""
    frames = [
        frame
        for frame in traceback.extract_tb(error.__traceback__)
        if frame.filename == code.co_filename and frame.line
    ]
    return f" at `{frames[-1].line.strip()}`" if frames else ""


def _changed_argument(
    before: tuple | dict, after: tuple | dict, function: Callable
) -> tuple[str, Any, Any] | None:
    """Return ``(name, before, after)`` of the first argument the call changed."""
    if isinstance(before, dict):
        pairs = [(key, before[key], after[key]) for key in before]
    else:
        names = list((_bind(function, before) or {}).keys())
        pairs = [
            (names[i] if i < len(names) else f"number {i + 1}", b, a)
            for i, (b, a) in enumerate(zip(before, after, strict=True))
        ]
    for key, value_before, value_after in pairs:
        if not unchanged(value_before, value_after):
            return key, value_before, value_after
    return None
