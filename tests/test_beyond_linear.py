"""Chapter 7's figures and explorer: the lifted plane, kernel regions, the epoch film."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pytest
from sklearn.datasets import make_moons

from perceptron_lib import KernelPerceptron, make_xor
from perceptron_lib.figures.animation import animation_html
from perceptron_lib.figures.beyond_linear import (
    _plane_height,
    animate_kernel_training,
    plot_kernel_model,
    plot_lifted_plane,
)
from perceptron_lib.widgets.kernels import _kernel_view, kernel_explorer

LIFTED = np.array([[0, 0, 0], [0, 1, 0], [1, 0, 0], [1, 1, 1]], dtype=float)


def test_lifted_plane_is_drawn_where_w_x_plus_b_is_zero():
    ax = plot_lifted_plane(LIFTED, [-1, 1, 1, -1], [-1.0, -1.0, 2.0], 0.5)
    assert len(ax.collections) == 3  # the plane and the two classes
    x1, x2 = np.meshgrid([-0.25, 1.25], [-0.25, 1.25])
    x3 = _plane_height(np.array([-1.0, -1.0, 2.0]), 0.5, x1, x2)
    points = np.column_stack([x1.ravel(), x2.ravel(), x3.ravel()])
    assert np.allclose(points @ [-1.0, -1.0, 2.0] + 0.5, 0.0)
    assert ax.figure.get_facecolor()[:3] == (1.0, 1.0, 1.0)
    plt.close("all")


def test_lifted_plane_rejects_bad_input():
    with pytest.raises(ValueError, match="vertical"):
        plot_lifted_plane(LIFTED, [-1, 1, 1, -1], [1.0, 1.0, 0.0], 0.5)
    with pytest.raises(ValueError, match="shape \\(n_samples, 3\\)"):
        plot_lifted_plane(LIFTED[:, :2], [-1, 1, 1, -1], [1.0, 1.0, 1.0], 0.5)
    _, flat = plt.subplots()
    with pytest.raises(TypeError, match="3-D Axes"):
        plot_lifted_plane(LIFTED, [-1, 1, 1, -1], [1.0, 1.0, 1.0], 0.5, ax=flat)
    plt.close("all")


def test_kernel_model_rings_every_support_vector():
    X, y = make_moons(40, noise=0.1, random_state=0)
    model = KernelPerceptron(kernel="rbf", gamma=2.0, random_state=0).fit(X, y)
    ax = plot_kernel_model(model, X, y)
    rings = next(c for c in ax.collections if c.get_label() == "support vectors")
    assert np.array_equal(np.asarray(rings.get_offsets()), model.support_vectors_)
    with pytest.raises(TypeError, match="fitted KernelPerceptron"):
        plot_kernel_model(KernelPerceptron(), X, y)
    plt.close("all")


def test_each_frame_is_the_run_after_that_many_epochs():
    X, y = make_xor(5, noise=0.2, random_state=1)
    model = KernelPerceptron(kernel="rbf", gamma=3.0, random_state=4)
    full = KernelPerceptron(**model.get_params()).fit(X, y)
    anim = animate_kernel_training(model, X, y, max_frames=4)
    frames = list(anim.new_frame_seq())
    assert frames[0] == 1 and frames[-1] == full.n_iter_ and len(frames) <= 4
    early = KernelPerceptron(**{**model.get_params(), "max_iter": 1})
    with pytest.warns(Warning):
        early.fit(X, y)
    assert early.mistakes_per_epoch_[0] == full.mistakes_per_epoch_[0]
    assert animation_html(anim).count("data:image/png;base64") == len(frames)
    with pytest.raises(ValueError, match="random_state"):
        animate_kernel_training(KernelPerceptron(), X, y)


def test_kernel_view_reports_the_run():
    X, y = make_xor()
    summary, fig = _kernel_view("linear", 2, 1.0, X, y, max_iter=5)
    assert summary.splitlines()[0] == "linear kernel: not converged in 5 epochs"
    assert "support vectors: 4 of 4 examples" in summary
    plt.close(fig)
    summary, fig = _kernel_view("rbf", 2, 2.0, X, y)
    assert summary.startswith("rbf kernel, rho 2.00: converged")
    plt.close(fig)
    with pytest.raises(ValueError, match="non-empty dict"):
        kernel_explorer({})
