"""A Sphinx extension: animations load when the reader reaches them.

matplotlib's ``to_jshtml()`` animations carry every frame as a base64 PNG
inside the page, 40-360 kB per chapter, which a reader on a slow line
downloads before the page has finished loading, whether or not they scroll
to the animation. This extension moves each animation (its script, its
controls and its frames) out of the page into ``_animations/PAGE-N.html``
and leaves a placeholder the size of the animation's frame, so that the
text around it does not jump when it arrives. ``book/_static/course.js``
fetches the animation when the placeholder comes near the screen, runs its
scripts, and describes it (the slider's label, each frame's alt text).
Without JavaScript the placeholder's link opens the animation on its own.

Enable it in ``_config.yml``::

    sphinx:
      local_extensions:
        lazy_animations: scripts/site
"""

from __future__ import annotations

import base64
import re
import struct
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx

OUTPUT_DIR = "_animations"
# The whole of one jshtml animation, from the helper script that opens it to
# the script that starts it (matplotlib/_animation_data.py's template).
ANIMATION = re.compile(
    r'<script language="javascript">\s*function isInternetExplorer\(\).*?'
    r"/\* Instantiate the Animation class\. \*/.*?</script>",
    re.DOTALL,
)
FIRST_FRAME = re.compile(r'frames\[0\] = "data:image/png;base64,([A-Za-z0-9+/=\\\n]{0,200})')
FRAME_IMG_SIZE = re.compile(r'<img id="_anim_img[0-9a-f]*" width="(\d+)" height="(\d+)"')
PLACEHOLDER = """<div class="lazy-animation" data-src="{url}">
<div class="lazy-animation-frame" style="aspect-ratio: {width} / {height}; max-width: {width}px">
</div>
<p class="lazy-animation-note">The animation loads as you scroll to it.
<a href="{url}">Open the animation on its own.</a></p>
</div>"""


def frame_size(animation: str) -> tuple[int, int]:
    """The frame's width and height as shown, in CSS pixels.

    Those of its ``<img>`` when it has them (``perceptron_lib.figures.animation`` draws
    frames at twice that size, for 2x screens), else the first frame's pixels,
    read from its PNG header.
    """
    shown = FRAME_IMG_SIZE.search(animation)
    if shown is not None:
        return int(shown.group(1)), int(shown.group(2))
    match = FIRST_FRAME.search(animation)
    if match is None:
        return 4, 3
    encoded = match.group(1).replace("\\", "").replace("\n", "")
    header = base64.b64decode(encoded[:32] + "=" * (-len(encoded[:32]) % 4))
    width, height = struct.unpack(">II", header[16:24])
    return width, height


def defer_animations(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    """Replace each animation of the page's body by a placeholder and a file."""
    body = context.get("body")
    if not body or "Instantiate the Animation class" not in body:
        return
    out = Path(app.outdir) / OUTPUT_DIR
    out.mkdir(exist_ok=True)
    slug = pagename.replace("/", "__")
    count = 0

    def placeholder(match: re.Match) -> str:
        nonlocal count
        count += 1
        name = f"{slug}-{count}.html"
        animation = match.group(0)
        (out / name).write_text(animation, encoding="utf-8")
        width, height = frame_size(animation)
        url = context["pathto"](f"{OUTPUT_DIR}/{name}", 1)
        return PLACEHOLDER.format(url=url, width=width, height=height)

    context["body"] = ANIMATION.sub(placeholder, body)


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the hook (after offline_site has dropped the CDN stylesheet)."""
    app.connect("html-page-context", defer_animations, priority=950)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
