"""Constructed sequences of real handwritten digits, for sequence labelling (chapter 9).

The task imitates the handwriting benchmarks of structured prediction (a word
is a string of letter images, and the letters follow the spelling of the
language): here a *string* is a sequence of digit images from scikit-learn's
handwritten digits (Alpaydin and Kaynak's UCI data, 1,797 images of 8 x 8
pixels), and the digits follow a small grammar. The images are real; the
strings are **constructed**: nobody wrote them as strings.

The grammar: the first digit is any of the ten, drawn uniformly; each later
digit is the one before plus one of ``steps`` (by default 1 or 2, each with
equal probability), counting round from 9 to 0. So after a 3 comes a 4 or a 5,
and after a 9 a 0 or a 1. The lengths are drawn uniformly between ``min_length``
and ``max_length``.

Each token is one image, downsampled to 4 x 4 pixels (each pixel the mean of a
2 x 2 block, divided by 16, so in [0, 1]): enough blur that a classifier of one
image at a time makes mistakes, which knowing the digit before can correct.
Every feature is a multiple of 1/64, a binary fraction, so sums and products of
them are exact in floating point.

The split is by *image* as well as by sequence: the 1,797 images are shuffled
and halved first, and the training strings are drawn from one half, the
held-out strings from the other, so no held-out token is an image seen in
training.
"""

from __future__ import annotations

from numbers import Integral

import numpy as np
from sklearn import datasets
from sklearn.utils import Bunch

from .checks import _check_int

__all__ = ["downsample_digits", "load_digit_strings"]

N_DIGITS = 10


def downsample_digits(images) -> np.ndarray:
    """Halve 8 x 8 digit images to 4 x 4: each pixel the mean of a 2 x 2 block, over 16.

    Parameters
    ----------
    images : array-like of shape (n, 8, 8)
        Grey levels 0 to 16, as in :func:`sklearn.datasets.load_digits`.

    Returns
    -------
    ndarray of shape (n, 16)
        Row by row, values in [0, 1], multiples of 1/64 for integer grey levels.

    Examples
    --------
    >>> image = np.zeros((1, 8, 8))
    >>> image[0, :2, :2] = 16.0  # the top-left 2 x 2 block fully dark
    >>> image[0, 0, 2] = 4.0
    >>> downsample_digits(image)[0, :2].tolist()
    [1.0, 0.0625]
    """
    images = np.asarray(images, dtype=np.float64)
    if images.ndim != 3 or images.shape[1:] != (8, 8):
        raise ValueError(f"images must have shape (n, 8, 8); got {images.shape}.")
    blocks = images.reshape(-1, 4, 2, 4, 2).mean(axis=(2, 4))
    return blocks.reshape(-1, 16) / 16.0


def _strings(rng, pool, digit_of, n_strings, min_length, max_length, steps, features):
    """Draw ``n_strings`` strings of the grammar, each token an image from ``pool``."""
    by_digit = [pool[digit_of[pool] == d] for d in range(N_DIGITS)]
    sequences, label_sequences, image_indices = [], [], []
    for _ in range(n_strings):
        length = int(rng.integers(min_length, max_length + 1))
        labels = [int(rng.integers(N_DIGITS))]
        for _ in range(length - 1):
            labels.append((labels[-1] + int(rng.choice(steps))) % N_DIGITS)
        chosen = np.array([rng.choice(by_digit[d]) for d in labels])
        sequences.append(features[chosen])
        label_sequences.append(np.array(labels, dtype=np.int64))
        image_indices.append(chosen)
    return sequences, label_sequences, image_indices


def load_digit_strings(
    n_train: int = 200,
    n_test: int = 200,
    *,
    min_length: int = 4,
    max_length: int = 8,
    steps=(1, 2),
    random_state: int = 0,
) -> Bunch:
    """Strings of handwritten digits that follow a grammar, split into training and held-out.

    Parameters
    ----------
    n_train, n_test : int, default=200
        Number of training and of held-out strings, >= 1.
    min_length, max_length : int, default=4 and 8
        The length of each string is drawn uniformly from ``min_length`` to
        ``max_length`` (both included), 1 <= min_length <= max_length.
    steps : sequence of int, default=(1, 2)
        The grammar: a digit ``d`` is followed by ``(d + s) % 10`` for an ``s``
        drawn uniformly from ``steps``.
    random_state : int, default=0
        Seeds the split of the images, the strings and the images chosen.

    Returns
    -------
    Bunch
        ``sequences_train`` and ``sequences_test`` (lists of arrays of shape
        ``(T_i, 16)``, one row per token: the downsampled image),
        ``labels_train`` and ``labels_test`` (lists of int arrays, the digits),
        ``images_train`` and ``images_test`` (the indices of the tokens' images in
        :func:`sklearn.datasets.load_digits`), ``allowed`` (a (10, 10) bool array,
        ``allowed[k, l]``: the grammar lets ``l`` follow ``k``),
        ``feature_names`` and ``DESCR``.

    Examples
    --------
    >>> strings = load_digit_strings(3, 2, random_state=1)
    >>> len(strings.sequences_train), strings.sequences_train[0].shape[1]
    (3, 16)
    >>> labels = strings.labels_train[0]
    >>> bool(all(strings.allowed[a, b] for a, b in zip(labels[:-1], labels[1:])))
    True
    """
    n_train = _check_int(n_train, "n_train", 1)
    n_test = _check_int(n_test, "n_test", 1)
    min_length = _check_int(min_length, "min_length", 1)
    max_length = _check_int(max_length, "max_length", min_length)
    steps_array = np.asarray(steps)
    if steps_array.ndim != 1 or steps_array.size == 0 or steps_array.dtype.kind not in "iu":
        raise TypeError(f"steps must be a non-empty sequence of ints, got {steps!r}.")
    steps_tuple = tuple(int(s) for s in steps_array)
    if not isinstance(random_state, Integral) or isinstance(random_state, bool):
        raise TypeError(f"random_state must be an int seed, got {random_state!r}.")

    raw = datasets.load_digits()
    features = downsample_digits(raw.images)
    rng = np.random.default_rng(random_state)
    shuffled = rng.permutation(raw.target.shape[0])
    half = shuffled.shape[0] // 2
    grammar = (min_length, max_length, steps_tuple, features)
    train = _strings(rng, np.sort(shuffled[:half]), raw.target, n_train, *grammar)
    test = _strings(rng, np.sort(shuffled[half:]), raw.target, n_test, *grammar)

    allowed = np.zeros((N_DIGITS, N_DIGITS), dtype=bool)
    for d in range(N_DIGITS):
        for s in steps_tuple:
            allowed[d, (d + s) % N_DIGITS] = True
    return Bunch(
        sequences_train=train[0],
        labels_train=train[1],
        images_train=train[2],
        sequences_test=test[0],
        labels_test=test[1],
        images_test=test[2],
        allowed=allowed,
        feature_names=np.array([f"pixel {r},{c}" for r in range(4) for c in range(4)]),
        DESCR=(
            "Constructed strings of real handwritten digits (scikit-learn's load_digits, "
            "downsampled to 4 x 4): each digit is followed by the digit plus one of "
            f"{steps_tuple}, modulo 10; lengths {min_length} to {max_length}; training and "
            "held-out strings use disjoint halves of the images."
        ),
    )
