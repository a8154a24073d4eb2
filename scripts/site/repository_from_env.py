"""A Sphinx extension: the repository the book links to, taken from the environment.

``_config.yml`` names a placeholder repository (``OWNER/perceptron-course``).
When the environment variable ``REPOSITORY`` holds ``owner/name`` (GitHub
Actions' ``${{ github.repository }}``, or ``make book REPOSITORY=owner/name``),
every link that the theme derives from ``repository.url`` points there
instead: the repository and issues buttons, Binder and "Live code".
A fork therefore deploys a site that launches its own notebooks, without
editing any file.

A site built without ``REPOSITORY`` while ``_config.yml`` still names the
placeholder owner ``OWNER`` cannot launch anything: Binder would be asked for a
repository that does not exist. Its launch menu then holds one entry per
service that says what is missing and links to the page that explains it
(``book/using.md``), instead of a link to ``OWNER``.

Enable it in ``_config.yml``::

    sphinx:
      local_extensions:
        repository_from_env: scripts/site
"""

from __future__ import annotations

import os
import re
from typing import Any

from sphinx.application import Sphinx
from sphinx.config import Config
from sphinx.errors import ConfigError

GITHUB = "https://github.com"
OWNER_NAME = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})/[A-Za-z0-9._-]{1,100}")
PLACEHOLDER_OWNER = "OWNER"
# Where the launch menu of a site built without a repository sends the reader.
EXPLANATION_PAGE, EXPLANATION_ANCHOR = "book/using", "launching-needs-the-repository"
UNSET_TEXT = "{service}: not set up (build with REPOSITORY=owner/name)"


def repository_url(value: str) -> str:
    """Return the GitHub URL of ``owner/name``; refuse anything else."""
    if not OWNER_NAME.fullmatch(value):
        raise ConfigError(f"REPOSITORY must look like owner/name, got {value!r}")
    return f"{GITHUB}/{value}"


def use_repository_from_env(app: Sphinx, config: Config) -> None:
    """Point the theme's repository URL at ``$REPOSITORY`` when it is set."""
    value = os.environ.get("REPOSITORY", "").strip()
    if value:
        options = dict(config.html_theme_options or {})
        options["repository_url"] = repository_url(value)
        config.html_theme_options = options


def is_placeholder(url: str) -> bool:
    """Whether a repository URL still names the placeholder owner ``OWNER``.

    >>> is_placeholder("https://github.com/OWNER/perceptron-course")
    True
    >>> is_placeholder("https://github.com/someone/perceptron-course")
    False
    """
    parts = url.removeprefix(GITHUB).strip("/").split("/")
    return parts[0] == PLACEHOLDER_OWNER


def explain_unset_launch_buttons(app: Sphinx, pagename: str, templatename, context, doctree):
    """Replace the launch menu's links to ``OWNER`` by entries that say what is missing.

    Runs after the theme has built the menu (``html-page-context``, priority 501).
    """
    options = app.config.html_theme_options or {}
    if not is_placeholder(options.get("repository_url", "")):
        return
    page = context["pathto"](EXPLANATION_PAGE) + "#" + EXPLANATION_ANCHOR
    for group in context.get("header_buttons", []):
        if group.get("label") != "launch-buttons":
            continue
        explained = []
        for button in group["buttons"]:
            service = "Live code" if button.get("label") == "launch-thebe" else button["text"]
            explained.append(
                {
                    "type": "link",
                    "text": UNSET_TEXT.format(service=service),
                    "tooltip": (
                        f"{service} needs the repository this site was built from; "
                        "this build was not told it (see the page linked)"
                    ),
                    "icon": "fas fa-circle-exclamation",
                    "url": page,
                }
            )
        group["buttons"] = explained
        # Thebe would start a kernel on Binder from OWNER's repository.
        context["use_thebe"] = False


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the hooks (early: before the theme reads its options; late: after its menu)."""
    app.connect("config-inited", use_repository_from_env, priority=100)
    app.connect("html-page-context", explain_unset_launch_buttons, priority=502)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
