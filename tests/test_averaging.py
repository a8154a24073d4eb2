"""Voting and averaging taken apart: each slow form agrees with the estimators' fast one."""

from __future__ import annotations

import warnings

import matplotlib.pyplot as plt
import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning
from sklearn.preprocessing import StandardScaler

from perceptron_lib import (
    AveragedPerceptron,
    Perceptron,
    VotedPerceptron,
    load_breast_cancer_task,
    load_digits_pair,
    make_separable,
    training_trace,
)
from perceptron_lib.experiments.averaging import (
    VotingComparison,
    compare_last_voted_averaged,
    last_update,
    median_time,
    model_nbytes,
    naive_average,
    voting_snapshots,
)
from perceptron_lib.figures.animation import animation_html
from perceptron_lib.figures.voting import (
    animate_voting,
    plot_prediction_cost,
    plot_vote,
    plot_voting_comparison,
)
from perceptron_lib.theory.averaging import vote, weighted_sum
from perceptron_lib.widgets.voting import _voting_view, voting_explorer


def quietly(model, X, y):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return model.fit(X, y)


@pytest.fixture(scope="module")
def cancer():
    task = load_breast_cancer_task()
    return StandardScaler().fit_transform(task.X), task.y


def test_naive_average_is_algorithm_7_on_real_data(cancer):
    X, y = cancer
    for seed in range(3):
        model = AveragedPerceptron(random_state=seed, max_iter=4)
        averaged = quietly(model, X, y)
        w, b = naive_average(training_trace(model, X, y))
        scale = np.abs(w).max()
        assert np.abs(averaged.coef_ - w).max() <= 1e-12 * scale
        assert abs(averaged.intercept_ - b) <= 1e-12 * max(abs(b), 1.0)


def test_average_is_the_survival_weighted_sum_over_one_more_than_the_examples(cancer):
    X, y = cancer
    voted = quietly(VotedPerceptron(random_state=1, max_iter=3), X, y)
    averaged = quietly(AveragedPerceptron(random_state=1, max_iter=3), X, y)
    visited = voted.survival_counts_.sum()
    # w_0 = 0 is the one vector of the average that the vote does not store.
    expected = (voted.survival_counts_ @ voted.weights_) / (visited + 1)
    assert np.allclose(averaged.coef_, expected, rtol=1e-12, atol=1e-12)


def test_vote_is_the_voted_perceptrons_decision_function(cancer):
    X, y = cancer
    voted = quietly(VotedPerceptron(random_state=2, max_iter=3), X, y)
    scores = vote(voted.weights_, voted.intercepts_, voted.survival_counts_, X)
    assert np.array_equal(scores, voted.decision_function(X))


def test_a_zero_activation_votes_minus_one_in_both():
    weights, intercepts, counts = np.array([[1.0], [1.0]]), np.zeros(2), np.array([1, 1])
    assert vote(weights, intercepts, counts, [[0.0]]).tolist() == [-2.0]
    voted = VotedPerceptron(shuffle=False).fit([[1.0], [-1.0]], [1, -1])
    ties = voted.weights_ @ [0.0] + voted.intercepts_ == 0
    expected = np.where(ties, -1.0, np.where(voted.intercepts_ > 0, 1.0, -1.0))
    assert voted.decision_function([[0.0]])[0] == expected @ voted.survival_counts_


def test_weighted_sum_is_the_activation_of_the_weighted_vector():
    rng = np.random.default_rng(0)
    W, b, c, X = (
        rng.normal(size=(5, 3)),
        rng.normal(size=5),
        rng.integers(1, 9, 5),
        rng.normal(size=(7, 3)),
    )
    assert np.allclose(weighted_sum(W, b, c, X), X @ (c @ W) + c @ b)


@pytest.mark.parametrize(
    "args",
    [
        (np.zeros((0, 2)), [], [], [[1.0, 2.0]]),
        ([[1.0, 2.0]], [0.0, 1.0], [1], [[1.0, 2.0]]),
        ([[1.0, 2.0]], [0.0], [-1], [[1.0, 2.0]]),
        ([[1.0, 2.0]], [0.0], [1], [[1.0, 2.0, 3.0]]),
        ([[1.0, np.nan]], [0.0], [1], [[1.0, 2.0]]),
    ],
)
def test_vote_rejects_bad_input(args):
    with pytest.raises(ValueError):
        vote(*args)


def test_snapshots_match_a_voted_perceptron_fitted_for_that_many_passes():
    data = make_separable(30, margin=0.01, intercept=0.3, random_state=3)
    snaps = voting_snapshots(VotedPerceptron(random_state=5), data.X, data.y, 3)
    assert [s.passes for s in snaps] == [1, 2, 3]
    for s in snaps:
        fitted = quietly(VotedPerceptron(random_state=5, max_iter=s.passes), data.X, data.y)
        if fitted.n_iter_ == s.passes:
            assert np.array_equal(s.weights, fitted.weights_)
            assert np.array_equal(s.counts, fitted.survival_counts_)
        assert s.counts.sum() == s.passes * len(data.y)
    with pytest.raises(TypeError):
        voting_snapshots(Perceptron(), data.X, data.y, 2)
    with pytest.raises(ValueError):
        voting_snapshots(VotedPerceptron(), data.X, data.y, 0)


def test_last_update_is_the_last_mistake_of_the_trace():
    data = make_separable(30, margin=0.01, intercept=0.3, random_state=3)
    trace = training_trace(Perceptron(random_state=0), data.X, data.y)
    update = last_update(trace)
    assert trace.mistake[update.step] and not trace.mistake[update.step + 1 :].any()
    assert np.array_equal(update.weights_after, trace.weights[-1])
    step = data.y[update.index] * data.X[update.index]
    assert np.allclose(update.weights_after - update.weights_before, step)
    with pytest.raises(TypeError):
        last_update("not a trace")


def test_comparison_reproduces_each_estimator_and_is_deterministic():
    task = load_digits_pair(3, 8)
    result = compare_last_voted_averaged(task.X, task.y, max_passes=3, n_splits=2, label_noise=0.1)
    again = compare_last_voted_averaged(task.X, task.y, max_passes=3, n_splits=2, label_noise=0.1)
    for name in ("last", "voted", "averaged", "n_vectors"):
        assert np.array_equal(getattr(result, name), getattr(again, name))
    # Split 0 by hand: the same split, noise and seed, fitted for 3 passes.
    from sklearn.model_selection import train_test_split

    X_train, X_test, y_train, y_test = train_test_split(
        task.X, task.y, test_size=0.5, random_state=0, stratify=task.y
    )
    flip = np.random.default_rng(0).random(y_train.size) < 0.1
    y_noisy = np.where(flip, -y_train, y_train)
    for cls, name in ((VotedPerceptron, "voted"), (AveragedPerceptron, "averaged")):
        model = quietly(cls(random_state=0, max_iter=3), X_train, y_noisy)
        assert getattr(result, name)[0, -1] == np.mean(model.predict(X_test) != y_test)
    last = quietly(Perceptron(random_state=0, max_iter=3), X_train, y_noisy)
    assert result.last[0, -1] == np.mean(last.predict(X_test) != y_test)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"max_passes": 0},
        {"n_splits": 1.5},
        {"test_size": 0},
        {"label_noise": 0.5},
        {"test_size": True},
    ],
)
def test_comparison_rejects_bad_parameters(kwargs):
    task = load_digits_pair(3, 8)
    with pytest.raises(ValueError):
        compare_last_voted_averaged(task.X, task.y, **kwargs)


def test_model_nbytes_and_median_time():
    X, y = [[0.0, 1.0], [1.0, 0.0], [1.0, 1.0]], [0, 1, 1]
    voted = quietly(VotedPerceptron(max_iter=3, random_state=0), X, y)
    k = voted.weights_.shape[0]
    assert model_nbytes(voted) == k * (2 * 8 + 8 + 8)
    assert model_nbytes(Perceptron().fit(X, y)) == 24
    with pytest.raises(ValueError):
        model_nbytes(Perceptron())
    assert median_time(lambda: None, repeats=3, number=2) >= 0
    with pytest.raises(TypeError):
        median_time(42)
    with pytest.raises(ValueError):
        median_time(lambda: None, repeats=0)


def test_vote_figure_animation_and_explorer():
    data = make_separable(20, margin=0.05, intercept=0.2, random_state=1)
    snaps = voting_snapshots(VotedPerceptron(random_state=0), data.X, data.y, 3)
    ax = plot_vote(snaps[-1], data.X, data.y, [0.0, 0.0])
    n_lines = int(np.any(snaps[-1].weights != 0, axis=1).sum())
    assert len(ax.get_lines()) <= n_lines and ax.figure.get_facecolor()[:3] == (1.0, 1.0, 1.0)
    assert ax.get_title().startswith(f"pass 3, {len(snaps[-1].counts)} vectors")
    plt.close("all")
    html = animation_html(animate_voting(snaps, data.X, data.y, [0.0, 0.0]))
    assert html.count("data:image/png;base64") == 3
    table, fig = _voting_view(snaps, data.X, data.y, 2, (0.0, 0.0))
    assert table.splitlines()[-1].startswith("pass 2")
    plt.close(fig)
    with pytest.raises(ValueError):
        _voting_view(snaps, data.X, data.y, 4, (0.0, 0.0))
    explorer = voting_explorer(VotedPerceptron(random_state=0), data.X, data.y, n_passes=2)
    passes = explorer.children[0].children[0]
    image = explorer.children[1].children[0]
    before = image.value
    passes.value = 2
    assert image.value != before
    with pytest.raises(TypeError):
        plot_vote("not a snapshot", data.X, data.y, [0.0, 0.0])


def test_cost_and_comparison_figures_draw_their_data_and_refuse_bad_input():
    ax = plot_prediction_cost([10, 20], [0.001, 0.003], [0.0002, 0.0002])
    assert ax.get_lines()[0].get_ydata().tolist() == [1.0, 3.0]  # milliseconds
    plt.close("all")
    with pytest.raises(ValueError, match="vote times have shape"):
        plot_prediction_cost([10, 20], [0.001], [0.0002, 0.0002])
    errors = np.array([[0.2, 0.1], [0.4, 0.1]])
    result = VotingComparison(np.arange(1, 3), errors, errors / 2, errors / 4, np.ones(2, int))
    axes = plot_voting_comparison({"a": result, "b": result})
    assert axes.shape == (2,)
    # The mean over the splits, in percent, for each kind in turn.
    means = [line.get_ydata().tolist() for line in axes[0].get_lines()]
    assert np.allclose(means, [[30.0, 10.0], [15.0, 5.0], [7.5, 2.5]])
    plt.close("all")
    with pytest.raises(ValueError, match="empty"):
        plot_voting_comparison({})
    with pytest.raises(TypeError, match="VotingComparison"):
        plot_voting_comparison({"a": errors})
    with pytest.raises(ValueError, match="2 tasks need as many axes"):
        plot_voting_comparison({"a": result, "b": result}, axes=[plt.gca()])
    plt.close("all")
