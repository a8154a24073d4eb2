"""Run ``nbgrader autograde`` then ``generate_feedback`` for several students, one process.

Usage (in the course folder): ``python nbgrader_batch.py [--feedback-only] ASSIGNMENT``
with one student id per line on standard input, so that ids with spaces, commas or any
letters pass as they are (nbgrader's ``--student`` lists split on commas).
Between the two steps, a locked test cell a student deleted is given 0 points
(nbgrader would leave it ungraded). Prints one JSON line per student and step:
``{"action", "student", "success", "error"}``. One process for both steps and
every student: nbgrader's start-up is paid once per assignment, not per step.
``--feedback-only`` writes the feedback pages again from the gradebook, for
students whose grades changed since (a written answer graded by hand).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

# As in runner.py: nbformat's jsonschema skips a grammar it would build for nothing.
sys.modules.setdefault("rfc3987_syntax", None)

import nbformat  # noqa: E402
from nbgrader.api import Gradebook  # noqa: E402
from nbgrader.apps.api import NbGraderAPI  # noqa: E402
from nbgrader.coursedir import CourseDirectory  # noqa: E402
from traitlets.config.loader import PyFileConfigLoader  # noqa: E402


def _report(action: str, student: str, result: dict) -> None:
    print(
        json.dumps(
            {
                "action": action,
                "student": student,
                "success": bool(result.get("success")),
                "error": str(result.get("error") or "")[-2000:],
            }
        ),
        flush=True,
    )


def zero_deleted_tests(course: Path, gradebook, assignment: str, student: str) -> None:
    """A test cell the student deleted scores 0 (nbgrader would leave it ungraded)."""
    for notebook in gradebook.find_assignment(assignment).notebooks:
        path = course / "autograded" / student / assignment / f"{notebook.name}.ipynb"
        if not path.exists():
            continue
        present = {
            cell.metadata["nbgrader"]["grade_id"]
            for cell in nbformat.read(path, as_version=4).cells
            if "grade_id" in cell.metadata.get("nbgrader", {})
        }
        for cell in notebook.grade_cells:
            if cell.name not in present:
                grade = gradebook.find_grade(cell.name, notebook.name, assignment, student)
                grade.auto_score, grade.needs_manual_grade = 0, False
    gradebook.db.commit()


def main(assignment: str, *, feedback_only: bool = False) -> None:
    course = Path.cwd()
    config = PyFileConfigLoader("nbgrader_config.py", path=str(course)).load_config()
    config.CourseDirectory.root = str(course)
    api = NbGraderAPI(coursedir=CourseDirectory(config=config), config=config)
    students = [student for student in sys.stdin.read().split("\n") if student]
    if not feedback_only:
        for student in students:
            result = api.autograde(assignment, student, force=True, create=True)
            _report("autograde", student, result)
        with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gradebook:
            for student in students:
                zero_deleted_tests(course, gradebook, assignment, student)
    for student in students:
        _report("feedback", student, api.generate_feedback(assignment, student, force=True))


if __name__ == "__main__":
    arguments = [a for a in sys.argv[1:] if a != "--feedback-only"]
    main(*arguments, feedback_only="--feedback-only" in sys.argv)
