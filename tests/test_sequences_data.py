"""The constructed digit strings of chapter 9 (perceptron_lib.data.sequences)."""

import numpy as np
import pytest
from sklearn.datasets import load_digits

from perceptron_lib.data.sequences import downsample_digits, load_digit_strings


def test_downsample_is_the_mean_of_each_block_over_16():
    images = np.arange(64, dtype=float).reshape(1, 8, 8) % 17
    expected = [
        images[0, 2 * r : 2 * r + 2, 2 * c : 2 * c + 2].mean() / 16
        for r in range(4)
        for c in range(4)
    ]
    assert downsample_digits(images)[0].tolist() == expected


def test_downsampled_digits_are_exact_binary_fractions_in_the_unit_interval():
    features = downsample_digits(load_digits().images)
    assert features.min() >= 0.0 and features.max() <= 1.0
    assert np.array_equal(features * 64, np.round(features * 64))


def test_downsample_refuses_other_shapes():
    with pytest.raises(ValueError, match=r"\(n, 8, 8\)"):
        downsample_digits(np.zeros((2, 64)))


def test_strings_follow_the_grammar_and_have_the_asked_lengths():
    strings = load_digit_strings(40, 30, min_length=3, max_length=5, steps=(1, 3))
    assert len(strings.labels_train) == 40 and len(strings.labels_test) == 30
    for labels, X in zip(
        strings.labels_train + strings.labels_test,
        strings.sequences_train + strings.sequences_test,
        strict=True,
    ):
        assert 3 <= len(labels) <= 5 and X.shape == (len(labels), 16)
        steps = (labels[1:] - labels[:-1]) % 10
        assert set(steps.tolist()) <= {1, 3}
        assert all(strings.allowed[a, b] for a, b in zip(labels[:-1], labels[1:], strict=True))
    assert strings.allowed.sum() == 20 and strings.allowed[9, 0] and strings.allowed[8, 1]


def test_tokens_are_the_downsampled_images_of_their_digit():
    digits = load_digits()
    features = downsample_digits(digits.images)
    strings = load_digit_strings(20, 20, random_state=3)
    for X, labels, images in zip(
        strings.sequences_train, strings.labels_train, strings.images_train, strict=True
    ):
        assert np.array_equal(X, features[images])
        assert np.array_equal(digits.target[images], labels)


def test_training_and_held_out_images_are_disjoint():
    strings = load_digit_strings(300, 300, random_state=5)
    train = set(np.concatenate(strings.images_train).tolist())
    test = set(np.concatenate(strings.images_test).tolist())
    assert train and test and not train & test


def test_the_seed_decides_everything():
    a, b = load_digit_strings(5, 5, random_state=2), load_digit_strings(5, 5, random_state=2)
    c = load_digit_strings(5, 5, random_state=4)
    assert all(np.array_equal(x, y) for x, y in zip(a.labels_test, b.labels_test, strict=True))
    assert not all(
        len(x) == len(y) and np.array_equal(x, y)
        for x, y in zip(a.labels_test, c.labels_test, strict=True)
    )


def test_every_digit_and_both_steps_occur():
    strings = load_digit_strings(100, 1, random_state=0)
    labels = strings.labels_train
    assert set(np.concatenate(labels).tolist()) == set(range(10))
    steps = np.concatenate([(y[1:] - y[:-1]) % 10 for y in labels])
    assert set(steps.tolist()) == {1, 2}


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"n_train": 0}, ValueError, "n_train"),
        ({"n_test": 2.0}, TypeError, "n_test"),
        ({"min_length": 0}, ValueError, "min_length"),
        ({"min_length": 5, "max_length": 4}, ValueError, "max_length"),
        ({"steps": ()}, TypeError, "steps"),
        ({"steps": (1.5,)}, TypeError, "steps"),
        ({"random_state": None}, TypeError, "random_state"),
    ],
)
def test_bad_arguments_are_refused(kwargs, error, match):
    with pytest.raises(error, match=match):
        load_digit_strings(**kwargs)
