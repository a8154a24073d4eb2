"""Shared pytest set-up: headless plotting, and `toc` importable from tests."""

import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
sys.path.insert(0, str(Path(__file__).resolve().parent))
