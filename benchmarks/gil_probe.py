"""Do the compiled training loops release the GIL? A probe that a loaded machine cannot fool.

``n_jobs`` runs the binary models of one-vs-rest in threads, which pays only if the
compiled loops release the GIL (numba's ``nogil=True``, :mod:`perceptron_lib.loops.jit`).
A wall-clock speed-up with two threads shows it only on a quiet machine. This probe
does not need one: a second Python thread counts in a loop while the main thread
makes one long call of the shipped epoch (10 passes over 100,000 x 100), and the
count it reaches *during* the call is read. A call that holds the GIL lets that
thread run only in the switch-interval slices at the call's edges; a call that
releases it lets it count throughout. Control: the very same loop compiled by numba
without ``nogil``.

Run with ``python benchmarks/gil_probe.py`` (a few seconds).
"""

from __future__ import annotations

import os
import sys
import threading
import time

import numpy as np
from numba import njit

from perceptron_lib.loops.plain import perceptron_epoch

N_SAMPLES, N_FEATURES, PASSES, REPEATS = 100_000, 100, 10, 5


def main() -> None:
    rng = np.random.default_rng(0)
    X = rng.normal(size=(N_SAMPLES, N_FEATURES))
    y = np.where(X[:, 0] > 0, 1.0, -1.0)
    order = np.tile(np.arange(N_SAMPLES), PASSES)
    w, mistakes = np.zeros(N_FEATURES), np.zeros(order.shape[0], dtype=np.bool_)
    loops = {
        "shipped (nogil)": perceptron_epoch,
        "control (GIL held)": njit(perceptron_epoch.py_func),
    }
    for loop in loops.values():  # compile first
        loop(X, y, order[:10], w, 0.0, 1.0, True, mistakes)

    count, stop = [0], [False]

    def counter() -> None:
        while not stop[0]:
            count[0] += 1

    thread = threading.Thread(target=counter)
    thread.start()
    sys.setswitchinterval(0.001)  # short slices: the control's edges count little
    steps = {name: [] for name in loops}
    walls = {name: [] for name in loops}
    try:
        for _ in range(REPEATS):
            for name, loop in loops.items():
                w[:] = 0.0
                start = time.perf_counter()
                before = count[0]
                loop(X, y, order, w, 0.0, 1.0, True, mistakes)
                steps[name].append(count[0] - before)
                walls[name].append(time.perf_counter() - start)
    finally:
        stop[0] = True
        thread.join()
    print(f"Steps of a Python counting thread during one call ({PASSES} passes over")
    print(f"{N_SAMPLES:,} x {N_FEATURES}), median of {REPEATS}; load {os.getloadavg()[0]:.2f}:")
    for name in loops:
        print(
            f"  {name:<20} {np.median(steps[name]):>12,.0f} steps "
            f"(min {np.min(steps[name]):,.0f}), call {np.median(walls[name]) * 1e3:.0f} ms wall"
        )


if __name__ == "__main__":
    main()
