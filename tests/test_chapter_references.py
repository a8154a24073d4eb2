"""A reference to a chapter that does not exist cannot be published.

Chapters are written in parallel and renumbered; a sentence "chapter 6 shows
..." written before chapter 6 exists, or a link to a page that is not in the
book, would reach readers without a build warning (Sphinx checks ``{ref}``
labels, not prose, and only warns about some links). Every page of
``_toc.yml`` (Markdown pages, and the Markdown cells of notebooks) is read
for:

- "chapter N" / "chapters N and M" / "chapters N-M" in the text: a page
  ``NN_*`` must be in ``_toc.yml`` for each N ("chapter 3 of <a book>" and
  "in chapter 3 of ..." refer to other works and are left alone);
- ``{doc}`` targets and Markdown links to ``.md``/``.ipynb`` files: the
  page must be in ``_toc.yml``.
"""

from __future__ import annotations

import json
import posixpath
import re
from pathlib import Path

import pytest
from toc import ROOT, toc_files

CHAPTER_MENTION = re.compile(
    r"\b[Cc]hapters?\s+(\d+)(?!\d)((?:\s*(?:,|and|or|to|-|–|—)\s*\d+(?!\d))*)(?!\s+of\b)"
)
DOC_ROLE = re.compile(r"\{doc\}`(?:[^`<]*<)?([^`>]+)>?`")
MARKDOWN_LINK = re.compile(r"\]\(([^)\s#]+\.(?:md|ipynb))(?:#[^)]*)?\)")


def chapter_numbers(toc: list[str]) -> set[int]:
    """The numbers of the book's chapters: pages named ``NN_...``."""
    numbers = set()
    for docname in toc:
        match = re.match(r"(\d\d)_", Path(docname).name)
        if match:
            numbers.add(int(match.group(1)))
    return numbers


def mentioned_numbers(mention: str) -> list[int]:
    """The chapters of "chapters 2, 3 and 5" or "chapters 1-4" (a range: all of them)."""
    numbers: list[int] = []
    for separator, number in re.findall(r"(-|–|—|to)?\s*(\d+)", mention):
        if separator and numbers:
            numbers += range(numbers[-1] + 1, int(number))
        numbers.append(int(number))
    return numbers


def resolve(page: str, target: str) -> str:
    """The docname a link or ``{doc}`` target on ``page`` points at."""
    target = re.sub(r"\.(md|ipynb)$", "", target.strip())
    if target.startswith("/"):
        return posixpath.normpath(target.lstrip("/"))
    return posixpath.normpath(posixpath.join(posixpath.dirname(page), target))


def dangling_references(text: str, page: str, toc: list[str]) -> list[str]:
    """Every reference in ``text`` (the page ``page``) to a chapter or page not in ``toc``."""
    problems = []
    chapters = chapter_numbers(toc)
    for match in CHAPTER_MENTION.finditer(text):
        numbers = mentioned_numbers(match.group(0))
        missing = [n for n in numbers if n not in chapters]
        if missing:
            problems.append(f"{page}: '{match.group(0)}' but no chapter {missing} in _toc.yml")
    targets = DOC_ROLE.findall(text) + MARKDOWN_LINK.findall(text)
    for target in targets:
        if "://" in target:
            continue
        if resolve(page, target) not in toc:
            problems.append(f"{page}: a link to {target}, which is not a page of _toc.yml")
    return problems


def page_text(docname: str) -> str:
    """The Markdown of a page: the file, or a notebook's Markdown cells."""
    notebook = ROOT / f"{docname}.ipynb"
    if notebook.exists():
        cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
        return "\n\n".join(
            "".join(cell["source"]) for cell in cells if cell["cell_type"] == "markdown"
        )
    return (ROOT / f"{docname}.md").read_text(encoding="utf-8")


TOC = toc_files()


@pytest.mark.parametrize("docname", TOC)
def test_every_chapter_and_page_referred_to_exists(docname: str) -> None:
    problems = dangling_references(page_text(docname), docname, TOC)
    assert not problems, "\n".join(problems)


SMALL_TOC = ["book/intro", "book/01_one", "book/02_two"]


@pytest.mark.parametrize(
    "text",
    [
        "As chapter 2 shows.",
        "Chapters 1 and 2 agree.",
        "See {doc}`02_two` and {doc}`the first <01_one>`.",
        "See [the intro](intro.md) and [two](02_two.ipynb#a-section).",
        "Chapter 13 of the book by Minsky and Papert.",
        "[elsewhere](https://example.org/x.md)",
    ],
)
def test_references_to_pages_that_exist_pass(text: str) -> None:
    assert dangling_references(text, "book/01_one", SMALL_TOC) == []


@pytest.mark.parametrize(
    ("text", "reported"),
    [
        ("Chapter 3 proves it.", "no chapter [3]"),
        ("Chapters 2 and 7 agree.", "no chapter [7]"),
        ("chapters 1–4 build on it.", "no chapter [3, 4]"),
        ("See {doc}`03_three`.", "03_three"),
        ("See {doc}`the third <03_three>`.", "03_three"),
        ("See [three](03_three.ipynb).", "03_three.ipynb"),
        ("See [notes](../notes.md).", "../notes.md"),
    ],
)
def test_a_reference_to_a_missing_chapter_or_page_is_reported(text: str, reported: str) -> None:
    problems = dangling_references(text, "book/01_one", SMALL_TOC)
    assert any(reported in problem for problem in problems), problems
