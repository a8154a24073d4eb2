"""Hints: which suspected mistake explains a wrong answer, given only when it is confirmed."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ._values import mismatch
from .cases import _bind, _call

__all__ = ["Hint", "diagnose"]


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
        if not fitting:
            break
        named = _bind(reference_function, case) or {}
        try:
            got, _ = _call(student_function, case)
            result = named_hint(named, got, _Unknown())
        except Exception:  # a hint function that cannot say: no evidence either way
            continue
        if not isinstance(result, list | tuple | set):
            continue
        if len(fitting) >= 2:  # narrowing down: keep the diagnoses that fit this case
            fitting &= set(result)
        # Even a single diagnosis is checked, where the hint function says which of its
        # diagnoses model a whole function (a list with a ``considered`` attribute, the
        # hints weighed on this case): one of those that does not reproduce the
        # student's right answer here is contradicted, so it is no hint but a guess.
        # Other diagnoses may model the failing cases only: a passing case where they
        # are missing says nothing against them.
        considered = getattr(result, "considered", ())
        fitting -= {text for text in considered if text not in result}
    return fitting.pop() if len(fitting) == 1 else None
