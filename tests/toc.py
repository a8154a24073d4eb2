"""List the notebooks of the book's table of contents, one path per line.

Used by the Makefile (``make notebooks``) and by the hygiene test, so that the
set of notebooks under test is exactly the set the book publishes.
"""

from __future__ import annotations

from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent


def toc_files() -> list[str]:
    """Return every ``file:`` entry of ``_toc.yml`` (and its ``root``), in order."""
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    files = [toc["root"]]

    def walk(entries):
        for entry in entries or []:
            if "file" in entry:
                files.append(entry["file"])
            walk(entry.get("sections"))
            for part in entry.get("parts", []):
                walk(part.get("chapters"))

    walk(toc.get("chapters"))
    for part in toc.get("parts", []):
        walk(part.get("chapters"))
    return files


def toc_notebooks() -> list[Path]:
    """Return the paths of the notebooks listed in the table of contents."""
    return [ROOT / f"{f}.ipynb" for f in toc_files() if (ROOT / f"{f}.ipynb").exists()]


if __name__ == "__main__":
    for path in toc_notebooks():
        print(path.relative_to(ROOT))
