"""Fit time of the joint MulticlassPerceptron against scikit-learn's one-vs-rest Perceptron.

Run with ``make bench`` (or alone: ``python benchmarks/bench_multiclass.py``). The
two are different algorithms on the same data with the same settings (``eta=1``,
no shuffling, a fixed number of epochs): the joint model scores every class for
each example and updates two of them on a mistake, in one pass per epoch;
scikit-learn fits one binary perceptron per class, one pass per class per epoch.
So their weights differ and nothing is checked identical; their training
accuracy and the joint model's updates are printed beside the times instead.

The fits are timed alternately in this one process, in thread CPU time (what
this thread computed, which moves little with the machine's load; scikit-learn's
one-vs-rest runs its binary fits in this thread with ``n_jobs=None``), median of
``REPEATS``. A measurement, not a test.

Regimes:
- 5 classes, 50,000 x 50, 5 epochs: the one-vs-rest bench's data
  (``bench_perceptron.make_multiclass``: classes from the largest of 5 random
  linear scores, so a joint model separates them and one-vs-rest need not);
- digits: scikit-learn's 1,797 handwritten digits, 8 x 8 pixels, 10 classes,
  20 epochs.
"""

from __future__ import annotations

import os
import time
import warnings

import numpy as np
from bench_perceptron import make_multiclass
from sklearn.datasets import load_digits
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import Perceptron as SklearnPerceptron

from perceptron_lib import MulticlassPerceptron

REPEATS = 7


def median_thread_times(fits: dict, repeats: int = REPEATS):
    """Time the fits alternately in thread CPU time; return medians and the last models."""
    times = {name: [] for name in fits}
    models = {}
    for _ in range(repeats):
        for name, fit in fits.items():
            start = time.thread_time()
            models[name] = fit()
            times[name].append(time.thread_time() - start)
    return {name: float(np.median(t)) for name, t in times.items()}, models


def compare(regime: str, X, y, epochs: int) -> None:
    fits = {
        "sklearn one-vs-rest": lambda: SklearnPerceptron(
            eta0=1.0, penalty=None, alpha=0.0, shuffle=False, tol=None, max_iter=epochs
        ).fit(X, y),
        "joint": lambda: MulticlassPerceptron(shuffle=False, max_iter=epochs).fit(X, y),
        "joint, averaged": lambda: MulticlassPerceptron(
            shuffle=False, max_iter=epochs, average=True
        ).fit(X, y),
    }
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        for fit in fits.values():
            fit()  # compile (or load the cached compilation) first
        t, models = median_thread_times(fits)
    joint = models["joint"]
    print(
        f"\n{regime}: {X.shape[0]:,} x {X.shape[1]}, {len(np.unique(y))} classes, at most "
        f"{epochs} epochs; the joint model ran {joint.n_iter_} epoch(s) and made "
        f"{int(joint.mistakes_per_epoch_.sum()):,} updates (load {os.getloadavg()[0]:.2f})"
    )
    print(f"  {'':<22} {'thread CPU':>11} {'/ sklearn':>10} {'training accuracy':>18}")
    for name, model in models.items():
        ratio = t[name] / t["sklearn one-vs-rest"]
        print(f"  {name:<22} {t[name] * 1e3:>9.1f}ms {ratio:>9.2f}x {model.score(X, y):>18.4f}")


def main() -> None:
    print("MulticlassPerceptron (joint) against scikit-learn's one-vs-rest Perceptron;")
    print(f"eta=1, no shuffling, thread CPU time, median of {REPEATS} alternated fits.")
    compare("5 classes", *make_multiclass(), epochs=5)
    digits = load_digits()
    compare("digits", digits.data, digits.target, epochs=20)


if __name__ == "__main__":
    main()
