"""The build step that shortens a page's critical path (scripts/site/critical_path.py),
on a small written site: no Sphinx build, no browser (tests/test_site.py checks
the real site in Chromium)."""

from __future__ import annotations

import doctest
import re
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts" / "site"))
import critical_path  # noqa: E402
import icon_font  # noqa: E402

PAGE = """<!DOCTYPE html>
<html><head>
  <meta charset="utf-8" />
  <link href="{up}_static/styles/theme.css" rel="stylesheet" />
  <link rel="stylesheet" type="text/css" href="{up}_static/extra.css?v=1" />
  <link rel="stylesheet" href="https://example.org/remote.css" />
  <link rel="preload" as="script" href="{up}_static/scripts/bootstrap.js" />
  <script src="{up}_static/documentation_options.js?v=2"></script>
  <script src="{up}_static/doctools.js?v=3"></script>
  <script async="async" src="{up}_static/thebe.js"></script>
  <script>DOCUMENTATION_OPTIONS.pagename = 'x';</script>
  <script src="{up}searchindex.js"></script>
</head><body><article class="bd-article">
<p class="used">Text.</p><ul class="search"><li>A result.</li></ul>
<img src="{up}_images/a.png" alt="A." />
<img loading="eager" src="{up}_images/b.png" alt="B." />
</article><script defer src="{up}_static/scripts/bootstrap.js"></script></body></html>
"""
THEME_CSS = '@import "../basic.css";\n.used{color:#111}.carousel{display:flex}'
BASIC_CSS = "ul.search li{background:url(file.png)}"
EXTRA_CSS = "@media (max-width: 500px){.used{margin:0}.toast{opacity:0}}"


def written_site(folder: Path) -> Path:
    static = folder / "_static"
    (static / "styles").mkdir(parents=True)
    (static / "scripts").mkdir()
    (static / "styles" / "theme.css").write_text(THEME_CSS)
    (static / "basic.css").write_text(BASIC_CSS)
    (static / "file.png").write_bytes(b"png")
    (static / "extra.css").write_text(EXTRA_CSS)
    (static / "documentation_options.js").write_text("const DOCUMENTATION_OPTIONS = {};\n")
    (static / "doctools.js").write_text("document.body.classList.add('js-ready');")
    (static / "thebe.js").write_text("")
    (static / "scripts" / "bootstrap.js").write_text("")
    (folder / "searchindex.js").write_text("Search.setIndex({});")
    (folder / "book").mkdir()
    (folder / "index.html").write_text(PAGE.format(up=""))
    (folder / "book" / "chapter.html").write_text(PAGE.format(up="../"))
    return folder


def run(folder: Path) -> None:
    app = SimpleNamespace(outdir=str(folder), builder=SimpleNamespace(format="html"))
    critical_path.shorten_critical_path(app, None)


def bundles(page: str) -> tuple[str, str]:
    first = re.search(
        r'<link rel="stylesheet" href="([^"]*site\.[0-9a-f]{16}\.css)" data-joins', page
    )
    later = re.search(r'href="([^"]*site\.[0-9a-f]{16}\.css)" data-later', page)
    assert first and later, page
    return first.group(1), later.group(1)


@pytest.mark.parametrize("module", [critical_path, icon_font])
def test_the_examples_in_the_docstrings_hold(module) -> None:
    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0
    assert result.failed == 0


def test_a_page_waits_for_one_stylesheet_and_no_script(tmp_path: Path) -> None:
    site = written_site(tmp_path)
    run(site)
    page = (site / "book" / "chapter.html").read_text()
    head = page.split("</head>")[0]
    # One local stylesheet blocks (the remote one is left alone); the rest comes later.
    blocking = re.findall(
        r'<link rel="stylesheet" href="([^"]*)"(?: data-joins="[^"]*")? />\n', head
    )
    assert blocking == ["../_static/site." + bundles(page)[0].split("site.")[1],
                        "https://example.org/remote.css"]  # fmt: skip
    assert 'theme.css"' not in head and 'extra.css?v=1"' not in head
    assert '<noscript><link rel="stylesheet" href="' + bundles(page)[1] in head
    # Every local script of the head deferred, in order; the options written in.
    assert re.findall(r"<script ([^>]*)></script>", head) == [
        'defer src="../_static/doctools.js?v=3"',
        'async="async" src="../_static/thebe.js"',
        'defer src="../searchindex.js"',
    ]
    assert "<script>const DOCUMENTATION_OPTIONS = {};</script>" in head
    assert head.index("const DOCUMENTATION_OPTIONS") < head.index("pagename")
    assert 'rel="preload"' not in head
    # Figures lazy, unless the page already says how to load them.
    assert '<img loading="lazy" src="../_images/a.png"' in page
    assert '<img loading="eager" src="../_images/b.png"' in page


def test_the_rules_are_split_by_what_the_site_can_match(tmp_path: Path) -> None:
    site = written_site(tmp_path)
    run(site)
    page = (site / "book" / "chapter.html").read_text()
    first, later = (
        (site / "book" / href).resolve().read_text() for href in bundles(page)
    )  # fmt: skip
    # In order, @import resolved, URLs still pointing at the same file.
    assert first.index("ul.search li") < first.index(".used{color:#111}") < first.index("@media")
    url = re.search(r'url\("([^"]+)"\)', first).group(1)
    assert (site / "_static" / url).read_bytes() == b"png"
    assert ".used{margin:0}" in first
    # .carousel and .toast are on no page and in no script: later, and only there.
    assert ".carousel" in later and ".toast" in later
    assert ".carousel" not in first and ".toast" not in first
    assert ".used" not in later and "ul.search" not in later
    # A class a script adds (doctools.js: js-ready) counts as used.
    assert critical_path.selector_can_match(".js-ready p", critical_path.site_names(site))


def test_running_twice_changes_nothing(tmp_path: Path) -> None:
    """An incremental build finds pages it has already rewritten."""
    site = written_site(tmp_path)
    run(site)
    pages = {path: path.read_text() for path in site.rglob("*.html")}
    sheets = sorted(path.name for path in (site / "_static").glob("site.*.css"))
    run(site)
    assert {path: path.read_text() for path in site.rglob("*.html")} == pages
    assert sorted(path.name for path in (site / "_static").glob("site.*.css")) == sheets


def test_a_page_not_written_again_gets_the_new_stylesheets(tmp_path: Path) -> None:
    """make book rewrites only the pages whose source changed: the others must not
    keep a joined copy of a stylesheet that has changed since."""
    site = written_site(tmp_path)
    run(site)
    (site / "_static" / "extra.css").write_text(".used{border:1px solid}")
    run(site)  # the pages as the first run left them
    page = (site / "book" / "chapter.html").read_text()
    first = (site / "book" / bundles(page)[0]).resolve().read_text()
    assert ".used{border:1px solid}" in first and "margin:0" not in first
    assert page.count("<link") == page.split("</head>")[0].count("<link") == 4
    linked = set(re.findall(r"site\.[0-9a-f]{16}\.css", page))
    assert {path.name for path in (site / "_static").glob("site.*.css")} == linked


def test_an_import_loop_is_reported(tmp_path: Path) -> None:
    (tmp_path / "a.css").write_text('@import "b.css";')
    (tmp_path / "b.css").write_text('@import "a.css";')
    with pytest.raises(ValueError, match="imports itself"):
        critical_path.inline_css(tmp_path / "a.css", tmp_path)


def test_unused_icon_rules_are_dropped_used_ones_kept() -> None:
    css = (
        '.fa-bars:before,.fa-navicon:before{content:"\\f0c9"}'
        '.fa-xmark:before{content:"\\f00d"}.fa-sun:before{content:"\\f185"}'
    )
    kept = icon_font.drop_unused_classes(css, {"fa-navicon", "fa-sun", "fa-solid"})
    assert kept == '.fa-bars:before,.fa-navicon:before{content:"\\f0c9"}' + (
        '.fa-sun:before{content:"\\f185"}'
    )
