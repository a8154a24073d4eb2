"""In the grader: compare what a student's function returned with the library's references.

For a locked test cell ``chNN.check_name(function)``, :func:`checker_calls`
runs the checker here with a recorder in place of ``check_function``, which
gives the references and the public cases; :func:`hidden_cases` adds cases
made for each student. The sandbox runs only the student's function on them
(:mod:`grading.probe`); :func:`judge` then decides each case as
``check_function`` would (same comparison, same in-place check, same messages,
the smallest failing case reported) and gives points in proportion to the
cases passed, or all or nothing.
"""

from __future__ import annotations

import ast
import contextlib
import copy
import hashlib
import importlib
import inspect
import io
import json
import math
import textwrap
import threading
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from perceptron_lib.exercises import (
    ExerciseFailure,
    _bind,
    _call_text,
    _changed_argument,
    describe,
    mismatch,
)
from perceptron_lib.exercises._values import size

from .codec import decode, encode

# A case's floats are scaled by powers of two (exact in floating point), so a
# hidden case is another instance of the same question, as exact as the public one.
HIDDEN_FACTORS = (0.5, 2.0, 4.0)


@dataclass
class Call:
    """One ``check_function`` call a checker makes: its reference and cases."""

    reference: Any
    cases: list
    name: str
    compare: Any = None
    hint: Any = None
    returns: Any = None
    public: int = 0  # the first ``public`` cases are the checker's own
    hidden: list = field(default_factory=list)
    wrapper: dict | None = None  # the checker's own function of the student's (wrapper_source)


def checker_calls(module: str, checker: str, function_name: str) -> list[Call]:
    """Run ``chNN.checker`` with a recorder: the references and cases it would check."""
    checks = importlib.import_module(f"perceptron_lib.exercises.{module}")
    calls: list[Call] = []

    def recorder(
        student_function,
        reference_function,
        cases,
        *,
        name=None,
        compare=None,
        hint=None,
        returns=None,
    ):
        calls.append(
            Call(
                reference_function,
                list(cases),
                name or function_name,
                compare,
                hint,
                returns,
                public=len(cases),
                wrapper=None
                if student_function is stand_in
                else wrapper_source(student_function, stand_in),
            )
        )

    def stand_in(*args, **kwargs):  # never called: the recorder only keeps the cases
        raise AssertionError

    stand_in.__name__ = function_name
    original = checks.check_function
    checks.check_function = recorder
    try:
        getattr(checks, checker)(stand_in)
    finally:
        checks.check_function = original
    return calls


def permitted(module: str, checker: str) -> list[str]:
    """The checker's permitted helpers (``PERMITTED_HELPERS``), each as ``module:qualname``.

    >>> permitted("ch05", "check_bound_with_deviations")
    ['perceptron_lib.data.features:add_constant_feature', \
'perceptron_lib.theory.convergence:lifted_radius']
    """
    checks = importlib.import_module(f"perceptron_lib.exercises.{module}")
    return [f"{f.__module__}:{f.__qualname__}" for f in checks.PERMITTED_HELPERS.get(checker, ())]


def wrapper_source(wrapper, student) -> dict:
    """How the fresh sandbox rebuilds the function a checker calls in place of the student's.

    Chapter 7's ``check_poly2_features`` checks ``feature_dot(x, z)``, its own
    function of the student's ``poly2_features``. The fresh sandbox holds no
    checker (:mod:`grading.answer_free`), so it gets that function's source,
    the name under which it calls the student's function (``student``, found
    in its closure) and the modules it uses, which must be outside the
    library: a checker's function that uses the library cannot be sent, and
    raises ``ValueError`` (the grader's error, before any student is graded).
    """
    code = wrapper.__code__
    cells = dict(zip(code.co_freevars, wrapper.__closure__ or (), strict=True))
    student_names = [name for name, cell in cells.items() if cell.cell_contents is student]
    if len(student_names) != 1 or len(cells) != 1:
        raise ValueError(f"{wrapper.__qualname__} closes over {code.co_freevars}: cannot be sent")
    names, todo = set(), [code]
    while todo:
        inner = todo.pop()
        names |= set(inner.co_names)
        todo += [c for c in inner.co_consts if hasattr(c, "co_code")]
    modules = {}
    for name in sorted(names & set(wrapper.__globals__)):
        value = wrapper.__globals__[name]
        if not isinstance(value, type(np)) or value.__name__.split(".")[0] == "perceptron_lib":
            raise ValueError(f"{wrapper.__qualname__} uses {name}: cannot be sent")
        modules[name] = value.__name__
    return {
        "source": textwrap.dedent(inspect.getsource(wrapper)),
        "name": wrapper.__name__,
        "student": student_names[0],
        "modules": modules,
    }


def _scaled(value: Any, factor: float) -> Any:
    if type(value) is float:
        return value * factor
    if isinstance(value, np.ndarray) and value.dtype.kind == "f":
        return value * factor
    if (
        type(value) is list
        and value
        and any(type(item) is float or type(item) is list for item in value)
    ):
        return [_scaled(item, factor) for item in value]
    return value


def _outcome(reference, case) -> tuple[str, Any]:
    try:
        arguments = copy.deepcopy(case)
        value = reference(**arguments) if isinstance(arguments, dict) else reference(*arguments)
    except Exception as error:  # noqa: BLE001
        return "raises", type(error)
    return "returns", value


def hidden_cases(call: Call, seed: str) -> list:
    """Cases made for one student: each public case with its floats scaled.

    A hidden case is kept when it differs from every public case and the
    reference behaves on it as on its public case (returns, or raises the same
    error), so it asks the same question of other numbers.
    """
    rng = np.random.default_rng(int.from_bytes(hashlib.sha256(seed.encode()).digest()[:8]))
    hidden = []
    for case in call.cases:
        if isinstance(case, dict):
            new = {k: _scaled(v, float(rng.choice(HIDDEN_FACTORS))) for k, v in case.items()}
        else:
            new = tuple(_scaled(v, float(rng.choice(HIDDEN_FACTORS))) for v in case)
        if json.dumps(encode(new)) in {json.dumps(encode(c)) for c in call.cases + hidden}:
            continue
        kind, value = _outcome(call.reference, new)
        public_kind, public_value = _outcome(call.reference, case)
        if kind != public_kind or (kind == "raises" and value is not public_value):
            continue
        if kind == "returns" and not _finite(value):
            continue
        hidden.append(new)
    return hidden


def _finite(value: Any) -> bool:
    try:
        return bool(np.all(np.isfinite(np.asarray(value, dtype=float))))
    except (TypeError, ValueError):
        return True


@dataclass
class Verdict:
    """A question's result: points, the cases passed, and why."""

    score: float
    max_score: float
    passed: int
    total: int
    reason: str


def _case_failure(call: Call, case, record: dict) -> str | None:
    """``check_function``'s message for one case, or None when the student is right."""
    named = _bind(call.reference, case)
    text = _call_text(call.name, case, named)
    kind, expected = _outcome(call.reference, case)
    if "raised" in record:
        raised = [str(n) for n in record.get("raised", [])] or ["an exception"]
        if kind == "raises" and expected.__name__ in raised:
            return None
        should = (
            f"should raise {expected.__name__}"
            if kind == "raises"
            else f"should return {describe(expected)}"
        )
        message = str(record.get("message", "")).strip()
        said = f" ({message})" if message else ""
        return f"{text} raised {raised[0]}{said} but {should}."
    got = decode(record.get("returned"))
    if kind == "raises":
        return f"{text} returned {describe(got)} but should raise {expected.__name__}."
    after = decode(record.get("after"))
    if isinstance(case, tuple) and isinstance(after, list) and len(after) == len(case):
        changed = _changed_argument(case, tuple(after), call.reference)
    elif isinstance(case, dict) and isinstance(after, dict) and after.keys() == case.keys():
        changed = _changed_argument(case, after, call.reference)
    else:
        changed = ("its arguments", case, after)
    if changed is not None:
        key, before, now = changed
        return (
            f"{text} changed its argument {key} in place, from {describe(before)} to "
            f"{describe(now)}. A function should leave its inputs as they were."
        )
    try:
        if call.compare is None:
            reason = mismatch(got, expected, call.returns)
        else:
            reason = None if call.compare(got, expected) else ""
    except Exception:  # noqa: BLE001 - a value the comparison cannot read is wrong
        reason = ""
    if reason is None:
        return None
    detail = (
        ""
        if not reason
        else (f" ({reason})" if reason.startswith("the ") else f" (it returned {reason})")
    )
    return f"{text} returned {describe(got)} but should return {describe(expected)}{detail}."


# Why a case has no result: what the sandbox saw, in the grader's words.
def _special(record: dict | None, missing: str) -> str | None:
    if record is None:
        return missing
    raised = record.get("raised") or []
    if "MemoryError" in raised:
        return "memory limit: the function ran out of the memory a submission may use"
    if "KeyboardInterrupt" in raised and missing.startswith("time-out"):
        return missing  # the runner interrupted it: a time-out
    if "KeyboardInterrupt" in raised:
        return "the function raised KeyboardInterrupt (it was not a time-out)"
    if "SystemExit" in raised:
        return "the function called sys.exit() or exit()"
    if record.get("too_large"):
        size_ = f"{record['too_large']:,}"
        return f"the function returned a value too large to record ({size_} characters)"
    return None


def refusal(calls: list[Call], records: list[dict]) -> str | None:
    """Why an answer is refused: it reached the library's code, or switched off the tracing.

    Each result of the fresh sandbox (:mod:`grading.probe`) lists the library's
    functions the student's code entered while it ran (``reached``), and what
    it did to the tracing or to its process (``tampered``).
    """
    name = calls[0].name if calls else "the function"
    reached, tampered, cases = [], [], 0
    for record in records:
        found = [str(f) for f in record.get("reached") or []]
        cases += bool(found)
        reached += [f for f in found if f not in reached]
        tampered += [str(t) for t in record.get("tampered") or [] if str(t) not in tampered]
        if record.get("profiled") is False and "the tracing" not in tampered:
            tampered.append("the tracing")
    if tampered:
        return (
            f"refused: while it was graded, {name} changed or escaped the grader's tracing "
            f"({', '.join(tampered[:3])}); an answer computes its result itself, in this "
            "process. Ask the instructor to read it"
        )
    if reached:
        shown = reached[0] + (f" and {len(reached) - 1} more" if len(reached) > 1 else "")
        run = sum(1 for r in records if "call" in r and "case" in r)
        return (
            f"refused: {name} reached the library's {shown} (in {cases} of the {run} checks "
            "run): the exercise is to compute it yourself, with NumPy and your own functions"
        )
    return None


def judge(
    calls: list[Call],
    records: list[dict],
    max_score: float,
    *,
    partial_credit: bool = True,
    missing: str = "no result",
    answered: bool = True,
) -> Verdict:
    """Score one question from the sandbox's records (see the module's docstring).

    ``answered=False`` (the function is still the released stub, see
    :func:`unanswered`): a question that scores nothing says "not answered"
    instead of the ``NotImplementedError`` the stub raised on each case.
    """
    by_case = {}
    for record in records:
        if isinstance(record.get("call"), int) and isinstance(record.get("case"), int):
            by_case.setdefault((record["call"], record["case"]), record)
    refused = refusal(calls, records)
    if refused is not None:
        total = sum(len(call.cases) + len(call.hidden) for call in calls)
        return Verdict(0.0, max_score, 0, total, refused)
    failures, total, passed = [], 0, 0
    for number, call in enumerate(calls):
        cases = call.cases + call.hidden
        for index, case in enumerate(cases):
            total += 1
            record = by_case.get((number, index))
            special = _special(record, missing)
            message = special if special is not None else _case_failure(call, case, record)
            if message is None:
                passed += 1
            else:
                failures.append((special is not None, size(case), index >= call.public, message))
    checker_error = next((r for r in records if "checker_raised" in r), None)
    done = any(r.get("done") for r in records)
    if done and checker_error is None and not by_case:
        failures.insert(
            0,
            (
                True,
                0,
                False,
                "the checker was called but did not check the "
                "function (was it replaced in the notebook?)",
            ),
        )
    if checker_error is not None and checker_error["checker_raised"] == "KeyboardInterrupt":
        failures.insert(0, (True, 0, False, missing))  # interrupted: the runner knows why
    elif checker_error is not None and passed == 0:
        failures.insert(
            0,
            (
                True,
                0,
                False,
                f"{checker_error['checker_raised']}: {checker_error.get('message', '')}",
            ),
        )
    if total == 0:
        return Verdict(0.0, max_score, 0, 0, "the checker has no cases")
    if not answered and passed == 0:
        return Verdict(0.0, max_score, 0, total, NOT_ANSWERED)
    fraction = passed / total
    score = max_score * fraction if partial_credit else (max_score if passed == total else 0.0)
    score = math.floor(score * 100 + 1e-9) / 100
    if not failures:
        return Verdict(score, max_score, passed, total, "")
    # The first special reason (a time-out, a limit), else the smallest failing case.
    specials = [f for f in failures if f[0]]
    first = specials[0] if specials else min(failures, key=lambda f: f[1])
    hidden = " (a hidden case)" if first[2] else ""
    message = first[3].rstrip().rstrip(".")
    reason = f"{message}{hidden}. {total - passed} of {total} checks failed"
    reason += "." if specials else "; this is the smallest."
    return Verdict(score, max_score, passed, total, " ".join(reason.split()))


NOT_ANSWERED = "not answered (the answer is as the released notebook gave it)"


def _definition(sources: list[str], function: str) -> ast.FunctionDef | None:
    """The last top-level ``def function`` of the cells, as running them in order leaves it."""
    found = None
    for source in sources:
        try:
            tree = ast.parse(source)
        except SyntaxError:
            continue
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and node.name == function:
                found = node
    return found


def unanswered(sources: list[str], function: str | None = None) -> bool:
    """Is the answer still the released stub, that only raises ``NotImplementedError``?

    ``sources`` are the answer cells, in order; ``function`` the function whose
    body is the answer (a docstring before the ``raise`` is not an answer), or
    ``None`` for a value question, whose answer cell is the answer (its imports
    aside).

    >>> stub = "def f(x):\\n    # YOUR CODE HERE\\n    raise NotImplementedError()"
    >>> unanswered([stub], "f"), unanswered(["def f(x):\\n    return x"], "f")
    (True, False)
    >>> unanswered(["import numpy as np\\n# YOUR CODE HERE\\nraise NotImplementedError()"])
    True
    """
    if function is None:  # the cell's imports are the released notebook's too
        try:
            body = [node for source in sources for node in ast.parse(source).body]
        except SyntaxError:
            return False
        body = [node for node in body if not isinstance(node, ast.Import | ast.ImportFrom)]
    else:
        node = _definition(sources, function)
        if node is None:
            return False
        body = node.body
    if len(body) > 1 and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]
    if len(body) != 1 or not isinstance(body[0], ast.Raise):
        return False
    raised = body[0].exc
    if isinstance(raised, ast.Call):
        raised = raised.func
    return isinstance(raised, ast.Name) and raised.id == "NotImplementedError"


def callees(sources: list[str], function: str, among) -> list[str]:
    """The names in ``among`` that ``function`` calls by name, in the order it first calls them.

    >>> callees(["def g(x):\\n    return f(x) + f(1) + len(x)"], "g", {"f", "h"})
    ['f']
    """
    node = _definition(sources, function)
    if node is None:
        return []
    called = []
    for call in ast.walk(node):
        if (
            isinstance(call, ast.Call)
            and isinstance(call.func, ast.Name)
            and call.func.id in among
            and call.func.id != function
            and call.func.id not in called
        ):
            called.append(call.func.id)
    return called


def callee_note(function: str, failed: dict[str, tuple[str, bool]]) -> str:
    """Say that ``function`` calls answers of the notebook that lost points themselves.

    ``failed`` maps each such callee to (its question's grade id, answered?).
    One slip then costs points in two questions: the note names the first one
    to fix. (The answer is still judged as it is, callee included: the grader
    does not guess what it would score with a right callee.)

    >>> callee_note("predict", {"activation": ("ex-ch1-activation", True)})[:59]
    'predict calls activation, your answer to ex-ch1-activation,'
    """
    parts = [
        f"{callee}, your answer to {grade_id}, which "
        + ("lost points in its own checks" if answered else "is not answered")
        for callee, (grade_id, answered) in failed.items()
    ]
    return (
        f"{function} calls {' and '.join(parts)}: what fails there may be what failed "
        "here too, so fix that answer first"
    )


_QUIET = threading.Lock()


def _values_refusal(names_text: str, record: dict) -> str | None:
    """Why a value answer is refused: its cells reached the library, or touched the tracing.

    ``record["reached"]`` maps each answer cell (its number, from 1) that ran
    before the values were read to the library's functions it entered.

    >>> _values_refusal("w, b", {"reached": {"7": ["perceptron_lib.m.fit"]}})[:58]
    'refused: before w, b were read, cell 7 reached the library'
    >>> _values_refusal("w, b", {"reached": {}, "profiled": True}) is None
    True
    """
    tampered = [str(t) for t in record.get("tampered") or []]
    if record.get("profiled") is False and "the tracing" not in tampered:
        tampered.append("the tracing")
    if tampered:
        return (
            f"refused: before {names_text} were read, an answer cell changed or escaped "
            f"the grader's tracing ({', '.join(tampered[:3])}); an answer computes its "
            "values itself. Ask the instructor to read it"
        )
    reached = record.get("reached") or {}
    if not isinstance(reached, dict) or not reached:
        return None
    cell, found = next(iter(reached.items()))
    found = [str(f) for f in found] if isinstance(found, list) else [str(found)]
    more = sum(len(f) if isinstance(f, list) else 1 for f in reached.values()) - 1
    shown = found[0] + (f" and {more} more" if more > 0 else "")
    return (
        f"refused: before {names_text} were read, cell {cell} reached the library's "
        f"{shown}: the exercise is to find the values yourself, by hand or with NumPy "
        "and your own code"
    )


def judge_values(
    module: str,
    checker: str,
    names: list[str],
    keywords: dict,
    records: list[dict],
    max_score: float,
    *,
    missing: str = "no result",
    answer_error: str | None = None,
    answered: bool = True,
) -> Verdict:
    """Score a value question: the chapter's checker run here on the values recorded.

    The fresh sandbox (:mod:`grading.probe`) sent the values of ``names`` (as
    data, :mod:`grading.codec`), read after the answer cells above the test ran
    there, traced. An answer whose cells reached the library's functions (other
    than the exercise's permitted helpers) or changed the tracing is refused.
    Otherwise the checker, imported here from the library, decides: full points
    if it accepts them, none with its message if it does not. ``answer_error``
    is the error the answer cell raised in the notebook's run, if any: then
    nothing is judged (the names may still hold values an earlier cell of the
    chapter gave them), and an answer cell still as released
    (``answered=False``) is "not answered".
    """
    names_text = ", ".join(names)
    written = [r for r in records if "values" in r or "too_large" in r]
    if not written:
        return Verdict(0.0, max_score, 0, 1, missing)
    if len(written) > 1:  # the probe sends one record per question
        return Verdict(
            0.0,
            max_score,
            0,
            1,
            f"the values were recorded {len(written)} times (the grader records them "
            "once): not graded",
        )
    (record,) = written
    refused = _values_refusal(names_text, record)
    if refused is not None:
        return Verdict(0.0, max_score, 0, 1, refused)
    answer_error = answer_error or record.get("answer_raised") or None
    if answer_error and not answered:
        return Verdict(0.0, max_score, 0, 1, NOT_ANSWERED)
    if answer_error:  # its names may still hold the chapter's values: never judged
        return Verdict(
            0.0,
            max_score,
            0,
            1,
            f"the answer cell raised {answer_error}: it must run without an error and "
            f"assign {names_text}",
        )
    if record.get("too_large"):
        size_ = f"{record['too_large']:,}"
        return Verdict(
            0.0, max_score, 0, 1, f"the values are too large to record ({size_} characters)"
        )
    absent = [str(name) for name in record.get("missing", []) if name in names]
    if absent:
        text = " and ".join(absent)
        return Verdict(
            0.0, max_score, 0, 1, f"{text} {'is' if len(absent) == 1 else 'are'} not defined"
        )
    recorded = record.get("values", {})
    arguments = [decode(recorded.get(name)) for name in names]
    checks = importlib.import_module(f"perceptron_lib.exercises.{module}")
    try:
        # The checker prints "Right: ..." when it accepts: kept out of the grader's output
        # (sys.stdout is shared by the grading threads, hence the lock).
        with _QUIET, contextlib.redirect_stdout(io.StringIO()):
            getattr(checks, checker)(*arguments, **keywords)
    except ExerciseFailure as failure:
        return Verdict(0.0, max_score, 0, 1, " ".join(str(failure).split()))
    except Exception as error:  # noqa: BLE001 - values the checker cannot even read
        return Verdict(
            0.0,
            max_score,
            0,
            1,
            f"the values could not be checked ({type(error).__name__}: {str(error)[:200]})",
        )
    return Verdict(float(max_score), max_score, 1, 1, "")
