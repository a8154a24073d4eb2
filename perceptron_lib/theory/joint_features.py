"""The joint feature map Phi(x, y) of a first-order chain, with readable names.

Sequence labelling scores a whole labelling at once: a sequence ``x`` of ``T``
tokens (a ``(T, D)`` array, one row of features per token) and a labelling
``y`` (one of ``L`` labels per token) are mapped to one vector ``Phi(x, y)``,
and a weight vector ``w`` scores the pair by ``w . Phi(x, y)`` (Collins 2002).
Here ``Phi(x, y)`` has three blocks, in this order:

- emission features, ``L * D`` of them: the one of label ``l`` and token
  feature ``d`` sums ``x[t, d]`` over the positions ``t`` labelled ``l``
  (with 0/1 token features: how often feature ``d`` occurs under label ``l``);
- transition features, ``L * L``: the one of labels ``(k, l)`` counts the
  positions where ``k`` is followed by ``l``;
- start features, ``L``: 1 for the label of the first token, 0 for the others.

So ``w . Phi(x, y)`` is exactly the score that
:func:`perceptron_lib.loops.viterbi.viterbi` maximises, with ``w`` cut into the
emission weights ``(L, D)``, the transition weights ``(L, L)`` and the start
weights ``(L,)`` (:func:`split_weights`). Collins' taggers use trigram
transitions (two labels back); this chain looks one label back.

Labels are indices ``0, ..., L - 1`` here; the estimator maps its labels to
them (:meth:`perceptron_lib.structured.StructuredPerceptron.joint_features`).
"""

from __future__ import annotations

import itertools

import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = [
    "all_labellings",
    "joint_feature_map",
    "joint_feature_names",
    "n_joint_features",
    "split_weights",
]


def n_joint_features(n_labels: int, n_features: int) -> int:
    """The length of ``Phi(x, y)``: ``L * D + L * L + L``.

    Examples
    --------
    >>> n_joint_features(2, 3)
    12
    """
    return n_labels * n_features + n_labels * n_labels + n_labels


def joint_feature_map(X: ArrayLike, labels: ArrayLike, n_labels: int) -> NDArray[np.float64]:
    """Return ``Phi(x, y)`` of a sequence ``X`` labelled ``labels``, as a dense vector.

    Parameters
    ----------
    X : array-like of shape (T, D)
        The tokens' features, one row per token, T >= 1.
    labels : array-like of shape (T,)
        The label index of each token, each in ``0, ..., n_labels - 1``.
    n_labels : int
        L, the number of labels.

    Returns
    -------
    ndarray of shape (L * D + L * L + L,)
        Emission, transition and start features, in the order of
        :func:`joint_feature_names`.

    Examples
    --------
    Two tokens with features (1, 0) and (1, 1), labelled 0 then 1:

    >>> joint_feature_map([[1, 0], [1, 1]], [0, 1], n_labels=2).tolist()
    [1.0, 0.0, 1.0, 1.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0]
    """
    X, labels = _check_sequence(X, labels, n_labels)
    n_tokens, n_features = X.shape
    emission = np.zeros((n_labels, n_features))
    transition = np.zeros((n_labels, n_labels))
    start = np.zeros(n_labels)
    for t in range(n_tokens):
        emission[labels[t]] += X[t]
        if t > 0:
            transition[labels[t - 1], labels[t]] += 1.0
    start[labels[0]] = 1.0
    return np.concatenate([emission.ravel(), transition.ravel(), start])


def joint_feature_names(classes: ArrayLike, n_features: int, feature_names=None) -> NDArray:
    """Return the names of the entries of ``Phi(x, y)``, in its order.

    Parameters
    ----------
    classes : array-like of shape (L,)
        The labels, index 0 first (printed with ``str``).
    n_features : int
        D, the number of token features.
    feature_names : array-like of shape (D,), optional
        The token features' names; ``x0, x1, ...`` if left out.

    Returns
    -------
    ndarray of str, shape (L * D + L * L + L,)
        ``emission[label, feature]``, then ``transition[label before, label after]``,
        then ``start[label]``.

    Examples
    --------
    >>> joint_feature_names(["N", "V"], 1).tolist()  # doctest: +NORMALIZE_WHITESPACE
    ['emission[N, x0]', 'emission[V, x0]', 'transition[N, N]', 'transition[N, V]',
     'transition[V, N]', 'transition[V, V]', 'start[N]', 'start[V]']
    """
    labels = [str(label) for label in np.asarray(classes, dtype=object).ravel()]
    if feature_names is None:
        feature_names = [f"x{d}" for d in range(n_features)]
    feature_names = [str(name) for name in np.asarray(feature_names, dtype=object).ravel()]
    if len(feature_names) != n_features:
        raise ValueError(
            f"feature_names has {len(feature_names)} names but there are {n_features} features."
        )
    names = [f"emission[{label}, {name}]" for label in labels for name in feature_names]
    names += [f"transition[{before}, {after}]" for before in labels for after in labels]
    names += [f"start[{label}]" for label in labels]
    return np.array(names)


def split_weights(w: ArrayLike, n_labels: int, n_features: int):
    """Cut a weight vector in the layout of ``Phi`` into its three blocks.

    Returns
    -------
    emission : ndarray of shape (L, D)
    transition : ndarray of shape (L, L)
    start : ndarray of shape (L,)
        Views of ``w`` (as a float array) when it needs no conversion.

    Examples
    --------
    >>> emission, transition, start = split_weights(range(12), 2, 3)
    >>> emission.tolist(), transition.tolist(), start.tolist()
    ([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]], [[6.0, 7.0], [8.0, 9.0]], [10.0, 11.0])
    """
    w = np.asarray(w, dtype=np.float64)
    expected = n_joint_features(n_labels, n_features)
    if w.shape != (expected,):
        raise ValueError(
            f"w must have shape ({expected},) for {n_labels} labels and {n_features} "
            f"features; got shape {w.shape}."
        )
    n_emission = n_labels * n_features
    emission = w[:n_emission].reshape(n_labels, n_features)
    transition = w[n_emission : n_emission + n_labels * n_labels].reshape(n_labels, n_labels)
    return emission, transition, w[n_emission + n_labels * n_labels :]


def all_labellings(n_tokens: int, n_labels: int) -> NDArray[np.int64]:
    """Every labelling of ``n_tokens`` tokens with ``n_labels`` labels: ``L^T`` rows.

    In lexicographic order (the first token's label varies slowest), by brute
    force: meant for the small problems on which Viterbi and the theory are
    checked.

    Examples
    --------
    >>> all_labellings(2, 2).tolist()
    [[0, 0], [0, 1], [1, 0], [1, 1]]
    """
    return np.array(list(itertools.product(range(n_labels), repeat=n_tokens)), dtype=np.int64)


def _check_sequence(X, labels, n_labels):
    """Return ``X`` as a finite 2-d float array and ``labels`` as valid label indices."""
    X = np.asarray(X, dtype=np.float64)
    labels = np.asarray(labels)
    if X.ndim != 2 or X.shape[0] == 0:
        raise ValueError(f"X must be 2-d with at least one token (row); got shape {X.shape}.")
    if not np.all(np.isfinite(X)):
        raise ValueError("X contains NaN or infinity; all features must be finite.")
    if labels.shape != (X.shape[0],):
        raise ValueError(
            f"labels must have one label per token, shape ({X.shape[0]},); got {labels.shape}."
        )
    if labels.dtype.kind not in "iu" or labels.min() < 0 or labels.max() >= n_labels:
        raise ValueError(
            f"labels must be integer indices in 0..{n_labels - 1}; got {labels.tolist()}."
        )
    return X, labels
