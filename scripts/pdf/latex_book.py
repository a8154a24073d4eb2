"""Sphinx extension: the printed book (``make pdf``) shows what the web page shows.

Two things the LaTeX builder does not do by itself:

- **The course's macros.** ``\\vw``, ``\\norm{.}`` and the others are defined once,
  for MathJax, in ``_config.yml`` (``mathjax3_config.tex.macros``). This
  extension writes the same definitions into the LaTeX preamble, so the two
  cannot drift apart.
- **Animations.** An animation is an HTML player (``HTML(animation_html(...))``)
  with its frames embedded as PNG images; LaTeX cannot show HTML and would
  print its text fallback, ``<IPython.core.display.HTML object>``. For the
  LaTeX builder only, each such output gets one frame as an ``image/png``
  alternative, which myst-nb then prefers to the text: the last (where the
  animation ends), or the one the cell's metadata names, ``"print_frame": N``,
  where another frame shows more. The web page is unchanged.
- **Web-only and print-only cells.** A cell tagged ``web-only`` (a sentence
  about a widget or an animation the page plays) is left out of the printed
  book; a cell tagged ``print-only`` (its counterpart: "Fig. 1.4 shows frames
  of ...") is left out of the web pages. Both are dropped as myst-nb drops a
  ``remove-cell``; a notebook opened in Jupyter shows both (the tags are
  invisible there). Pages read for one kind of output are read again for the
  other, since the site and the PDF share Sphinx's environment.
- **Proof boxes.** sphinx-proof gives a proof no title (it writes "Proof."
  into its first paragraph), so LaTeX printed an empty title bar over it: the
  proof gets the title "Proof" instead. No box (theorem, proof, exercise)
  starts at the foot of a page: it needs room for a few lines, or starts on
  the next one.
- **Chapter numbers.** The root page's sections (the introduction) would
  become chapters 1, 2, ... and push "The neuron model" to chapter 5, while
  the site, the figures and the exercises call it chapter 1. The introduction
  and the unnumbered pages (the reference part) print as unnumbered chapters,
  and numbering starts at the first page of a numbered part.
"""

from __future__ import annotations

import base64
import copy
import hashlib
import re
from pathlib import Path

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.config import Config
from sphinx.transforms import SphinxTransform
from sphinx.transforms.post_transforms import SphinxPostTransform

FRAME = re.compile(r"data:image/png;base64,([A-Za-z0-9+/=\\\s]+)")
SHOWN_WIDTH = re.compile(r'<img id="_anim_img[0-9a-f]*" width="(\d+)"')


def latex_macros(macros: dict) -> str:
    r"""LaTeX definitions of MathJax macros: ``{"vw": ["\\mathbf{w}"]}`` -> ``\vw``.

    ``\providecommand`` then ``\renewcommand``: defines the macro whether or
    not a LaTeX package already has a command of that name.

    >>> print(latex_macros({"vw": ["\\mathbf{w}"], "norm": ["\\lVert #1 \\rVert", 1]}))
    \providecommand{\vw}{}\renewcommand{\vw}{\mathbf{w}}
    \providecommand{\norm}{}\renewcommand{\norm}[1]{\lVert #1 \rVert}
    """
    lines = []
    for name, definition in macros.items():
        body, arguments = (
            (definition, 0)
            if isinstance(definition, str)
            else (definition[0], definition[1] if len(definition) > 1 else 0)
        )
        count = f"[{arguments}]" if arguments else ""
        lines.append(
            f"\\providecommand{{\\{name}}}{{}}\\renewcommand{{\\{name}}}{count}{{{body}}}"
        )
    return "\n".join(lines)


# Symbols the chapters write as Unicode in prose, captions and printed output
# (pdflatex's utf8 input knows Latin letters, not Greek or these symbols).
UNICODE_SYMBOLS = {
    "α": r"\alpha",
    "β": r"\beta",
    "γ": r"\gamma",
    "δ": r"\delta",
    "ζ": r"\zeta",
    "η": r"\eta",
    "θ": r"\theta",
    "λ": r"\lambda",
    "μ": r"\mu",
    "π": r"\pi",
    "ρ": r"\rho",
    "σ": r"\sigma",
    "τ": r"\tau",
    "φ": r"\phi",
    "ω": r"\omega",
    "Δ": r"\Delta",
    "√": r"\surd",
    "≤": r"\le",
    "≥": r"\ge",
    "≠": r"\ne",
    "≈": r"\approx",
    "→": r"\to",
    "∧": r"\wedge",
    "⊕": r"\oplus",
    "∞": r"\infty",
    "∑": r"\sum",
    "⋅": r"\cdot",
    "−": "-",
    "𝒟": r"\mathcal{D}",
}


def unicode_declarations(symbols: dict[str, str] = UNICODE_SYMBOLS) -> str:
    r"""``\DeclareUnicodeCharacter`` lines that typeset each symbol in math mode.

    >>> print(unicode_declarations({"γ": r"\gamma"}))
    \DeclareUnicodeCharacter{03B3}{\ensuremath{\gamma}}
    """
    return "\n".join(
        f"\\DeclareUnicodeCharacter{{{ord(char):04X}}}{{\\ensuremath{{{latex}}}}}"
        for char, latex in symbols.items()
    )


BOX_NEEDS_ROOM = r"\AddToHook{env/sphinxadmonition/before}{\needspace{12\baselineskip}}"


def add_macros_to_preamble(app: Sphinx, config: Config) -> None:
    macros = (config.mathjax3_config or {}).get("tex", {}).get("macros", {})
    elements = dict(config.latex_elements or {})
    elements["preamble"] = (
        elements.get("preamble", "")
        + "\n% The course's macros, from mathjax3_config\n"
        + latex_macros(macros)
        + "\n% Unicode symbols in the text\n"
        + unicode_declarations()
        + "\n% A box (theorem, proof, exercise) never starts at the foot of a page\n"
        + BOX_NEEDS_ROOM
        + "\n"
    )
    config.latex_elements = elements


def animation_frame(html: str, index: int = -1) -> bytes | None:
    """A PNG frame embedded in an animation's HTML (the last by default), or ``None``.

    An index outside the frames gives the last frame.
    """
    frames = FRAME.findall(html)
    if not frames:
        return None
    chosen = frames[index] if -len(frames) <= index < len(frames) else frames[-1]
    return base64.b64decode(re.sub(r"[\\\s]", "", chosen))


def frame_scale(html: str, frame: bytes) -> dict[str, int]:
    """``{"scale": percent}`` printing a frame at the size the page shows it, or ``{}``.

    ``perceptron_lib.figures.animation`` draws frames at twice the size their ``<img>``
    shows them (sharp on a 2x screen); printed at their pixel size they would
    be twice as large as the figures around them.

    Examples
    --------
    >>> import struct
    >>> png = b"\\x89PNG\\r\\n\\x1a\\n" + b"\\0" * 8 + struct.pack(">II", 720, 720)
    >>> frame_scale('<img id="_anim_img1f" width="360" height="360">', png)
    {'scale': 50}
    >>> frame_scale('<img id="_anim_img1f">', png)
    {}
    """
    shown = SHOWN_WIDTH.search(html)
    if shown is None or len(frame) < 24:
        return {}
    pixels = int.from_bytes(frame[16:20], "big")
    width = int(shown.group(1))
    return {"scale": round(100 * width / pixels)} if 0 < width < pixels else {}


def last_frame(html: str) -> bytes | None:
    """The last PNG frame embedded in an animation's HTML, or ``None``."""
    return animation_frame(html)


def _print_frame(bundle: nodes.Node) -> int:
    """The frame the cell's metadata asks to print (``"print_frame": N``), else -1."""
    cell = bundle.parent
    while cell is not None and cell.get("nb_element") != "cell_code":
        cell = cell.parent
    metadata = cell.get("cell_metadata") if cell is not None else None
    index = (metadata or {}).get("print_frame", -1)
    return index if isinstance(index, int) else -1


class AnimationStills(SphinxTransform):
    """Give every HTML animation output a still frame, for the LaTeX builder."""

    default_priority = 500

    def apply(self, **kwargs) -> None:
        if self.app.builder.name != "latex":
            return
        folder = Path(self.app.outdir) / "animation_stills"
        for bundle in list(self.document.findall(nodes.container)):
            if bundle.get("nb_element") != "mime_bundle":
                continue
            types = {child.get("mime_type"): child for child in bundle.children}
            if "text/html" not in types or {"image/png", "image/svg+xml"} & set(types):
                continue
            frame = animation_frame(types["text/html"].astext(), _print_frame(bundle))
            if frame is None:
                continue
            folder.mkdir(parents=True, exist_ok=True)
            path = folder / f"{hashlib.sha256(frame).hexdigest()[:16]}.png"
            path.write_bytes(frame)
            still = nodes.container(mime_type="image/png")
            uri = "/" + path.resolve().relative_to(Path(self.app.srcdir).resolve()).as_posix()
            still += nodes.image(
                uri=uri,
                alt="A frame of the animation.",
                **frame_scale(types["text/html"].astext(), frame),
            )
            bundle.insert(0, still)


WEB_ONLY, PRINT_ONLY = "web-only", "print-only"
_OUTPUT = {"kind": "web"}  # what the running build makes: "web" or "print"


def output_kind(builder_name: str) -> str:
    """``"print"`` for the LaTeX builder (the PDF), else ``"web"``."""
    return "print" if builder_name == "latex" else "web"


def cells_for(notebook, kind: str):
    """A copy of the notebook with the cells meant for the other output tagged ``remove-cell``.

    Only the cells' list and the tagged cells' metadata are copied: the notebook
    given is not changed.

    >>> import nbformat
    >>> nb = nbformat.v4.new_notebook()
    >>> nb.cells = [nbformat.v4.new_markdown_cell(t) for t in ("a", "b", "c")]
    >>> nb.cells[0].metadata["tags"] = ["web-only"]
    >>> nb.cells[1].metadata["tags"] = ["print-only"]
    >>> [c.metadata.get("tags") for c in cells_for(nb, "print").cells]
    [['web-only', 'remove-cell'], ['print-only'], None]
    >>> [c.metadata.get("tags") for c in cells_for(nb, "web").cells]
    [['web-only'], ['print-only', 'remove-cell'], None]
    """
    other = PRINT_ONLY if kind == "web" else WEB_ONLY
    result = copy.copy(notebook)
    result.cells = []
    for cell in notebook.cells:
        tags = cell.metadata.get("tags", [])
        if other in tags and "remove-cell" not in tags:
            cell = copy.copy(cell)
            cell.metadata = copy.copy(cell.metadata)
            cell.metadata["tags"] = [*tags, "remove-cell"]
        result.cells.append(cell)
    return result


def _install_cell_filter() -> None:
    """Let myst-nb drop the cells of the other output (see :func:`cells_for`)."""
    import myst_nb.sphinx_ as myst_nb_sphinx

    original = myst_nb_sphinx.notebook_to_tokens
    if getattr(original, "course_cell_filter", False):
        return

    def notebook_to_tokens(notebook, *args, **kwargs):
        return original(cells_for(notebook, _OUTPUT["kind"]), *args, **kwargs)

    notebook_to_tokens.course_cell_filter = True
    myst_nb_sphinx.notebook_to_tokens = notebook_to_tokens


def _builder_inited(app: Sphinx) -> None:
    _OUTPUT["kind"] = output_kind(app.builder.name)


def _outdated_for_this_output(app: Sphinx, env, added, changed, removed) -> list[str]:
    """Every page, when the environment was last read for the other output."""
    kind = output_kind(app.builder.name)
    if getattr(env, "course_output_kind", kind) != kind:
        return sorted(env.found_docs - added - changed - removed)
    return []


def _remember_output(app: Sphinx, env, docnames) -> None:
    env.course_output_kind = output_kind(app.builder.name)


class ProofTitles(SphinxPostTransform):
    """Give each proof box the title "Proof" (see the module's docstring)."""

    builders = ("latex",)
    default_priority = 400

    def run(self, **kwargs) -> None:
        for box in list(self.document.findall(nodes.admonition)):
            if "proof" not in box["classes"] or (box.children and isinstance(box[0], nodes.title)):
                continue
            kind = next((c for c in box["classes"] if c != "proof"), "proof").title()
            box.insert(0, nodes.title("", kind))
            # sphinx-proof's "Proof. " at the start of the first paragraph: now the title.
            paragraph = next(iter(box.findall(nodes.paragraph)), None)
            text = next(iter(paragraph.findall(nodes.Text)), None) if paragraph else None
            if text is not None and str(text).startswith(f"{kind}. "):
                text.parent.replace(text, nodes.Text(str(text)[len(kind) + 2 :]))


def _latex(text: str) -> nodes.raw:
    return nodes.raw("", text, format="latex")


class ChapterNumbers(SphinxPostTransform):
    """Number the printed chapters as the site does (see the module's docstring)."""

    builders = ("latex",)
    default_priority = 900

    def run(self, **kwargs) -> None:
        files = list(self.document.findall(addnodes.start_of_file))
        if not files:  # not the assembled book, one page
            return
        # The root page comes first, outside any start_of_file: unnumbered.
        self.document.insert(
            0,
            _latex(
                "\\edef\\coursesecnumdepth{\\the\\value{secnumdepth}}"
                "\\setcounter{secnumdepth}{-1}\n"
            ),
        )
        numbering, started = False, False
        for start in files:
            numbered = bool(self.env.toc_secnumbers.get(start["docname"]))
            if numbered and not numbering:
                reset = "" if started else "\\setcounter{chapter}{0}"
                start.insert(
                    0, _latex(f"\\setcounter{{secnumdepth}}{{\\coursesecnumdepth}}{reset}\n")
                )
                started = True
            elif numbering and not numbered:
                start.insert(0, _latex("\\setcounter{secnumdepth}{-1}\n"))
            numbering = numbered


def setup(app: Sphinx) -> dict:
    app.connect("config-inited", add_macros_to_preamble)
    _install_cell_filter()
    app.connect("builder-inited", _builder_inited)
    app.connect("env-get-outdated", _outdated_for_this_output)
    app.connect("env-before-read-docs", _remember_output)
    app.add_transform(AnimationStills)
    app.add_post_transform(ChapterNumbers)
    app.add_post_transform(ProofTitles)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
