"""The joint multiclass perceptron, its loops, its trace and Kesler's construction."""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
import warnings

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from scipy import sparse
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import Perceptron as SklearnPerceptron

from perceptron_lib import (
    MulticlassPerceptron,
    MulticlassTrace,
    Perceptron,
    is_linearly_separable,
    kesler_flatten,
    kesler_lift,
    kesler_radius,
    multiclass_margin,
    multiclass_mistake_bound,
    training_trace,
)
from perceptron_lib.loops import multiclass as loops
from perceptron_lib.loops.jit import JIT_AVAILABLE
from perceptron_lib.loops.plain import perceptron_epoch as binary_epoch


def quietly(method, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return method(*args, **kwargs)


def blobs(n=60, n_classes=3, n_features=4, seed=0, integer=False, spread=1.0):
    """Examples around random centres; integer coordinates if asked (exact scores)."""
    rng = np.random.default_rng(seed)
    centres = rng.normal(scale=3.0, size=(n_classes, n_features))
    y = rng.integers(n_classes, size=n)
    X = centres[y] + rng.normal(scale=spread, size=(n, n_features))
    if integer:
        X = np.round(X)
    return X, y


# Three groups along a line: no threshold cuts the middle group off from the other two.
LINE_X = np.array([[-3.0], [-2.0], [-0.5], [0.5], [2.0], [3.0]])
LINE_Y = np.array([0, 0, 1, 1, 2, 2])


# -- an independent reference: lists of floats and Python loops -------------------


def reference_run(X, y, n_classes, orders, eta=1.0, fit_intercept=True):
    """The multiclass perceptron from its description, recording every weight matrix.

    Returns the final (W, b), the mistakes of each epoch, and the list of every
    (W, b) before the first example and after each example (for the average).
    """
    n_features = len(X[0])
    W = [[0.0] * n_features for _ in range(n_classes)]
    b = [0.0] * n_classes
    history = [([row[:] for row in W], b[:])]
    per_epoch = []
    for order in orders:
        mistakes = 0
        for i in order:
            scores = []
            for k in range(n_classes):
                total = 0.0
                for d in range(n_features):
                    total += W[k][d] * X[i][d]
                scores.append(total + b[k])
            c = y[i]
            others = [k for k in range(n_classes) if k != c]
            rival = max(others, key=lambda k: (scores[k], -k))  # first of the highest
            if scores[rival] >= scores[c]:
                mistakes += 1
                W[c] = [w + eta * x for w, x in zip(W[c], X[i], strict=True)]
                W[rival] = [w - eta * x for w, x in zip(W[rival], X[i], strict=True)]
                if fit_intercept:
                    b[c] += eta
                    b[rival] -= eta
            history.append(([row[:] for row in W], b[:]))
        per_epoch.append(mistakes)
        if mistakes == 0:
            break
    return np.array(W), np.array(b), per_epoch, history


def orders_of(model, n_samples, n_epochs):
    """The orders ``fit`` visits: as given, or one permutation per epoch from its seed."""
    if not model.shuffle:
        return [list(range(n_samples))] * n_epochs
    rng = np.random.RandomState(model.random_state)
    return [rng.permutation(n_samples).tolist() for _ in range(n_epochs)]


@pytest.mark.parametrize(
    "params",
    [
        {"shuffle": False},
        {"shuffle": True, "random_state": 3},
        {"shuffle": True, "random_state": 4, "eta": 0.3, "fit_intercept": False},
    ],
)
@pytest.mark.parametrize("n_classes", [2, 3, 5])
def test_the_weights_are_those_of_a_plain_reference_loop(params, n_classes):
    X, y = blobs(n=50, n_classes=n_classes, seed=n_classes, spread=2.0)
    model = quietly(MulticlassPerceptron(max_iter=12, **params).fit, X, y)
    orders = orders_of(model, len(y), 12)
    W, b, per_epoch, _ = reference_run(
        X.tolist(),
        y.tolist(),
        n_classes,
        orders,
        eta=params.get("eta", 1.0),
        fit_intercept=params.get("fit_intercept", True),
    )
    assert_array_equal(model.coef_, W)  # bit for bit: the same sums in the same order
    assert_array_equal(model.intercept_, b)
    assert model.mistakes_per_epoch_.tolist() == per_epoch
    assert model.converged_ == (per_epoch[-1] == 0)


@pytest.mark.parametrize("shuffle", [False, True])
def test_the_average_is_the_mean_of_every_weight_matrix_of_the_run(shuffle):
    X, y = blobs(n=40, n_classes=4, seed=1, spread=2.5)
    averaged = quietly(
        MulticlassPerceptron(average=True, shuffle=shuffle, random_state=0, max_iter=6).fit, X, y
    )
    last = quietly(MulticlassPerceptron(shuffle=shuffle, random_state=0, max_iter=6).fit, X, y)
    _, _, _, history = reference_run(
        X.tolist(), y.tolist(), 4, orders_of(averaged, len(y), averaged.n_iter_)
    )
    assert_allclose(averaged.coef_, np.mean([W for W, _ in history], axis=0), rtol=1e-12)
    assert_allclose(averaged.intercept_, np.mean([b for _, b in history], axis=0), atol=1e-12)
    # Training is unchanged: the current weights are the plain model's.
    assert_array_equal(averaged.last_coef_, last.coef_)
    assert_array_equal(averaged.last_intercept_, last.intercept_)
    assert_array_equal(averaged.mistakes_per_epoch_, last.mistakes_per_epoch_)
    assert not hasattr(last, "last_coef_")


@pytest.mark.skipif(not JIT_AVAILABLE, reason="without numba the loop is its Python source")
def test_the_compiled_loop_and_its_python_source_give_the_same_weights():
    X, y = blobs(n=80, n_classes=4, seed=2, spread=2.0)
    order = np.random.default_rng(0).permutation(len(y))
    results = []
    for epoch in (loops.multiclass_epoch, loops.multiclass_epoch.py_func):
        W, B, Q, beta = np.zeros((4, 4)), np.zeros(4), np.zeros((4, 4)), np.zeros(4)
        mistakes, rivals = np.zeros(len(y), bool), np.zeros(len(y), np.intp)
        steps = np.empty((len(y), 4, 6))
        for _ in range(3):
            j = epoch(X, y, order, W, B, 0.5, True, mistakes, rivals, Q, beta, 1.0, steps)
        results.append((W, B, Q, beta, j, mistakes, rivals, steps))
    for compiled, python in zip(*results, strict=True):
        assert_array_equal(compiled, python)


def test_without_numba_the_estimator_gives_the_same_weights(tmp_path):
    """Every loop as plain Python (NUMBA_DISABLE_JIT=1, a fresh interpreter): dense,
    sparse, averaged."""
    X, y = blobs(n=80, n_classes=4, seed=3, spread=2.0)
    X[np.abs(X) < 1.0] = 0.0
    np.save(tmp_path / "X.npy", X)
    np.save(tmp_path / "y.npy", y)
    script = (
        "import numpy as np, warnings\n"
        "from scipy import sparse\n"
        "from perceptron_lib import MulticlassPerceptron\n"
        "warnings.simplefilter('ignore')\n"
        f"X = np.load({str(tmp_path / 'X.npy')!r}); y = np.load({str(tmp_path / 'y.npy')!r})\n"
        "out = []\n"
        "for data in (X, sparse.csr_matrix(X)):\n"
        "    m = MulticlassPerceptron(random_state=0, max_iter=4, average=True).fit(data, y)\n"
        "    out += [m.coef_, m.last_coef_, m.intercept_[:, None], m.last_intercept_[:, None]]\n"
        f"np.save({str(tmp_path / 'out.npy')!r}, np.hstack(out))\n"
    )
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    subprocess.run([sys.executable, "-c", script], check=True, env=env)
    compiled = []
    for data in (X, sparse.csr_matrix(X)):
        m = quietly(MulticlassPerceptron(random_state=0, max_iter=4, average=True).fit, data, y)
        compiled += [m.coef_, m.last_coef_, m.intercept_[:, None], m.last_intercept_[:, None]]
    assert_array_equal(np.load(tmp_path / "out.npy"), np.hstack(compiled))


# -- the rule at ties ---------------------------------------------------------------


def test_the_rival_is_the_first_of_the_highest_other_scores():
    scores = np.array([1.0, 3.0, 3.0, 0.0])
    assert loops.rival_class(scores, 0) == 1
    assert loops.rival_class(scores, 1) == 2  # the tie partner of class 1
    assert loops.rival_class(scores, 3) == 1
    assert loops.rival_class(np.zeros(3), 0) == 1
    assert loops.rival_class(np.zeros(3), 2) == 0


def test_a_tie_with_the_rival_is_a_mistake_and_starts_learning_from_zero():
    # From zero every score ties: the first example (x = -3, class 0) is a mistake,
    # its rival the first other class, 1.
    trace = training_trace(MulticlassPerceptron(shuffle=False, max_iter=1), LINE_X, LINE_Y)
    assert trace.mistake[0] and trace.rival[0] == 1
    assert_array_equal(trace.weights[0], [[-3.0], [3.0], [0.0]])
    assert_array_equal(trace.bias[0], [1.0, -1.0, 0.0])
    # A tie of the true class with the rival is a mistake even though argmax
    # would predict the true class (the lower index): the training rule is stricter.
    X, y = np.array([[1.0], [1.0]]), np.array([0, 1])
    W, B = np.zeros((2, 1)), np.zeros(2)
    mistakes, rivals = np.zeros(1, bool), np.zeros(1, np.intp)
    loops.multiclass_epoch(X, y, np.array([0]), W, B, 1.0, True, mistakes, rivals)
    assert mistakes[0]


def test_prediction_ties_go_to_the_first_class():
    model = MulticlassPerceptron(shuffle=False, max_iter=1)
    quietly(model.fit, LINE_X, np.array(["c", "b", "a", "a", "b", "c"]))
    model.coef_ = np.zeros((3, 1))
    model.intercept_ = np.array([0.0, 1.0, 1.0])
    assert model.predict([[5.0]]).tolist() == ["b"]  # classes_ is a, b, c


# -- two classes: the binary perceptron with eta doubled ----------------------------


@pytest.mark.parametrize("params", [{"shuffle": False}, {"shuffle": True, "random_state": 7}])
@pytest.mark.parametrize("integer", [True, False], ids=["integer data", "float data"])
@pytest.mark.parametrize("eta", [1.0, 0.3])
def test_two_classes_follow_the_binary_perceptron_with_eta_doubled(params, integer, eta):
    # On integer data every score is exact and ties (a = 0) happen; on float data the
    # run is still the same bit for bit: w_0 stays exactly -w_1, so s_0 = -s_1, and
    # doubling is exact.
    X, y = blobs(n=60, n_classes=2, seed=5, integer=integer, spread=3.0)
    joint = quietly(MulticlassPerceptron(eta=eta, max_iter=20, **params).fit, X, y)
    binary = quietly(Perceptron(eta=2 * eta, max_iter=20, **params).fit, X, y)
    assert joint.mistakes_per_epoch_.sum() > 10  # not a trivial run
    assert_array_equal(joint.mistakes_per_epoch_, binary.mistakes_per_epoch_)
    assert_array_equal(joint.coef_[0], -joint.coef_[1])
    assert_array_equal(joint.coef_[1] - joint.coef_[0], binary.coef_)
    assert joint.intercept_[1] - joint.intercept_[0] == binary.intercept_
    if integer and eta == 1.0:  # prediction goes through BLAS: exact on integer weights only
        assert_array_equal(joint.decision_function(X), binary.decision_function(X))
        assert_array_equal(joint.predict(X), binary.predict(X))


# -- one-vs-rest must err where the joint model does not ----------------------------


def test_three_groups_on_a_line_one_vs_rest_errs_the_joint_model_converges():
    middle = LINE_Y == 1
    # No threshold separates the middle group from the rest: every linear
    # one-vs-rest model of the middle class errs on some training example.
    assert not is_linearly_separable(LINE_X, np.where(middle, 1, -1))
    ovr = quietly(Perceptron(shuffle=False, max_iter=100).fit, LINE_X, LINE_Y)
    middle_model = ovr.estimators_[1]
    assert not middle_model.converged_
    assert (middle_model.predict(LINE_X) == 1).tolist() != middle.tolist()
    # The argmax of the three one-vs-rest scores is a linear machine too, so it is not
    # bound to err: here scikit-learn's errs, while ours happens to classify all six.
    sklearn_ovr = quietly(SklearnPerceptron(shuffle=False, max_iter=100).fit, LINE_X, LINE_Y)
    assert sklearn_ovr.score(LINE_X, LINE_Y) < 1.0
    assert ovr.score(LINE_X, LINE_Y) == 1.0
    joint = MulticlassPerceptron(shuffle=False).fit(LINE_X, LINE_Y)
    assert joint.converged_ and joint.mistakes_per_epoch_[-1] == 0
    assert joint.score(LINE_X, LINE_Y) == 1.0
    for seed in range(5):
        shuffled = MulticlassPerceptron(random_state=seed).fit(LINE_X, LINE_Y)
        assert shuffled.converged_ and shuffled.score(LINE_X, LINE_Y) == 1.0


# -- Kesler's construction ---------------------------------------------------------


def lifted(X):
    return np.hstack([np.ones((len(X), 1)), X])


def flattened_weights(model):
    """The model's (b_k, w_k) rows end to end: the lifted weights of Kesler's space."""
    return kesler_flatten(np.hstack([model.intercept_[:, None], model.coef_]))


def test_kesler_lift_puts_plus_z_at_the_class_and_minus_z_at_each_other():
    z = np.array([1.0, 2.0, -1.0])
    phi = kesler_lift(z, 2, 4)
    assert phi.shape == (3, 12)
    for r, other in enumerate([0, 1, 3]):
        expected = np.zeros((4, 3))
        expected[2], expected[other] = z, -z
        assert_array_equal(phi[r], expected.ravel())
    W = np.arange(12.0).reshape(4, 3) - 5.0
    activations = phi @ kesler_flatten(W)
    assert_array_equal(activations, [W[2] @ z - W[k] @ z for k in (0, 1, 3)])
    many = kesler_lift(np.vstack([z, -z]), [2, 0], 4)
    assert_array_equal(many[0], phi)
    assert_array_equal(many[1], kesler_lift(-z, 0, 4))


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_multiclass_run_is_the_binary_perceptron_on_the_rivals_kesler_vectors(seed):
    # Integer data and eta a power of two: every score and activation is exact.
    X, y = blobs(n=40, n_classes=4, seed=seed, integer=True, spread=2.0)
    model = MulticlassPerceptron(random_state=seed, max_iter=8, eta=0.5)
    trace = quietly(training_trace, model, X, y)
    fitted = quietly(model.fit, X, y)
    assert trace.n_mistakes > 10
    # The binary perceptron (no bias, from zero, the same eta) shown, at step t, the
    # Kesler vector of example index[t] against its rival class rival[t] ...
    Z = lifted(X)
    position = trace.rival - (trace.rival > trace.labels[trace.index])  # among the others
    sequence = np.array(
        [
            kesler_lift(Z[i], trace.labels[i], 4)[r]
            for i, r in zip(trace.index, position, strict=True)
        ]
    )
    v = np.zeros(sequence.shape[1])
    mistakes = np.zeros(len(sequence), bool)
    order = np.arange(len(sequence))
    binary_epoch(sequence, np.ones(len(sequence)), order, v, 0.0, 0.5, False, mistakes)
    # ... makes the same mistakes at the same steps and ends with the same weights.
    assert_array_equal(mistakes, trace.mistake)
    assert_array_equal(v, flattened_weights(fitted))
    # The rival's Kesler vector is the one of smallest activation: the binary
    # perceptron that picks, for each example, its worst Kesler vector (the first on a tie).
    v = np.zeros(sequence.shape[1])
    picked_mistakes = []
    for i in trace.index:
        phi = kesler_lift(Z[i], trace.labels[i], 4)
        worst = phi[np.argmin(phi @ v)]
        picked_mistakes.append(bool(v @ worst <= 0))
        if picked_mistakes[-1]:
            v = v + 0.5 * worst
    assert picked_mistakes == trace.mistake.tolist()
    assert_array_equal(v, flattened_weights(fitted))


def rival_sequence_run(X, y, n_classes, eta, seed):
    """The multiclass run's mistakes, and the binary perceptron's on its rivals' Kesler vectors."""
    model = MulticlassPerceptron(random_state=seed, max_iter=10, eta=eta)
    trace = quietly(training_trace, model, X, y)
    Z = lifted(X)
    position = trace.rival - (trace.rival > trace.labels[trace.index])
    sequence = np.array(
        [
            kesler_lift(Z[i], trace.labels[i], n_classes)[r]
            for i, r in zip(trace.index, position, strict=True)
        ]
    )
    v, mistakes = np.zeros(sequence.shape[1]), np.zeros(len(sequence), bool)
    binary_epoch(
        sequence, np.ones(len(sequence)), np.arange(len(sequence)), v, 0.0, eta, False, mistakes
    )
    return trace.mistake, mistakes


def test_with_inexact_scores_the_two_runs_can_part_at_a_near_tie():
    # 0/1 features and eta = 0.1: scores are rounded, and the multiclass loop
    # (two scores compared) and the binary one (their difference in one sum) can
    # decide a near-tie differently. The docstring's condition is needed.
    parted = 0
    for seed in range(6):
        rng = np.random.default_rng(seed)
        X = rng.integers(0, 2, size=(80, 5)).astype(float)
        y = rng.integers(0, 4, size=80)
        multiclass, binary = rival_sequence_run(X, y, 4, 0.1, seed)
        parted += not np.array_equal(multiclass, binary)
        # With eta = 0.5 the same data give exact scores, and the runs agree.
        assert_array_equal(*rival_sequence_run(X, y, 4, 0.5, seed))
    assert parted > 0


def test_the_factor_sqrt2_in_the_radius_is_needed():
    X, y = np.array([[-1.0], [1.0], [1.0]]), np.array([0, 1, 1])
    W = np.array([[0.0, -3.0], [1.0, 3.0]])  # rows (b_k, w_k)
    Z = lifted(X)
    gamma = multiclass_margin(W, Z, y)
    model = quietly(MulticlassPerceptron(shuffle=False, max_iter=20).fit, X, y)
    mistakes = model.mistakes_per_epoch_.sum()
    assert model.converged_ and mistakes == 2
    assert (np.linalg.norm(Z, axis=1).max() / gamma) ** 2 == pytest.approx(1.52)
    assert multiclass_mistake_bound(W, Z, y) == pytest.approx(3.04)
    assert (np.linalg.norm(Z, axis=1).max() / gamma) ** 2 < mistakes <= 3.04


@pytest.mark.parametrize("w_scale", [1.0, 1e160, 1e-170])
@pytest.mark.parametrize("z_scale", [1.0, 1e160, 1e-160, 1e-170])
def test_margin_radius_and_bound_hold_at_any_scale(w_scale, z_scale):
    W = np.array([[0.0, -1.0], [0.0, 1.0]])
    Z = np.array([[1.0, -2.0], [1.0, 3.0]])
    y = [0, 1]
    assert multiclass_margin(W * w_scale, Z * z_scale, y) / z_scale == pytest.approx(
        4 / np.sqrt(2), rel=1e-14
    )
    assert kesler_radius(Z * z_scale) / z_scale == pytest.approx(np.sqrt(20), rel=1e-14)
    assert multiclass_mistake_bound(W * w_scale, Z * z_scale, y) == pytest.approx(2.5, rel=1e-14)


def test_showing_every_kesler_vector_in_turn_is_another_algorithm():
    # The equivalence needs the rival's vector: cycling through all of an example's
    # Kesler vectors makes more updates and ends elsewhere.
    Z, y = lifted(LINE_X), LINE_Y
    model = MulticlassPerceptron(shuffle=False, max_iter=1)
    quietly(model.fit, LINE_X, y)
    every = np.vstack([kesler_lift(Z[i], y[i], 3) for i in range(len(y))])
    v, mistakes = np.zeros(every.shape[1]), np.zeros(len(every), bool)
    binary_epoch(every, np.ones(len(every)), np.arange(len(every)), v, 0.0, 1.0, False, mistakes)
    assert mistakes.sum() != model.mistakes_per_epoch_[0]
    assert not np.array_equal(v, flattened_weights(model))


def test_kesler_radius_and_margin_are_those_of_the_kesler_vectors():
    X, y, separator = separable_three_classes(0)
    Z = lifted(X)
    phi = kesler_lift(Z, y, 3).reshape(-1, 3 * Z.shape[1])  # every example's two vectors
    assert_allclose(kesler_radius(Z), np.linalg.norm(phi, axis=1).max(), rtol=1e-15)
    other = np.random.default_rng(0).normal(size=separator.shape)
    for W in (separator, other):
        v = kesler_flatten(W)
        gaps = phi @ v / np.linalg.norm(v)
        expected = gaps.min() if gaps.min() > 0 else -np.inf
        assert multiclass_margin(W, Z, y) == pytest.approx(expected, rel=1e-12)
    assert multiclass_margin(separator, Z, y) > 0 and multiclass_margin(other, Z, y) == -np.inf


def separable_three_classes(seed):
    """Points near three centres, kept only if the nearest-centre rule has a margin."""
    rng = np.random.default_rng(seed)
    centres = np.array([[0.0, 0.0], [4.0, 0.0], [0.0, 4.0]])
    y = rng.integers(3, size=200)
    X = centres[y] + rng.uniform(-1.2, 1.2, size=(200, 2))
    # Nearest centre as a linear rule on z = (1, x): W[k] = (-|c_k|^2 / 2, c_k).
    W = np.hstack([-0.5 * (centres**2).sum(axis=1, keepdims=True), centres])
    scores = lifted(X) @ W.T
    keep = np.argmax(scores, axis=1) == y
    return X[keep], y[keep], W


@pytest.mark.parametrize("seed", range(4))
def test_mistakes_stay_below_the_multiclass_bound(seed):
    X, y, W = separable_three_classes(seed)
    bound = multiclass_mistake_bound(W, lifted(X), y)
    assert multiclass_margin(W, lifted(X), y) > 0
    for eta in (1.0, 0.25):
        model = MulticlassPerceptron(random_state=seed, eta=eta).fit(X, y)
        assert model.converged_
        assert 0 < model.mistakes_per_epoch_.sum() <= bound


def test_a_weight_matrix_that_does_not_separate_certifies_no_bound():
    W = np.array([[0.0, 1.0], [0.0, 1.0]])  # equal rows: every score ties
    assert multiclass_margin(W, [[1.0, 2.0]], [0]) == -np.inf
    with pytest.raises(ValueError, match="does not separate"):
        multiclass_mistake_bound(W, [[1.0, 2.0]], [0])


@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda: kesler_lift([1.0], 0, 1), ValueError, "at least 2"),
        (lambda: kesler_lift(1.0, 0, 2), ValueError, "1-D"),
        (lambda: kesler_lift(np.ones((2, 2, 2)), [0, 1], 2), ValueError, "got 3 dimension"),
        (lambda: kesler_lift([1.0], 0, 2.0), TypeError, "n_classes must be an int"),
        (lambda: kesler_lift([1.0], 2, 2), ValueError, r"in \[0, 2\)"),
        (lambda: kesler_lift([1.0], "a", 2), TypeError, "class indices"),
        (lambda: kesler_lift([[1.0], [2.0]], [0], 2), ValueError, "one class index"),
        (lambda: kesler_flatten([1.0, 2.0]), ValueError, "one row per class"),
        (lambda: multiclass_margin([[1.0], [2.0]], [[1.0, 2.0]], [0]), ValueError, "length"),
        (lambda: kesler_radius([[np.nan]]), ValueError, "NaN"),
    ],
)
def test_kesler_functions_name_bad_arguments(call, error, match):
    with pytest.raises(error, match=match):
        call()


# -- the trace ----------------------------------------------------------------------


def test_the_trace_records_the_run_fit_makes():
    X, y = blobs(n=30, n_classes=3, seed=6, spread=2.0)
    model = MulticlassPerceptron(random_state=1, max_iter=5)
    trace = quietly(training_trace, model, X, y)
    assert not hasattr(model, "coef_")  # the estimator itself is not fitted
    fitted = quietly(model.fit, X, y)
    assert isinstance(trace, MulticlassTrace)
    assert trace.n_steps == 30 * fitted.n_iter_
    assert trace.n_mistakes == fitted.mistakes_per_epoch_.sum()
    assert_array_equal(trace.weights[-1], fitted.coef_)
    assert_array_equal(trace.bias[-1], fitted.intercept_)
    # Each step's scores are those of the weights before it.
    before_W = np.concatenate([trace.initial_weights[None], trace.weights[:-1]])
    before_b = np.vstack([trace.initial_bias, trace.bias[:-1]])
    expected = np.einsum("tkd,td->tk", before_W, X[trace.index]) + before_b
    assert_allclose(trace.scores, expected, rtol=1e-12, atol=1e-12)
    true = trace.scores[np.arange(trace.n_steps), trace.labels[trace.index]]
    rival = trace.scores[np.arange(trace.n_steps), trace.rival]
    assert_array_equal(trace.mistake, rival >= true)
    weights, bias = trace.updates()
    assert weights.shape == (trace.n_mistakes + 1, 3, 4) and bias.shape == (
        trace.n_mistakes + 1,
        3,
    )


# -- partial_fit, sparse input, labels, pickling ------------------------------------


@pytest.mark.parametrize(
    "params", [{"shuffle": False}, {"random_state": 2}, {"average": True, "random_state": 3}]
)
def test_partial_fit_epochs_equal_fit(params):
    X, y = blobs(n=50, n_classes=3, seed=7, spread=3.0)  # overlapping: no early stop
    fitted = quietly(MulticlassPerceptron(max_iter=4, **params).fit, X, y)
    assert fitted.n_iter_ == 4
    model = MulticlassPerceptron(**params)
    for _ in range(4):
        model.partial_fit(X, y, classes=[0, 1, 2])
    assert_array_equal(model.coef_, fitted.coef_)
    assert_array_equal(model.intercept_, fitted.intercept_)
    assert_array_equal(model.mistakes_per_epoch_, fitted.mistakes_per_epoch_)


def test_partial_fit_takes_classes_absent_from_its_first_batch():
    X, y = blobs(n=60, n_classes=3, seed=8)
    model = MulticlassPerceptron(shuffle=False)
    first = y != 2
    model.partial_fit(X[first], y[first], classes=[0, 1, 2])
    assert model.coef_.shape == (3, 4)
    model.partial_fit(X, y)
    with pytest.raises(ValueError, match="differs from the classes"):
        model.partial_fit(X, y, classes=[0, 1])


@pytest.mark.parametrize("average", [False, True])
@pytest.mark.parametrize("convert", [sparse.csr_matrix, sparse.csc_matrix, sparse.csr_array])
def test_sparse_input_gives_the_dense_weights(average, convert):
    X, y = blobs(n=60, n_classes=4, seed=9, spread=2.0)
    X[np.abs(X) < 1.5] = 0.0  # many zeros
    dense = quietly(MulticlassPerceptron(random_state=0, max_iter=6, average=average).fit, X, y)
    model = MulticlassPerceptron(random_state=0, max_iter=6, average=average)
    fitted = quietly(model.fit, convert(X), y)
    assert_array_equal(fitted.coef_, dense.coef_)
    assert_array_equal(fitted.intercept_, dense.intercept_)
    assert_array_equal(fitted.predict(convert(X)), dense.predict(X))
    partial = MulticlassPerceptron(random_state=0, average=average).partial_fit(convert(X), y)
    dense_partial = MulticlassPerceptron(random_state=0, average=average).partial_fit(X, y)
    assert_array_equal(partial.coef_, dense_partial.coef_)
    assert_array_equal(partial.intercept_, dense_partial.intercept_)


def test_any_labels_and_the_order_of_classes():
    X, y = blobs(n=60, n_classes=3, seed=10)
    names = np.array(["pear", "apple", "fig"])[y]
    numbers = np.array([10, -3, 7])[y]
    by_index = MulticlassPerceptron(random_state=0).fit(X, y)
    by_name = MulticlassPerceptron(random_state=0).fit(X, names)
    by_number = MulticlassPerceptron(random_state=0).fit(X, numbers)
    assert by_name.classes_.tolist() == ["apple", "fig", "pear"]
    assert by_number.classes_.tolist() == [-3, 7, 10]
    # Row k of coef_ belongs to classes_[k]: sorting the labels permutes the rows.
    assert_array_equal(by_name.predict(X), np.array(["pear", "apple", "fig"])[by_index.predict(X)])
    assert by_number.score(X, numbers) == by_index.score(X, y)


def test_pickling_keeps_the_model_and_its_next_epoch():
    X, y = blobs(n=40, n_classes=3, seed=11, spread=3.0)
    model = MulticlassPerceptron(random_state=0, average=True)
    model.partial_fit(X, y)
    copy = pickle.loads(pickle.dumps(model))
    assert_array_equal(copy.predict(X), model.predict(X))
    model.partial_fit(X, y)
    copy.partial_fit(X, y)
    assert_array_equal(copy.coef_, model.coef_)


# -- bad input ----------------------------------------------------------------------


def test_inputs_are_not_changed():
    X, y = blobs(n=40, n_classes=3, seed=12)
    X_before, y_before = X.copy(), y.copy()
    model = quietly(MulticlassPerceptron(random_state=0).fit, X, y)
    model.partial_fit(X, y)
    model.predict(X)
    training_trace(MulticlassPerceptron(random_state=0), X, y)
    assert_array_equal(X, X_before)
    assert_array_equal(y, y_before)


@pytest.mark.parametrize(
    "params, error, match",
    [
        ({"eta": 0.0}, ValueError, "eta"),
        ({"eta": True}, TypeError, "must be a number"),
        ({"max_iter": 0}, ValueError, "max_iter"),
        ({"average": "yes"}, ValueError, "average"),
        ({"n_jobs": 2}, TypeError, "n_jobs"),
    ],
)
def test_bad_parameters_are_named(params, error, match):
    X, y = blobs(n=10, n_classes=3, seed=13)
    with pytest.raises(error, match=match):
        MulticlassPerceptron(**params).fit(X, y)


def test_bad_data_raises_clear_errors():
    X, y = blobs(n=10, n_classes=3, seed=14)
    model = MulticlassPerceptron()
    with pytest.raises(ValueError, match="only one class"):
        model.fit(X, np.zeros(10))
    with pytest.raises(ValueError, match="Unknown label type"):
        model.fit(X, np.linspace(0, 1, 10))
    with pytest.raises(ValueError, match="2D array"):
        model.fit(X[:, 0], y)
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        model.fit(X, y[:-1])
    model.fit(X, y)
    with pytest.raises(ValueError, match="features"):
        model.predict(X[:, :2])
    with pytest.raises(ValueError, match=r"not in classes_"):
        model.partial_fit(X, y + 5)


def test_an_overflow_names_the_learning_rate_and_leaves_partial_fit_undone():
    X, y = blobs(n=30, n_classes=3, seed=15)
    with pytest.raises(ValueError, match="overflow.*eta=1e"):
        quietly(MulticlassPerceptron(eta=1e308).fit, X * 1e10, y)
    model = MulticlassPerceptron(random_state=0)
    model.partial_fit(X, y)
    before = pickle.dumps(model)
    model.set_params(eta=1e308)
    with pytest.raises(ValueError, match="overflow"):
        model.partial_fit(X * 1e10, np.roll(y, 1))  # labels moved: it errs at once
    model.set_params(eta=1.0)
    assert pickle.dumps(model) == before


@pytest.mark.parametrize("convert", [np.asarray, sparse.csr_matrix])
@pytest.mark.parametrize("bad", [np.nan, np.inf])
def test_nan_in_x_raises_scikit_learns_message_and_partial_fit_changes_nothing(convert, bad):
    X, y = blobs(n=30, n_classes=3, seed=16)
    X_bad = X.copy()
    X_bad[17, 2] = bad
    with pytest.raises(ValueError, match="Input X contains"):
        MulticlassPerceptron().fit(convert(X_bad), y)
    model = MulticlassPerceptron(random_state=0)
    before = pickle.dumps(model)
    with pytest.raises(ValueError, match="Input X contains"):
        model.partial_fit(convert(X_bad), y)
    assert pickle.dumps(model) == before
    model.partial_fit(convert(X), y)
    before = pickle.dumps(model)
    with pytest.raises(ValueError, match="Input X contains"):
        model.partial_fit(convert(X_bad), y)
    assert pickle.dumps(model) == before


def test_a_sparse_matrix_has_no_trace():
    X, y = blobs(n=10, n_classes=3, seed=17)
    with pytest.raises(TypeError, match="dense"):
        training_trace(MulticlassPerceptron(), sparse.csr_matrix(X), y)
