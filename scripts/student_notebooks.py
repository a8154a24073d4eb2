"""Write the students' copies of the chapters: the same notebooks, solutions removed.

Each exercise's solution sits between a ``solution-start`` and a
``solution-end`` directive (sphinx-exercise). Those markers may start or end
in the middle of a Markdown cell (the same cell often closes one solution and
opens the next exercise), so solutions are cut out of the text, and every cell
between the two markers is dropped. Everything else, outputs included, stays.

Usage: ``python scripts/student_notebooks.py OUTPUT_DIR NOTEBOOK...``
(``make student`` writes the book's chapters to ``_build/student``).
"""

from __future__ import annotations

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
    student = copy.deepcopy(notebook)
    cells, inside = [], False
    for cell in student.cells:
        if cell.cell_type == "markdown":
            text, inside_after = _strip_markdown(cell.source, inside)
            if text.strip():
                cell.source = text
                cells.append(cell)
            inside = inside_after
        elif not inside:
            cells.append(cell)
    if inside:
        raise ValueError("a solution-start has no matching solution-end")
    student.cells = cells
    return student


def main(output_dir: str, *notebooks: str) -> None:
    out = Path(output_dir)
    out.mkdir(parents=True, exist_ok=True)
    for path in map(Path, notebooks):
        student = strip_solutions(nbformat.read(path, as_version=4))
        nbformat.write(student, out / path.name)
        print(f"{out / path.name}")


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    main(sys.argv[1], *sys.argv[2:])
