"""Run ``nbgrader autograde`` or ``generate_feedback`` for several students in one process.

Usage (in the course folder): ``python nbgrader_batch.py autograde|feedback ASSIGNMENT``
with one student id per line on standard input, so that ids with spaces,
commas or any letters pass as they are (nbgrader's ``--student`` lists split
on commas). Prints one JSON line per student: ``{"student", "success", "error"}``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from nbgrader.apps.api import NbGraderAPI
from nbgrader.coursedir import CourseDirectory
from traitlets.config.loader import PyFileConfigLoader


def main(action: str, assignment: str) -> None:
    course = Path.cwd()
    config = PyFileConfigLoader("nbgrader_config.py", path=str(course)).load_config()
    config.CourseDirectory.root = str(course)
    api = NbGraderAPI(coursedir=CourseDirectory(config=config), config=config)
    for student in sys.stdin.read().split("\n"):
        if not student:
            continue
        if action == "autograde":
            result = api.autograde(assignment, student, force=True, create=True)
        else:
            result = api.generate_feedback(assignment, student, force=True)
        print(
            json.dumps(
                {
                    "student": student,
                    "success": bool(result.get("success")),
                    "error": str(result.get("error") or "")[-2000:],
                }
            ),
            flush=True,
        )


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
