"""Every figure a chapter draws reads on a phone (issue 24), measured as it is drawn.

tests/test_legibility.py measures the library's figure functions; a chapter
also lays out figures of its own (``plt.subplots`` in a cell). This test runs
a chapter top to bottom in a kernel in which every PNG the inline backend
renders (``bbox_inches="tight"``, as the book shows it) is first measured with
:func:`perceptron_lib.figures.legibility.smallest_text`, and asks each of them for at
least 8 CSS px at 342 px wide. Animation frames (saved whole, not cropped) are
measured by tests/test_legibility.py.

It executes whole chapters, so ``make unit`` leaves it to ``make notebooks``.
"""

from __future__ import annotations

import json
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from perceptron_lib.figures.legibility import SMALLEST_TEXT

BOOK = Path(__file__).resolve().parent.parent / "book"
CHAPTERS = sorted(path.name for path in BOOK.glob("0[1-9]_*.ipynb"))

# Run first in the chapter's kernel: measure each figure the inline backend
# renders, with the source of the cell being run (IPython's pre_run_cell event).
MEASURE = """
import matplotlib.backend_bases as _figure_backend
from IPython import get_ipython as _get_ipython
from perceptron_lib.figures.legibility import smallest_text as _smallest_text

_figure_sizes, _figure_cell = [], [""]
_print_figure = _figure_backend.FigureCanvasBase.print_figure


def _measured_print_figure(self, *args, **kwargs):
    if kwargs.get("bbox_inches") == "tight" and kwargs.get("format", "png") == "png":
        found = _smallest_text(self.figure)
        _figure_sizes.append([_figure_cell[0], found.css_px, str(found)])
    return _print_figure(self, *args, **kwargs)


def _note_cell(info):
    _figure_cell[0] = info.raw_cell


_figure_backend.FigureCanvasBase.print_figure = _measured_print_figure
_get_ipython().events.register("pre_run_cell", _note_cell)
"""


def figure_sizes(chapter: Path) -> list[tuple[str, float, str]]:
    """Run ``chapter`` and return (cell id, CSS px, description) for every figure shown."""
    notebook = nbformat.read(chapter, as_version=4)
    notebook.cells.insert(0, nbformat.v4.new_code_cell(MEASURE))
    report = "import json\nprint(json.dumps(_figure_sizes))"
    notebook.cells.append(nbformat.v4.new_code_cell(report))
    NotebookClient(
        notebook,
        timeout=600,
        kernel_name="python3",
        resources={"metadata": {"path": str(chapter.parent)}},
    ).execute()
    printed = "".join(o.get("text", "") for o in notebook.cells[-1].outputs)
    # The kernel saw the source of the cell it ran; the notebook knows its id.
    cell_ids = {}
    for cell in notebook.cells[1:-1]:
        cell_ids.setdefault(cell.source, cell.get("id"))
    return [(cell_ids.get(source), css_px, found) for source, css_px, found in json.loads(printed)]


@pytest.mark.parametrize("name", CHAPTERS)
def test_every_figure_of_a_chapter_reads_on_a_phone(name: str) -> None:
    sizes = figure_sizes(BOOK / name)
    for cell, _, found in sizes:
        print(f"{name} cell {cell}: {found}")
    assert sizes, f"{name} showed no figure: the measure did not run"
    small = [f"cell {cell}: {found}" for cell, css_px, found in sizes if css_px < SMALLEST_TEXT]
    assert not small, f"{name}: text below {SMALLEST_TEXT} CSS px on a phone:\n" + "\n".join(small)
