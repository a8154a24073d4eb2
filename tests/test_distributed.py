"""Iterative parameter mixing: the NumPy reference, the Dask estimator, the mistake bound.

One in-process Dask cluster (threads) is shared by the module; only the tests
about starting and stopping clusters (and a worker that dies) start their own
``LocalCluster`` of processes.
"""

import os
import pickle
import threading
import time
import warnings

import numpy as np
import psutil
import pytest
from sklearn.base import clone
from sklearn.exceptions import ConvergenceWarning
from sklearn.model_selection import cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

pytest.importorskip("distributed")
import dask.array as da  # noqa: E402
from distributed import Client  # noqa: E402

from perceptron_lib import Perceptron  # noqa: E402
from perceptron_lib import distributed as ipm  # noqa: E402
from perceptron_lib.data.datasets import make_separable  # noqa: E402
from perceptron_lib.distributed import (  # noqa: E402
    ParameterMixingPerceptron,
    iterative_parameter_mixing,
    mix,
    mixed_mistakes,
    parameter_mixing,
    shard_bounds,
)
from perceptron_lib.theory.convergence import lifted_radius, max_lifted_margin  # noqa: E402


@pytest.fixture(scope="module")
def client():
    """One in-process cluster of two single-threaded workers for the whole module."""
    with Client(
        processes=False, n_workers=2, threads_per_worker=1, dashboard_address=":0"
    ) as shared:
        yield shared


def separable(n=120, n_features=3, seed=0):
    data = make_separable(n, margin=0.05, n_features=n_features, random_state=seed)
    return data.X, data.y


def noisy(n=120, seed=1):
    X, y = separable(n, seed=seed)
    flipped = y.copy()
    flipped[np.random.default_rng(seed).choice(n, size=n // 10, replace=False)] *= -1
    return X, flipped


def orthonormal_copies(n_copies):
    """``n_copies`` copies of four orthonormal examples with alternating labels.

    On one copy the perceptron makes 4 mistakes, half its bound R^2 / gamma^2 = 2 / (1/2)^2 = 8:
    a bound close enough to be broken by a wrong gamma or wrong mixing weights.
    """
    return np.tile(np.eye(4), (n_copies, 1)), np.tile([1, -1, 1, -1], n_copies)


def children():
    """This process's children, but multiprocessing's resource tracker, which lives on."""
    return [
        p
        for p in psutil.Process().children(recursive=True)
        if p.is_running() and "resource_tracker" not in " ".join(p.cmdline())
    ]


# -- the NumPy reference ------------------------------------------------------------------


def test_shards_are_contiguous_and_cut_as_array_split():
    for n, s in [(10, 3), (7, 7), (5, 1), (9, 4)]:
        bounds = shard_bounds(n, s)
        parts = np.array_split(np.arange(n), s)
        assert [list(range(a, b)) for a, b in bounds] == [p.tolist() for p in parts]


@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("data", [separable, noisy])
def test_one_shard_is_the_sequential_perceptron_bit_for_bit(data, fit_intercept):
    X, y = data()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        serial = Perceptron(shuffle=False, max_iter=30, fit_intercept=fit_intercept).fit(X, y)
    run = iterative_parameter_mixing(X, y, 1, max_iter=30, fit_intercept=fit_intercept)
    assert np.array_equal(run.coef, serial.coef_)
    assert run.intercept == serial.intercept_
    assert run.mistakes[:, 0].tolist() == serial.mistakes_per_epoch_.tolist()
    assert run.converged == serial.converged_


def test_a_round_mixes_the_epochs_of_every_shard_from_the_same_weights():
    X, y = separable(n=60)
    run = iterative_parameter_mixing(X, y, 3, mixing="weighted", max_iter=2)
    # Round 1 by hand: every shard from zero, one epoch in its order, mixed by its mistakes.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        shards = [
            Perceptron(shuffle=False, max_iter=1).fit(X[a:b], y[a:b])
            for a, b in shard_bounds(60, 3)
        ]
    k = np.array([s.mistakes_per_epoch_[0] for s in shards])
    assert run.mistakes[0].tolist() == k.tolist()
    assert np.allclose(run.mu[0], k / k.sum())
    expected = sum(m * s.coef_ for m, s in zip(k / k.sum(), shards, strict=True))
    assert np.allclose(run.coef_path[0], expected)


def test_weighted_and_uniform_mixing_weights():
    X, y = noisy()
    uniform = iterative_parameter_mixing(X, y, 4, mixing="uniform", max_iter=5)
    weighted = iterative_parameter_mixing(X, y, 4, mixing="weighted", max_iter=5)
    assert np.all(uniform.mu == 0.25)
    assert np.allclose(weighted.mu.sum(axis=1), 1.0)
    k = weighted.mistakes
    assert np.allclose(weighted.mu, k / k.sum(axis=1, keepdims=True))
    assert not np.array_equal(uniform.coef_path[1], weighted.coef_path[1])


def test_single_shot_mixing_averages_perceptrons_trained_on_each_shard():
    X, y = separable(n=90)
    run = parameter_mixing(X, y, 3, max_iter=200)
    shards = [
        Perceptron(shuffle=False, max_iter=200).fit(X[a:b], y[a:b]) for a, b in shard_bounds(90, 3)
    ]
    assert run.converged and all(s.converged_ for s in shards)
    assert np.allclose(run.coef, np.mean([s.coef_ for s in shards], axis=0))
    assert run.mistakes[0].tolist() == [int(s.mistakes_per_epoch_.sum()) for s in shards]
    one = parameter_mixing(X, y, 1, max_iter=200)
    serial = Perceptron(shuffle=False, max_iter=200).fit(X, y)
    assert np.array_equal(one.coef, serial.coef_) and one.intercept == serial.intercept_


def test_mix_sums_in_shard_order_and_one_shard_is_exact():
    w = np.array([0.1, 0.7])
    assert mix([w], [0.3], np.array([1.0]))[0] is not w
    assert np.array_equal(mix([w], [0.3], np.array([1.0]))[0], w)
    coefs = [np.array([1.0]), np.array([4e16]), np.array([-4e16])]
    # (0.5 + 1e16) - 1e16 loses the 0.5, (1e16 - 1e16) + 0.5 would keep it: the order of the
    # sum is part of the result, so the reference and the cluster must sum in the same order.
    assert mix(coefs, [0.0] * 3, np.array([0.5, 0.25, 0.25]))[0][0] == 0.0


# -- McDonald, Hall and Mann's bound -----------------------------------------------------------


@pytest.mark.parametrize("mixing", ["uniform", "weighted"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_mixed_mistakes_stay_below_the_bound_after_every_round(mixing, seed):
    X, y = separable(n=150, n_features=2, seed=seed)
    bound = (lifted_radius(X) / max_lifted_margin(X, y).margin) ** 2
    for n_shards in (1, 2, 4, 8):
        run = iterative_parameter_mixing(X, y, n_shards, mixing=mixing, max_iter=500)
        assert run.converged
        assert np.all(mixed_mistakes(run.mistakes, run.mu) <= bound)


def test_the_bound_check_fails_with_a_wrong_gamma_or_wrong_mixing_weights():
    X, y = orthonormal_copies(8)
    gamma = max_lifted_margin(X, y).margin
    bound = (lifted_radius(X) / gamma) ** 2
    run = iterative_parameter_mixing(X, y, 8)  # every shard is one copy: 4 mistakes each
    assert np.all(mixed_mistakes(run.mistakes, run.mu) <= bound)
    assert not np.all(
        mixed_mistakes(run.mistakes, run.mu) <= (lifted_radius(X) / (2 * gamma)) ** 2
    )
    assert not np.all(mixed_mistakes(run.mistakes, np.ones_like(run.mu)) <= bound)


def test_mixed_mistakes_checks_shapes():
    with pytest.raises(ValueError, match="rounds x shards"):
        mixed_mistakes([[1, 2]], [[0.5, 0.5, 0.0]])


# -- the Dask estimator -----------------------------------------------------------------------


@pytest.mark.parametrize("mixing", ["uniform", "weighted"])
@pytest.mark.parametrize("n_shards", [1, 2, 3, 7])
def test_dask_estimator_gives_the_reference_weights(client, n_shards, mixing):
    X, y = noisy(n=100, seed=n_shards)
    reference = iterative_parameter_mixing(X, y, n_shards, mixing=mixing, max_iter=8)
    with pytest.warns(ConvergenceWarning, match="max_iter=8"):
        model = ParameterMixingPerceptron(
            n_shards=n_shards, mixing=mixing, max_iter=8, client=client
        ).fit(X, y)
    assert np.array_equal(model.coef_, reference.coef)
    assert model.intercept_ == reference.intercept
    assert np.array_equal(model.mistakes_per_round_, reference.mistakes)
    assert np.array_equal(model.mixing_weights_, reference.mu)
    assert np.array_equal(model.coef_path_, reference.coef_path)
    assert np.array_equal(model.intercept_path_, reference.intercept_path)
    assert model.n_iter_ == 8 and not model.converged_
    assert model.round_seconds_.shape == (8,) and model.scatter_seconds_ > 0


def test_one_shard_on_dask_is_the_sequential_perceptron(client):
    X, y = separable()
    model = ParameterMixingPerceptron(n_shards=1, client=client).fit(X, y)
    serial = Perceptron(shuffle=False).fit(X, y)
    assert np.array_equal(model.coef_, serial.coef_) and model.intercept_ == serial.intercept_
    assert model.converged_ and model.n_iter_ == serial.n_iter_


def test_one_shard_per_worker_by_default_and_labels_of_any_type(client):
    X, y = separable()
    labels = np.where(y > 0, "spam", "ham")
    model = ParameterMixingPerceptron(client=client).fit(X, labels)
    assert model.n_shards_ == len(client.nthreads()) == 2
    assert model.classes_.tolist() == ["ham", "spam"]
    assert model.score(X, labels) == 1.0
    reference = iterative_parameter_mixing(X, y, 2)
    assert np.array_equal(model.coef_, reference.coef)


def test_dask_arrays_give_the_same_weights_as_numpy(client):
    X, y = noisy(n=110)
    # Chunks that do not line up with the shards (3 shards of 37, 37, 36 rows).
    dX, dy = da.from_array(X, chunks=(25, 3)), da.from_array(y, chunks=40)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        from_dask = ParameterMixingPerceptron(n_shards=3, max_iter=5, client=client).fit(dX, dy)
        from_numpy = ParameterMixingPerceptron(n_shards=3, max_iter=5, client=client).fit(X, y)
    assert np.array_equal(from_dask.coef_, from_numpy.coef_)
    assert np.array_equal(from_dask.mistakes_per_round_, from_numpy.mistakes_per_round_)
    assert from_dask.n_features_in_ == 3


def test_dask_input_is_checked_on_the_workers(client):
    X, y = separable()
    X[100, 1] = np.nan  # in the second shard: every shard is checked
    with pytest.raises(ValueError, match="NaN"):
        ParameterMixingPerceptron(client=client).fit(da.from_array(X, chunks=30), y)
    X, y = separable()
    with pytest.raises(ValueError, match="one class"):
        ParameterMixingPerceptron(client=client).fit(da.from_array(X), np.ones(len(y)))
    with pytest.raises(ValueError, match="shape"):
        ParameterMixingPerceptron(client=client).fit(da.from_array(X), da.from_array(y[:-1]))


def test_a_client_passed_in_stays_open_and_inputs_are_not_modified(client):
    X, y = separable()
    X0, y0 = X.copy(), y.copy()
    ParameterMixingPerceptron(client=client).fit(X, y)
    assert client.status == "running"
    assert np.array_equal(X, X0) and np.array_equal(y, y0)
    # The shards are released from the workers after fit (the release is asynchronous).
    deadline = time.monotonic() + 5
    while client.who_has() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not client.who_has()


@pytest.mark.parametrize(
    ("params", "X", "y", "error", "match"),
    [
        ({}, [[np.nan, 1.0], [1.0, 2.0]], [0, 1], ValueError, "NaN"),
        ({}, [1.0, 2.0], [0, 1], ValueError, "2D array"),
        ({}, [[1.0], [2.0]], [0, 1, 1], ValueError, "inconsistent"),
        ({}, [[1.0], [2.0]], [1, 1], ValueError, "one class"),
        ({"n_shards": 3}, [[1.0], [2.0]], [0, 1], ValueError, "between 1 and"),
        ({"n_shards": 0}, [[1.0], [2.0]], [0, 1], ValueError, "n_shards"),
        ({"n_shards": True}, [[1.0], [2.0]], [0, 1], TypeError, "bool"),
        ({"mixing": "mean"}, [[1.0], [2.0]], [0, 1], ValueError, "mixing"),
        ({"client": 42}, [[1.0], [2.0]], [0, 1], ValueError, "client"),
        ({"timeout": 0}, [[1.0], [2.0]], [0, 1], ValueError, "timeout"),
    ],
)
def test_bad_input_fails_before_any_cluster_starts(monkeypatch, params, X, y, error, match):
    def no_cluster(*args, **kwargs):
        raise AssertionError("a cluster was started for bad input")

    monkeypatch.setattr(ipm, "LocalCluster", no_cluster)
    with pytest.raises(error, match=match):
        ParameterMixingPerceptron(**params).fit(X, y)


def test_reference_rejects_bad_settings():
    X, y = separable(n=10)
    with pytest.raises(ValueError, match="between 1 and"):
        iterative_parameter_mixing(X, y, 11)
    with pytest.raises(ValueError, match="mixing"):
        iterative_parameter_mixing(X, y, 2, mixing="average")
    with pytest.raises(ValueError, match="labels -1 and \\+1"):
        parameter_mixing(X, y + 5, 2)
    with pytest.raises(TypeError, match="n_shards"):
        iterative_parameter_mixing(X, y, 2.0)


# -- scikit-learn ------------------------------------------------------------------------------


def test_clone_shares_the_client_and_cross_validation_runs_on_it(client):
    model = ParameterMixingPerceptron(n_shards=2, mixing="weighted", client=client)
    copy = clone(model)
    assert copy.client is client and copy.get_params()["mixing"] == "weighted"
    X, y = separable(n=150)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        scores = cross_val_score(make_pipeline(StandardScaler(), model), X, y, cv=3)
    assert scores.shape == (3,) and scores.min() > 0.8
    assert client.status == "running"


def test_a_pickled_model_keeps_the_scheduler_address_and_predicts_the_same(client):
    X, y = separable()
    model = ParameterMixingPerceptron(client=client).fit(X, y)
    copy = pickle.loads(pickle.dumps(model))
    assert copy.client == client.scheduler.address
    assert np.array_equal(copy.predict(X), model.predict(X))
    assert model.client is client


def test_scikit_learn_estimator_checks(client):
    from sklearn.utils.estimator_checks import check_estimator

    # The checks deep-copy and pickle the estimator: give it the scheduler's address,
    # which is also how a model reaches a remote cluster.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        check_estimator(ParameterMixingPerceptron(client=client.scheduler.address, max_iter=5))


def test_scikit_learn_estimator_checks_with_a_live_client():
    from sklearn.utils.estimator_checks import check_estimator

    # Its own in-process client, closed after: the checks deep-copy and hash the
    # parameters (check_set_params, check_estimators_overwrite_params), which a live
    # Client could not survive before (and a half-made copy closed the client's loop).
    with Client(
        processes=False, n_workers=1, threads_per_worker=1, dashboard_address=":0"
    ) as live:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            results = check_estimator(
                ParameterMixingPerceptron(client=live, max_iter=5), on_fail=None
            )
        assert live.status == "running"
    failed = [(r["check_name"], repr(r["exception"])) for r in results if r["status"] == "failed"]
    assert failed == []
    assert {r["status"] for r in results} <= {"passed", "skipped"} and len(results) > 50


def test_a_copy_or_hash_of_a_live_client_refers_to_it(client):
    import copy

    import joblib

    assert copy.deepcopy(client) is client and copy.copy(client) is client
    assert copy.deepcopy({"client": client})["client"] is client
    assert pickle.loads(pickle.dumps(client)) is client  # in this process only
    assert joblib.hash(client) == joblib.hash(client)
    # Unpickled where that client does not live: a clear error, not a broken client.
    with pytest.raises(ValueError, match="cannot travel between processes"):
        ipm._live_client("Client-that-does-not-exist", "tcp://127.0.0.1:8786")


# -- clusters started by fit -------------------------------------------------------------------


def test_fit_starts_a_local_cluster_and_closes_it():
    X, y = separable()
    before = {p.pid for p in children()}
    model = ParameterMixingPerceptron(n_shards=2).fit(X, y)
    reference = iterative_parameter_mixing(X, y, 2)
    assert np.array_equal(model.coef_, reference.coef)
    assert {p.pid for p in children()} <= before  # worker processes gone


def test_a_worker_that_dies_mid_fit_ends_in_a_clear_error_and_no_cluster_is_left(monkeypatch):
    X, y = noisy(n=400)
    before = {p.pid for p in children()}
    gather = ParameterMixingPerceptron._gather_round
    rounds = []

    def kill_a_worker_in_round_2(self, client, futures):
        rounds.append(len(rounds) + 1)
        if len(rounds) == 2:
            pid = client.run(os.getpid)[self._shard_workers[1]]
            # From another thread, as a crash would come: the round is already running.
            killer = threading.Thread(target=lambda: psutil.Process(pid).kill())
            killer.start()
            killer.join()
        return gather(self, client, futures)

    monkeypatch.setattr(ParameterMixingPerceptron, "_gather_round", kill_a_worker_in_round_2)
    # The time-out is only a safety net here (the dead worker is reported at once): on a
    # loaded machine a fresh worker's first round took longer than 30 s.
    model = ParameterMixingPerceptron(n_shards=2, max_iter=50, timeout=300)
    with pytest.raises(RuntimeError, match="lost in round 2") as caught:
        model.fit(X, y)
    assert caught.value.__cause__ is not None
    assert rounds == [1, 2]
    assert {p.pid for p in children()} <= before


# -- the chapter's measurements ----------------------------------------------------------------


def test_accuracy_per_round_compares_the_methods_on_the_same_rounds():
    from perceptron_lib.experiments.mixing import accuracy_per_round, mixing_data

    data = mixing_data("noisy")
    table = accuracy_per_round(data, shard_counts=(1, 4), max_rounds=4)
    assert len(table) == 4 * 2 * 4  # methods x shard counts x rounds
    by = table.set_index(["method", "n_shards", "round"]).sort_index()["accuracy"]
    # With one shard, both mixings and single-shot averaging are the serial perceptron.
    for method in ("IPM uniform", "IPM weighted", "single-shot"):
        assert by[method, 1].tolist() == by["serial", 1].tolist()
    run = iterative_parameter_mixing(data["X_train"], data["y_train"], 4, max_iter=4)
    predictions = np.where(data["X_test"] @ run.coef_path[2] + run.intercept_path[2] > 0, 1, -1)
    assert by["IPM uniform", 4, 3] == np.mean(predictions == data["y_test"])
    assert table["accuracy"].between(0.5, 1.0).all()


def test_timings_and_data_movement_are_measured_on_the_cluster(client):
    from perceptron_lib.experiments.mixing import data_movement_cost, round_time_by_size

    table = round_time_by_size(client, sizes=(500, 2000), n_features=5, n_rounds=2)
    assert table["n"].tolist() == [500, 2000] and (table["n_shards"] == 2).all()
    assert (table[["serial_epoch_s", "round_s", "scatter_s"]] > 0).all().all()
    cost = data_movement_cost(client, n=2000, n_features=5, n_rounds=2)
    assert cost["data_mb"] == 2000 * 5 * 8 / 1e6
    assert cost["total_scattered_s"] > cost["scatter_once_s"] > 0 and cost["round_resent_s"] > 0


def test_mistake_bound_table_reports_the_left_side_the_bound_and_all_updates():
    from perceptron_lib.experiments.mixing import mistake_bound_table

    X, y = orthonormal_copies(8)
    table = mistake_bound_table(X, y, shard_counts=(1, 8)).set_index(["n_shards", "mixing"])
    serial = Perceptron(shuffle=False).fit(X, y)
    assert table.loc[(1, "uniform"), "mixed_mistakes"] == serial.mistakes_per_epoch_.sum()
    assert table.loc[(8, "uniform"), "mixed_mistakes"] == 4.0  # each copy: 4 mistakes
    assert table.loc[(8, "uniform"), "all_updates"] == 32  # 8 shards x 4: above the bound
    assert np.allclose(table["bound"], 8.0) and table["holds"].all()


def test_a_scheduler_address_is_connected_to_and_disconnected_from(client):
    def n_clients(dask_scheduler):
        return len(dask_scheduler.clients)

    before = client.run_on_scheduler(n_clients)
    X, y = separable()
    model = ParameterMixingPerceptron(client=client.scheduler.address).fit(X, y)
    assert np.array_equal(model.coef_, iterative_parameter_mixing(X, y, 2).coef)
    deadline = time.monotonic() + 5
    while client.run_on_scheduler(n_clients) != before and time.monotonic() < deadline:
        time.sleep(0.05)
    assert client.run_on_scheduler(n_clients) == before
    assert client.status == "running"


def test_a_round_that_never_finishes_ends_in_a_timeout(client, monkeypatch):
    def stuck(*args):
        time.sleep(1.0)

    monkeypatch.setattr(ipm, "_shard_epoch_on_worker", stuck)
    X, y = separable()
    start = time.monotonic()
    with pytest.raises(TimeoutError, match="Shard 0 .* within timeout=0.2"):
        ParameterMixingPerceptron(client=client, timeout=0.2).fit(X, y)
    assert time.monotonic() - start < 1.0
    time.sleep(1.0)  # let the stuck epochs end before the next test uses the workers


def test_without_dask_the_import_error_says_what_to_install():
    import subprocess
    import sys

    code = "import sys; sys.modules['distributed'] = None; import perceptron_lib.distributed"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode != 0
    assert "ImportError: perceptron_lib.distributed needs" in result.stderr
    assert 'pip install "dask[distributed]"' in result.stderr


# -- no silent failure (issue 25) -------------------------------------------------------------


@pytest.mark.parametrize(
    ("labels", "match"),
    [
        (lambda y: np.where(np.arange(len(y)) == 7, np.nan, y), "NaN"),
        (lambda y: y + np.linspace(0.0, 0.5, len(y)), "Unknown label type: continuous"),
    ],
    ids=["NaN label", "continuous labels"],
)
def test_dask_labels_are_checked_as_numpy_labels_are(client, labels, match):
    X, y = separable()
    bad = labels(y.astype(float))
    with pytest.raises(ValueError, match=match):
        ParameterMixingPerceptron(client=client).fit(X, bad)  # the NumPy path
    with pytest.raises(ValueError, match=match):
        ParameterMixingPerceptron(client=client).fit(da.from_array(X), da.from_array(bad))


@pytest.mark.parametrize(("eta", "scale"), [(1e308, 1.0), (1.0, 1e200)])
def test_overflow_on_the_cluster_raises(client, eta, scale):
    X, y = separable()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with pytest.raises(ValueError, match="overflow"):
            ParameterMixingPerceptron(client=client, eta=eta).fit(X * scale, y)
    # The ValueError alone: no NumPy RuntimeWarning from mixing infinite weights before it.
    assert [str(w.message) for w in caught if w.category is RuntimeWarning] == []


def test_mixing_opposite_infinities_raises_the_value_error_alone(client):
    # Shard 0 learns w = +inf, shard 1 w = -inf: their mix is inf - inf = NaN.
    X, y = np.array([[2.0], [2.0]]), np.array([1, 0])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with pytest.raises(ValueError, match="overflow in epoch 1"):
            ParameterMixingPerceptron(client=client, n_shards=2, eta=1e308).fit(X, y)
    assert [str(w.message) for w in caught if w.category is RuntimeWarning] == []


def test_a_deep_copy_shares_the_live_client_and_copies_the_rest(client):
    import copy

    X, y = separable()
    model = ParameterMixingPerceptron(client=client, n_shards=2).fit(X, y)
    twin = copy.deepcopy(model)
    assert twin.client is client
    assert twin.coef_ is not model.coef_ and np.array_equal(twin.coef_, model.coef_)
    assert np.array_equal(twin.predict(X), model.predict(X))
