"""The feedback page as the released notebook reads in JupyterLab, typeset offline.

A chapter opens with a hidden cell of front matter (``---``, ``math:`` and its
macros such as ``\\vw``, ``---``) that Jupyter Book reads and JupyterLab does
not. On nbgrader's feedback page it would show as a large heading, and every
formula using a macro (``$\\vw \\cdot \\vx$``) as raw TeX. Two preprocessors,
run by ``nbgrader generate_feedback`` (see ``write_config`` in
``grading/nbgrader_course.py``), fix the page's Markdown:

- :class:`FrontMatterMacros` replaces that cell by the macros' definitions for
  MathJax, so the page typesets the formulas and shows no front matter;
- :class:`MystMarkdown` turns the chapter's MyST directives (a definition, an
  algorithm, an exercise: fenced blocks such as ```` ```{prf:definition} ````)
  into headed blocks, as JupyterLab's MyST extension shows them, and its roles
  (``{glue:text}`name```, ``{cite:t}`key```) into their text, instead of code
  blocks and raw markup.

nbconvert's page loads MathJax from a CDN: offline the maths stays raw TeX.
:func:`typeset` then runs MathJax once over the written pages, in Node
(``grading/typeset_feedback.mjs``, with the npm package ``mathjax-full`` that
``make node`` installs for the book): the pages need no network and no script.
Without Node it says so, once, and leaves the pages to the CDN.
"""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
from pathlib import Path

import yaml
from nbconvert.preprocessors import Preprocessor
from traitlets import Bool

FRONT_MATTER = re.compile(r"\A---[ \t]*\n(?P<yaml>.*?)\n---[ \t]*\Z", re.DOTALL)
ARGUMENT = re.compile(r"#([1-9])")


def front_matter(source: str) -> dict | None:
    """The YAML of a cell that is only front matter, or ``None``."""
    match = FRONT_MATTER.match(source.strip())
    if match is None:
        return None
    try:
        data = yaml.safe_load(match.group("yaml"))
    except yaml.YAMLError:
        return None
    return data if isinstance(data, dict) else None


def macro_definitions(macros: dict[str, str]) -> str:
    r"""``\newcommand`` lines for MathJax, one per macro (its arguments counted).

    >>> print(macro_definitions({r"\vw": r"\mathbf{w}", r"\norm": r"\lVert #1 \rVert"}))
    \newcommand{\vw}{\mathbf{w}}
    \newcommand{\norm}[1]{\lVert #1 \rVert}
    """
    lines = []
    for name, body in macros.items():
        name = name if name.startswith("\\") else f"\\{name}"
        count = max((int(n) for n in ARGUMENT.findall(str(body))), default=0)
        arguments = f"[{count}]" if count else ""
        lines.append(f"\\newcommand{{{name}}}{arguments}{{{body}}}")
    return "\n".join(lines)


class FrontMatterMacros(Preprocessor):
    """Replace a front-matter cell by its ``math:`` macros, defined for MathJax."""

    enabled = Bool(True).tag(config=True)  # nbconvert's preprocessors are off by default

    def preprocess_cell(self, cell, resources, index):
        if cell.cell_type == "markdown":
            data = front_matter(cell.source)
            if data is not None:
                macros = data.get("math") if isinstance(data.get("math"), dict) else {}
                # An empty display block: MathJax reads the definitions, shows nothing.
                cell.source = f"$$\n{macro_definitions(macros)}\n$$" if macros else ""
        return cell, resources


# ```{prf:definition} Title           (three backticks or more, or tildes)
# :label: def-x
# body
# ```
DIRECTIVE = re.compile(
    r"^(?P<fence>`{3,}|~{3,})\{(?P<name>[\w:-]+)\}[ \t]*(?P<title>[^\n]*)\n"
    r"(?P<body>.*?)^(?P=fence)[ \t]*$",
    re.MULTILINE | re.DOTALL,
)
OPTION = re.compile(r"^:(?P<key>[\w-]+):[ \t]*(?P<value>.*)$")
ROLE = re.compile(r"\{(?P<name>[\w:-]+)\}`(?P<text>[^`]*)`")
# The heading of a directive whose name alone does not read well.
KINDS = {"seealso": "See also", "admonition": "", "solution": "Solution"}


def _heading(name: str, title: str, options: dict[str, str]) -> str:
    if name == "literalinclude":
        what = f"`{options['pyobject']}` in " if "pyobject" in options else ""
        return f"Code: {what}`{title}` (shown in the book)"
    kind = KINDS.get(name, name.split(":")[-1].capitalize())
    if kind and title:
        return f"{kind} ({title})"
    return kind or title


def myst_blocks(source: str) -> str:
    """Each MyST directive of a Markdown cell as a headed block quote.

    >>> cell = "```{prf:definition} Online learning\\n:label: d\\n\\nOne at a time.\\n```"
    >>> print(myst_blocks(cell))
    > **Definition (Online learning)**
    >
    > One at a time.
    """

    def block(match: re.Match) -> str:
        lines = match.group("body").split("\n")
        options = {}
        while lines and OPTION.match(lines[0]):
            option = OPTION.match(lines.pop(0))
            options[option.group("key")] = option.group("value").strip()
        body = myst_blocks("\n".join(lines).strip("\n"))
        name = match.group("name")
        if name == "math":
            return f"$$\n{body}\n$$"
        heading = _heading(name, match.group("title").strip(), options)
        quoted = [f"**{heading}**"] + (["", *body.split("\n")] if body else [])
        # (A blank line after it: the text after the fence is not part of the quote.)
        return "\n".join(f"> {line}".rstrip() for line in quoted) + "\n"

    return DIRECTIVE.sub(block, source)


def myst_roles(source: str, glued: dict[str, str]) -> str:
    """Roles as text: a glued value, a citation's key, a reference's label.

    >>> myst_roles("{glue:text}`n` updates {cite:p}`daume2017course`", {"n": "13"})
    '13 updates [daume2017course]'
    """

    def text(match: re.Match) -> str:
        name, content = match.group("name"), match.group("text")
        if name.startswith("glue"):
            return glued.get(content, content)
        if name.startswith("cite"):
            return f"[{content}]"
        if name == "math":
            return f"${content}$"
        # {ref}`the text <label>`: the text; {numref}`fig-x`: the label.
        return re.sub(r"\s*<[^>]*>$", "", content) or content

    return ROLE.sub(text, source)


def glued_values(notebook) -> dict[str, str]:
    """{name: text} of the values a notebook glued (myst-nb's ``glue``)."""
    values = {}
    for cell in notebook.cells:
        for output in cell.get("outputs", []) if cell.cell_type == "code" else []:
            scrap = output.get("metadata", {}).get("scrapbook", {})
            text = output.get("data", {}).get(f"{scrap.get('mime_prefix', '')}text/plain")
            if "name" in scrap and text is not None:
                try:
                    value = ast.literal_eval(text)
                except (ValueError, SyntaxError):
                    value = text
                values[scrap["name"]] = str(value)
    return values


class MystMarkdown(Preprocessor):
    """Markdown cells with MyST directives and roles rendered as JupyterLab's MyST shows them."""

    enabled = Bool(True).tag(config=True)

    def preprocess(self, nb, resources):
        self._glued = glued_values(nb)
        return super().preprocess(nb, resources)

    def preprocess_cell(self, cell, resources, index):
        if cell.cell_type == "markdown" and ("{" in cell.source):
            cell.source = myst_roles(myst_blocks(cell.source), self._glued)
        return cell, resources


SCRIPT = Path(__file__).with_name("typeset_feedback.mjs")
MATHJAX = Path(__file__).resolve().parents[2] / "node_modules" / "mathjax-full" / "package.json"
TYPESET_MARK = 'id="MJX-SVG-styles"'  # the stylesheet typeset_feedback.mjs leaves in a page
NO_NODE = (
    "the feedback pages' maths is not typeset: Node or the npm package mathjax-full is "
    "missing (`make node` installs them; make grade does it). The pages load MathJax "
    "from a CDN instead: offline they show raw TeX"
)


def typeset(pages: list[Path]) -> str | None:
    """Typeset the maths of ``pages`` once, offline; ``None``, or what went wrong."""
    pages = [p for p in pages if TYPESET_MARK not in p.read_text(encoding="utf-8")]
    if not pages:
        return None
    node = shutil.which("node")
    if node is None or not MATHJAX.is_file():
        return NO_NODE
    result = subprocess.run(
        [node, str(SCRIPT), *map(str, pages)], capture_output=True, text=True, check=False
    )
    if result.returncode != 0:
        return f"MathJax could not typeset some feedback pages: {result.stderr.strip()[-1000:]}"
    return None
