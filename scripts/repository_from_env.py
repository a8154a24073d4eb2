"""A Sphinx extension: the repository the book links to, taken from the environment.

``_config.yml`` names a placeholder repository (``OWNER/perceptron-course``).
When the environment variable ``REPOSITORY`` holds ``owner/name`` (GitHub
Actions' ``${{ github.repository }}``, or ``make book REPOSITORY=owner/name``),
every link that the theme derives from ``repository.url`` points there
instead: the repository and issues buttons, Binder, Colab and "Live code".
A fork therefore deploys a site that launches its own notebooks, without
editing any file.

Enable it in ``_config.yml``::

    sphinx:
      local_extensions:
        repository_from_env: scripts
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


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the hook (early: before the theme reads its options)."""
    app.connect("config-inited", use_repository_from_env, priority=100)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
