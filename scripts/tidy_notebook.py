"""Remove what changes on every run but means nothing, after a notebook is executed.

- ``metadata.execution`` of each cell: nbconvert's timestamps;
- ``metadata.widgets`` of the notebook: saved widget state. The web page shows
  each explorer's static counterpart instead, and a kernel recreates the widget.

Outputs and execution counts, which nbval checks, are kept as they are.
Usage: ``python scripts/tidy_notebook.py NOTEBOOK...`` (run by ``make execute``).
"""

from __future__ import annotations

import sys

import nbformat


def tidy(path: str) -> None:
    notebook = nbformat.read(path, as_version=4)
    notebook.metadata.pop("widgets", None)
    for cell in notebook.cells:
        cell.metadata.pop("execution", None)
    nbformat.write(notebook, path)


if __name__ == "__main__":
    for notebook_path in sys.argv[1:]:
        tidy(notebook_path)
