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
"""

from __future__ import annotations

import copy
import inspect
import traceback
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from ._values import describe, mismatch, ordinal, size, unchanged

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

# A hint may depend on the failing case: it is then a function of the case's
# arguments (by name), the returned value and the expected value, and returns
# one hint, None, or a list of the diagnoses that fit this case (see check_function).
Hint = str | Callable[[Mapping[str, Any], Any, Any], str | list[str] | None] | None


def diagnose(got: Any, expected: Any, mistakes: Sequence[tuple[Any, str]]) -> list[str]:
    """Return the hints of the suspected mistakes that reproduce ``got`` on this case.

    Each mistake is ``(value, hint)``: ``value`` is what a function with that
    mistake returns on the case (recomputed by the checker), ``hint`` what to
    tell the student. A mistake fits when it changes the answer on this case
    (its value is not ``expected``) and the student returned its value. Used
    by hint functions, so that a hint is only ever given when it is confirmed
    (see ``hint`` in :func:`check_function`).

    Examples
    --------
    >>> w, x, b = [0.0, 0.0], [1.0, 1.0], -0.5
    >>> expected = 0.0 * 1.0 + 0.0 * 1.0 + b
    >>> diagnose(0, expected, [(0.0, "add b"), (int(expected), "no int()")])
    ['add b', 'no int()']
    >>> diagnose(-0.5, expected, [(0.0, "add b")])  # right: no diagnosis
    []
    """
    return [
        hint
        for value, hint in mistakes
        if mismatch(value, expected) is not None and mismatch(got, value) is None
    ]


class ExerciseFailure(AssertionError):
    """A student's answer is wrong; the message says on which case and how.

    It is an ``AssertionError``, so an exercise check behaves like an
    ``assert`` in a notebook or under pytest (and nbgrader marks the cell
    failed). In Jupyter it shows as its message alone: the checker's own
    frames would only bury the verdict under a screenful of traceback.
    """

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


def _failure(
    case: tuple | dict,
    student_function: Callable,
    reference_function: Callable,
    name: str,
    compare: Callable[[Any, Any], bool] | None,
    returns: Sequence[str] | None = None,
) -> tuple[str, BaseException | None] | None:
    """Run one case; return ``(message, exception)`` if the student is wrong, else ``None``."""
    named = _bind(reference_function, case)
    call = _call_text(name, case, named)
    try:
        expected, _ = _call(reference_function, case)
        expected_error = None
    except Exception as error:  # the reference rejects this input: so must the student
        expected, expected_error = None, error
    try:
        got, arguments_after = _call(student_function, case)
    except Exception as error:
        if expected_error is not None and isinstance(error, type(expected_error)):
            return None
        should = (
            f"should raise {type(expected_error).__name__}"
            if expected_error is not None
            else f"should return {describe(expected)}"
        )
        where = _student_line(error, student_function)
        return f"{call} raised {type(error).__name__} ({error}){where} but {should}.", error
    if expected_error is not None:
        return (
            f"{call} returned {describe(got)} but should raise "
            f"{type(expected_error).__name__} ({expected_error})."
        ), None
    changed = _changed_argument(case, arguments_after, student_function)
    if changed is not None:
        key, before, after = changed
        return (
            f"{call} changed its argument {key} in place, from {describe(before)} to "
            f"{describe(after)}. A function should leave its inputs as they were: compute "
            "a new value (w = w + x) instead of changing the old one (w += x)."
        ), None
    if compare is None:
        reason = mismatch(got, expected, returns)
    else:
        reason = None if compare(got, expected) else ""
    if reason is None:
        return None
    if not reason:
        detail = ""
    elif reason.startswith("the "):  # a full clause: "the second value, new_b, is wrong"
        detail = f" ({reason})"
    else:
        detail = f" (it returned {reason})"
    return f"{call} returned {describe(got)} but should return {describe(expected)}{detail}.", None


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


def _hint_result(
    hint: Callable, case: tuple | dict, student_function: Callable, reference_function: Callable
) -> str | list[str] | None:
    named = _bind(reference_function, case) or {}
    try:
        got, _ = _call(student_function, case)
    except Exception:  # the student's function raised: its message says why, no hint
        return None
    try:
        expected, _ = _call(reference_function, case)
    except Exception as error:  # the student should have raised: the hint gets the error
        expected = error
    try:
        return hint(named, got, expected)
    except Exception:  # nothing to diagnose (an odd value): no hint
        return None


class _Unknown:
    """An expected value equal to nothing: a diagnosis then fits wherever it reproduces ``got``."""

    def __eq__(self, other: object) -> bool:
        return False

    __hash__ = object.__hash__


def _hint_text(
    hint: Hint,
    failing_cases: Sequence[tuple | dict],
    student_function: Callable,
    reference_function: Callable,
    passing_cases: Sequence[tuple | dict] = (),
) -> str | None:
    if hint is None or isinstance(hint, str):
        return hint
    first = _hint_result(hint, failing_cases[0], student_function, reference_function)
    if not isinstance(first, list | tuple | set):
        return first  # one hint for the smallest failing case, as the hint function decided
    # A list of the diagnoses that fit: keep those that fit every failing case,
    # and give a hint only if exactly one is left.
    fitting = set(first)
    for case in failing_cases[1:]:
        if not fitting:
            break
        result = _hint_result(hint, case, student_function, reference_function)
        fitting &= set(result) if isinstance(result, list | tuple | set) else set()
    # A suspected slip must also reproduce the cases the student got right: one that
    # would have failed them is not the student's (asked with an expected value that
    # equals nothing, a diagnosis fits exactly where its value is the student's).
    named_hint = hint
    for case in passing_cases:
        if len(fitting) < 2:
            break
        named = _bind(reference_function, case) or {}
        try:
            got, _ = _call(student_function, case)
            result = named_hint(named, got, _Unknown())
        except Exception:  # a hint function that cannot say: no evidence either way
            continue
        if isinstance(result, list | tuple | set):
            fitting &= set(result)
    return fitting.pop() if len(fitting) == 1 else None


def check_function(
    student_function: Callable,
    reference_function: Callable,
    cases: Sequence[tuple | dict],
    *,
    name: str | None = None,
    compare: Callable[[Any, Any], bool] | None = None,
    hint: Hint = None,
    returns: Sequence[str] | None = None,
) -> None:
    """Check ``student_function`` against ``reference_function`` on ``cases``.

    Every case is run, smallest first (by the total number of elements in its
    arguments, see :func:`size`; ties keep the given order). If all agree,
    print ``All N checks passed for NAME.``; otherwise raise
    :class:`ExerciseFailure` describing the smallest failing case.

    Parameters
    ----------
    student_function : callable
        The function to check.
    reference_function : callable
        A correct function with the same parameters. Its parameter names are
        used to write each case as a call. If it raises on a case, the
        student's function must raise an exception of the same type there.
    cases : list of tuple or dict
        Each case is a tuple of positional arguments or a dict of keyword
        arguments. Each function receives its own copy.
    name : str, optional
        The name shown in messages; default the student's function's name.
    compare : callable, optional
        ``compare(got, expected) -> bool``. Default: exact equality for
        integers, booleans and strings, ``np.allclose`` for floats and arrays,
        with a shape check (see :func:`mismatch`).
    hint : str or callable, optional
        Added to a failure message. A callable gets ``(arguments, got,
        expected)`` of a failing case, with ``arguments`` a dict by parameter
        name (``expected`` is the reference's exception where the student
        should have raised). It returns a hint or ``None`` for the smallest failing case; or,
        better, the list of diagnoses that fit the case (see :func:`diagnose`):
        then a hint is shown only if exactly one diagnosis fits *every*
        failing case, so that a hint is never a guess.
    returns : sequence of str, optional
        Names of the values a function returns as a tuple, used to say which
        one is wrong: "the second value, new_b, is wrong".

    Raises
    ------
    ExerciseFailure
        The smallest case where the student's function returns a wrong value,
        returns a value where it should raise, raises where it should not, or
        changes one of its arguments in place.

    Examples
    --------
    >>> def reference(w, x, b):
    ...     return sum(wi * xi for wi, xi in zip(w, x)) + b
    >>> def student(w, x, b):
    ...     return sum(wi * xi for wi, xi in zip(w, x))
    >>> cases = [([1.0, 2.0], [3.0, 4.0], 0.5), ([1.0], [2.0], 0.0)]
    >>> check_function(reference, reference, cases, name="activation")
    All 2 checks passed for activation.
    >>> check_function(student, reference, cases, name="activation")
    Traceback (most recent call last):
    ...
    perceptron_lib.exercises.ExerciseFailure: activation(w=[1.0, 2.0], x=[3.0, 4.0], b=0.5)
    returned 11.0 but should return 11.5.
    1 of 2 checks failed; this is the smallest.
    """
    if not callable(student_function):
        raise TypeError(
            f"Pass the function itself, not the result of calling it: got a "
            f"{type(student_function).__name__}."
        )
    cases = _validate_cases(cases)
    if name is None:
        name = getattr(student_function, "__name__", "<lambda>")
        if name == "<lambda>":
            name = getattr(reference_function, "__name__", "your function")
    failures = []
    for case in sorted(cases, key=size):  # sorted() is stable: ties keep their order
        failure = _failure(case, student_function, reference_function, name, compare, returns)
        if failure is not None:
            failures.append((case, *failure))
    if not failures:
        print(f"All {len(cases)} checks passed for {name}.")
        return
    case, message, error = failures[0]
    message += f"\n{len(failures)} of {len(cases)} checks failed; this is the smallest."
    failing_cases = [failing_case for failing_case, *_ in failures]
    passing_cases = [case for case in cases if all(case is not f for f in failing_cases)]
    hint_text = _hint_text(
        hint, failing_cases, student_function, reference_function, passing_cases
    )
    if hint_text:
        message += f"\nHint: {hint_text}"
    # From None: the student's exception is summed up in the message (with the line
    # that raised it); its chained traceback would be some forty lines to scroll past.
    raise ExerciseFailure(message) from None


def check_value(answer: Any, expected: Any, *, name: str, hint: str | None = None) -> None:
    """Check a value the student computed (by hand or in code) against ``expected``.

    Uses the same comparison as :func:`check_function`; prints one line on
    success and raises :class:`ExerciseFailure` otherwise.

    Examples
    --------
    >>> check_value(0.734, 0.8 * 0.37 + 0.6 * 0.73, name="the projection")
    The projection is right: 0.734.
    >>> check_value(0.73, 0.734, name="the projection", hint="Multiply coordinate by coordinate.")
    Traceback (most recent call last):
    ...
    perceptron_lib.exercises.ExerciseFailure: the projection is 0.73 but should be 0.734.
    Hint: Multiply coordinate by coordinate.
    """
    reason = mismatch(answer, expected)
    if reason is None:
        print(f"{name[:1].upper()}{name[1:]} is right: {describe(answer)}.")
        return
    if not reason:
        detail = ""
    elif reason.startswith("the "):  # a full clause: "the second value is wrong"
        detail = f" ({reason})"
    else:
        detail = f" (it is {reason})"
    message = f"{name} is {describe(answer)} but should be {describe(expected)}{detail}."
    if hint:
        message += f"\nHint: {hint}"
    raise ExerciseFailure(message)
