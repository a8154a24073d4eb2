"""In the grader: call a submission's functions in a fresh sandbox, one case at a time.

The notebook has run already (:mod:`grading.runner`, in a sandbox of its own);
nothing it wrote is read here. :func:`evaluate` starts a new sandbox on an
empty folder, runs :mod:`grading.probe` there (a process in which no student
code ran before the probe's tracing was in place), sends it the notebook's
cells and the questions, and then serves each question's cases one by one over
the probe's standard input. That sandbox holds no solution: the library there
is its answer-free copy (:mod:`grading.answer_free`), of the grader only the
probe's three files are in it, and no numba cache; so no checker runs there
either: the probe is told how many calls each checker makes, which helpers it
permits, and, for a checker that calls a function of its own around the
student's (chapter 7's ``feature_dot``), that function's source. The hidden
cases exist only in the grader until the moment the function is called on them.
A result counts only if it carries the one-time number sent with its case, so a
line prepared in advance (by an answer cell, in any file) is never taken for a
result.

A value question (the answer cell assigns numbers) is read there too: its
values, as the answer cells above its test left them, come back with what
each answer cell reached of the library (:func:`grading.judge.judge_values`
refuses an answer that computed them with the library's own solution).

A question that runs out of time, or whose function kills its process, gets
the reason; the questions after it are evaluated in a new sandbox.
"""

from __future__ import annotations

import json
import os
import secrets
import select
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from . import answer_free, judge, sandbox
from .codec import encode

MAX_LINE = 60_000_000  # characters of one message read back (a question's prints included)
PROBE_FILES = ("probe.py", "codec.py", "guard.py")  # what the fresh sandbox sees of the grader


@dataclass
class Question:
    """One function question to evaluate: where its test cell is, and what it calls."""

    grade_id: str
    index: int  # the test cell's index in the notebook
    module: str
    checker: str
    function: str
    cases: list  # per checker call: the encoded cases to run (public, then hidden)
    cells: list  # the answer cells (indices) defining what it uses, up to its test cell
    names: tuple = ()  # a value question's names (then ``cases`` is empty)
    answer: int | None = None  # a value question's answer cell (index), if it has one


@dataclass
class Outcome:
    """What the fresh sandbox gave for one question."""

    records: list = field(default_factory=list)
    missing: str | None = None  # why results are missing, if they are
    printed: str = ""
    printed_count: int = 0


class _Gone(Exception):
    """The probe's process ended or ran out of time."""


class _Probe:
    """One probe process in its sandbox, and the grader's end of its pipes."""

    def __init__(self, work: Path, limits: sandbox.Limits):
        for path in (work, work / "home", work / "out"):
            path.mkdir(exist_ok=True)
            os.chmod(path, 0o777)
        inner = [sys.executable, "-I", f"{sandbox.GRADING}/probe.py"]
        # The library's answer-free copy at the library's path, only the probe's own
        # files of the grader, and no numba cache: no solution is in this process.
        arguments = sandbox.command(
            work, inner, limits, library=answer_free.build(), grading=PROBE_FILES
        )
        if sandbox.stopping():  # Ctrl-C: start nothing (before a cgroup exists)
            raise sandbox.Stopped("the grader is stopping")
        self.group = sandbox._process_cap(limits.processes)
        group = self.group

        def enter_group():
            if group is not None:
                (group / "cgroup.procs").write_text(str(os.getpid()))

        def start():
            return subprocess.Popen(
                arguments,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
                preexec_fn=enter_group,
            )

        try:  # killed by sandbox.stop_all on Ctrl-C, as the notebook's sandbox is
            self.process = sandbox.start_tracked(start)
        except sandbox.Stopped:
            if group is not None:
                sandbox.remove_group(group)
            raise
        self.buffer = b""

    def send(self, message: dict) -> None:
        try:
            self.process.stdin.write((json.dumps(message) + "\n").encode())
            self.process.stdin.flush()
        except (BrokenPipeError, OSError) as error:
            raise _Gone("died") from error

    def receive(self, deadline: float) -> dict:
        """The next message that is a JSON object; lines that are not are skipped."""
        while True:
            while b"\n" not in self.buffer:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise _Gone("timeout")
                ready, _, _ = select.select([self.process.stdout], [], [], left)
                if not ready:
                    raise _Gone("timeout")
                chunk = os.read(self.process.stdout.fileno(), 1 << 20)
                if not chunk:
                    raise _Gone("died")
                self.buffer += chunk
                if len(self.buffer) > MAX_LINE:
                    raise _Gone("flood")
            line, self.buffer = self.buffer.split(b"\n", 1)
            try:
                message = json.loads(line)
            except ValueError:
                continue
            if isinstance(message, dict):
                return message

    def close(self) -> int | None:
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.process.wait()
        sandbox.untrack(self.process)
        if self.group is not None and not sandbox.remove_group(self.group):
            print(f"grading: the cgroup {self.group} could not be removed (busy)", file=sys.stderr)
        return self.process.returncode


TIME_OUT = (
    "time-out: the cell was still running after {seconds} s and was stopped (an endless loop?)"
)


def _serve(
    probe: _Probe, question: Question, outcome: Outcome, seconds: float, question_seconds: int
) -> None:
    """Serve one question's cases; fill ``outcome`` with the results that count."""
    deadline = time.monotonic() + seconds
    call = 0
    while True:
        message = probe.receive(deadline)
        if message.get("question") != question.grade_id:
            continue
        if question.names and ("values" in message or "too_large" in message):
            outcome.records.append(message)  # a value question's record, read by the judge
            continue
        if message.get("done"):
            if "checker_raised" in message:
                outcome.records.append(
                    {
                        "question": question.grade_id,
                        "checker_raised": str(message["checker_raised"]),
                        "message": str(message.get("message", "")),
                    }
                )
            outcome.records.append({"question": question.grade_id, "done": True})
            outcome.printed = str(message.get("printed_text", ""))
            count = message.get("printed")
            outcome.printed_count = count if isinstance(count, int) else len(outcome.printed)
            return
        if not message.get("want"):
            continue
        cases = question.cases[call] if call < len(question.cases) else []
        for number, case in enumerate(cases):
            nonce = secrets.token_hex(16)
            probe.send({"case": case, "nonce": nonce})
            reply = probe.receive(deadline)
            while reply.get("nonce") != nonce:
                reply = probe.receive(deadline)
            record = {k: v for k, v in reply.items() if k != "nonce"}
            outcome.records.append(
                {"question": question.grade_id, "call": call, "case": number, **record}
            )
            if record.get("timed_out"):
                outcome.missing = TIME_OUT.format(seconds=question_seconds)
            if {"KeyboardInterrupt", "MemoryError"} & set(record.get("raised") or ()):
                break  # the probe stops this question too
        else:
            probe.send({"enough": True})
        call += 1


def _ending(code: int | None) -> str:
    if isinstance(code, int) and code < 0:
        if -code == 9:
            return "the process calling the function was killed (signal 9: memory or a limit)"
        return f"the process calling the function died (signal {-code})"
    return f"the process calling the function ended (exit code {code})"


def evaluate(
    cells: list[str],
    questions: list[Question],
    limits: sandbox.Limits,
    cell_timeout: int,
) -> dict[str, Outcome]:
    """Evaluate ``questions`` on the notebook's ``cells`` (see the module's docstring)."""
    outcomes = {q.grade_id: Outcome() for q in questions}
    left = list(questions)
    described = {q.grade_id: _described(q) for q in questions}
    while left:
        with tempfile.TemporaryDirectory(prefix="grading-fresh-") as tmp:
            probe = _Probe(Path(tmp), limits)
            try:
                probe.send(
                    {
                        "cells": cells,
                        "seconds": cell_timeout,
                        "questions": [described[q.grade_id] for q in left],
                    }
                )
                # Starting Python and the library counts against the first question.
                startup = 60.0
                while left:
                    question = left[0]
                    _serve(
                        probe,
                        question,
                        outcomes[question.grade_id],
                        cell_timeout + startup,
                        cell_timeout,
                    )
                    startup = 5.0
                    left.pop(0)
            except _Gone as gone:
                code = probe.close()
                question = left.pop(0)
                outcomes[question.grade_id].missing = (
                    TIME_OUT.format(seconds=cell_timeout)
                    if str(gone) == "timeout"
                    else _ending(code)
                )
                continue
            probe.close()
    return outcomes


def _described(question: Question) -> dict:
    """A question as the probe gets it: no checker, no case, only how to call the answer.

    ``calls`` has one entry per ``check_function`` call the checker makes:
    ``None`` (the student's function is called on the cases) or the checker's
    own function of it (:func:`grading.judge.wrapper_source`). ``helpers`` are
    the permitted helpers, by name (``module:qualname``).
    """
    calls = []
    if not question.names:
        made = judge.checker_calls(question.module, question.checker, question.function)
        calls = [made[n].wrapper if n < len(made) else None for n in range(len(question.cases))]
    return {
        "id": question.grade_id,
        "function": question.function,
        "cells": question.cells,
        "names": list(question.names),
        "answer": question.answer,
        "calls": calls,
        "helpers": judge.permitted(question.module, question.checker),
    }


def cases_of(calls: list) -> list:
    """The encoded cases of each checker call (:class:`grading.judge.Call`), in order."""
    return [[encode(case) for case in call.cases + call.hidden] for call in calls]
