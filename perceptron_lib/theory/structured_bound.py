"""Collins' mistake bounds for the structured perceptron, by brute force on small problems.

Collins (2002, Theorem 1) carries the perceptron convergence theorem over to
structured outputs. A training set of sequences ``x_i`` with labellings
``y_i`` is *separable with margin* ``delta > 0`` if some vector ``U`` with
``||U|| = 1`` scores every right labelling above every wrong one by at least
``delta``:

    U . Phi(x_i, y_i) - U . Phi(x_i, z) >= delta   for every i and every z != y_i.

If moreover ``||Phi(x_i, y_i) - Phi(x_i, z)|| <= R`` for every i and every
``z != y_i``, the structured perceptron makes at most ``R^2 / delta^2``
mistakes on it (Collins' Theorem 1; his proof uses neither the order of the
visits nor the number of passes, so the bound holds for any order and over all
passes together). Both quantities run
over *every wrong labelling*: ``L^T - 1`` of them for a sequence of ``T``
tokens and ``L`` labels. The functions here enumerate them all, so they are
exact but exponential in ``T``; they refuse sequences with more than
``max_labellings`` labellings.

For data that no ``U`` separates, Collins (2002, Theorem 2) bounds the
mistakes of the *first pass* only. With ``||U|| = 1`` and any ``delta > 0``, let
``m_i = U . Phi(x_i, y_i) - max_{z != y_i} U . Phi(x_i, z)`` (how far ``U`` puts
the right labelling ahead; negative if behind), ``eps_i = max(0, delta - m_i)``
and ``D = sqrt(sum_i eps_i^2)``; then the first pass makes at most
``(R + D)^2 / delta^2`` mistakes, for every such ``U`` and ``delta`` (the bound
is their minimum). With ``D = 0`` it is Theorem 1's bound.

``Phi`` is the chain's joint feature map of
:mod:`perceptron_lib.theory.joint_features`, labels given as indices.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .joint_features import _check_sequence, all_labellings, n_joint_features

__all__ = [
    "MAX_LABELLINGS",
    "structured_deviation",
    "structured_first_pass_bound",
    "structured_margin",
    "structured_mistake_bound",
    "structured_radius",
    "wrong_differences",
]

#: The most labellings of one sequence that the functions here enumerate, by default.
MAX_LABELLINGS = 100_000


def wrong_differences(
    X: ArrayLike, labels: ArrayLike, n_labels: int, *, max_labellings: int = MAX_LABELLINGS
) -> NDArray[np.float64]:
    """Return ``Phi(x, y) - Phi(x, z)`` for every wrong labelling ``z``, one per row.

    Parameters
    ----------
    X : array-like of shape (T, D)
        One sequence's token features.
    labels : array-like of shape (T,)
        Its right labelling ``y``, as label indices.
    n_labels : int
        L.
    max_labellings : int, default=100_000
        Refuse (ValueError) when ``L^T`` is larger.

    Returns
    -------
    ndarray of shape (L^T - 1, L * D + L * L + L)
        In the order of :func:`~perceptron_lib.theory.joint_features.all_labellings`,
        ``y`` left out.

    Examples
    --------
    >>> wrong_differences([[1.0]], [0], n_labels=2).tolist()  # z = (1): emission, start
    [[1.0, -1.0, 0.0, 0.0, 0.0, 0.0, 1.0, -1.0]]
    """
    X, labels = _check_sequence(X, labels, n_labels)
    n_tokens, n_features = X.shape
    if n_labels**n_tokens > max_labellings:
        raise ValueError(
            f"A sequence of {n_tokens} tokens has {n_labels}^{n_tokens} labellings, more than "
            f"max_labellings={max_labellings}: the brute-force bound is for small problems."
        )
    candidates = all_labellings(n_tokens, n_labels)
    features = _all_joint_features(X, candidates, n_labels)
    right = np.all(candidates == labels, axis=1)
    return features[right][0] - features[~right]


def _all_joint_features(X: NDArray, candidates: NDArray, n_labels: int) -> NDArray:
    """``Phi(X, z)`` for every row ``z`` of ``candidates``, built up position by position."""
    n_candidates, n_tokens = candidates.shape
    n_features = X.shape[1]
    rows = np.arange(n_candidates)
    emission = np.zeros((n_candidates, n_labels, n_features))
    transition = np.zeros((n_candidates, n_labels, n_labels))
    start = np.zeros((n_candidates, n_labels))
    for t in range(n_tokens):
        emission[rows, candidates[:, t]] += X[t]
        if t > 0:
            transition[rows, candidates[:, t - 1], candidates[:, t]] += 1.0
    start[rows, candidates[:, 0]] = 1.0
    return np.concatenate(
        [emission.reshape(n_candidates, -1), transition.reshape(n_candidates, -1), start],
        axis=1,
    )


def structured_radius(
    sequences, label_sequences, n_labels: int, *, max_labellings: int = MAX_LABELLINGS
) -> float:
    """Collins' ``R``: the largest ``||Phi(x_i, y_i) - Phi(x_i, z)||`` over i and z != y_i.

    Parameters
    ----------
    sequences : list of array-like, each of shape (T_i, D)
    label_sequences : list of array-like, each of shape (T_i,)
        The right labellings, as label indices.
    n_labels : int
        L, at least 2 (with one label there is no wrong labelling).
    max_labellings : int, default=100_000
        Refuse sequences with more labellings (the enumeration is exponential).

    Returns
    -------
    float

    Examples
    --------
    One token, two labels: the only wrong labelling moves the token's features
    and the start feature from one label to the other.

    >>> round(structured_radius([[[3.0, 4.0]]], [[0]], n_labels=2), 6)  # sqrt(2 * 25 + 2)
    7.211103
    """
    return max(
        float(np.sqrt((differences**2).sum(axis=1)).max())
        for differences in _differences(sequences, label_sequences, n_labels, max_labellings)
    )


def structured_margin(
    U: ArrayLike,
    sequences,
    label_sequences,
    n_labels: int,
    *,
    max_labellings: int = MAX_LABELLINGS,
) -> float:
    """The largest margin ``delta`` that ``U / ||U||`` certifies.

    It is the least lead of a right over a wrong labelling.

    ``min_i min_{z != y_i} U . (Phi(x_i, y_i) - Phi(x_i, z)) / ||U||``; positive
    exactly when ``U`` scores every right labelling strictly above every wrong one.

    Parameters
    ----------
    U : array-like of shape (L * D + L * L + L,)
        Weights in the layout of ``Phi``, not all zero (normalised here).
    sequences, label_sequences, n_labels, max_labellings
        As in :func:`structured_radius`.

    Returns
    -------
    float

    Examples
    --------
    >>> U = [1.0, -1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]  # emission[0, x0] and emission[1, x0]
    >>> round(structured_margin(U, [[[1.0]]], [[0]], n_labels=2), 6)  # 2 / sqrt(2)
    1.414214
    """
    U = _unit(U)
    leads = []
    for differences in _differences(sequences, label_sequences, n_labels, max_labellings):
        _check_width(U, differences)
        leads.append(float((differences @ U).min()))
    return min(leads)


def structured_mistake_bound(
    U: ArrayLike,
    sequences,
    label_sequences,
    n_labels: int,
    *,
    max_labellings: int = MAX_LABELLINGS,
) -> float:
    """Collins' Theorem 1 bound ``R^2 / delta^2`` certified by ``U`` (infinite if delta <= 0).

    Any ``U`` with ``delta > 0`` gives a valid bound on the number of mistakes
    of :class:`perceptron_lib.StructuredPerceptron` on these sequences.

    Examples
    --------
    >>> U = [1.0, -1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]
    >>> round(structured_mistake_bound(U, [[[1.0]]], [[0]], n_labels=2), 6)  # 4 / 2
    2.0
    """
    delta = structured_margin(
        U, sequences, label_sequences, n_labels, max_labellings=max_labellings
    )
    if delta <= 0.0:
        return float("inf")
    R = structured_radius(sequences, label_sequences, n_labels, max_labellings=max_labellings)
    return R**2 / delta**2


def structured_deviation(
    U: ArrayLike,
    delta: float,
    sequences,
    label_sequences,
    n_labels: int,
    *,
    max_labellings: int = MAX_LABELLINGS,
) -> float:
    """Collins' ``D``: how far ``U / ||U||`` falls short of the margin ``delta``, in total.

    ``D = sqrt(sum_i max(0, delta - m_i)^2)``, where ``m_i`` is the lead of
    sequence i's right labelling over its best wrong one under ``U / ||U||``.
    0 exactly when ``U`` separates the data with margin ``delta``.

    Examples
    --------
    >>> U = [1.0, -1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]  # leads 2 / sqrt(2) on token 0 ...
    >>> seqs, labels = [[[1.0]], [[1.0]]], [[0], [1]]  # ... and trails by as much on token 1
    >>> round(structured_deviation(U, 1.0, seqs, labels, n_labels=2), 6)  # 1 - (-sqrt(2))
    2.414214
    """
    U = _unit(U)
    delta = _positive(delta)
    shortfalls = []
    for differences in _differences(sequences, label_sequences, n_labels, max_labellings):
        _check_width(U, differences)
        shortfalls.append(max(0.0, delta - float((differences @ U).min())))
    return float(np.sqrt(np.sum(np.square(shortfalls))))


def structured_first_pass_bound(
    U: ArrayLike,
    delta: float,
    sequences,
    label_sequences,
    n_labels: int,
    *,
    max_labellings: int = MAX_LABELLINGS,
) -> float:
    """Collins' Theorem 2 bound ``(R + D)^2 / delta^2`` on the first pass's mistakes.

    Valid for every nonzero ``U`` (normalised here) and every ``delta > 0``,
    separable data or not.

    Examples
    --------
    >>> U = [1.0, -1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]
    >>> seqs, labels = [[[1.0]], [[1.0]]], [[0], [1]]
    >>> round(structured_first_pass_bound(U, 1.0, seqs, labels, n_labels=2), 6)  # (2 + 2.41)^2
    19.485281
    """
    kwargs = {"max_labellings": max_labellings}
    D = structured_deviation(U, delta, sequences, label_sequences, n_labels, **kwargs)
    R = structured_radius(sequences, label_sequences, n_labels, **kwargs)
    return (R + D) ** 2 / delta**2


def _unit(U: ArrayLike) -> NDArray[np.float64]:
    """``U / ||U||``, for a finite nonzero 1-d ``U``."""
    U = np.asarray(U, dtype=np.float64)
    norm = float(np.linalg.norm(U)) if U.ndim == 1 else 0.0
    if not np.isfinite(norm) or norm == 0.0:
        raise ValueError(f"U must be a finite, nonzero 1-d vector; got shape {U.shape}.")
    return U / norm


def _positive(delta) -> float:
    if isinstance(delta, bool) or not np.isscalar(delta) or not float(delta) > 0.0:
        raise ValueError(f"delta must be a number > 0; got {delta!r}.")
    if not np.isfinite(float(delta)):
        raise ValueError(f"delta must be finite; got {delta!r}.")
    return float(delta)


def _check_width(U: NDArray, differences: NDArray) -> None:
    if differences.shape[1] != U.shape[0]:
        raise ValueError(
            f"U has {U.shape[0]} weights but Phi has {differences.shape[1]} features."
        )


def _differences(sequences, label_sequences, n_labels: int, max_labellings: int):
    """Each sequence's :func:`wrong_differences`, after checking the lists match."""
    sequences, label_sequences = list(sequences), list(label_sequences)
    if not sequences or len(sequences) != len(label_sequences):
        raise ValueError(
            f"Need one labelling per sequence and at least one sequence; got "
            f"{len(sequences)} sequences and {len(label_sequences)} labellings."
        )
    if n_labels < 2:
        raise ValueError(
            f"n_labels must be at least 2 (a wrong labelling must exist); got {n_labels}."
        )
    n_joint = None
    for X, labels in zip(sequences, label_sequences, strict=True):
        differences = wrong_differences(X, labels, n_labels, max_labellings=max_labellings)
        width = n_joint_features(n_labels, np.asarray(X).shape[1])
        if n_joint is not None and width != n_joint:
            raise ValueError("Every sequence must have the same number of token features.")
        n_joint = width
        yield differences
