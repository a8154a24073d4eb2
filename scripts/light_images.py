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
"""

from __future__ import annotations

import io
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


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the hook."""
    app.connect("build-finished", lighten_images)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
