"""The glued values of an executed chapter, and the text the site shows for each.

``glue("ch5_R", "2.345", display=False)`` leaves in the cell's outputs a
``display_data`` whose metadata names the value (``scrapbook``) and whose data
holds its MIME bundle under a prefix. myst-nb pastes them into the prose
(``{glue:text}`ch5_R```); the edition pastes the same text.
"""

from __future__ import annotations

from collections.abc import Mapping

import nbformat
from myst_nb.core.variables import format_plain_text


def glued_values(notebook: nbformat.NotebookNode) -> dict[str, dict]:
    """Return each glued name's MIME bundle (prefix removed), from the cells' outputs.

    Examples
    --------
    >>> cell = nbformat.v4.new_code_cell("glue('x', '1.5', display=False)")
    >>> cell.outputs = [nbformat.v4.new_output("display_data",
    ...     data={"application/papermill.record/text/plain": "'1.5'"},
    ...     metadata={"scrapbook": {"name": "x",
    ...                             "mime_prefix": "application/papermill.record/"}})]
    >>> glued_values(nbformat.v4.new_notebook(cells=[cell]))
    {'x': {'text/plain': "'1.5'"}}
    """
    values = {}
    for cell in notebook.cells:
        for output in cell.get("outputs", []):
            scrapbook = output.get("metadata", {}).get("scrapbook")
            if not scrapbook:
                continue
            prefix = scrapbook.get("mime_prefix", "")
            values[scrapbook["name"]] = {
                mime[len(prefix) :]: data
                for mime, data in output.get("data", {}).items()
                if mime.startswith(prefix)
            }
    return values


def is_glue_output(output: Mapping) -> bool:
    """Whether an output is a glue record (which shows nothing on the site or in Colab)."""
    return bool(output.get("metadata", {}).get("scrapbook"))


def glue_text(values: Mapping[str, Mapping], content: str) -> str:
    """The text of ``{glue:text}`content```, formatted as myst-nb formats it.

    Parameters
    ----------
    values : mapping
        The chapter's glued values (:func:`glued_values`).
    content : str
        The role's content, ``key`` or ``key:format_spec``.

    Raises
    ------
    ValueError
        If the key was not glued, has no text, or names another document.

    Examples
    --------
    >>> values = {"share": {"text/plain": "'57%'"}, "ratio": {"text/plain": "0.123456"}}
    >>> glue_text(values, "share")
    '57%'
    >>> glue_text(values, "ratio:.2f")
    '0.12'
    """
    if "::" in content:
        raise ValueError(f"glue from another document is not supported: {content!r}")
    # myst-nb's PasteTextRole: the last colon, if any, starts the format spec.
    parts = content.rsplit(":", 1)
    key, spec = parts if len(parts) == 2 else (parts[0], "s")
    return format_plain_text(_plain(values, key), spec)


def glue_plain(values: Mapping[str, Mapping], key: str) -> str:
    """The ``text/plain`` of a glued value as ``{glue}`` shows it (unformatted)."""
    return _plain(values, key)


def glue_markdown(values: Mapping[str, Mapping], content: str) -> str:
    """The Markdown of ``{glue:md}`content``` (``key`` or ``key:format``)."""
    key = content.rsplit(":", 1)[0] if ":" in content else content
    if key not in values:
        raise ValueError(f"glue key {key!r} was not glued in this chapter")
    if "text/markdown" not in values[key]:
        raise ValueError(f"glue key {key!r} has no text/markdown to paste")
    return values[key]["text/markdown"]


def _plain(values: Mapping[str, Mapping], key: str) -> str:
    if key not in values:
        raise ValueError(f"glue key {key!r} was not glued in this chapter")
    if "text/plain" not in values[key]:
        raise ValueError(f"glue key {key!r} has no text/plain to paste")
    return values[key]["text/plain"]
