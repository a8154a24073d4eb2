"""Training as a film: one frame per perceptron update, playable in a static web page.

The book's pages have no kernel, so the interactive explorers of
:mod:`perceptron_lib.widgets` get a static counterpart here: a matplotlib
animation rendered to self-contained HTML and JavaScript with
:meth:`~matplotlib.animation.Animation.to_jshtml`.

Typical use in a notebook cell::

    from IPython.display import HTML
    trace = training_trace(Perceptron(shuffle=False), X, y)
    HTML(animation_html(animate_training(trace, X)))
"""

from __future__ import annotations

import base64
import io
import re

import numpy as np
from matplotlib.animation import Animation, FuncAnimation
from matplotlib.artist import Artist
from matplotlib.axes import Axes
from numpy.typing import ArrayLike, NDArray

from ..trace import TrainingTrace
from .drawing import _as_points, _ring
from .geometry import plot_boundary, plot_data

FRAME_INTERVAL_MS = 600  # slow enough to follow one update at a time
# A frame has a handful of flat colours plus their anti-aliased blends: 64 palette
# colours look the same and make the embedded PNGs about three times smaller.
FRAME_COLOURS = 64
_EMBEDDED_PNG = re.compile(r'(data:image/png;base64,)([A-Za-z0-9+/=\\\n]+)"')
# Frames are drawn with this many pixels per CSS pixel (the figure's dpi times
# it) and shown at the figure's own size: sharp on a phone's 2x screen.
PIXEL_RATIO = 2
_FRAME_IMG = re.compile(r'<img id="(_anim_img[0-9a-f]+)"')


def _check_trace_and_data(trace: TrainingTrace, X: ArrayLike) -> NDArray[np.float64]:
    """Return ``X`` as points after checking it is the 2-D data of a trace with updates."""
    if not isinstance(trace, TrainingTrace):
        raise TypeError(
            f"trace must be a TrainingTrace (from training_trace), got {type(trace).__name__}."
        )
    X = _as_points(X)
    if X.shape[0] != trace.labels.shape[0] or trace.weights.shape[1:] != (2,):
        raise ValueError(
            f"X (shape {X.shape}) must be the two-feature data the trace was recorded on "
            f"({trace.labels.shape[0]} examples, weights of shape {trace.weights.shape[1:]})."
        )
    if trace.n_mistakes == 0:
        raise ValueError("The trace has no updates, so there is nothing to animate.")
    return X


def sample_updates(n_updates: int, max_frames: int) -> NDArray[np.int64]:
    """Return which updates (numbered from 0) to show when at most ``max_frames`` fit.

    All of them if there are few enough; otherwise ``max_frames`` evenly spaced
    ones, always including the first and the last.

    Parameters
    ----------
    n_updates : int
    max_frames : int, at least 2

    Returns
    -------
    ndarray of int, increasing

    Examples
    --------
    >>> sample_updates(3, 40).tolist()
    [0, 1, 2]
    >>> sample_updates(100, 5).tolist()
    [0, 25, 50, 74, 99]
    """
    if not isinstance(max_frames, int | np.integer) or max_frames < 2:
        raise ValueError(f"max_frames must be an integer of at least 2, got {max_frames!r}.")
    if n_updates <= max_frames:
        return np.arange(n_updates)
    # Spacing above one, so rounding never merges two frames.
    return np.round(np.linspace(0, n_updates - 1, max_frames)).astype(np.int64)


def draw_update_frame(ax: Axes, trace: TrainingTrace, X: ArrayLike, update: int) -> list[Artist]:
    """Draw update number ``update`` (from 0) of a trace on an Axes that shows the data.

    Draws the boundary after the update (solid, positive side shaded), the one
    before it (dashed, grey), rings the example that caused it, and sets the
    title "update k of K, epoch e" (both counted from 1). A zero weight vector
    has no boundary; the title says so instead.

    Parameters
    ----------
    ax : matplotlib Axes
        Already showing the data (for example from :func:`plot_data`).
    trace : TrainingTrace
    X : array-like of shape (n_samples, 2)
        The data the trace was recorded on.
    update : int
        Which update, from 0 to ``trace.n_mistakes - 1``.

    Returns
    -------
    list of Artist
        What was drawn, so that the caller can remove it for the next frame.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from perceptron_lib import Perceptron, training_trace
    >>> X, y = [[1, 3], [2, 3], [-3, 1], [1, -1]], [1, -1, 1, -1]
    >>> trace = training_trace(Perceptron(shuffle=False, fit_intercept=False), X, y)
    >>> ax = plot_data(X, y)
    >>> artists = draw_update_frame(ax, trace, X, 1)
    >>> ax.get_title()
    'update 2 of 13, epoch 1'
    >>> plt.close("all")
    """
    X = _check_trace_and_data(trace, X)
    steps = np.flatnonzero(trace.mistake)
    if not 0 <= update < steps.shape[0]:
        raise ValueError(f"update must be in 0..{steps.shape[0] - 1}, got {update}.")
    step = int(steps[update])
    before = set(ax.get_children())
    w_before, b_before = trace.weights_before(step)
    w_after, b_after = trace.weights[step], float(trace.bias[step])
    if np.any(w_before):
        n_lines = len(ax.get_lines())
        plot_boundary(
            w_before, b_before, ax=ax, shade=False, show_weight_vector=False, color="0.6"
        )
        for line in ax.get_lines()[n_lines:]:
            line.set_linestyle("--")
    title = f"update {update + 1} of {steps.shape[0]}, epoch {int(trace.epoch[step]) + 1}"
    if np.any(w_after):
        plot_boundary(w_after, b_after, ax=ax)
    else:
        title += ": w = 0, no boundary"
    example = X[trace.index[step]]
    _ring(ax, example, size=300, linewidths=2)
    ax.set_title(title, fontsize="medium")
    return [artist for artist in ax.get_children() if artist not in before]


def animate_training(
    trace: TrainingTrace,
    X: ArrayLike,
    *,
    max_frames: int = 40,
    figsize: tuple[float, float] = (4.5, 4.5),
    dpi: int = 80,
) -> FuncAnimation:
    """Animate a perceptron's training: one frame per update.

    Each frame shows the data, the boundary after the update (the one before
    it dashed), the example that caused the update ringed, and the
    title "update k of K, epoch e". With more than ``max_frames`` updates,
    evenly spaced ones are shown, always with the first and the last.

    Parameters
    ----------
    trace : TrainingTrace
        From :func:`perceptron_lib.training_trace` on two-feature data.
    X : array-like of shape (n_samples, 2)
        The data the trace was recorded on.
    max_frames : int, default 40
    figsize : (float, float), default (4.5, 4.5)
    dpi : int, default 80
        Resolution of the frames; with the default size they stay small.

    Returns
    -------
    matplotlib.animation.FuncAnimation
        Render it with :func:`animation_html`, which also closes its figure.

    Examples
    --------
    >>> from perceptron_lib import Perceptron, training_trace
    >>> X, y = [[1, 3], [2, 3], [-3, 1], [1, -1]], [1, -1, 1, -1]
    >>> trace = training_trace(Perceptron(shuffle=False, fit_intercept=False), X, y)
    >>> trace.n_mistakes
    13
    >>> anim = animate_training(trace, X, max_frames=5)
    >>> list(anim.new_frame_seq())  # the updates shown, numbered from 0
    [0, 3, 6, 9, 12]
    >>> html = animation_html(anim)
    """
    import matplotlib.pyplot as plt

    X = _check_trace_and_data(trace, X)
    frames = sample_updates(trace.n_mistakes, max_frames).tolist()
    fig, ax = plt.subplots(figsize=figsize, dpi=dpi, facecolor="white", layout="constrained")
    plot_data(X, trace.labels, ax=ax)
    # Lay the figure out once, with room for a title, then keep that layout:
    # recomputing it for every frame would triple the rendering time.
    ax.set_title("update", fontsize="medium")
    fig.canvas.draw()
    fig.set_layout_engine("none")
    drawn: list[Artist] = []

    def draw(update: int) -> list[Artist]:
        for artist in drawn:
            artist.remove()
        drawn[:] = draw_update_frame(ax, trace, X, update)
        return drawn

    return FuncAnimation(fig, draw, frames=frames, interval=FRAME_INTERVAL_MS, repeat=False)


def animation_html(
    anim: Animation, *, fps: float | None = None, pixel_ratio: int = PIXEL_RATIO
) -> str:
    """Return an animation as self-contained HTML (play once), and close its figure.

    The HTML is that of :meth:`~matplotlib.animation.Animation.to_jshtml` with
    ``default_mode="once"``, its frames drawn at ``pixel_ratio`` times the
    figure's dpi and shown at the figure's size (the frame's ``<img>`` has the
    figure's width and height in CSS pixels), so that they stay sharp on a
    phone's 2x screen. Each frame is re-encoded as a 64-colour PNG, which looks
    the same and is about three times smaller. Closing the figure keeps the
    notebook from also showing its last frame as a still image under the
    player.

    Parameters
    ----------
    anim : matplotlib.animation.Animation
    fps : float, optional
        Frames per second; by default, one frame per interval of the animation.
    pixel_ratio : int, default 2
        Pixels of a frame per CSS pixel (1: the figure's own dpi).

    Returns
    -------
    str
        HTML with the frames embedded as PNG images, for
        ``IPython.display.HTML``.

    Examples
    --------
    >>> from perceptron_lib import Perceptron, training_trace
    >>> X, y = [[1, 3], [2, 3], [-3, 1], [1, -1]], [1, -1, 1, -1]
    >>> trace = training_trace(Perceptron(shuffle=False, fit_intercept=False), X, y)
    >>> html = animation_html(animate_training(trace, X, max_frames=3))
    >>> html.count("data:image/png;base64")  # one embedded image per frame
    3
    >>> 'width="360" height="360"' in html  # 4.5 in at 80 dpi, drawn 720 px wide
    True
    """
    import tempfile
    from pathlib import Path

    import matplotlib.pyplot as plt
    from matplotlib.animation import HTMLWriter

    if not isinstance(anim, Animation):
        raise TypeError(f"anim must be a matplotlib Animation, got {type(anim).__name__}.")
    if not isinstance(pixel_ratio, int | np.integer) or not 1 <= pixel_ratio <= 4:
        raise ValueError(f"pixel_ratio must be an integer from 1 to 4, got {pixel_ratio!r}.")
    if fps is not None and not (isinstance(fps, int | float) and 0 < fps <= 60):
        raise ValueError(f"fps must be a number of frames per second in (0, 60], got {fps!r}.")
    # matplotlib offers no public accessor for an animation's figure.
    fig = anim._fig
    width, height = (round(float(size) * fig.dpi) for size in fig.get_size_inches())
    if fps is None:
        fps = 1000 / anim._interval
    # What to_jshtml() does, with a dpi: it offers none.
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "animation.html"
        writer = HTMLWriter(fps=fps, embed_frames=True, default_mode="once")
        anim.save(str(path), writer=writer, dpi=fig.dpi * pixel_ratio)
        html = path.read_text(encoding="utf-8")
    plt.close(fig)
    html = _FRAME_IMG.sub(rf'<img id="\1" width="{width}" height="{height}"', html)
    return _EMBEDDED_PNG.sub(_palette_png, html)


def _palette_png(match: re.Match) -> str:
    """Re-encode one embedded RGBA frame as a PNG with a small palette."""
    from PIL import Image

    # to_jshtml splits the base64 text into JavaScript lines ending in a backslash.
    frame = base64.b64decode(match.group(2).replace("\\\n", ""))
    image = Image.open(io.BytesIO(frame)).convert("RGB")
    image = image.quantize(
        FRAME_COLOURS, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE
    )
    buffer = io.BytesIO()
    image.save(buffer, format="png")
    return match.group(1) + base64.b64encode(buffer.getvalue()).decode("ascii") + '"'
