"""Tidy a notebook after it is executed, and give it the course's math macros.

- ``metadata.execution`` of each cell: nbconvert's timestamps, removed;
- ``metadata.widgets`` of the notebook: saved widget state, removed. The web
  page shows each explorer's static counterpart instead, and a kernel
  recreates the widget;
- the **math macros** (``\\vw``, ``\\norm{...}``, ...): defined once, in
  ``_config.yml`` (``sphinx.config.mathjax3_config.tex.macros``), which the
  site's MathJax reads. JupyterLab's MyST renderer (jupyterlab-myst) reads
  macros from the front matter of a notebook's first Markdown cell instead, so
  this script writes them there: the notebook's first cell, a Markdown cell
  holding only a front matter block with a ``math:`` key, tagged
  ``remove-cell`` so that the book build (myst-nb skips such cells before
  parsing them) and the web page never see it. Re-running replaces the cell,
  so the notebook always carries exactly the macros of ``_config.yml``.

Outputs and execution counts, which nbval checks, are kept as they are.
Usage: ``python scripts/notebooks/tidy_notebook.py NOTEBOOK...`` (run by ``make execute``).
"""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat
import yaml

ROOT = Path(__file__).resolve().parents[2]
MACROS_CELL_ID = "course-math-macros"


def course_macros(config_path: Path = ROOT / "_config.yml") -> dict[str, str]:
    """Return the course's macros as ``{"\\\\vw": "\\\\mathbf{w}", ...}``, from ``_config.yml``.

    MathJax's form is ``name: [body]`` or ``name: [body, number_of_arguments]``;
    MyST's front matter takes ``"\\\\name": body`` and counts the ``#1``, ``#2``
    in the body itself.
    """
    config = yaml.safe_load(config_path.read_text())
    macros = config["sphinx"]["config"]["mathjax3_config"]["tex"]["macros"]
    result = {}
    for name, definition in macros.items():
        body = definition[0] if isinstance(definition, list) else definition
        if isinstance(definition, list) and len(definition) > 1:
            arguments = int(definition[1])
            used = [n for n in range(1, 10) if f"#{n}" in body]
            if used != list(range(1, arguments + 1)):
                raise ValueError(f"macro {name}: {arguments} arguments but the body uses {used}")
        result[f"\\{name}"] = body
    return result


def macros_source(macros: dict[str, str]) -> str:
    """The Markdown cell's text: a front matter block with the ``math:`` key."""
    lines = ["---", "math:"]
    for name, body in macros.items():
        quoted = [value.replace("'", "''") for value in (name, body)]
        lines.append(f"  '{quoted[0]}': '{quoted[1]}'")
    lines.append("---")
    return "\n".join(lines)


def macros_in(notebook: nbformat.NotebookNode) -> dict[str, str] | None:
    """The macros a notebook's macros cell defines, or None if it has none."""
    for cell in notebook.cells:
        if cell.get("id") == MACROS_CELL_ID:
            front_matter = cell.source.split("---")[1]
            return {str(k): str(v) for k, v in yaml.safe_load(front_matter)["math"].items()}
    return None


def add_macros(notebook: nbformat.NotebookNode, macros: dict[str, str]) -> None:
    """Put the macros cell first (after a leading code cell, if any), replacing an old one."""
    notebook.cells = [cell for cell in notebook.cells if cell.get("id") != MACROS_CELL_ID]
    cell = nbformat.v4.new_markdown_cell(macros_source(macros))
    cell.id = MACROS_CELL_ID
    cell.metadata["tags"] = ["remove-cell"]
    position = 1 if notebook.cells and notebook.cells[0].cell_type == "code" else 0
    notebook.cells.insert(position, cell)


def tidy(path: str) -> None:
    notebook = nbformat.read(path, as_version=4)
    notebook.metadata.pop("widgets", None)
    for cell in notebook.cells:
        cell.metadata.pop("execution", None)
    add_macros(notebook, course_macros())
    nbformat.write(notebook, path)


if __name__ == "__main__":
    for notebook_path in sys.argv[1:]:
        tidy(notebook_path)
