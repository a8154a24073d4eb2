"""Measurements of parameter mixing for chapter 8: accuracy and time per round, data movement.

Each function returns plain data (a pandas DataFrame or a dict) for a notebook
cell to plot or print, and is sized to run in a few seconds on two cores.
Accuracy is computed with the NumPy reference of
:mod:`perceptron_lib.distributed` (the Dask classifier gives the same weights,
bit for bit, as the tests check), so it needs no cluster; the timings need one,
passed in as a ``distributed.Client``.

Run as a script (``python -m perceptron_lib.experiments.mixing``) it starts a
``LocalCluster`` of two worker processes and prints every measurement.
"""

from __future__ import annotations

import time
import warnings

import numpy as np
import pandas as pd
from numpy.typing import NDArray
from sklearn.exceptions import ConvergenceWarning
from sklearn.preprocessing import StandardScaler

from ..data.datasets import load_breast_cancer_task, make_separable
from ..distributed import (
    ParameterMixingPerceptron,
    iterative_parameter_mixing,
    mix,
    mixed_mistakes,
    shard_bounds,
    train_shard_epoch,
)
from ..mixing import mixing_weights
from ..theory.convergence import lifted_radius, max_lifted_margin

__all__ = [
    "accuracy_per_round",
    "mistake_bound_table",
    "data_movement_cost",
    "mixing_data",
    "round_time_by_size",
]


def mixing_data(kind: str, *, random_state: int = 0) -> dict[str, NDArray]:
    """A training and a test set for the accuracy experiments, labels -1/+1.

    ``"separable"``: 2,000 examples in 20 dimensions with a small planted margin
    (0.02), every fourth one held out for testing. ``"noisy"``: scikit-learn's
    breast cancer task (569 examples, 30 features), standardized with the
    training set's statistics, every fourth example held out. Its training set is
    linearly separable, but only with a tiny margin (a linear program finds a
    separator), so the perceptron does not reach a separator within the few
    epochs of these experiments and behaves as on noisy data.

    Examples
    --------
    >>> data = mixing_data("separable")
    >>> data["X_train"].shape, data["X_test"].shape
    ((1500, 20), (500, 20))
    """
    if kind == "separable":
        X, y, *_ = make_separable(2000, margin=0.02, n_features=20, random_state=random_state)
    elif kind == "noisy":
        task = load_breast_cancer_task()
        X, y = task.X, task.y
    else:
        raise ValueError(f"kind must be 'separable' or 'noisy'; got {kind!r}.")
    test = np.arange(len(y)) % 4 == 3
    X_train, X_test = X[~test], X[test]
    if kind == "noisy":
        scaler = StandardScaler().fit(X_train)
        X_train, X_test = scaler.transform(X_train), scaler.transform(X_test)
    return {"X_train": X_train, "y_train": y[~test], "X_test": X_test, "y_test": y[test]}


def _accuracy(w: NDArray, b: float, X: NDArray, y: NDArray) -> float:
    return float(np.mean(np.where(X @ w + b > 0, 1, -1) == y))


def _single_shot_per_epoch(X, y, n_shards, max_rounds):
    """Weights of single-shot mixing after each shard has trained 1, 2, ... epochs."""
    shards = [(X[a:b], y[a:b]) for a, b in shard_bounds(len(X), n_shards)]
    coefs = [np.zeros(X.shape[1]) for _ in shards]
    intercepts = [0.0] * n_shards
    mixed = []
    for _ in range(max_rounds):
        for i, (Xs, ys) in enumerate(shards):
            coefs[i], intercepts[i], _ = train_shard_epoch(
                Xs, ys, coefs[i], intercepts[i], 1.0, True
            )
        mixed.append(mix(coefs, intercepts, mixing_weights([1] * n_shards, "uniform")))
    return mixed


def accuracy_per_round(
    data: dict[str, NDArray], *, shard_counts=(1, 2, 4, 8), max_rounds: int = 20
) -> pd.DataFrame:
    """Test accuracy after each round of every method, for each number of shards.

    Methods: ``"serial"`` (the perceptron, one epoch per round, in the data's
    order: iterative parameter mixing with one shard), ``"IPM uniform"`` and
    ``"IPM weighted"`` (iterative parameter mixing), and ``"single-shot"``
    (each shard trained for ``round`` epochs alone, then the weights averaged
    once). A run that converges keeps its weights for the remaining rounds.

    Parameters
    ----------
    data : dict
        As returned by :func:`mixing_data`.
    shard_counts : sequence of int, default (1, 2, 4, 8)
        The numbers of shards ``S`` to compare.
    max_rounds : int, default 20
        Rounds (epochs) to record.

    Returns
    -------
    pandas.DataFrame
        One row per method, ``n_shards`` and ``round`` (1 to ``max_rounds``),
        with the test ``accuracy`` and the ``mistakes`` made in training in that
        round (summed over shards; 0 once converged; NaN for single-shot).

    Examples
    --------
    >>> table = accuracy_per_round(mixing_data("noisy"), shard_counts=(2,), max_rounds=3)
    >>> sorted(table["method"].unique())
    ['IPM uniform', 'IPM weighted', 'serial', 'single-shot']
    >>> len(table)
    12
    """
    X, y = data["X_train"], data["y_train"]
    X_test, y_test = data["X_test"], data["y_test"]
    rows = []

    def record(method, n_shards, coefs, intercepts, mistakes):
        for r in range(max_rounds):
            last = min(r, len(coefs) - 1)  # a converged run keeps its last weights
            rows.append(
                {
                    "method": method,
                    "n_shards": n_shards,
                    "round": r + 1,
                    "accuracy": _accuracy(coefs[last], intercepts[last], X_test, y_test),
                    "mistakes": mistakes[r] if r < len(mistakes) else 0,
                }
            )

    serial = iterative_parameter_mixing(X, y, 1, max_iter=max_rounds)
    for n_shards in shard_counts:
        record(
            "serial",
            n_shards,
            serial.coef_path,
            serial.intercept_path,
            serial.mistakes.sum(axis=1),
        )
        for mixing in ("uniform", "weighted"):
            run = iterative_parameter_mixing(X, y, n_shards, mixing=mixing, max_iter=max_rounds)
            record(
                f"IPM {mixing}",
                n_shards,
                run.coef_path,
                run.intercept_path,
                run.mistakes.sum(axis=1),
            )
        mixed = _single_shot_per_epoch(X, y, n_shards, max_rounds)
        record(
            "single-shot",
            n_shards,
            [w for w, _ in mixed],
            [b for _, b in mixed],
            [np.nan] * max_rounds,
        )
    return pd.DataFrame(rows)


def mistake_bound_table(
    X: NDArray, y: NDArray, *, shard_counts=(1, 2, 4, 8), max_iter: int = 1000
) -> pd.DataFrame:
    """McDonald, Hall and Mann's bound checked on separable data, for each S and mixing.

    For every number of shards and both mixings, runs iterative parameter
    mixing to convergence and reports the largest left side of the bound over
    the rounds, ``max_N sum_{n<=N} sum_i mu(i, n) k(i, n)`` (the last round's,
    as it only grows), next to the bound ``R^2 / gamma^2`` (lifted radius and
    largest lifted margin, as in chapter 5) and the total number of updates
    over all shards, which the theorem does *not* bound.

    Returns
    -------
    pandas.DataFrame
        Columns ``n_shards``, ``mixing``, ``rounds``, ``converged``,
        ``mixed_mistakes``, ``all_updates``, ``bound`` and ``holds``.

    Examples
    --------
    >>> X, y, *_ = make_separable(100, margin=0.1, random_state=0)
    >>> table = mistake_bound_table(X, y, shard_counts=(1, 4))
    >>> table["holds"].all(), len(table)
    (np.True_, 4)
    """
    gamma = max_lifted_margin(X, y).margin
    bound = (lifted_radius(X) / gamma) ** 2
    rows = []
    for n_shards in shard_counts:
        for mixing in ("uniform", "weighted"):
            run = iterative_parameter_mixing(X, y, n_shards, mixing=mixing, max_iter=max_iter)
            left = mixed_mistakes(run.mistakes, run.mu)
            rows.append(
                {
                    "n_shards": n_shards,
                    "mixing": mixing,
                    "rounds": len(run.mistakes),
                    "converged": run.converged,
                    "mixed_mistakes": float(left[-1]),
                    "all_updates": int(run.mistakes.sum()),
                    "bound": bound,
                    "holds": bool(np.all(left <= bound)),
                }
            )
    return pd.DataFrame(rows)


def _noisy_regression_data(n: int, n_features: int, random_state: int = 0):
    """Random data with random labels: every epoch makes mistakes, so every round runs."""
    rng = np.random.default_rng(random_state)
    return rng.normal(size=(n, n_features)), rng.choice([-1, 1], size=n)


def _serial_epoch_seconds(X, y, repeats: int) -> float:
    """Median time of one perceptron epoch over all of ``X`` in this process."""
    w, b = np.zeros(X.shape[1]), 0.0
    train_shard_epoch(X[:2], y[:2], w, b, 1.0, True)  # compile (or load) the loop first
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        w, b, _ = train_shard_epoch(X, y, w, b, 1.0, True)
        times.append(time.perf_counter() - start)
    return float(np.median(times))


def round_time_by_size(
    client, sizes=(10_000, 50_000, 200_000), *, n_features: int = 50, n_rounds: int = 8
) -> pd.DataFrame:
    """Wall time of a round on the cluster against a serial epoch, for growing data.

    For each size ``n`` the data (random, so that every round makes mistakes)
    is cut into one shard per worker. The serial epoch runs in this process on
    all ``n`` examples; the round runs one epoch per shard on the workers and
    mixes. The measurements alternate: serial epochs, then the cluster's
    rounds, size by size; medians are reported.

    Parameters
    ----------
    client : distributed.Client
        The cluster (for the chapter, a ``LocalCluster`` of two processes).
    sizes : sequence of int
        Numbers of examples ``n``.
    n_features : int, default 50
        Number of features ``D``.
    n_rounds : int, default 8
        Rounds (and serial epochs) timed per size.

    Returns
    -------
    pandas.DataFrame
        Per size: ``n``, ``n_shards``, ``serial_epoch_s``, ``round_s`` (median),
        ``scatter_s`` (sending the data, once), and ``speedup`` =
        ``serial_epoch_s / round_s``.
    """
    rows = []
    for n in sizes:
        X, y = _noisy_regression_data(n, n_features)
        serial = _serial_epoch_seconds(X, y, n_rounds)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            model = ParameterMixingPerceptron(max_iter=n_rounds, client=client).fit(X, y)
        round_s = float(np.median(model.round_seconds_))
        rows.append(
            {
                "n": n,
                "n_shards": model.n_shards_,
                "serial_epoch_s": serial,
                "round_s": round_s,
                "scatter_s": model.scatter_seconds_,
                "speedup": serial / round_s,
            }
        )
    return pd.DataFrame(rows)


def _rounds_sending_data(client, X, y, n_shards: int, n_rounds: int) -> NDArray:
    """Run rounds with each shard's data sent along with the weights every round."""
    w, b = np.zeros(X.shape[1]), 0.0
    shards = [(X[a:c], y[a:c]) for a, c in shard_bounds(len(X), n_shards)]
    seconds = []
    for _ in range(n_rounds):
        start = time.perf_counter()
        futures = [
            client.submit(train_shard_epoch, Xs, ys, w, b, 1.0, True, pure=False)
            for Xs, ys in shards
        ]
        results = client.gather(futures)
        coefs, intercepts, k = (list(c) for c in zip(*results, strict=True))
        w, b = mix(coefs, intercepts, mixing_weights(k, "uniform"))
        seconds.append(time.perf_counter() - start)
    return np.array(seconds)


def data_movement_cost(
    client, *, n: int = 100_000, n_features: int = 50, n_rounds: int = 8
) -> dict[str, float]:
    """The cost of scattering the shards once against sending them with every round.

    Both runs do the same rounds (one epoch per shard, one shard per worker,
    uniform mixing) on random data of ``n`` examples and ``n_features``
    features; one scatters the shards first and sends only weights, the other
    ships each shard inside every round's task.

    Returns
    -------
    dict
        ``data_mb`` (size of X), ``scatter_once_s`` (the one scatter),
        ``round_scattered_s`` (median round when only weights travel),
        ``round_resent_s`` (median round when the data travels too),
        ``total_scattered_s`` and ``total_resent_s`` (all ``n_rounds`` rounds, the
        first including its scatter).
    """
    X, y = _noisy_regression_data(n, n_features)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        scattered = ParameterMixingPerceptron(max_iter=n_rounds, client=client).fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # dask: "large object in task graph"
        resent = _rounds_sending_data(client, X, y, scattered.n_shards_, n_rounds)
    return {
        "data_mb": X.nbytes / 1e6,
        "scatter_once_s": scattered.scatter_seconds_,
        "round_scattered_s": float(np.median(scattered.round_seconds_)),
        "round_resent_s": float(np.median(resent)),
        "total_scattered_s": scattered.scatter_seconds_ + float(scattered.round_seconds_.sum()),
        "total_resent_s": float(resent.sum()),
    }


if __name__ == "__main__":  # pragma: no cover - a LocalCluster needs the main guard
    import os

    from distributed import Client, LocalCluster

    pd.set_option("display.width", 120)
    for kind in ("separable", "noisy"):
        table = accuracy_per_round(mixing_data(kind))
        print(kind)
        print(
            table.pivot_table(index="round", columns=["method", "n_shards"], values="accuracy")
            .iloc[[0, 1, 4, 9, 19]]
            .round(3)
            .T
        )
    with LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=":0") as cluster:
        with Client(cluster) as client:
            print("load average", os.getloadavg())
            print(round_time_by_size(client))
            print(data_movement_cost(client))
            print("load average", os.getloadavg())
