"""MyST roles and inline markup into Markdown that Colab renders.

``{glue:text}`ch5_R``` becomes the number the site shows, ``{prf:ref}`thm-a```
"[Theorem 5.1](site#thm-a)", ``{cite:p}`key``` "([Rosenblatt, 1958](bibliography))",
``{math}`x``` ``$x$``. Code spans are left alone: a ``$`` or a role inside
backticks is code, not markup.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

# One token at a time, left to right: a role, a code span, display or inline
# maths, or a Markdown link. What matches none of them is prose.
TOKEN = re.compile(
    r"\{(?P<role>[\w:+-]+)\}`(?P<content>[^`]*)`"
    r"|(?P<code>(?P<ticks>`+).+?(?P=ticks))"
    r"|(?P<display>\$\$.+?\$\$)"
    r"|(?P<math>(?<![\\$])\$[^$\n]+?(?:\n[^$\n]+?)*\$)"
    r"|\[(?P<link_text>[^\]\n]*)\]\((?P<link_target>[^)\s]+)\)",
    re.DOTALL,
)
# A reference with its own text: {numref}`Figure %s <fig-a>`.
EXPLICIT = re.compile(r"^(?P<text>.*?)\s*<(?P<target>[^<>]+)>$", re.DOTALL)


def convert_inline(
    text: str,
    role: Callable[[str, str], str],
    maths: Callable[[str], str],
    link: Callable[[str, str], str],
) -> str:
    """Convert the roles, maths and links of ``text``; leave code spans as they are.

    Parameters
    ----------
    text : str
        Markdown prose (no code fences: those are cut out before).
    role : callable
        ``role(name, content)`` -> Markdown for ``{name}`content```.
    maths : callable
        Maps one formula, with its dollars, to what the edition shows.
    link : callable
        ``link(text, target)`` -> Markdown for ``[text](target)``.

    Examples
    --------
    >>> upper = lambda name, content: content.upper()
    >>> same = lambda formula: formula.replace("\\\\vw", "\\\\mathbf{w}")
    >>> keep = lambda text, target: f"[{text}]({target})"
    >>> print(convert_inline("{glue:text}`a` is $\\\\vw$, `$HOME` and `{ref}` stay",
    ...                      upper, same, keep))
    A is $\\mathbf{w}$, `$HOME` and `{ref}` stay
    """
    pieces, position = [], 0
    for token in TOKEN.finditer(text):
        pieces.append(text[position : token.start()])
        if token["role"]:
            pieces.append(role(token["role"], token["content"]))
        elif token["code"]:
            pieces.append(token["code"])
        elif token["display"] or token["math"]:
            pieces.append(maths(token.group(0)))
        else:
            link_text = convert_inline(token["link_text"], role, maths, link)
            pieces.append(link(link_text, token["link_target"]))
        position = token.end()
    pieces.append(text[position:])
    return "".join(pieces)


def explicit_text(content: str) -> tuple[str | None, str]:
    """Split a reference's content into its own text (or None) and its target.

    Examples
    --------
    >>> explicit_text("the rule <alg-ch3-train>")
    ('the rule', 'alg-ch3-train')
    >>> explicit_text("thm-ch5-convergence")
    (None, 'thm-ch5-convergence')
    """
    match = EXPLICIT.match(content.strip())
    if match is None:
        return None, content.strip()
    return match["text"], match["target"].strip()


def escape_markdown(text: str) -> str:
    """Escape what Markdown or Colab's MathJax would read as markup in pasted text.

    Examples
    --------
    >>> escape_markdown("5*3 = $15_a")
    '5\\\\*3 = \\\\$15\\\\_a'
    """
    return re.sub(r"([\\`*_\[\]<>$])", r"\\\1", text)


def citation(keys: str, labels: dict[str, tuple[str, str]], url: str, textual: bool) -> str:
    """``{cite:t}`` (textual) "Rosenblatt (1958)" or ``{cite:p}`` "(Rosenblatt, 1958)",
    each linked to the bibliography page (the site writes square brackets:
    "Rosenblatt [1958]", "[Rosenblatt, 1958]").

    Several works are ordered as the site orders them, by author then year
    (not in the order of the keys), and joined with commas as it joins them.

    Examples
    --------
    >>> labels = {"r58": ("Rosenblatt", "1958"), "d17": ("Daumé III", "2017")}
    >>> print(citation("r58,d17", labels, "B", textual=False))
    ([Daumé III, 2017](B), [Rosenblatt, 1958](B))
    >>> print(citation("r58", labels, "B", textual=True))
    [Rosenblatt (1958)](B)
    """
    cited = []
    for key in (k.strip() for k in keys.split(",")):
        if key not in labels:
            raise ValueError(f"citation key {key!r} is not in the bibliography")
        cited.append(labels[key])
    cited.sort(key=lambda label: (_sort_name(label[0]), label[1]))
    if textual:
        return ", ".join(f"[{who} ({year})]({url})" for who, year in cited)
    return "(" + ", ".join(f"[{who}, {year}]({url})" for who, year in cited) + ")"


def _sort_name(who: str) -> str:
    """An author label as the bibliography sorts it: accents and case ignored.

    >>> sorted(["Rosenblatt", "daume", "Daumé III"], key=_sort_name)
    ['daume', 'Daumé III', 'Rosenblatt']
    """
    plain = unicodedata.normalize("NFKD", who).encode("ascii", "ignore").decode()
    return plain.casefold()
