"""The site's figures get lighter as palette PNGs, and only when they look the same."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from PIL import Image  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts" / "site"))
import light_images  # noqa: E402


def _figure_png(path: Path, *, transparent: bool = False) -> Path:
    rng = np.random.default_rng(0)
    fig, ax = plt.subplots(figsize=(4, 3), facecolor="white")
    ax.imshow(rng.random((40, 40)) > 0.5, cmap="coolwarm", extent=(0, 1, 0, 1))
    ax.scatter(*rng.random((2, 200)), c=rng.integers(0, 2, 200), edgecolor="k")
    fig.savefig(path, transparent=transparent)
    plt.close(fig)
    return path


def test_a_figure_gets_lighter_and_looks_the_same(tmp_path):
    path = _figure_png(tmp_path / "figure.png")
    lighter = light_images.palette_version(path)
    assert lighter is not None and len(lighter) < path.stat().st_size
    before = np.asarray(Image.open(path).convert("RGB"), dtype=int)
    after = np.asarray(Image.open(io.BytesIO(lighter)).convert("RGB"), dtype=int)
    change = np.abs(after - before).max(axis=2)
    assert change.max() <= light_images.MAX_CHANGE
    assert np.mean(change > light_images.TYPICAL_CHANGE) <= light_images.SHARE_ABOVE_TYPICAL


def test_a_transparent_figure_is_left_alone(tmp_path):
    path = _figure_png(tmp_path / "transparent.png", transparent=True)
    assert light_images.palette_version(path) is None


def test_an_image_of_many_colours_is_left_alone(tmp_path):
    path = tmp_path / "noise.png"
    noise = np.random.default_rng(1).integers(0, 256, size=(64, 64, 3), dtype=np.uint8)
    Image.fromarray(noise).save(path)
    assert light_images.palette_version(path) is None


def test_each_figure_of_a_page_gets_its_width_and_height(tmp_path):
    """No layout shift: the browser keeps a figure's place before it arrives (issue 24)."""
    (tmp_path / "_images").mkdir()
    Image.new("RGB", (640, 480), "white").save(tmp_path / "_images" / "fig.png")
    (tmp_path / "book").mkdir()
    page = tmp_path / "book" / "chapter.html"
    page.write_text(
        '<p><img alt="A figure." src="../_images/fig.png" /></p>\n'
        '<img alt="Logo." src="../_static/logo.svg">\n'
        '<img width="10" alt="Sized by the author." src="../_images/fig.png" />\n'
    )
    assert light_images.size_images(tmp_path) == 1
    text = page.read_text()
    assert '<img width="640" height="480" alt="A figure." src="../_images/fig.png" />' in text
    assert '<img alt="Logo." src="../_static/logo.svg">' in text
    assert '<img width="10" alt="Sized by the author."' in text
    assert light_images.size_images(tmp_path) == 0  # a second run changes nothing
