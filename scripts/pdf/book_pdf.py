"""Publish the book's PDF with the site, and tell the pages whether it is there.

``make pdf`` builds ``_build/pdf/perceptron-course.pdf``; the deploy workflow
builds it after the site. This module copies it to the site's root and writes
``_static/book-pdf.js``, which every page loads (``_config.yml``) before
``course.js``: it sets ``window.COURSE_BOOK_PDF`` to the PDF's address relative
to the site's root, or to null when the site has no PDF. course.js then makes
the header's download entry offer the PDF rather than print the page, without
asking the server for a file that may be missing.

As a Sphinx extension it runs after every HTML build (with the PDF if one was
built before); as a script, ``python scripts/pdf/book_pdf.py HTML_DIR PDF`` (run
by ``make pdf``) adds a PDF built after the site.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx

ROOT = Path(__file__).resolve().parents[2]
PDF = ROOT / "_build" / "pdf" / "perceptron-course.pdf"
SCRIPT = "book-pdf.js"


def publish(html_dir: Path, pdf: Path = PDF) -> bool:
    """Copy ``pdf`` (if it exists) to ``html_dir`` and write the pages' note of it.

    Returns whether the site now offers the PDF.
    """
    html_dir = Path(html_dir)
    (html_dir / "_static").mkdir(parents=True, exist_ok=True)
    offered = pdf.is_file() and pdf.stat().st_size > 0
    if offered:
        shutil.copyfile(pdf, html_dir / pdf.name)
    value = json.dumps(pdf.name if offered else None)
    (html_dir / "_static" / SCRIPT).write_text(
        f"// Written by scripts/pdf/book_pdf.py: the book's PDF, relative to the site's root.\n"
        f"window.COURSE_BOOK_PDF = {value};\n",
        encoding="utf-8",
    )
    return offered


def after_build(app: Sphinx, exception: Exception | None) -> None:
    if exception is None and app.builder.format == "html":
        publish(Path(app.outdir))


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the hook."""
    app.connect("build-finished", after_build)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: python scripts/pdf/book_pdf.py HTML_DIR PDF")
    if not publish(Path(sys.argv[1]), Path(sys.argv[2])):
        sys.exit(f"no PDF at {sys.argv[2]}")
    print(f"The PDF is on the site: {Path(sys.argv[1]) / Path(sys.argv[2]).name}")
