"""The Colab edition: each chapter as a notebook that Colab renders and runs.

``make colab`` writes ``colab/<stem>.ipynb`` for every chapter of ``_toc.yml``
(never edit them by hand). Each notebook is its chapter with

- a first cell that installs the course's library from the repository
  (``%pip install "perceptron_lib @ git+https://github.com/<owner>/<name>"``)
  and nothing from the book's tooling: ``from myst_nb import glue`` is replaced
  by a stand-in that only shows a value;
- the MyST Markdown written out as plain Markdown (directives.py, roles.py),
  the glued numbers pasted in (glue_values.py), the maths macros expanded
  (macros.py), cross-references and citations linked to the site
  (references.py);
- the executed outputs of the chapter, figures included (the glue records
  and the widgets' saved views, which Colab cannot show, left out), and each
  figure's caption in a Markdown cell after it;
- every solution collapsed in a ``<details>`` block, its code shown, not run,
  with what it printed when the chapter ran
  (a cell of it that only glues numbers, hidden on the site, left out).

The cells' tags decide what a Colab reader sees: ``remove-input`` and
``hide-input`` cells (the glue calls, set-up) keep their code, which must
run; ``remove-output`` cells (the widgets) keep their code without outputs;
``web-only`` and ``print-only`` cells, which speak of the web page or of paper,
are left out, and so is the macros front matter (``remove-cell``); their
counterparts for a notebook whose cells run, tagged ``colab-only`` (and
``remove-cell``, so that the site and the PDF leave them out), are kept.

Usage: ``python scripts/colab/edition.py [OUT_DIR]`` (default ``colab``), with
``REPOSITORY=owner/name`` in the environment to name the repository (default:
``repository.url`` of ``_config.yml``).
"""

from __future__ import annotations

import copy
import os
import re
import sys
from pathlib import Path

import nbformat
import tomllib
from directives import Block, convert_directive, details, split_blocks
from glue_values import glue_markdown, glue_plain, glue_text, glued_values, is_glue_output
from macros import expand_macros, front_matter_macros, mathjax_macros
from references import (
    NUMBERED_KINDS,
    Numbering,
    Target,
    bibliography_labels,
    chapter_numbers,
    load_toc_and_config,
    repository_from_config,
    site_url,
)
from roles import citation, convert_inline, escape_markdown, explicit_text
from solutions import glue_only, saved_output

ROOT = Path(__file__).resolve().parents[2]
INSTALL_TAG = "colab-install"
COLAB_ONLY = "colab-only"  # a cell written for this edition, hidden everywhere else
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
# The library's extras (pyproject.toml) and the imports that need them.
EXTRA_MODULES = {"distributed": ("distributed", "dask", "perceptron_lib.distributed")}
GLUE_IMPORT = re.compile(r"^from myst_nb import glue\n", re.MULTILINE)
SOLUTION_MARKER = re.compile(
    r"^```\{solution-start\}[ \t]*(?P<label>\S+)[^\n]*\n(?::[^\n]*\n)*```[ \t]*$\n?"
    r"|^```\{solution-end\}[ \t]*\n```[ \t]*$\n?",
    re.MULTILINE,
)
TARGET_LINE = re.compile(r"^\((?P<label>[\w:.-]+)\)=[ \t]*$")
MYST_ONLY_LINE = re.compile(r"^(\+\+\+.*|%.*)$")  # block breaks and comments
GLUE_STANDIN = '''\
# The book pastes its numbers into the text with myst-nb's glue; here the text
# already holds them, so this stand-in only shows a value when asked to.
def glue(name, variable, display=True):
    """Show ``variable`` if ``display``; the name is kept for the book's calls."""
    if display:
        from IPython.display import display as show

        show(variable)
'''


def install_source(repository: str, extra: tuple[str, ...] = ()) -> str:
    """The source of cell 0: install the library from ``owner/name`` on GitHub,
    then the ``extra`` requirements (packages Colab does not ship), if any.

    Examples
    --------
    >>> print(install_source("ada/perceptron-course"))
    # Install the course's library (on Colab, or in any fresh environment).
    %pip install -q "perceptron_lib @ git+https://github.com/ada/perceptron-course"
    >>> print(install_source("ada/c", ("dask[distributed]>=2026.8.0",)).splitlines()[-1])
    %pip install -q "dask[distributed]>=2026.8.0"
    """
    requirement = f"perceptron_lib @ git+https://github.com/{repository}"
    lines = [
        "# Install the course's library (on Colab, or in any fresh environment).",
        f'%pip install -q "{requirement}"',
    ]
    if extra:
        lines.append("# This chapter also needs packages that Colab does not ship:")
        lines += [f'%pip install -q "{package}"' for package in extra]
    return "\n".join(lines)


def extra_requirements(notebook: nbformat.NotebookNode, root: Path = ROOT) -> tuple[str, ...]:
    """The library's optional requirements a chapter's code needs beyond Colab's stack.

    An extra of ``pyproject.toml`` is needed when a code cell imports one of
    the modules listed for it in ``EXTRA_MODULES`` (Colab has ipywidgets, and
    the library runs without numba, so only Dask's distributed scheduler is
    missing there).
    """
    with open(root / "pyproject.toml", "rb") as file:
        extras = tomllib.load(file)["project"]["optional-dependencies"]
    code = "\n".join(cell.source for cell in notebook.cells if cell.cell_type == "code")
    needed = []
    for extra, modules in EXTRA_MODULES.items():
        names = "|".join(re.escape(module) for module in modules)
        if re.search(rf"^\s*(from|import)\s+({names})\b", code, re.MULTILINE):
            needed += extras[extra]
    return tuple(needed)


class Site:
    """The whole book's targets: every label's page, anchor and text, and the citations."""

    def __init__(self, root: Path, repository: str):
        self.root = root
        self.repository = repository
        self.url = site_url(repository)
        self.toc, self.config = load_toc_and_config(root)
        self.numbers = chapter_numbers(self.toc)
        self.config_macros = mathjax_macros(self.config)
        self.citations = bibliography_labels(root / "book" / "references.bib")
        self.targets: dict[str, Target] = {}
        self.titles: dict[str, str] = {}
        for path in self.pages():
            self._collect(path)

    def pages(self) -> list[Path]:
        """Every page of the table of contents, notebooks and Markdown pages."""
        files = [self.toc["root"]]
        for part in self.toc.get("parts", []):
            files += [chapter["file"] for chapter in part.get("chapters", [])]
        paths = []
        for file in files:
            for suffix in (".ipynb", ".md"):
                if (self.root / f"{file}{suffix}").exists():
                    paths.append(self.root / f"{file}{suffix}")
        return paths

    def chapters(self) -> list[Path]:
        """The chapters' notebooks, in the order of the table of contents."""
        return [path for path in self.pages() if path.suffix == ".ipynb"]

    def page_url(self, stem: str, anchor: str = "") -> str:
        """The site's address of a page of book/ (and an anchor in it)."""
        return f"{self.url}book/{stem}.html" + (f"#{anchor}" if anchor else "")

    def _collect(self, path: Path) -> None:
        """Record the targets of one page, numbered as the site numbers them."""
        stem = path.stem
        numbering = Numbering(self.numbers.get(stem))
        if path.suffix == ".md":
            cells = [nbformat.v4.new_markdown_cell(path.read_text(encoding="utf-8"))]
        else:
            cells = nbformat.read(path, as_version=4).cells
        pending: list[str] = []  # (label)= lines waiting for their heading
        for cell in cells:
            if cell.cell_type == "code":
                figure = cell.metadata.get("mystnb", {}).get("figure")
                if figure and "remove-cell" not in cell.metadata.get("tags", []):
                    text = numbering.next("figure")
                    if figure.get("name"):
                        self._add(figure["name"], Target(stem, figure["name"], text))
                continue
            if cell.cell_type != "markdown":
                continue
            for block in _walk(split_blocks(cell.source)):
                if block.kind == "text":
                    for line in block.text.split("\n"):
                        target = TARGET_LINE.match(line)
                        heading = re.match(r"^#+\s+(.*)$", line)
                        if target:
                            pending.append(target["label"])
                        elif heading:
                            self.titles.setdefault(stem, heading[1].strip())
                            for label in pending:
                                self._add(label, Target(stem, label, heading[1].strip()))
                            pending = []
                elif block.name in NUMBERED_KINDS and block.name != "figure":
                    if "nonumber" in block.options:
                        text = NUMBERED_KINDS[block.name]
                    else:
                        text = numbering.next(block.name)
                    label = block.options.get("label")
                    if label:
                        self._add(label, Target(stem, label, text, block.argument))

    def _add(self, label: str, target: Target) -> None:
        if label in self.targets:
            raise ValueError(f"label {label!r} is defined twice ({target.page})")
        self.targets[label] = target


def _walk(blocks: list[Block]):
    """Every block, directives' bodies included, in the order of the text."""
    for block in blocks:
        yield block
        if block.kind == "directive":
            yield from _walk(split_blocks(block.text))


class Chapter:
    """One chapter being converted: its macros, glued values and counters."""

    def __init__(self, path: Path, site: Site):
        self.path = path
        self.stem = path.stem
        self.site = site
        self.notebook = nbformat.read(path, as_version=4)
        self.macros = dict(site.config_macros)
        for cell in self.notebook.cells:
            if cell.cell_type == "markdown":
                self.macros.update(front_matter_macros(cell.source))
        self.values = glued_values(self.notebook)
        self.numbering = Numbering(site.numbers.get(self.stem))

    # What directives.py asks of the chapter.
    def number(self, kind: str, label: str | None) -> str | None:
        """The next number of ``kind``; checked against the site's index when labelled."""
        text = self.numbering.next(kind)
        if label and self.site.targets[label].text != text:
            raise ValueError(f"{label}: numbered {text}, the index says otherwise")
        return text

    def solution_title(self, label: str) -> str:
        target = self.site.targets.get(label)
        if target is None:
            raise ValueError(f"a solution to an unknown exercise {label!r}")
        return f"Solution to {target.text}"

    def literalinclude(self, argument: str, options: dict[str, str]) -> str:
        """The code a ``literalinclude`` shows, read as Sphinx reads it, fenced."""
        from sphinx.directives.code import LiteralIncludeReader

        class _Config:
            source_encoding = "utf-8-sig"

        filename = (self.path.parent / argument).resolve()
        code, _ = LiteralIncludeReader(str(filename), dict(options), _Config()).read()
        language = options.get("language", "python")
        return f"```{language}\n{code.rstrip()}\n```"

    def markdown(self, text: str) -> str:
        """A piece of MyST Markdown as plain Markdown."""
        pieces = []
        for block in split_blocks(text):
            if block.kind == "text":
                lines = [
                    line
                    for line in block.text.split("\n")
                    if not TARGET_LINE.match(line) and not MYST_ONLY_LINE.match(line)
                ]
                pieces.append(self.inline("\n".join(lines)))
            elif block.kind == "code":
                pieces.append(f"{block.fence}{block.name}\n{block.text}\n{block.fence}")
            else:
                pieces.append(convert_directive(block, self))
        return "\n".join(pieces)

    def inline(self, text: str) -> str:
        """Roles, maths and links of a piece of prose."""
        return convert_inline(text, self.role, self.maths, self.link)

    def maths(self, formula: str) -> str:
        """A formula with the course's macros written out and its labels removed."""
        formula = re.sub(r"\\label\{[^}]*\}", "", formula)
        return expand_macros(formula, self.macros)

    def role(self, name: str, content: str) -> str:
        """The Markdown for one role."""
        if name == "glue:text":
            return escape_markdown(glue_text(self.values, content))
        if name in ("glue", "glue:"):
            return escape_markdown(glue_plain(self.values, content))
        if name == "glue:md":
            return glue_markdown(self.values, content)
        if name == "math":
            return self.maths(f"${content}$")
        if name in ("cite", "cite:p", "cite:t", "cite:ps", "cite:ts"):
            url = self.site.page_url("bibliography")
            return citation(content, self.site.citations, url, textual=name.startswith("cite:t"))
        if name in ("ref", "numref", "prf:ref", "eq"):
            text, label = explicit_text(content)
            target = self.site.targets.get(label)
            if target is None:
                raise ValueError(f"{self.stem}: {{{name}}} to an unknown label {label!r}")
            if text is None:
                text = target.text
                if name == "ref" and target.title:
                    text = f"{target.text} ({target.title})"
            else:
                number = target.text.split(" ", 1)[-1]
                text = text.replace("%s", number).replace("{number}", number)
            return f"[{self.inline(text)}]({self.site.page_url(target.page, target.anchor)})"
        if name == "doc":
            text, page = explicit_text(content)
            stem = Path(page).stem
            return f"[{text or self.site.titles.get(stem, stem)}]({self.site.page_url(stem)})"
        raise ValueError(f"{self.stem}: the Colab edition does not know the role {{{name}}}")

    def link(self, text: str, target: str) -> str:
        """A Markdown link, pointed at the site when it names a page or a label."""
        if re.match(r"^[a-z]+:", target):
            return f"[{text}]({target})"
        page, _, anchor = target.partition("#")
        if not page:
            known = self.site.targets.get(anchor)
            if known is not None:
                return f"[{text}]({self.site.page_url(known.page, known.anchor)})"
            return f"[{text}]({self.site.page_url(self.stem, anchor)})"
        if page.endswith((".md", ".ipynb")) and "/" not in page:
            return f"[{text}]({self.site.page_url(Path(page).stem, anchor)})"
        github = f"https://github.com/{self.site.repository}/blob/main/"
        relative = (self.path.parent / page).resolve().relative_to(self.site.root)
        return f"[{text}]({github}{relative.as_posix()}" + (f"#{anchor})" if anchor else ")")

    # The notebook.
    def edition(self) -> nbformat.NotebookNode:
        """The chapter's Colab edition."""
        install = install_source(self.site.repository, extra_requirements(self.notebook))
        cells = [self._new_cell("code", install, "install")]
        cells[0].metadata["tags"] = [INSTALL_TAG]
        cells.append(self._new_cell("code", GLUE_STANDIN.rstrip("\n"), "glue"))
        page = self.site.page_url(self.stem)
        cells.append(
            self._new_cell(
                "markdown",
                "*The Colab edition of this chapter (the course's site shows it as a "
                f"[web page]({page})). Run the first cell: it installs the course's library.*",
                "about",
            )
        )
        solution: list[str] | None = None  # the open solution's pieces
        solution_label = ""
        for cell in self.notebook.cells:
            tags = set(cell.metadata.get("tags", []))
            if tags & {"print-only", "web-only"}:
                # The site's and the PDF's own words ("on this page", "on paper").
                continue
            if cell.cell_type == "code":
                if solution is not None:
                    if "remove-input" in tags and glue_only(cell.source):
                        continue  # hidden on the site too; the text holds its numbers
                    solution.append(f"```python\n{cell.source.strip()}\n```")
                    output = saved_output(cell.get("outputs", []))
                    if output:
                        solution.append(output)
                else:
                    cells += self._code_cells(cell)
                continue
            if front_matter_macros(cell.source) or cell.cell_type != "markdown":
                continue
            if "remove-cell" in tags and COLAB_ONLY not in tags:
                continue  # (the edition's cells are new ones: no tag is carried over)
            position, part = 0, 0
            for marker in [*SOLUTION_MARKER.finditer(cell.source), None]:
                end = marker.start() if marker else len(cell.source)
                text = cell.source[position:end].strip("\n")
                if text.strip():
                    if solution is not None:
                        solution.append(self.markdown(text))
                    else:
                        part += 1
                        cells.append(self._new_cell("markdown", self.markdown(text), cell, part))
                if marker is None:
                    break
                if marker["label"]:
                    solution, solution_label = [], marker["label"]
                else:
                    if solution is None:
                        raise ValueError(f"{self.stem}: solution-end without a start")
                    title = f"<b>{self.solution_title(solution_label)}</b>"
                    body = "\n\n".join(solution)
                    part += 1
                    cells.append(self._new_cell("markdown", details(title, body), cell, part))
                    solution = None
                position = marker.end()
        if solution is not None:
            raise ValueError(f"{self.stem}: a solution is never closed")
        notebook = nbformat.v4.new_notebook(
            cells=cells, metadata=copy.deepcopy(self.notebook.metadata)
        )
        notebook.nbformat_minor = self.notebook.nbformat_minor
        return notebook

    def _code_cells(self, cell: nbformat.NotebookNode) -> list[nbformat.NotebookNode]:
        """A chapter's code cell as the edition shows it, and its figure's caption."""
        tags = set(cell.metadata.get("tags", []))
        new = copy.deepcopy(cell)
        new.source = GLUE_IMPORT.sub("", cell.source)
        figure = new.metadata.pop("mystnb", {}).get("figure")
        if "remove-output" in tags or "remove-cell" in tags:
            new.outputs = []
        else:
            new.outputs = [
                output
                for output in new.outputs
                if not is_glue_output(output) and WIDGET_VIEW not in output.get("data", {})
            ]
        result = [new]
        if figure and "remove-cell" not in tags:
            number = self.numbering.next("figure")
            if figure.get("name") and self.site.targets[figure["name"]].text != number:
                raise ValueError(f"{figure['name']}: numbered {number}, not as the index")
            if new.outputs:
                caption = self.inline(figure.get("caption", ""))
                result.append(self._new_cell("markdown", f"**{number}** {caption}", cell, "fig"))
        return result

    def _new_cell(self, kind: str, source: str, origin, part="") -> nbformat.NotebookNode:
        """A new cell with a stable id (the up-to-date test compares regenerated cells)."""
        cell = (nbformat.v4.new_code_cell if kind == "code" else nbformat.v4.new_markdown_cell)(
            source
        )
        base = origin if isinstance(origin, str) else origin.get("id", "cell")
        cell.id = f"{base}-{part}" if part != "" else f"colab-{base}"
        if kind == "code":
            cell.outputs, cell.execution_count = [], None
        return cell


def edition_notebook(chapter_path: Path, repository: str) -> nbformat.NotebookNode:
    """The Colab edition of one chapter.

    Parameters
    ----------
    chapter_path : Path
        ``book/<stem>.ipynb``, executed (its outputs hold the glued values).
    repository : str
        ``owner/name`` on GitHub, where the library is installed from and the
        site is published.
    """
    chapter_path = Path(chapter_path).resolve()
    return Chapter(chapter_path, _site(chapter_path.parents[1], repository)).edition()


_SITES: dict[tuple[Path, str], Site] = {}


def _site(root: Path, repository: str) -> Site:
    """The book's index, built once per (root, repository)."""
    if (root, repository) not in _SITES:
        _SITES[root, repository] = Site(root, repository)
    return _SITES[root, repository]


def default_repository(root: Path = ROOT) -> str:
    """``$REPOSITORY`` if set, else ``_config.yml``'s ``repository.url``."""
    value = os.environ.get("REPOSITORY", "").strip()
    return value or repository_from_config(load_toc_and_config(root)[1])


README = """\
# The Colab edition: generated by `make colab` from book/*.ipynb; do not edit by hand.

One notebook per chapter, for Google Colab: the chapter's Markdown written out as plain
Markdown (theorems, exercises and solutions as blocks, numbers pasted in, maths macros
expanded, references linked to the course's site), its executed outputs, and a first cell
that installs the course's library. Edit the chapter in book/, then run `make colab`
(scripts/colab/edition.py) and commit both; tests/test_colab_edition.py checks they agree.
"""


def write_edition(out_dir: Path, repository: str) -> list[Path]:
    """Write ``out_dir/<stem>.ipynb`` for every chapter, and its README; return the
    notebooks' paths."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "README.md").write_text(README, encoding="utf-8")
    site = _site(ROOT, repository)
    written = []
    for chapter in site.chapters():
        path = out_dir / chapter.name
        nbformat.write(Chapter(chapter, site).edition(), path)
        written.append(path)
    return written


if __name__ == "__main__":
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "colab"
    for written_path in write_edition(out, default_repository()):
        print(written_path)
