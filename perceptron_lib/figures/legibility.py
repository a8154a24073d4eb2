"""How large a figure's text is when a phone shows the figure (issue 24).

A phone 390 CSS px wide shows the book's figures 342 CSS px wide. A figure
saved as a PNG is shrunk to that width (never enlarged), so its smallest text,
``size`` points tall at ``dpi`` dots per inch in an image ``width`` pixels
wide, appears ``size * dpi / 72 * min(1, 342 / width)`` CSS px tall. The course
asks for at least 8 CSS px.

The image's width is that of the saved PNG: the notebooks' inline backend and
``to_jshtml()`` crop a figure to its drawn content (``bbox_inches="tight"``
with a 0.1 inch pad) for the first, and keep the whole figure for the second.
"""

from __future__ import annotations

from dataclasses import dataclass

from matplotlib.figure import Figure
from matplotlib.text import Text

PHONE_FIGURE_WIDTH = 342  # CSS px: the text column of a 390 px phone
SMALLEST_TEXT = 8.0  # CSS px
TIGHT_PAD = 0.1  # inches, matplotlib's default pad_inches for bbox_inches="tight"


@dataclass(frozen=True)
class SmallestText:
    """The smallest text of a figure as a phone shows it."""

    css_px: float
    text: str
    image_width: int  # pixels of the saved PNG

    def __str__(self) -> str:
        return (
            f"{self.css_px:.1f} CSS px ({self.text!r}) in an image {self.image_width} px "
            f"wide, shown {min(self.image_width, PHONE_FIGURE_WIDTH)} px wide"
        )


def smallest_text(
    fig: Figure, *, shown_width: float = PHONE_FIGURE_WIDTH, tight: bool = True
) -> SmallestText:
    """The smallest visible text of ``fig``, in CSS px when shown ``shown_width`` wide.

    Parameters
    ----------
    fig : matplotlib.figure.Figure
        The figure, fully drawn.
    shown_width : float, default 342
        The width (CSS px) the page gives the figure; a narrower image is shown
        at its own width.
    tight : bool, default True
        Whether the saved image is cropped to the drawn content (the inline
        backend's PNGs) rather than the whole figure (animation frames).

    Returns
    -------
    SmallestText
        Its size in CSS px, its text and the image's width in pixels.

    Raises
    ------
    TypeError
        If ``fig`` is not a matplotlib Figure.
    ValueError
        If the figure shows no text, or ``shown_width`` is not positive.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> fig, ax = plt.subplots(figsize=(3.0, 2.0), dpi=100)
    >>> _ = ax.set_title("ten points", fontsize=10)
    >>> _ = ax.set_xticks([])
    >>> _ = ax.set_yticks([])
    >>> found = smallest_text(fig, tight=False)
    >>> found.image_width, f"{found.css_px:.2f}"
    (300, '13.89')
    >>> plt.close(fig)
    """
    if not isinstance(fig, Figure):
        raise TypeError(f"fig must be a matplotlib Figure, got {type(fig).__name__}.")
    if not shown_width > 0:
        raise ValueError(f"shown_width must be positive, got {shown_width!r}.")
    original = fig.canvas
    if not hasattr(original, "get_renderer"):
        # A closed figure (the notebooks close theirs before showing them) has
        # a bare canvas: measure on an Agg one, then give the old one back.
        from matplotlib.backends.backend_agg import FigureCanvasAgg

        FigureCanvasAgg(fig)
    try:
        return _measure(fig, shown_width, tight)
    finally:
        fig.set_canvas(original)


def _measure(fig: Figure, shown_width: float, tight: bool) -> SmallestText:
    renderer = fig.canvas.get_renderer()
    fig.draw(renderer)
    dpi = fig.dpi
    if tight:
        width_in = fig.get_tightbbox(renderer).width + 2 * TIGHT_PAD
    else:
        width_in = fig.get_figwidth()
    image_width = round(width_in * dpi)
    scale = min(1.0, shown_width / image_width)
    texts = [
        artist
        for artist in fig.findobj(Text)
        if artist.get_visible()
        and artist.get_text().strip()
        and (artist.axes is None or artist.axes.get_visible())
        and artist.get_window_extent(renderer).width > 0
    ]
    if not texts:
        raise ValueError("the figure shows no text")
    smallest = min(texts, key=lambda artist: artist.get_fontsize())
    css_px = smallest.get_fontsize() * dpi / 72 * scale
    return SmallestText(css_px, smallest.get_text(), image_width)
