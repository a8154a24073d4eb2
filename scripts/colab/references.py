"""Where the site puts things: page URLs, numbered targets, citations.

A cross-reference in the edition is the text the site shows ("Theorem 5.1",
"Fig. 3.2") linked to the site's page and anchor; a citation reads "Rosenblatt
(1958)" where the site writes "Rosenblatt [1958]" (issue 36 asks for
"Author (year)"). The
numbers are counted here the way the site counts them: per chapter and per
kind (sphinx-proof and sphinx-exercise keep one counter per directive, Sphinx
one for figures), prefixed with the chapter's number in the table of contents.
No built site is read: ``make colab`` works from the sources alone.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml

# The numbered directives and the word the site prints before their number.
NUMBERED_KINDS = {
    "prf:theorem": "Theorem",
    "prf:lemma": "Lemma",
    "prf:definition": "Definition",
    "prf:proposition": "Proposition",
    "prf:corollary": "Corollary",
    "prf:algorithm": "Algorithm",
    "prf:conjecture": "Conjecture",
    "prf:example": "Example",
    "prf:remark": "Remark",
    "prf:axiom": "Axiom",
    "prf:criterion": "Criterion",
    "prf:property": "Property",
    "prf:observation": "Observation",
    "prf:assumption": "Assumption",
    "exercise": "Exercise",
    "figure": "Fig.",
}
OWNER_NAME = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})/[A-Za-z0-9._-]{1,100}")


def repository_from_config(config: dict) -> str:
    """Return ``owner/name`` from ``_config.yml``'s ``repository.url``.

    Examples
    --------
    >>> repository_from_config({"repository": {"url": "https://github.com/OWNER/perceptron-course"}})
    'OWNER/perceptron-course'
    """
    url = config["repository"]["url"].rstrip("/")
    return "/".join(url.split("/")[-2:])


def site_url(repository: str) -> str:
    """The GitHub Pages address where the deploy workflow publishes the site.

    Examples
    --------
    >>> site_url("ada/perceptron-course")
    'https://ada.github.io/perceptron-course/'
    """
    if not OWNER_NAME.fullmatch(repository):
        raise ValueError(f"repository must look like owner/name, got {repository!r}")
    owner, name = repository.split("/")
    return f"https://{owner.lower()}.github.io/{name}/"


def chapter_numbers(toc: dict) -> dict[str, int]:
    """Each numbered chapter's number, as Jupyter Book numbers them: continuously
    through the numbered parts of ``_toc.yml``, keyed by the file's stem.

    Examples
    --------
    >>> toc = {"parts": [{"numbered": True, "chapters": [{"file": "book/01_a"}]},
    ...                  {"chapters": [{"file": "book/using"}]},
    ...                  {"numbered": True, "chapters": [{"file": "book/02_b"}]}]}
    >>> chapter_numbers(toc)
    {'01_a': 1, '02_b': 2}
    """
    numbers = {}
    for part in toc.get("parts", []):
        if part.get("numbered"):
            for chapter in part.get("chapters", []):
                numbers[Path(chapter["file"]).name] = len(numbers) + 1
    return numbers


@dataclass
class Target:
    """A place a cross-reference points to, and the texts the site shows for it."""

    page: str  # the page's stem, e.g. "05_convergence"
    anchor: str  # "" for the top of the page
    text: str  # what {numref} and {prf:ref} show: "Theorem 5.1", or a section's title
    title: str = ""  # the directive's own title, if any


@dataclass
class Numbering:
    """One chapter's counters, one per kind, as the site counts."""

    chapter: int | None
    counts: dict[str, int] = field(default_factory=dict)

    def next(self, kind: str) -> str:
        """The text of the next numbered ``kind``: "Theorem 5.2" (chapter 5, second one).

        Examples
        --------
        >>> numbering = Numbering(5)
        >>> numbering.next("prf:theorem"), numbering.next("exercise")
        ('Theorem 5.1', 'Exercise 5.1')
        >>> numbering.next("prf:theorem")
        'Theorem 5.2'
        """
        self.counts[kind] = self.counts.get(kind, 0) + 1
        word = NUMBERED_KINDS[kind]
        if self.chapter is None:
            return f"{word} {self.counts[kind]}"
        return f"{word} {self.chapter}.{self.counts[kind]}"


def load_toc_and_config(root: Path) -> tuple[dict, dict]:
    """The parsed ``_toc.yml`` and ``_config.yml`` of the book at ``root``."""
    toc = yaml.safe_load((root / "_toc.yml").read_text(encoding="utf-8"))
    config = yaml.safe_load((root / "_config.yml").read_text(encoding="utf-8"))
    return toc, config


def bibliography_labels(bib_path: Path) -> dict[str, tuple[str, str]]:
    """Each BibTeX key's (who, year), as the site labels it: "Rosenblatt",
    "Marr and Albus", "Brunel et al."; the same rule as the site's
    ``scripts/pdf/author_year_bibliography.py``.
    """
    return dict(_bibliography_labels(Path(bib_path).resolve()))


@functools.lru_cache(maxsize=4)
def _bibliography_labels(bib_path: Path) -> tuple[tuple[str, tuple[str, str]], ...]:
    from pybtex.backends.plaintext import Backend
    from pybtex.database import parse_file

    # One backend for every name: render_as("text") looks the backend up each time (slow).
    text = Backend()
    database = parse_file(str(bib_path))
    labels = {}
    for key, entry in database.entries.items():
        surnames = [
            " ".join(part.render(text) for part in person.rich_last_names)
            for person in entry.persons.get("author", [])
        ]
        if len(surnames) > 2:
            who = f"{surnames[0]} et al."
        else:
            who = " and ".join(surnames) or entry.fields.get("title", "Anonymous")
        labels[key] = (who, entry.fields.get("year", "n.d."))
    return tuple(labels.items())
