"""Debian's Chromium, headless, for the tests that drive a browser (the site, JupyterLab).

Playwright's own browser download fails here, so the system's Chromium is launched:
``$CHROMIUM``, by default ``/usr/bin/chromium`` (``make site`` installs it).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from playwright import sync_api

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
# Flags from the project's notes: no sandbox (we run as root), and no
# background traffic to Google's services, which cannot be reached here.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--headless",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


@contextmanager
def headless_chromium() -> Iterator[sync_api.Browser]:
    """Launch Chromium for the block inside; fail the test at once if it is not installed."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"no Chromium at {CHROMIUM}: `make site` installs it (or set CHROMIUM)")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()
