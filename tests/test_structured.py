"""The structured perceptron, Viterbi and Collins' bound, against references written here.

The references enumerate every labelling (no Viterbi) and build the joint
features their own way. Token features are small integers, so every score is
an exact integer in floating point: ties are exact ties, and the library and
the references must break them identically, label for label.
"""

from __future__ import annotations

import itertools
import pickle
import warnings

import numpy as np
import pytest
from scipy import sparse
from sklearn.base import clone
from sklearn.exceptions import ConvergenceWarning, NotFittedError
from sklearn.linear_model import LogisticRegression

from perceptron_lib import (
    StructuredPerceptron,
    joint_feature_map,
    joint_feature_names,
    structured_deviation,
    structured_first_pass_bound,
    structured_margin,
    structured_mistake_bound,
    structured_radius,
    viterbi,
)
from perceptron_lib.loops.viterbi import emission_scores, viterbi_readable

# -- references -----------------------------------------------------------------


def path_score(emission, transition, start, path) -> float:
    """The score of one labelling, added in Viterbi's order (so equal to the bit)."""
    score = start[path[0]] + emission[0, path[0]]
    for t in range(1, len(path)):
        score = score + transition[path[t - 1], path[t]] + emission[t, path[t]]
    return score


def brute_force_best(emission, transition, start):
    """Every labelling scored; among the best, the smallest read from the last label back."""
    n_tokens, n_labels = emission.shape
    scored = [
        (path_score(emission, transition, start, path), path)
        for path in itertools.product(range(n_labels), repeat=n_tokens)
    ]
    top = max(score for score, _ in scored)
    best = min((path for score, path in scored if score == top), key=lambda p: p[::-1])
    return list(best), top


def reference_phi(X, labels, n_labels):
    """Phi(x, y) from counts in a dict, then laid out as the library documents it."""
    n_features = X.shape[1]
    counts = {}
    for t, label in enumerate(labels):
        for d in range(n_features):
            counts[("emission", label, d)] = counts.get(("emission", label, d), 0) + X[t, d]
        if t:
            key = ("transition", labels[t - 1], label)
            counts[key] = counts.get(key, 0) + 1
    counts[("start", labels[0])] = 1
    labels_ = range(n_labels)
    keys = [("emission", label, d) for label in labels_ for d in range(n_features)]
    keys += [("transition", before, after) for before in labels_ for after in labels_]
    keys += [("start", label) for label in labels_]
    return np.array([float(counts.get(key, 0)) for key in keys])


def reference_argmax(X, w, n_labels):
    """The best labelling by enumeration, ties as the library breaks them."""
    candidates = list(itertools.product(range(n_labels), repeat=X.shape[0]))
    scores = [w @ reference_phi(X, z, n_labels) for z in candidates]
    top = max(scores)
    return min(
        (z for z, s in zip(candidates, scores, strict=True) if s == top), key=lambda z: z[::-1]
    )


def reference_run(sequences, labels, n_labels, orders):
    """Collins' structured perceptron, plainly: returns mistakes, last and averaged weights."""
    n_joint = n_labels * sequences[0].shape[1] + n_labels * n_labels + n_labels
    w = np.zeros(n_joint)
    after_each_visit = []
    mistakes = []
    for epoch, order in enumerate(orders, start=1):
        made = 0
        for i in order:
            z = reference_argmax(sequences[i], w, n_labels)
            if tuple(z) != tuple(labels[i]):
                w = (
                    w
                    + reference_phi(sequences[i], labels[i], n_labels)
                    - reference_phi(sequences[i], z, n_labels)
                )
                mistakes.append((epoch, i))
                made += 1
            after_each_visit.append(w)
        if made == 0:
            break
    return mistakes, w, np.mean(after_each_visit, axis=0)


def random_problem(seed, n_sequences=6, n_labels=3, n_features=3, max_length=4):
    rng = np.random.default_rng(seed)
    lengths = rng.integers(1, max_length + 1, size=n_sequences)
    sequences = [rng.integers(-1, 3, size=(T, n_features)).astype(float) for T in lengths]
    labels = [rng.integers(0, n_labels, size=T) for T in lengths]
    # A first sequence with every label, so that the model knows all n_labels.
    sequences[0] = rng.integers(-1, 3, size=(n_labels, n_features)).astype(float)
    labels[0] = rng.permutation(n_labels)
    return sequences, labels


# -- Viterbi --------------------------------------------------------------------

DECODERS = {
    "compiled": lambda *scores: viterbi(*scores),
    # The compiled function's Python source, run as Python (itself under NUMBA_DISABLE_JIT=1).
    "compiled loop run as Python": lambda *scores: getattr(viterbi, "py_func", viterbi)(*scores),
    "readable": viterbi_readable,
}


def lattices():
    rng = np.random.default_rng(0)
    for n_tokens, n_labels in itertools.product(range(1, 6), range(1, 4)):
        shape = ((n_tokens, n_labels), (n_labels, n_labels), (n_labels,))
        yield [np.zeros(s) for s in shape]  # every labelling ties
        for _ in range(12):  # a few values only: many ties
            yield [rng.integers(-1, 2, size=s).astype(float) for s in shape]
        yield [rng.normal(size=s) for s in shape]


@pytest.mark.parametrize("decoder", DECODERS)
def test_viterbi_returns_the_brute_force_labelling_ties_included(decoder):
    ties = 0
    for scores in lattices():
        path, score = DECODERS[decoder](*scores)
        expected_path, expected_score = brute_force_best(*scores)
        assert path.tolist() == expected_path, scores
        assert float(score) == expected_score
        n_tokens, n_labels = scores[0].shape
        all_scores = [
            path_score(*scores, z) for z in itertools.product(range(n_labels), repeat=n_tokens)
        ]
        ties += all_scores.count(expected_score) > 1
    assert ties > 50  # the cases do exercise the tie-break


def test_viterbi_with_all_zero_scores_returns_the_lowest_label_everywhere():
    path, score = viterbi(np.zeros((4, 3)), np.zeros((3, 3)), np.zeros(3))
    assert path.tolist() == [0, 0, 0, 0] and score == 0.0


def test_viterbi_lets_the_transitions_override_a_weak_emission():
    emission = np.array([[5.0, 0.0], [0.0, 1.0], [5.0, 0.0]])
    stay = np.array([[3.0, -3.0], [-3.0, 3.0]])
    assert viterbi(emission, stay, np.zeros(2))[0].tolist() == [0, 0, 0]
    assert viterbi(emission, np.zeros((2, 2)), np.zeros(2))[0].tolist() == [0, 1, 0]


def test_emission_scores_are_the_products_of_features_and_weights():
    rng = np.random.default_rng(1)
    X, W = rng.integers(-3, 4, size=(5, 4)).astype(float), rng.integers(-3, 4, size=(3, 4))
    assert np.array_equal(emission_scores(X, W.astype(float)), X @ W.T)


# -- the joint feature map -------------------------------------------------------


def test_joint_feature_map_matches_the_reference_and_its_names():
    sequences, labels = random_problem(2, n_sequences=10)
    for X, y in zip(sequences, labels, strict=True):
        assert np.array_equal(joint_feature_map(X, y, 3), reference_phi(X, y, 3))
    names = joint_feature_names(["a", "b", "c"], 3)
    assert names.shape == (3 * 3 + 9 + 3,) and len(set(names)) == names.shape[0]
    assert names[4] == "emission[b, x1]" and names[9 + 5] == "transition[b, c]"


def test_the_joint_feature_functions_check_their_arguments():
    with pytest.raises(ValueError, match="2 names but there are 3"):
        joint_feature_names(["a", "b"], 3, feature_names=["f", "g"])
    with pytest.raises(ValueError, match="integer indices in 0..1"):
        joint_feature_map(np.ones((2, 3)), [0, 2], n_labels=2)
    with pytest.raises(ValueError, match="one label per token"):
        joint_feature_map(np.ones((2, 3)), [0], n_labels=2)
    with pytest.raises(ValueError, match="NaN or infinity"):
        joint_feature_map(np.full((2, 3), np.nan), [0, 1], n_labels=2)


def test_the_score_of_a_labelling_is_w_dot_phi():
    sequences, labels = random_problem(3)
    rng = np.random.default_rng(3)
    w = rng.integers(-2, 3, size=3 * 3 + 9 + 3).astype(float)
    emission_w, transition, start = w[:9].reshape(3, 3), w[9:18].reshape(3, 3), w[18:]
    for X, y in zip(sequences, labels, strict=True):
        assert w @ joint_feature_map(X, y, 3) == path_score(X @ emission_w.T, transition, start, y)


# -- training, against the plain reference -----------------------------------------


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("shuffle", [False, True])
def test_same_mistakes_and_weights_as_the_plain_reference(seed, shuffle):
    sequences, labels = random_problem(seed, n_labels=2 + seed % 2)
    n_labels = 2 + seed % 2
    # Labels as strings, so that the model's sorted classes are the indices' order.
    names = np.array(["p", "q", "r"])[:n_labels]
    max_iter = 6
    model = StructuredPerceptron(max_iter=max_iter, shuffle=shuffle, random_state=seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)  # random labels: rarely separable
        model.fit(sequences, [names[y] for y in labels])
    rng = np.random.RandomState(seed)  # the documented order: one permutation per epoch
    n = len(sequences)
    orders = [rng.permutation(n) if shuffle else np.arange(n) for _ in range(max_iter)]
    mistakes, last, averaged = reference_run(sequences, labels, n_labels, orders)
    assert model.classes_.tolist() == names.tolist()
    assert model.mistakes_.tolist() == [list(m) for m in mistakes]
    assert model.mistakes_per_epoch_.sum() == len(mistakes) > 0
    assert np.array_equal(model.last_coef_, last)
    # w - q / N rounds twice where the mean divides once: equal up to that rounding.
    np.testing.assert_allclose(model.coef_, averaged, rtol=1e-12, atol=1e-12)


def test_average_false_predicts_with_the_last_weights():
    sequences, labels = random_problem(5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        model = StructuredPerceptron(max_iter=3, average=False, random_state=0)
        model.fit(sequences, labels)
        averaged = StructuredPerceptron(max_iter=3, random_state=0).fit(sequences, labels)
    assert np.array_equal(model.coef_, model.last_coef_)
    assert np.array_equal(model.last_coef_, averaged.last_coef_)
    assert not np.array_equal(averaged.coef_, averaged.last_coef_)


def test_when_only_the_first_visit_updates_the_average_is_the_last_weights():
    X = [np.array([[1.0], [0.0]])]
    model = StructuredPerceptron(shuffle=False).fit(X, [np.array([1, 0])])
    # One mistake on the first visit, none on the second: both visits end with w_1.
    assert model.mistakes_per_epoch_.tolist() == [1, 0]
    assert np.array_equal(model.coef_, model.last_coef_)


def test_decision_function_is_the_score_of_the_predicted_labelling():
    sequences, labels = random_problem(6)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        model = StructuredPerceptron(max_iter=4, random_state=1).fit(sequences, labels)
    scores = model.decision_function(sequences)
    for X, predicted, score in zip(sequences, model.predict(sequences), scores, strict=True):
        np.testing.assert_allclose(score, model.coef_ @ model.joint_features(X, predicted))
    assert len(model.get_feature_names_out()) == model.coef_.shape[0]
    assert model.emission_weights_.shape == (3, 3) and model.start_weights_.shape == (3,)


# -- where transitions matter ---------------------------------------------------------


def cycle_task(n_sequences, seed, n_labels=3, clue_rate=0.25, lengths=(4, 8)):
    """Labels cycle 0 -> 1 -> 2 -> 0 from a random start; a token shows its label
    (one-hot) only now and then (at least once per sequence), otherwise only a
    constant feature. A token alone rarely says its label; the grammar does."""
    rng = np.random.default_rng(seed)
    sequences, labels = [], []
    for _ in range(n_sequences):
        T = int(rng.integers(lengths[0], lengths[1] + 1))
        y = (int(rng.integers(n_labels)) + np.arange(T)) % n_labels
        shown = rng.random(T) < clue_rate
        shown[rng.integers(T)] = True
        X = np.zeros((T, n_labels + 1))
        X[:, 0] = 1.0
        X[np.flatnonzero(shown), 1 + y[shown]] = 1.0
        sequences.append(X)
        labels.append(np.array(["A", "B", "C"])[y])
    return sequences, labels


def test_the_structured_model_beats_per_token_classification_on_held_out_sequences():
    train_X, train_y = cycle_task(150, seed=0)
    test_X, test_y = cycle_task(150, seed=1)
    model = StructuredPerceptron(random_state=0).fit(train_X, train_y)
    assert model.converged_  # the task is separable with these features
    structured = model.score(test_X, test_y)
    tokens = LogisticRegression(max_iter=1000).fit(np.vstack(train_X), np.concatenate(train_y))
    per_token = tokens.score(np.vstack(test_X), np.concatenate(test_y))
    assert structured >= 0.99
    assert structured - per_token >= 0.3, (structured, per_token)
    # The learnt transitions follow the grammar: A -> B, B -> C, C -> A lead their rows.
    assert model.transition_weights_.argmax(axis=1).tolist() == [1, 2, 0]


# -- Collins' bound --------------------------------------------------------------------


def cycle_separator():
    """A separator of the cycle task by hand: the cycle's transitions and each label's
    own clue, weight 1. A wrong labelling breaks a transition or, shifted round the
    cycle, misses every clue (each sequence shows one): it trails by at least 1."""
    U = np.zeros(3 * 4 + 9 + 3)
    emission, transition = U[:12].reshape(3, 4), U[12:21].reshape(3, 3)
    emission[[0, 1, 2], [1, 2, 3]] = 1.0
    transition[[0, 1, 2], [1, 2, 0]] = 1.0
    return U


def test_mistakes_within_collins_bound_on_a_separable_problem():
    sequences, labels = cycle_task(12, seed=2, lengths=(2, 4))  # at most 3^4 labellings
    model = StructuredPerceptron(random_state=0).fit(sequences, labels)
    indices = [np.searchsorted(model.classes_, y) for y in labels]
    U = cycle_separator()
    delta = structured_margin(U, sequences, indices, 3)
    R = structured_radius(sequences, indices, 3)
    bound = structured_mistake_bound(U, sequences, indices, 3)
    assert delta >= 1 / np.sqrt(6) - 1e-15 and bound == pytest.approx(R**2 / delta**2)
    assert 0 < model.mistakes_per_epoch_.sum() <= bound
    # R and delta by the definition, with the reference's features and argmax.
    differences = [
        reference_phi(X, y, 3) - reference_phi(X, z, 3)
        for X, y in zip(sequences, indices, strict=True)
        for z in itertools.product(range(3), repeat=X.shape[0])
        if tuple(z) != tuple(y)
    ]
    assert R == pytest.approx(max(np.linalg.norm(d) for d in differences))
    assert delta == pytest.approx(min(d @ U for d in differences) / np.linalg.norm(U))


def test_a_weight_vector_that_errs_certifies_no_bound():
    sequences, labels = cycle_task(3, seed=3, lengths=(3, 3))
    indices = [np.searchsorted(["A", "B", "C"], y) for y in labels]
    zeros_but_one = np.zeros(3 * 4 + 9 + 3)
    zeros_but_one[-1] = 1.0  # prefers start label C everywhere: wrong on some sequence
    assert structured_margin(zeros_but_one, sequences, indices, 3) <= 0
    assert structured_mistake_bound(zeros_but_one, sequences, indices, 3) == float("inf")


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@pytest.mark.parametrize("seed", range(6))
def test_first_pass_mistakes_within_collins_non_separable_bound(seed):
    sequences, labels = random_problem(seed, n_sequences=8, n_labels=2 + seed % 2)
    n_labels = 2 + seed % 2
    first_pass = StructuredPerceptron(max_iter=1, random_state=seed).fit(sequences, labels)
    n_mistakes = first_pass.mistakes_per_epoch_[0]
    later = StructuredPerceptron(max_iter=20, random_state=seed).fit(sequences, labels)
    rng = np.random.default_rng(seed)
    R = structured_radius(sequences, labels, n_labels)
    for U in [later.coef_, later.last_coef_, *rng.normal(size=(5, later.coef_.shape[0]))]:
        for delta in (0.1, 0.5, 1.0, 3.0):
            D = structured_deviation(U, delta, sequences, labels, n_labels)
            bound = structured_first_pass_bound(U, delta, sequences, labels, n_labels)
            assert bound == pytest.approx((R + D) ** 2 / delta**2)
            assert n_mistakes <= bound
    # D by its definition: the shortfalls of the leads of U / ||U|| below delta.
    U = later.coef_ / np.linalg.norm(later.coef_)
    leads = [
        min(
            U @ (reference_phi(X, y, n_labels) - reference_phi(X, z, n_labels))
            for z in itertools.product(range(n_labels), repeat=X.shape[0])
            if tuple(z) != tuple(y)
        )
        for X, y in zip(sequences, labels, strict=True)
    ]
    expected = np.sqrt(sum(max(0.0, 0.5 - lead) ** 2 for lead in leads))
    assert structured_deviation(U, 0.5, sequences, labels, n_labels) == pytest.approx(expected)


def test_separable_data_has_no_deviation_at_its_margin():
    sequences, labels = cycle_task(6, seed=8, lengths=(2, 4))
    indices = [np.searchsorted(["A", "B", "C"], y) for y in labels]
    U = cycle_separator()
    delta = structured_margin(U, sequences, indices, 3)
    assert delta > 0
    # At its own margin U falls short nowhere: Theorem 2's bound is Theorem 1's.
    assert structured_deviation(U, delta, sequences, indices, 3) == 0.0
    assert structured_first_pass_bound(U, delta, sequences, indices, 3) == pytest.approx(
        structured_mistake_bound(U, sequences, indices, 3)
    )
    assert structured_deviation(U, 2 * delta, sequences, indices, 3) > 0
    with pytest.raises(ValueError, match="delta"):
        structured_deviation(U, 0.0, sequences, indices, 3)


def test_the_brute_force_bound_refuses_long_sequences():
    with pytest.raises(ValueError, match="labellings"):
        structured_radius([np.zeros((12, 2))], [np.zeros(12, dtype=int)], 3)


# -- interface ----------------------------------------------------------------------


def test_pickle_clone_and_params():
    sequences, labels = cycle_task(20, seed=4)
    model = StructuredPerceptron(max_iter=50, random_state=3).fit(sequences, labels)
    restored = pickle.loads(pickle.dumps(model))
    assert np.array_equal(restored.coef_, model.coef_)
    for a, b in zip(restored.predict(sequences), model.predict(sequences), strict=True):
        assert np.array_equal(a, b)
    copy = clone(model)
    assert copy.get_params() == model.get_params() and not hasattr(copy, "coef_")
    copy.set_params(average=False, max_iter=7)
    assert copy.get_params()["max_iter"] == 7 and copy.get_params()["average"] is False


def test_sparse_sequences_give_the_dense_model():
    sequences, labels = cycle_task(20, seed=5)
    dense = StructuredPerceptron(random_state=0).fit(sequences, labels)
    csr = StructuredPerceptron(random_state=0).fit(
        [sparse.csr_matrix(X) for X in sequences], labels
    )
    assert np.array_equal(dense.coef_, csr.coef_)
    assert dense.mistakes_.tolist() == csr.mistakes_.tolist()


def test_inputs_are_not_changed():
    sequences, labels = cycle_task(10, seed=6)
    for array in sequences + labels:
        array.flags.writeable = False  # any write would raise
    before = [X.copy() for X in sequences]
    model = StructuredPerceptron(random_state=0).fit(sequences, labels)
    model.predict(sequences)
    model.score(sequences, labels)
    assert all(np.array_equal(a, b) for a, b in zip(before, sequences, strict=True))


def test_unseen_labels_at_score_count_as_errors():
    sequences, labels = cycle_task(10, seed=7)
    model = StructuredPerceptron(random_state=0).fit(sequences, labels)
    renamed = [np.where(y == "A", "Z", y) for y in labels]
    n_a = sum(int((y == "A").sum()) for y in labels)
    n_tokens = sum(y.shape[0] for y in labels)
    assert model.score(sequences, labels) == 1.0
    assert model.score(sequences, renamed) == pytest.approx(1 - n_a / n_tokens)


def test_scores_that_overflow_raise_instead_of_decoding_arbitrarily():
    huge = [np.full((2, 2), 1e200), np.full((3, 2), -1e200)]
    with pytest.raises(ValueError, match="overflow"):
        StructuredPerceptron(random_state=0).fit(huge, [[0, 1], [1, 0, 1]])


def test_not_converged_warns():
    X = [np.ones((1, 1)), np.ones((1, 1))]
    with pytest.warns(ConvergenceWarning, match="max_iter=3"):
        model = StructuredPerceptron(max_iter=3, shuffle=False).fit(X, [[0], [1]])
    assert model.n_iter_ == 3 and not model.converged_


GOOD_X = [np.zeros((2, 3)), np.ones((3, 3))]
GOOD_Y = [np.array([0, 1]), np.array([1, 1, 0])]


@pytest.mark.parametrize(
    ("sequences", "labels", "error", "match"),
    [
        ([np.zeros((2, 3)), np.ones((3, 2))], GOOD_Y, ValueError, "sequence 1 has 2 features"),
        (GOOD_X, [np.array([0, 1]), np.array([1, 0])], ValueError, "has 2 labels but"),
        (GOOD_X, GOOD_Y[:1], ValueError, "2 sequences but 1 label"),
        ([], [], ValueError, "sequences is empty"),
        ([np.zeros((0, 3)), np.ones((3, 3))], GOOD_Y, ValueError, "sequence 0 is empty"),
        ([np.zeros((2, 3)), np.full((3, 3), np.nan)], GOOD_Y, ValueError, "NaN or infinity"),
        ([np.zeros((2, 3)), np.full((3, 3), np.inf)], GOOD_Y, ValueError, "NaN or infinity"),
        ([np.zeros((2, 3)), [["a", "b", "c"]] * 3], GOOD_Y, TypeError, "numeric"),
        (np.zeros((2, 3)), GOOD_Y, ValueError, "single 2-d array"),
        ([np.zeros(3), np.ones(3)], GOOD_Y, ValueError, "must be 2-d"),
        (GOOD_X, [np.array([[0, 1]]), GOOD_Y[1]], ValueError, "must be 1-d"),
        (5, GOOD_Y, TypeError, "list of 2-d arrays"),
        ([np.zeros((2, 3)), [[1, 2, 3], [1, 2], [1, 2, 3]]], GOOD_Y, ValueError, "ragged"),
        (
            GOOD_X,
            [np.array([0, 1]), np.array([1, "a", 0], dtype=object)],
            TypeError,
            "a number, a bool or a string",
        ),
    ],
)
def test_bad_input_raises_a_clear_error(sequences, labels, error, match):
    with pytest.raises(error, match=match):
        StructuredPerceptron().fit(sequences, labels)


@pytest.mark.parametrize(
    ("params", "error"),
    [({"max_iter": 0}, ValueError), ({"max_iter": True}, TypeError), ({"shuffle": 2}, ValueError)],
)
def test_bad_parameters_raise(params, error):
    with pytest.raises(error):
        StructuredPerceptron(**params).fit(GOOD_X, GOOD_Y)


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_prediction_checks_its_input():
    with pytest.raises(NotFittedError):
        StructuredPerceptron().predict(GOOD_X)
    model = StructuredPerceptron(random_state=0).fit(GOOD_X, GOOD_Y)
    with pytest.raises(ValueError, match="fitted with 3"):
        model.predict([np.zeros((2, 4))])
    with pytest.raises(ValueError, match="not among the classes"):
        model.joint_features(GOOD_X[0], [0, 7])


@pytest.mark.parametrize(
    "labels, error",
    [
        ([[1, 2, 1], ["a", "b"]], TypeError),  # numbers and strings: 1 would become "1"
        ([[True, False, True], [1, 0]], TypeError),  # bools and numbers: True would become 1
        ([[(0, 1), (1, 0), (0, 1)], [(1, 0), (0, 1)]], ValueError),  # tuples are no labels
        ([[frozenset({1}), frozenset({2}), frozenset({1})], [frozenset({2})] * 2], TypeError),
        ([[0.0, np.nan, 0.0], [1.0, 0.0]], ValueError),  # NaN never equals itself
    ],
)
def test_labels_of_mixed_kinds_or_no_total_order_are_refused(labels, error):
    """Labels that np.concatenate would convert, or that do not sort totally, are refused."""
    X = [np.zeros((3, 1)), np.zeros((2, 1))]
    with pytest.raises(error, match="label"):
        StructuredPerceptron(max_iter=1).fit(X, labels)


def test_weight_blocks_are_copies():
    """Writing to a weight block leaves the model's coef_ as it was."""
    X = [np.array([[1.0], [0.0]]), np.array([[-1.0], [0.0]])]
    model = StructuredPerceptron(shuffle=False).fit(X, [np.array([0, 1]), np.array([1, 0])])
    before = model.coef_.copy()
    for block in (model.emission_weights_, model.transition_weights_, model.start_weights_):
        block[...] = 99.0
    np.testing.assert_array_equal(model.coef_, before)
