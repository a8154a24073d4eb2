"""Iterative parameter mixing on a Dask cluster: :class:`ParameterMixingPerceptron`.

McDonald, Hall and Mann (2010) train one perceptron per shard of the data and
mix their weights after every epoch (iterative parameter mixing, their Figure
3). :mod:`perceptron_lib.mixing` holds the algorithm as plain NumPy, run on one
machine; this module holds :class:`ParameterMixingPerceptron`, a scikit-learn
classifier that runs the very same rounds on a Dask cluster: each shard is sent
to a worker once, then only the weights travel. Both run the sequential loop
:func:`perceptron_lib.loops.plain.perceptron_epoch` on each shard and mix with
:func:`perceptron_lib.mixing.mix`, so they give the same weights to the last
bit. The reference's names are importable from here too
(``from perceptron_lib.distributed import iterative_parameter_mixing``).

Dask is an optional dependency, so this module is not imported by
``perceptron_lib`` itself: ``from perceptron_lib.distributed import ...``.
"""

from __future__ import annotations

import copyreg
import time
import warnings
import weakref
from copy import deepcopy
from numbers import Integral, Real

import numpy as np
from numpy.typing import ArrayLike, NDArray
from sklearn.base import clone
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.multiclass import check_classification_targets

from ._base import LinearBinaryClassifier, check_finite_weights, unchecked_overflow
from .mixing import (  # the NumPy reference: the estimator runs the same functions
    MIXINGS,
    MixingRun,
    _check_n_shards,
    iterative_parameter_mixing,
    mix,
    mixed_mistakes,
    mixing_weights,
    parameter_mixing,
    shard_bounds,
    train_shard_epoch,
)

try:
    import dask.array as da
    from distributed import Client, LocalCluster, wait
except ImportError as error:  # pragma: no cover - exercised where dask is not installed
    raise ImportError(
        "perceptron_lib.distributed needs Dask's distributed scheduler; install it with "
        'pip install "dask[distributed]"'
    ) from error

__all__ = [
    "MixingRun",
    "ParameterMixingPerceptron",
    "iterative_parameter_mixing",
    "mix",
    "mixed_mistakes",
    "parameter_mixing",
    "shard_bounds",
    "train_shard_epoch",
]

# -- a live Client as a parameter -------------------------------------------------------
#
# scikit-learn deep-copies and hashes (joblib.hash, which pickles) the parameters of an
# estimator: check_estimator does, and so may a user's tools. A distributed.Client holds
# sockets and tasks of an event loop and can do neither: the copy fails half-way, and
# the half-made copy, when collected, closes the connection of the client it copied.
# So this module registers how a Client is reduced (copyreg: deepcopy, copy, pickle and
# joblib.hash all ask it): as a reference to the live client of this process. A copy
# of a client is the client itself, as a copy of an estimator holding it shares it
# (clone, deepcopy); its hash is that of its id and scheduler address. Unpickled in a
# process where that client does not live, the reference raises a clear error: what
# travels between processes is a scheduler's address (a pickled estimator keeps it).

_LIVE_CLIENTS: weakref.WeakValueDictionary = weakref.WeakValueDictionary()


def _reduce_client(client: Client):
    """Reduce a live Client to a reference to it (see the comment above)."""
    _LIVE_CLIENTS[client.id] = client
    address = getattr(client.scheduler, "address", None)
    return _live_client, (client.id, address)


def _live_client(client_id: str, address: str | None) -> Client:
    """The live Client of this process with id ``client_id``, or a clear error."""
    client = _LIVE_CLIENTS.get(client_id)
    if client is None:
        raise ValueError(
            f"A copy of the Dask client {client_id} (scheduler {address}) was unpickled "
            "where that client does not exist: a live Client cannot travel between "
            "processes. Pass the scheduler's address instead (client=client.scheduler.address)."
        )
    return client


copyreg.pickle(Client, _reduce_client)


# -- the estimator on a Dask cluster ----------------------------------------------------


def _shard_summary(X, y) -> tuple[tuple[int, ...], tuple[int, ...], bool, NDArray]:
    """Run on a worker: shapes, finiteness and labels of a shard, so X never leaves it."""
    X = np.asarray(X)
    return X.shape, np.shape(y), bool(np.all(np.isfinite(X))), np.unique(y)


def _prepare_shard(X, y, positive_class) -> tuple[NDArray, NDArray]:
    """Run on a worker: the shard as the loop wants it, C-ordered floats and -1/+1 labels."""
    X = np.ascontiguousarray(X, dtype=np.float64)
    return X, np.where(np.asarray(y) == positive_class, 1.0, -1.0)


def _shard_epoch_on_worker(shard, w, b, eta, fit_intercept):
    X, y = shard
    return train_shard_epoch(X, y, w, b, eta, fit_intercept)


class ParameterMixingPerceptron(LinearBinaryClassifier):
    """The perceptron trained by iterative parameter mixing on a Dask cluster.

    ``fit`` cuts the data into ``n_shards`` contiguous shards (as
    :func:`shard_bounds`), sends each to a worker *once*, then runs rounds: every
    worker runs one perceptron epoch over its shard from the current weights,
    only the weights and mistake counts come back, and they are mixed
    (:func:`mix`) into the next round's weights. Training stops after a round
    with no mistake on any shard, or after ``max_iter`` rounds with a
    :class:`~sklearn.exceptions.ConvergenceWarning`. The weights are those of
    :func:`iterative_parameter_mixing`, bit for bit; with one shard, those of
    ``Perceptron(shuffle=False)``.

    Two classes only: no one-vs-rest, so no ``n_jobs`` (the one-vs-rest perceptrons'
    threads); the parallel work here is the shards', one epoch per worker.

    Parameters
    ----------
    n_shards : int or None, default=None
        Number of shards ``S``; None: one per worker of the cluster.
    mixing : {"uniform", "weighted"}, default="uniform"
        Mixing weights ``1 / S``, or each shard's share of the round's mistakes.
    max_iter : int, default=100
        Maximum number of rounds (one epoch per shard each), >= 1.
    eta : float, default=1.0
        Learning rate, > 0.
    fit_intercept : bool, default=True
        Learn the bias ``b``.
    client : distributed.Client, str or None, default=None
        The cluster to run on. None: ``fit`` starts a ``LocalCluster`` of
        processes (one worker per shard, or per core if ``n_shards`` is None) and
        closes it when done, also on error. A ``Client`` is used as it is and
        left open (and shared by clones); a string is a scheduler address
        (``"tcp://host:8786"``) that ``fit`` connects to, and disconnects from when
        done. A pickled model keeps a client's address, not the client; a deep copy
        shares the client. (Importing this module makes a deep copy of a ``Client``
        the client itself, so that scikit-learn's tools, which deep-copy parameters,
        accept one.)
    timeout : float, default=60.0
        Seconds to wait for a round (or for the data to reach the workers) before
        giving up with a ``TimeoutError``, so that a stuck cluster cannot hang ``fit``.

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        The two labels, sorted; ``classes_[1]`` is the positive class.
    coef_ : ndarray of shape (n_features,)
        The mixed weight vector ``w`` after the last round.
    intercept_ : float
        The mixed bias ``b`` after the last round.
    n_features_in_ : int
        Number of features seen during ``fit``.
    n_shards_ : int
        Number of shards used.
    n_iter_ : int
        Number of rounds run, including a final mistake-free one.
    converged_ : bool
        Whether the last round made no mistake on any shard.
    mistakes_per_round_ : ndarray of shape (n_iter_, n_shards_)
        ``k(i, r)``: the mistakes of shard ``i`` in round ``r``.
    mixing_weights_ : ndarray of shape (n_iter_, n_shards_)
        ``mu(i, r)``: the weights that mixed round ``r``.
    coef_path_ : ndarray of shape (n_iter_, n_features)
        The mixed ``w`` after each round.
    intercept_path_ : ndarray of shape (n_iter_,)
        The mixed ``b`` after each round.
    scatter_seconds_ : float
        Wall time to put the shards on the workers (and check them there), once.
    round_seconds_ : ndarray of shape (n_iter_,)
        Wall time of each round: weights out, epochs, results back, mixing.

    See Also
    --------
    iterative_parameter_mixing : The same rounds in plain NumPy, on one machine.
    parameter_mixing : Train each shard to the end, mix once.
    perceptron_lib.Perceptron : The sequential perceptron.

    Examples
    --------
    >>> from distributed import Client
    >>> client = Client(processes=False, n_workers=2, threads_per_worker=1,
    ...                 dashboard_address=":0")
    >>> X = np.array([[2.0], [1.0], [-1.0], [-2.0]])
    >>> model = ParameterMixingPerceptron(client=client).fit(X, ["b", "b", "a", "a"])
    >>> model.n_shards_, model.coef_.tolist(), model.predict([[3.0], [-3.0]]).tolist()
    (2, [1.5], ['b', 'a'])
    >>> model.mistakes_per_round_.tolist()
    [[1, 1], [0, 0]]
    >>> client.close()
    """

    _parameter_constraints: dict = {
        "n_shards": [Interval(Integral, 1, None, closed="left"), None],
        "mixing": [StrOptions(set(MIXINGS))],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        "eta": [Interval(Real, 0, None, closed="neither")],
        "fit_intercept": ["boolean"],
        "client": [Client, str, None],
        "timeout": [Interval(Real, 0, None, closed="neither")],
    }

    def __init__(
        self,
        *,
        n_shards: int | None = None,
        mixing: str = "uniform",
        max_iter: int = 100,
        eta: float = 1.0,
        fit_intercept: bool = True,
        client: Client | str | None = None,
        timeout: float = 60.0,
    ):
        self.n_shards = n_shards
        self.mixing = mixing
        self.max_iter = max_iter
        self.eta = eta
        self.fit_intercept = fit_intercept
        self.client = client
        self.timeout = timeout

    def __sklearn_clone__(self):
        # A client is a live connection: clones share it (it cannot be deep-copied).
        params = self.get_params(deep=False)
        client = params.pop("client")
        return type(self)(client=client, **{k: clone(v, safe=False) for k, v in params.items()})

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False  # binary only, unlike the other perceptrons
        return tags

    def __deepcopy__(self, memo):
        # A live client cannot be deep-copied: the copy shares it (as clones do).
        copy = type(self).__new__(type(self))
        memo[id(self)] = copy
        for name, value in self.__dict__.items():
            shared = name == "client" and isinstance(value, Client)
            copy.__dict__[name] = value if shared else deepcopy(value, memo)
        return copy

    def __getstate__(self):
        # A client cannot be pickled: a pickled model keeps its scheduler's address instead.
        state = dict(super().__getstate__())  # a copy: the model keeps its client
        if isinstance(state.get("client"), Client):
            state["client"] = state["client"].scheduler.address
        return state

    def _validate_params(self) -> None:
        super()._validate_params()
        if isinstance(self.n_shards, (bool, np.bool_)):
            raise TypeError(f"n_shards must be an int or None; got the bool {self.n_shards}.")

    def fit(self, X: ArrayLike, y: ArrayLike):
        """Train by iterative parameter mixing on the cluster.

        Parameters
        ----------
        X : array-like or dask.array.Array of shape (n_samples, n_features)
            Training examples. A Dask array is cut into shards on the workers,
            without passing through this process.
        y : array-like or dask.array.Array of shape (n_samples,)
            Labels, two distinct values of any type.

        Returns
        -------
        self
            The fitted classifier.
        """
        self._validate_params()
        is_dask = isinstance(X, da.Array) or isinstance(y, da.Array)
        if not is_dask:
            # NumPy data is checked here, before any cluster starts.
            X, y = self._prepare_fit(X, y)
            if self.n_shards is not None:
                _check_n_shards(self.n_shards, X.shape[0])
        client, close = self._connect()
        futures: list = []
        try:
            start = time.perf_counter()
            if is_dask:
                shards = self._shards_from_dask(client, X, y, futures)
            else:
                shards = self._scatter(client, X, y, futures)
            self.scatter_seconds_ = time.perf_counter() - start
            self._run_rounds(client, shards)
        finally:
            # Dropping the last reference releases the shards from the workers. Not
            # client.cancel: that would also cancel a later fit's futures for the same keys.
            futures.clear()
            shards = None
            close()
        if not self.converged_:
            warnings.warn(
                f"{type(self).__name__} made {self.mistakes_per_round_[-1].sum()} mistake(s) "
                f"in its last round and stopped at max_iter={self.max_iter}. The data may not "
                "be linearly separable; the weights are those mixed after the last round.",
                ConvergenceWarning,
                stacklevel=2,
            )
        return self

    # -- the cluster ----------------------------------------------------------

    def _connect(self):
        """Return the client and a function that undoes what ``_connect`` started."""
        if isinstance(self.client, Client):
            return self.client, lambda: None
        if isinstance(self.client, str):
            client = Client(self.client, timeout=self.timeout)
            return client, client.close
        n_workers = self.n_shards or None  # None: LocalCluster picks one per core
        cluster = LocalCluster(
            n_workers=n_workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address=":0",  # any free port: never clash with another cluster
        )
        try:
            client = Client(cluster, timeout=self.timeout)
        except BaseException:
            cluster.close()
            raise

        def close():
            try:
                client.close()
            finally:
                cluster.close()

        return client, close

    def _workers(self, client) -> list[str]:
        workers = sorted(client.nthreads())
        if not workers:
            raise RuntimeError("The Dask cluster has no workers.")
        return workers

    def _scatter(self, client, X: NDArray, y: NDArray, futures: list) -> list:
        """Send shard i (X and signed y) to worker i mod W, once; return the futures."""
        workers = self._workers(client)
        self.n_shards_ = self.n_shards or len(workers)
        _check_n_shards(self.n_shards_, X.shape[0])
        self._shard_workers = []
        for i, (start, stop) in enumerate(shard_bounds(X.shape[0], self.n_shards_)):
            worker = workers[i % len(workers)]
            [future] = client.scatter(
                [(X[start:stop], y[start:stop])], workers=[worker], hash=False
            )
            futures.append(future)
            self._shard_workers.append(worker)
        self._wait_for_data(futures)
        return futures

    def _shards_from_dask(self, client, X, y, futures: list) -> list:
        """Cut Dask arrays into shards on the workers, check them there, map the labels."""
        X = X if isinstance(X, da.Array) else da.from_array(np.asarray(X))
        y = y if isinstance(y, da.Array) else da.from_array(np.asarray(y))
        if X.ndim != 2 or y.ndim != 1 or X.shape[0] != y.shape[0]:
            raise ValueError(
                f"X must be 2-d and y 1-d with one label per row; got X of shape {X.shape} "
                f"and y of shape {y.shape}."
            )
        if np.isnan(X.shape[0]):
            raise ValueError(
                "The number of rows of X must be known: call X.compute_chunk_sizes() first."
            )
        workers = self._workers(client)
        self.n_shards_ = self.n_shards or len(workers)
        _check_n_shards(self.n_shards_, X.shape[0])
        self._shard_workers = []
        raw = []
        for i, (start, stop) in enumerate(shard_bounds(X.shape[0], self.n_shards_)):
            worker = workers[i % len(workers)]
            pieces = client.compute([X[start:stop], y[start:stop]], workers=[worker])
            futures.extend(pieces)
            raw.append(pieces)
            self._shard_workers.append(worker)
        summaries = client.gather(
            [client.submit(_shard_summary, *pieces, pure=False) for pieces in raw]
        )
        for x_shape, y_shape, finite, _ in summaries:
            if len(x_shape) != 2 or y_shape != (x_shape[0],):
                raise ValueError(f"A shard has X of shape {x_shape} and y of shape {y_shape}.")
            if not finite:
                raise ValueError("X contains NaN or infinity.")
        labels = np.concatenate([found for *_, found in summaries])
        # The checks the NumPy path makes on y, here on the labels found on the workers.
        if labels.dtype.kind in "fc" and not np.all(np.isfinite(labels)):
            raise ValueError("Input y contains NaN or infinity.")
        check_classification_targets(labels)
        self._set_classes(np.unique(labels))
        if self.classes_.shape[0] > 2:
            raise ValueError(
                f"Only binary classification is supported by {type(self).__name__}: "
                f"expected two classes, got {self.classes_.shape[0]}: "
                f"{self.classes_[:10].tolist()}."
            )
        self.n_features_in_ = int(X.shape[1])
        shards = [
            client.submit(_prepare_shard, *pieces, self.classes_[1], pure=False) for pieces in raw
        ]
        futures.extend(shards)
        self._wait_for_data(shards)
        return shards

    def _wait_for_data(self, futures: list) -> None:
        try:
            wait(futures, timeout=self.timeout)
        except TimeoutError:
            raise
        except Exception as error:
            raise RuntimeError(
                f"The shards could not be placed on the workers ({type(error).__name__}): "
                "a worker probably died."
            ) from error

    def _gather_round(self, client, futures: list) -> list:
        """Collect one round's results; a lost or failed shard becomes a clear RuntimeError."""
        deadline = time.monotonic() + self.timeout
        results = []
        for i, future in enumerate(futures):
            where = f"Shard {i} (on worker {self._shard_workers[i]})"
            round_number = len(self._mistakes) + 1
            try:
                results.append(future.result(timeout=max(deadline - time.monotonic(), 0.0)))
            except TimeoutError as error:
                raise TimeoutError(
                    f"{where} did not finish round {round_number} within timeout={self.timeout} s."
                ) from error
            except Exception as error:
                if future.status == "error":  # the epoch itself raised on the worker
                    raise RuntimeError(f"{where} failed in round {round_number}.") from error
                raise RuntimeError(
                    f"{where} was lost in round {round_number} ({type(error).__name__}): its "
                    "worker probably died, and with it the shard's data. Fit again on a "
                    "healthy cluster."
                ) from error
        return results

    def _run_rounds(self, client, shards: list) -> None:
        w, b = np.zeros(self.n_features_in_), 0.0
        self._mistakes, mus, coef_path, intercept_path, seconds = [], [], [], [], []
        for _ in range(self.max_iter):
            start = time.perf_counter()
            futures = [
                client.submit(
                    _shard_epoch_on_worker, shard, w, b, self.eta, self.fit_intercept, pure=False
                )
                for shard in shards
            ]
            results = self._gather_round(client, futures)
            coefs, intercepts, k = (list(column) for column in zip(*results, strict=True))
            mu = mixing_weights(k, self.mixing)
            with unchecked_overflow():  # inf - inf in the mix: the check below raises
                w, b = mix(coefs, intercepts, mu)
            self.coef_, self.intercept_ = w, b
            check_finite_weights(self, len(self._mistakes) + 1)
            seconds.append(time.perf_counter() - start)
            self._mistakes.append(k)
            mus.append(mu)
            coef_path.append(w)
            intercept_path.append(b)
            if sum(k) == 0:
                break
        self.coef_, self.intercept_ = w, b
        self.mistakes_per_round_ = np.array(self._mistakes, dtype=np.int64)
        self.mixing_weights_ = np.array(mus)
        self.coef_path_ = np.array(coef_path)
        self.intercept_path_ = np.array(intercept_path)
        self.round_seconds_ = np.array(seconds)
        self.n_iter_ = len(self._mistakes)
        self.converged_ = sum(self._mistakes[-1]) == 0
        del self._mistakes
