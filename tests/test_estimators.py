"""The four classifiers: exact against references, scikit-learn-compatible, robust."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import reference
from numpy.testing import assert_allclose, assert_array_equal
from sklearn import datasets
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import Perceptron as SklearnPerceptron
from sklearn.linear_model import SGDClassifier

from perceptron_lib import (
    AveragedPerceptron,
    BatchPerceptron,
    Perceptron,
    VotedPerceptron,
    logic_gate,
    training_trace,
)

ONLINE = [Perceptron, AveragedPerceptron, VotedPerceptron]
ALL = [*ONLINE, BatchPerceptron]


def quietly(fit, *args, **kwargs):
    """Call ``fit`` while ignoring the expected ConvergenceWarning of short runs."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return fit(*args, **kwargs)


def signed(y):
    return np.where(y == np.unique(y)[1], 1.0, -1.0)


def _breast_cancer():
    return datasets.load_breast_cancer(return_X_y=True)


def _iris_versicolor_virginica():
    X, y = datasets.load_iris(return_X_y=True)
    return X[y > 0], y[y > 0]


def _noisy_blobs():
    X, y = datasets.make_classification(n_samples=300, n_features=8, flip_y=0.1, random_state=0)
    return X * 10.0 + 3.0, y


def _separable_blobs():
    X, y = datasets.make_blobs(n_samples=200, centers=[[-3, -3], [3, 3]], random_state=1)
    return X, y


DATASETS = {
    "breast_cancer_unscaled": _breast_cancer,
    "iris_versicolor_virginica": _iris_versicolor_virginica,
    "noisy_blobs": _noisy_blobs,
    "separable_blobs": _separable_blobs,
}


# -- exactness -----------------------------------------------------------------


@pytest.mark.parametrize("name", DATASETS)
@pytest.mark.parametrize("max_iter", [1, 3, 10])
def test_perceptron_equals_scikit_learn_bit_for_bit(name, max_iter):
    X, y = DATASETS[name]()
    ours = quietly(Perceptron(eta=1, shuffle=False, max_iter=max_iter).fit, X, y)
    theirs = quietly(
        SklearnPerceptron(
            eta0=1, penalty=None, alpha=0, shuffle=False, tol=None, max_iter=max_iter
        ).fit,
        X,
        y,
    )
    assert_array_equal(ours.coef_, theirs.coef_[0])
    assert ours.intercept_ == theirs.intercept_[0]


@pytest.mark.parametrize("name", DATASETS)
@pytest.mark.parametrize("fit_intercept", [True, False])
def test_perceptron_equals_algorithm_5(name, fit_intercept):
    X, y = DATASETS[name]()
    ours = quietly(
        Perceptron(
            eta=0.5, shuffle=True, random_state=7, max_iter=6, fit_intercept=fit_intercept
        ).fit,
        X,
        y,
    )
    # The same per-epoch orders as the estimator draws from its random_state.
    rng = np.random.RandomState(7)
    orders = [rng.permutation(len(y)).tolist() for _ in range(6)]
    w, b, per_epoch = reference.perceptron_train(
        X.tolist(), signed(y).tolist(), 6, eta=0.5, fit_intercept=fit_intercept, orders=orders
    )
    assert_array_equal(ours.coef_, w)
    assert ours.intercept_ == b
    assert ours.mistakes_per_epoch_.tolist() == per_epoch


@pytest.mark.parametrize("name", DATASETS)
def test_averaged_perceptron_equals_algorithm_7(name):
    X, y = DATASETS[name]()
    ours = quietly(AveragedPerceptron(eta=1, shuffle=False, max_iter=5).fit, X, y)
    w, b = reference.averaged_perceptron_train(X.tolist(), signed(y).tolist(), 5)
    assert_allclose(ours.coef_, w, rtol=1e-12, atol=1e-9 * np.abs(w).max())
    assert ours.intercept_ == pytest.approx(b, rel=1e-12, abs=1e-12)


def test_averaged_perceptron_is_the_mean_of_all_weight_vectors():
    """Algorithm 7 returns the mean of w_0 = 0, w_1, ..., w_T (after each example)."""
    X, y = _noisy_blobs()
    model = AveragedPerceptron(shuffle=True, random_state=3, max_iter=4)
    averaged = quietly(model.fit, X, y)
    trace = training_trace(model, X, y)
    all_weights = np.vstack([trace.initial_weights, trace.weights])
    all_biases = np.concatenate([[trace.initial_bias], trace.bias])
    assert_allclose(averaged.coef_, all_weights.mean(axis=0), rtol=1e-10)
    assert averaged.intercept_ == pytest.approx(all_biases.mean(), rel=1e-10)


@pytest.mark.parametrize("fit_intercept", [True, False])
def test_averaged_perceptron_relation_to_sgdclassifier_average(fit_intercept):
    """scikit-learn averages w_1..w_T (not w_0): its weights are ours times (T+1)/T."""
    X, y = _noisy_blobs()
    ours = quietly(
        AveragedPerceptron(shuffle=False, max_iter=3, fit_intercept=fit_intercept).fit, X, y
    )
    sgd = quietly(
        SGDClassifier(
            loss="perceptron",
            learning_rate="constant",
            eta0=1.0,
            penalty=None,
            alpha=0.0,
            average=True,
            shuffle=False,
            tol=None,
            max_iter=3,
            fit_intercept=fit_intercept,
        ).fit,
        X,
        y,
    )
    n_seen = ours.n_iter_ * len(y)
    factor = (n_seen + 1) / n_seen
    assert_allclose(ours.coef_ * factor, sgd.coef_[0], rtol=1e-9)
    assert ours.intercept_ * factor == pytest.approx(sgd.intercept_[0], rel=1e-9, abs=1e-12)
    # coef_ and intercept_ scale together: the predictions are the same, bias or not.
    assert_array_equal(ours.predict(X), sgd.predict(X))


def test_averaged_perceptron_relation_to_sgdclassifier_fails_with_its_defaults():
    """With SGDClassifier's defaults (regularised, shuffled, optimal step) no (T+1)/T."""
    X, y = _noisy_blobs()
    ours = quietly(AveragedPerceptron(shuffle=False, max_iter=3).fit, X, y)
    sgd = quietly(
        SGDClassifier(loss="perceptron", average=True, max_iter=3, random_state=0).fit, X, y
    )
    factor = (ours.n_iter_ * len(y) + 1) / (ours.n_iter_ * len(y))
    assert not np.allclose(ours.coef_ * factor, sgd.coef_[0], rtol=1e-3)


@pytest.mark.parametrize("name", DATASETS)
def test_voted_perceptron_equals_freund_schapire(name):
    X, y = DATASETS[name]()
    ours = quietly(VotedPerceptron(shuffle=False, max_iter=4).fit, X, y)
    vectors = reference.voted_perceptron_train(X.tolist(), signed(y).tolist(), 4)
    # The reference keeps the initial zero vector, whose count is always 0.
    assert vectors[0][2] == 0
    kept = vectors[1:]
    assert_array_equal(ours.weights_, [w for w, _, _ in kept])
    assert_array_equal(ours.intercepts_, [b for _, b, _ in kept])
    assert ours.survival_counts_.tolist() == [c for _, _, c in kept]
    expected = [reference.voted_predict(vectors, x) for x in X[:60].tolist()]
    assert_array_equal(np.where(ours.predict(X[:60]) == ours.classes_[1], 1, -1), expected)
    assert_array_equal(ours.coef_, ours.weights_[-1])


def test_a_tied_vote_predicts_negative_in_the_reference_and_the_library():
    # Two examples, one pass in order: the first update gives (w, b) = (1, 1), which
    # survives one example; the second gives (2, 0), which survives one too. At
    # x = -0.75 they vote +1 and -1 with equal counts: the total is exactly 0.
    X, y = np.array([[1.0], [-1.0]]), np.array([1, -1])
    ours = quietly(VotedPerceptron(shuffle=False, max_iter=1).fit, X, y)
    vectors = reference.voted_perceptron_train(X.tolist(), y.tolist(), 1)
    x = [-0.75]
    assert ours.decision_function([x])[0] == 0.0  # the tie the test is about
    assert reference.voted_predict(vectors, x) == -1
    assert ours.predict([x])[0] == -1


def test_voted_perceptron_counts_add_up_to_examples_visited():
    X, y = _noisy_blobs()
    model = quietly(VotedPerceptron(shuffle=True, random_state=0, max_iter=7).fit, X, y)
    assert model.survival_counts_.sum() == model.n_iter_ * len(y)
    assert len(model.weights_) == model.mistakes_per_epoch_.sum()


@pytest.mark.parametrize("name", DATASETS)
def test_batch_perceptron_equals_the_slides_batch_rule(name):
    X, y = DATASETS[name]()
    ours = quietly(BatchPerceptron(eta=0.3, max_iter=25).fit, X, y)
    w, b = reference.batch_perceptron_train(X.tolist(), signed(y).tolist(), 0.3, 25)
    scale = max(1.0, np.abs(w).max())
    assert_allclose(ours.coef_, w, rtol=1e-9, atol=1e-9 * scale)
    assert ours.intercept_ == pytest.approx(b, rel=1e-9, abs=1e-9)


def test_lecture_notes_worked_example():
    """Four examples, no bias: w goes <0,0> -> <1,3> -> <-1,0>, activations 0, 11, 3, -1."""
    X = [[1, 3], [2, 3], [-3, 1], [1, -1]]
    y = [1, -1, 1, -1]
    model = Perceptron(shuffle=False, fit_intercept=False, max_iter=1)
    trace = training_trace(model, X, y)
    assert trace.activation.tolist() == [0.0, 11.0, 3.0, -1.0]
    assert trace.mistake.tolist() == [True, True, False, False]
    assert trace.weights.tolist() == [[1, 3], [-1, 0], [-1, 0], [-1, 0]]
    fitted = quietly(Perceptron(shuffle=False, fit_intercept=False, max_iter=1).fit, X, y)
    assert fitted.coef_.tolist() == [-1.0, 0.0]
    assert fitted.converged_ is False  # epoch 1 made two mistakes
    assert fitted.intercept_ == 0.0


def test_slides_three_points_converge_and_separate():
    X = [[1.0, 1.0], [0.5, 3.0], [2.0, 2.0]]
    y = [1, 1, -1]
    for cls in ALL:
        model = cls().fit(X, y) if cls is BatchPerceptron else cls(shuffle=False).fit(X, y)
        assert model.converged_
        assert model.predict(X).tolist() == y


# -- training behaviour ---------------------------------------------------------


@pytest.mark.parametrize("cls", ONLINE)
def test_partial_fit_k_times_equals_fit_with_max_iter_k(cls):
    X, y = _noisy_blobs()
    for k in (1, 2, 5):
        fitted = quietly(cls(shuffle=False, max_iter=k).fit, X, y)
        stepped = cls(shuffle=False)
        for _ in range(k):
            stepped.partial_fit(X, y, classes=[0, 1])
        assert_array_equal(stepped.coef_, fitted.coef_)
        assert stepped.intercept_ == fitted.intercept_
        assert_array_equal(stepped.mistakes_per_epoch_, fitted.mistakes_per_epoch_)
        assert stepped.n_iter_ == fitted.n_iter_ == k


@pytest.mark.parametrize("cls", ONLINE)
def test_partial_fit_with_shuffle_follows_random_state(cls):
    X, y = _noisy_blobs()
    a, b = cls(random_state=4), cls(random_state=4)
    for _ in range(3):
        a.partial_fit(X, y)
        b.partial_fit(X, y)
    assert_array_equal(a.coef_, b.coef_)
    fitted = quietly(cls(random_state=4, max_iter=3).fit, X, y)
    assert_array_equal(a.coef_, fitted.coef_)


def test_partial_fit_first_call_with_one_class_needs_classes():
    X = np.array([[1.0, 2.0], [3.0, 1.0]])
    with pytest.raises(ValueError, match="classes="):
        Perceptron().partial_fit(X, [1, 1])
    model = Perceptron().partial_fit(X, [1, 1], classes=[-1, 1])
    assert model.classes_.tolist() == [-1, 1]
    with pytest.raises(ValueError, match="differs from the classes"):
        model.partial_fit(X, [1, 1], classes=[0, 1])
    with pytest.raises(ValueError, match="not in classes_"):
        model.partial_fit(X, [0, 1])


@pytest.mark.parametrize("cls", ALL)
def test_stops_after_first_mistake_free_epoch(cls):
    X, y = _separable_blobs()
    model = cls().fit(X, y)
    assert model.converged_
    assert model.mistakes_per_epoch_[-1] == 0
    assert (model.mistakes_per_epoch_[:-1] > 0).all()
    assert model.n_iter_ == len(model.mistakes_per_epoch_)


@pytest.mark.parametrize("cls", ALL)
def test_warns_and_stops_at_max_iter_on_xor(cls):
    X = np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])
    y = np.array([-1, 1, 1, -1])
    with pytest.warns(ConvergenceWarning):
        model = cls(max_iter=50).fit(X, y)
    assert not model.converged_
    assert model.n_iter_ <= 50


def test_batch_perceptron_tol_stops_early():
    X, y = _noisy_blobs()
    strict = quietly(BatchPerceptron(max_iter=200).fit, X, y)
    loose = BatchPerceptron(max_iter=200, tol=10.0).fit(X, y)
    assert loose.converged_ and loose.n_iter_ < strict.n_iter_


@pytest.mark.parametrize(
    "labels", [(-1, 1), (0, 1), ("cat", "dog"), (False, True), (2.0, 7.0)], ids=str
)
@pytest.mark.parametrize("cls", ALL)
def test_any_two_labels_work_and_classes_1_is_positive(cls, labels):
    X, y01 = _separable_blobs()
    y = np.array(labels, dtype=object)[y01]
    if not isinstance(labels[0], str):
        y = y.astype(type(labels[0]))
    model = cls().fit(X, y)
    assert model.classes_.tolist() == sorted(labels)
    scores = model.decision_function(X)
    assert_array_equal(
        model.predict(X), np.where(scores > 0, model.classes_[1], model.classes_[0])
    )
    assert model.score(X, y) == 1.0


def test_label_encoding_does_not_change_the_weights():
    X, y01 = _noisy_blobs()
    reference_model = quietly(Perceptron(random_state=0, max_iter=5).fit, X, y01)
    for y in (np.where(y01 == 1, 1, -1), np.array(["a", "b"])[y01]):
        model = quietly(Perceptron(random_state=0, max_iter=5).fit, X, y)
        assert_array_equal(model.coef_, reference_model.coef_)


def test_numba_and_python_loops_give_identical_weights():
    from perceptron_lib.loops import plain as _loops

    X, y = _noisy_blobs()
    y = signed(y)
    order = np.random.RandomState(0).permutation(len(y))
    results = []
    for epoch in (_loops.perceptron_epoch, _loops.perceptron_epoch.py_func):
        w, mistakes = np.zeros(X.shape[1]), np.zeros(len(y), dtype=bool)
        b = epoch(X, y, order, w, 0.0, 1.0, True, mistakes)
        results.append((w, b, mistakes))
    assert_array_equal(results[0][0], results[1][0])
    assert results[0][1] == results[1][1]
    assert_array_equal(results[0][2], results[1][2])
    averaged = []
    for epoch in (_loops.averaged_perceptron_epoch, _loops.averaged_perceptron_epoch.py_func):
        w, u = np.zeros(X.shape[1]), np.zeros(X.shape[1])
        mistakes = np.zeros(len(y), dtype=bool)
        scalars = epoch(X, y, order, w, 0.0, u, 0.0, 1.0, 1.0, True, mistakes)
        averaged.append((w, u, tuple(float(s) for s in scalars)))
    assert_array_equal(averaged[0][0], averaged[1][0])
    assert_array_equal(averaged[0][1], averaged[1][1])
    assert averaged[0][2] == averaged[1][2]


def test_numba_disabled_process_gives_identical_weights(tmp_path):
    """The whole estimator with NUMBA_DISABLE_JIT=1, in a fresh interpreter."""
    import os
    import subprocess
    import sys

    X, y = _breast_cancer()
    np.save(tmp_path / "X.npy", X)
    np.save(tmp_path / "y.npy", y)
    script = (
        "import numpy as np, warnings\n"
        "from perceptron_lib import Perceptron\n"
        "warnings.simplefilter('ignore')\n"
        f"X = np.load({str(tmp_path / 'X.npy')!r}); y = np.load({str(tmp_path / 'y.npy')!r})\n"
        "m = Perceptron(random_state=0, max_iter=3).fit(X, y)\n"
        f"np.save({str(tmp_path / 'coef.npy')!r}, np.append(m.coef_, m.intercept_))\n"
    )
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    subprocess.run([sys.executable, "-c", script], check=True, env=env)
    pure_python = np.load(tmp_path / "coef.npy")
    compiled = quietly(Perceptron(random_state=0, max_iter=3).fit, X, y)
    assert_array_equal(pure_python, np.append(compiled.coef_, compiled.intercept_))


def test_fit_does_not_change_its_inputs():
    X, y = _noisy_blobs()
    X_before, y_before = X.copy(), y.copy()
    for cls in ALL:
        quietly(cls(max_iter=3).fit, X, y)
        assert_array_equal(X, X_before)
        assert_array_equal(y, y_before)


def test_fortran_ordered_and_integer_inputs_give_the_same_weights():
    X, y = _separable_blobs()
    X = np.round(X)
    expected = Perceptron(random_state=0).fit(X, y).coef_
    assert_array_equal(Perceptron(random_state=0).fit(np.asfortranarray(X), y).coef_, expected)
    assert_array_equal(Perceptron(random_state=0).fit(X.astype(int).tolist(), y).coef_, expected)


@pytest.mark.parametrize("cls", ALL)
def test_an_activation_of_exactly_zero_predicts_the_negative_class(cls):
    """The convention: +1 iff a > 0. From these two examples every estimator ends
    with b = 0 and w > 0, so the point 0 has activation exactly 0."""
    X, y = [[1.0], [-1.0]], ["yes", "no"]  # "yes" sorts last: the positive class
    online = {"shuffle": False} if cls in ONLINE else {}
    model = quietly(cls(fit_intercept=False, **online).fit, X, y)
    if cls is VotedPerceptron:
        # Each stored vector predicts -1 at a = 0, so the whole vote is negative.
        assert model.decision_function([[0.0]])[0] < 0
    else:
        assert model.decision_function([[0.0]]).tolist() == [0.0]
    assert model.predict([[0.0]]).tolist() == ["no"]
    assert model.predict(X).tolist() == y


def test_learning_rate_changes_the_run_on_the_and_gate_unless_a_power_of_two():
    """In exact arithmetic eta only scales the weights; in floating point eta = 0.1
    rounds a tie a = 0 to about -2.8e-17 and the run takes another path."""
    X, y = logic_gate("and")
    runs = {eta: Perceptron(eta=eta, shuffle=False).fit(X, y) for eta in (1.0, 0.5, 0.1)}
    for eta in (1.0, 0.5):
        assert runs[eta].mistakes_per_epoch_.sum() == 18
        assert (runs[eta].coef_ / eta).tolist() == [3.0, 2.0]
        assert runs[eta].intercept_ / eta == -4.0
    assert_array_equal(runs[0.5].mistakes_per_epoch_, runs[1.0].mistakes_per_epoch_)
    tenth = runs[0.1]
    assert tenth.mistakes_per_epoch_.sum() == 8
    assert_allclose(tenth.coef_ / 0.1, [2.0, 1.0])
    assert tenth.intercept_ / 0.1 == pytest.approx(-2.0)
    ties = training_trace(Perceptron(eta=0.1, shuffle=False), X, y).activation
    assert np.any((ties != 0) & (np.abs(ties) < 1e-15))  # a tie, rounded away from 0


@pytest.mark.parametrize("cls", ONLINE)
def test_trace_records_the_estimators_own_current_weights(cls):
    X, y = _noisy_blobs()
    model = cls(random_state=1, max_iter=3)
    fitted = quietly(model.fit, X, y)
    trace = training_trace(model, X, y)
    last_w = fitted.last_coef_ if cls is AveragedPerceptron else fitted.coef_
    last_b = fitted.last_intercept_ if cls is AveragedPerceptron else fitted.intercept_
    assert_array_equal(trace.weights[-1], last_w)
    assert trace.bias[-1] == last_b
    assert trace.mistake.sum() == fitted.mistakes_per_epoch_.sum()
    assert trace.n_steps == fitted.n_iter_ * len(y)


def test_recording_a_step_changes_nothing_compiled_or_not():
    from perceptron_lib.loops import plain as _loops

    X, y = _noisy_blobs()
    y = signed(y)
    order = np.random.RandomState(0).permutation(len(y))
    for epoch in (_loops.perceptron_epoch, _loops.perceptron_epoch.py_func):
        runs = []
        for steps in (None, np.empty((len(y), X.shape[1] + 2))):
            w, mistakes = np.zeros(X.shape[1]), np.zeros(len(y), dtype=bool)
            b = epoch(X, y, order, w, 0.0, 1.0, True, mistakes, steps)
            runs.append((w, b, mistakes, steps))
        (w0, b0, m0, _), (w1, b1, m1, steps) = runs
        assert_array_equal(w0, w1)
        assert b0 == b1
        assert_array_equal(m0, m1)
        assert_array_equal(steps[-1, 2:], w1)
        assert steps[-1, 1] == b1
        assert_array_equal(steps[:, 0] * y[order] <= 0, m1)
