"""The feedback page's maths: the chapter's front matter becomes MathJax macros.

A chapter opens with a hidden cell of front matter (``---``, ``math:`` and its
macros such as ``\\vw``, ``---``) that Jupyter Book reads and JupyterLab does
not. On nbgrader's feedback page it would show as a large heading, and every
formula using a macro (``$\\vw \\cdot \\vx$``) as raw TeX. This preprocessor,
run by ``nbgrader generate_feedback`` (see ``write_config`` in
``grading/nbgrader_course.py``), replaces that cell by the macros' definitions
for MathJax, so the page typesets the formulas and shows no front matter.
"""

from __future__ import annotations

import re

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
