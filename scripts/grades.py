"""Grade a class's submissions with nbgrader: ``grades.csv`` and feedback pages.

``make grade SUBMITTED=DIR`` runs this script on nbgrader's layout,
``DIR/<student>/chNN/<notebook>.ipynb``, against the course folder that
``make assignments`` wrote (``_build/nbgrader``):

1. each submission is copied into the course's ``submitted/``. A submission
   that is already there, byte for byte, is not graded again (a manual grade
   given since is kept); one that changed is graded again after its old
   copy, grades and feedback are moved to ``archive/<time>/``. Nothing in the
   course folder is deleted or overwritten in place;
2. ``nbgrader autograde`` runs the new submissions (every cell, with a time
   limit per cell, see ``nbgrader_config.py``), then ``nbgrader
   generate_feedback`` writes ``feedback/<student>/chNN/<notebook>.html``;
3. ``grades.csv`` gets one row per student and question:
   ``student, assignment, question, score, max_score, reason``. The reason
   says why a question lost its points (the checker's one-line message, a
   time-out, too much output, a deleted test cell, a notebook that is not
   valid JSON) or that a written answer waits for the instructor. The same
   reasons are listed at the top of the student's feedback page.

``SUBMITTED`` may be the course's own ``submitted/`` (where ``nbgrader collect``
puts what students handed in through a JupyterHub): submissions changed since
they were graded are graded again.

A notebook that is not valid JSON is kept in ``submitted/`` and scores 0 on
every question; grading of everyone else goes on.

Usage: ``python scripts/grades.py COURSE_DIR SUBMITTED_DIR``
"""

from __future__ import annotations

import csv
import filecmp
import html
import re
import shutil
import sys
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

import nbformat
from nbgrader.api import Gradebook

sys.path.insert(0, str(Path(__file__).resolve().parent))
from nbgrader_course import CELL_TIMEOUT, nbgrader  # noqa: E402

ANSI = re.compile(r"\x1b\[[0-9;]*m")
COLUMNS = ["student", "assignment", "question", "score", "max_score", "reason"]
STEPS = ("submitted", "autograded", "feedback")


@dataclass
class Row:
    student: str
    assignment: str
    question: str
    score: float | None
    max_score: float
    reason: str

    def as_csv(self) -> list[str]:
        score = "" if self.score is None else f"{self.score:g}"
        return [
            self.student,
            self.assignment,
            self.question,
            score,
            f"{self.max_score:g}",
            self.reason,
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
    """Copy the submissions into the course; return {assignment: students to grade}."""
    to_grade: dict[str, list[str]] = {}
    assignments = {p.name for p in (course / "source").iterdir() if p.is_dir()}
    for student_dir in sorted(p for p in submitted.iterdir() if p.is_dir()):
        for incoming in sorted(p for p in student_dir.iterdir() if p.is_dir()):
            assignment, student = incoming.name, student_dir.name
            if assignment not in assignments:
                print(f"skipped {incoming}: no assignment {assignment!r} in {course}/source")
                continue
            target = course / "submitted" / student / assignment
            if target.exists() and not _differs(incoming, target):
                graded = course / "autograded" / student / assignment
                if graded.exists() and not _newer(target, graded):
                    continue  # graded already: keep its grades (and any manual ones)
            elif target.exists():
                for step in STEPS:  # keep the earlier submission and its results
                    old = course / step / student / assignment
                    if old.exists():
                        archived = course / "archive" / stamp / step / student / assignment
                        archived.parent.mkdir(parents=True, exist_ok=True)
                        shutil.move(old, archived)
            if not target.exists():
                shutil.copytree(incoming, target)
            to_grade.setdefault(assignment, []).append(student)
    return to_grade


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


def grade(course: Path, assignment: str, students: list[str]) -> None:
    """Autograde, then write feedback, for these students only."""
    everyone = {p.parent.name for p in (course / "submitted").glob(f"*/{assignment}")}
    broken = {
        student
        for student in students
        for path in (course / "submitted" / student / assignment).glob("*.ipynb")
        if notebook_problem(path)
    }
    graded = sorted(set(students) - broken)
    if not graded:
        return
    exclude = ",".join(sorted(everyone - set(graded)))
    options = ["--force", f"--CourseDirectory.student_id_exclude={exclude}"]
    # A failure of one student's notebook (a dead kernel) is reported per
    # student below; nbgrader goes on with the others and exits non-zero.
    try:
        nbgrader("autograde", assignment, *options, course=course)
    except Exception as error:  # noqa: BLE001 - reported in grades.csv, row by row
        print(f"nbgrader autograde {assignment}: {error}; see the rows of grades.csv")
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gradebook:
        for student in graded:
            _zero_deleted_tests(course, gradebook, assignment, student)
    try:
        nbgrader("generate_feedback", assignment, *options, course=course)
    except Exception as error:  # noqa: BLE001
        print(f"nbgrader generate_feedback {assignment}: {error}")


def _grade_ids(notebook: nbformat.NotebookNode) -> dict[str, nbformat.NotebookNode]:
    return {
        cell.metadata["nbgrader"]["grade_id"]: cell
        for cell in notebook.cells
        if "grade_id" in cell.metadata.get("nbgrader", {})
    }


def _zero_deleted_tests(course: Path, gradebook, assignment: str, student: str) -> None:
    """A test cell the student deleted scores 0 (nbgrader would leave it ungraded)."""
    for notebook in gradebook.find_assignment(assignment).notebooks:
        path = course / "autograded" / student / assignment / f"{notebook.name}.ipynb"
        if not path.exists():
            continue
        present = _grade_ids(nbformat.read(path, as_version=4))
        for cell in notebook.grade_cells:
            if cell.name not in present:
                grade = gradebook.find_grade(cell.name, notebook.name, assignment, student)
                grade.auto_score, grade.needs_manual_grade = 0, False
    gradebook.db.commit()


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
                else:
                    # The checker's message, with its count and hint, on one line.
                    evalue = " ".join(ANSI.sub("", output.evalue).split())
                    notes.append(f"{output.ename}: {evalue}".strip())
                break
            if output.output_type == "stream" and output.name == "stderr":
                notes.append(f"the cell wrote to stderr: {output.text.strip()[:200]}")
                break
    if source_cell is not None and submitted_cell is not None and source_cell.locked:
        if submitted_cell.source != source_cell.source:
            notes.append("the locked test cell had been edited; the original test was run")
    if not notes and score is None:
        notes.append("written answer: grade it in nbgrader's formgrader")
    elif not notes and score == 0 and cell.metadata["nbgrader"].get("solution"):
        notes.append("no answer")
    return "; ".join(notes)


def rows(course: Path) -> list[Row]:
    """One row per student and question, for every submission in the course."""
    result = []
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gradebook:
        for assignment in sorted(gradebook.assignments, key=lambda a: a.name):
            for student_dir in sorted((course / "submitted").glob(f"*/{assignment.name}")):
                student = student_dir.parent.name
                for notebook in assignment.notebooks:
                    result += _notebook_rows(course, gradebook, assignment.name, notebook, student)
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
    submitted = _grade_ids(nbformat.read(submitted_path, as_version=4))
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


def add_notes_to_feedback(course: Path, table: list[Row]) -> None:
    """List each question's reason at the top of the student's feedback page."""
    by_page: dict[Path, list[Row]] = {}
    for row in table:
        if row.reason:
            for page in (course / "feedback" / row.student / row.assignment).glob("*.html"):
                by_page.setdefault(page, []).append(row)
    for page, notes in by_page.items():
        text = page.read_text(encoding="utf-8")
        if NOTES_MARK in text or "<body" not in text:
            continue
        items = "".join(
            f"<li><b>{html.escape(r.question)}</b> ({'' if r.score is None else f'{r.score:g}'}"
            f"/{r.max_score:g}): {html.escape(r.reason)}</li>"
            for r in notes
        )
        box = (
            f"{NOTES_MARK}<div style='border:2px solid #c60;padding:0.5em 1em;margin:1em'>"
            f"<h2>Grading notes</h2><ul>{items}</ul></div>"
        )
        body = re.search(r"<body[^>]*>", text)
        text = text[: body.end()] + box + text[body.end() :]
        page.write_text(text, encoding="utf-8")


def main(course_dir: str, submitted_dir: str) -> None:
    course, submitted = Path(course_dir), Path(submitted_dir)
    if not (course / "gradebook.db").exists():
        sys.exit(f"{course} has no assignments yet: run `make assignments` first")
    if not submitted.is_dir():
        sys.exit(f"{submitted} is not a directory of submissions (DIR/<student>/chNN/*.ipynb)")
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S.%fZ")
    for assignment, students in sorted(collect(course, submitted, stamp).items()):
        grade(course, assignment, students)
    write_broken_feedback(course)
    table = rows(course)
    add_notes_to_feedback(course, table)
    with open(course / "grades.csv", "w", newline="") as file:
        writer = csv.writer(file)
        writer.writerow(COLUMNS)
        writer.writerows(row.as_csv() for row in table)
    print(f"{course / 'grades.csv'}: {len(table)} rows; feedback in {course / 'feedback'}")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
