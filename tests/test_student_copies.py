"""The students' copies run: every coding exercise can be answered where it stands.

For each chapter in ``_toc.yml`` with checked exercises, the students' copy (as
``make student`` writes it) is executed once, top to bottom, in the course's
kernel, with one extra cell after each generated answer cell holding the right
answer (the solution's first code cell). So each exercise is run twice: as the
student first meets it, where its check must fail with the checker's own
message (not a ``NameError``), then answered correctly, where its check must
pass, and so must every cell after it.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient
from toc import ROOT, toc_notebooks

sys.path.insert(0, str(ROOT / "scripts" / "notebooks"))
from student_notebooks import (  # noqa: E402
    NOT_WRITTEN,
    answer_source,
    solution_code_cells,
    student_copy,
)

# ``ch07.check_two_layer_network(W_hidden, b_hidden, w_out, b_out, gate="xnor")``
CHECK_ON_NAMES = r"^ch\d\d\.check_\w+\([A-Za-z_]\w*(, [A-Za-z_]\w*)*(\)|, \w+=)"

CHAPTERS = [
    path for path in toc_notebooks() if solution_code_cells(nbformat.read(path, as_version=4))
]


def errors(cell) -> list:
    return [output for output in cell.get("outputs", []) if output.output_type == "error"]


def printed(cell) -> str:
    outputs = cell.get("outputs", [])
    return "".join(output.get("text", "") for output in outputs if output.output_type == "stream")


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.name)
def test_student_copy_fails_unanswered_and_passes_answered(path: Path):
    original = nbformat.read(path, as_version=4)
    solutions = solution_code_cells(original)
    # Checked exercises: the first solution cell ends with a checker call on names
    # (a function it defines, or values it assigns), not on literals written in the
    # call (no answer cell could be generated for those).
    checked = {
        label: code
        for label, code in solutions.items()
        if re.search(CHECK_ON_NAMES, code.strip().splitlines()[-1])
    }
    student = student_copy(original)
    answer_cells = [cell for cell in student.cells if "exercise_answer" in cell.metadata]
    assert sorted(cell.metadata["exercise_answer"] for cell in answer_cells) == sorted(checked), (
        "every solution that calls a checker must follow the convention (the first solution "
        "cell defines the function and ends with the checker call)"
    )
    for label, code in checked.items():
        assert answer_source(code) is not None, label
    cells = []
    for cell in student.cells:
        cell.outputs = [] if cell.cell_type == "code" else None
        if cell.cell_type != "code":
            del cell["outputs"]
        cells.append(cell)
        if "exercise_answer" in cell.metadata:
            answered = nbformat.v4.new_code_cell(solutions[cell.metadata["exercise_answer"]])
            answered.metadata["answered"] = cell.metadata["exercise_answer"]
            cells.append(answered)
    student.cells = cells
    NotebookClient(
        student,
        timeout=300,
        kernel_name="python3",
        allow_errors=True,
        resources={"metadata": {"path": str(path.parent)}},
    ).execute()
    for cell in student.cells:
        if cell.cell_type != "code":
            continue
        if "exercise_answer" in cell.metadata:
            assert NOT_WRITTEN in cell.source or "= ...  # your answer" in cell.source
            failures = errors(cell)
            label = cell.metadata["exercise_answer"]
            assert [f.ename for f in failures] == ["ExerciseFailure"], (label, failures)
            # The checker's own verdict, in a few lines (no chained traceback).
            assert "(write your answer here)" in failures[0].evalue, (label, failures)
            assert len("\n".join(failures[0].traceback).splitlines()) <= 4, failures
        elif "answered" in cell.metadata:
            assert not errors(cell), (cell.metadata["answered"], errors(cell))
            assert re.search(r"passed for|are right|^Right", printed(cell), re.MULTILINE), (
                cell.metadata["answered"],
                printed(cell),
            )
        else:
            assert not errors(cell), (cell.source[:200], errors(cell))
