"""A Sphinx extension: every formula is rendered when the book is built.

In the browser, MathJax (264 kB of script, then its fonts) typeset the pages
after everything else had arrived, so a phone on a slow line showed raw TeX
such as ``\\(\\gamma\\)`` for 12-16 s (issue 24). Here MathJax 3 runs once, in
Node, over the written pages (``scripts/site/prerender_math.mjs``): each formula
becomes an SVG drawing with the MathML that screen readers read, and the
pages load no MathJax script. Nothing on the site needs MathJax in the
browser: widgets never reach the web page, and "Live code" (Thebe) brings
its own renderer for the outputs of a running kernel.

The macros are those of ``_config.yml`` (``mathjax3_config.tex.macros``), read
from Sphinx's configuration, so ``_config.yml`` stays their one source; the
LaTeX build reads them from the same place (``scripts/pdf/latex_book.py``).

Node and the npm package ``mathjax-full`` (pinned in ``package.json`` and
``package-lock.json``) are installed by ``make node``; a build without them
fails and says so, rather than publish pages of raw TeX.

Enable it in ``_config.yml``::

    sphinx:
      local_extensions:
        prerender_math: scripts/site
"""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx
from sphinx.errors import ExtensionError
from sphinx.util import logging

logger = logging.getLogger(__name__)

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = Path(__file__).with_suffix(".mjs")
MATHJAX_PACKAGE = ROOT / "node_modules" / "mathjax-full" / "package.json"
INSTALL_HINT = "`make node` installs Node and the npm packages of package-lock.json"


def course_macros(app: Sphinx) -> dict[str, Any]:
    """The TeX macros of ``_config.yml`` (``mathjax3_config.tex.macros``)."""
    config = app.config.mathjax3_config or {}
    return dict(config.get("tex", {}).get("macros", {}))


def drop_mathjax_scripts(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    """Keep MathJax's loader and configuration script out of the page."""
    if "script_files" not in context:
        return
    kept = []
    for script in context["script_files"]:
        filename = str(getattr(script, "filename", script) or "")
        body = str(getattr(script, "attributes", {}).get("body", ""))
        if "mathjax" in filename.lower() or body.lstrip().startswith("window.MathJax"):
            continue
        kept.append(script)
    context["script_files"] = kept


def render_formulas(app: Sphinx, exception: Exception | None) -> None:
    """Run MathJax in Node over every written page of the HTML site."""
    if exception is not None or app.builder.format != "html":
        return
    node = shutil.which("node")
    if node is None or not MATHJAX_PACKAGE.is_file():
        raise ExtensionError(
            f"prerender_math: Node or the npm package mathjax-full is missing, so the "
            f"formulas cannot be rendered ({INSTALL_HINT})."
        )
    pages = sorted(str(page) for page in Path(app.outdir).rglob("*.html"))
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as macros:
        json.dump(course_macros(app), macros)
    try:
        result = subprocess.run(
            [node, str(SCRIPT), macros.name, *pages],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=False,
        )
    finally:
        Path(macros.name).unlink()
    if result.returncode != 0:
        raise ExtensionError(f"prerender_math: MathJax failed:\n{result.stderr.strip()}")
    logger.info(result.stdout.strip())


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the hooks (after the extensions that add scripts to the page)."""
    app.connect("html-page-context", drop_mathjax_scripts, priority=990)
    app.connect("build-finished", render_formulas)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
