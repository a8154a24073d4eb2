"""``n_jobs``: one-vs-rest fits its binary models in threads, with the same weights.

Each binary model has its own seed (drawn, as scikit-learn draws them, before any
model runs), its own arrays and its own order generator, and reads the shared
data only: nothing a thread does depends on another, so every ``n_jobs`` gives
the same model, bit for bit (compared here as pickles, every attribute).
"""

from __future__ import annotations

import pickle
import threading
import warnings

import numpy as np
import pytest
from scipy import sparse
from sklearn.base import clone
from sklearn.exceptions import ConvergenceWarning

from perceptron_lib import (
    AveragedPerceptron,
    BatchPerceptron,
    KernelPerceptron,
    MarginPerceptron,
    Perceptron,
    VotedPerceptron,
)

ONLINE = [Perceptron, AveragedPerceptron, VotedPerceptron, MarginPerceptron]
ONE_VS_REST = [*ONLINE, BatchPerceptron, KernelPerceptron]
N_JOBS = [1, 2, 3, -1, None]


def four_classes(n_samples: int = 400, seed: int = 0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n_samples, 6))
    y = np.argmax(X @ rng.normal(size=(6, 4)), axis=1)
    return X, y


def fitted(model, X, y):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return model.fit(X, y)


def as_bytes(model) -> bytes:
    """Every attribute of ``model`` and of its binary models but ``n_jobs``, pickled."""

    def attributes(model) -> dict:
        found = {k: v for k, v in vars(model).items() if k not in ("n_jobs", "estimators_")}
        found["estimators_"] = [attributes(m) for m in getattr(model, "estimators_", [])]
        return found

    return pickle.dumps(attributes(model))


def seeded(cls, **params):
    accepted = cls().get_params()
    params = {"random_state": 7, "max_iter": 20, **params}
    return cls(**{k: v for k, v in params.items() if k in accepted})


@pytest.mark.parametrize("cls", ONE_VS_REST, ids=lambda c: c.__name__)
def test_fit_gives_the_same_model_for_every_n_jobs(cls):
    X, y = four_classes(150 if cls is KernelPerceptron else 400)
    models = [fitted(seeded(cls, n_jobs=n_jobs), X, y) for n_jobs in N_JOBS]
    assert len({as_bytes(model) for model in models}) == 1
    assert models[0].coef_.shape[0] == 4 if hasattr(models[0], "coef_") else True


@pytest.mark.parametrize("cls", ONLINE, ids=lambda c: c.__name__)
def test_sparse_fit_and_partial_fit_give_the_same_model_for_every_n_jobs(cls):
    X, y = four_classes()
    X[np.abs(X) < 0.7] = 0.0
    X = sparse.csr_matrix(X)
    fits = {as_bytes(fitted(seeded(cls, n_jobs=n_jobs), X, y)) for n_jobs in N_JOBS}
    assert len(fits) == 1
    stepped = []
    for n_jobs in N_JOBS:
        model = seeded(cls, n_jobs=n_jobs)
        for start in (0, 200, 0):
            model.partial_fit(X[start : start + 200], y[start : start + 200], classes=range(4))
        stepped.append(as_bytes(model))
    assert len(set(stepped)) == 1


@pytest.mark.parametrize("cls", ONLINE, ids=lambda c: c.__name__)
def test_dense_partial_fit_gives_the_same_model_for_every_n_jobs(cls):
    X, y = four_classes()
    stepped = []
    for n_jobs in N_JOBS:
        model = seeded(cls, n_jobs=n_jobs)
        for _ in range(3):
            model.partial_fit(X, y)
        stepped.append(as_bytes(model))
    assert len(set(stepped)) == 1


class Recording(Perceptron):
    """A Perceptron that notes the thread of every binary fit."""

    threads: list = []

    def _fit_binary(self, X, y):
        Recording.threads.append(threading.get_ident())
        super()._fit_binary(X, y)


@pytest.mark.parametrize(("n_jobs", "in_main_thread"), [(1, True), (None, True), (2, False)])
def test_the_binary_models_run_in_worker_threads_when_asked(n_jobs, in_main_thread):
    Recording.threads = []
    fitted(Recording(n_jobs=n_jobs, random_state=0), *four_classes())
    assert len(Recording.threads) == 4
    main = threading.get_ident()
    assert all((ident == main) == in_main_thread for ident in Recording.threads)


@pytest.mark.parametrize("cls", ONE_VS_REST, ids=lambda c: c.__name__)
def test_n_jobs_is_a_parameter(cls):
    assert cls().get_params()["n_jobs"] == 1
    assert clone(cls(n_jobs=-1)).get_params()["n_jobs"] == -1
    assert cls(n_jobs=None).set_params(n_jobs=2).n_jobs == 2


@pytest.mark.parametrize("cls", ONE_VS_REST, ids=lambda c: c.__name__)
@pytest.mark.parametrize(
    ("n_jobs", "error", "message"),
    [
        (0, ValueError, "'n_jobs' parameter .* must be a nonzero int"),
        (1.5, ValueError, "'n_jobs' parameter"),
        ("2", ValueError, "'n_jobs' parameter"),
        (True, TypeError, "'n_jobs' parameter .* must be a number, got the bool"),
    ],
)
def test_a_bad_n_jobs_is_named(cls, n_jobs, error, message):
    X, y = four_classes(60)
    with pytest.raises(error, match=message):
        cls(n_jobs=n_jobs).fit(X, y)


def test_parameter_mixing_has_no_n_jobs():
    # Binary only (no one-vs-rest): its parallel work is the shards', on Dask workers.
    distributed = pytest.importorskip("perceptron_lib.distributed")
    model = distributed.ParameterMixingPerceptron()
    assert "n_jobs" not in model.get_params()
    assert not model.__sklearn_tags__().classifier_tags.multi_class
