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


# Sentences about the web page (cells tagged web-only) and their printed
# counterparts (print-only); scripts/pdf/latex_book.py leaves out the other output's.
WEB_ONLY = [
    "On this page the explorer has no kernel",
    "On the web page the cell below shows only its code",
    "On the web page the cell shows only its code",
    "On this page, the animation below plays the rotation",
    "The animation replays the online run on the web page",
    "replays the run one pass at a time",
    "This page has no kernel behind it",
]
PRINT_ONLY = [
    "On paper the cell below shows only its code.",
    "On paper, here is the same experiment as one frame of an animation",
    "On paper the cell shows only its code; the figure after it is one frame",
    "is one frame of an animation that the web page plays",
    "is one frame of a film that the web page plays",
]


def test_web_only_sentences_are_not_printed_and_their_counterparts_are(text):
    for sentence in WEB_ONLY:
        assert sentence not in text, sentence
    for sentence in PRINT_ONLY:
        assert sentence in text, sentence


def test_every_box_has_a_title_and_proofs_are_titled_proof(text):
    tex = (LATEX / "perceptron-course.tex").read_text(encoding="utf-8")
    # A box whose title argument is missing prints an empty title bar.
    untitled = re.findall(r"\\begin\{sphinxadmonition\}\{note\}\s*\n\s*\\sphinxAtStartPar", tex)
    assert untitled == []
    assert "Proof. " not in text  # sphinx-proof's run-in title, now the box's title
    proofs = sum(
        len(re.findall(r"^`{3,}\{prf:proof\}", cell.source, re.MULTILINE))
        for path in toc_notebooks()
        for cell in nbformat.read(path, as_version=4).cells
    )
    assert proofs >= 1 and tex.count("\\begin{sphinxadmonition}{note}{Proof}") == proofs


# A box's title line (not the contents' "Proof Index").
BOX_TITLE = re.compile(
    r"^\s*(Proof\b(?! Index)|Theorem \d+\.\d+|Definition \d+\.\d+|"
    r"Solution to Exercise \d|Exercise \d+\.\d+)"
)


def test_no_box_starts_at_the_foot_of_a_page():
    result = subprocess.run(
        ["pdftotext", "-layout", "-enc", "UTF-8", str(PDF), "-"],
        capture_output=True,
        text=True,
        check=True,
    )
    for number, page in enumerate(result.stdout.split("\f"), start=1):
        lines = [line for line in page.splitlines() if line.strip()][:-1]  # less the foot
        for line in lines[-2:]:
            assert not BOX_TITLE.match(line), (number, line)
