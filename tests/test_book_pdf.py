"""The book's PDF: published with the site (issue 24); what prints and what does not."""

from __future__ import annotations

import json
import re
import sys

import nbformat
from toc import ROOT, toc_notebooks

sys.path.insert(0, str(ROOT / "scripts" / "pdf"))
import latex_book  # noqa: E402
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


# --- web-only and print-only cells (scripts/pdf/latex_book.py) -------------------------

WEB_ONLY_WORDING = re.compile(
    r"On this page|This page has no kernel|static (web )?page|On the web page"
)


def _markdown_cells():
    for path in toc_notebooks():
        for cell in nbformat.read(path, as_version=4).cells:
            if cell.cell_type == "markdown":
                yield path, cell


def test_sentences_about_the_web_page_are_tagged_web_only():
    tagged = 0
    for path, cell in _markdown_cells():
        tags = cell.metadata.get("tags", [])
        if WEB_ONLY_WORDING.search(cell.source):
            assert "web-only" in tags, (path.name, cell.get("id"), cell.source[:80])
        tagged += "web-only" in tags
        assert not ("web-only" in tags and "print-only" in tags), cell.get("id")
    assert tagged >= 7


def test_the_chapters_send_readers_to_binder_or_make_lab_not_colab():
    # Colab opens the chapter's generated edition (colab/), never these notebooks,
    # so the chapters themselves do not send readers there (using.md compares the routes).
    for path, cell in _markdown_cells():
        assert "Colab" not in cell.source, (path.name, cell.get("id"))


def test_the_build_leaves_out_the_other_outputs_cells():
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [
        nbformat.v4.new_markdown_cell("On the web page, a film."),
        nbformat.v4.new_markdown_cell("On paper, a frame."),
        nbformat.v4.new_markdown_cell("Both."),
    ]
    notebook.cells[0].metadata["tags"] = ["web-only"]
    notebook.cells[1].metadata["tags"] = ["print-only"]

    def kept(kind):
        return [
            c.source
            for c in latex_book.cells_for(notebook, kind).cells
            if "remove-cell" not in c.metadata.get("tags", [])
        ]

    assert kept("print") == ["On paper, a frame.", "Both."]
    assert kept("web") == ["On the web page, a film.", "Both."]
    assert "remove-cell" not in json.dumps(notebook)  # the notebook given is not changed


def test_every_greek_letter_or_math_symbol_the_chapters_write_prints():
    """pdflatex's utf8 input stops at a Greek letter or a math symbol it was not given.

    A caption wrote the kernel scale as a Unicode rho, which the preamble did not
    declare, and the PDF build stopped there ("Unicode character not set up").
    Latin-1 letters and signs (é, ±, ², ·) and punctuation (–) are known to
    pdflatex; Greek, mathematical symbols and arrows are not.
    """

    def needs_declaring(char: str) -> bool:
        code = ord(char)
        return 0x370 <= code <= 0x3FF or 0x2100 <= code <= 0x2BFF or code >= 0x1D400

    missing = {}
    for path in [*toc_notebooks(), *sorted((ROOT / "book").glob("*.md"))]:
        if path.suffix == ".ipynb":
            cells = nbformat.read(path, as_version=4).cells
            text = "".join(
                cell.source
                + json.dumps(cell.metadata, ensure_ascii=False)
                + json.dumps(cell.get("outputs", []), ensure_ascii=False)
                for cell in cells
            )
        else:
            text = path.read_text(encoding="utf-8")
        for char in set(text):
            if needs_declaring(char) and char not in latex_book.UNICODE_SYMBOLS:
                missing.setdefault(char, []).append(path.name)
    assert not missing, f"declare these for LaTeX in scripts/pdf/latex_book.py: {missing}"
