"""Grade a class's submissions with nbgrader: ``grades-by-question.csv`` and feedback pages.

``make grade SUBMITTED=DIR`` runs this script on nbgrader's layout,
``DIR/<student>/chNN/<notebook>.ipynb``, against the course folder that
``make assignments`` wrote (``_build/nbgrader``):

1. each submission is copied into the course's ``submitted/`` (a folder
   ``ch5/``, a notebook at the student's root or a renamed notebook is matched
   to its assignment, with a note: ``grading/layout.py``). A submission that
   is already there, byte for byte, is not graded again (a manual grade given
   since is kept); one that changed is graded again after its old copy,
   results and feedback are moved to ``archive/<time>/``, and its old grades,
   manual ones included, are written there and cleared from the gradebook;
2. each new notebook runs in a bubblewrap sandbox, several at once (one per
   core): the locked test cells only record what the student's functions
   return, and the grader compares that with the library's references
   (``grading/``). Without a sandbox nothing is graded;
3. ``nbgrader autograde`` records the verdicts in the gradebook (it executes
   nothing: see ``nbgrader_config.py``), then ``nbgrader generate_feedback``
   writes ``feedback/<student>/chNN/<notebook>.html``;
4. ``grades-by-question.csv`` gets one row per student and question:
   ``student, assignment, question, score, max_score, reason, lms, lms_id``
   (the last two: the LMS download's system and number, for ``make export``). The reason
   says why a question lost its points (the smallest failing case, a time-out,
   a memory limit, a kernel that exited, too much output, a deleted test cell,
   a notebook that is not valid JSON) or that a written answer waits for the
   instructor. (Not ``grades.csv``: ``nbgrader export`` writes that name in the
   course folder and would replace ours.) The same reasons are listed at the
   top of the feedback page, in the student's words: a written answer not
   graded yet says "not graded yet", never 0;
5. a feedback page whose grades changed since it was written (a written answer
   graded in the formgrader since) is written again by nbgrader, from the
   gradebook: the page always shows the grades of the table. Its maths is
   typeset once, in Node, so that it shows offline (``grading/feedback.py``).

``SUBMITTED`` may be the course's own ``submitted/`` (where ``nbgrader collect``
puts what students handed in through a JupyterHub): submissions changed since
they were graded are graded again.

A notebook that is not valid JSON is kept in ``submitted/`` and scores 0 on
every question; grading of everyone else goes on. A submission is regular
files inside the student's folder: a symbolic link anywhere in it is not
followed (a row or a note says so), and a folder whose name nbgrader cannot
take as a student id is refused by name (``grading/layout.py``). A graded cell
the student copied and pasted is graded once, the first copy.

Progress (notebooks run, time elapsed, an estimate of what remains) is one line
on a terminal, a line per notebook in a log. Ctrl-C stops the sandboxes and
says so; a grader killed outright leaves work folders and cgroups that the next
run removes. Either way ``make grade`` again resumes: a submission counts as
graded only once nbgrader recorded its grades and feedback to the end.

Usage: ``python scripts/grading/grades.py [--all-or-nothing] COURSE_DIR SUBMITTED_DIR``
"""

from __future__ import annotations

import csv
import ctypes
import filecmp
import html
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

# nbformat's jsonschema skips a grammar it would build for nothing (see grading/runner.py).
sys.modules.setdefault("rfc3987_syntax", None)

import nbformat  # noqa: E402
from nbgrader.api import Gradebook, MissingEntry  # noqa: E402

SCRIPTS = Path(__file__).resolve().parents[1]  # scripts/, where the grading package is
sys.path.insert(0, str(SCRIPTS))
from grading import feedback, layout, nbgrader_course, progress, sandbox, submission  # noqa: E402
from grading.submission import CELL_TIMEOUT  # noqa: E402

ANSI = re.compile(r"\x1b\[[0-9;]*m")
# Our table's name; nbgrader's own ``nbgrader export`` writes ``grades.csv``.
GRADES_FILE = "grades-by-question.csv"
# lms, lms_id: the LMS whose download named the submission and the number it gave
# the student (Canvas's user id, Moodle's participant number); empty for a
# student's folder. make export writes them where each LMS's import matches rows.
COLUMNS = ["student", "assignment", "question", "score", "max_score", "reason", "lms", "lms_id"]
STEPS = ("submitted", "autograded", "feedback")
RECORDED = "recorded"  # in sandbox/<student>/<assignment>/: nbgrader finished with it
# Beside it: {"lms": ..., "lms_id": ...} of an LMS download (layout.HandedIn), and
# the grades its feedback page shows (JSON, but not named *.json: the
# sandbox run's report is the one .json file there besides found.json).
SHOWN = "feedback-grades.txt"
LMS_ID = "lms-id.txt"
# A written answer without a grade: what the instructor reads, and what the student reads.
PENDING = "written answer: grade it in nbgrader's formgrader"
NOT_GRADED_YET = "not graded yet"
# An autograded score the instructor changed in the formgrader (a manual score).
OVERRIDDEN = "score set by the instructor"
# The note layout.py adds to every row of a Canvas or Moodle download: for the instructor.
DOWNLOAD_NOTE = re.compile(r"(Canvas|Moodle) download: ")


@dataclass
class Row:
    student: str
    assignment: str
    question: str
    score: float | None
    max_score: float
    reason: str
    lms: str = ""
    lms_id: str = ""

    def as_csv(self) -> list[str]:
        score = "" if self.score is None else f"{self.score:g}"
        return [
            self.student,
            self.assignment,
            self.question,
            score,
            f"{self.max_score:g}",
            self.reason,
            self.lms,
            self.lms_id,
        ]


def notebook_problem(path: Path) -> str | None:
    """Why a submitted notebook cannot be graded, or ``None`` if it can."""
    try:
        nbformat.validate(nbformat.read(path, as_version=4))
    except Exception as error:  # not JSON, not a notebook, an old format...
        first_line = str(error).strip().splitlines()[0] if str(error).strip() else ""
        return (
            f"the notebook is not a valid Jupyter notebook ({type(error).__name__}: "
            f"{first_line[:200]}); nothing in it was graded"
        )
    return None


def collect(course: Path, submitted: Path, stamp: str) -> dict[str, list[str]]:
    """Copy the submissions into the course; return {assignment: students to grade}.

    What was found where (a renamed notebook, a folder ``ch5/``) is noted in
    ``sandbox/<student>/<assignment>/found.json``; what matches nothing is in
    ``sandbox/unmatched.json``: both become rows of the table (``GRADES_FILE``).
    """
    to_grade: dict[str, list[str]] = {}
    assignments = {
        p.name: sorted(n.name for n in p.glob("*.ipynb"))
        for p in (course / "source").iterdir()
        if p.is_dir()
    }
    handed_in, problems = layout.find(submitted, assignments)
    (course / "sandbox").mkdir(exist_ok=True)
    (course / "sandbox" / "unmatched.json").write_text(json.dumps(problems, ensure_ascii=False))
    for item in handed_in:
        student, assignment = item.student, item.assignment
        notes = course / "sandbox" / student / assignment / "found.json"
        notes.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory() as tmp:
            incoming = Path(tmp) / assignment  # the submission as nbgrader expects it
            incoming.mkdir()
            if item.folder is not None:
                item.notes += _copy_files(item.folder, incoming)
            for name, path in item.notebooks.items():
                if not path.is_symlink():  # (layout checked; it may have changed since)
                    shutil.copyfile(path, incoming / name)
            notes.write_text(json.dumps(item.notes, ensure_ascii=False))
            lms = notes.parent / LMS_ID
            if item.lms:
                lms.write_text(json.dumps({"lms": item.lms, "lms_id": item.lms_id}))
            else:
                lms.unlink(missing_ok=True)
            target = course / "submitted" / student / assignment
            if target.exists() and not _differs(incoming, target):
                graded = course / "autograded" / student / assignment
                if graded.exists() and recorded(course, student, assignment):
                    if not _newer(target, graded):
                        continue  # graded already: keep its grades (and any manual ones)
            elif target.exists():
                _archive(course, student, assignment, stamp)
            if not target.exists():
                # Copied beside it, then renamed: a grader killed while copying
                # leaves no half submission that a later run would take as whole.
                partial = target.parent / f".{assignment}.partial"
                shutil.rmtree(partial, ignore_errors=True)
                shutil.copytree(incoming, partial)
                partial.rename(target)
        to_grade.setdefault(assignment, []).append(student)
    return to_grade


def _copy_files(folder: Path, target: Path) -> list[str]:
    """Copy the regular files of ``folder`` (notebooks aside) and its real subfolders.

    Symbolic links and special files are not followed nor read: a note says so.
    """
    notes = []
    for entry in sorted(os.scandir(folder), key=lambda e: e.name):
        if entry.name.endswith(".ipynb") and not entry.is_dir(follow_symlinks=False):
            continue  # the notebooks: by name, from layout (which notes a link)
        if entry.is_symlink():
            notes.append(f"{entry.name} {layout.LINK}")
        elif entry.is_dir(follow_symlinks=False):
            (target / entry.name).mkdir()
            notes += _copy_files(Path(entry.path), target / entry.name)
        elif entry.is_file(follow_symlinks=False):
            shutil.copyfile(entry.path, target / entry.name)
        else:
            notes.append(f"{entry.name} is not a regular file: not read")
    return notes


def recorded(course: Path, student: str, assignment: str) -> bool:
    """Did nbgrader record this submission's grades and feedback to the end?

    The mark is written after ``nbgrader autograde`` and ``generate_feedback``
    both succeeded: an ``autograded/`` folder alone may be what a killed grader
    left before the grades were saved.
    """
    return (course / "sandbox" / student / assignment / RECORDED).exists()


def mark_graded_before(course: Path) -> None:
    """Give the ``recorded`` mark to what a grader without marks graded to the end.

    Once per course folder: a submission with an ``autograded/`` folder and a
    feedback page was recorded (nbgrader writes feedback last), so it is not
    graded again only because the mark is new.
    """
    done = course / "sandbox" / ".recorded-marks"
    if done.exists():
        return
    for graded in (course / "autograded").glob("*/*"):
        student, assignment = graded.parent.name, graded.name
        if graded.is_dir() and any((course / "feedback" / student / assignment).glob("*.html")):
            mark = course / "sandbox" / student / assignment / RECORDED
            mark.parent.mkdir(parents=True, exist_ok=True)
            mark.write_text("")
    done.parent.mkdir(exist_ok=True)
    done.write_text("")


def _archive(course: Path, student: str, assignment: str, stamp: str) -> None:
    """Move a replaced submission, its results and its grades to ``archive/<stamp>/``.

    The gradebook's grades of the old submission (manual scores included) are
    written to ``archive/<stamp>/grades/<student>/<assignment>.csv`` and the
    submission is removed from the gradebook: a new answer starts ungraded.
    """
    for step in (*STEPS, "sandbox"):
        old = course / step / student / assignment
        if old.exists() and not (step == "sandbox" and not any(old.glob("*.ipynb"))):
            archived = course / "archive" / stamp / step / student / assignment
            archived.parent.mkdir(parents=True, exist_ok=True)
            shutil.move(old, archived)
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gradebook:
        try:
            old = gradebook.find_submission(assignment, student)
        except MissingEntry:
            return
        lines = [["notebook", "question", "auto_score", "manual_score", "max_score"]]
        for notebook in old.notebooks:
            for grade in notebook.grades:
                lines.append(
                    [
                        notebook.name,
                        grade.name,
                        grade.auto_score,
                        grade.manual_score,
                        grade.max_score,
                    ]
                )
        path = course / "archive" / stamp / "grades" / student / f"{assignment}.csv"
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "w", newline="", encoding="utf-8") as file:
            csv.writer(file).writerows(lines)
        gradebook.remove_submission(assignment, student)


def _newer(submitted: Path, graded: Path) -> bool:
    """Was the submission changed in place since it was graded (``nbgrader collect``)?"""
    notebooks = [p.stat().st_mtime for p in graded.glob("*.ipynb")]
    changed = [p.stat().st_mtime for p in submitted.glob("*.ipynb")]
    return bool(changed) and (not notebooks or max(changed) > min(notebooks))


def _differs(a: Path, b: Path) -> bool:
    comparison = filecmp.dircmp(a, b)
    if comparison.left_only or comparison.right_only or comparison.funny_files:
        return True
    _, mismatch, errors = filecmp.cmpfiles(a, b, comparison.common_files, shallow=False)
    if mismatch or errors:
        return True
    return any(_differs(a / d, b / d) for d in comparison.common_dirs)


def grade_all(
    course: Path,
    to_grade: dict[str, list[str]],
    *,
    partial_credit: bool = True,
    workers: int | None = None,
) -> set[tuple[str, str]]:
    """Run every new submission in the sandbox (in parallel), then record it with nbgrader.

    Returns the (student, assignment) pairs recorded, feedback included.
    Ctrl-C stops the sandboxes, removes their folders and raises
    ``KeyboardInterrupt``; the next run records what was not recorded, taking
    the notebooks already run to the end as they are (:func:`submission.finished_run`).
    """
    jobs = []
    for assignment, students in sorted(to_grade.items()):
        names = {p.name for p in (course / "source" / assignment).glob("*.ipynb")}
        for student in students:
            (course / "sandbox" / student / assignment / RECORDED).unlink(missing_ok=True)
            for path in sorted((course / "submitted" / student / assignment).glob("*.ipynb")):
                if path.name in names and notebook_problem(path) is None:
                    jobs.append((student, assignment, path.name))
    if not jobs:
        return set()
    sandbox.prepare()
    with tempfile.TemporaryDirectory(prefix="grading-check-") as tmp:
        try:
            sandbox.check(Path(tmp))
        except sandbox.SandboxUnavailable as error:
            sys.exit(f"make grade: {error}")
    workers = workers or os.cpu_count() or 1

    def one(job):
        student, assignment, name = job
        return submission.grade_notebook(
            course, student, assignment, name, partial_credit=partial_credit
        )

    shown = progress.Progress(len(jobs), "notebooks graded")
    pool = ThreadPoolExecutor(max_workers=workers)
    reused = 0
    try:
        for report in pool.map(one, jobs):
            reused += bool(report.get("reused"))
            shown.step()
    except BaseException:  # Ctrl-C: stop the running sandboxes, start no other
        shown.stop()
        sandbox.stop_all()
        pool.shutdown(wait=True, cancel_futures=True)  # their folders are removed
        raise
    pool.shutdown()
    if reused:
        print(
            f"{reused} of {len(jobs)} notebooks had been run to the end by a grader that "
            "was stopped: their results were taken, not run again",
            flush=True,
        )
    graded: dict[str, list[str]] = {}
    for student, assignment, _ in jobs:
        if student not in graded.setdefault(assignment, []):
            graded[assignment].append(student)
    done = set()
    for assignment, students in sorted(graded.items()):
        print(f"nbgrader: recording {assignment}, {len(students)} students", flush=True)
        for student in _batch(course, assignment, students):
            (course / "sandbox" / student / assignment / RECORDED).write_text("")
            done.add((student, assignment))
    return done


def _die_with_grader() -> None:  # in the child, before nbgrader starts
    """A grader killed (SIGKILL) takes nbgrader with it: no half-recorded class goes on."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def _batch(
    course: Path, assignment: str, students: list[str], *, feedback_only: bool = False
) -> list[str]:
    """nbgrader autograde and feedback for these students, in one process.

    Returns the students whose grades and feedback were both recorded (with
    ``feedback_only``, whose feedback was written again). See
    ``grading/nbgrader_batch.py``.
    """
    bin_dir = str(Path(sys.executable).parent)
    env = {**os.environ, "PATH": bin_dir + os.pathsep + os.environ.get("PATH", "")}
    result = subprocess.run(
        [
            sys.executable,
            str(SCRIPTS / "grading" / "nbgrader_batch.py"),
            *(["--feedback-only"] if feedback_only else []),
            assignment,
        ],
        cwd=course,
        env=env,
        input="\n".join(students),
        capture_output=True,
        text=True,
        preexec_fn=_die_with_grader,
    )
    done = {student: 0 for student in students}
    for line in result.stdout.splitlines():
        if line.startswith("{"):
            report = json.loads(line)
            if not report["success"]:
                print(
                    f"nbgrader {report['action']} {assignment} {report['student']}: "
                    f"{report['error']}"
                )
            elif report["student"] in done:
                done[report["student"]] += 1
    if result.returncode != 0:
        print(f"nbgrader {assignment}: {result.stderr[-2000:]}")
        return []
    steps_expected = 1 if feedback_only else 2
    return [student for student, steps in done.items() if steps == steps_expected]


def overridden(grade) -> bool:
    """Did the instructor give an autograded question another score in the formgrader?"""
    return (
        grade.manual_score is not None
        and grade.auto_score is not None
        and grade.manual_score != grade.auto_score
    )


def _grade_ids(notebook: nbformat.NotebookNode) -> dict[str, nbformat.NotebookNode]:
    return {
        cell.metadata["nbgrader"]["grade_id"]: cell
        for cell in notebook.cells
        if "grade_id" in cell.metadata.get("nbgrader", {})
    }


def reason_for(cell: nbformat.NotebookNode | None, submitted_cell, source_cell, score) -> str:
    """Why a question scored what it did, in one line."""
    if cell is None:
        return "the locked test cell was deleted from the notebook, so the question scores 0"
    notes = []
    if cell.cell_type == "code":
        for output in cell.get("outputs", []):
            if output.output_type == "error":
                if output.ename in ("CellTimeoutError", "KeyboardInterrupt"):
                    notes.append(
                        f"time-out: the cell was still running after {CELL_TIMEOUT} s and "
                        "was stopped (an endless loop?)"
                    )
                elif output.ename == "Failed":  # the grader's verdict (grading/fill.py)
                    notes.append(" ".join(output.evalue.split()))
                else:
                    # The checker's message, with its count and hint, on one line.
                    evalue = " ".join(ANSI.sub("", output.evalue).split())
                    notes.append(f"{output.ename}: {evalue}".strip())
                break
            if output.output_type == "stream" and output.name == "stderr":
                notes.append(f"the cell wrote to stderr: {output.text.strip()[:200]}")
                break
    partial = [o for o in cell.get("outputs", []) if o.output_type == "execute_result"]
    if not notes and partial and cell.metadata["nbgrader"].get("locked"):
        texts = [o.text for o in cell.outputs if o.output_type == "stream" and o.name == "stdout"]
        notes.append(" ".join(texts[-1].split()) if texts else "partial credit")
    if source_cell is not None and submitted_cell is not None and source_cell.locked:
        if submitted_cell.source != source_cell.source:
            notes.append("the locked test cell had been edited; the original test was run")
    if not notes and score is None:
        notes.append(PENDING)
    elif not notes and score == 0 and cell.metadata["nbgrader"].get("solution"):
        notes.append("no answer")
    return join_reasons(notes)


def join_reasons(parts) -> str:
    """Reasons on one line, ``"; "`` between them, no full stop just before one.

    The judge's reason ends a sentence ("... this is the smallest."); a note
    after it would read ".; ".

    >>> join_reasons(["3 checks failed; this is the smallest.", "", "found in ch3/"])
    '3 checks failed; this is the smallest; found in ch3/'
    """
    text = "; ".join(part.strip() for part in parts if part and part.strip())
    return re.sub(r"\.+; ", "; ", text)


def rows(course: Path) -> list[Row]:
    """One row per student and question, for every submission in the course."""
    result = []
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gradebook:
        for assignment in sorted(gradebook.assignments, key=lambda a: a.name):
            for student_dir in sorted((course / "submitted").glob(f"*/{assignment.name}")):
                student = student_dir.parent.name
                found = course / "sandbox" / student / assignment.name / "found.json"
                notes = json.loads(found.read_text()) if found.exists() else []
                lms = found.parent / LMS_ID
                ids = json.loads(lms.read_text()) if lms.exists() else {}
                for notebook in assignment.notebooks:
                    for row in _notebook_rows(
                        course, gradebook, assignment.name, notebook, student
                    ):
                        row.reason = join_reasons([row.reason, *notes])
                        row.lms, row.lms_id = ids.get("lms", ""), ids.get("lms_id", "")
                        result.append(row)
    unmatched = course / "sandbox" / "unmatched.json"
    for student, problem in json.loads(unmatched.read_text()) if unmatched.exists() else []:
        result.append(Row(student, "", "", 0, 0, problem))
    return result


def _notebook_rows(course, gradebook, assignment, notebook, student) -> list[Row]:
    name = f"{notebook.name}.ipynb"
    submitted_path = course / "submitted" / student / assignment / name
    autograded_path = course / "autograded" / student / assignment / name
    order = {cell.name: i for i, cell in enumerate(notebook.source_cells)}
    cells = sorted(notebook.grade_cells, key=lambda c: order.get(c.name, 0))
    problem = None
    if not submitted_path.exists():
        problem = f"no notebook {name} was handed in"
    else:
        problem = notebook_problem(submitted_path)
    if problem is None and not autograded_path.exists():
        problem = (
            "nbgrader could not run the notebook (did its kernel die?); see the output "
            "of make grade"
        )
    if problem is not None:
        return [Row(student, assignment, c.name, 0, c.max_score, problem) for c in cells]
    autograded = _grade_ids(nbformat.read(autograded_path, as_version=4))
    handed_in = nbformat.read(submitted_path, as_version=4)
    copies = Counter(
        cell.metadata["nbgrader"]["grade_id"]
        for cell in handed_in.cells
        if "grade_id" in cell.metadata.get("nbgrader", {})
    )
    submitted = _grade_ids(handed_in)
    sources = {cell.name: cell for cell in notebook.source_cells}
    result = []
    for cell in cells:
        grade = gradebook.find_grade(cell.name, notebook.name, assignment, student)
        score = (
            grade.score
            if (grade.auto_score is not None or grade.manual_score is not None)
            else None
        )
        present = autograded.get(cell.name) if cell.name in submitted else None
        reason = reason_for(present, submitted.get(cell.name), sources.get(cell.name), score)
        if copies[cell.name] > 1:
            graded_how = (
                "the first was graded, with the instructor's test"
                if getattr(sources.get(cell.name), "locked", False)
                else "the first was graded"
            )
            copy = (
                f"the cell {cell.name} appears {copies[cell.name]} times (copied and pasted?): "
                f"{graded_how}; the copies were ignored"
            )
            reason = join_reasons([reason, copy])
        if overridden(grade):
            # The formgrader's manual score replaces the autograder's: its reason
            # (and the failure under the test cell) is kept, as its note, not the grade.
            said = f"{OVERRIDDEN} (the autograder gave {grade.auto_score:g})"
            reason = join_reasons([said, f"the autograder's note: {reason}" if reason else ""])
        result.append(Row(student, assignment, cell.name, score, cell.max_score, reason))
    return result


def write_broken_feedback(course: Path) -> None:
    """A feedback page for each notebook that could not be graded at all."""
    for path in sorted((course / "submitted").glob("*/*/*.ipynb")):
        problem = notebook_problem(path)
        if problem is None:
            continue
        student, assignment = path.parent.parent.name, path.parent.name
        page = course / "feedback" / student / assignment / f"{path.stem}.html"
        if page.exists():
            continue
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text(
            f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{path.stem}</title>"
            f"</head><body><h1>{html.escape(assignment)}: {html.escape(path.name)}</h1>"
            f"<p>Score: 0. Reason: {html.escape(problem)}.</p></body></html>\n"
        )


NOTES_MARK = "<!-- grading notes -->"


def _by_submission(table: list[Row]) -> dict[tuple[str, str], list[Row]]:
    groups: dict[tuple[str, str], list[Row]] = {}
    for row in table:
        if row.assignment:  # (a row of a folder that matched nothing has none)
            groups.setdefault((row.student, row.assignment), []).append(row)
    return groups


def _shown(rows_: list[Row]) -> list[list]:
    return [[row.question, row.score] for row in rows_]


def refresh_feedback(course: Path, table: list[Row], fresh: set[tuple[str, str]]) -> None:
    """Write again each feedback page whose grades changed since it was written.

    ``sandbox/<student>/<assignment>/feedback-grades.txt`` keeps the grades a
    page shows; a written answer graded in the formgrader since (or a page of
    an older grader, without that file) makes nbgrader write the page again,
    from the gradebook. ``fresh`` were written by this run: their pages are
    up to date.
    """
    stale: dict[str, list[str]] = {}
    for (student, assignment), rows_ in sorted(_by_submission(table).items()):
        shown = course / "sandbox" / student / assignment / SHOWN
        if (student, assignment) in fresh:
            shown.write_text(json.dumps(_shown(rows_)))
        elif recorded(course, student, assignment) and (
            not shown.exists() or json.loads(shown.read_text()) != _shown(rows_)
        ):
            stale.setdefault(assignment, []).append(student)
    for assignment, students in sorted(stale.items()):
        print(f"nbgrader: feedback of {assignment} again, {len(students)} students", flush=True)
        for student in _batch(course, assignment, students, feedback_only=True):
            rows_ = _by_submission(table)[student, assignment]
            shown = course / "sandbox" / student / assignment / SHOWN
            shown.write_text(json.dumps(_shown(rows_)))


def for_the_student(reason: str) -> str:
    """The reason as the student's page says it: no note meant for the instructor.

    A written answer waiting for a grade reads "not graded yet"; where a Canvas or
    Moodle download's file came from (for putting the grades back) is left out.
    """
    parts = [NOT_GRADED_YET if part == PENDING else part for part in reason.split("; ")]
    return join_reasons(part for part in parts if not DOWNLOAD_NOTE.match(part))


def _mark_not_graded(text: str, questions: list[str]) -> str:
    """nbgrader's page shows an ungraded answer as "Score: 0.0 / 2.0": say "not graded yet".

    Its template writes the score after the question's anchor, in the table
    of contents (``href="#id"``) and in the cell's heading (``name="id"``);
    the notebook's total at the top counts those answers as 0, so it is
    called a total so far.
    """
    for question in questions:
        anchor = re.escape(html.escape(question))
        for where in (f'href="#{anchor}"', f'name="{anchor}"'):
            text = re.sub(
                rf"({where}.*?)Score: [0-9.]+ / ([0-9.]+)",
                rf"\1{NOT_GRADED_YET}, out of \2",  # (the contents put it in brackets)
                text,
                count=1,
                flags=re.DOTALL,
            )
    if questions:
        text = re.sub(
            r"\(Score: ([0-9.]+ / [0-9.]+)\)</h4>",
            rf"(Score so far: \1; {len(questions)} written answer(s) {NOT_GRADED_YET})</h4>",
            text,
            count=1,
        )
    return text


REPLACED = "The autograder's result below was replaced by the instructor's score."


def _mark_overridden(text: str, questions: list[str]) -> str:
    """Say beside the score that the instructor set it, and above the autograder's output.

    The test cell's output (its "0.57 points", its ``Out``) is the
    autograder's: a line over it says the score above replaced it.
    """
    for question in questions:
        anchor = re.escape(html.escape(question))
        for where in (f'href="#{anchor}"', f'name="{anchor}"'):
            text = re.sub(
                rf"({where}.*?Score: [0-9.]+ / [0-9.]+)",
                r"\1, set by the instructor",
                text,
                count=1,
                flags=re.DOTALL,
            )
        # The output of this cell: the first after its anchor, before the next cell.
        text = re.sub(
            rf'(name="{anchor}"(?:(?!<div class="cell ).)*?<div class="output_wrapper">)',
            rf"\1<p><i>{html.escape(REPLACED)}</i></p>",
            text,
            count=1,
            flags=re.DOTALL,
        )
    return text


def exercise_titles(course: Path, assignment: str) -> dict[str, str]:
    """{question: its exercise's title} of an assignment, from its source notebooks."""
    titles: dict[str, str] = {}
    for path in sorted((course / "source" / assignment).glob("*.ipynb")):
        titles.update(nbgrader_course.exercise_titles(nbformat.read(path, as_version=4)))
    return titles


def score_text(row: Row) -> str:
    """A question's score as the grading notes say it: ``1.5/2``, or not graded yet.

    >>> score_text(Row("ada", "ch03", "ex-ch3-negative", None, 2, ""))
    'not graded yet (2 points)'
    """
    if row.score is None:
        return f"{NOT_GRADED_YET} ({row.max_score:g} points)"
    return f"{row.score:g}/{row.max_score:g}"


def note_text(row: Row) -> str:
    """A question's item in the grading notes: its score, then what the student reads.

    Nothing is said twice ("not graded yet") and no colon ends the item.

    >>> note_text(Row("ada", "ch03", "ex-ch3-negative", None, 2, PENDING))
    'not graded yet (2 points)'
    >>> note_text(Row("ada", "ch03", "ex-ch3-epoch", 0, 2, "no answer"))
    '0/2: no answer'
    """
    said = for_the_student(row.reason)
    if row.score is None:
        said = join_reasons(part for part in said.split("; ") if part != NOT_GRADED_YET)
    return score_text(row) + (f": {html.escape(said)}" if said else "")


# nbgrader's footer under a written answer the grader left no comment on.
NO_COMMENT = re.compile(
    r'<div class="panel-footer">\s*<div>\s*<b>Comments:</b>\s*<p>No response\.</p>\s*'
    r"</div>\s*</div>"
)


def add_notes_to_feedback(course: Path, table: list[Row]) -> None:
    """List each question's reason at the top of the student's feedback page.

    Each question is named by its exercise's title (its label after it).
    Written once per page (the page is marked): a page written again by
    :func:`refresh_feedback` gets the notes of its new grades.
    """
    titles: dict[str, dict[str, str]] = {}
    for (student, assignment), rows_ in _by_submission(table).items():
        notes = [r for r in rows_ if r.reason]
        pending = [r.question for r in rows_ if r.score is None]
        changed = [r.question for r in rows_ if r.reason.startswith(OVERRIDDEN)]
        if assignment not in titles:
            titles[assignment] = exercise_titles(course, assignment)
        for page in (course / "feedback" / student / assignment).glob("*.html"):
            text = page.read_text(encoding="utf-8")
            if NOTES_MARK in text or "<body" not in text:
                continue
            items = "".join(
                f"<li><b>{html.escape(titles[assignment].get(r.question, r.question))}</b> "
                f"({html.escape(r.question)}), {note_text(r)}</li>"
                for r in notes
            )
            box = (
                f"<div style='border:2px solid #c60;padding:0.5em 1em;margin:1em'>"
                f"<h2>Grading notes</h2><ul>{items}</ul></div>"
                if notes
                else ""
            )
            text = _mark_overridden(_mark_not_graded(text, pending), changed)
            text = NO_COMMENT.sub("", text)
            body = re.search(r"<body[^>]*>", text)
            text = text[: body.end()] + NOTES_MARK + box + text[body.end() :]
            page.write_text(text, encoding="utf-8")


SUMMARY_FILE = "summary.txt"
SUMMARY_MEANS = (
    "(Each mean is over the answers graded: a written answer not graded yet is left out "
    "of it, and counted under 'not graded'.)"
)
SUMMARY_TOTALS = (
    "(A total is the points of the graded answers: an answer not graded yet adds nothing "
    "until you grade it.)"
)


def summary(table: list[Row]) -> str:
    """A small table of the class: each question's mean and zeros, each student's total.

    The mean is over the students graded on the question; a written answer
    not graded yet is counted apart, not as 0.
    """
    groups = _by_submission(table)
    questions: dict[tuple[str, str], list[Row]] = {}
    for (_, assignment), rows_ in sorted(groups.items()):
        for row in rows_:
            questions.setdefault((assignment, row.question), []).append(row)
    width = max([len(f"{a} {q}") for a, q in questions] + [len("question")])
    lines = [
        f"{'question':<{width}}  {'mean':>6}  {'out of':>6}  {'zeros':>5}  {'not graded':>10}"
    ]
    for (assignment, question), rows_ in questions.items():
        scores = [row.score for row in rows_ if row.score is not None]
        mean = f"{sum(scores) / len(scores):.2f}" if scores else "-"
        lines.append(
            f"{f'{assignment} {question}':<{width}}  {mean:>6}  {rows_[0].max_score:>6g}  "
            f"{sum(score == 0 for score in scores):>5}  {len(rows_) - len(scores):>10}"
        )
    lines.append(SUMMARY_MEANS)
    students = sorted({student for student, _ in groups})
    width = max([len(student) for student in students] + [len("student")])
    lines += ["", f"{'student':<{width}}  assignment  {'total':>6}  {'out of':>6}  not graded"]
    for (student, assignment), rows_ in sorted(groups.items()):
        total = sum(row.score or 0 for row in rows_)
        pending = sum(row.score is None for row in rows_)
        out_of = sum(row.max_score for row in rows_)
        lines.append(
            f"{student:<{width}}  {assignment:<10}  {total:>6.2f}  {out_of:>6g}  {pending:>10}"
        )
    lines.append(SUMMARY_TOTALS)
    lines += not_graded(table)
    return "\n".join(lines) + "\n"


def not_graded(table: list[Row]) -> list[str]:
    r"""The folders handed in that matched no assignment or student id, each with why.

    They have a row in the table but no question, so no total above and no line
    in the LMS files: said here, so that no student is left out unnoticed.

    >>> print("\n".join(not_graded([Row("nina\nlast", "", "", 0, 0, "a newline")])))
    <BLANKLINE>
    Not graded (1 folder, in no total and no LMS file):
      'nina\nlast': a newline
    """
    rows_ = [row for row in table if not row.assignment]
    if not rows_:
        return []
    folders = "folder" if len(rows_) == 1 else "folders"
    lines = ["", f"Not graded ({len(rows_)} {folders}, in no total and no LMS file):"]
    for row in rows_:
        name = row.student if row.student.isprintable() else repr(row.student)
        lines.append(f"  {name}: {row.reason}")
    return lines


def main(course_dir: str, submitted_dir: str, *, partial_credit: bool = True) -> None:
    course, submitted = Path(course_dir), Path(submitted_dir)
    if not (course / "gradebook.db").exists():
        sys.exit(f"{course} has no assignments yet: run `make assignments` first")
    if not submitted.is_dir():
        sys.exit(f"{submitted} is not a directory of submissions (DIR/<student>/chNN/*.ipynb)")
    # The course's nbgrader settings are ours: written again, so that nothing
    # appended to them runs, and nbgrader executes nothing itself.
    nbgrader_course.write_config(course)
    for leftover in sandbox.clean_dead():
        print(f"removed {leftover}, left by a grader that was killed")
    mark_graded_before(course)
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S.%fZ")
    try:
        with sandbox.run_folder():
            fresh = grade_all(
                course, collect(course, submitted, stamp), partial_credit=partial_credit
            )
    except KeyboardInterrupt:
        sys.stderr.write(
            "\nmake grade: interrupted (Ctrl-C). The sandboxes were stopped and their "
            "folders removed; what was recorded is kept, and the notebooks already run "
            "are not run again. Run make grade again to grade the rest.\n"
        )
        # No sandbox.resume(): after a second Ctrl-C the pool's threads may still be
        # winding down, and each must see that the grader is stopping (this process
        # ends here), or it would judge and keep a run that the stop killed. And
        # stop_all again: a second Ctrl-C may have come before grade_all's.
        sandbox.stop_all()
        raise SystemExit(130) from None
    write_broken_feedback(course)
    table = rows(course)
    refresh_feedback(course, table, fresh)
    add_notes_to_feedback(course, table)
    # The maths typeset once, offline (grading/feedback.py); without Node, a note.
    problem = feedback.typeset(sorted((course / "feedback").glob("*/*/*.html")))
    if problem is not None:
        print(f"make grade: {problem}")
    with open(course / GRADES_FILE, "w", newline="", encoding="utf-8") as file:
        writer = csv.writer(file)
        writer.writerow(COLUMNS)
        writer.writerows(row.as_csv() for row in table)
    text = summary(table)
    (course / SUMMARY_FILE).write_text(text, encoding="utf-8")
    print(text)
    print(f"{course / GRADES_FILE}: {len(table)} rows; feedback in {course / 'feedback'}")
    print(f"This summary: {course / SUMMARY_FILE}. For an LMS: make export")


if __name__ == "__main__":
    arguments = [a for a in sys.argv[1:] if a != "--all-or-nothing"]
    if len(arguments) != 2:
        sys.exit(__doc__)
    main(*arguments, partial_credit="--all-or-nothing" not in sys.argv)
