"""The Colab edition runs as Colab runs it: a fresh Colab-like environment, its own install cell.

Colab gives a student a runtime with a scientific stack already installed and
nothing of the book's tooling. ``tests/colab/requirements.txt`` (compiled from
``requirements.in`` beside it, whose comment says where the versions come from)
stands for that runtime. The tests

1. build that environment once, fresh, in a temporary folder (``python -m venv``,
   then ``pip install -r`` the lock), and check that the book's tooling
   (``myst_nb``, ``sphinx``, ``jupyter_book``) cannot be imported there;
2. run every ``colab/*.ipynb`` top to bottom, one after another, with a kernel of
   that environment started by nbclient from this one (a kernelspec pointing at
   the fresh Python, in a folder of its own). Each notebook's first cell, the
   install cell, installs the library from this checkout instead of GitHub (a
   wheel built from it once): only its requirement string
   ``perceptron_lib @ git+https://github.com/<owner>/<name>`` is replaced. The
   library is uninstalled before each notebook, so that every install cell
   really installs it, as on a new Colab runtime;
3. check that installing the library installed nothing else (its dependencies are
   all in the environment already, as they are on Colab; a chapter whose install
   cell also installs what Colab lacks is reported, not held to it), that a last cell
   appended to each notebook sees the library installed in the environment (not
   this checkout) and no book tooling.

The times (environment, each notebook) are printed and written to
``_build/colab/run.txt``: measurements, not asserts. Run by ``make colab-check``
(part of ``make test``).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from datetime import datetime
from pathlib import Path

import nbformat
import pytest
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import KernelManager
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

ROOT = Path(__file__).resolve().parent.parent
LOCK = ROOT / "tests" / "colab" / "requirements.txt"
EDITION = ROOT / "colab"
REPORT = ROOT / "_build" / "colab" / "run.txt"
PYTHON = "python3.11"  # the Python of CI and Binder (Colab's is 3.13: see requirements.in)
ARGV = ("-m", "ipykernel_launcher", "-f", "{connection_file}")  # a kernelspec's argv
BOOK_TOOLING = ("myst_nb", "sphinx", "jupyter_book")
# The install cell's requirement (the interface of issue 36): an optional extra, then the URL.
REQUIREMENT = re.compile(
    r"perceptron_lib(?P<extra>\[[A-Za-z0-9_,-]+\])? @ "
    r"git\+https://github\.com/[A-Za-z0-9][A-Za-z0-9-]*/[A-Za-z0-9._-]+"
)
# What the library's build needs from this checkout (pyproject.toml names the other two).
PACKAGE_FILES = ("pyproject.toml", "README.md", "LICENSE")

LAST_CELL = f"""
import importlib.util, json, sys
import perceptron_lib
print(json.dumps({{
    "prefix": sys.prefix,
    "library": perceptron_lib.__file__,
    "tooling": [name for name in {BOOK_TOOLING!r} if importlib.util.find_spec(name)],
}}))
"""


# --------------------------------------------------------------------------
# The install cell, pointed at this checkout
# --------------------------------------------------------------------------


def install_cell(notebook: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """The edition's first cell: code, tagged ``colab-install``, one requirement string."""
    first = notebook.cells[0]
    if first.cell_type != "code" or "colab-install" not in first.metadata.get("tags", []):
        raise ValueError("the first cell is not a code cell tagged colab-install")
    found = REQUIREMENT.findall(first.source)
    if len(found) != 1:
        raise ValueError(f"the install cell names the library {len(found)} times:\n{first.source}")
    return first


def point_at(notebook: nbformat.NotebookNode, library: Path) -> nbformat.NotebookNode:
    """A copy of ``notebook`` whose install cell installs the library from ``library``.

    Only the requirement string changes; an extra (``perceptron_lib[distributed]``)
    is kept.
    """
    copy = nbformat.from_dict(json.loads(json.dumps(notebook)))
    cell = install_cell(copy)
    cell.source = REQUIREMENT.sub(
        lambda m: f"perceptron_lib{m['extra'] or ''} @ {library.as_uri()}", cell.source
    )
    return copy


def test_the_requirement_is_replaced_and_nothing_else(tmp_path: Path) -> None:
    source = (
        "# Installs the course library (about a minute)\n"
        '%pip install -q "perceptron_lib @ git+https://github.com/some-one/perceptron.course"\n'
        "print('perceptron_lib @ git+https://github.com/OWNER')"  # not a requirement: kept
    )
    cell = nbformat.v4.new_code_cell(source, metadata={"tags": ["colab-install"]})
    notebook = nbformat.v4.new_notebook(cells=[cell, nbformat.v4.new_code_cell("1")])
    pointed = point_at(notebook, tmp_path)
    assert pointed.cells[0].source == source.replace(
        "perceptron_lib @ git+https://github.com/some-one/perceptron.course",
        f"perceptron_lib @ {tmp_path.as_uri()}",
    )
    assert notebook.cells[0].source == source, "the notebook given was changed"
    extra = source.replace("perceptron_lib @", "perceptron_lib[distributed] @")
    notebook.cells[0].source = extra
    assert f"perceptron_lib[distributed] @ {tmp_path.as_uri()}" in (
        point_at(notebook, tmp_path).cells[0].source
    )


@pytest.mark.parametrize(
    "source, tags",
    [
        ('%pip install -q "perceptron_lib @ git+https://github.com/o/r"', []),
        ("%pip install -q numpy", ["colab-install"]),
        ('%pip install "perceptron_lib @ git+https://github.com/o/r" ' * 2, ["colab-install"]),
    ],
)
def test_an_install_cell_that_breaks_the_interface_is_refused(source: str, tags: list) -> None:
    cell = nbformat.v4.new_code_cell(source, metadata={"tags": tags})
    with pytest.raises(ValueError, match="install cell|colab-install"):
        install_cell(nbformat.v4.new_notebook(cells=[cell]))


# --------------------------------------------------------------------------
# The environment
# --------------------------------------------------------------------------


def freeze(env: Path) -> dict[str, str]:
    """``{name: line}`` of ``pip freeze`` in ``env``."""
    lines = subprocess.run(
        [str(env / "bin" / "python"), "-m", "pip", "freeze", "--all"],
        capture_output=True, text=True, check=True,
    ).stdout.splitlines()  # fmt: skip
    return {
        re.split(r"[=@ ]", line, maxsplit=1)[0].lower().replace("_", "-"): line for line in lines
    }


def changes(before: dict[str, str], after: dict[str, str]) -> list[str]:
    """The packages added, removed or changed between two freezes.

    >>> changes({"numpy": "numpy==2.1.3"}, {"numpy": "numpy==2.1.3", "a": "a==1"})
    ['added a==1']
    >>> changes({"numpy": "numpy==2.1.3"}, {"numpy": "numpy==2.4.6"})
    ['numpy==2.1.3 -> numpy==2.4.6']
    """
    found = [f"added {after[n]}" for n in sorted(after.keys() - before.keys())]
    found += [f"removed {before[n]}" for n in sorted(before.keys() - after.keys())]
    found += [
        f"{before[n]} -> {after[n]}"
        for n in sorted(before.keys() & after.keys())
        if before[n] != after[n]
    ]
    return found


def library_source(destination: Path) -> Path:
    """The library's files from this checkout (what a clone holds), to install from."""
    for name in PACKAGE_FILES:
        shutil.copy2(ROOT / name, destination / name)
    shutil.copytree(
        ROOT / "perceptron_lib",
        destination / "perceptron_lib",
        ignore=shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc"),
    )
    return destination


def kernel_environment(env: Path, home: Path) -> dict[str, str]:
    """The kernel's environment variables: the fresh env first, nothing of this checkout."""
    environment = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("VIRTUAL_ENV", "PYTHON", "JUPYTER", "IPYTHON", "MPL"))
    }
    environment.update(
        HOME=str(home),
        PATH=f"{env / 'bin'}:{os.environ['PATH']}",
        PYTHONNOUSERSITE="1",
        PIP_DISABLE_PIP_VERSION_CHECK="1",
        PYDEVD_DISABLE_FILE_VALIDATION="1",  # the debugger's warning on every kernel start
    )
    # pip's cache keeps the build quick: it changes where packages come from, not which.
    pip_cache = subprocess.run(
        [sys.executable, "-m", "pip", "cache", "dir"], capture_output=True, text=True
    ).stdout.strip()
    if pip_cache:
        environment["PIP_CACHE_DIR"] = pip_cache
    return environment


@pytest.fixture(scope="module")
def colab(tmp_path_factory) -> dict:
    """The Colab-like environment, built once: ``python -m venv``, then the lock."""
    python = shutil.which(PYTHON)
    assert python, f"the Colab-like environment is built with {PYTHON}"
    base = tmp_path_factory.mktemp("colab")
    env, home = base / "env", base / "home"
    home.mkdir()
    environment = kernel_environment(env, home)
    start = time.perf_counter()
    subprocess.run([python, "-m", "venv", str(env)], check=True)
    done = subprocess.run(
        [str(env / "bin" / "python"), "-m", "pip", "install", "-q", "-r", str(LOCK)],
        env=environment, capture_output=True, text=True, timeout=1800,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    # A kernelspec of the fresh Python, in a folder of its own (nothing installed globally).
    kernels = base / "kernels"
    (kernels / "colab").mkdir(parents=True)
    (kernels / "colab" / "kernel.json").write_text(
        json.dumps(
            {
                "argv": [str(env / "bin" / "python"), *ARGV],
                "display_name": "Colab-like Python",
                "language": "python",
            }
        )
    )
    # The library's wheel, built once from this checkout's files (pip builds it from
    # the clone on Colab, in each session); each install cell then installs it.
    (base / "clone").mkdir()
    wheels = base / "wheels"
    built = subprocess.run(
        [str(env / "bin" / "python"), "-m", "pip", "wheel", "-q", "--no-deps",
         "-w", str(wheels), str(library_source(base / "clone"))],
        env=environment, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    (wheel,) = wheels.glob("perceptron_lib-*.whl")
    return {
        "base": base,
        "env": env,
        "environment": environment,
        "kernels": kernels,
        "library": wheel,
        "build_s": time.perf_counter() - start,
        "freeze": freeze(env),
    }


def test_the_environment_has_no_book_tooling(colab: dict) -> None:
    probe = f"import importlib.util as u; print([n for n in {BOOK_TOOLING!r} if u.find_spec(n)])"
    found = subprocess.run(
        [str(colab["env"] / "bin" / "python"), "-c", probe],
        env=colab["environment"], capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    assert found == "[]", f"the Colab-like environment has the book's tooling: {found}"
    assert "perceptron-lib" not in colab["freeze"], "the library is there before any install cell"
    for needed in ("numpy", "scipy", "scikit-learn", "matplotlib", "ipywidgets", "ipykernel"):
        assert needed in colab["freeze"], needed


# --------------------------------------------------------------------------
# Every notebook of the edition, top to bottom
# --------------------------------------------------------------------------


def edition_notebooks() -> list[Path]:
    return sorted(EDITION.glob("*.ipynb"))


def run_notebook(path: Path, colab: dict) -> dict:
    """Run ``path`` (its install cell pointed at this checkout) in a fresh kernel of ``colab``."""
    env = colab["env"]
    subprocess.run(
        [str(env / "bin" / "python"), "-m", "pip", "uninstall", "-q", "-y", "perceptron_lib"],
        env=colab["environment"], capture_output=True, check=False,
    )  # fmt: skip
    before = freeze(env)
    notebook = point_at(nbformat.read(path, as_version=4), colab["library"])
    notebook.cells.append(nbformat.v4.new_code_cell(LAST_CELL))
    # Colab runs a notebook in an empty folder (/content), not in the repository.
    folder = colab["base"] / "content" / path.stem
    folder.mkdir(parents=True)
    manager = KernelManager(
        kernel_name="colab",
        kernel_spec_manager=KernelSpecManager(kernel_dirs=[str(colab["kernels"])]),
    )
    client = NotebookClient(
        notebook, km=manager, timeout=900, resources={"metadata": {"path": str(folder)}}
    )
    start = time.perf_counter()
    error = None
    try:
        client.execute(env=colab["environment"])
    except CellExecutionError as failure:
        error = str(failure)[-4000:]
    finally:  # nbclient leaves a kernel manager it was given running
        if manager.has_kernel:
            manager.shutdown_kernel(now=True)
    seconds = time.perf_counter() - start
    install_s = None
    first = notebook.cells[0].get("metadata", {}).get("execution", {})
    if "iopub.execute_input" in first and "shell.execute_reply" in first:
        install_s = _seconds_between(first["iopub.execute_input"], first["shell.execute_reply"])
    last = None
    if error is None:
        text = "".join(o.get("text", "") for o in notebook.cells[-1].outputs)
        last = json.loads(text.strip().splitlines()[-1])
    return {
        "name": path.name,
        "seconds": seconds,
        "install_s": install_s,
        "error": error,
        "last": last,
        "changes": changes(before, freeze(env)),
        "other_installs": other_installs(install_cell(nbformat.read(path, as_version=4))),
    }


def other_installs(cell: nbformat.NotebookNode) -> list[str]:
    """The install cell's lines that install something besides the plain library.

    >>> cell = nbformat.v4.new_code_cell(
    ...     '%pip install -q "perceptron_lib @ git+https://github.com/o/r"\\n'
    ...     '%pip install -q "dask[distributed]>=2026.8.0"'
    ... )
    >>> other_installs(cell)
    ['%pip install -q "dask[distributed]>=2026.8.0"']
    """
    lines = [line.strip() for line in cell.source.splitlines()]
    return [
        line
        for line in lines
        if re.match(r"[%!]pip\s+install\b", line)
        and not (REQUIREMENT.search(line) and not REQUIREMENT.search(line)["extra"])
    ]


def _seconds_between(start: str, end: str) -> float:
    """Seconds between two of nbclient's ISO timestamps."""
    return (datetime.fromisoformat(end) - datetime.fromisoformat(start)).total_seconds()


@pytest.fixture(scope="module")
def runs(colab: dict) -> list[dict]:
    notebooks = edition_notebooks()
    assert notebooks, f"no notebooks in {EDITION.relative_to(ROOT)}/: run make colab"
    results = [run_notebook(path, colab) for path in notebooks]
    write_report(colab, results)
    return results


def write_report(colab: dict, results: list[dict]) -> None:
    lines = [
        f"Colab-like environment ({LOCK.relative_to(ROOT)}, {PYTHON}): "
        f"built in {colab['build_s']:.1f} s",
    ]
    for run in results:
        install = (
            f"install cell {run['install_s']:.1f} s" if run["install_s"] else "install cell ?"
        )
        state = "FAILED" if run["error"] else "ok"
        lines.append(f"  {run['seconds']:7.1f} s  {run['name']} ({install}) {state}")
        if run["other_installs"]:
            lines.append(f"             its install cell also changed: {run['changes']}")
    REPORT.parent.mkdir(parents=True, exist_ok=True)
    REPORT.write_text("\n".join(lines) + "\n")
    print("\n" + "\n".join(lines))


@pytest.mark.colab
def test_every_notebook_runs_top_to_bottom(runs: list[dict]) -> None:
    failed = [f"{run['name']}:\n{run['error']}" for run in runs if run["error"]]
    assert failed == [], "\n\n".join(failed)


@pytest.mark.colab
def test_each_notebook_used_the_library_it_installed_and_no_book_tooling(
    runs: list[dict], colab: dict
) -> None:
    for run in [r for r in runs if r["last"] is not None]:
        last = run["last"]
        assert last["prefix"] == str(colab["env"]), f"{run['name']} ran in {last['prefix']}"
        assert Path(last["library"]).is_relative_to(colab["env"]), (
            f"{run['name']} imported the library from {last['library']}, not from its install"
        )
        assert last["tooling"] == [], f"{run['name']} could import {last['tooling']}"


@pytest.mark.colab
def test_installing_the_library_installed_nothing_else(runs: list[dict]) -> None:
    """Colab already has every dependency: installing the library adds the library alone.

    A chapter whose install cell also installs something else (chapter 8: Dask's
    distributed scheduler, which Colab lacks) may change more; the report lists it.
    """
    plain = [run for run in runs if not run["other_installs"]]
    assert plain, "no install cell installs the library alone"
    for run in plain:
        added = [c for c in run["changes"] if c.startswith("added perceptron_lib @ ")]
        assert len(added) == 1, f"{run['name']}: the library was not installed: {run['changes']}"
        others = [c for c in run["changes"] if c not in added]
        assert others == [], f"{run['name']}: the install cell also changed {others}"
