"""experiments.at_scale: Amdahl's law, mistake gaps, and what reordering a sum does."""

from __future__ import annotations

import numpy as np
import pytest

from perceptron_lib import Perceptron
from perceptron_lib.experiments.at_scale import (
    amdahl_speedup,
    decimal_data,
    epoch_mistake_positions,
    first_divergence,
    gaps_between_mistakes,
    lane_sum_perceptron_epoch,
    run_epochs,
)
from perceptron_lib.loops.plain import perceptron_epoch
from perceptron_lib.mixing import mixing_weights


def test_amdahl_limits():
    assert amdahl_speedup(1.0, 8) == pytest.approx(8.0)
    assert amdahl_speedup(0.0, 8) == pytest.approx(1.0)
    assert amdahl_speedup(0.95, 10**12) == pytest.approx(20.0)
    workers = np.arange(1, 50)
    assert np.all(np.diff(amdahl_speedup(0.8, workers)) > 0)  # more workers help...
    assert np.all(amdahl_speedup(0.8, workers) < 5.0)  # ...never past 1 / (1 - p)


@pytest.mark.parametrize(("p", "workers"), [(-0.1, 2), (1.5, 2), (0.5, 0), (np.nan, 2)])
def test_amdahl_rejects_impossible_arguments(p, workers):
    with pytest.raises(ValueError, match="parallel_fraction|n_workers"):
        amdahl_speedup(p, workers)


def test_run_epochs_is_the_estimators_run():
    X, y = decimal_data(60, 4, random_state=3)
    w, b, mistakes = run_epochs(X, y, 200)
    model = Perceptron(shuffle=False, max_iter=200).fit(X, y)
    assert np.array_equal(w, model.coef_) and b == model.intercept_
    assert [int(m.sum()) for m in mistakes] == model.mistakes_per_epoch_.tolist()


def test_epoch_mistake_positions_and_gaps_add_up():
    X, y = decimal_data(80, 3, random_state=1)
    positions = epoch_mistake_positions(X, y, 100)
    assert positions[-1].size == 0  # separable: the run ends with a clean epoch
    for where in positions:
        flags = np.zeros(80, dtype=bool)
        flags[where] = True
        gaps = gaps_between_mistakes(flags)
        assert gaps.size == where.size + 1 and gaps.sum() + where.size == 80


def test_lane_sum_changes_nothing_on_small_integers():
    # Sums of small integers are exact in any order, so the two runs cannot part.
    rng = np.random.default_rng(0)
    for _ in range(10):
        X = rng.integers(-9, 10, size=(50, 9)).astype(float)
        y = np.where(X @ rng.normal(size=9) > 0, 1, -1)
        sequential = run_epochs(X, y, 100)
        lanes = run_epochs(X, y, 100, epoch=lane_sum_perceptron_epoch)
        assert first_divergence(sequential[2], lanes[2]) is None
        assert np.array_equal(sequential[0], lanes[0])


def test_lane_sum_parts_from_the_sequential_run_on_decimal_data():
    X, y = decimal_data(200, 8, random_state=9)
    sequential = run_epochs(X, y, 100)
    lanes = run_epochs(X, y, 100, epoch=lane_sum_perceptron_epoch)
    step = first_divergence(sequential[2], lanes[2])
    assert step is not None
    assert not np.array_equal(sequential[0], lanes[0])


def test_lane_sum_compiled_and_python_agree():
    X, y = decimal_data(100, 6, random_state=2)
    y = y.astype(float)
    order = np.arange(100)
    runs = []
    for epoch in (lane_sum_perceptron_epoch, lane_sum_perceptron_epoch.py_func):
        w, mistakes = np.zeros(6), np.zeros(100, dtype=bool)
        b = epoch(X, y, order, w, 0.0, 1.0, True, mistakes)
        runs.append((w, b, mistakes))
    assert np.array_equal(runs[0][0], runs[1][0]) and runs[0][1] == runs[1][1]
    assert np.array_equal(runs[0][2], runs[1][2])


def test_lane_sum_equals_the_plain_loop_with_fewer_than_four_features():
    # With three features every product lands in lane 0: the plain loop's order.
    X, y = decimal_data(100, 3, random_state=4)
    a = run_epochs(X, y, 100)
    b = run_epochs(X, y, 100, epoch=lane_sum_perceptron_epoch)
    assert first_divergence(a[2], b[2]) is None
    assert np.array_equal(a[0], b[0])


def test_first_divergence_of_runs_of_different_length():
    a = [np.array([True, False])]
    b = [np.array([True, False]), np.array([False, False])]
    assert first_divergence(a, b) == 2


def test_run_epochs_rejects_bad_input():
    with pytest.raises(ValueError, match="labels -1 and \\+1"):
        run_epochs([[1.0], [2.0]], [0, 1], 5)
    with pytest.raises(ValueError, match="NaN"):
        run_epochs([[np.nan], [2.0]], [1, -1], 5)
    with pytest.raises(ValueError, match="max_epochs"):
        run_epochs([[1.0], [2.0]], [1, -1], 0)
    with pytest.raises(ValueError, match="2-d"):
        run_epochs([1.0, 2.0], [1, -1], 5)


def test_run_epochs_leaves_its_input_alone():
    X, y = decimal_data(30, 3, random_state=0)
    X_before, y_before = X.copy(), y.copy()
    run_epochs(X, y, 10)
    assert np.array_equal(X, X_before) and np.array_equal(y, y_before)


def test_plain_loop_reference_is_what_run_epochs_uses():
    X, y = decimal_data(40, 5, random_state=8)
    w, b, mistakes = run_epochs(X, y, 50, epoch=perceptron_epoch)
    assert np.array_equal(w, run_epochs(X, y, 50)[0])


def test_mixing_weights_add_up_to_one():
    for counts in ([1, 2, 3], [0, 0, 5], [4]):
        for mixing in ("uniform", "weighted"):
            assert mixing_weights(counts, mixing).sum() == pytest.approx(1.0)
