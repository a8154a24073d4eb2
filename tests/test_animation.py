"""The training animation: the right frames, the right drawing, small HTML."""

from __future__ import annotations

import re

import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.animation import FuncAnimation

from perceptron_lib import (
    Perceptron,
    lecture_notes_example,
    logic_gate,
    make_separable,
    training_trace,
)
from perceptron_lib.figures.animation import (
    animate_training,
    animation_html,
    draw_update_frame,
    sample_updates,
)
from perceptron_lib.figures.geometry import plot_data

LECTURE_X, LECTURE_Y = lecture_notes_example()


@pytest.fixture(scope="module")
def lecture_trace():
    return training_trace(Perceptron(shuffle=False, fit_intercept=False), LECTURE_X, LECTURE_Y)


@pytest.fixture(scope="module")
def long_run():
    data = make_separable(100, margin=0.005, random_state=1)
    trace = training_trace(Perceptron(random_state=0), data.X, data.y)
    assert trace.n_mistakes > 40  # so that the animation must sample its frames
    return trace, data.X


# -- which updates become frames --------------------------------------------


@pytest.mark.parametrize("n_updates", [1, 2, 5, 39, 40, 41, 97, 1000])
@pytest.mark.parametrize("max_frames", [2, 3, 10, 40])
def test_sampled_updates_are_all_or_evenly_spread_with_both_ends(n_updates, max_frames):
    chosen = sample_updates(n_updates, max_frames)
    if n_updates <= max_frames:
        np.testing.assert_array_equal(chosen, np.arange(n_updates))
        return
    assert len(chosen) == max_frames
    assert chosen[0] == 0 and chosen[-1] == n_updates - 1
    gaps = np.diff(chosen)
    assert np.all(gaps >= 1)
    assert gaps.max() - gaps.min() <= 1  # evenly spread


@pytest.mark.parametrize("max_frames", [1, 0, 2.5, "40"])
def test_max_frames_must_be_an_integer_of_at_least_two(max_frames):
    with pytest.raises(ValueError, match="max_frames"):
        sample_updates(10, max_frames)


# -- one frame ----------------------------------------------------------------


def test_each_frame_draws_the_boundary_after_its_update(lecture_trace):
    steps = np.flatnonzero(lecture_trace.mistake)
    ax = plot_data(LECTURE_X, LECTURE_Y)
    children = set(ax.get_children())
    for update, step in enumerate(steps):
        drawn = draw_update_frame(ax, lecture_trace, LECTURE_X, update)
        w, b = lecture_trace.weights[step], lecture_trace.bias[step]
        solid = [line for line in ax.get_lines() if line.get_linestyle() == "-"]
        assert len(solid) == 1
        np.testing.assert_allclose(solid[0].get_xydata() @ w + b, 0.0, atol=1e-9)
        if update > 0:
            (dashed,) = [line for line in ax.get_lines() if line.get_linestyle() == "--"]
            w_old, b_old = lecture_trace.weights_before(step)
            np.testing.assert_allclose(dashed.get_xydata() @ w_old + b_old, 0.0, atol=1e-9)
        ring = ax.collections[-1]
        np.testing.assert_array_equal(ring.get_offsets(), [LECTURE_X[lecture_trace.index[step]]])
        expected = f"update {update + 1} of {len(steps)}, epoch {lecture_trace.epoch[step] + 1}"
        assert ax.get_title() == expected
        for artist in drawn:
            artist.remove()
        assert set(ax.get_children()) == children  # nothing left behind


def test_a_zero_weight_vector_is_named_in_the_title():
    X, y = logic_gate("and")
    trace = training_trace(Perceptron(shuffle=False), X, y)
    first = np.flatnonzero(trace.mistake)[0]
    assert not np.any(trace.weights[first])  # (0, 0) is a mistake: w stays 0, b becomes -1
    ax = plot_data(X, y)
    draw_update_frame(ax, trace, X, 0)
    assert ax.get_lines() == []
    assert ax.get_title().endswith("w = 0, no boundary")


def test_frame_rejects_an_update_that_does_not_exist(lecture_trace):
    ax = plot_data(LECTURE_X, LECTURE_Y)
    with pytest.raises(ValueError, match="update must be in 0..12"):
        draw_update_frame(ax, lecture_trace, LECTURE_X, lecture_trace.n_mistakes)


# -- the animation ----------------------------------------------------------


def test_animation_has_one_frame_per_update_when_few():
    one_pass = Perceptron(shuffle=False, fit_intercept=False, max_iter=1)
    trace = training_trace(one_pass, LECTURE_X, LECTURE_Y)
    anim = animate_training(trace, LECTURE_X)
    assert isinstance(anim, FuncAnimation)
    assert list(anim.new_frame_seq()) == list(range(trace.n_mistakes)) == [0, 1]
    figure = anim._fig
    assert tuple(figure.get_facecolor()) == (1.0, 1.0, 1.0, 1.0)
    np.testing.assert_allclose(figure.get_size_inches(), (4.5, 4.5))
    assert figure.dpi == 80
    animation_html(anim)


def test_animation_html_plays_once_closes_the_figure_and_embeds_every_frame(lecture_trace):
    anim = animate_training(lecture_trace, LECTURE_X, max_frames=4)
    number = anim._fig.number
    html = animation_html(anim)
    assert not plt.fignum_exists(number)
    assert html.count("data:image/png;base64,") == 4
    assert re.search(r'value="once"[^>]*\s+checked', html)


def test_long_run_is_sampled_and_its_html_stays_small(long_run):
    trace, X = long_run
    anim = animate_training(trace, X)
    frames = list(anim.new_frame_seq())
    assert len(frames) == 40 and frames[0] == 0 and frames[-1] == trace.n_mistakes - 1
    html = animation_html(anim)
    assert html.count("data:image/png;base64,") == 40
    assert len(html.encode()) < 1.2e6


@pytest.mark.parametrize(
    ("make_args", "error", "message"),
    [
        (lambda t: ("not a trace", LECTURE_X), TypeError, "TrainingTrace"),
        (lambda t: (t, LECTURE_X[:3]), ValueError, "the trace was recorded on"),
        (lambda t: (t, np.zeros((4, 3))), ValueError, "shape \\(n_samples, 2\\)"),
        (lambda t: (t, LECTURE_X, {"max_frames": 1}), ValueError, "max_frames"),
    ],
)
def test_animate_training_rejects_bad_input(lecture_trace, make_args, error, message):
    args = make_args(lecture_trace)
    kwargs = args[2] if len(args) == 3 else {}
    with pytest.raises(error, match=message):
        animate_training(args[0], args[1], **kwargs)


def test_animate_training_rejects_three_features():
    X3 = np.column_stack([LECTURE_X, np.ones(4)])
    trace = training_trace(Perceptron(), X3, LECTURE_Y)
    with pytest.raises(ValueError, match="weights of shape \\(3,\\)"):
        animate_training(trace, LECTURE_X)


def test_animation_html_rejects_what_is_not_an_animation():
    with pytest.raises(TypeError, match="matplotlib Animation"):
        animation_html("<html>")


def _frame_sizes(html: str) -> set[tuple[int, int]]:
    """The pixel size of every embedded frame, read from its PNG header."""
    import base64
    import struct

    sizes = set()
    for encoded in re.findall(r'data:image/png;base64,([A-Za-z0-9+/=\\\n]+)"', html):
        header = base64.b64decode(encoded.replace("\\\n", "")[:32])
        sizes.add(struct.unpack(">II", header[16:24]))
    return sizes


@pytest.mark.parametrize("pixel_ratio", [1, 2])
def test_frames_are_drawn_at_the_pixel_ratio_and_shown_at_the_figure_size(
    lecture_trace, pixel_ratio
):
    anim = animate_training(lecture_trace, LECTURE_X, max_frames=3, figsize=(4.0, 3.0), dpi=80)
    html = animation_html(anim, pixel_ratio=pixel_ratio)
    # The figure is 320 x 240 CSS px; its frames carry pixel_ratio times the pixels.
    assert re.search(r'<img id="_anim_img[0-9a-f]+" width="320" height="240"', html)
    assert _frame_sizes(html) == {(320 * pixel_ratio, 240 * pixel_ratio)}


def test_the_default_frames_are_sharp_on_a_2x_screen(lecture_trace):
    html = animation_html(animate_training(lecture_trace, LECTURE_X, max_frames=2))
    assert _frame_sizes(html) == {(720, 720)}  # 4.5 in at 80 dpi, shown 360 px wide


def test_fps_sets_the_frame_rate(lecture_trace):
    html = animation_html(animate_training(lecture_trace, LECTURE_X, max_frames=2), fps=4)
    assert re.search(r"new Animation\(frames, img_id, slider_id, 250,", html)  # ms


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"pixel_ratio": 0}, "pixel_ratio must be an integer from 1 to 4"),
        ({"pixel_ratio": 1.5}, "pixel_ratio must be an integer from 1 to 4"),
        ({"fps": 0}, "fps must be a number"),
        ({"fps": "fast"}, "fps must be a number"),
    ],
)
def test_animation_html_rejects_a_bad_pixel_ratio_or_fps(lecture_trace, kwargs, message):
    anim = animate_training(lecture_trace, LECTURE_X, max_frames=2)
    with pytest.raises(ValueError, match=message):
        animation_html(anim, **kwargs)
    plt.close(anim._fig)
