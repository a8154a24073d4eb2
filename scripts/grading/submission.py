"""Grade one submitted notebook: prepare it, run it in the sandbox, judge its answers.

:func:`grade_notebook` writes, in the course's ``sandbox/<student>/<assignment>/``
(outside any sandbox), ``<notebook>.ipynb``, the notebook as the sandbox
executed it, and ``<notebook>.json``, the verdict of each graded question.
``nbgrader autograde`` then reads both (:mod:`grading.fill`).

The verdicts carry a key (:func:`run_key`): the submitted notebook, the
source notebook, the credit rule, the sandbox's limits, Python's version and
the grader's and library's code. A grader
stopped before nbgrader recorded the class (Ctrl-C, SIGKILL) leaves finished
runs behind; the next run takes a finished run whose key is the same instead of
running the notebook again, and so resumes where the stopped one was.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import re
import sys
import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path

import nbformat

from . import evaluation, judge, sandbox

CELL_TIMEOUT = 30  # seconds a cell may run before it is interrupted


@dataclass
class Test:
    """A locked test cell of the source: ``chNN.check_name(function)``, or on values.

    A value question's test, ``chNN.check_name(w, b, gate="xor")``, names what
    the answer cell assigns (``names``) and keeps the call's constant keywords.
    """

    grade_id: str
    module: str
    checker: str
    function: str
    points: float
    names: tuple[str, ...] = ()  # a value question's names; empty for a function
    keywords: dict = field(default_factory=dict)


def _defines_function(source: nbformat.NotebookNode, grade_id: str, name: str) -> bool:
    """Does the question's answer cell (``<grade_id>-answer``) define ``name``?"""
    for cell in source.cells:
        if cell.metadata.get("nbgrader", {}).get("grade_id") == f"{grade_id}-answer":
            try:
                tree = ast.parse(cell.source)
            except SyntaxError:
                return False
            return any(
                isinstance(node, ast.FunctionDef) and node.name == name for node in tree.body
            )
    return True  # no answer cell to read: a function question, as before


def tests_of(source: nbformat.NotebookNode) -> dict[str, Test]:
    """The source notebook's graded test cells, by grade id."""
    found = {}
    for cell in source.cells:
        meta = cell.metadata.get("nbgrader", {})
        if cell.cell_type != "code" or not (meta.get("grade") and meta.get("locked")):
            continue
        for node in ast.walk(ast.parse(cell.source)):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Name)
                and re.fullmatch(r"ch\d\d", node.func.value.id)
                and node.args
                and all(isinstance(argument, ast.Name) for argument in node.args)
            ):
                names = tuple(argument.id for argument in node.args)
                grade_id = meta["grade_id"]
                if len(names) == 1 and _defines_function(source, grade_id, names[0]):
                    names = ()
                found[grade_id] = Test(
                    grade_id,
                    node.func.value.id,
                    node.func.attr,
                    node.args[0].id,
                    float(meta.get("points", 0)),
                    names,
                    {k.arg: ast.literal_eval(k.value) for k in node.keywords} if names else {},
                )
                break
    return found


# A test cell, in the notebook's run: the function is called, or the values are
# read, elsewhere, in a fresh sandbox (grading.evaluation), which this run never reaches.
ELSEWHERE = "# This question is graded outside the notebook's process.\n"


def probe_cell(test: Test) -> str:
    return ELSEWHERE


def run_notebook(submitted: nbformat.NotebookNode, tests: dict[str, Test]):
    """The submission with each test cell replaced by the probe; {cell index: grade id}."""
    notebook = nbformat.from_dict(json.loads(json.dumps(submitted)))
    where = {}
    for index, cell in enumerate(notebook.cells):
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
        if cell.cell_type == "code" and grade_id in tests and grade_id not in where.values():
            cell.source = probe_cell(tests[grade_id])
            where[index] = grade_id
    return notebook, where


def _status(path: Path) -> dict:
    try:
        status = json.loads(path.read_text()[:1_000_000])
        return status if isinstance(status, dict) else {}
    except (OSError, ValueError):
        return {}


def _ending(exit_code) -> str:
    if exit_code == 0:
        return "the kernel exited (os._exit, exit() or quit() in the notebook)"
    if isinstance(exit_code, int) and exit_code < 0:
        number = -exit_code
        if number == 24:  # SIGXCPU
            return "the kernel was stopped at the CPU time limit"
        if number == 9:
            return "the kernel was killed (signal 9: memory or a limit)"
        return f"the kernel died (signal {number})"
    if exit_code is None:
        return "the kernel died"
    return f"the kernel exited with code {exit_code}"


def missing_reason(
    index: int, status: dict, wall: bool, limits: sandbox.Limits, over_quota: bool = False
) -> str:
    """Why the test cell at ``index`` has no results, from the runner's status."""
    if over_quota:
        return (
            f"the notebook wrote more than the {limits.work_bytes // 2**20} MiB a submission "
            "may write to its folder and was stopped; the questions before it kept their points"
        )
    cells = status.get("cells", {}) if isinstance(status.get("cells"), dict) else {}
    state = cells.get(str(index))
    if state == "timeout":
        return (
            f"time-out: the cell was still running after {CELL_TIMEOUT} s and was "
            "stopped (an endless loop?)"
        )
    died = [int(k) for k, v in cells.items() if v == "died" and str(k).isdigit()]
    if died and min(died) <= index:
        at = min(died)
        where = (
            "in this question's test" if at == index else f"in cell {at + 1}, before this question"
        )
        return f"{_ending(status.get('exit'))} {where}; the questions before it kept their points"
    if wall:
        return (
            f"the notebook ran longer than the {limits.wall_seconds} s a submission may "
            "run in total and was stopped"
        )
    if not status:
        return "the sandbox wrote no status (the notebook stopped its runner?)"
    return "the check wrote no result (was it stopped by the notebook?)"


def _died_at(index: int, status: dict) -> bool:
    """Did the notebook's kernel die at or before the cell at ``index`` (its runner says)?"""
    cells = status.get("cells", {}) if isinstance(status.get("cells"), dict) else {}
    return any(v == "died" and str(k).isdigit() and int(k) <= index for k, v in cells.items())


def _defines(source: str, name: str) -> bool:
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return False
    return any(isinstance(node, ast.FunctionDef) and node.name == name for node in tree.body)


def _answer_cells(notebook: nbformat.NotebookNode, before: int, function: str) -> list[int]:
    """The cells above the test cell at ``before`` that the fresh sandbox runs.

    The answer cells (nbgrader's solution cells), and a cell the student added
    that defines the graded function itself. (A value question's values are
    read from its answer cell: a chapter's own cells may assign the same names.)
    """
    return [
        index
        for index, cell in enumerate(notebook.cells[:before])
        if cell.cell_type == "code"
        and (cell.metadata.get("nbgrader", {}).get("solution") or _defines(cell.source, function))
    ]


def _answer_index(notebook: nbformat.NotebookNode, grade_id: str) -> int | None:
    """The index of the question's answer cell (``<grade_id>-answer``), if there is one."""
    return next(
        (
            index
            for index, cell in enumerate(notebook.cells)
            if cell.metadata.get("nbgrader", {}).get("grade_id") == f"{grade_id}-answer"
        ),
        None,
    )


def _answer_sources(notebook: nbformat.NotebookNode, grade_id: str) -> list[str]:
    """The source of the question's answer cell (``<grade_id>-answer``), as a list."""
    return [
        cell.source
        for cell in notebook.cells
        if cell.metadata.get("nbgrader", {}).get("grade_id") == f"{grade_id}-answer"
    ][:1]


def _answer_error(executed: nbformat.NotebookNode, grade_id: str) -> str | None:
    """The error the question's answer cell raised in the sandbox, if any (for a reason)."""
    for cell in executed.cells:
        if cell.metadata.get("nbgrader", {}).get("grade_id") == f"{grade_id}-answer":
            for output in cell.get("outputs", []):
                if output.get("output_type") == "error":
                    return str(output.get("ename", "an error"))[:100]
    return None


def _name_failed_callees(verdicts: dict, tests: dict[str, Test], answers: dict) -> None:
    """Add to a lost question's reason the answers of the notebook it calls that lost too."""
    question_of = {tests[g].function: g for g in answers}
    for grade_id, sources in answers.items():
        verdict = verdicts[grade_id]
        if verdict["score"] >= verdict["max_score"]:
            continue
        failed = {
            callee: (
                question_of[callee],
                verdicts[question_of[callee]]["reason"] != judge.NOT_ANSWERED,
            )
            for callee in judge.callees(sources, tests[grade_id].function, question_of)
            if verdicts[question_of[callee]]["score"] < verdicts[question_of[callee]]["max_score"]
        }
        if failed:
            note = judge.callee_note(tests[grade_id].function, failed)
            # (the judge's reason ends a sentence: no ".;" where the note joins it)
            reason = verdict["reason"].rstrip(".")
            verdict["reason"] = "; ".join(r for r in (reason, note) if r)


GRADER = Path(__file__).resolve().parent  # this package


def run_key(source: Path, submitted: Path, partial_credit: bool, limits: sandbox.Limits) -> str:
    """What a finished run's verdicts depend on, as a hash.

    The two notebooks' bytes, the credit rule, the sandbox's limits and a cell's
    time, Python's version, and every Python file of the grader and of the
    library (what judges and what answers are compared with).
    Hidden cases depend only on the student, the assignment and the question, so
    a run with the same key gives the same verdicts.
    """
    digest = hashlib.sha256(f"{partial_credit} {limits} {CELL_TIMEOUT} {sys.version}\n".encode())
    files = [source, submitted]
    files += sorted(GRADER.glob("*.py")) + sorted(sandbox.LIBRARY.rglob("*.py"))
    for path in files:
        digest.update(f"{path.name}\0".encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def finished_run(course: Path, student: str, assignment: str, name: str, key: str) -> dict | None:
    """The verdicts of a run of this submission that ended with this ``key``, if any."""
    out = course / "sandbox" / student / assignment
    try:
        report = json.loads((out / f"{Path(name).stem}.json").read_text())
    except (OSError, ValueError):
        return None
    if not isinstance(report, dict) or report.get("key") != key or not (out / name).exists():
        return None
    return report


def grade_notebook(
    course: Path,
    student: str,
    assignment: str,
    name: str,
    *,
    partial_credit: bool = True,
    limits: sandbox.Limits | None = None,
) -> dict:
    """Run one submission in the sandbox and write its verdicts (see the module).

    A finished run of the same submission under the same key (a stopped
    grader's) is returned as it is, with ``"reused": True``.
    """
    limits = limits or sandbox.Limits()
    key = run_key(
        course / "source" / assignment / name,
        course / "submitted" / student / assignment / name,
        partial_credit,
        limits,
    )
    finished = finished_run(course, student, assignment, name, key)
    if finished is not None:
        return {**finished, "reused": True}
    source = nbformat.read(course / "source" / assignment / name, as_version=4)
    submitted = nbformat.read(course / "submitted" / student / assignment / name, as_version=4)
    tests = tests_of(source)
    notebook, where = run_notebook(submitted, tests)
    calls = {}
    for grade_id, test in tests.items():
        if test.names:
            calls[grade_id] = []  # a value question: nothing to call
            continue
        calls[grade_id] = judge.checker_calls(test.module, test.checker, test.function)
        for number, call in enumerate(calls[grade_id]):
            call.hidden = judge.hidden_cases(
                call, f"{student}\0{assignment}\0{grade_id}\0{number}"
            )
    with tempfile.TemporaryDirectory(prefix="grading-") as tmp:
        work = Path(tmp)
        nbformat.write(notebook, work / "submission.ipynb")
        inner = [
            sys.executable,
            f"{sandbox.GRADING}/runner.py",
            f"{sandbox.INSIDE}/submission.ipynb",
            f"{sandbox.INSIDE}/out",
            str(CELL_TIMEOUT),
        ]
        result = sandbox.run(work, inner, limits)
        status = _status(work / "out" / "status.json")
        try:
            executed = nbformat.read(work / "out" / "executed.ipynb", as_version=4)
            if len(executed.cells) != len(notebook.cells):
                raise ValueError("cells changed")
        except Exception:  # noqa: BLE001 - not written, or not a notebook: no outputs
            executed = notebook
    # The functions, called in a fresh sandbox on cases only the grader holds; the
    # values, read there too, after the answer cells ran traced.
    questions = [
        evaluation.Question(
            grade_id,
            index,
            tests[grade_id].module,
            tests[grade_id].checker,
            tests[grade_id].function,
            evaluation.cases_of(calls[grade_id]),
            _answer_cells(submitted, index, tests[grade_id].function),
            tests[grade_id].names,
            _answer_index(submitted, grade_id) if tests[grade_id].names else None,
        )
        for index, grade_id in where.items()
    ]
    cells = [c.source if c.cell_type == "code" else "" for c in submitted.cells]
    answers = {q.grade_id: [cells[i] for i in q.cells] for q in questions if not q.names}
    outcomes = evaluation.evaluate(cells, questions, limits, CELL_TIMEOUT) if questions else {}
    for question in questions:
        outcome = outcomes[question.grade_id]
        checker = tests[question.grade_id].checker
        text = f"The results of {checker} were recorded; the grader compares them.\n"
        if question.names:
            names = ", ".join(question.names)
            text = f"The values of {names} were recorded; the grader checks them.\n"
        executed.cells[question.index].outputs = [
            nbformat.v4.new_output("stream", name="stdout", text=text)
        ]
        if outcome.printed:
            # A stream of its own: fill.py drops the line above and keeps what the
            # student's function printed, which nbgrader's output cap then measures.
            executed.cells[question.index].outputs.append(
                nbformat.v4.new_output("stream", name="stdout", text=outcome.printed)
            )
    verdicts = {}
    for index, grade_id in where.items():
        reason = missing_reason(index, status, result.timed_out, limits, result.over_quota)
        outcome = outcomes[grade_id]
        if tests[grade_id].names:
            test = tests[grade_id]
            verdict = judge.judge_values(
                test.module,
                test.checker,
                list(test.names),
                test.keywords,
                outcome.records,
                test.points,
                missing=outcome.missing or reason,
                answer_error=_answer_error(executed, grade_id),
                answered=not judge.unanswered(_answer_sources(submitted, grade_id)),
            )
            verdicts[grade_id] = {"index": index, **asdict(verdict)}
            continue
        verdict = judge.judge(
            calls[grade_id],
            outcome.records,
            tests[grade_id].points,
            partial_credit=partial_credit,
            missing=reason if _died_at(index, status) else (outcome.missing or reason),
            answered=not judge.unanswered(answers[grade_id], tests[grade_id].function),
        )
        verdicts[grade_id] = {"index": index, **asdict(verdict)}
    _name_failed_callees(verdicts, tests, answers)
    if sandbox.stopping():  # Ctrl-C while it ran: its runs were killed, not judged
        raise sandbox.Stopped("the grader is stopping")
    out = course / "sandbox" / student / assignment
    out.mkdir(parents=True, exist_ok=True)
    nbformat.write(executed, out / name)
    report = {
        "verdicts": verdicts,
        "sandbox_exit": result.returncode,
        "wall_timeout": result.timed_out,
        "compiled_in_sandbox": result.compiled,
        "key": key,
    }
    # Written whole or not at all: a grader killed here leaves no half report
    # that the next run would take for a finished one.
    partial = out / f".{Path(name).stem}.json.part"
    partial.write_text(json.dumps(report, indent=1))
    os.replace(partial, out / f"{Path(name).stem}.json")
    return report
