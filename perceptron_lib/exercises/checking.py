"""The checkers every exercise calls: a function against a reference on cases, or one value.

:func:`check_function` runs the student's function and the library's on every
case, smallest first, and raises :class:`~perceptron_lib.exercises.ExerciseFailure`
naming the smallest case that goes wrong; :func:`check_value` compares one
answer with the expected value.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ._values import describe, mismatch, size
from .cases import _bind, _call, _call_text, _changed_argument, _student_line, _validate_cases
from .failure import ExerciseFailure
from .hints import Hint, _hint_text

__all__ = ["check_function", "check_value"]


def _detail(reason: str, verb: str) -> str:
    """The parenthesis after a wrong value: nothing, the reason's own clause, or ``verb`` + it."""
    if not reason:
        return ""
    if reason.startswith("the "):  # a full clause: "the second value, new_b, is wrong"
        return f" ({reason})"
    return f" ({verb} {reason})"


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
    detail = _detail(reason, "it returned")
    return f"{call} returned {describe(got)} but should return {describe(expected)}{detail}.", None


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
    detail = _detail(reason, "it is")
    message = f"{name} is {describe(answer)} but should be {describe(expected)}{detail}."
    if hint:
        message += f"\nHint: {hint}"
    raise ExerciseFailure(message)
