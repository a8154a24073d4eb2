"""The convergence module: lifted quantities, the largest lifted margin, the proof on runs."""

from __future__ import annotations

import numpy as np
import pytest

from perceptron_lib import Perceptron, make_separable, mistake_bound, training_trace
from perceptron_lib.experiments.convergence import bound_experiment, proof_steps
from perceptron_lib.theory.convergence import (
    hadamard_example,
    lift,
    lifted_bound,
    lifted_margin,
    lifted_radius,
    max_lifted_margin,
)


def brute_force_lifted_margin(X, y):
    """Largest lifted margin of 1-d data: a search over all unit vectors (b, w) in the plane."""
    signed = y[:, None] * lift(X)
    low, high = 0.0, 2 * np.pi
    for _ in range(4):  # each round searches a finer grid around the best angle so far
        angles = np.linspace(low, high, 20_001)
        best = (signed @ np.array([np.cos(angles), np.sin(angles)])).min(axis=0)
        step = angles[1] - angles[0]
        low, high = angles[best.argmax()] - 2 * step, angles[best.argmax()] + 2 * step
    return best.max()


def test_lifted_bound_with_constant_one_is_the_theory_bound():
    data = make_separable(30, margin=0.1, intercept=0.3, random_state=0)
    ours = lifted_bound(data.coef, data.intercept, data.X, data.y)
    assert ours == pytest.approx(mistake_bound(data.X, data.y, data.coef, data.intercept))


def test_the_constant_changes_radius_margin_and_bound():
    data = make_separable(30, margin=0.1, intercept=0.3, random_state=0)
    radii = [lifted_radius(data.X, c) for c in (0.1, 1.0, 10.0)]
    margins = [lifted_margin(data.coef, data.intercept, data.X, data.y, c) for c in (0.1, 1, 10)]
    assert radii[0] < radii[1] < radii[2]
    assert margins[0] < margins[1] < margins[2] < data.margin  # the geometric margin
    assert lifted_margin(data.coef, 0.0, data.X, data.y, 0.1) == pytest.approx(
        lifted_margin(data.coef, 0.0, data.X, data.y, 10.0)
    )  # without a bias the constant does not matter for gamma


def test_non_separator_has_margin_minus_inf_and_no_bound():
    X, y = [[1.0], [-1.0]], [1, -1]
    assert lifted_margin([-1.0], 0.0, X, y) == -np.inf
    with pytest.raises(ValueError, match="does not separate"):
        lifted_bound([-1.0], 0.0, X, y)


@pytest.mark.parametrize("seed", range(5))
def test_max_lifted_margin_matches_a_brute_force_search(seed):
    rng = np.random.default_rng(seed)
    X = rng.uniform(-2, 2, size=(12, 1))
    y = np.where(X[:, 0] > np.median(X[:, 0]), 1, -1)  # both classes, separable
    result = max_lifted_margin(X, y)
    assert result.margin == pytest.approx(brute_force_lifted_margin(X, y), rel=1e-9)
    assert result.margin == pytest.approx(
        lifted_margin(result.coef, result.intercept, X, y), rel=1e-12
    )
    assert np.linalg.norm(result.unit_vector) == pytest.approx(1.0)


def test_max_lifted_margin_beats_the_planted_separator():
    data = make_separable(200, margin=0.02, n_features=5, random_state=1)
    best = max_lifted_margin(data.X, data.y)
    assert best.margin >= lifted_margin(data.coef, data.intercept, data.X, data.y)


def test_max_lifted_margin_rejects_xor():
    X = [[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]]
    with pytest.raises(ValueError, match="not linearly separable"):
        max_lifted_margin(X, [-1, 1, 1, -1])


@pytest.mark.parametrize("n", [2, 4, 8, 32])
def test_hadamard_example_reaches_the_bound_exactly(n):
    X, y = hadamard_example(n)
    assert lifted_radius(X) == pytest.approx(np.sqrt(n))
    assert max_lifted_margin(X, y).margin == pytest.approx(1.0)
    for shuffle in (False, True):
        model = Perceptron(shuffle=shuffle, random_state=0).fit(X, y)
        assert model.mistakes_per_epoch_.tolist() == [n, 0]


def test_hadamard_example_rejects_bad_sizes():
    with pytest.raises(ValueError, match="power of two"):
        hadamard_example(6)
    with pytest.raises(TypeError):
        hadamard_example(4.0)


@pytest.mark.parametrize("eta", [1.0, 0.5, 3.0])
def test_proof_inequalities_hold_at_every_update(eta):
    data = make_separable(60, margin=0.05, intercept=0.2, random_state=2)
    trace = training_trace(Perceptron(eta=eta, random_state=0), data.X, data.y)
    best = max_lifted_margin(data.X, data.y)
    steps = proof_steps(trace, data.X, best.unit_vector, eta=eta)
    assert steps.k.size == trace.n_mistakes > 1
    assert steps.gamma == pytest.approx(best.margin)
    slack = steps.smallest_slack()
    assert min(slack.values()) >= -1e-12, slack
    assert trace.n_mistakes <= (steps.radius / steps.gamma) ** 2


def test_proof_steps_detect_a_wrong_unit_vector():
    data = make_separable(20, margin=0.1, random_state=0)
    trace = training_trace(Perceptron(random_state=0), data.X, data.y)
    with pytest.raises(ValueError, match="length 1"):
        proof_steps(trace, data.X, [1.0, 1.0, 1.0])
    with pytest.raises(ValueError, match="does not separate"):
        proof_steps(trace, data.X, [0.0, *(-data.coef)])
    with pytest.raises(TypeError):
        proof_steps("trace", data.X, [1.0, 0.0, 0.0])


def test_bound_experiment_counts_below_the_bound():
    result = bound_experiment([0.2, 0.05, 0.02], n_samples=80, n_features=3)
    assert np.all(result.mistakes >= 1)
    assert np.all(result.mistakes <= result.bound)
    assert np.all(result.lifted_margin >= result.planted_margin * (1 - 1e-9))


def test_inputs_are_not_changed():
    X = np.array([[1.0, 2.0], [-1.0, 0.5]])
    before = X.copy()
    lift(X, 2.0)
    max_lifted_margin(X, [1, -1])
    assert np.array_equal(X, before)


@pytest.mark.parametrize("constant", [0.0, -1.0, np.inf, True, "1"])
def test_bad_constant_is_rejected(constant):
    with pytest.raises((ValueError, TypeError), match="constant"):
        lift([[1.0]], constant)


def test_bound_case_and_its_view():
    import matplotlib.pyplot as plt

    from perceptron_lib.experiments.convergence import bound_case
    from perceptron_lib.widgets.convergence import _bound_view, bound_explorer

    case = bound_case(0.1, 2.0, random_state=3)
    assert 1 <= case.mistakes <= case.bound
    assert case.lifted_radius == pytest.approx(np.sqrt(1 + 4.0))
    text, fig = _bound_view(0.1, 2.0, 3)
    assert f"{case.mistakes:8d}" in text and f"{case.bound:8.1f}" in text
    plt.close(fig)
    _, fig = _bound_view(5.0, 1.0, 0)  # a margin above the radius is clipped, not an error
    plt.close(fig)
    assert len(bound_explorer().children) == 2
    plt.close("all")


def test_convergence_plots():
    import matplotlib.pyplot as plt

    from perceptron_lib.figures.convergence import plot_bound_vs_mistakes, plot_proof_steps

    with pytest.raises(ValueError, match="positive"):
        plot_bound_vs_mistakes([1.0, 2.0], [0, 1])
    with pytest.raises(TypeError):
        plot_proof_steps("steps")
    X, y = hadamard_example(4)
    trace = training_trace(Perceptron(shuffle=False), X, y)
    axes = plot_proof_steps(proof_steps(trace, X, max_lifted_margin(X, y).unit_vector))
    assert axes[0].figure.get_facecolor() == (1.0, 1.0, 1.0, 1.0)
    plt.close("all")


def test_tau_boundaries_title_each_panel_with_the_margin_reached():
    import matplotlib.pyplot as plt

    from perceptron_lib.figures.convergence import plot_tau_boundaries
    from perceptron_lib.theory.geometry import margin
    from perceptron_lib.theory.separability import max_margin

    data = make_separable(20, margin=0.1, random_state=0)
    model = Perceptron(random_state=0).fit(data.X, data.y)
    widest = max_margin(data.X, data.y)
    axes = plot_tau_boundaries(data.X, data.y, {0.0: model, 1.0: model}, widest)
    reached = margin(model.coef_, model.intercept_, data.X, data.y)
    assert [ax.get_title() for ax in axes] == [
        f"tau = 0: margin {reached:.3f}",
        f"tau = 1: margin {reached:.3f}",
    ]
    assert all(ax.get_legend() is None for ax in axes)
    plt.close("all")
    with pytest.raises(ValueError, match="models is empty"):
        plot_tau_boundaries(data.X, data.y, {}, widest)
    with pytest.raises(ValueError, match="2 models need as many axes"):
        plot_tau_boundaries(data.X, data.y, {0.0: model, 1.0: model}, widest, axes=[plt.gca()])
    plt.close("all")
