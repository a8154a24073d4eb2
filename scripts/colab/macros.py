"""Expand the course's maths macros (``\\vw``, ``\\norm{...}``) into plain LaTeX.

The book defines its macros twice: in each chapter's front matter (the
``math:`` block that myst-nb hands to MathJax) and in ``_config.yml``'s MathJax
configuration. Colab's MathJax knows neither, so the edition writes every
formula out in full: ``\\norm{\\vw}`` becomes ``\\lVert \\mathbf{w} \\rVert``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

import yaml

# A macro name ends where letters end: \vw is not the start of \vwx, \R is not \Rightarrow.
_NAME_END = r"(?![A-Za-z])"
_MAX_DEPTH = 20  # macros defined in terms of each other: far more nesting than the course uses


def front_matter_macros(source: str) -> dict[str, str]:
    """Return the ``math:`` macros of a Markdown cell's YAML front matter.

    Parameters
    ----------
    source : str
        The Markdown cell, ``---``, YAML, ``---``.

    Returns
    -------
    dict of str to str
        Macro name (with its backslash) to definition; empty when the cell
        has no front matter or no ``math:`` key.

    Examples
    --------
    >>> front_matter_macros("---\\nmath:\\n  '\\\\vw': '\\\\mathbf{w}'\\n---")
    {'\\\\vw': '\\\\mathbf{w}'}
    >>> front_matter_macros("# A title")
    {}
    """
    match = re.fullmatch(r"---\n(.*?)\n---\s*", source, re.DOTALL)
    if match is None:
        return {}
    data = yaml.safe_load(match.group(1)) or {}
    return {str(k): str(v) for k, v in (data.get("math") or {}).items()}


def mathjax_macros(config: Mapping) -> dict[str, str]:
    """Return the MathJax macros of a parsed ``_config.yml``, named with their backslash.

    MathJax writes a macro with arguments as ``[definition, n_arguments]``;
    the definition's ``#1``, ``#2`` say where the arguments go.

    Examples
    --------
    >>> config = {"sphinx": {"config": {"mathjax3_config": {"tex": {"macros": {
    ...     "vw": ["\\\\mathbf{w}"], "norm": ["\\\\lVert #1 \\\\rVert", 1]}}}}}}
    >>> mathjax_macros(config)
    {'\\\\vw': '\\\\mathbf{w}', '\\\\norm': '\\\\lVert #1 \\\\rVert'}
    """
    tex = config.get("sphinx", {}).get("config", {}).get("mathjax3_config", {}).get("tex", {})
    macros = {}
    for name, value in (tex.get("macros") or {}).items():
        definition = value[0] if isinstance(value, list) else value
        macros["\\" + name] = str(definition)
    return macros


def _n_arguments(definition: str) -> int:
    """The number of arguments a definition uses: its highest ``#n``."""
    return max((int(n) for n in re.findall(r"#([1-9])", definition)), default=0)


def _braced_argument(text: str, start: int) -> tuple[str, int]:
    """Read one macro argument at ``text[start:]``: ``{...}`` (balanced) or one token."""
    position = start
    while position < len(text) and text[position] == " ":
        position += 1
    if position >= len(text):
        raise ValueError(f"macro argument missing at the end of {text!r}")
    if text[position] != "{":
        # TeX takes one token: a control word (\alpha) or a single character.
        token = re.match(r"\\[A-Za-z]+|\\.|.", text[position:], re.DOTALL).group(0)
        return token, position + len(token)
    depth = 0
    for end in range(position, len(text)):
        if text[end] == "\\":
            continue
        if text[end] == "{" and (end == 0 or text[end - 1] != "\\"):
            depth += 1
        elif text[end] == "}" and text[end - 1] != "\\":
            depth -= 1
            if depth == 0:
                return text[position + 1 : end], end + 1
    raise ValueError(f"unbalanced braces in a macro argument: {text[start:]!r}")


# What takes the next token as its argument: a TeX accent or font command, ^ or _.
_TAKES_AN_ARGUMENT = re.compile(
    r"(?:[\^_]|\\(?:bar|hat|tilde|vec|dot|ddot|check|breve|acute|grave|overline"
    r"|underline|widehat|widetilde|boldsymbol|mathbf|mathrm|mathit|mathcal))\s*\Z"
)


def expand_macros(text: str, macros: Mapping[str, str]) -> str:
    """Replace every use of ``macros`` in ``text`` by its definition, nested uses too.

    Parameters
    ----------
    text : str
        LaTeX (or Markdown with LaTeX in it).
    macros : mapping of str to str
        Macro name with its backslash to definition; ``#1``, ``#2`` in a
        definition are its arguments.

    Returns
    -------
    str
        ``text`` without any of the macros.

    Raises
    ------
    ValueError
        If an argument is missing or its braces do not balance, or if the
        macros expand into each other without end.

    Examples
    --------
    >>> macros = {"\\\\vw": "\\\\mathbf{w}", "\\\\norm": "\\\\lVert #1 \\\\rVert",
    ...           "\\\\dotp": "\\\\langle #1, #2 \\\\rangle", "\\\\R": "\\\\mathbb{R}"}
    >>> print(expand_macros("$\\\\norm{\\\\vw} \\\\Rightarrow \\\\R$", macros))
    $\\lVert \\mathbf{w} \\rVert \\Rightarrow \\mathbb{R}$
    >>> print(expand_macros("\\\\dotp{\\\\vw}{\\\\norm{x}}", macros))
    \\langle \\mathbf{w}, \\lVert x \\rVert \\rangle
    >>> print(expand_macros("\\\\bar\\\\vw + \\\\hat \\\\vw_{\\\\vw}", macros))
    \\bar{\\mathbf{w}} + \\hat {\\mathbf{w}}_{\\mathbf{w}}
    """
    if not macros:
        return text
    names = sorted(macros, key=len, reverse=True)
    pattern = re.compile("(" + "|".join(re.escape(n) for n in names) + ")" + _NAME_END)
    for _ in range(_MAX_DEPTH):
        match = pattern.search(text)
        if match is None:
            return text
        pieces, position = [], 0
        while match is not None:
            definition = macros[match.group(1)]
            end = match.end()
            for k in range(1, _n_arguments(definition) + 1):
                argument, end = _braced_argument(text, end)
                definition = definition.replace(f"#{k}", argument)
            if _TAKES_AN_ARGUMENT.search(text, 0, match.start()):
                # "\bar\vw" must read "\bar{\mathbf{w}}", not "\bar\mathbf{w}": an
                # accent, ^ or _ just before a macro takes the whole expansion.
                definition = "{" + definition + "}"
            pieces += [text[position : match.start()], definition]
            # "\vw x" must not become "\mathbf{w}x" when the definition ends in a letter.
            position = end
            match = pattern.search(text, position)
        text = "".join(pieces) + text[position:]
    raise ValueError(f"macros expand without end in {text[:80]!r}")
