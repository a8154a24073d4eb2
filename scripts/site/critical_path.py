"""A Sphinx extension: a page's first screen waits for as little as possible.

On a slow line (issue 24: 400 ms round trip, 50 kB/s) the theme's page head
held the first paint back for 5-6 s: twelve stylesheets, one of them
``@import``-ing a thirteenth, each a request and a round trip before the text
could be drawn; nine scripts that the parser stopped for; two scripts
preloaded at the highest priority that nothing needs before the page is
drawn; and every figure of the page fetched at once, taking the line's
bandwidth from the stylesheets. Once the site is written, this extension
rewrites every page's head:

- **One stylesheet to wait for.** The page's own stylesheets (those of
  ``_static/``) are joined, in their order and with ``@import`` resolved, their
  relative ``url()``\\ s rewritten for their new place. Then the rules are
  split in two (:func:`split_rules`). The first file holds every rule that
  can match something on the site; it is linked where the first stylesheet
  was, and the page waits for it (35 kB compressed instead of 106 kB in 13
  requests). The second holds the rules whose selectors name a class found
  neither in any written page nor in any of the site's scripts (Bootstrap's
  carousels, toasts, form validation..., 2/3 of the theme's stylesheet); it
  is linked once the page is parsed (``DOMContentLoaded``; a ``<noscript>``
  link without JavaScript), so that the page does not wait for it and it
  takes no bandwidth from the first, and a rule a script needs later, under a
  class name it builds from parts, still arrives. Both files are named by
  their content (``_static/site.<hash>.css``).
- **Scripts after the text.** Every script the head loads from the site gets
  ``defer``: it runs, in the same order, once the page is parsed, and before
  ``DOMContentLoaded``, where the theme and the extensions start their work.
  ``documentation_options.js``, which the page's inline scripts use at once
  (``DOCUMENTATION_OPTIONS.pagename = ...``), is written into the page
  instead (300 bytes, no request).
- **No script preloads.** The theme's ``<link rel="preload" as="script">``
  for ``bootstrap.js`` and ``pydata-sphinx-theme.js`` is dropped: the two
  scripts are still loaded (``defer``, at the end of the body), but no longer
  at the stylesheet's priority.
- **Figures when they are near.** Each ``<img>`` of the page gets
  ``loading="lazy"``: the browser asks for it once the page is laid out and
  the figure near the screen, not while the stylesheet is still arriving.
  The figures have their width and height (``light_images``), so nothing
  moves when one arrives.

Enable it in ``_config.yml``, after ``icon_font`` (whose stylesheet it joins)::

    sphinx:
      local_extensions:
        critical_path: scripts/site
"""

from __future__ import annotations

import hashlib
import posixpath
import re
from pathlib import Path
from typing import Any

import tinycss2  # a dependency of nbconvert (through bleach), pinned in requirements.txt
from sphinx.application import Sphinx
from sphinx.util import logging

logger = logging.getLogger(__name__)

STATIC = "_static"
BUNDLE = "site.{digest}.css"
BUNDLE_FILES = "site.*.css"
OPTIONS_SCRIPT = "documentation_options.js"

HEAD = re.compile(r"<head>.*?</head>", re.DOTALL)
LINK = re.compile(r"[ \t]*<link\b[^>]*>\n?")
SCRIPT_TAG = re.compile(r"<script\b([^>]*)>\s*</script>")
IMG = re.compile(r"<img\b(?![^>]*\bloading=)")
ATTRIBUTE = re.compile(r'\s([a-zA-Z-]+)(?:="([^"]*)")?')
IMPORT = re.compile(r'@import\s+(?:url\()?["\']?([^"\')]+)["\']?\)?\s*;')
URL = re.compile(r'url\(\s*(["\']?)([^"\')]+)\1\s*\)')
CLASS_ATTRIBUTE = re.compile(r'\bclass="([^"]*)"')
WORD = re.compile(r"[A-Za-z0-9_-]+")
SELECTOR_CLASS = re.compile(r"\.(-?[_a-zA-Z][\w-]*)")
GROUP = re.compile(r"\([^()]*\)|\[[^\[\]]*\]")  # :is(...), :not(...), [attribute...]
NESTING_RULES = {"media", "supports", "layer", "container", "document"}
# The rules the first screen does not need: asked for once the page is
# parsed (a stylesheet fetched earlier, even one that does not block, takes
# the line's bandwidth from the one that does), or at once without JavaScript.
LATER = (
    '    <script>addEventListener("DOMContentLoaded", () => document.head.insertAdjacentHTML(\n'
    '      "beforeend", \'<link rel="stylesheet" href="{href}" data-later="" />\'));</script>\n'
    '    <noscript><link rel="stylesheet" href="{href}" /></noscript>\n'
)
# The same lines in a page written by an earlier build (make book rewrites
# only the pages whose source changed; the others are joined again, from the
# stylesheets their first link names in data-joins, so none keeps a stale copy).
EARLIER_LATER = re.compile(
    r'[ \t]*<script>addEventListener\("DOMContentLoaded", \(\) => document\.head\.'
    r"insertAdjacentHTML\(\n.*?</noscript>\n",
    re.DOTALL,
)


def attributes(tag: str) -> dict[str, str]:
    """The attributes of one tag (``""`` for those without a value).

    >>> attributes('<link rel="stylesheet" href="a.css" />')
    {'rel': 'stylesheet', 'href': 'a.css'}
    >>> attributes('<script defer src="a.js">')
    {'defer': '', 'src': 'a.js'}
    """
    return dict(ATTRIBUTE.findall(tag))


def site_file(href: str, page: Path, folder: Path) -> Path | None:
    """The file that ``href`` (relative to ``page``) names, if it is one in ``folder``."""
    if re.match(r"[a-z]+:|/", href):
        return None  # another site, or an absolute path
    target = (page.parent / href.split("?")[0].split("#")[0]).resolve()
    return target if target.is_file() and folder.resolve() in target.parents else None


def inline_css(sheet: Path, target_dir: Path, seen: frozenset[Path] = frozenset()) -> str:
    """``sheet``'s text, its ``@import``\\ s inlined, its URLs relative to ``target_dir``.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> (folder / "styles").mkdir()
    >>> _ = (folder / "basic.css").write_text("a{background:url(file.png)}")
    >>> _ = (folder / "styles" / "t.css").write_text('@import "../basic.css";b{x:url(f.woff)}')
    >>> inline_css(folder / "styles" / "t.css", folder)
    'a{background:url("file.png")}b{x:url("styles/f.woff")}'
    """
    if sheet in seen:
        raise ValueError(f"critical_path: {sheet.name} imports itself")
    text = sheet.read_text(encoding="utf-8")

    imports: list[str] = []

    def imported(match: re.Match) -> str:
        # Held aside until this sheet's own URLs are moved: the imported
        # sheet's are already relative to target_dir.
        imports.append(
            inline_css((sheet.parent / match.group(1)).resolve(), target_dir, seen | {sheet})
        )
        return f"\x00{len(imports) - 1}\x00"

    def relocated(match: re.Match) -> str:
        url = match.group(2).strip()
        if re.match(r"[a-z]+:|/|#", url):
            return match.group(0)  # data:, another site, an absolute path, an SVG anchor
        moved = posixpath.relpath(
            posixpath.normpath((sheet.parent / url).as_posix()), target_dir.as_posix()
        )
        return f'url("{moved}")'

    text = re.sub(r'^@charset\s+"[^"]*";\s*', "", text)  # one @charset at most, and UTF-8
    text = IMPORT.sub(imported, text)
    parts = re.split(r"(/\*.*?\*/)", text, flags=re.DOTALL)  # comments are left as they are
    text = "".join(part if part.startswith("/*") else URL.sub(relocated, part) for part in parts)
    return re.sub("\x00([0-9]+)\x00", lambda match: imports[int(match.group(1))], text)


def site_names(outdir: Path) -> set[str]:
    """Every class of the written pages, and every word of the site's scripts.

    A class that is not in this set is on no element of the site, and none of
    its scripts adds it (unless it builds the name from parts).
    """
    names: set[str] = set()
    for page in outdir.rglob("*.html"):
        for value in CLASS_ATTRIBUTE.findall(page.read_text(encoding="utf-8")):
            names |= set(value.split())
    for script in outdir.rglob("*.js"):
        names |= set(WORD.findall(script.read_text(encoding="utf-8", errors="replace")))
    return names


def selector_can_match(selector: str, names: set[str]) -> bool:
    """False if ``selector`` needs a class that is not in ``names``.

    What is in parentheses or brackets is not looked at (``:is(.a, .b)``
    needs only one of its classes; ``[href$=".pdf"]`` is no class).

    >>> selector_can_match(".bd-header .navbar-nav > li", {"bd-header", "navbar-nav"})
    True
    >>> selector_can_match(".carousel-item.active", {"active"})
    False
    >>> selector_can_match("html:not(.dark) p", set())
    True
    """
    while True:
        simpler = GROUP.sub("", selector)
        if simpler == selector:
            break
        selector = simpler
    return all(name in names for name in SELECTOR_CLASS.findall(selector))


def split_rules(css: str, names: set[str]) -> tuple[str, str]:
    """``css`` as two stylesheets: the rules that can match, and the others.

    A style rule goes to the second when none of its selectors can match
    (:func:`selector_can_match`); ``@media`` and the like are split inside;
    every other at-rule (``@font-face``, ``@keyframes``...) stays in the first.

    >>> split_rules("a{color:red}.toast,.carousel{x:1}@media (x){.toast{y:2}b{z:3}}", {"a"})
    ('a{color:red}@media (x){b{z:3}}', '.toast,.carousel{x:1}@media (x){.toast{y:2}}')
    """

    def split(rules: list) -> tuple[str, str]:
        first, later = [], []
        for rule in rules:
            if rule.type == "qualified-rule":
                selectors = tinycss2.serialize(rule.prelude).split(",")
                can_match = any(selector_can_match(s, names) for s in selectors)
                (first if can_match else later).append(tinycss2.serialize([rule]))
            elif (
                rule.type == "at-rule" and rule.lower_at_keyword in NESTING_RULES and rule.content
            ):
                inner = tinycss2.parse_rule_list(rule.content, True, True)
                head = f"@{rule.at_keyword}{tinycss2.serialize(rule.prelude)}"
                for part, kept in zip(split(inner), (first, later), strict=True):
                    if part:
                        kept.append(f"{head}{{{part}}}")
            elif rule.type not in ("whitespace", "comment"):
                first.append(tinycss2.serialize([rule]))
        return "".join(first), "".join(later)

    return split(tinycss2.parse_stylesheet(css, skip_comments=True, skip_whitespace=True))


def write_bundle(static: Path, css: str) -> str:
    """Write ``css`` into ``static`` under a name made from its content; return the name."""
    css = '@charset "UTF-8";\n' + css
    name = BUNDLE.format(digest=hashlib.sha256(css.encode()).hexdigest()[:16])
    (static / name).write_text(css, encoding="utf-8")
    return name


def rewrite_head(
    head: str, page: Path, outdir: Path, names: set[str], bundles: dict[tuple, tuple[str, str]]
) -> str:
    """One page's head with one stylesheet, deferred scripts and no script preloads."""
    sheets: list[Path] = []
    first = None

    def link(match: re.Match) -> str:
        nonlocal first
        found = attributes(match.group(0))
        if found.get("rel") == "preload" and found.get("as") == "script":
            return ""
        if found.get("rel") != "stylesheet" or found.get("media", "all") != "all":
            return match.group(0)
        if "data-joins" in found:  # written by an earlier build: the files it joined
            sheets.extend(outdir / STATIC / name for name in found["data-joins"].split())
        else:
            sheet = site_file(found.get("href", ""), page, outdir / STATIC)
            if sheet is None:
                return match.group(0)  # another site's
            sheets.append(sheet)
        if first is None:
            first = match.start()
            return "\x00"  # where the joined stylesheet goes
        return ""

    head = LINK.sub(link, EARLIER_LATER.sub("", head))
    if sheets:
        key = tuple(sheets)
        if key not in bundles:
            static = outdir / STATIC
            joined = "\n".join(inline_css(sheet, static) for sheet in sheets)
            bundles[key] = tuple(write_bundle(static, css) for css in split_rules(joined, names))
        folder = page.parent.relative_to(outdir).as_posix()
        first_href, later_href = (
            posixpath.relpath(f"{STATIC}/{name}", folder) for name in bundles[key]
        )
        joins = " ".join(sheet.relative_to(outdir / STATIC).as_posix() for sheet in sheets)
        links = f'    <link rel="stylesheet" href="{first_href}" data-joins="{joins}" />\n'
        head = head.replace("\x00", links + LATER.format(href=later_href), 1)

    def script(match: re.Match) -> str:
        found = attributes(match.group(0))
        # Any of the site's scripts: the search page's searchindex.js is at the top.
        source = site_file(found.get("src", ""), page, outdir)
        if source is None or {"defer", "async"} & set(found) or "type" in found:
            return match.group(0)
        if source.name == OPTIONS_SCRIPT:
            return f"<script>{source.read_text(encoding='utf-8').strip()}</script>"
        return f"<script defer{match.group(1)}></script>"

    return SCRIPT_TAG.sub(script, head)


def shorten_critical_path(app: Sphinx, exception: Exception | None) -> None:
    """Rewrite every written page's head, and let its figures load lazily."""
    if exception is not None or app.builder.format != "html":
        return
    outdir = Path(app.outdir).resolve()
    bundles: dict[tuple, tuple[str, str]] = {}
    names = site_names(outdir)
    for page in sorted(outdir.rglob("*.html")):
        text = page.read_text(encoding="utf-8")
        head = HEAD.search(text)
        if head is None:
            continue  # an animation's fragment (lazy_animations) has no head
        rewritten = rewrite_head(head.group(0), page, outdir, names, bundles)
        body = IMG.sub('<img loading="lazy"', text[head.end() :])
        changed = text[: head.start()] + rewritten + body
        if changed != text:
            page.write_text(changed, encoding="utf-8")
    written = {name for pair in bundles.values() for name in pair}
    for stale in (outdir / STATIC).glob(BUNDLE_FILES):
        if stale.name not in written:
            stale.unlink()  # joined by an earlier build, linked by no page now
    for first, later in bundles.values():
        sizes = [(outdir / STATIC / name).stat().st_size / 1e3 for name in (first, later)]
        logger.info(
            f"critical_path: stylesheets joined, {sizes[0]:.0f} kB waited for, "
            f"{sizes[1]:.0f} kB loaded later"
        )


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the hook."""
    # Late: after every other hook has written the site's files, among them
    # pydata-sphinx-theme's, which rewrites pygments.css (light and dark) then.
    app.connect("build-finished", shorten_critical_path, priority=900)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
