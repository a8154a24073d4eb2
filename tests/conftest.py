"""Shared pytest set-up: headless plotting, figures closed after each test, `toc` importable."""

import sys
from pathlib import Path

import matplotlib
import pytest

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))

# Runs inside a notebook's kernel (an IPython start-up file), never in pytest.
collect_ignore = ["measure_figures.py"]


@pytest.fixture(autouse=True)
def close_figures():
    """Close every figure a test opened, so figures do not pile up across tests."""
    yield
    plt.close("all")


@pytest.fixture(autouse=True)
def grader_not_stopping():
    """A test that stopped the grader's sandboxes (a Ctrl-C, or an error in a worker) does
    not leave the next test's sandboxes refused."""
    yield
    sandbox = sys.modules.get("grading.sandbox")
    if sandbox is not None:
        sandbox.resume()
