"""A fork's site links to the fork: REPOSITORY=owner/name sets every repository link.

The deploy workflow builds with ``REPOSITORY=${{ github.repository }}``; the
extension ``scripts/site/repository_from_env.py`` points the theme's repository URL
(and so the repository, issues, Binder and Live code buttons) there.
A tiny book, built the way ``make book`` builds, shows it. Built without
``REPOSITORY`` while the configuration names the placeholder ``OWNER``, its
launch menu says what is missing instead of linking to ``OWNER``.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from toc import ROOT

sys.path.insert(0, str(ROOT / "scripts" / "site"))
from repository_from_env import UNSET_TEXT, repository_url  # noqa: E402

CONFIG = f"""title: t
only_build_toc_files: true
execute:
  execute_notebooks: "off"
repository:
  url: https://github.com/OWNER/perceptron-course
  branch: main
launch_buttons:
  notebook_interface: jupyterlab
  binderhub_url: https://mybinder.org
  thebe: true
html:
  use_repository_button: true
sphinx:
  local_extensions:
    repository_from_env: {json.dumps(str(ROOT / "scripts" / "site"))}
"""


def build(book: Path, repository: str | None) -> str:
    """Build ``book`` with ``REPOSITORY`` set (or not); return its page's HTML."""
    env = {key: value for key, value in os.environ.items() if key != "REPOSITORY"}
    if repository is not None:
        env["REPOSITORY"] = repository
    shutil.rmtree(book / "_build", ignore_errors=True)
    jupyter_book = shutil.which("jupyter-book", path=str(Path(sys.executable).parent))
    result = subprocess.run(
        [jupyter_book, "build", str(book), "--warningiserror"],
        capture_output=True, text=True, timeout=300, env=env,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    return (book / "_build" / "html" / "chapter.html").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def book(tmp_path_factory) -> Path:
    book = tmp_path_factory.mktemp("fork_book")
    (book / "_config.yml").write_text(CONFIG)
    (book / "_toc.yml").write_text("format: jb-book\nroot: chapter\n")
    notebook = nbformat.v4.new_notebook(
        cells=[nbformat.v4.new_markdown_cell("# A chapter"), nbformat.v4.new_code_cell("1")]
    )
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3"}
    notebook.metadata["language_info"] = {"name": "python"}
    nbformat.write(notebook, book / "chapter.ipynb")
    return book


def test_a_build_with_a_repository_links_to_it_and_not_to_owner(book: Path) -> None:
    html = build(book, "someone/fork-of-course")
    assert 'href="https://github.com/someone/fork-of-course"' in html
    assert "https://mybinder.org/v2/gh/someone/fork-of-course/main" in html
    assert UNSET_TEXT.format(service="Binder") not in html
    assert "OWNER" not in html


def test_without_a_repository_the_launch_menu_says_what_is_missing(book: Path) -> None:
    html = build(book, None)
    assert 'href="https://github.com/OWNER/perceptron-course"' in html  # the config's URL
    assert "mybinder.org" not in html, "a Binder link to OWNER's repository"
    for service in ("Binder", "Live code"):
        assert UNSET_TEXT.format(service=service) in html, service
    assert "book/using.html#launching-needs-the-repository" in html


@pytest.mark.parametrize("value", ["", "owner", "owner/name/extra", "https://x/y", "a b/c"])
def test_a_malformed_repository_is_refused(value: str) -> None:
    from sphinx.errors import ConfigError

    with pytest.raises(ConfigError, match="owner/name"):
        repository_url(value)


def test_a_well_formed_repository_gives_its_github_url() -> None:
    assert repository_url("some-one/perceptron.course_2") == (
        "https://github.com/some-one/perceptron.course_2"
    )
