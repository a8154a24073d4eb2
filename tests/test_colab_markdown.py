"""The Colab edition's Markdown renders as Colab renders it: no MyST left, every formula typesets.

``tests/colab/render_markdown.mjs`` renders each Markdown cell with markdown-it
(CommonMark, as Colab's renderer is) after taking out the ``$...$`` and
``$$...$$`` formulas, and reads each formula with MathJax 3's TeX input and none
of the course's macros (Colab has none). It reports directive fences
(```` ```{prf:theorem} ````, ``:::{note}``), MyST roles and targets
(``{ref}`...```, ``(label)=``) and every formula MathJax cannot typeset
(``\\vw``: "Undefined control sequence"). Needs Node and ``node_modules``
(``make node``); run by ``make colab-check``.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "tests" / "colab" / "render_markdown.mjs"
EDITION = ROOT / "colab"


def render(*notebooks: Path) -> tuple[int, list[dict], str]:
    """Run the renderer: its exit status, the problems it reports, its summary line."""
    node = shutil.which("node")
    assert node, "the Markdown check needs Node (make node installs it)"
    done = subprocess.run(
        [node, str(SCRIPT), *map(str, notebooks)],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode in (0, 1), done.stderr
    problems = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    return done.returncode, problems, done.stderr.strip().splitlines()[-1]


def notebook_of(*sources: str, path: Path) -> Path:
    cells = [nbformat.v4.new_markdown_cell(source) for source in sources]
    nbformat.write(nbformat.v4.new_notebook(cells=cells), path)
    return path


def test_a_course_macro_and_a_raw_directive_are_reported(tmp_path: Path) -> None:
    notebook = notebook_of(
        "The weights $\\vw$ after $t$ updates, $a_1 * b_2$ and $$\\lVert x \\rVert_2$$.",
        "```{prf:theorem} Convergence\n:label: thm-convergence\n\nIt converges.\n```",
        "Plain text: $5 and $6, `$x$` in code, and\n\n```python\nprint('$x$')\n```",
        path=tmp_path / "broken.ipynb",
    )
    status, problems, summary = render(notebook)
    assert status == 1
    found = [(p["cell"], p["kind"], p["text"]) for p in problems]
    assert found == [(0, "math", "\\vw"), (1, "directive", "```{prf:theorem} Convergence")]
    assert "Undefined control sequence \\vw" in problems[0]["message"]
    assert summary.startswith("1 notebooks, 3 Markdown cells, 4 formulas")


def test_roles_targets_colon_fences_and_bad_braces_are_reported(tmp_path: Path) -> None:
    notebook = notebook_of(
        "By {prf:ref}`thm-convergence`, as {cite:t}`novikoff1962` showed.",
        "(sec-bound)=\n\n:::{note}\nA note.\n:::",
        "A half $\\frac{1}{2$.",
        "> **Proof.**\n>\n> $$\n> a \\le b\n> $$\n>\n> One line: $$a \\le b$$",
        path=tmp_path / "myst.ipynb",
    )
    _, problems, _ = render(notebook)
    kinds = sorted((p["cell"], p["kind"]) for p in problems)
    assert kinds == [
        (0, "role"), (0, "role"), (1, "directive"), (1, "role"), (2, "math"), (3, "math")
    ]  # fmt: skip
    assert "blockquote" in problems[-1]["message"] and problems[-1]["cell"] == 3


def test_plain_markdown_and_plain_latex_pass(tmp_path: Path) -> None:
    notebook = notebook_of(
        "> **Theorem 1 (Convergence).** If $\\lVert \\mathbf{x}_i \\rVert \\le R$, then\n"
        "> $$k \\le \\left(\\frac{R}{\\gamma}\\right)^2.$$",
        "<details><summary>Solution</summary>\n\nIt is $\\mathbf{w}^{\\star}$.\n</details>",
        path=tmp_path / "plain.ipynb",
    )
    status, problems, _ = render(notebook)
    assert (status, problems) == (0, [])


def test_the_committed_edition_renders() -> None:
    notebooks = sorted(EDITION.glob("*.ipynb"))
    assert notebooks, f"no notebooks in {EDITION.relative_to(ROOT)}/: run make colab"
    status, problems, summary = render(*notebooks)
    print(summary)
    shown = "\n".join(
        f"{Path(p['notebook']).name} cell {p['cell']} ({p['id']}): {p['kind']} {p['text']!r}"
        + (f" ({p['message']})" if "message" in p else "")
        for p in problems
    )
    assert (status, problems) == (0, []), shown
