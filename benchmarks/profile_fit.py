"""Where the time of one fit goes, stage by stage: ours against scikit-learn's.

Run with ``python benchmarks/profile_fit.py`` (``--sparse`` or ``--dense`` for
one problem). The problems are ``make bench``'s: the sparse text-sized one
(20,000 x 50,000 CSR at 0.1 %, 5 epochs, no intercept) and the dense separable
one (100,000 x 100, 5 epochs). Each stage is one of the calls that ``fit`` makes,
timed on its own on the same data; the weights of the two whole fits are checked
identical first.

Times are CPU time of this thread (``time.thread_time``), medians of alternated
repeats: on a shared machine they move much less than wall time, and they leave
out the CPU that other threads of the process burn (scikit-learn's OpenMP
workers wait spinning for a while after a call, which ``time.process_time``
would charge to whatever runs next). A measurement, not a test.
"""

from __future__ import annotations

import os
import sys
import time
import warnings

import numpy as np
from bench_perceptron import make_data, make_text
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import Perceptron as SklearnPerceptron
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import validate_data

from perceptron_lib import Perceptron
from perceptron_lib import perceptron as perceptron_module
from perceptron_lib._base import check_csr_structure, classes_of, is_sparse
from perceptron_lib.loops.sparse import sparse_perceptron_epoch

REPEATS = 31
EPOCHS = 5


def thread_times(stages: dict, repeats: int = REPEATS) -> dict:
    """Median thread CPU time of each stage, the stages run alternately."""
    times = {name: [] for name in stages}
    for stage in stages.values():
        stage()  # compile, warm the caches
    for _ in range(repeats):
        for name, stage in stages.items():
            start = time.thread_time()
            stage()
            times[name].append(time.thread_time() - start)
    return {name: float(np.median(t)) for name, t in times.items()}


def loop_alone(model, X, y_signed):
    """The epochs' compiled loops only: no validation, no per-epoch bookkeeping."""
    n = X.shape[0]
    order, mistakes = np.arange(n), np.zeros(n, dtype=bool)

    def run():
        w, b = np.zeros(X.shape[1]), 0.0
        for _ in range(EPOCHS):
            if is_sparse(X):
                b = sparse_perceptron_epoch(
                    X.data, X.indices, X.indptr, y_signed, order, w, b, 1.0,
                    model.fit_intercept, mistakes,
                )  # fmt: skip
            else:
                b = perceptron_module.perceptron_epoch(
                    X, y_signed, order, w, b, 1.0, model.fit_intercept, mistakes
                )

    return run


def profile(label: str, X, y, fit_intercept: bool) -> None:
    ours = Perceptron(shuffle=False, max_iter=EPOCHS, fit_intercept=fit_intercept)
    theirs = SklearnPerceptron(
        eta0=1.0, penalty=None, alpha=0.0, shuffle=False, tol=None, max_iter=EPOCHS,
        fit_intercept=fit_intercept,
    )  # fmt: skip
    ours.fit(X, y)
    theirs.fit(X, y)
    if not np.array_equal(ours.coef_, theirs.coef_[0]):
        raise SystemExit(f"{label}: the weights differ from scikit-learn's; no timing")
    Xv, yv = ours._validate_training_data(X, y, finite=False, targets=False)
    signed = ours._signed_labels(yv, known=True)
    stages = {
        "scikit-learn: whole fit": lambda: theirs.fit(X, y),
        "  its validate_data (X checked finite)": lambda: validate_data(
            theirs,
            X,
            y,
            accept_sparse="csr",
            dtype=[np.float64, np.float32],
            order="C",
            accept_large_sparse=False,
        ),  # fmt: skip
        "  its check_classification_targets": lambda: check_classification_targets(yv),
        "  its np.unique(y)": lambda: np.unique(yv),
        "ours: whole fit": lambda: ours.fit(X, y),
        "  _validate_params": ours._validate_params,
        "  validate_data (finiteness left to the loop)": lambda: validate_data(
            ours,
            X,
            y,
            dtype=np.float64,
            order="C",
            accept_sparse="csr",
            ensure_all_finite=False,
        ),  # fmt: skip
        "  (validate_data checking finiteness)": lambda: validate_data(
            ours, X, y, dtype=np.float64, order="C", accept_sparse="csr"
        ),
        "  classes_of(y)": lambda: classes_of(yv),
        "  _signed_labels(y, known=True)": lambda: ours._signed_labels(yv, known=True),
        "  _train (the epochs)": lambda: ours._train(Xv, signed),
        "  the loops alone": loop_alone(ours, Xv, signed),
    }
    if is_sparse(Xv):
        stages["  check_csr_structure"] = lambda: check_csr_structure(Xv)
    t = thread_times(stages)
    print(f"\n{label}: thread CPU, median of {REPEATS} (load {os.getloadavg()[0]:.2f})")
    for name, seconds in t.items():
        print(f"  {name:<48} {seconds * 1e3:8.3f} ms")
    ratio = t["scikit-learn: whole fit"] / t["ours: whole fit"]
    print(f"  scikit-learn / ours, whole fits: {ratio:.2f}x")


def main(which: list[str]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        if "--dense" not in which:
            profile("sparse 20,000 x 50,000 at 0.1 %, 5 epochs, no b", *make_text(), False)
        if "--sparse" not in which:
            profile("dense separable 100,000 x 100, 5 epochs", *make_data(0.0), True)


if __name__ == "__main__":
    main(sys.argv[1:])
