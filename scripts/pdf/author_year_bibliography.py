"""A bibliography whose labels read like the citations: "Rosenblatt, 1958".

The chapters cite author-year (``bibtex_reference_style: author_year``), but
pybtex's default labels are alphabetic codes such as ``[Ros58]``. This local
Sphinx extension registers a pybtex style, ``author_year``, that labels each
entry as the text cites it; ``_config.yml`` selects it with
``bibtex_default_style``.
"""

from __future__ import annotations

from pybtex.plugin import register_plugin
from pybtex.style.formatting.unsrt import Style as UnsrtStyle
from pybtex.style.labels import BaseLabelStyle


def _surname(person) -> str:
    """The plain-text surname, with LaTeX accents rendered (Daum{\\'e} -> Daumé)."""
    return " ".join(part.render_as("text") for part in person.rich_last_names)


class AuthorYearLabelStyle(BaseLabelStyle):
    """Label an entry "Surname, year", "A and B, year" or "A et al., year"."""

    def format_labels(self, sorted_entries):
        for entry in sorted_entries:
            surnames = [_surname(p) for p in entry.persons.get("author", [])]
            if len(surnames) > 2:
                who = f"{surnames[0]} et al."
            else:
                who = " and ".join(surnames) or entry.fields.get("title", "Anonymous")
            yield f"{who}, {entry.fields.get('year', 'n.d.')}"


class AuthorYearStyle(UnsrtStyle):
    """Entries sorted by author and year, labelled as they are cited."""

    default_label_style = AuthorYearLabelStyle
    default_sorting_style = "author_year_title"


register_plugin("pybtex.style.formatting", "author_year", AuthorYearStyle)


def setup(app):
    return {"parallel_read_safe": True, "parallel_write_safe": True}
