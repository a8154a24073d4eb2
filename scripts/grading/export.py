"""Grades for a learning-management system: ``make export``.

Reads the course's gradebook as ``make grade`` left it (written answers graded
in the formgrader since included) and writes, in ``COURSE/export/``:

- ``by-student.csv``: one row per student: every question of every assignment,
  each assignment's total, and ``written_not_graded``, the number of written
  answers still waiting for a grade (their points are not in the totals yet);
- ``canvas.csv``: the totals in the columns of a Canvas gradebook import
  (``Student, ID, SIS User ID, SIS Login ID, Section``, then one column per
  assignment). Canvas's importer finds the student by ``ID`` (the Canvas user
  id), then ``SIS User ID``, then ``SIS Login ID``, then the name. A student
  graded from Canvas's bulk download has the user id its file name carries in
  ``ID``; a student of a plain folder has none, so the folder name goes in
  ``SIS Login ID`` (right only if the folders are named by login);
- ``moodle-chNN.csv``, one per assignment: Moodle's offline grading worksheet
  (``Identifier, Full name, Grade, Last modified (grade)``), which an
  assignment's "Upload grading worksheet" matches by ``Identifier``,
  ``Participant <number>``: the number of Moodle's download folder or file
  name. A student not graded from a Moodle download has no identifier (empty:
  Moodle skips the row);
- ``NOTES.txt``: what the files cannot say: the students whose totals count
  written answers not graded yet as 0, the folders not graded (with why), and
  the students without an LMS id.

Scores are rounded to two decimals (``3.28``, not ``3.2800000000000002``);
every file is UTF-8, written by :mod:`csv` (a name with a comma or a quote is
quoted). A student with written answers not graded is named on the terminal.

Usage: ``python scripts/grading/export.py COURSE_DIR``
"""

from __future__ import annotations

import csv
import sys
from datetime import datetime, timezone
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parents[1]  # scripts/, where the grading package is
sys.path.insert(0, str(SCRIPTS))
from grading import grades  # noqa: E402

FOLDER = "export"
CANVAS_IDS = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]
# The columns Moodle's offline grading worksheet import needs (mod/assign/feedback/offline):
# it refuses a file without Identifier, Grade or Last modified (grade).
MOODLE_COLUMNS = ["Identifier", "Full name", "Grade", "Last modified (grade)"]
PARTICIPANT = "Participant "  # Moodle's identifier: this, then the participant number
NOT_GRADED = "written_not_graded"
NOTES = "NOTES.txt"


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
        line.append(str(pending(marks)))
        lines.append(line)
    return lines


def lms_ids(marks: dict[str, grades.Row], system: str) -> dict[str, str]:
    """{assignment: the student's number in ``system``} from their grades' rows."""
    return {row.assignment: row.lms_id for row in marks.values() if row.lms == system}


def canvas(rows: list[grades.Row]) -> list[list[str]]:
    """The totals in the columns of a Canvas gradebook import.

    ``ID`` is the Canvas user id of a Canvas download; a student of a plain
    folder (no LMS) has the folder name as ``SIS Login ID`` instead.
    """
    assignments, students = table(rows)
    lines = [[*CANVAS_IDS, *assignments]]
    for student, marks in sorted(students.items()):
        scores = [totals(marks, assignment) for assignment in assignments]
        user_ids = sorted(set(lms_ids(marks, "Canvas").values()))
        user_id = user_ids[0] if len(user_ids) == 1 else ""  # (never two for one name)
        login = student if not any(row.lms for row in marks.values()) else ""
        lines.append(
            [student, user_id, "", login, ""]
            + ["" if score is None else number(score) for score in scores]
        )
    return lines


def moodle(rows: list[grades.Row], assignment: str, when: str) -> list[list[str]]:
    """One assignment's totals as Moodle's offline grading worksheet.

    ``when`` fills ``Last modified (grade)``: Moodle keeps a grade changed in
    Moodle after that time (unless told to overwrite it).
    """
    _, students = table(rows)
    lines = [MOODLE_COLUMNS]
    for student, marks in sorted(students.items()):
        total = totals(marks, assignment)
        if total is None:
            continue  # not handed in
        number_ = lms_ids(marks, "Moodle").get(assignment)
        identifier = f"{PARTICIPANT}{number_}" if number_ else ""
        lines.append([identifier, student, number(total), when])
    return lines


def pending(marks: dict[str, grades.Row]) -> int:
    """How many of a student's written answers wait for a grade."""
    return sum(row.score is None for row in marks.values())


def notes(rows: list[grades.Row]) -> list[str]:
    """What the gradebook files cannot say: totals with ungraded answers, folders not
    graded, missing ids."""
    _, students = table(rows)
    waiting = sorted(s for s, marks in students.items() if pending(marks))
    no_id = sorted(s for s, marks in students.items() if not any(r.lms for r in marks.values()))
    lines = []
    if waiting:
        lines.append(
            f"{len(waiting)} students have written answers not graded yet: their totals in "
            f"canvas.csv and moodle-*.csv count those answers as 0 (by-student.csv counts "
            f"them in {NOT_GRADED}): {', '.join(waiting)}"
        )
    for row in rows:
        if not row.assignment:  # a folder that matched no assignment or student id
            name = row.student if row.student.isprintable() else repr(row.student)
            lines.append(f"{name} is in no file here: {row.reason}")
    if no_id:
        lines.append(
            f"{len(no_id)} students were not graded from a Canvas or Moodle download, so "
            "they have no LMS id: canvas.csv gives their folder name as SIS Login ID, and "
            f"their Identifier in moodle-*.csv is empty (Moodle skips the row): "
            f"{', '.join(no_id)}"
        )
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
    for old in out.glob("moodle*.csv"):  # (an assignment no longer graded, an older name)
        old.unlink()
    when = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S+00:00")
    assignments, _ = table(rows)
    for assignment in assignments:
        write(out / f"moodle-{assignment}.csv", moodle(rows, assignment, when))
    said = notes(rows)
    (out / NOTES).write_text("".join(f"- {line}\n" for line in said) or "Nothing to note.\n")
    moodle_files = ", ".join(f"moodle-{assignment}.csv" for assignment in assignments)
    print(f"{out}: by-student.csv, canvas.csv, {moodle_files}, {NOTES}")
    for line in said:
        print(line)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
