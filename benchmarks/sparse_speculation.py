"""Would speculative epochs pay on sparse rows? The experiment behind ``loops.sparse``.

Run with ``python benchmarks/sparse_speculation.py`` (not part of ``make bench``).
It compiles a speculative perceptron epoch over the nonzeros of a CSR matrix, built
like :mod:`perceptron_lib.loops.speculative` (the plain loop while mistakes are near,
then blocks of 32 rows scored four at a time, each row summed in its stored order),
checks that it gives the plain sparse loop's weights bit for bit, and times both in
CPU seconds (``time.process_time``, best of 3) on three densities, with no intercept.
The library keeps the plain loop: this never paid (see the docstring of
:mod:`perceptron_lib.loops.sparse` for the numbers measured).
"""

from __future__ import annotations

import math
import time

import numpy as np
from numba import njit
from scipy import sparse

from perceptron_lib.loops.sparse import sparse_activation, sparse_perceptron_epoch

SPECULATE_AFTER, MAX_WAIT, BLOCK = 16, 1024, 32


@njit(nogil=True)
def _score_four(data, indices, indptr, order, t, w, b, out):
    """Activations of rows ``order[t : t + 4]``: four sums, each in its row's stored order."""
    i0, i1, i2, i3 = order[t], order[t + 1], order[t + 2], order[t + 3]
    s0, s1, s2, s3 = indptr[i0], indptr[i1], indptr[i2], indptr[i3]
    e0, e1, e2, e3 = indptr[i0 + 1], indptr[i1 + 1], indptr[i2 + 1], indptr[i3 + 1]
    n = min(min(e0 - s0, e1 - s1), min(e2 - s2, e3 - s3))
    a0 = a1 = a2 = a3 = 0.0
    for k in range(n):  # the common length, in step
        a0 += w[indices[s0 + k]] * data[s0 + k]
        a1 += w[indices[s1 + k]] * data[s1 + k]
        a2 += w[indices[s2 + k]] * data[s2 + k]
        a3 += w[indices[s3 + k]] * data[s3 + k]
    for p in range(s0 + n, e0):  # then each row's rest, in order
        a0 += w[indices[p]] * data[p]
    for p in range(s1 + n, e1):
        a1 += w[indices[p]] * data[p]
    for p in range(s2 + n, e2):
        a2 += w[indices[p]] * data[p]
    for p in range(s3 + n, e3):
        a3 += w[indices[p]] * data[p]
    out[t], out[t + 1], out[t + 2], out[t + 3] = a0 + b, a1 + b, a2 + b, a3 + b


@njit(nogil=True)
def speculative_sparse_epoch(data, indices, indptr, y, order, w, b, eta, fit_intercept, mistakes):
    """``sparse_perceptron_epoch``, speculating on long mistake-free stretches."""
    n = order.shape[0]
    out = np.empty(n)
    t, gap, wait = 0, 0, SPECULATE_AFTER
    while t < n:
        if gap < wait:  # mistakes are near: one row at a time
            i = order[t]
            a = sparse_activation(w, b, data, indices, indptr[i], indptr[i + 1])
            if not math.isfinite(a):
                return math.nan
            mistakes[t] = y[i] * a <= 0.0
            if mistakes[t]:
                step = eta * y[i]
                for p in range(indptr[i], indptr[i + 1]):
                    w[indices[p]] += step * data[p]
                if fit_intercept:
                    b += step
                gap = 0
            else:
                gap += 1
            t += 1
            continue
        stop = min(t + BLOCK, n)
        k = t
        while k + 4 <= stop:
            _score_four(data, indices, indptr, order, k, w, b, out)
            k += 4
        while k < stop:
            i = order[k]
            out[k] = sparse_activation(w, b, data, indices, indptr[i], indptr[i + 1])
            k += 1
        k = t
        while k < stop and math.isfinite(out[k]) and y[order[k]] * out[k] > 0.0:
            mistakes[k] = False
            k += 1
        if k == stop:  # no mistake in the block
            wait = max(SPECULATE_AFTER, wait // 2)
            t = stop
            continue
        if not math.isfinite(out[k]):
            return math.nan
        i = order[k]  # the block's first mistake: update, resume after it
        mistakes[k] = True
        step = eta * y[i]
        for p in range(indptr[i], indptr[i + 1]):
            w[indices[p]] += step * data[p]
        if fit_intercept:
            b += step
        if k - t < (stop - t) // 2:
            wait = min(2 * wait, MAX_WAIT)
        gap = 0
        t = k + 1
    return b


def make_text(n_samples, n_features, density, seed=0):
    """Counts 1 to 3 at the given density, labels from a random hyperplane (as make bench)."""
    rng = np.random.default_rng(seed)
    X = sparse.random(n_samples, n_features, density=density, format="csr", random_state=rng)
    X.data = np.ceil(3 * X.data)
    return X, np.where(X @ rng.normal(size=n_features) > 0, 1.0, -1.0)


def run(epoch, X, y, epochs, w=None):
    """``epochs`` epochs from ``w`` (zero by default); weights, CPU seconds, mistakes."""
    w = np.zeros(X.shape[1]) if w is None else w.copy()
    b, seconds, mistakes = 0.0, 0.0, 0
    order = np.arange(X.shape[0])
    for _ in range(epochs):
        wrong = np.zeros(X.shape[0], dtype=np.bool_)
        start = time.process_time()
        b = epoch(X.data, X.indices, X.indptr, y, order, w, b, 1.0, False, wrong)
        seconds += time.process_time() - start
        mistakes += int(wrong.sum())
    return w, seconds, mistakes


def main() -> None:
    problems = {
        "20,000 x 50,000 at 0.1 %": (20_000, 50_000, 0.001),
        "20,000 x 2,000 at 5 %": (20_000, 2_000, 0.05),
        "5,000 x 1,000 at 20 %": (5_000, 1_000, 0.2),
    }
    epochs = {"plain": sparse_perceptron_epoch, "speculative": speculative_sparse_epoch}
    for label, shape in problems.items():
        X, y = make_text(*shape)
        for epoch in epochs.values():
            run(epoch, X[:50], y[:50], 1)  # compile first
        trained, _, _ = run(sparse_perceptron_epoch, X, y, 200)
        for n_epochs, start in ((5, None), (50, None), (1, trained)):
            best, weights = {}, {}
            for _ in range(3):
                for name, epoch in epochs.items():
                    weights[name], seconds, mistakes = run(epoch, X, y, n_epochs, start)
                    best[name] = min(best.get(name, math.inf), seconds)
            if not np.array_equal(weights["plain"], weights["speculative"]):
                raise SystemExit(f"{label}: the speculative weights differ; no timing")
            what = f"{n_epochs} epochs" if start is None else "1 epoch after 200"
            print(
                f"{label:<26} {what:<18} {mistakes:>6} mistakes  plain "
                f"{best['plain'] * 1e3:7.2f} ms  speculative {best['speculative'] * 1e3:7.2f} ms"
                f"  {best['plain'] / best['speculative']:5.2f}x"
            )


if __name__ == "__main__":
    main()
