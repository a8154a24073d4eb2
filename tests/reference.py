"""Plain reference implementations, written from the source texts.

Deliberately slow and literal: lists of floats and Python loops, no NumPy
tricks, so that a reader can check each line against the pseudocode. The
library's compiled loops must agree with them.
"""

from __future__ import annotations


def dot(w, x):
    total = 0.0
    for wj, xj in zip(w, x, strict=True):
        total += wj * xj
    return total


def perceptron_train(X, y, max_iter, eta=1.0, fit_intercept=True, orders=None):
    """Daume's Algorithm 5 (PerceptronTrain), with a learning rate.

    ``orders[epoch]`` is the order of the examples in that epoch (default: as
    given). Stops after a mistake-free epoch. Returns (w, b, mistakes per epoch).
    """
    w, b = [0.0] * len(X[0]), 0.0
    per_epoch = []
    for epoch in range(max_iter):
        order = orders[epoch] if orders is not None else range(len(X))
        mistakes = 0
        for i in order:
            a = dot(w, X[i]) + b
            if y[i] * a <= 0:
                mistakes += 1
                w = [wj + eta * y[i] * xj for wj, xj in zip(w, X[i], strict=True)]
                if fit_intercept:
                    b = b + eta * y[i]
        per_epoch.append(mistakes)
        if mistakes == 0:
            break
    return w, b, per_epoch


def averaged_perceptron_train(X, y, max_iter, eta=1.0):
    """Daume's Algorithm 7 (AveragedPerceptronTrain), examples in the given order."""
    w, b = [0.0] * len(X[0]), 0.0
    u, beta = [0.0] * len(X[0]), 0.0
    c = 1.0
    for _ in range(max_iter):
        mistakes = 0
        for x, label in zip(X, y, strict=True):
            if label * (dot(w, x) + b) <= 0:
                mistakes += 1
                w = [wj + eta * label * xj for wj, xj in zip(w, x, strict=True)]
                b += eta * label
                u = [uj + eta * label * c * xj for uj, xj in zip(u, x, strict=True)]
                beta += eta * label * c
            c += 1
        if mistakes == 0:
            break
    return [wj - uj / c for wj, uj in zip(w, u, strict=True)], b - beta / c


def voted_perceptron_train(X, y, max_iter):
    """Freund and Schapire's voted perceptron (1999), training part.

    Returns the list of (w, b, c) with c the survival count; the initial zero
    vector is kept with its count (which is always 0 from zero weights).
    """
    vectors = [[[0.0] * len(X[0]), 0.0, 0]]
    for _ in range(max_iter):
        mistakes = 0
        for x, label in zip(X, y, strict=True):
            w, b, _ = vectors[-1]
            if label * (dot(w, x) + b) <= 0:
                mistakes += 1
                new_w = [wj + label * xj for wj, xj in zip(w, x, strict=True)]
                vectors.append([new_w, b + label, 1])
            else:
                vectors[-1][2] += 1
        if mistakes == 0:
            break
    return vectors


def voted_predict(vectors, x):
    """+1 if sum_k c_k yhat_k > 0 else -1, with yhat_k = +1 if w_k . x + b_k > 0 else -1.

    A tied vote (a total of exactly 0) predicts -1, as chapter 6 and the course's
    boundary rule say: the vote is an activation, and 0 is not positive.
    """

    def predict(a):
        return 1 if a > 0 else -1

    return predict(sum(c * predict(dot(w, x) + b) for w, b, c in vectors))


def batch_perceptron_train(X, y, eta, max_iter):
    """The slides' batch perceptron: accumulate -y x over mistakes, divide by N, step."""
    n = len(X)
    w, b = [0.0] * len(X[0]), 0.0
    for _ in range(max_iter):
        delta, delta_b, mistakes = [0.0] * len(w), 0.0, 0
        for x, label in zip(X, y, strict=True):
            if label * (dot(w, x) + b) <= 0:
                mistakes += 1
                delta = [dj - label * xj for dj, xj in zip(delta, x, strict=True)]
                delta_b -= label
        if mistakes == 0:
            break
        w = [wj - eta * dj / n for wj, dj in zip(w, delta, strict=True)]
        b = b - eta * delta_b / n
    return w, b
