"""Grades for a learning-management system: ``make export``.

Reads the course's gradebook as ``make grade`` left it (written answers graded
in the formgrader since included) and writes, in ``COURSE/export/``:

- ``by-student.csv``: one row per student: every question of every assignment,
  each assignment's total, and ``written_not_graded``, the number of written
  answers still waiting for a grade (their points are not in the totals yet);
- ``canvas.csv``: the totals in the columns of a Canvas gradebook import
  (``Student, ID, SIS User ID, SIS Login ID, Section``, then one column per
  assignment), the student's folder name as ``Student`` and ``SIS Login ID``;
- ``moodle.csv``: the totals with one identifier column, ``Username``, then
  one column per assignment: Moodle's CSV import maps each column to a user
  field or a grade item when the file is uploaded.

Scores are rounded to two decimals (``3.28``, not ``3.2800000000000002``);
every file is UTF-8, written by :mod:`csv` (a name with a comma or a quote is
quoted). A student with written answers not graded is named on the terminal.

Usage: ``python scripts/grading/export.py COURSE_DIR``
"""

from __future__ import annotations

import csv
import sys
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parents[1]  # scripts/, where the grading package is
sys.path.insert(0, str(SCRIPTS))
from grading import grades  # noqa: E402

FOLDER = "export"
CANVAS_IDS = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]
NOT_GRADED = "written_not_graded"


def number(value: float) -> str:
    """A score as a gradebook takes it: two decimals at most, no float noise."""
    return f"{round(value, 2):g}"


def table(rows: list[grades.Row]) -> tuple[list[str], dict[str, dict[str, grades.Row]]]:
    """The assignments, in order, and {student: {"chNN question": row}}."""
    assignments = sorted({row.assignment for row in rows if row.assignment})
    students: dict[str, dict[str, grades.Row]] = {}
    for row in rows:
        if row.assignment:  # (a folder that matched no assignment has no question)
            students.setdefault(row.student, {})[f"{row.assignment} {row.question}"] = row
    return assignments, students


def totals(marks: dict[str, grades.Row], assignment: str) -> float | None:
    """The points a student has so far in one assignment; ``None`` if not handed in."""
    mine = [row for key, row in marks.items() if key.startswith(f"{assignment} ")]
    if not mine:
        return None
    return sum(row.score or 0 for row in mine)


def by_student(rows: list[grades.Row]) -> list[list[str]]:
    """One row per student: every question, each assignment's total, the flag."""
    assignments, students = table(rows)
    questions: dict[str, list[str]] = {}  # assignment -> its questions, in the notebook's order
    maxima: dict[str, float] = {}
    for row in rows:
        if row.assignment:
            key = f"{row.assignment} {row.question}"
            if key not in maxima:
                questions.setdefault(row.assignment, []).append(key)
                maxima[key] = row.max_score
    header = ["student"]
    for assignment in assignments:
        header += [f"{key} (out of {maxima[key]:g})" for key in questions[assignment]]
        out_of = sum(maxima[key] for key in questions[assignment])
        header.append(f"{assignment} total (out of {out_of:g})")
    header.append(NOT_GRADED)
    lines = [header]
    for student, marks in sorted(students.items()):
        line = [student]
        for assignment in assignments:
            for key in questions[assignment]:
                row = marks.get(key)
                line.append("" if row is None or row.score is None else number(row.score))
            total = totals(marks, assignment)
            line.append("" if total is None else number(total))
        line.append(str(sum(row.score is None for row in marks.values())))
        lines.append(line)
    return lines


def canvas(rows: list[grades.Row]) -> list[list[str]]:
    """The totals in the columns of a Canvas gradebook import."""
    assignments, students = table(rows)
    lines = [[*CANVAS_IDS, *assignments]]
    for student, marks in sorted(students.items()):
        scores = [totals(marks, assignment) for assignment in assignments]
        lines.append(
            [student, "", "", student, ""]
            + ["" if score is None else number(score) for score in scores]
        )
    return lines


def moodle(rows: list[grades.Row]) -> list[list[str]]:
    """The totals with a ``Username`` column, for Moodle's CSV grade import."""
    assignments, students = table(rows)
    lines = [["Username", *assignments]]
    for student, marks in sorted(students.items()):
        scores = [totals(marks, assignment) for assignment in assignments]
        lines.append([student] + ["" if score is None else number(score) for score in scores])
    return lines


def write(path: Path, lines: list[list[str]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="", encoding="utf-8") as file:
        csv.writer(file).writerows(lines)


def main(course_dir: str) -> None:
    course = Path(course_dir)
    if not (course / "gradebook.db").exists():
        sys.exit(f"{course} has no gradebook: run `make assignments` and `make grade` first")
    rows = grades.rows(course)
    if not any(row.assignment for row in rows):
        sys.exit(f"{course}: nothing graded yet: run `make grade SUBMITTED=DIR` first")
    out = course / FOLDER
    write(out / "by-student.csv", by_student(rows))
    write(out / "canvas.csv", canvas(rows))
    write(out / "moodle.csv", moodle(rows))
    waiting = sorted({row.student for row in rows if row.assignment and row.score is None})
    print(f"{out}: by-student.csv, canvas.csv, moodle.csv")
    if waiting:
        print(
            f"{len(waiting)} students have written answers not graded yet (counted as 0 "
            f"in the totals): {', '.join(waiting)}"
        )


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
