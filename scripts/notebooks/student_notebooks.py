"""Write the students' copies of the chapters: the same notebooks, solutions removed.

Each exercise's solution sits between a ``solution-start`` and a
``solution-end`` directive (sphinx-exercise). Those markers may start or end
in the middle of a Markdown cell (the same cell often closes one solution and
opens the next exercise), so solutions are cut out of the text, and every cell
between the two markers is dropped. Everything else, outputs included, stays.

A coding exercise's solution follows the course's convention: its first code
cell defines the function and ends with the checker call, ``ch03.check_update(
update)``. In a student's copy the solution is replaced by an *answer cell*:
the function's ``def`` line(s), a body that raises ``NotImplementedError``, and
the same checker call, so the student fills in the body and runs the cell.
An exercise whose answer is values (weights found by hand) ends its first
solution cell with a checker call on names the cell assigns,
``ch07.check_lifted_xor_weights(w, b)``; its answer cell assigns each of them
``...`` (which the checker reports as not written yet) before the same call.

Usage: ``python scripts/notebooks/student_notebooks.py OUTPUT_DIR NOTEBOOK...``
(``make student`` writes the book's chapters to ``_build/student``).
"""

from __future__ import annotations

import ast
import copy
import re
import sys
from pathlib import Path

import nbformat

# ```{solution-start} label            ```{solution-end}
# :class: dropdown                      ```
# ```
SOLUTION_START = re.compile(r"^```\{solution-start\}.*?^```[ \t]*$\n?", re.MULTILINE | re.DOTALL)
SOLUTION_END = re.compile(r"^```\{solution-end\}[ \t]*\n```[ \t]*$\n?", re.MULTILINE)
SOLUTION_LABEL = re.compile(r"^```\{solution-start\}[ \t]*(\S+)", re.MULTILINE)
NOT_WRITTEN = 'raise NotImplementedError("write your answer here")'


def _strip_markdown(text: str, inside: bool) -> tuple[str, bool]:
    """Remove the solution parts of one Markdown cell; return (kept text, inside after)."""
    kept, position = [], 0
    while True:
        marker = (SOLUTION_END if inside else SOLUTION_START).search(text, position)
        if marker is None:
            if not inside:
                kept.append(text[position:])
            return "".join(kept).strip("\n"), inside
        if not inside:
            kept.append(text[position : marker.start()])
        position, inside = marker.end(), not inside


def strip_solutions(notebook: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """Return a copy of ``notebook`` without the exercises' solutions."""
    return _student_version(notebook, answer_cells=False)


def student_copy(notebook: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """Return the students' copy: solutions removed, an answer cell for each coding one.

    Each answer cell carries ``metadata["exercise_answer"]``, the exercise's label.
    """
    return _student_version(notebook, answer_cells=True)


def answer_source(solution_code: str) -> str | None:
    """Return the answer cell for a solution's first code cell, or None if it has none.

    The cell must end with a checker call ``chNN.check_x(name)``. If its
    argument is a function the cell defines, the answer keeps that function's
    ``def`` line(s), replaces its body, and ends with the same call. If the
    call's arguments are names the cell assigns (an answer made of values),
    the answer assigns each of them ``...`` and ends with the same call.

    >>> print(answer_source("def f(x,\\n      y):\\n    return x + y\\n\\n\\nch01.check_f(f)"))
    def f(x,
          y):
        raise NotImplementedError("write your answer here")
    <BLANKLINE>
    <BLANKLINE>
    ch01.check_f(f)
    >>> print(answer_source("w = [1.0, 2.0]  # hand\\nb = -1.5\\nch07.check_w(w, b, gate='or')"))
    w = ...  # your answer
    b = ...  # your answer
    ch07.check_w(w, b, gate='or')
    """
    try:
        module = ast.parse(solution_code)
    except SyntaxError:
        return None
    if not module.body:
        return None
    last = module.body[-1]
    call = last.value if isinstance(last, ast.Expr) else None
    if not (
        isinstance(call, ast.Call)
        and isinstance(call.func, ast.Attribute)
        and call.func.attr.startswith("check_")
        and call.args
        and all(isinstance(argument, ast.Name) for argument in call.args)
    ):
        return None
    checker = ast.get_source_segment(solution_code, last)
    assigned = {
        target.id
        for node in module.body
        if isinstance(node, ast.Assign)
        for target in node.targets
        if isinstance(target, ast.Name)
    }
    names = [argument.id for argument in call.args]
    if all(name in assigned for name in names):  # an answer made of values
        return "\n".join([*(f"{name} = ...  # your answer" for name in names), checker])
    if len(names) != 1:
        return None
    name = names[0]
    functions = [
        node for node in module.body if isinstance(node, ast.FunctionDef) and node.name == name
    ]
    if not functions:
        return None
    function = functions[-1]
    lines = solution_code.splitlines()
    header = lines[function.lineno - 1 : function.body[0].lineno - 1]
    if not header:  # a one-line function: `def f(x): return x`
        return None
    indent = " " * (function.col_offset + 4)
    return "\n".join([*header, indent + NOT_WRITTEN, "", "", checker])


def solution_code_cells(notebook: nbformat.NotebookNode) -> dict[str, str]:
    """Return each solution's first code cell, by exercise label (coding solutions only)."""
    found, inside, label, first_code = {}, False, None, None
    for cell in notebook.cells:
        if cell.cell_type == "markdown":
            _, inside_after = _strip_markdown(cell.source, inside)
            closes = inside and SOLUTION_END.search(cell.source) is not None
            if closes and first_code is not None:
                found[label] = first_code
            if inside_after and (closes or not inside):  # a new solution starts here
                starts = SOLUTION_LABEL.findall(cell.source)
                label, first_code = (starts[-1] if starts else None), None
            inside = inside_after
        elif inside and first_code is None:
            first_code = cell.source
    return found


def _student_version(
    notebook: nbformat.NotebookNode, *, answer_cells: bool
) -> nbformat.NotebookNode:
    student = copy.deepcopy(notebook)
    cells, inside = [], False
    label, first_code = None, None  # of the solution being removed
    for cell in student.cells:
        if cell.cell_type == "markdown":
            text, inside_after = _strip_markdown(cell.source, inside)
            closes = inside and SOLUTION_END.search(cell.source) is not None
            answer = answer_source(first_code) if closes and first_code is not None else None
            if answer_cells and answer is not None:
                # In place of the solution, before the text that follows it.
                answer_cell = nbformat.v4.new_code_cell(answer)
                answer_cell.metadata["exercise_answer"] = label
                cells.append(answer_cell)
            if closes:
                label, first_code = None, None
            # A Markdown cell inside a solution (text between its code cells) keeps the
            # solution's label and first code cell; only a new solution-start resets them.
            if inside_after and (closes or not inside):
                starts = SOLUTION_LABEL.findall(cell.source)
                label, first_code = (starts[-1] if starts else None), None
            if text.strip():
                cell.source = text
                cells.append(cell)
            inside = inside_after
        elif not inside:
            cells.append(cell)
        elif first_code is None:
            first_code = cell.source
    if inside:
        raise ValueError("a solution-start has no matching solution-end")
    student.cells = cells
    return student


def main(output_dir: str, *notebooks: str) -> None:
    out = Path(output_dir)
    out.mkdir(parents=True, exist_ok=True)
    for path in map(Path, notebooks):
        student = student_copy(nbformat.read(path, as_version=4))
        nbformat.write(student, out / path.name)
        print(f"{out / path.name}")


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    main(sys.argv[1], *sys.argv[2:])
