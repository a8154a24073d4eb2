"""The students' copies keep every exercise and lose every solution."""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat
import pytest
from toc import ROOT, toc_notebooks

sys.path.insert(0, str(ROOT / "scripts" / "notebooks"))
from student_notebooks import (  # noqa: E402
    answer_source,
    solution_code_cells,
    strip_solutions,
    student_copy,
)


def text_of(notebook):
    return "\n".join(cell.source for cell in notebook.cells)


@pytest.mark.parametrize("path", toc_notebooks(), ids=lambda p: p.name)
def test_chapter_copy_has_exercises_and_no_solutions(path: Path):
    original = nbformat.read(path, as_version=4)
    student = strip_solutions(original)
    assert "solution-start" not in text_of(student)
    assert "solution-end" not in text_of(student)
    assert text_of(student).count("```{exercise}") == text_of(original).count("```{exercise}")
    assert text_of(original).count("```{exercise}") >= 4
    assert len(student.cells) < len(original.cells)
    # The lesson itself is untouched: its first cells are the same.
    assert student.cells[:5] == original.cells[:5]


def test_markers_in_the_middle_of_cells():
    notebook = nbformat.v4.new_notebook(
        cells=[
            nbformat.v4.new_markdown_cell("Intro.\n\n```{exercise} One\n:label: one\nDo it.\n```"),
            nbformat.v4.new_markdown_cell(
                "```{solution-start} one\n:class: dropdown\n```\nThe answer is 42."
            ),
            nbformat.v4.new_code_cell("answer = 42"),
            nbformat.v4.new_markdown_cell(
                "```{solution-end}\n```\n\n```{exercise} Two\n:label: two\nAgain.\n```\n\n"
                "```{solution-start} two\n:class: dropdown\n```\nSecret."
            ),
            nbformat.v4.new_code_cell("secret = 1"),
            nbformat.v4.new_markdown_cell("```{solution-end}\n```\n\n## Next section"),
            nbformat.v4.new_code_cell("kept = True"),
        ]
    )
    student = strip_solutions(notebook)
    sources = [cell.source for cell in student.cells]
    assert sources == [
        "Intro.\n\n```{exercise} One\n:label: one\nDo it.\n```",
        "```{exercise} Two\n:label: two\nAgain.\n```",
        "## Next section",
        "kept = True",
    ]
    assert notebook.cells[2].source == "answer = 42"  # the original is not changed


def test_unclosed_solution_is_an_error():
    notebook = nbformat.v4.new_notebook(
        cells=[nbformat.v4.new_markdown_cell("```{solution-start} x\n:class: dropdown\n```")]
    )
    with pytest.raises(ValueError, match="no matching solution-end"):
        strip_solutions(notebook)


def test_a_markdown_cell_inside_a_solution_keeps_its_answer_cell():
    # Chapter 7's poly2_features: text between the solution's code cells.
    notebook = nbformat.v4.new_notebook(
        cells=[
            nbformat.v4.new_markdown_cell(
                "```{exercise} F\n:label: f\nWrite f.\n```\n\n"
                "```{solution-start} f\n:class: dropdown\n```\nExpand the square."
            ),
            nbformat.v4.new_code_cell("def f(x):\n    return x\n\n\nch07.check_f(f)"),
            nbformat.v4.new_markdown_cell("How many features? For D = 1000:"),
            nbformat.v4.new_code_cell("print(f(1000))"),
            nbformat.v4.new_markdown_cell("```{solution-end}\n```\n\n## Next"),
        ]
    )
    student = student_copy(notebook)
    answers = [cell for cell in student.cells if "exercise_answer" in cell.metadata]
    assert [cell.metadata["exercise_answer"] for cell in answers] == ["f"]
    assert answers[0].source == (
        'def f(x):\n    raise NotImplementedError("write your answer here")\n\n\nch07.check_f(f)'
    )
    assert solution_code_cells(notebook) == {"f": notebook.cells[1].source}
    assert "print(f(1000))" not in "\n".join(cell.source for cell in student.cells)


def test_an_answer_made_of_values_gets_an_answer_cell_of_dots():
    code = 'w = [1.0, 1.0, -2.0]  # OR, then AND\nb = -0.5\nch07.check_w(w, b, gate="xor")'
    assert answer_source(code) == (
        'w = ...  # your answer\nb = ...  # your answer\nch07.check_w(w, b, gate="xor")'
    )
    # A call on something the cell neither defines nor assigns is no answer cell.
    assert answer_source("ch07.check_w(w, b)") is None
