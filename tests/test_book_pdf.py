"""The book's PDF is published with the site, and the pages are told (issue 24)."""

from __future__ import annotations

import sys

from toc import ROOT

sys.path.insert(0, str(ROOT / "scripts"))
from book_pdf import publish  # noqa: E402


def test_a_built_pdf_is_copied_to_the_site_and_named_to_the_pages(tmp_path):
    pdf = tmp_path / "pdf" / "perceptron-course.pdf"
    pdf.parent.mkdir()
    pdf.write_bytes(b"%PDF-1.4\n%%EOF\n")
    site = tmp_path / "html"
    assert publish(site, pdf)
    assert (site / "perceptron-course.pdf").read_bytes() == pdf.read_bytes()
    script = (site / "_static" / "book-pdf.js").read_text()
    assert 'window.COURSE_BOOK_PDF = "perceptron-course.pdf";' in script


def test_without_a_pdf_the_pages_keep_printing(tmp_path):
    site = tmp_path / "html"
    assert not publish(site, tmp_path / "missing.pdf")
    assert "window.COURSE_BOOK_PDF = null;" in (site / "_static" / "book-pdf.js").read_text()
    assert not (site / "missing.pdf").exists()
