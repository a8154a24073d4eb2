"""The chapters as a student reads them in JupyterLab (`make lab`, Binder).

JupyterLab from the course's own environment is started on a free localhost
port, token-less and without a browser, on a temporary copy of the chapter
notebooks; headless Chromium opens each chapter and reads what is on screen.
With the MyST renderer (jupyterlab-myst, pinned in requirements.txt) and the
course's math macros in each notebook (written by scripts/notebooks/tidy_notebook.py from
_config.yml), a student sees neither raw MyST (``:label:``, ``{cite:p}``,
``{glue:text}``, a ```` ```{directive} ```` fence) nor an undefined macro
(``\\vx`` in red).

The check cannot pass vacuously: it first requires the chapter's title and
rendered maths on screen, and two broken copies show that it fails: chapter 1
without its macros cell (undefined macros), and a notebook opened with the MyST
renderer switched off (raw directives).
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import nbformat
import pytest
from headless_chromium import headless_chromium
from playwright import sync_api
from toc import ROOT, toc_notebooks

sys.path.insert(0, str(ROOT / "scripts" / "notebooks"))
from tidy_notebook import MACROS_CELL_ID, course_macros, macros_in  # noqa: E402

STARTUP_SECONDS = 90
RENDER_TIMEOUT_MS = 60_000
# What a student must never see in a rendered Markdown cell.
RAW_MYST = (":label:", "{cite", "{glue", "```{", "{prf:", "{numref", "{exercise")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def jupyterlab(root_dir: Path, config_dir: Path, *, myst: bool = True) -> Iterator[str]:
    """Run JupyterLab on ``root_dir``; yield its URL. ``myst=False`` disables jupyterlab-myst."""
    settings = config_dir / "lab-settings"
    # Render every cell (no virtual scrolling), and do not ask about news.
    for plugin, values in {
        "@jupyterlab/notebook-extension/tracker": {"windowingMode": "none"},
        "@jupyterlab/apputils-extension/notification": {"fetchNews": "false"},
    }.items():
        path = settings / f"{plugin}.jupyterlab-settings"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(values))
    jupyter_config = config_dir / "jupyter-config"
    (jupyter_config / "labconfig").mkdir(parents=True, exist_ok=True)
    disabled = {} if myst else {"jupyterlab-myst": True}
    (jupyter_config / "labconfig" / "page_config.json").write_text(
        json.dumps({"disabledExtensions": disabled})
    )
    env = {
        **os.environ,
        "JUPYTER_CONFIG_DIR": str(jupyter_config),
        "JUPYTERLAB_SETTINGS_DIR": str(settings),
        "JUPYTERLAB_WORKSPACES_DIR": str(config_dir / "workspaces"),
    }
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    log = (config_dir / "server.log").open("w")
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "jupyter",
            "lab",
            "--no-browser",
            "--allow-root",
            f"--port={port}",
            "--ServerApp.port_retries=0",
            "--ServerApp.ip=127.0.0.1",
            "--IdentityProvider.token=",
            "--ServerApp.password=",
            f"--ServerApp.root_dir={root_dir}",
        ],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + STARTUP_SECONDS
        while True:
            try:
                with urllib.request.urlopen(f"{url}/api/status", timeout=2) as answer:
                    if answer.status == 200:
                        break
            except OSError:
                pass
            if server.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"JupyterLab did not start: {(config_dir / 'server.log').read_text()}")
            time.sleep(0.5)
        yield url
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()


@pytest.fixture(scope="module")
def browser():
    with headless_chromium() as browser:
        yield browser


def title_of(notebook_path: Path) -> str:
    notebook = nbformat.read(notebook_path, as_version=4)
    for cell in notebook.cells:
        if cell.cell_type == "markdown" and cell.source.startswith("# "):
            return cell.source.splitlines()[0][2:].strip()
    raise AssertionError(f"{notebook_path.name} has no '# Title' cell")


def problems_on_screen(browser, url: str, name: str, title: str) -> list[str]:
    """Open ``name`` in JupyterLab and list what a student should not see."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    try:
        # A fresh workspace of its own: only this notebook is open.
        workspace = "".join(c if c.isalnum() else "-" for c in name)
        page.goto(f"{url}/lab/workspaces/{workspace}/tree/{name}?reset")
        panel = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden)")
        heading = panel.locator(".jp-MarkdownCell h1").first
        try:
            heading.wait_for(state="visible", timeout=RENDER_TIMEOUT_MS)
        except sync_api.TimeoutError:
            return [f"{name}: no rendered title (h1) within {RENDER_TIMEOUT_MS / 1000:.0f} s"]
        page.wait_for_load_state("networkidle")
        # JupyterLab renders a Markdown cell when it scrolls into view: visit
        # every one, as a student scrolling through the chapter does.
        cells = panel.locator(".jp-MarkdownCell")
        for index in range(cells.count()):
            cells.nth(index).scroll_into_view_if_needed()
        page.wait_for_load_state("networkidle")
        problems = []
        if title not in heading.inner_text():
            problems.append(f"{name}: the title {title!r} is not the first heading")
        rendered_maths = panel.locator(".jp-MarkdownCell .katex, .jp-MarkdownCell mjx-container")
        if rendered_maths.count() < 10:
            problems.append(f"{name}: only {rendered_maths.count()} rendered formulas")
        errors = panel.locator(".katex-error, .merror, mjx-merror")
        if errors.count():
            shown = errors.first.inner_text()[:80]
            problems.append(f"{name}: {errors.count()} maths errors, the first: {shown!r}")
        text = "\n".join(panel.locator(".jp-MarkdownCell").all_inner_texts())
        for raw in RAW_MYST:
            if raw in text:
                problems.append(f"{name}: raw MyST {raw!r} is visible")
        for macro in course_macros():
            if macro in text:
                problems.append(f"{name}: the macro {macro} is shown as text")
        return problems
    finally:
        page.close()


@pytest.fixture(scope="module")
def lab_with_chapters(tmp_path_factory) -> Iterator[tuple[str, Path]]:
    """JupyterLab on copies of the chapters, plus chapter 1 without its macros cell."""
    root = tmp_path_factory.mktemp("notebooks")
    for notebook in toc_notebooks():
        shutil.copy(notebook, root / notebook.name)
    first = toc_notebooks()[0]
    broken = nbformat.read(first, as_version=4)
    broken.cells = [cell for cell in broken.cells if cell.get("id") != MACROS_CELL_ID]
    nbformat.write(broken, root / "no_macros.ipynb")
    with jupyterlab(root, tmp_path_factory.mktemp("config")) as url:
        yield url, first


@pytest.mark.parametrize("notebook", toc_notebooks(), ids=lambda p: p.name)
def test_every_chapter_carries_exactly_the_course_macros(notebook):
    found = macros_in(nbformat.read(notebook, as_version=4))
    assert found == course_macros(), (
        f"{notebook.name}: the macros cell differs from _config.yml: "
        f"run `python scripts/notebooks/tidy_notebook.py {notebook.relative_to(ROOT)}`"
    )


@pytest.mark.parametrize("notebook", toc_notebooks(), ids=lambda p: p.name)
def test_chapter_reads_cleanly_in_jupyterlab(browser, lab_with_chapters, notebook):
    url, _ = lab_with_chapters
    problems = problems_on_screen(browser, url, notebook.name, title_of(notebook))
    assert not problems, "\n".join(problems)


def test_the_check_sees_undefined_macros(browser, lab_with_chapters):
    url, first = lab_with_chapters
    problems = problems_on_screen(browser, url, "no_macros.ipynb", title_of(first))
    # KaTeX writes an undefined macro in red, as its own name.
    assert any(r"the macro \vx is shown as text" in problem for problem in problems), problems


def test_the_check_sees_raw_myst_without_the_renderer(browser, tmp_path):
    root = tmp_path / "notebooks"
    root.mkdir()
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [
        nbformat.v4.new_markdown_cell(
            "# A broken page\n\n```{prf:definition} Activation\n:label: def-a\n\n"
            "$a = w x + b$ {cite:p}`someone2000` and {glue:text}`value`.\n```\n"
        )
    ]
    nbformat.write(notebook, root / "broken.ipynb")
    with jupyterlab(root, tmp_path / "config", myst=False) as url:
        problems = problems_on_screen(browser, url, "broken.ipynb", "A broken page")
    # (A plain Markdown renderer shows the directive as a code block: its
    # fence is not visible, its contents are.)
    for raw in (":label:", "{cite", "{glue"):
        assert any(repr(raw) in problem for problem in problems), (raw, problems)
