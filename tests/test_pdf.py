"""The printed book (``make pdf``): complete, resolved, and with the web page's content.

Runs after ``make pdf`` (``make pdf-check``); reads the PDF's text with
``pdftotext`` and the LaTeX source and log next to it.
"""

from __future__ import annotations

import re
import shutil
import subprocess

import nbformat
import pytest
import yaml
from toc import ROOT, toc_notebooks

PDF = ROOT / "_build" / "pdf" / "perceptron-course.pdf"
LATEX = ROOT / "_build" / "latex"


def words(text: str) -> str:
    """Text with every run of white space made one space (PDF lines break anywhere)."""
    return re.sub(r"\s+", " ", text).strip()


@pytest.fixture(scope="module")
def text() -> str:
    assert PDF.exists(), f"{PDF} is missing: run `make pdf` first"
    assert shutil.which("pdftotext"), "pdftotext is missing: `make texlive` installs it"
    result = subprocess.run(
        ["pdftotext", "-enc", "UTF-8", str(PDF), "-"], capture_output=True, text=True, check=True
    )
    return words(result.stdout)


def chapter_titles() -> list[str]:
    titles = []
    for path in toc_notebooks():
        for cell in nbformat.read(path, as_version=4).cells:
            heading = re.search(r"^# (.+)$", cell.source, re.MULTILINE)
            if cell.cell_type == "markdown" and heading:
                titles.append(heading.group(1).strip())
                break
    return titles


def exercise_titles() -> list[str]:
    titles = []
    for path in toc_notebooks():
        for cell in nbformat.read(path, as_version=4).cells:
            titles += re.findall(r"^`{3,}\{exercise\} (.+)$", cell.source, re.MULTILINE)
    return titles


def test_every_chapter_is_in_the_pdf_with_the_sites_number(text):
    titles = chapter_titles()
    assert len(titles) == len(toc_notebooks())
    for number, title in enumerate(titles, start=1):
        # The running head of the chapter's pages, as the site numbers it.
        assert f"Chapter {number}. {words(title)}" in text, title


def test_exercises_and_solutions_keep_their_titles(text):
    for title in exercise_titles():
        assert words(title) in text, title
    assert text.count("Solution to") >= len(exercise_titles())


def test_references_resolve_and_no_html_fallback_is_printed(text):
    assert "??" not in text  # an unresolved reference or citation
    assert "IPython.core.display" not in text  # an HTML output printed as its repr
    assert "glue:" not in text and "{glue" not in text


def test_the_mathjax_macros_are_defined_in_latex():
    config = yaml.safe_load((ROOT / "_config.yml").read_text())
    macros = config["sphinx"]["config"]["mathjax3_config"]["tex"]["macros"]
    tex = (LATEX / "perceptron-course.tex").read_text(encoding="utf-8")
    for name in macros:
        assert f"\\renewcommand{{\\{name}}}" in tex, name
    log = (LATEX / "perceptron-course.log").read_text(encoding="utf-8", errors="replace")
    assert "Undefined control sequence" not in log


def test_every_animation_prints_as_a_still_frame():
    animations = 0
    for path in toc_notebooks():
        for cell in nbformat.read(path, as_version=4).cells:
            for output in cell.get("outputs", []):
                html = output.get("data", {}).get("text/html", "")
                if "data:image/png;base64" in html and "image/png" not in output["data"]:
                    animations += 1
    assert animations >= 1
    tex = (LATEX / "perceptron-course.tex").read_text(encoding="utf-8")
    stills = re.findall(r"\\sphinxincludegraphics[^\n]*\{\{?[0-9a-f]{16}\}?\.png\}", tex)
    assert len(stills) >= animations
