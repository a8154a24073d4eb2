"""A small Sphinx extension that makes the built book work without internet.

Jupyter Book's defaults fetch things from CDNs that a reader without
internet (a classroom, a downloaded copy of the site, the site test) does not
get, and one default breaks a script on every page. (MathJax is not one of
them: the formulas are rendered when the book is built, and no page loads
MathJax, ``scripts/prerender_math.py``.)

- **Font Awesome 4** for the buttons of matplotlib's ``to_jshtml()``
  animations: each animation links a stylesheet on a CDN. The book's theme
  already bundles Font Awesome 6, which draws the same buttons, so the link
  is dropped from the page.
- **The ipywidgets JavaScript** (require.js and the widget manager): no widget
  reaches the web page (its output is removed and a static counterpart is
  shown), so ``_config.yml`` sets ``nb_ipywidgets_js`` to nothing.
- **A repeated inline script.** sphinx-thebe registers its configuration
  script in a way that Sphinx 7 writes twice, and the second copy raises
  "Identifier 'THEBE_JS_URL' has already been declared" on every page. Each
  inline script is kept once.

It also keeps pages light (issue 13: a phone on a slow line):

- **No icon script.** The theme's head loads ``fontawesome.js`` (1.5 MB, 0.5 MB
  compressed), a render-blocking script that turns every icon into an SVG,
  although its stylesheet already draws the same icons from Font Awesome's
  web fonts. The script is removed from every written page and from the
  site; the fonts draw the icons.
- **No widget state.** A notebook executed by the build may carry the saved
  state of its widgets (tens of kB of JSON per chapter); no widget reaches
  the page, so the state is not written into it.

The Thebe bundle itself still comes from a CDN, but only when a reader presses
"Live code", which needs the internet anyway (it starts a kernel on Binder).

Enable it in ``_config.yml``::

    sphinx:
      local_extensions:
        offline_site: scripts/site
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx

# matplotlib's jshtml template starts with this <link> (Font Awesome 4.4 on a CDN).
CDN_FONT_AWESOME = re.compile(
    r'<link\s+rel="stylesheet"\s+href="https?://[^"]*font-awesome[^"]*"\s*/?>'
)
# pydata-sphinx-theme's layout writes this tag itself (not through Sphinx's
# script_files), so it is taken out of the written pages.
ICON_SCRIPT_NAME = "scripts/fontawesome.js"
ICON_SCRIPT = re.compile(
    r'[ \t]*<script src="[^"]*_static/scripts/fontawesome\.js[^"]*"></script>\n?'
)
WIDGET_STATE_TYPE = "application/vnd.jupyter.widget-state+json"


def keep_page_offline(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    """Drop the CDN Font Awesome link and repeated inline scripts from one page."""
    if "body" in context:
        context["body"] = CDN_FONT_AWESOME.sub("", context["body"])
    if "script_files" in context:
        seen: set[tuple[str, str]] = set()
        unique = []
        for script in context["script_files"]:
            attributes = getattr(script, "attributes", {})
            if attributes.get("type") == WIDGET_STATE_TYPE:
                continue  # no widget reaches the page
            # The two copies differ only in their empty file name (None and "").
            filename = getattr(script, "filename", script) or ""
            key = (str(filename), str(getattr(script, "attributes", {}).get("body", "")))
            if key not in seen:
                seen.add(key)
                unique.append(script)
        context["script_files"] = unique


def drop_icon_script(app: Sphinx, exception: Exception | None) -> None:
    """Remove the Font Awesome script from the written pages and the site."""
    if exception is not None or app.builder.format != "html":
        return
    out = Path(app.outdir)
    for page in out.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        lighter = ICON_SCRIPT.sub("", text)
        if lighter != text:
            page.write_text(lighter, encoding="utf-8")
    for leftover in (out / "_static").glob(f"{ICON_SCRIPT_NAME}*"):
        leftover.unlink()


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the extension's hooks."""
    # Late priority: run after the extensions that add scripts to the page.
    app.connect("html-page-context", keep_page_offline, priority=900)
    app.connect("build-finished", drop_icon_script)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
