"""Every figure a chapter draws reads on a phone (issue 24), measured as it is drawn.

tests/test_legibility.py measures the library's figure functions; a chapter
also lays out figures of its own (``plt.subplots`` in a cell). In a chapter's
kernel, tests/measure_figures.py measures every PNG the inline backend renders
(``bbox_inches="tight"``, as the book shows it) with
:func:`perceptron_lib.figures.legibility.smallest_text`, and this test asks each
of them for at least 8 CSS px at 342 px wide. Animation frames (saved whole, not
cropped) are measured by tests/test_legibility.py.

Where the measures come from:

- ``make notebooks`` runs nbval with tests/measure_figures.py as an IPython
  start-up file and ``FIGURE_SIZES_LOG`` naming a log, then this test with the
  same ``FIGURE_SIZES_LOG``: the chapters are executed once for both checks.
  Each kernel's measures are matched to the one chapter that holds every cell
  source they were drawn by.
- Run on its own (no ``FIGURE_SIZES_LOG``), the test executes each chapter
  itself with the measure as a first cell.
"""

from __future__ import annotations

import json
import os
from collections import defaultdict
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from perceptron_lib.figures.legibility import SMALLEST_TEXT

TESTS = Path(__file__).resolve().parent
BOOK = TESTS.parent / "book"
CHAPTERS = sorted(path.name for path in BOOK.glob("0[1-9]_*.ipynb"))
MEASURE = (TESTS / "measure_figures.py").read_text(encoding="utf-8")

Size = tuple[str | None, float, str]


def _cell_ids(notebook: nbformat.NotebookNode) -> dict[str, str | None]:
    """The id of the first code cell with each source."""
    ids: dict[str, str | None] = {}
    for cell in notebook.cells:
        if cell.cell_type == "code":
            ids.setdefault(cell.source, cell.get("id"))
    return ids


def executed_sizes(chapter: Path) -> list[Size]:
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
    cell_ids = _cell_ids(nbformat.read(chapter, as_version=4))
    return [(cell_ids.get(source), css_px, found) for source, css_px, found in json.loads(printed)]


def logged_sizes(log: Path) -> dict[str, list[Size]]:
    """An nbval run's measures by chapter: a kernel's go to the chapter holding its cells."""
    by_kernel: dict[int, list[list]] = defaultdict(list)
    for line in log.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        by_kernel[record["pid"]].append(record["size"])
    cell_ids = {name: _cell_ids(nbformat.read(BOOK / name, as_version=4)) for name in CHAPTERS}
    sizes: dict[str, list[Size]] = defaultdict(list)
    for records in by_kernel.values():
        sources = {source for source, _, _ in records}
        owners = [name for name in CHAPTERS if sources <= cell_ids[name].keys()]
        assert len(owners) == 1, f"figures drawn by cells of {owners or 'no chapter'}: {sources}"
        sizes[owners[0]] += [(cell_ids[owners[0]][s], px, found) for s, px, found in records]
    return sizes


@pytest.fixture(scope="module")
def nbval_sizes() -> dict[str, list[Size]] | None:
    """The measures ``make notebooks`` logged, or None when the test runs the chapters itself."""
    log = os.environ.get("FIGURE_SIZES_LOG")
    if not log:
        return None
    assert Path(log).is_file(), f"FIGURE_SIZES_LOG={log} does not exist: did nbval run?"
    return logged_sizes(Path(log))


@pytest.mark.parametrize("name", CHAPTERS)
def test_every_figure_of_a_chapter_reads_on_a_phone(name: str, nbval_sizes) -> None:
    sizes = executed_sizes(BOOK / name) if nbval_sizes is None else nbval_sizes.get(name, [])
    for cell, _, found in sizes:
        print(f"{name} cell {cell}: {found}")
    assert sizes, f"{name} showed no figure: the measure did not run"
    small = [f"cell {cell}: {found}" for cell, css_px, found in sizes if css_px < SMALLEST_TEXT]
    assert not small, f"{name}: text below {SMALLEST_TEXT} CSS px on a phone:\n" + "\n".join(small)
