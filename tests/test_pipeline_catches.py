"""The test pipeline fails when it should.

`make test` is only worth something if a stale output or a build warning
breaks it. These tests run the same tools, with the same settings, on tiny
deliberately broken inputs and check that they fail (and pass once fixed).
The hygiene test (tests/test_notebook_hygiene.py) covers unexecuted cells,
out-of-order counts and saved errors.
"""

from __future__ import annotations

import configparser
import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from toc import ROOT

SANITIZERS = ROOT / "tests" / "nbval_sanitize.cfg"


def run_nbval(notebook: Path) -> subprocess.CompletedProcess:
    """Run nbval exactly as `make notebooks` does, on one notebook."""
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-o", "addopts=", "-p", "no:cacheprovider",
         "--nbval", "--nbval-current-env", "--nbval-sanitize-with", str(SANITIZERS),
         str(notebook)],
        capture_output=True, text=True, cwd=notebook.parent, timeout=300,
    )  # fmt: skip


def notebook_printing(saved_output: str) -> nbformat.NotebookNode:
    cell = nbformat.v4.new_code_cell("print(f'{6 * 7} mistakes')", execution_count=1)
    cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text=saved_output)]
    notebook = nbformat.v4.new_notebook(cells=[cell])
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3"}
    return notebook


def test_nbval_fails_on_a_changed_output_and_passes_on_the_right_one(tmp_path):
    stale = tmp_path / "stale.ipynb"
    nbformat.write(notebook_printing("41 mistakes\n"), stale)
    result = run_nbval(stale)
    assert result.returncode != 0, result.stdout
    assert "41 mistakes" in result.stdout and "42 mistakes" in result.stdout

    fresh = tmp_path / "fresh.ipynb"
    nbformat.write(notebook_printing("42 mistakes\n"), fresh)
    assert run_nbval(fresh).returncode == 0


def apply_sanitizers(text: str) -> str:
    config = configparser.ConfigParser()
    config.read(SANITIZERS)
    for section in config.sections():
        text = re.sub(config[section]["regex"], config[section]["replace"], text)
    return text


@pytest.mark.parametrize(
    "result",
    ["42 mistakes", "margin 0.0123", "w = [1.0, -3.5], b = 2.0", "12.5 ms", "error 4.6%"],
)
def test_sanitizers_never_hide_a_result(result):
    assert apply_sanitizers(result) == result


def test_sanitizers_hide_only_what_varies():
    assert apply_sanitizers("<Figure at 0x7f3a2b1c>") == "<Figure at 0xADDRESS>"
    assert "UUID" in apply_sanitizers('id="_anim_img0123456789abcdef0123456789abcdef"')


def test_a_build_warning_fails_the_book_build(tmp_path):
    """`jupyter-book build -W` as in `make build-check`: a broken reference must fail it."""
    book = tmp_path / "book"
    book.mkdir()
    (book / "_config.yml").write_text("title: t\nonly_build_toc_files: true\n")
    (book / "_toc.yml").write_text("format: jb-book\nroot: index\n")
    (book / "index.md").write_text("# Page\n\nSee {ref}`a-label-that-does-not-exist`.\n")
    jupyter_book = shutil.which("jupyter-book", path=str(Path(sys.executable).parent))
    command = [jupyter_book, "build", str(book), "--warningiserror", "--nitpick", "--keep-going"]
    broken = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert broken.returncode != 0
    assert "a-label-that-does-not-exist" in broken.stdout + broken.stderr

    (book / "index.md").write_text("# Page\n\n(a-label)=\n## Section\n\nSee {ref}`a-label`.\n")
    assert subprocess.run(command, capture_output=True, text=True, timeout=300).returncode == 0
