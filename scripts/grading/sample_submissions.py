"""Write a class of sample submissions, in nbgrader's layout, to try ``make grade`` on.

Made from the course folder that ``make assignments`` wrote, the way students
make theirs: they start from the released notebook and fill in the answers.

- ``answer-key``: every chapter, each answer cell filled in from the source
  (the instructor's answer key): full marks on every coding question;
- ``blank``: every chapter, the released notebook handed in untouched;
- chapter 1 only, each student with one problem in ``predict`` (the second
  coding exercise; nothing later in the chapter calls it):
  ``typo`` (``>=`` for ``>``: a point on the boundary fires),
  ``raises`` (it raises), ``endless`` (it never returns),
  ``chatty`` (it is right but prints a megabyte per call),
  ``no-test`` (right, but its locked test cell deleted),
  ``edited-test`` (wrong, returns 0 for -1, and its test cell replaced by ``pass``),
  ``not-json`` (a file that is not a notebook).

The tests (``tests/test_nbgrader.py``) grade exactly these.

Usage: ``python scripts/grading/sample_submissions.py COURSE_DIR OUTPUT_DIR``
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from pathlib import Path

import nbformat

BEGIN_OR_END = re.compile(r"^[ \t]*### (BEGIN|END) SOLUTION[ \t]*\n", re.MULTILINE)
FIRST_CHAPTER = "ch01"
# The answers the chapter-1 students give to ``predict(w, x, b)`` (function bodies).
PREDICT = "ex-ch1-predict"
TYPO = "    return 1 if activation(w, x, b) >= 0 else -1\n"
RAISES = '    raise ValueError("I could not do it")\n'
ENDLESS = "    while True:\n        pass\n"
CHATTY = '    print("x" * 1_000_000)\n    return 1 if activation(w, x, b) > 0 else -1\n'
ZERO_FOR_MINUS_ONE = "    return 1 if activation(w, x, b) > 0 else 0\n"


def answer_key(source: nbformat.NotebookNode, release: nbformat.NotebookNode):
    """The released notebook with every answer cell filled in from the source."""
    key = nbformat.from_dict(release)
    answers = {
        cell.metadata["nbgrader"]["grade_id"]: BEGIN_OR_END.sub("", cell.source + "\n")
        for cell in source.cells
        if cell.metadata.get("nbgrader", {}).get("solution")
    }
    for cell in key.cells:
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
        if grade_id in answers:
            cell.source = answers[grade_id].rstrip("\n")
    return key


def _cell(notebook, grade_id: str):
    for cell in notebook.cells:
        if cell.metadata.get("nbgrader", {}).get("grade_id") == grade_id:
            return cell
    raise ValueError(f"no cell {grade_id!r}: did the chapter's exercise change its label?")


def with_body(notebook, grade_id: str, body: str):
    """Replace the body of the function defined in the answer cell ``grade_id``."""
    cell = _cell(notebook, grade_id)
    lines = cell.source.splitlines(keepends=True)
    start = next(i for i, line in enumerate(lines) if line.startswith("def "))
    cell.source = "".join(lines[: start + 1]) + body
    return notebook


def write(notebook, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(notebook, path)


def main(course_dir: str, output_dir: str) -> None:
    course, out = Path(course_dir), Path(output_dir)
    for source_path in sorted((course / "source").glob("*/*.ipynb")):
        assignment, name = source_path.parent.name, source_path.name
        release_path = course / "release" / assignment / name
        source = nbformat.read(source_path, as_version=4)
        release = nbformat.read(release_path, as_version=4)
        write(answer_key(source, release), out / "answer-key" / assignment / name)
        write(release, out / "blank" / assignment / name)
        if assignment != FIRST_CHAPTER:
            continue
        for student, change in STUDENTS.items():
            write(change(answer_key(source, release)), out / student / assignment / name)
        broken = out / "not-json" / assignment / name
        broken.parent.mkdir(parents=True, exist_ok=True)
        broken.write_text('{"cells": [ this is not JSON')
    print(f"sample submissions in {out}")


def _without_test(notebook):
    notebook.cells.remove(_cell(notebook, PREDICT))
    return notebook


def _edited_test(notebook):
    with_body(notebook, f"{PREDICT}-answer", ZERO_FOR_MINUS_ONE)
    _cell(notebook, PREDICT).source = "pass  # the test is fine, trust me"
    return notebook


STUDENTS: dict[str, Callable] = {
    "typo": lambda nb: with_body(nb, f"{PREDICT}-answer", TYPO),
    "raises": lambda nb: with_body(nb, f"{PREDICT}-answer", RAISES),
    "endless": lambda nb: with_body(nb, f"{PREDICT}-answer", ENDLESS),
    "chatty": lambda nb: with_body(nb, f"{PREDICT}-answer", CHATTY),
    "no-test": _without_test,
    "edited-test": _edited_test,
}


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
