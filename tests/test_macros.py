"""The course's maths macros, as each of the book's three readers gets them (issue 24).

``_config.yml`` defines them once; the site's MathJax reads them there, the
notebooks' hidden macros cell (``scripts/notebooks/tidy_notebook.py``) carries them to
JupyterLab, and ``scripts/pdf/latex_book.py`` writes them into the PDF's preamble.
"""

from __future__ import annotations

import sys

import pytest
import yaml
from toc import ROOT

sys.path.insert(0, str(ROOT / "scripts" / "pdf"))
sys.path.insert(0, str(ROOT / "scripts" / "notebooks"))
from latex_book import latex_macros  # noqa: E402
from tidy_notebook import course_macros  # noqa: E402


def mathjax_macros() -> dict:
    config = yaml.safe_load((ROOT / "_config.yml").read_text())
    return config["sphinx"]["config"]["mathjax3_config"]["tex"]["macros"]


def norm_problems(body: str) -> list[str]:
    r"""Why a definition of ``\norm`` would not draw a norm of the text's size.

    MathJax 3 draws ``\left\lVert ... \right\rVert`` as small double bars set
    low on the line; ``\lVert ... \rVert`` draws the bars at the text's size,
    as LaTeX does.
    """
    problems = []
    if r"\left" in body or r"\right" in body:
        problems.append(f"\\norm uses \\left/\\right: {body}")
    if r"\lVert #1" not in body or r"#1 \rVert" not in body:
        problems.append(f"\\norm is not \\lVert #1 \\rVert: {body}")
    return problems


def test_the_site_draws_the_norm_with_lvert_rvert() -> None:
    assert norm_problems(mathjax_macros()["norm"][0]) == []


def test_jupyterlab_draws_the_norm_with_lvert_rvert() -> None:
    assert norm_problems(course_macros()["\\norm"]) == []


def test_the_pdf_draws_the_norm_with_lvert_rvert() -> None:
    preamble = latex_macros({"norm": mathjax_macros()["norm"]})
    assert r"\renewcommand{\norm}[1]{\lVert #1 \rVert}" in preamble, preamble


@pytest.mark.parametrize("body", [r"\left\lVert #1 \right\rVert", r"\|#1\|", r"\lVert x \rVert"])
def test_a_norm_drawn_otherwise_is_reported(body: str) -> None:
    assert norm_problems(body), body
