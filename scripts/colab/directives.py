"""MyST directives into Markdown that Colab renders.

A chapter's Markdown cell is cut into blocks: plain text, code fences and
directive fences (```` ```{name} argument ```` or ``:::{name}``, closed by a
fence of the same character at least as long, so a four-backtick exercise can
hold a three-backtick code block). Each directive becomes a headed blockquote
("**Theorem 5.1** (title)"), a collapsed ``<details>`` block (dropdowns), or
plain Markdown (a literalinclude becomes the code it shows).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Protocol

from references import NUMBERED_KINDS

FENCE_OPEN = re.compile(r"^(?P<indent> {0,3})(?P<fence>`{3,}|:{3,})(?P<info>.*)$")
DIRECTIVE_INFO = re.compile(r"^\{(?P<name>[\w:.+-]+)\}\s*(?P<argument>.*)$")
OPTION = re.compile(r"^:(?P<key>[\w-]+):(?:\s+(?P<value>.*))?$")

ADMONITIONS = {"note", "tip", "warning", "important", "caution", "attention", "hint", "seealso"}
ADMONITIONS |= {"danger", "error"}


@dataclass
class Block:
    """A piece of a Markdown cell: text, a code fence, or a directive."""

    kind: str  # "text", "code" or "directive"
    text: str = ""  # the text, or the fence's body
    name: str = ""  # the directive's name, or the code fence's language
    argument: str = ""
    options: dict[str, str] = field(default_factory=dict)
    fence: str = "```"


class Converter(Protocol):
    """What the directives need from the chapter being converted (edition.Chapter)."""

    def inline(self, text: str) -> str: ...

    def markdown(self, text: str) -> str: ...

    def number(self, kind: str, label: str | None) -> str | None: ...

    def literalinclude(self, argument: str, options: dict[str, str]) -> str: ...

    def solution_title(self, label: str) -> str: ...


def split_blocks(text: str) -> list[Block]:
    """Cut Markdown into text, code fences and directives (not recursing into them).

    Examples
    --------
    >>> blocks = split_blocks("Intro\\n\\n````{exercise} Title\\n:label: ex-a\\n\\n"
    ...     "```python\\nx = 1\\n```\\n````\\nAfter")
    >>> [(b.kind, b.name) for b in blocks]
    [('text', ''), ('directive', 'exercise'), ('text', '')]
    >>> blocks[1].argument, blocks[1].options, blocks[1].text
    ('Title', {'label': 'ex-a'}, '```python\\nx = 1\\n```')
    """
    lines = text.split("\n")
    blocks: list[Block] = []
    plain: list[str] = []
    i = 0
    while i < len(lines):
        opening = FENCE_OPEN.match(lines[i])
        if opening is None or (opening["fence"][0] == "`" and "`" in opening["info"]):
            plain.append(lines[i])
            i += 1
            continue
        fence, info = opening["fence"], opening["info"].strip()
        closing = re.compile(rf"^ {{0,3}}{re.escape(fence[0])}{{{len(fence)},}}\s*$")
        end = i + 1
        while end < len(lines) and not closing.match(lines[end]):
            end += 1
        if end == len(lines):
            raise ValueError(f"unclosed fence {lines[i]!r}")
        body = lines[i + 1 : end]
        if plain:
            blocks.append(Block("text", "\n".join(plain)))
            plain = []
        directive = DIRECTIVE_INFO.match(info)
        if directive is None:
            blocks.append(Block("code", "\n".join(body), name=info, fence=fence))
        else:
            options, body = _options(body)
            blocks.append(
                Block(
                    "directive",
                    "\n".join(body).strip("\n"),
                    name=directive["name"],
                    argument=directive["argument"].strip(),
                    options=options,
                    fence=fence,
                )
            )
        i = end + 1
    if plain:
        blocks.append(Block("text", "\n".join(plain)))
    return blocks


def _options(body: list[str]) -> tuple[dict[str, str], list[str]]:
    """The directive's ``:key: value`` lines at the top of its body, and the rest."""
    options = {}
    position = 0
    while position < len(body):
        option = OPTION.match(body[position])
        if option is None:
            break
        options[option["key"]] = (option["value"] or "").strip()
        position += 1
    return options, body[position:]


# Code (fenced or inline) is left as it is; a formula is $$...$$ or $...$, the
# latter within one paragraph.
_CODE_OR_FORMULA = re.compile(
    r"(?P<code>(?P<ticks>`{3,})[\s\S]*?(?P=ticks)|`(?:[^`\n]|\n(?![ \t]*\n))+`)"
    r"|\$\$[\s\S]+?\$\$"
    r"|\$(?:[^$\n]|\n(?![ \t]*\n))+?\$"
)


def one_line_formulas(text: str) -> str:
    """Write every formula of ``text`` on one line, leaving code alone.

    A formula that spans lines inside a blockquote would carry each line's
    ``>`` into the maths where the maths is read before the Markdown
    (JupyterLab does so).

    Examples
    --------
    >>> print(one_line_formulas("$$\\na = b\\n$$ and `$x\\n` $y +\\nz$"))
    $$ a = b $$ and `$x
    ` $y + z$
    """

    def joined(match: re.Match) -> str:
        if match.group("code"):
            return match.group(0)
        return re.sub(r"[ \t]*\n[ \t]*", " ", match.group(0))

    return _CODE_OR_FORMULA.sub(joined, text)


def blockquote(text: str) -> str:
    """Prefix every line with ``> `` (an empty line with ``>``), formulas on one line.

    Examples
    --------
    >>> print(blockquote("**Note**\\n\\nText $a\\n+ b$"))
    > **Note**
    >
    > Text $a + b$
    """
    text = one_line_formulas(text)
    return "\n".join(f"> {line}" if line.strip() else ">" for line in text.split("\n"))


def details(summary: str, body: str) -> str:
    """A collapsed block: a ``<details>`` element whose body is Markdown.

    The blank lines around the body make Markdown renderers read it as
    Markdown, not as raw HTML.

    Examples
    --------
    >>> print(details("Solution", "Divide by $n$."))
    <details>
    <summary>Solution</summary>
    <BLANKLINE>
    Divide by $n$.
    <BLANKLINE>
    </details>
    """
    return f"<details>\n<summary>{summary}</summary>\n\n{body.strip()}\n\n</details>"


def convert_directive(block: Block, chapter: Converter) -> str:
    """The Markdown for one directive block (its body converted too).

    Raises
    ------
    ValueError
        For a directive the edition does not know: a new kind in a chapter
        must be taught here, not slip through as raw markup.
    """
    name = block.name
    label = block.options.get("label")
    if name in NUMBERED_KINDS and name != "figure":
        number = chapter.number(name, label if "nonumber" not in block.options else None)
        head = f"**{number}**" if number else f"**{NUMBERED_KINDS[name]}**"
        if block.argument:
            head += f" ({chapter.inline(block.argument)})"
        return blockquote(f"{head}\n\n{chapter.markdown(block.text)}")
    if name == "prf:proof":
        return blockquote(f"**Proof.**\n\n{chapter.markdown(block.text)}\n\n$\\blacksquare$")
    if name in ADMONITIONS or name == "admonition":
        title = block.argument if name == "admonition" else name.capitalize()
        body = chapter.markdown(block.text)
        if "dropdown" in block.options.get("class", "").split():
            return details(f"<b>{_html_title(chapter.inline(title))}</b>", body)
        return blockquote(f"**{chapter.inline(title)}**\n\n{body}")
    if name == "literalinclude":
        return chapter.literalinclude(block.argument, block.options)
    if name == "math":
        return f"$$\n{chapter.inline('$$' + block.text + '$$')[2:-2]}\n$$"
    raise ValueError(f"the Colab edition does not know the directive {{{name}}}")


def _html_title(title: str) -> str:
    """A title inside HTML (``<summary>``): Markdown emphasis is not read there."""
    title = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", title)
    return re.sub(r"\*(.+?)\*", r"<i>\1</i>", title)
