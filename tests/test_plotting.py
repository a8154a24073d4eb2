"""The plotting helpers draw what they claim: checked by reading the Axes back."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.collections import LineCollection, PathCollection
from matplotlib.patches import Polygon
from matplotlib.path import Path
from matplotlib.quiver import Quiver

from perceptron_lib import Perceptron, margin
from perceptron_lib.figures.drawing import NEGATIVE_STYLE, POSITIVE_STYLE
from perceptron_lib.figures.geometry import (
    plot_boundary,
    plot_data,
    plot_margin_band,
    plot_projections,
)
from perceptron_lib.figures.regions import plot_decision_regions, plot_unit_truth_table
from perceptron_lib.figures.training import plot_mistakes_per_epoch, plot_update

RNG = np.random.default_rng(0)
X = RNG.uniform(-1.0, 1.0, size=(20, 2))
TRUE_W, TRUE_B = np.array([1.0, 2.0]), 0.3
Y = np.where(X @ TRUE_W + TRUE_B > 0, 1, -1)


def new_axes():
    _, ax = plt.subplots()
    return ax


def inside_view(ax, points, tol=1e-9):
    (x0, x1), (y0, y1) = ax.get_xlim(), ax.get_ylim()
    points = np.asarray(points)
    return bool(
        np.all((points[:, 0] >= x0 - tol) & (points[:, 0] <= x1 + tol))
        and np.all((points[:, 1] >= y0 - tol) & (points[:, 1] <= y1 + tol))
    )


def scatters(ax):
    return [c for c in ax.collections if isinstance(c, PathCollection)]


def quivers(ax):
    return [c for c in ax.collections if isinstance(c, Quiver)]


def polygons(ax):
    return [p for p in ax.patches if isinstance(p, Polygon)]


# -- common conventions -----------------------------------------------------

ALL_PLOTS = {
    "data": lambda ax: plot_data(X, Y, ax=ax),
    "boundary": lambda ax: plot_boundary(TRUE_W, TRUE_B, ax=ax),
    "margin band": lambda ax: plot_margin_band(TRUE_W, TRUE_B, X, Y, ax=ax),
    "projections": lambda ax: plot_projections(TRUE_W, X, ax=ax),
    "update": lambda ax: plot_update([1, 3], 1, [0, 0], 0, [1, 3], 1, ax=ax),
    "mistakes": lambda ax: plot_mistakes_per_epoch([4, 2, 0], ax=ax),
    "regions": lambda ax: plot_decision_regions(
        lambda Z: np.sign(Z[:, 0]) + (Z[:, 0] == 0), X, Y, ax=ax
    ),
    "truth table": lambda ax: plot_unit_truth_table([1, 1], -1.5, ax=ax, target="and"),
}


@pytest.mark.parametrize("name", ALL_PLOTS)
def test_returns_the_given_axes(name):
    ax = new_axes()
    assert ALL_PLOTS[name](ax) is ax


@pytest.mark.parametrize("name", ALL_PLOTS)
def test_new_figure_is_opaque_white_and_phone_sized(name):
    ax = ALL_PLOTS[name](None)
    figure = ax.figure
    assert tuple(figure.get_facecolor()) == (1.0, 1.0, 1.0, 1.0)
    width, height = figure.get_size_inches()
    assert 4.0 <= width <= 5.0 and 2.5 <= height <= 5.0


@pytest.mark.parametrize("name", [n for n in ALL_PLOTS if n != "mistakes"])
def test_plane_plots_have_equal_aspect_and_labelled_axes(name):
    ax = ALL_PLOTS[name](None)
    assert ax.get_aspect() == 1.0
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("$x_1$", "$x_2$")


@pytest.mark.parametrize("name", [n for n in ALL_PLOTS if n != "mistakes"])
def test_lines_stay_inside_the_view(name):
    ax = ALL_PLOTS[name](None)
    for line in ax.get_lines():
        assert inside_view(ax, np.column_stack(line.get_data()), tol=1e-6), line


def test_ax_must_be_an_axes():
    with pytest.raises(TypeError, match="matplotlib Axes"):
        plot_data(X, Y, ax="left")


# -- plot_data --------------------------------------------------------------


def test_plot_data_draws_each_class_with_its_own_marker_and_colour():
    ax = plot_data(X, Y, labels=("no", "yes"))
    negative, positive = scatters(ax)
    np.testing.assert_array_equal(negative.get_offsets(), X[Y == -1])
    np.testing.assert_array_equal(positive.get_offsets(), X[Y == 1])
    assert (negative.get_label(), positive.get_label()) == ("no", "yes")
    assert NEGATIVE_STYLE["color"] != POSITIVE_STYLE["color"]
    assert NEGATIVE_STYLE["marker"] != POSITIVE_STYLE["marker"]
    assert not np.allclose(negative.get_facecolor(), positive.get_facecolor())
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["no", "yes"]
    assert inside_view(ax, X)


def test_plot_data_reads_0_1_labels_like_minus_1_plus_1():
    ax_signed = plot_data(X, Y)
    ax_binary = plot_data(X, (Y + 1) // 2)
    for a, b in zip(scatters(ax_signed), scatters(ax_binary), strict=True):
        np.testing.assert_array_equal(a.get_offsets(), b.get_offsets())


def test_plot_data_with_one_class_draws_one_collection():
    ax = plot_data(X[Y == 1], Y[Y == 1])
    assert len(scatters(ax)) == 1
    assert scatters(ax)[0].get_label() == "positive"


def test_plot_data_circles_highlighted_points():
    ax = plot_data(X, Y, highlight=[2, 5])
    ring = scatters(ax)[-1]
    np.testing.assert_array_equal(ring.get_offsets(), X[[2, 5]])
    assert len(ring.get_facecolor()) == 0 or ring.get_facecolor()[0][3] == 0


def test_plot_data_twice_extends_the_view():
    ax = plot_data(X, Y)
    far = np.array([[5.0, -4.0]])
    plot_data(far, [1], ax=ax)
    assert inside_view(ax, np.vstack([X, far]))


def test_plot_data_does_not_change_its_input():
    X_copy, Y_copy = X.copy(), Y.copy()
    plot_data(X_copy, Y_copy, highlight=0)
    np.testing.assert_array_equal(X_copy, X)
    np.testing.assert_array_equal(Y_copy, Y)


@pytest.mark.parametrize(
    ("X_bad", "y_bad", "kwargs", "message"),
    [
        (np.zeros((3, 3)), [1, 1, -1], {}, "shape \\(n_samples, 2\\)"),
        (np.zeros(3), [1, 1, -1], {}, "shape \\(n_samples, 2\\)"),
        (np.zeros((0, 2)), [], {}, "non-empty"),
        ([[np.nan, 0.0]], [1], {}, "NaN"),
        (np.zeros((3, 2)), [1, -1], {}, "one label per point"),
        (np.zeros((3, 2)), [0, 1, 2], {}, "labels 0/1 or -1/\\+1"),
        (np.zeros((2, 2)), [0, 1], {"highlight": 2}, "highlight"),
        (np.zeros((2, 2)), [0, 1], {"highlight": 0.5}, "highlight"),
        (np.zeros((2, 2)), [0, 1], {"labels": ("a",)}, "two strings"),
    ],
)
def test_plot_data_rejects_bad_input(X_bad, y_bad, kwargs, message):
    with pytest.raises(ValueError, match=message):
        plot_data(X_bad, y_bad, **kwargs)


# -- plot_boundary ----------------------------------------------------------

LINES = {
    "oblique": ([1.0, 2.0], 0.3),
    "vertical": ([2.0, 0.0], -1.0),
    "horizontal": ([0.0, -3.0], 0.6),
    "steep": ([1.0, 1e-3], 0.0),
}


@pytest.mark.parametrize("name", LINES)
def test_boundary_end_points_are_on_the_line_and_on_the_frame(name):
    w, b = np.array(LINES[name][0]), LINES[name][1]
    ax = plot_data(X, Y)
    limits = (ax.get_xlim(), ax.get_ylim())
    plot_boundary(w, b, ax=ax)
    assert (ax.get_xlim(), ax.get_ylim()) == limits  # the view did not move
    (line,) = ax.get_lines()
    ends = np.column_stack(line.get_data())
    np.testing.assert_allclose(ends @ w + b, 0.0, atol=1e-9)
    (x0, x1), (y0, y1) = limits
    for end in ends:
        on_frame = np.isclose(end[0], [x0, x1]).any() or np.isclose(end[1], [y0, y1]).any()
        assert on_frame, end
    assert not np.allclose(ends[0], ends[1])


@pytest.mark.parametrize("name", LINES)
def test_boundary_shades_exactly_the_positive_side(name):
    w, b = np.array(LINES[name][0]), LINES[name][1]
    ax = plot_boundary(w, b, ax=plot_data(X, Y), show_weight_vector=False)
    (shade,) = polygons(ax)
    vertices = shade.get_xy()
    assert np.all(vertices @ w + b >= -1e-9)
    path = Path(vertices)
    (x0, x1), (y0, y1) = ax.get_xlim(), ax.get_ylim()
    grid = np.array([[x, y] for x in np.linspace(x0, x1, 15) for y in np.linspace(y0, y1, 15)])
    scores = grid @ w + b
    clear = np.abs(scores) > 1e-6
    inside = np.array([path.contains_point(p, radius=1e-9) for p in grid])
    np.testing.assert_array_equal(inside[clear], (scores > 0)[clear])


@pytest.mark.parametrize("name", LINES)
def test_weight_arrow_points_along_w_from_the_boundary(name):
    w, b = np.array(LINES[name][0]), LINES[name][1]
    ax = plot_boundary(w, b, ax=plot_data(X, Y))
    (arrow,) = quivers(ax)
    start = np.array([arrow.X[0], arrow.Y[0]])
    vector = np.array([arrow.U[0], arrow.V[0]])
    assert start @ w + b == pytest.approx(0.0, abs=1e-9)
    assert vector @ w == pytest.approx(np.linalg.norm(vector) * np.linalg.norm(w))
    assert inside_view(ax, [start])


def test_weight_arrow_starts_at_the_boundary_point_nearest_the_origin():
    w, b = np.array([3.0, 4.0]), -2.5
    ax = plot_boundary(w, b, ax=plot_data(X, Y))
    (arrow,) = quivers(ax)
    np.testing.assert_allclose([arrow.X[0], arrow.Y[0]], -b * w / (w @ w))


def test_weight_arrow_moves_into_view_when_the_nearest_point_is_outside():
    w, b = np.array([1.0, 0.0]), -0.5
    ax = new_axes()
    ax.set_xlim(0, 1)
    ax.set_ylim(3, 4)
    plot_boundary(w, b, ax=ax)
    (arrow,) = quivers(ax)
    np.testing.assert_allclose([arrow.X[0], arrow.Y[0]], [0.5, 3.5])


def test_scaling_w_and_b_draws_the_same_line():
    ax1 = plot_boundary([1.0, 2.0], 0.3, ax=plot_data(X, Y))
    ax2 = plot_boundary([10.0, 20.0], 3.0, ax=plot_data(X, Y))
    np.testing.assert_allclose(ax1.get_lines()[0].get_xydata(), ax2.get_lines()[0].get_xydata())


def test_boundary_on_a_new_axes_is_in_view():
    w, b = np.array([1.0, 1.0]), -6.0
    ax = plot_boundary(w, b)
    assert len(ax.get_lines()) == 1
    assert inside_view(ax, [-b * w / (w @ w)])


def test_boundary_outside_the_view_draws_no_line_and_fills_all_or_nothing():
    ax = plot_boundary([1.0, 0.0], -10.0, ax=plot_data(X, Y))  # x1 = 10, far right
    assert ax.get_lines() == [] and quivers(ax) == []
    assert polygons(ax) == []  # the whole view is on the negative side
    ax = plot_boundary([-1.0, 0.0], 10.0, ax=plot_data(X, Y))
    (shade,) = polygons(ax)  # the whole view is on the positive side
    (x0, x1), (y0, y1) = ax.get_xlim(), ax.get_ylim()
    assert Path(shade.get_xy()).contains_point(((x0 + x1) / 2, (y0 + y1) / 2))


def test_boundary_options_turn_parts_off_and_label_the_line():
    ax = plot_boundary(TRUE_W, TRUE_B, shade=False, show_weight_vector=False, label="mine")
    assert polygons(ax) == [] and quivers(ax) == []
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["mine"]
    ax = plot_boundary(TRUE_W, TRUE_B, color="red")
    assert ax.get_lines()[0].get_color() == "red"


@pytest.mark.parametrize(
    ("w", "b", "error", "message"),
    [
        ([0.0, 0.0], 1.0, ValueError, "zero vector"),
        ([1.0, 2.0, 3.0], 0.0, ValueError, "shape \\(2,\\)"),
        ([np.nan, 1.0], 0.0, ValueError, "NaN"),
        ([1.0, 1.0], np.inf, ValueError, "finite"),
    ],
)
def test_boundary_rejects_bad_input(w, b, error, message):
    with pytest.raises(error, match=message):
        plot_boundary(w, b)


# -- plot_margin_band -------------------------------------------------------


def test_margin_band_has_width_twice_the_margin_and_circles_the_closest_points():
    w, b = TRUE_W, TRUE_B
    gamma = margin(w, b, X, Y)
    ax = plot_margin_band(w, b, X, Y)
    (band,) = [p for p in polygons(ax) if p.get_label().startswith("margin band")]
    distances = (band.get_xy() @ w + b) / np.linalg.norm(w)
    assert distances.max() == pytest.approx(gamma) and distances.min() == pytest.approx(-gamma)
    edges = [line for line in ax.get_lines() if line.get_linestyle() == "--"]
    assert len(edges) == 2
    edge_distances = sorted(float(e.get_xydata()[0] @ w + b) / np.linalg.norm(w) for e in edges)
    np.testing.assert_allclose(edge_distances, [-gamma, gamma])
    (ring,) = [c for c in scatters(ax) if c.get_label() == "closest points"]
    closest = np.flatnonzero(np.isclose(Y * (X @ w + b) / np.linalg.norm(w), gamma))
    np.testing.assert_allclose(ring.get_offsets(), X[closest])
    assert f"{gamma:.3g}" in band.get_label()


def test_margin_band_draws_the_data_only_on_an_empty_axes():
    ax = plot_margin_band(TRUE_W, TRUE_B, X, Y)
    assert len(scatters(ax)) == 3  # two classes and the rings
    ax = plot_data(X, Y, labels=("a", "b"))
    plot_margin_band(TRUE_W, TRUE_B, X, Y, ax=ax)
    assert len(scatters(ax)) == 3


@pytest.mark.parametrize(
    ("w", "b", "message"),
    [
        (-TRUE_W, -TRUE_B, "does not separate"),  # every point on the wrong side
        ([1.0, 0.0], -X[0, 0], "does not separate"),  # a point on the boundary
        ([0.0, 0.0], 1.0, "does not separate|zero vector"),
    ],
)
def test_margin_band_rejects_a_non_separating_classifier(w, b, message):
    with pytest.raises(ValueError, match=message):
        plot_margin_band(w, b, X, Y)


# -- plot_projections -------------------------------------------------------


@pytest.mark.parametrize("b", [0.0, 0.7])
def test_projections_land_on_the_w_axis_at_right_angles(b):
    w = np.array([0.8, 0.6])
    points = X[:6]
    ax = plot_projections(w, points, b=b)
    (feet,) = [c for c in scatters(ax) if c.get_label() == "projections"]
    feet = np.asarray(feet.get_offsets())
    np.testing.assert_allclose(feet[:, 0] * w[1] - feet[:, 1] * w[0], 0.0, atol=1e-12)
    np.testing.assert_allclose((points - feet) @ w, 0.0, atol=1e-12)
    np.testing.assert_allclose(feet @ w / np.linalg.norm(w), points @ w / np.linalg.norm(w))
    (segments,) = [c for c in ax.collections if isinstance(c, LineCollection)]
    assert len(segments.get_segments()) == len(points)
    (mark,) = [c for c in scatters(ax) if c.get_label().startswith("boundary crosses")]
    mark = np.asarray(mark.get_offsets())[0]
    assert mark @ w + b == pytest.approx(0.0, abs=1e-12)
    assert inside_view(ax, np.vstack([points, feet, [mark]]))


def test_projections_reproduce_the_sources_example():
    ax = plot_projections([0.8, 0.6], [[0.37, 0.73]])
    (feet,) = [c for c in scatters(ax) if c.get_label() == "projections"]
    length = np.linalg.norm(feet.get_offsets()[0])
    assert length == pytest.approx(0.8 * 0.37 + 0.6 * 0.73)


def test_projection_figure_names_its_vector_and_draws_it_to_scale():
    # Fig. 2.1: the text is about u, so the arrow is labelled u, drawn at its
    # true length from the origin, and without a bias there is no boundary to
    # mark (the old figure had a meaningless "w.x + b = 0" legend entry).
    u = np.array([0.8, 0.6])
    ax = plot_projections(u, [[0.37, 0.73]], name="u")
    (arrow,) = quivers(ax)
    np.testing.assert_allclose([arrow.X[0], arrow.Y[0]], [0.0, 0.0])
    np.testing.assert_allclose([arrow.U[0], arrow.V[0]], u)
    assert [t.get_text() for t in ax.texts] == [r"$\mathbf{u}$"]
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert not any("b" in entry for entry in legend), legend
    assert inside_view(ax, np.array([u]))


def test_projection_arrow_is_to_scale_for_a_long_w_too():
    w = np.array([-2.0, 1.0])
    ax = plot_projections(w, X[:3], b=1.5)
    (arrow,) = quivers(ax)
    np.testing.assert_allclose([arrow.U[0], arrow.V[0]], w)
    assert inside_view(ax, np.array([w]))


def test_projections_reject_zero_w():
    with pytest.raises(ValueError, match="zero vector"):
        plot_projections([0, 0], X)


# -- plot_update ------------------------------------------------------------


def test_update_draws_both_boundaries_and_the_vector_sum():
    x, y = np.array([2.0, 3.0]), -1
    w_before, b_before = np.array([1.0, 3.0]), 0.5
    w_after, b_after = w_before + y * x, b_before + y
    ax = plot_update(x, y, w_before, b_before, w_after, b_after)
    before, after = ax.get_lines()
    assert before.get_linestyle() == "--" and after.get_linestyle() == "-"
    np.testing.assert_allclose(before.get_xydata() @ w_before + b_before, 0.0, atol=1e-9)
    np.testing.assert_allclose(after.get_xydata() @ w_after + b_after, 0.0, atol=1e-9)
    arrows = {q.get_label(): q for q in quivers(ax)}
    step = next(q for label, q in arrows.items() if label.startswith("step"))
    np.testing.assert_allclose([step.X[0], step.Y[0]], w_before)
    np.testing.assert_allclose([step.U[0], step.V[0]], y * x)
    example = [c for c in scatters(ax) if c.get_label().startswith("example")]
    np.testing.assert_allclose(example[0].get_offsets(), [x])
    assert inside_view(ax, [[0, 0], x, w_before, w_after])


def test_update_from_zero_says_there_was_no_boundary():
    ax = plot_update([1.0, 3.0], 1, [0.0, 0.0], 0.0, [1.0, 3.0], 1.0)
    assert len(ax.get_lines()) == 1
    assert any("w = 0" in t.get_text() for t in ax.texts)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (([1, 3], 0, [0, 0], 0, [1, 3], 1), "label -1 or \\+1"),
        (([1, 3], 1, [0, 0], 0, [3, 1], 1), "not a perceptron update"),
        (([1, 3], 1, [0, 0], 0, [-1, -3], -1), "not a perceptron update"),
        (([1, 3, 1], 1, [0, 0], 0, [1, 3], 1), "shape \\(2,\\)"),
    ],
)
def test_update_rejects_what_is_not_an_update(args, message):
    with pytest.raises(ValueError, match=message):
        plot_update(*args)


# -- plot_mistakes_per_epoch ------------------------------------------------


def test_mistakes_per_epoch_plots_counts_against_epochs_from_one():
    ax = plot_mistakes_per_epoch([5, 3, 1, 0], label="run")
    (line,) = ax.get_lines()
    np.testing.assert_array_equal(line.get_xdata(), [1, 2, 3, 4])
    np.testing.assert_array_equal(line.get_ydata(), [5, 3, 1, 0])
    assert ax.get_ylim()[0] == 0
    assert ax.get_legend().get_texts()[0].get_text() == "run"


def test_mistakes_per_epoch_reads_a_fitted_model():
    model = Perceptron(max_iter=10, random_state=0).fit(X, Y)
    (line,) = plot_mistakes_per_epoch(model).get_lines()
    np.testing.assert_array_equal(line.get_ydata(), model.mistakes_per_epoch_)


@pytest.mark.parametrize(
    ("counts", "message"),
    [
        (Perceptron(), "fit it first"),
        ([], "non-empty"),
        ([[1, 2]], "1-d"),
        ([1, -1], "non-negative"),
        ([1, np.nan], "finite"),
    ],
)
def test_mistakes_per_epoch_rejects_bad_counts(counts, message):
    with pytest.raises(ValueError, match=message):
        plot_mistakes_per_epoch(counts)


# -- plot_decision_regions --------------------------------------------------


def test_decision_regions_colour_the_grid_by_the_prediction():
    model = Perceptron(random_state=0).fit(X, Y)
    ax = plot_decision_regions(model, X, Y, resolution=30)
    (image,) = ax.get_images()
    regions = np.asarray(image.get_array())
    assert regions.shape == (30, 30)
    (x0, x1), (y0, y1) = ax.get_xlim(), ax.get_ylim()
    grid_x, grid_y = np.meshgrid(np.linspace(x0, x1, 30), np.linspace(y0, y1, 30))
    expected = model.predict(np.column_stack([grid_x.ravel(), grid_y.ravel()])) == 1
    np.testing.assert_array_equal(regions.ravel(), expected)
    assert 0 < regions.mean() < 1
    assert len(scatters(ax)) == 2  # the data on top


def test_decision_regions_accept_a_plain_function():
    ax = plot_decision_regions(lambda Z: (Z[:, 1] > 0).astype(int), X, Y, resolution=10)
    regions = np.asarray(ax.get_images()[0].get_array())
    assert regions[0].sum() == 0 and regions[-1].sum() == 10


@pytest.mark.parametrize(
    ("predict", "kwargs", "error", "message"),
    [
        ("not a model", {}, TypeError, "function or a fitted estimator"),
        (lambda Z: np.zeros(3), {}, ValueError, "one label per point"),
        (lambda Z: np.full(len(Z), 7), {}, ValueError, "labels 0/1 or -1/\\+1"),
        (lambda Z: np.zeros(len(Z)), {"resolution": 1}, ValueError, "resolution"),
    ],
)
def test_decision_regions_reject_bad_input(predict, kwargs, error, message):
    with pytest.raises(error, match=message):
        plot_decision_regions(predict, X, Y, **kwargs)


# -- plot_unit_truth_table --------------------------------------------------

GATE_WEIGHTS = {
    "and": ([1, 1], -1.5),
    "or": ([1, 1], -0.5),
    "nand": ([-1, -1], 1.5),
    "nor": ([-1, -1], 0.5),
}


@pytest.mark.parametrize("gate", GATE_WEIGHTS)
def test_hand_set_weights_compute_their_gate(gate):
    w, b = GATE_WEIGHTS[gate]
    ax = plot_unit_truth_table(w, b, target=gate)
    assert ax.get_title() == f"{gate.upper()}: 4 of 4 inputs right"
    assert not any(c.get_label().startswith("differs") for c in scatters(ax))


def test_no_line_computes_xor():
    for w1, w2, b in RNG.uniform(-2, 2, size=(25, 3)):
        ax = plot_unit_truth_table([w1, w2], b, target="XOR")
        (boxes,) = [c for c in scatters(ax) if c.get_label() == "differs from XOR"]
        assert len(boxes.get_offsets()) >= 1
        plt.close(ax.figure)


def test_unit_does_not_fire_exactly_at_the_threshold():
    # w1 x1 + w2 x2 = theta exactly on (0, 1) and (1, 0): like the estimators'
    # predict (activation > 0), the unit stays silent there.
    ax = plot_unit_truth_table([1, 1], -1.0, target=[0, 0, 0, 1])
    (fires,) = [c for c in scatters(ax) if c.get_label() == "fires, output +1"]
    assert sorted(map(tuple, fires.get_offsets())) == [(1, 1)]
    assert ax.get_title() == "target: 4 of 4 inputs right"


def test_truth_table_boxes_the_mismatches():
    ax = plot_unit_truth_table([1, 1], -0.5, target="and")  # computes OR
    (boxes,) = [c for c in scatters(ax) if c.get_label() == "differs from AND"]
    assert sorted(map(tuple, boxes.get_offsets())) == [(0, 1), (1, 0)]
    assert ax.get_title() == "AND: 2 of 4 inputs right"


def test_truth_table_with_zero_weights_says_the_output_is_constant():
    ax = plot_unit_truth_table([0, 0], 0.5)
    assert ax.get_lines() == []
    assert any("output is +1 for every input" in t.get_text() for t in ax.texts)


@pytest.mark.parametrize(
    ("target", "message"),
    [("xnor", "Unknown gate"), ([1, 0, 1], "4 outputs"), ([0, 1, 2, 1], "labels")],
)
def test_truth_table_rejects_unknown_targets(target, message):
    with pytest.raises(ValueError, match=message):
        plot_unit_truth_table([1, 1], -1.5, target=target)


def test_mistakes_per_epoch_second_run_is_not_clipped():
    ax = plot_mistakes_per_epoch([3, 1, 0])
    plot_mistakes_per_epoch([10, 8, 6, 0], ax=ax)
    bottom, top = ax.get_ylim()
    assert bottom == 0.0
    assert top >= 10
    plt.close(ax.figure)
