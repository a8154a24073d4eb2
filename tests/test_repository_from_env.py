"""A fork's site links to the fork: REPOSITORY=owner/name sets every repository link.

The deploy workflow builds with ``REPOSITORY=${{ github.repository }}``; the
extension ``scripts/site/repository_from_env.py`` points the theme's repository URL
(and so the repository, issues, Binder and Live code buttons) there.
A tiny book, built the way ``make book`` builds, shows it. Built without
``REPOSITORY`` while the configuration names the placeholder ``OWNER``, its
launch menu says what is missing instead of linking to ``OWNER``. Colab's button
opens a page's Colab edition ``colab/<stem>.ipynb``; a page without one has none.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from toc import ROOT, toc_files

sys.path.insert(0, str(ROOT / "scripts" / "site"))
from repository_from_env import (  # noqa: E402
    UNSET_TEXT,
    point_colab_at_edition,
    repository_url,
)

COLAB = "https://colab.research.google.com/github"

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
  colab_url: https://colab.research.google.com
  thebe: true
html:
  use_repository_button: true
sphinx:
  local_extensions:
    repository_from_env: {json.dumps(str(ROOT / "scripts" / "site"))}
"""


def build(book: Path, repository: str | None, page: str = "chapter") -> str:
    """Build ``book`` with ``REPOSITORY`` set (or not); return the HTML of ``page``."""
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
    return (book / "_build" / "html" / f"{page}.html").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def book(tmp_path_factory) -> Path:
    book = tmp_path_factory.mktemp("fork_book")
    (book / "_config.yml").write_text(CONFIG)
    (book / "_toc.yml").write_text("format: jb-book\nroot: chapter\nchapters:\n- file: other\n")
    notebook = nbformat.v4.new_notebook(
        cells=[nbformat.v4.new_markdown_cell("# A chapter"), nbformat.v4.new_code_cell("1")]
    )
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3"}
    notebook.metadata["language_info"] = {"name": "python"}
    nbformat.write(notebook, book / "chapter.ipynb")
    nbformat.write(notebook, book / "other.ipynb")  # a page without a Colab edition
    (book / "colab").mkdir()
    nbformat.write(notebook, book / "colab" / "chapter.ipynb")  # outside the toc: not built
    return book


def test_a_build_with_a_repository_links_to_it_and_not_to_owner(book: Path) -> None:
    html = build(book, "someone/fork-of-course")
    assert 'href="https://github.com/someone/fork-of-course"' in html
    assert "https://mybinder.org/v2/gh/someone/fork-of-course/main" in html
    colab = re.findall(r'href="(https://colab[^"]+)"', html)
    assert colab == [f"{COLAB}/someone/fork-of-course/blob/main/colab/chapter.ipynb"], colab
    assert UNSET_TEXT.format(service="Binder") not in html
    assert "OWNER" not in html
    other = (book / "_build" / "html" / "other.html").read_text(encoding="utf-8")
    assert "mybinder.org/v2/gh/someone" in other and "colab.research" not in other


def test_without_a_repository_the_launch_menu_says_what_is_missing(book: Path) -> None:
    html = build(book, None)
    assert 'href="https://github.com/OWNER/perceptron-course"' in html  # the config's URL
    assert "mybinder.org" not in html, "a Binder link to OWNER's repository"
    assert "colab.research" not in html, "a Colab link to OWNER's repository"
    for service in ("Binder", "Colab", "Live code"):
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


def theme_menu(pagename: str) -> dict:
    """A page context as sphinx-book-theme leaves it: the Colab button opens the MyST chapter."""
    url = f"{COLAB}/someone/course/blob/main/{pagename}.ipynb"
    buttons = [{"type": "link", "text": "Colab", "url": url}, {"type": "link", "text": "Binder"}]
    return {"header_buttons": [{"label": "launch-buttons", "buttons": buttons}]}


def colab_links(pagename: str, srcdir: Path) -> list[str]:
    """The Colab links of ``pagename``'s launch menu after the extension has run."""
    app = type("App", (), {"srcdir": str(srcdir)})()
    context = theme_menu(pagename)
    point_colab_at_edition(app, pagename, "page.html", context, None)
    buttons = context["header_buttons"][0]["buttons"]
    assert [b["text"] for b in buttons if b["text"] != "Colab"] == ["Binder"]
    return [b["url"] for b in buttons if b["text"] == "Colab"]


def test_each_chapter_colab_link_opens_its_committed_edition() -> None:
    listing = subprocess.run(
        ["git", "ls-files", "colab"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    chapters = [name for name in toc_files() if re.match(r"\d\d", Path(name).name)]
    assert chapters
    for name in chapters:
        links = colab_links(name, ROOT)
        expected = f"colab/{Path(name).name}.ipynb"
        assert links == [f"{COLAB}/someone/course/blob/main/{expected}"], (name, links)
        assert expected in listing, f"{name}: {expected} is not committed (make colab)"


def test_a_page_without_an_edition_has_no_colab_button(tmp_path: Path) -> None:
    assert colab_links("book/05_convergence", tmp_path) == []
