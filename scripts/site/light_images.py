"""Sphinx extension: the site's figures as palette PNGs, when that is lighter.

The chapters' figures are matplotlib PNGs in true colour, but they are drawn
with a handful of flat colours (two region tints, the two classes' markers,
black text) plus the grey levels of anti-aliased edges. Written with a
256-colour palette (no dithering) most of them shrink to a third or a half of
their size and look the same; on a phone on a slow line that is the
difference between a chapter that loads and one that does not. A figure is
rewritten only when the palette version is smaller, at most one pixel in a
thousand moves by more than ``TYPICAL_CHANGE`` in some channel (out of 255) and
none by more than ``MAX_CHANGE`` (the few that move are anti-aliased edge
pixels), and only if it is opaque, so that no figure changes visibly and the
site test's check for opaque figures still sees what the notebook drew. The
notebooks themselves are untouched.

Every ``<img>`` of the written pages that shows one of these figures also gets
the figure's pixel ``width`` and ``height`` (issue 24): the browser then keeps
the figure's place before it arrives, and the text does not jump when it does
(course.css keeps the shape when the column is narrower).
"""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image
from sphinx.application import Sphinx

# How far a pixel may move (largest change of a channel, out of 255) and still
# count as "the same figure": almost all pixels by at most TYPICAL_CHANGE, none
# by more than MAX_CHANGE.
TYPICAL_CHANGE = 16
MAX_CHANGE = 64
SHARE_ABOVE_TYPICAL = 0.001


def palette_version(path: Path) -> bytes | None:
    """The PNG at ``path`` as a 256-colour palette PNG, or None if that is not better."""
    original = path.read_bytes()
    with Image.open(io.BytesIO(original)) as image:
        if image.mode == "RGBA":
            alpha = np.asarray(image.getchannel("A"))
            if alpha.min() < 255:
                return None  # keep transparency exactly as drawn
            image = image.convert("RGB")
        elif image.mode != "RGB":
            return None
        palette = image.quantize(colors=256, dither=Image.Dither.NONE)
        change = np.abs(
            np.asarray(palette.convert("RGB"), dtype=np.int16) - np.asarray(image, dtype=np.int16)
        ).max(axis=2)
        if change.max() > MAX_CHANGE or np.mean(change > TYPICAL_CHANGE) > SHARE_ABOVE_TYPICAL:
            return None
        buffer = io.BytesIO()
        palette.save(buffer, format="PNG", optimize=True)
    lighter = buffer.getvalue()
    return lighter if len(lighter) < len(original) else None


IMG_TAG = re.compile(r"<img\b[^>]*>")
IMG_SRC = re.compile(r'\bsrc="([^"]*_images/[^"/]+)"')


def with_size(tag: str, sizes: dict[str, tuple[int, int]]) -> str:
    """One ``<img ...>`` tag with the width and height of its figure, if known.

    >>> with_size('<img alt="A." src="../_images/a.png" />', {"a.png": (640, 480)})
    '<img width="640" height="480" alt="A." src="../_images/a.png" />'
    >>> with_size('<img src="x.svg" />', {})
    '<img src="x.svg" />'
    """
    source = IMG_SRC.search(tag)
    if source is None or re.search(r"\b(width|height)=", tag):
        return tag
    size = sizes.get(source.group(1).rsplit("/", 1)[-1])
    if size is None:
        return tag
    return tag.replace("<img", f'<img width="{size[0]}" height="{size[1]}"', 1)


def size_images(outdir: Path) -> int:
    """Give each figure of the written pages its width and height; count the tags."""
    sizes = {}
    for path in Path(outdir, "_images").glob("*"):
        try:
            with Image.open(path) as image:
                sizes[path.name] = image.size
        except OSError:
            continue  # not a raster image (an SVG): the browser reads its size
    changed = 0

    def sized_tag(match: re.Match) -> str:
        nonlocal changed
        tag = with_size(match.group(0), sizes)
        changed += tag != match.group(0)
        return tag

    for page in Path(outdir).rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        sized = IMG_TAG.sub(sized_tag, text)
        if sized != text:
            page.write_text(sized, encoding="utf-8")
    return changed


def lighten_images(app: Sphinx, exception: Exception | None) -> None:
    """After an HTML build, rewrite each figure that gets lighter as a palette PNG."""
    if exception is not None or app.builder.format != "html":
        return
    saved = 0
    for path in sorted(Path(app.outdir, "_images").glob("*.png")):
        lighter = palette_version(path)
        if lighter is not None:
            saved += path.stat().st_size - len(lighter)
            path.write_bytes(lighter)
    if saved:
        print(f"light_images: figures written as palette PNGs, {saved / 1e6:.2f} MB lighter")
    size_images(Path(app.outdir))


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the hook."""
    app.connect("build-finished", lighten_images)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
