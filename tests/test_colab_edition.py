"""The Colab edition (colab/, written by `make colab`): up to date, and plain Markdown.

The committed notebooks must be what scripts/colab/edition.py writes from the
chapters today, and no MyST-only markup may be left in them: Colab would show
it raw. The conversions themselves are tested on small books written here,
each with a case the chapters really have (an exercise holding a code block,
a glued number in a theorem's title, a dollar sign inside a code span...).
"""

from __future__ import annotations

import doctest
import os
import re
import shutil
import sys
from pathlib import Path

import nbformat
import pytest
import yaml
from toc import ROOT, toc_notebooks

sys.path.insert(0, str(ROOT / "scripts" / "colab"))
sys.path.insert(0, str(ROOT / "scripts" / "notebooks"))
import directives  # noqa: E402
import edition  # noqa: E402
import glue_values  # noqa: E402
import macros  # noqa: E402
import references  # noqa: E402
import roles  # noqa: E402
import solutions  # noqa: E402
from directives import split_blocks  # noqa: E402
from edition import (  # noqa: E402
    INSTALL_TAG,
    default_repository,
    edition_notebook,
    install_source,
    write_edition,
)
from macros import expand_macros, front_matter_macros, mathjax_macros  # noqa: E402
from references import repository_from_config  # noqa: E402
from solutions import glue_only  # noqa: E402
from student_notebooks import strip_solutions  # noqa: E402

COLAB = ROOT / "colab"
CHAPTERS = [path for path in toc_notebooks() if path.parent.name == "book"]
CONFIG = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
REQUIREMENT = re.compile(r"perceptron_lib @ git\+https://github\.com/([\w.-]+/[\w.-]+)")


def committed_repository(path: Path) -> str:
    """The repository a committed edition notebook installs from (its cell 0)."""
    first = nbformat.read(path, as_version=4).cells[0]
    return REQUIREMENT.search(first.source).group(1)


def all_macro_names() -> set[str]:
    """Every macro the chapters or _config.yml define."""
    names = set(mathjax_macros(CONFIG))
    for path in CHAPTERS:
        for cell in nbformat.read(path, as_version=4).cells:
            if cell.cell_type == "markdown":
                names |= set(front_matter_macros(cell.source))
    return names


# --------------------------------------------------------------------------
# The committed edition
# --------------------------------------------------------------------------


def test_one_edition_notebook_per_chapter():
    assert CHAPTERS, "no chapter in _toc.yml"
    assert sorted(p.name for p in COLAB.glob("*.ipynb")) == sorted(p.name for p in CHAPTERS)
    readme = (COLAB / "README.md").read_text(encoding="utf-8")
    assert "make colab" in readme.splitlines()[0] and "do not edit" in readme.splitlines()[0]


def test_committed_edition_is_up_to_date(tmp_path):
    repositories = {committed_repository(path) for path in COLAB.glob("*.ipynb")}
    assert len(repositories) == 1, f"the notebooks install from different places: {repositories}"
    (repository,) = repositories
    allowed = {repository_from_config(CONFIG), os.environ.get("REPOSITORY", "").strip()}
    assert repository in allowed, f"colab/ installs from {repository}, not from {allowed}"
    write_edition(tmp_path, repository)
    for chapter in CHAPTERS:
        fresh = nbformat.read(tmp_path / chapter.name, as_version=4)
        committed = nbformat.read(COLAB / chapter.name, as_version=4)
        assert len(fresh.cells) == len(committed.cells), f"{chapter.name}: run make colab"
        for index, (new, old) in enumerate(zip(fresh.cells, committed.cells, strict=True)):
            assert new == old, f"{chapter.name} cell {index} is out of date: run make colab"
    assert (tmp_path / "README.md").read_text() == (COLAB / "README.md").read_text()


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.name)
def test_first_cell_installs_the_library_and_nothing_else(path):
    edition = nbformat.read(COLAB / path.name, as_version=4)
    nbformat.validate(edition)
    ids = [cell.id for cell in edition.cells]
    assert len(set(ids)) == len(ids), "two cells share an id"
    first = edition.cells[0]
    repository = committed_repository(COLAB / path.name)
    requirement = f"perceptron_lib @ git+https://github.com/{repository}"
    assert first.cell_type == "code" and first.metadata.get("tags") == [INSTALL_TAG]
    assert first.source.count(requirement) == 1
    assert f'%pip install -q "{requirement}"' in first.source
    for cell in edition.cells:
        if cell.cell_type == "code":
            assert not re.search(
                r"^\s*(from|import) (myst_nb|sphinx|jupyter_book)", cell.source, re.M
            )


# What Colab would show raw: roles, directive fences, MyST targets, breaks and comments.
MYST_ONLY = {
    "role": re.compile(r"\{[a-z][\w:+-]*\}`"),
    "directive fence": re.compile(r"^\s*(`{3,}|:{3,})\s*\{", re.M),
    "colon fence": re.compile(r"^:{3,}", re.M),
    "directive option": re.compile(r"^>?\s*:(label|class|pyobject|name|nonumber):", re.M),
    "target": re.compile(r"^\([\w:.-]+\)=\s*$", re.M),
    "block break": re.compile(r"^\+\+\+", re.M),
    "comment": re.compile(r"^%", re.M),
    "definition list": re.compile(r"^:\s", re.M),
    "placeholder": re.compile(r"TODO|FIXME|XXX"),
}


CODE_BLOCK = re.compile(r"^(?:> )*(`{3,})(?!\s*\{)[^\n]*\n.*?^(?:> )*\1\s*$", re.M | re.S)


def markdown_problems(source: str, macro_names: set[str]) -> list[str]:
    """What a Markdown cell of the edition still holds that Colab would show raw."""
    macro = re.compile("(" + "|".join(re.escape(n) for n in sorted(macro_names)) + ")(?![A-Za-z])")
    # Code blocks (solutions, the library's code) may hold any text; a directive
    # fence is no code block and stays to be found.
    prose = CODE_BLOCK.sub("", source)
    problems = [
        f"{what} {found.group(0)!r}"
        for what, pattern in MYST_ONLY.items()
        if (found := pattern.search(prose))
    ]
    problems += [f"macro {found.group(0)} not expanded" for found in macro.finditer(source)]
    if "\\label{" in source:
        problems.append("a \\label")
    return problems


def test_the_markup_check_finds_what_it_looks_for():
    names = {"\\vw", "\\R"}
    assert markdown_problems("$\\vw \\Rightarrow \\mathbb{R}$ and `%pip`", names) == [
        "macro \\vw not expanded"
    ]
    found = markdown_problems("(a)=\n```{prf:theorem}\n:label: a\n$\\R$\n```\n{ref}`a`", names)
    assert found == [
        "role '{ref}`'",
        "directive fence '```{'",
        "directive option ':label:'",
        "target '(a)='",
        "macro \\R not expanded",
    ]
    assert markdown_problems("```python\n%timeit f()\n```\nTODO", names) == ["placeholder 'TODO'"]


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.name)
def test_no_myst_markup_or_course_macro_remains(path):
    names = all_macro_names()
    edition = nbformat.read(COLAB / path.name, as_version=4)
    for index, cell in enumerate(edition.cells):
        if cell.cell_type == "markdown":
            assert markdown_problems(cell.source, names) == [], f"{path.name} cell {index}"
        else:
            assert "TODO" not in cell.source, f"{path.name} cell {index}"


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.name)
def test_solutions_are_collapsed_text_and_outputs_are_the_chapters(path):
    chapter = nbformat.read(path, as_version=4)
    edition = nbformat.read(COLAB / path.name, as_version=4)
    text = "\n".join(c.source for c in chapter.cells if c.cell_type == "markdown")
    labels = re.findall(r"^```\{solution-start\}\s*(\S+)", text, re.M)
    shown = "\n".join(c.source for c in edition.cells if c.cell_type == "markdown")
    solutions = re.findall(
        r"<details>\n<summary><b>Solution to Exercise [\d.]+</b></summary>", shown
    )
    assert len(solutions) == len(labels) > 0
    assert shown.count("<details>") == shown.count("</details>")

    # Every figure of the chapter is kept, except in solutions (text here) and in
    # cells whose output the site removes too (widgets) or that only paper shows.
    def images(notebook):
        return sum(
            "image/png" in output.get("data", {})
            for cell in notebook.cells
            if cell.cell_type == "code"
            and not {"remove-output", "print-only"} & set(cell.metadata.get("tags", []))
            for output in cell.get("outputs", [])
        )

    assert images(edition) == images(strip_solutions(chapter)) > 0
    for match in re.finditer(r"<details>.*?</details>", shown, re.DOTALL):
        for code in re.findall(r"```python\n(.*?)\n```", match.group(0), re.DOTALL):
            assert not glue_only(code), f"{path.name}: a glue-only cell shown"
    # What a solution's code printed is shown after it (its text speaks of it).
    inside = False
    for cell in chapter.cells:
        if cell.cell_type == "markdown":
            for marker in re.findall(r"\{solution-(start|end)\}", cell.source):
                inside = marker == "start"
        elif inside:
            for output in cell.get("outputs", []):
                if output.get("output_type") == "stream" and output.text.strip():
                    assert output.text.strip() in shown, (path.name, output.text[:60])
    for cell in edition.cells:
        for output in cell.get("outputs", []):
            assert "scrapbook" not in output.get("metadata", {})
            assert "application/vnd.jupyter.widget-view+json" not in output.get("data", {})


def _tagged(cell, tag):
    return tag in cell.metadata.get("tags", [])


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.name)
def test_colab_only_cells_are_shown_here_and_hidden_elsewhere(path):
    """A colab-only cell is the edition's counterpart of a web-only or print-only
    sentence: removed from the site and the PDF (remove-cell), placed beside its
    siblings, worded for a notebook that runs, and shown in the edition."""
    cells = nbformat.read(path, as_version=4).cells
    shown = markdown(nbformat.read(COLAB / path.name, as_version=4))
    for index, cell in enumerate(cells):
        if not _tagged(cell, "colab-only"):
            continue
        assert cell.cell_type == "markdown" and _tagged(cell, "remove-cell"), cell.id
        assert not re.search(r"on this page|on paper|web page|Colab", cell.source, re.I)
        neighbours = cells[max(index - 2, 0) : index] + cells[index + 1 : index + 3]
        assert any(_tagged(c, "web-only") or _tagged(c, "print-only") for c in neighbours)
        words = re.sub(r"\{[^}]+\}`[^`]*`|\$[^$]*\$", " ", cell.source).split()
        assert " ".join(words[:6]) in " ".join(shown.split()), cell.id
    for cell in cells:
        if _tagged(cell, "web-only") or _tagged(cell, "print-only"):
            assert " ".join(cell.source.split()[:8]) not in " ".join(shown.split()), cell.id


def test_several_works_cited_together_are_sorted_by_author():
    link = r"\[([^\]]+?), (\d{4})\]\([^)]*bibliography\.html\)"
    groups = []
    for path in COLAB.glob("*.ipynb"):
        shown = markdown(nbformat.read(path, as_version=4))
        for group in re.finditer(rf"\((?:{link}, )+{link}\)", shown):
            groups.append(re.findall(link, group.group(0)))
    assert len(groups) >= 2  # chapters 1 and 3 cite two works at once
    for cited in groups:
        assert cited == sorted(cited, key=lambda c: (roles._sort_name(c[0]), c[1])), cited
    assert ["Daumé III", "Rosenblatt"] in [[who for who, _ in cited] for cited in groups]


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.name)
def test_chapters_no_longer_carry_a_colab_install_cell(path):
    assert "google.colab" not in path.read_text(encoding="utf-8")


def test_default_repository_follows_the_environment(monkeypatch):
    monkeypatch.setenv("REPOSITORY", "ada/perceptron-course")
    assert default_repository() == "ada/perceptron-course"
    monkeypatch.delenv("REPOSITORY")
    assert default_repository() == repository_from_config(CONFIG)


@pytest.mark.parametrize(
    "module",
    [directives, edition, glue_values, macros, references, roles, solutions],
    ids=lambda module: module.__name__,
)
def test_the_examples_in_the_docstrings_hold(module):
    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0
    assert result.failed == 0


# --------------------------------------------------------------------------
# The conversions, on a small book
# --------------------------------------------------------------------------

FRONT_MATTER = "---\nmath:\n  '\\vw': '\\mathbf{w}'\n  '\\norm': '\\lVert #1 \\rVert'\n---"


def glue_cell(name: str, text: str) -> nbformat.NotebookNode:
    cell = nbformat.v4.new_code_cell(f'glue("{name}", "{text}", display=False)')
    cell.metadata["tags"] = ["remove-input"]
    prefix = "application/papermill.record/"
    cell.outputs = [
        nbformat.v4.new_output(
            "display_data",
            data={f"{prefix}text/plain": repr(text)},
            metadata={"scrapbook": {"name": name, "mime_prefix": prefix}},
        )
    ]
    return cell


def small_book(tmp_path: Path, *chapters: list) -> list[Path]:
    """A book with the given chapters (lists of cells), the course's bibliography."""
    (tmp_path / "book").mkdir()
    shutil.copy(ROOT / "book" / "references.bib", tmp_path / "book" / "references.bib")
    config = {
        "repository": {"url": "https://github.com/OWNER/perceptron-course"},
        "sphinx": {"config": {"mathjax3_config": {"tex": {"macros": {"R": ["\\mathbb{R}"]}}}}},
    }
    (tmp_path / "_config.yml").write_text(yaml.safe_dump(config))
    paths = [tmp_path / "book" / f"0{n + 1}_chapter.ipynb" for n in range(len(chapters))]
    toc = {
        "format": "jb-book",
        "root": "book/intro",
        "parts": [{"numbered": True, "chapters": [{"file": f"book/{p.stem}"} for p in paths]}],
    }
    (tmp_path / "_toc.yml").write_text(yaml.safe_dump(toc))
    (tmp_path / "book" / "intro.md").write_text("# Intro\n")
    (tmp_path / "perceptron_lib").mkdir()
    (tmp_path / "perceptron_lib" / "shown.py").write_text(
        'def margin(w, b):\n    """Docstring."""\n    w = check(w)\n    return w + b\n'
    )
    for path, cells in zip(paths, chapters, strict=True):
        notebook = nbformat.v4.new_notebook()
        notebook.cells = [nbformat.v4.new_markdown_cell(FRONT_MATTER), *cells]
        for index, cell in enumerate(notebook.cells):
            cell.id = f"c{index}"
        nbformat.write(notebook, path)
    return paths


def markdown(notebook: nbformat.NotebookNode) -> str:
    return "\n\n".join(cell.source for cell in notebook.cells if cell.cell_type == "markdown")


def md(text: str) -> nbformat.NotebookNode:
    return nbformat.v4.new_markdown_cell(text)


def test_theorem_with_glue_in_title_and_nested_math(tmp_path):
    (chapter,) = small_book(
        tmp_path,
        [
            glue_cell("ch1_n", "40"),
            md(
                "```{prf:definition} Margin\n:label: def-a\n\nSome $\\norm{\\vw}$.\n```\n\n"
                # A role in a title needs a colon fence: backtick fences end their
                # info string at a backtick (CommonMark), in MyST too.
                ":::{prf:theorem} At most {glue:text}`ch1_n` mistakes\n:label: thm-a\n\n"
                "$$\n\\norm{\\norm{\\vw}} \\in \\R\n$$\n:::\n\n"
                "```{prf:theorem} Second\n:label: thm-b\nText.\n```\n\n"
                "By {prf:ref}`thm-b` and {numref}`the definition %s <def-a>`."
            ),
        ],
    )
    text = markdown(edition_notebook(chapter, "ada/course"))
    assert "> **Definition 1.1** (Margin)" in text
    assert "> **Theorem 1.1** (At most 40 mistakes)" in text
    assert "> **Theorem 1.2** (Second)" in text
    # A formula in a block is on one line, so no line's ">" falls inside it.
    assert "> $$ \\lVert \\lVert \\mathbf{w} \\rVert \\rVert \\in \\mathbb{R} $$" in text
    page = "https://ada.github.io/course/book/01_chapter.html"
    assert f"By [Theorem 1.2]({page}#thm-b)" in text
    assert f"[the definition 1.1]({page}#def-a)" in text


def test_exercise_holding_code_and_a_note_and_its_solution(tmp_path):
    (chapter,) = small_book(
        tmp_path,
        [
            md(
                "````{exercise} Projection\n:label: ex-a\n\nWrite it; `$HOME` and "
                "`{glue:text}` are code.\n\n```python\nch01.check(project)\n```\n\n"
                "```{note}\nA note with $\\vw$.\n```\n````\n\n"
                "```{solution-start} ex-a\n:class: dropdown\n```\n\nDivide by $\\norm{x}$:"
            ),
            nbformat.v4.new_code_cell("def project(v, u):\n    return v @ u"),
            md("```{solution-end}\n```\n\nAfter the solution."),
        ],
    )
    edition = edition_notebook(chapter, "ada/course")
    text = markdown(edition)
    assert "> **Exercise 1.1** (Projection)" in text
    assert "`$HOME` and `{glue:text}` are code" in text
    assert "> ```python\n> ch01.check(project)\n> ```" in text
    assert "> > **Note**\n> >\n> > A note with $\\mathbf{w}$." in text
    assert "<summary><b>Solution to Exercise 1.1</b></summary>" in text
    assert "Divide by $\\lVert x \\rVert$:\n\n```python\ndef project(v, u):" in text
    assert text.index("</details>") < text.index("After the solution.")
    code = [cell.source for cell in edition.cells if cell.cell_type == "code"]
    assert not any("def project" in source for source in code), "a solution ran"


def test_a_solution_shows_its_output_and_leaves_out_its_glue_only_cell(tmp_path):
    solution_glue = glue_cell("ch1_steps", "12")
    printing = nbformat.v4.new_code_cell("steps = 12\nprint(steps)")
    printing.outputs = [
        nbformat.v4.new_output("stream", name="stdout", text="12\n"),
        nbformat.v4.new_output("display_data", data={"image/png": "iVBOR", "text/plain": "F"}),
    ]
    (chapter,) = small_book(
        tmp_path,
        [
            md("```{exercise} Count\n:label: ex-a\nCount.\n```"),
            md("```{solution-start} ex-a\n:class: dropdown\n```\n\nCount the steps:"),
            printing,
            solution_glue,
            md("It takes {glue:text}`ch1_steps` steps.\n\n```{solution-end}\n```"),
        ],
    )
    text = markdown(edition_notebook(chapter, "ada/course"))
    assert "```python\nsteps = 12\nprint(steps)\n```\n\n*Output:*\n\n```text\n12\n```" in text
    assert "![The figure the code draws](data:image/png;base64,iVBOR)" in text
    assert "It takes 12 steps." in text
    assert "glue(" not in text


def test_dropdown_admonition_literalinclude_citations_and_links(tmp_path):
    (chapter,) = small_book(
        tmp_path,
        [
            md(
                "(sec-a)=\n## A section\n\n+++\n% a comment\n"
                "```{admonition} For engineers: *why*\n:class: dropdown\n\nBecause.\n```\n\n"
                "```{literalinclude} ../perceptron_lib/shown.py\n:pyobject: margin\n"
                ":start-at: w = check(w)\n:prepend: def margin(w, b):\n```\n\n"
                "As {cite:t}`rosenblatt1958perceptron` and "
                "{cite:p}`rosenblatt1958perceptron,mcculloch1943logical` say, see "
                "[the notation](notation.md) and {ref}`sec-a`."
            )
        ],
    )
    text = markdown(edition_notebook(chapter, "ada/course"))
    assert "(sec-a)=" not in text and "+++" not in text and "% a comment" not in text
    assert "<summary><b>For engineers: <i>why</i></b></summary>\n\nBecause." in text
    assert "```python\ndef margin(w, b):\n    w = check(w)\n    return w + b\n```" in text
    assert "Docstring" not in text
    bibliography = "https://ada.github.io/course/book/bibliography.html"
    assert f"As [Rosenblatt (1958)]({bibliography}) and" in text
    # Sorted by author, as the site sorts them, whatever the keys' order.
    assert f"([McCulloch and Pitts, 1943]({bibliography}), [Rosenblatt, 1958]" in text
    assert "[the notation](https://ada.github.io/course/book/notation.html)" in text
    assert "[A section](https://ada.github.io/course/book/01_chapter.html#sec-a)" in text


def test_figure_caption_numbering_and_outputs(tmp_path):
    figure = nbformat.v4.new_code_cell("plot()")
    figure.metadata["mystnb"] = {"figure": {"caption": "The $\\vw$ line.", "name": "fig-a"}}
    figure.outputs = [nbformat.v4.new_output("display_data", data={"image/png": "iVBOR"})]
    widget = nbformat.v4.new_code_cell("explorer()")
    widget.metadata["tags"] = ["remove-output"]
    widget.outputs = [
        nbformat.v4.new_output(
            "execute_result",
            data={"application/vnd.jupyter.widget-view+json": {}, "text/plain": "x"},
            execution_count=1,
        )
    ]
    imports = nbformat.v4.new_code_cell("import numpy as np\nfrom myst_nb import glue\n")
    web = md("On this page there is no kernel.")
    web.metadata["tags"] = ["web-only"]
    other = nbformat.v4.new_code_cell("plot()")
    other.metadata["mystnb"] = {"figure": {"caption": "Another.", "name": "fig-one"}}
    first, second = small_book(
        tmp_path,
        [md("# One"), other],
        [imports, figure, widget, web, md("See {numref}`fig-a`.")],
    )
    edition = edition_notebook(second, "ada/course")
    text = markdown(edition)
    assert "**Fig. 2.1** The $\\mathbf{w}$ line." in text
    assert "See [Fig. 2.1](https://ada.github.io/course/book/02_chapter.html#fig-a)." in text
    code = [cell for cell in edition.cells if cell.cell_type == "code"]
    assert code[0].source == install_source("ada/course")
    assert "def glue(name, variable, display=True)" in code[1].source
    assert code[2].source == "import numpy as np\n"
    assert code[3].outputs[0]["data"] == {"image/png": "iVBOR"}
    assert code[4].outputs == []
    assert "no kernel" not in text


def test_colab_only_cell_kept_without_its_tags_and_its_siblings_dropped(tmp_path):
    web = md("On this page, {glue:text}`ch1_n` frames.")
    web.metadata["tags"] = ["web-only"]
    paper = md("On paper, one frame.")
    paper.metadata["tags"] = ["print-only"]
    colab = md("The cell below plays {glue:text}`ch1_n` frames of $\\vw$.")
    colab.metadata["tags"] = ["remove-cell", "colab-only"]
    hidden = md("Hidden everywhere.")
    hidden.metadata["tags"] = ["remove-cell"]
    (chapter,) = small_book(tmp_path, [glue_cell("ch1_n", "20"), web, paper, colab, hidden])
    edition = edition_notebook(chapter, "ada/course")
    text = markdown(edition)
    assert "The cell below plays 20 frames of $\\mathbf{w}$." in text
    assert "On this page" not in text and "On paper" not in text and "Hidden" not in text
    assert all("tags" not in c.metadata for c in edition.cells if c.cell_type == "markdown")


def test_numbers_continue_across_chapters_per_kind(tmp_path):
    chapters = small_book(
        tmp_path,
        [md("```{prf:theorem}\n:label: thm-one\nA.\n```")],
        [
            md(
                "```{prf:algorithm} Train\n:label: alg-two\nA.\n```\n\n"
                "```{prf:theorem} T\n:label: thm-two\nB.\n```\n\n"
                "```{prf:proof}\nC.\n```\n\nAs {prf:ref}`thm-one` shows."
            )
        ],
    )
    text = markdown(edition_notebook(chapters[1], "ada/course"))
    assert "> **Algorithm 2.1** (Train)" in text and "> **Theorem 2.1** (T)" in text
    assert "> **Proof.**\n>\n> C.\n>\n> $\\blacksquare$" in text
    assert "[Theorem 1.1](https://ada.github.io/course/book/01_chapter.html#thm-one)" in text


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("```{mystery}\nx\n```", "does not know the directive {mystery}"),
        ("Text {kbd}`C-c`.", "does not know the role {kbd}"),
        ("See {prf:ref}`thm-nowhere`.", "unknown label 'thm-nowhere'"),
        ("It is {glue:text}`never_glued`.", "'never_glued' was not glued"),
        ("```{note}\nnever closed", "unclosed fence"),
    ],
)
def test_what_the_edition_cannot_convert_is_an_error(tmp_path, source, message):
    (chapter,) = small_book(tmp_path, [md(source)])
    with pytest.raises(ValueError, match=re.escape(message)):
        edition_notebook(chapter, "ada/course")


def test_macros_expand_with_arguments_nested_and_whole_names_only():
    macros = {"\\R": "\\mathbb{R}", "\\norm": "\\lVert #1 \\rVert", "\\vw": "\\mathbf{w}"}
    macros["\\dotp"] = "\\langle #1, #2 \\rangle"
    assert expand_macros("\\Rightarrow \\R^D", macros) == "\\Rightarrow \\mathbb{R}^D"
    assert (
        expand_macros("\\dotp{\\vw}{\\norm{x_{i}}}", macros)
        == "\\langle \\mathbf{w}, \\lVert x_{i} \\rVert \\rangle"
    )
    assert expand_macros("\\norm x", macros) == "\\lVert x \\rVert"
    with pytest.raises(ValueError, match="unbalanced"):
        expand_macros("\\norm{x", macros)
    with pytest.raises(ValueError, match="without end"):
        expand_macros("\\a", {"\\a": "\\b", "\\b": "\\a"})


def test_blocks_respect_longer_fences_and_leave_code_alone():
    blocks = split_blocks(
        "````{exercise} E\n```{note}\nN\n```\n````\n```python\n$x$ {ref}`a`\n```"
    )
    assert [(b.kind, b.name) for b in blocks] == [("directive", "exercise"), ("code", "python")]
    assert blocks[0].text == "```{note}\nN\n```"
