"""Parameter mixing, the plain NumPy reference: shards, mixing weights, the mix, the runs.

McDonald, Hall and Mann (2010) cut the training set into ``S`` shards and train
one perceptron per shard, each on its own machine. *Parameter mixing*
(their Figure 2) trains every shard to the end and averages the weights once.
*Iterative parameter mixing* (their Figure 3) averages after every epoch: in
round ``r`` every shard ``i`` runs one epoch from the same mixed weights, giving
``(b, w)(i, r)`` and ``k(i, r)`` mistakes, and the next weights are the mix
``sum_i mu(i, r) (b, w)(i, r)``, with weights ``mu(i, r)`` that sum to one:
uniform (``1 / S``) or in proportion to the mistakes
(``k(i, r) / sum_i k(i, r)``). On data separable with lifted margin ``gamma``
and lifted radius ``R`` their theorem bounds, after every round ``N``,
``sum_r sum_i mu(i, r) k(i, r) <= R^2 / gamma^2``: the perceptron's bound,
for the mixed mistakes.

This module runs both algorithms on one machine, one shard after the other,
readable from top to bottom; :class:`perceptron_lib.distributed.ParameterMixingPerceptron`
runs the very same rounds on a Dask cluster, with the same functions
(:func:`train_shard_epoch`, :func:`mixing_weights`, :func:`mix`), so both give
the same weights to the last bit. It needs NumPy only.

Shards are contiguous and in the data's order, cut by :func:`numpy.array_split`:
with ``n`` examples and ``S`` shards, the first ``n % S`` shards hold
``n // S + 1`` examples and the others ``n // S``. With one shard, iterative
parameter mixing *is* the perceptron: the same epochs, the same weights as
``Perceptron(shuffle=False)``.
"""

from __future__ import annotations

from numbers import Integral, Real
from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .loops.plain import perceptron_epoch

__all__ = [
    "MIXINGS",
    "MixingRun",
    "iterative_parameter_mixing",
    "mix",
    "mixed_mistakes",
    "mixing_weights",
    "parameter_mixing",
    "shard_bounds",
    "train_shard_epoch",
]

MIXINGS = ("uniform", "weighted")


# -- the runs ----------------------------------------------------------------


def shard_bounds(n_samples: int, n_shards: int) -> list[tuple[int, int]]:
    """Return the ``(start, stop)`` rows of each shard, cut as :func:`numpy.array_split` does.

    Examples
    --------
    >>> shard_bounds(7, 3)
    [(0, 3), (3, 5), (5, 7)]
    """
    _check_n_shards(n_shards, n_samples)
    sizes = [len(part) for part in np.array_split(np.arange(n_samples), n_shards)]
    stops = np.cumsum(sizes).tolist()
    return list(zip([0, *stops[:-1]], stops, strict=True))


def train_shard_epoch(
    X: NDArray, y: NDArray, w: NDArray, b: float, eta: float, fit_intercept: bool
) -> tuple[NDArray[np.float64], float, int]:
    """One perceptron epoch over a shard, in its order, from ``(w, b)``; ``w`` is not modified.

    This is what each worker runs in a round. Returns the new ``(w, b)`` and the
    number of mistakes ``k``.

    Examples
    --------
    >>> w, b, k = train_shard_epoch(np.array([[1.0], [-1.0]]), np.array([1.0, -1.0]),
    ...                             np.zeros(1), 0.0, 1.0, True)
    >>> w.tolist(), b, k
    ([2.0], 0.0, 2)
    """
    w = np.array(w, dtype=np.float64)  # a copy: the mixed weights are shared by all shards
    mistakes = np.zeros(X.shape[0], dtype=np.bool_)
    order = np.arange(X.shape[0])
    b = perceptron_epoch(X, y, order, w, float(b), float(eta), bool(fit_intercept), mistakes)
    return w, float(b), int(mistakes.sum())


def mix(coefs: list[NDArray], intercepts: list[float], mu: ArrayLike) -> tuple[NDArray, float]:
    """Return ``sum_i mu_i w_i`` and ``sum_i mu_i b_i``, summed from the first shard on.

    The fixed order of the sum makes the mix the same, bit for bit, wherever it
    runs; with one shard and ``mu = [1.0]`` it returns the shard's weights exactly.

    Examples
    --------
    >>> w, b = mix([np.array([2.0, 0.0]), np.array([0.0, 4.0])], [1.0, -1.0], [0.5, 0.5])
    >>> w.tolist(), b
    ([1.0, 2.0], 0.0)
    """
    w = mu[0] * coefs[0]
    b = mu[0] * intercepts[0]
    for mu_i, w_i, b_i in zip(mu[1:], coefs[1:], intercepts[1:], strict=True):
        w = w + mu_i * w_i
        b = b + mu_i * b_i
    return w, float(b)


def mixing_weights(mistakes: ArrayLike, mixing: str) -> NDArray[np.float64]:
    """Return the mixing weights mu of one round: uniform, or in proportion to mistakes.

    A round in which no shard made a mistake has nothing to weigh by; every
    shard then ends where it started and any weights give the same mix, so
    uniform weights are used.

    Examples
    --------
    >>> mixing_weights([1, 3], "weighted").tolist(), mixing_weights([1, 3], "uniform").tolist()
    ([0.25, 0.75], [0.5, 0.5])
    """
    mistakes = np.asarray(mistakes, dtype=np.float64)
    if mistakes.ndim != 1 or mistakes.size == 0 or np.any(mistakes < 0):
        raise ValueError("mistakes must be a non-empty 1-d array of counts >= 0.")
    if mixing not in ("uniform", "weighted"):
        raise ValueError(f"mixing must be 'uniform' or 'weighted'; got {mixing!r}.")
    total = mistakes.sum()
    if mixing == "uniform" or total == 0:
        return np.full(mistakes.size, 1.0 / mistakes.size)
    return mistakes / total


class MixingRun(NamedTuple):
    """What a run of (iterative) parameter mixing returns: weights and the per-round record.

    ``mistakes[r, i]`` is ``k(i, r)``, the mistakes of shard ``i`` in round ``r``;
    ``mu[r, i]`` its mixing weight; ``coef_path[r]`` and ``intercept_path[r]``
    the mixed weights after round ``r``. Single-shot :func:`parameter_mixing`
    has one "round": row 0 holds each shard's total mistakes and the weights mixed once.
    """

    coef: NDArray[np.float64]
    intercept: float
    converged: bool
    mistakes: NDArray[np.int64]
    mu: NDArray[np.float64]
    coef_path: NDArray[np.float64]
    intercept_path: NDArray[np.float64]


def iterative_parameter_mixing(
    X: ArrayLike,
    y: ArrayLike,
    n_shards: int,
    *,
    mixing: str = "uniform",
    max_iter: int = 100,
    eta: float = 1.0,
    fit_intercept: bool = True,
) -> MixingRun:
    """Iterative parameter mixing (McDonald, Hall and Mann 2010, Figure 3), on one machine.

    Rounds run until one makes no mistake on any shard (``converged``), or ``max_iter``.

    Parameters
    ----------
    X : array-like of shape (n, D)
        Examples, cut into ``n_shards`` contiguous shards by :func:`shard_bounds`.
    y : array-like of shape (n,)
        Labels, -1 and +1.
    n_shards : int
        Number of shards ``S``, from 1 to n.
    mixing : {"uniform", "weighted"}, default "uniform"
        Mixing weights: ``1 / S``, or each shard's share of the round's mistakes.
    max_iter : int, default 100
        The most rounds to run.
    eta : float, default 1.0
        The learning rate.
    fit_intercept : bool, default True
        Learn the bias ``b``.

    Returns
    -------
    MixingRun
        The final weights and, per round, the mistakes, mixing weights and weights.

    Examples
    --------
    >>> X = np.array([[2.0], [1.0], [-1.0], [-2.0]])
    >>> run = iterative_parameter_mixing(X, [1, 1, -1, -1], n_shards=2)
    >>> run.coef.tolist(), run.intercept, run.converged
    ([1.5], 0.0, True)
    >>> run.mistakes.tolist(), run.mu.tolist()
    ([[1, 1], [0, 0]], [[0.5, 0.5], [0.5, 0.5]])
    """
    X, y = _check_signed_data(X, y)
    _check_settings(n_shards, X.shape[0], mixing, max_iter, eta)
    shards = [(X[start:stop], y[start:stop]) for start, stop in shard_bounds(len(X), n_shards)]
    w, b = np.zeros(X.shape[1]), 0.0
    mistakes, mus, coef_path, intercept_path = [], [], [], []
    for _ in range(max_iter):
        # In parallel on a cluster; here one shard after the other.
        results = [train_shard_epoch(Xs, ys, w, b, eta, fit_intercept) for Xs, ys in shards]
        coefs, intercepts, k = (list(column) for column in zip(*results, strict=True))
        mu = mixing_weights(k, mixing)
        w, b = mix(coefs, intercepts, mu)
        mistakes.append(k)
        mus.append(mu)
        coef_path.append(w)
        intercept_path.append(b)
        if sum(k) == 0:
            break
    return MixingRun(
        w,
        b,
        sum(mistakes[-1]) == 0,
        np.array(mistakes, dtype=np.int64),
        np.array(mus),
        np.array(coef_path),
        np.array(intercept_path),
    )


def parameter_mixing(
    X: ArrayLike,
    y: ArrayLike,
    n_shards: int,
    *,
    mixing: str = "uniform",
    max_iter: int = 100,
    eta: float = 1.0,
    fit_intercept: bool = True,
) -> MixingRun:
    """Single-shot parameter mixing (McDonald, Hall and Mann 2010, Figure 2).

    Each shard trains its own perceptron from zero, epoch after epoch in its
    order, until an epoch makes no mistake or ``max_iter`` epochs; the weights
    are then mixed once, ``mixing="weighted"`` in proportion to each shard's
    total mistakes. Parameters as :func:`iterative_parameter_mixing`.
    ``converged`` says whether every shard converged (not that the mix separates
    the data: it need not, which is the paper's point).

    Examples
    --------
    >>> X = np.array([[2.0], [1.0], [-1.0], [-2.0]])
    >>> run = parameter_mixing(X, [1, 1, -1, -1], n_shards=2)
    >>> run.coef.tolist(), run.intercept, run.mistakes.tolist()
    ([1.5], 0.0, [[1, 1]])
    """
    X, y = _check_signed_data(X, y)
    _check_settings(n_shards, X.shape[0], mixing, max_iter, eta)
    coefs, intercepts, totals, all_converged = [], [], [], True
    for start, stop in shard_bounds(len(X), n_shards):
        w, b, total, k = np.zeros(X.shape[1]), 0.0, 0, 1
        for _ in range(max_iter):
            w, b, k = train_shard_epoch(X[start:stop], y[start:stop], w, b, eta, fit_intercept)
            total += k
            if k == 0:
                break
        all_converged = all_converged and k == 0
        coefs.append(w)
        intercepts.append(b)
        totals.append(total)
    mu = mixing_weights(totals, mixing)
    w, b = mix(coefs, intercepts, mu)
    return MixingRun(
        w,
        b,
        all_converged,
        np.array([totals], dtype=np.int64),
        mu[None, :],
        w[None, :],
        np.array([b]),
    )


def mixed_mistakes(mistakes: ArrayLike, mu: ArrayLike) -> NDArray[np.float64]:
    """Return ``sum_{r <= N} sum_i mu(i, r) k(i, r)`` after every round ``N``.

    The left side of McDonald, Hall and Mann's bound (their Theorem 3): on
    separable data it stays ``<= R^2 / gamma^2`` after every round.

    Examples
    --------
    >>> mixed_mistakes([[1, 3], [0, 2]], [[0.25, 0.75], [0.0, 1.0]]).tolist()
    [2.5, 4.5]
    """
    mistakes = np.asarray(mistakes, dtype=np.float64)
    mu = np.asarray(mu, dtype=np.float64)
    if mistakes.ndim != 2 or mistakes.shape != mu.shape:
        raise ValueError(
            f"mistakes and mu must be 2-d arrays (rounds x shards) of one shape; got "
            f"{mistakes.shape} and {mu.shape}."
        )
    return np.cumsum((mu * mistakes).sum(axis=1))


# -- checks shared by the reference and the estimator -----------------------------------


def _check_n_shards(n_shards: object, n_samples: int) -> int:
    if isinstance(n_shards, bool) or not isinstance(n_shards, Integral):
        raise TypeError(f"n_shards must be an int; got {n_shards!r}.")
    if not 1 <= n_shards <= n_samples:
        raise ValueError(
            f"n_shards must be between 1 and the number of examples ({n_samples}); got {n_shards}."
        )
    return int(n_shards)


def _check_settings(n_shards, n_samples, mixing, max_iter, eta) -> None:
    _check_n_shards(n_shards, n_samples)
    if mixing not in MIXINGS:
        raise ValueError(f"mixing must be 'uniform' or 'weighted'; got {mixing!r}.")
    if isinstance(max_iter, bool) or not isinstance(max_iter, Integral) or max_iter < 1:
        raise ValueError(f"max_iter must be a positive int; got {max_iter!r}.")
    if isinstance(eta, bool) or not isinstance(eta, Real) or not eta > 0:
        raise ValueError(f"eta must be a positive number; got {eta!r}.")


def _check_signed_data(
    X: ArrayLike, y: ArrayLike
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Validate examples and -1/+1 labels; return them as float arrays (X contiguous)."""
    X = np.ascontiguousarray(X, dtype=np.float64)
    y = np.asarray(y)
    if X.ndim != 2 or y.shape != (X.shape[0],) or X.shape[0] == 0:
        raise ValueError(
            f"X must be a non-empty 2-d array with one label in y per row; got X of shape "
            f"{X.shape} and y of shape {y.shape}."
        )
    if not np.all(np.isfinite(X)):
        raise ValueError("X contains NaN or infinity.")
    if not np.all(np.isin(y, (-1, 1))):
        raise ValueError("y must hold the labels -1 and +1 only.")
    return X, y.astype(np.float64)
