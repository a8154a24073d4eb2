"""The mistake bound without separability: deviations, the best gamma, the theorem on runs."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning

from perceptron_lib import Perceptron, max_lifted_margin, training_trace
from perceptron_lib.experiments.nonseparable import candidate_directions, deviation_proof_steps
from perceptron_lib.theory.nonseparable import (
    best_deviation_bound,
    best_direction,
    deviation_bound,
    deviations,
)


def noisy_data(seed: int, n: int = 40, n_features: int = 3):
    """Two overlapping Gaussian clouds: not separable for these seeds (checked below)."""
    rng = np.random.default_rng(seed)
    y = np.where(rng.random(n) < 0.5, -1, 1)
    X = rng.normal(size=(n, n_features)) + 0.7 * y[:, None]
    return X, y


def random_unit(seed: int, size: int) -> np.ndarray:
    u = np.random.default_rng(seed).normal(size=size)
    return u / np.linalg.norm(u)


def plain_deviations(X, y, u, gamma):
    """The definition, one example at a time."""
    out = []
    for x, label in zip(X, y, strict=True):
        z = [1.0, *x]
        margin = label * sum(ui * zi for ui, zi in zip(u, z, strict=True))
        out.append(max(0.0, gamma - margin))
    return np.array(out)


def plain_bound(X, y, u, gamma, passes=1):
    zeta = plain_deviations(X, y, u, gamma)
    radius = max(np.sqrt(1.0 + sum(v * v for v in x)) for x in X)
    return ((radius + np.sqrt(passes * sum(z * z for z in zeta))) / gamma) ** 2


@pytest.mark.parametrize("seed", range(5))
def test_deviations_and_bound_match_the_definition(seed):
    X, y = noisy_data(seed)
    u = random_unit(seed + 100, X.shape[1] + 1)
    for gamma in (0.01, 0.3, 2.0):
        assert np.allclose(deviations(X, y, u, gamma), plain_deviations(X, y, u, gamma))
        result = deviation_bound(X, y, u, gamma)
        assert np.isclose(result.bound, plain_bound(X, y, u, gamma))
        assert result.gamma == gamma


def test_passes_are_one_pass_over_the_repeated_sequence():
    X, y = noisy_data(1)
    u = random_unit(2, X.shape[1] + 1)
    repeated = deviation_bound(np.tile(X, (7, 1)), np.tile(y, 7), u, 0.5)
    assert np.isclose(deviation_bound(X, y, u, 0.5, passes=7).bound, repeated.bound)
    assert np.isclose(
        deviation_bound(X, y, u, 0.5, passes=7).deviation_norm,
        np.sqrt(7) * deviation_bound(X, y, u, 0.5).deviation_norm,
    )


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("passes", [1, 5])
def test_best_gamma_is_the_minimum_of_a_dense_grid(seed, passes):
    X, y = noisy_data(seed)
    # Near the class-mean direction, so that most margins are positive and the
    # minimum is inside (for seed 0 it is the limit gamma -> inf instead).
    u = np.r_[0.0, (y[:, None] * X).mean(axis=0)] + 0.3 * random_unit(seed + 10, X.shape[1] + 1)
    u = u / np.linalg.norm(u) if seed else random_unit(10, X.shape[1] + 1)
    best = best_deviation_bound(X, y, u, passes=passes)
    # The grid is computed here, vectorised, from the definition (not with the library).
    grid = np.geomspace(1e-3, 1e3, 200_001)
    Z = np.c_[np.ones(X.shape[0]), X]
    margins = y * (Z @ u)
    squares = np.zeros_like(grid)
    for m in margins:
        squares += np.maximum(0.0, grid - m) ** 2
    radius = np.linalg.norm(Z, axis=1).max()
    smallest = (((radius + np.sqrt(passes * squares)) / grid) ** 2).min()
    if np.isinf(best.gamma):  # the infimum is the limit gamma -> inf
        assert best.bound == passes * X.shape[0]
        assert smallest >= best.bound * (1 - 1e-9)
        return
    assert best.bound <= smallest * (1 + 1e-12)  # exact: never above a grid point
    assert smallest <= best.bound * (1 + 1e-6)  # and the grid comes close to it
    assert np.isclose(best.bound, plain_bound(X, y, u, best.gamma, passes))
    neighbours = [plain_bound(X, y, u, best.gamma * f, passes) for f in (0.999, 1.001)]
    assert min(neighbours) >= best.bound * (1 - 1e-12)


def test_a_direction_with_good_margins_has_its_minimum_inside():
    X, y = noisy_data(3, n=60)
    best = best_deviation_bound(X, y, candidate_directions(X, y)["linear SVM, C = 1"])
    assert np.isfinite(best.gamma) and best.bound < X.shape[0]


def test_contradictory_pair_reaches_the_bound_only_in_the_limit():
    X, y = np.array([[1.0], [1.0]]), np.array([1, -1])
    u = np.array([1.0, -1.0]) / np.sqrt(2)  # orthogonal to (1, 1): every margin is 0
    for passes in (1, 3, 10):
        best = best_deviation_bound(X, y, u, passes=passes)
        assert best.bound == 2 * passes and best.gamma == np.inf
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            model = Perceptron(shuffle=False, max_iter=passes).fit(X, y)
        assert model.mistakes_per_epoch_.sum() == 2 * passes
        assert deviation_bound(X, y, u, 1e6, passes=passes).bound > 2 * passes


def test_separable_case_is_the_convergence_theorem():
    X = np.array([[1.0, 1.0], [0.5, 3.0], [2.0, 2.0]])
    y = np.array([1, 1, -1])
    best = max_lifted_margin(X, y)
    result = deviation_bound(X, y, best.unit_vector, best.margin)
    radius = np.max(np.linalg.norm(np.c_[np.ones(3), X], axis=1))
    assert result.deviation_norm == 0.0
    assert np.isclose(result.bound, (radius / best.margin) ** 2)


@pytest.mark.parametrize("seed", range(4))
def test_the_theorem_holds_on_runs_and_every_step_of_its_proof(seed):
    X, y = noisy_data(seed, n=50)
    directions = candidate_directions(X, y, random_state=seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        model = Perceptron(random_state=seed, max_iter=8, eta=0.3)
        trace = training_trace(model, X, y)
    for u in [*directions.values(), random_unit(seed, X.shape[1] + 1)]:
        for gamma in (0.05, 0.5, 3.0):
            steps = deviation_proof_steps(trace, X, u, gamma, eta=0.3)
            k = steps.k
            tolerance = 1e-9 * (1 + k)
            assert np.all(steps.alignment >= k * gamma - steps.deviation_sum - tolerance)
            assert np.all(steps.deviation_sum <= np.sqrt(k) * steps.mistake_deviation_norm + 1e-9)
            assert np.all(steps.mistake_deviation_norm <= steps.sequence_deviation_norm + 1e-9)
            assert np.all(steps.squared_norm <= k * steps.radius**2 * (1 + 1e-12))
            result = deviation_bound(X, y, u, gamma, passes=8)
            assert np.isclose(steps.sequence_deviation_norm, result.deviation_norm)
            assert trace.n_mistakes <= result.bound


def test_best_direction_picks_the_smallest_bound():
    X, y = noisy_data(4)
    directions = {"a": random_unit(1, 4) * 3.0, "b": random_unit(2, 4), "c": random_unit(3, 4)}
    name, result = best_direction(X, y, directions)
    bounds = {
        key: best_deviation_bound(X, y, v / np.linalg.norm(v)).bound
        for key, v in directions.items()
    }
    assert result.bound == min(bounds.values()) and bounds[name] == result.bound


@pytest.mark.parametrize(
    ("u", "gamma", "error", "words"),
    [
        ([0.0, 0.0], 1.0, ValueError, "zero"),
        ([np.nan, 1.0], 1.0, ValueError, "NaN"),
        ([0.0, np.inf], 1.0, ValueError, "NaN or infinity"),
        ([0.0, 2.0], 1.0, ValueError, "length 1"),
        ([0.0, 1.0, 0.0], 1.0, ValueError, "weights"),
        ([0.0, 1.0], 0.0, ValueError, "gamma"),
        ([0.0, 1.0], -1.0, ValueError, "gamma"),
        ([0.0, 1.0], np.inf, ValueError, "gamma"),
        ([0.0, 1.0], True, TypeError, "gamma"),
        ([0.0, 1.0], "1", TypeError, "gamma"),
    ],
)
def test_bad_input_gets_a_clear_error(u, gamma, error, words):
    with pytest.raises(error, match=words):
        deviation_bound([[1.0], [2.0]], [1, -1], u, gamma)


def test_labels_shapes_and_passes_are_checked():
    with pytest.raises(ValueError, match="labels must be -1 or \\+1"):
        deviations([[1.0], [2.0]], [0, 1], [0.0, 1.0], 1.0)
    with pytest.raises(ValueError, match="inconsistent lengths"):
        deviations([[1.0], [2.0]], [1], [0.0, 1.0], 1.0)
    with pytest.raises(ValueError, match="2-d"):
        deviations([1.0, 2.0], [1, -1], [0.0, 1.0], 1.0)
    with pytest.raises(ValueError, match="passes"):
        best_deviation_bound([[1.0], [2.0]], [1, -1], [0.0, 1.0], passes=0)
    with pytest.raises(TypeError, match="mapping"):
        best_direction([[1.0], [2.0]], [1, -1], {})
    with pytest.raises(ValueError, match="zero"):
        best_direction([[1.0], [2.0]], [1, -1], {"none": [0.0, 0.0]})


def test_no_argument_is_changed():
    X, y = noisy_data(0)
    u = random_unit(0, 4)
    copies = (X.copy(), y.copy(), u.copy())
    deviation_bound(X, y, u, 0.5, passes=3)
    best_deviation_bound(X, y, u)
    best_direction(X, y, {"u": u})
    for before, after in zip(copies, (X, y, u), strict=True):
        assert np.array_equal(before, after)
