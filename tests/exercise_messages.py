"""What the exercise tests read from a checker's failure: its message and its hint."""

from __future__ import annotations

import re

import pytest

from perceptron_lib.exercises import ExerciseFailure


def failure_of(check, function) -> str:
    """The message of the ExerciseFailure that ``check(function)`` must raise."""
    with pytest.raises(ExerciseFailure) as failure:
        check(function)
    return str(failure.value)


def hint_of(message: str) -> str | None:
    """The text after "Hint: " in a checker's message, or None if it gives no hint."""
    found = re.search(r"^Hint: (.*)$", message, flags=re.MULTILINE)
    return found.group(1) if found else None
