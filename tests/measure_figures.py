"""Measure every figure a chapter's kernel renders (tests/test_chapter_figures.py).

This file runs inside a notebook's kernel, never imported by pytest: as an
IPython start-up file when ``make notebooks`` runs nbval (it is copied into a
throw-away ``IPYTHONDIR``), or as the first cell of a chapter that
tests/test_chapter_figures.py runs itself. Each PNG the inline backend renders
with ``bbox_inches="tight"`` (as the book shows it) is measured by
:func:`perceptron_lib.figures.legibility.smallest_text` together with the source
of the cell being run (IPython's ``pre_run_cell`` event).

When ``FIGURE_SIZES_LOG`` names a file, each measure is appended to it as one
JSON line with the kernel's process id, so that one nbval run of all chapters
both compares their outputs and measures their figures (one execution instead
of two in ``make test``).
"""

import json as _json
import os as _os

import matplotlib.backend_bases as _figure_backend
from IPython import get_ipython as _get_ipython

from perceptron_lib.figures.legibility import smallest_text as _smallest_text

_figure_sizes, _figure_cell = [], [""]
_figure_log = _os.environ.get("FIGURE_SIZES_LOG")
_print_figure = _figure_backend.FigureCanvasBase.print_figure


def _measured_print_figure(self, *args, **kwargs):
    if kwargs.get("bbox_inches") == "tight" and kwargs.get("format", "png") == "png":
        found = _smallest_text(self.figure)
        record = [_figure_cell[0], found.css_px, str(found)]
        _figure_sizes.append(record)
        if _figure_log:
            with open(_figure_log, "a", encoding="utf-8") as log:
                log.write(_json.dumps({"pid": _os.getpid(), "size": record}) + "\n")
    return _print_figure(self, *args, **kwargs)


def _note_cell(info):
    _figure_cell[0] = info.raw_cell


_figure_backend.FigureCanvasBase.print_figure = _measured_print_figure
_get_ipython().events.register("pre_run_cell", _note_cell)
