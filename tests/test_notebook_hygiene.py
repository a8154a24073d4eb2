"""Hygiene of the committed notebooks.

nbval only compares cells that were executed and saved, so a notebook that was
edited but not re-run would pass it silently. These checks close that gap and
keep the repository small.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from toc import ROOT, toc_files, toc_notebooks

# A single output above this size is almost always an accident (a huge
# animation, a printed array); it bloats the repository and the web page.
MAX_OUTPUT_BYTES = 1_500_000


def test_every_toc_entry_exists():
    suffixes = (".ipynb", ".md")
    missing = [f for f in toc_files() if not any((ROOT / f"{f}{s}").exists() for s in suffixes)]
    assert not missing, f"_toc.yml lists files that do not exist: {missing}"


def notebook_problems(path: Path) -> list[str]:
    """Return a list of human-readable hygiene problems of one notebook."""
    nb = json.loads(path.read_text())
    problems = []
    kernel = nb.get("metadata", {}).get("kernelspec", {}).get("name")
    if kernel != "python3":
        problems.append(f"kernelspec is {kernel!r}, expected 'python3'")
    code_cells = [c for c in nb["cells"] if c["cell_type"] == "code"]
    counts = [c.get("execution_count") for c in code_cells]
    never_run = [i for i, n in enumerate(counts) if n is None]
    if never_run:
        problems.append(f"code cells {never_run} were never executed")
    elif counts != list(range(1, len(counts) + 1)):
        problems.append(f"execution counts {counts} are not 1..{len(counts)}: restart and run all")
    for index, cell in enumerate(code_cells):
        tags = cell.get("metadata", {}).get("tags", [])
        for output in cell.get("outputs", []):
            if output["output_type"] == "error" and "raises-exception" not in tags:
                problems.append(f"code cell {index} saved an error: {output.get('ename')}")
            size = len(json.dumps(output))
            if size > MAX_OUTPUT_BYTES:
                problems.append(f"code cell {index} has an output of {size:,} bytes")
    return problems


@pytest.mark.parametrize("path", toc_notebooks(), ids=lambda p: p.name)
def test_notebook_is_clean(path):
    problems = notebook_problems(path)
    assert not problems, f"{path.name}: " + "; ".join(problems)


def _notebook(cells, kernel="python3"):
    return {
        "cells": cells,
        "metadata": {"kernelspec": {"name": kernel, "display_name": "Python 3"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }


def _code(count, outputs=()):
    return {
        "cell_type": "code",
        "execution_count": count,
        "metadata": {},
        "outputs": list(outputs),
        "source": "1",
    }


@pytest.mark.parametrize(
    ("cells", "kernel", "expected"),
    [
        ([_code(1), _code(None)], "python3", "never executed"),
        ([_code(2), _code(1)], "python3", "restart and run all"),
        ([_code(1, [{"output_type": "error", "ename": "ValueError"}])], "python3", "ValueError"),
        ([_code(1)], "julia", "kernelspec"),
        (
            [_code(1, [{"output_type": "stream", "name": "stdout", "text": "x" * 2_000_000}])],
            "python3",
            "bytes",
        ),
    ],
)
def test_hygiene_check_catches(tmp_path, cells, kernel, expected):
    path = tmp_path / "bad.ipynb"
    path.write_text(json.dumps(_notebook(cells, kernel)))
    assert any(expected in p for p in notebook_problems(path))


def test_hygiene_check_accepts_a_clean_notebook(tmp_path):
    path = tmp_path / "good.ipynb"
    path.write_text(json.dumps(_notebook([_code(1), _code(2)])))
    assert notebook_problems(path) == []


@pytest.mark.parametrize("path", toc_notebooks(), ids=lambda p: p.name)
def test_a_chapter_defines_its_macros_once(path):
    # A second front-matter cell renders as text in JupyterLab (its \vw shown raw).
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    front_matter = [
        c.get("id")
        for c in cells
        if c["cell_type"] == "markdown" and "".join(c["source"]).startswith("---\nmath:")
    ]
    assert front_matter == ["course-math-macros"], (path.name, front_matter)
