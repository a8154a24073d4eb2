"""A Sphinx extension: the icon fonts hold only the icons the site uses.

The theme draws its icons (the header's buttons, the admonitions' marks, the
animations' controls) with Font Awesome 6's web fonts, and a page's first
visit downloaded the whole solid font, 157 kB, for about twenty icons
(issue 24: a phone on a slow line). Once the site is written, this extension
collects the icons it uses:

- every ``fa-NAME`` class in the written pages (the animations' pages too),
  looked up in the theme's stylesheet (``.fa-NAME:before{content:"\\f0c9"}``);
- every private-use character that the site's other CSS rules draw (the
  theme's admonition icons, ``course.css``, ``exercise.css``...),

and replaces each of Font Awesome's three fonts by a subset of its own
glyphs for those characters (fontTools, a dependency of matplotlib), as WOFF,
which the theme's ``@font-face`` rules then carry inline (``data:`` URLs, 7 kB
in all), so that the icons cost no request. The full fonts are removed from
the site, and so are the class rules of the icons that no page uses (about
1,800 of them, 20 kB of the stylesheet compressed, which every page waits
for): their glyphs are no longer in the fonts anyway.

Enable it in ``_config.yml``::

    sphinx:
      local_extensions:
        icon_font: scripts/site
"""

from __future__ import annotations

import base64
import re
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx
from sphinx.util import logging

logger = logging.getLogger(__name__)

THEME_CSS = "styles/pydata-sphinx-theme.css"
WEBFONTS = "vendor/fontawesome/webfonts"
FONTS = ("fa-solid-900", "fa-regular-400", "fa-brands-400")
# One rule of Font Awesome's class table: ".fa-bars:before,.fa-navicon:before{content:"\f0c9"}".
CLASS_RULE = re.compile(r'((?:\.fa-[a-z0-9-]+:{1,2}before,?)+)\{content:"\\([0-9a-f]{4,5})"\}')
CLASS_NAME = re.compile(r"\.(fa-[a-z0-9-]+):")
USED_CLASS = re.compile(r"\bfa-[a-z0-9-]+")
ESCAPE = re.compile(r"\\([0-9a-fA-F]{4,5})")
PRIVATE_USE = (0xE000, 0x10FFFF)
FONT_SOURCE = re.compile(
    r"url\(\.\./" + re.escape(WEBFONTS) + r"/(?P<name>fa-[a-z]+-[0-9]+)\.woff2\) "
    r'format\("woff2"\),url\(\.\./'
    + re.escape(WEBFONTS)
    + r'/(?P=name)\.ttf\) format\("truetype"\)'
)


def class_codepoints(theme_css: str) -> dict[str, int]:
    """Font Awesome's class table: ``{"fa-bars": 0xF0C9, ...}``.

    Examples
    --------
    >>> class_codepoints('.fa-bars:before,.fa-navicon:before{content:"\\\\f0c9"}')
    {'fa-bars': 61641, 'fa-navicon': 61641}
    """
    table = {}
    for rule in CLASS_RULE.finditer(theme_css):
        for name in CLASS_NAME.findall(rule.group(1)):
            table[name] = int(rule.group(2), 16)
    return table


def css_codepoints(css: str) -> set[int]:
    r"""Private-use characters drawn by CSS rules other than Font Awesome's class table.

    Examples
    --------
    >>> sorted(hex(c) for c in css_codepoints('a:after{content:"\\f126"} b{--x:"\uf0eb"}'))
    ['0xf0eb', '0xf126']
    """
    rest = CLASS_RULE.sub("", css)
    found = {int(code, 16) for code in ESCAPE.findall(rest)}
    found |= {ord(char) for char in rest if ord(char) >= PRIVATE_USE[0]}
    return {code for code in found if PRIVATE_USE[0] <= code <= PRIVATE_USE[1]}


def used_classes(outdir: Path) -> set[str]:
    """Every ``fa-NAME`` class the written pages (animations included) use."""
    used: set[str] = set()
    for page in outdir.rglob("*.html"):
        used |= set(USED_CLASS.findall(page.read_text(encoding="utf-8")))
    return used


def drop_unused_classes(theme_css: str, used: set[str]) -> str:
    """Font Awesome's class table without the rules for icons in no class of ``used``.

    Examples
    --------
    >>> drop_unused_classes('.fa-bars:before{content:"\\\\f0c9"}.fa-x:before{content:"\\\\f00d"}',
    ...                     {"fa-x"})
    '.fa-x:before{content:"\\\\f00d"}'
    """

    def kept(rule: re.Match) -> str:
        return rule.group(0) if set(CLASS_NAME.findall(rule.group(1))) & used else ""

    return CLASS_RULE.sub(kept, theme_css)


def used_codepoints(outdir: Path) -> set[int]:
    """Every icon the written site can draw."""
    static = outdir / "_static"
    table = class_codepoints((static / THEME_CSS).read_text(encoding="utf-8"))
    used = {table[name] for name in used_classes(outdir) if name in table}
    for sheet in static.rglob("*.css"):
        used |= css_codepoints(sheet.read_text(encoding="utf-8"))
    return used


def subset_font(source: Path, target: Path, codepoints: set[int]) -> None:
    """Write the glyphs of ``source`` for ``codepoints`` to ``target`` as WOFF."""
    from fontTools import subset

    options = subset.Options()
    options.flavor = "woff"
    options.layout_features = ["*"]
    font = subset.load_font(str(source), options)
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=sorted(codepoints | {0x20}))
    subsetter.subset(font)
    subset.save_font(font, str(target), options)


def subset_icon_fonts(app: Sphinx, exception: Exception | None) -> None:
    """Replace Font Awesome's fonts in the written site by subsets of the icons used."""
    if exception is not None or app.builder.format != "html":
        return
    outdir = Path(app.outdir)
    theme_css = outdir / "_static" / THEME_CSS
    fonts = outdir / "_static" / WEBFONTS
    if not theme_css.is_file() or not (fonts / f"{FONTS[0]}.ttf").is_file():
        return  # another theme, or already subset by an earlier build
    codepoints = used_codepoints(outdir)
    before = after = 0
    for name in FONTS:
        source = fonts / f"{name}.ttf"
        subset_font(source, fonts / f"{name}.subset.woff", codepoints)
        before += (fonts / f"{name}.woff2").stat().st_size
        after += (fonts / f"{name}.subset.woff").stat().st_size
        for full in (source, fonts / f"{name}.woff2"):
            full.unlink()
    css = theme_css.read_text(encoding="utf-8")

    def inline(match: re.Match) -> str:
        # A few kB each: inside the stylesheet, which the page waits for anyway,
        # the icons need no request of their own (a round trip each on a slow line).
        data = (fonts / f"{match['name']}.subset.woff").read_bytes()
        return (
            f'url(data:font/woff;base64,{base64.b64encode(data).decode("ascii")}) format("woff")'
        )

    css, count = FONT_SOURCE.subn(inline, css)
    if count != len(FONTS):
        raise RuntimeError(f"icon_font: {count} of {len(FONTS)} @font-face rules rewritten")
    css = drop_unused_classes(css, used_classes(outdir))
    theme_css.write_text(css, encoding="utf-8")
    for name in FONTS:
        (fonts / f"{name}.subset.woff").unlink()  # inlined: no page asks for the file
    logger.info(
        f"icon_font: {len(codepoints)} icons, fonts {before / 1e3:.0f} kB -> {after / 1e3:.0f} kB"
    )


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the hook."""
    app.connect("build-finished", subset_icon_fonts)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
