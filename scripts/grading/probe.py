"""Inside the student's kernel: run the student's function on the cases, write the results.

The grader replaces each locked test cell by a call to :func:`run`. It calls the
chapter's checker as the test cell would, but the checker's ``check_function``
is replaced by a recorder: it calls the function it is given (the student's, or
the checker's wrapper around it) on the cases the grader chose (the public ones
and hidden ones) and appends, case by case, what came back to a file of JSON
lines. No reference is run and no expected value exists in this process: the
grader compares the results with the references afterwards, outside.

For a value question (the answer is names the student assigns, ``w, b``),
:func:`values` writes those names' values, as data; the grader runs the checker
on them, outside.

Whatever the notebook does here (patching the checker, inspecting frames,
exception hooks, exits) changes only the values written, never a verdict.
"""

from __future__ import annotations

import copy
import importlib
import importlib.util
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from codec import decode, encode  # noqa: E402

MAX_RECORD = 1_000_000  # characters of one case's results


def _write(path: str, record: dict) -> None:
    line = json.dumps(record)
    if len(line) > MAX_RECORD:
        record = {k: v for k, v in record.items() if k in ("question", "call", "case")}
        record["too_large"] = len(line)
        line = json.dumps(record)
    with open(path, "a", encoding="utf-8") as file:
        file.write(line + "\n")
        file.flush()


def _outcome(function, case):
    arguments = copy.deepcopy(case)
    start = time.perf_counter()
    try:
        if isinstance(arguments, dict):
            value = function(**arguments)
        else:
            value = function(*arguments)
    except BaseException as error:  # noqa: BLE001 - KeyboardInterrupt, SystemExit: reported
        try:
            message = str(error)[:500]
        except BaseException:  # noqa: BLE001
            message = "?"
        return {
            "raised": [kind.__name__ for kind in type(error).__mro__],
            "message": message,
            "seconds": time.perf_counter() - start,
        }
    return {
        "returned": encode(value),
        "after": encode(list(arguments) if isinstance(arguments, tuple) else arguments),
        "seconds": time.perf_counter() - start,
    }


class _Stop(Exception):
    """Stop recording a question's cases (raised by the recorder only)."""


def _fresh(checks, module: str):
    spec = importlib.util.spec_from_file_location(
        f"perceptron_lib.exercises._graded_{module}", checks.__file__
    )
    fresh = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fresh)
    return fresh


def run(
    question: str, module: str, checker: str, function: object, cases_path: str, results_path: str
) -> None:
    """Record ``function``'s results on the grader's cases for ``question``."""
    with open(cases_path, encoding="utf-8") as file:
        calls = [[decode(case) for case in call] for call in json.load(file)[question]]
    checks = importlib.import_module(f"perceptron_lib.exercises.{module}")
    seen = []

    def recorder(student_function, reference_function, cases, **options):
        number = len(seen)
        seen.append(number)
        for index, case in enumerate(calls[number] if number < len(calls) else []):
            outcome = _outcome(student_function, case)
            _write(results_path, {"question": question, "call": number, "case": index, **outcome})
            if "KeyboardInterrupt" in outcome.get("raised", ()):
                raise _Stop  # interrupted (a time-out?): stop this question
            if "MemoryError" in outcome.get("raised", ()):
                raise _Stop  # at the memory limit: the next cases would only wait for it

    # A fresh copy of the checker's module, read from the library's (read-only)
    # file: a checker the notebook replaced or patched is not the one called.
    fresh = _fresh(checks, module)
    fresh.check_function = recorder
    try:
        getattr(fresh, checker)(function)
    except _Stop:
        pass
    except BaseException as error:  # noqa: BLE001 - the checker refused the answer
        _write(
            results_path,
            {
                "question": question,
                "checker_raised": type(error).__name__,
                "message": str(error)[:500],
            },
        )
    _write(results_path, {"question": question, "done": True})
    print(f"The results of {checker} were recorded; the grader compares them.")


def values(question: str, names: list[str], namespace: dict, results_path: str) -> None:
    """Record the values of ``names`` in the notebook's ``namespace`` for ``question``."""
    record: dict = {"question": question, "values": {}, "missing": []}
    for name in names:
        if name in namespace:
            record["values"][name] = encode(namespace[name])
        else:
            record["missing"].append(name)
    _write(results_path, record)
    _write(results_path, {"question": question, "done": True})
    print(f"The values of {', '.join(names)} were recorded; the grader checks them.")
