"""Binder, replayed here: repo2docker's own plan for ``binder/``, run in a fresh environment.

Binder builds an image with repo2docker. ``repo2docker --no-build --debug .``
prints the Dockerfile it would build, without Docker and offline. The tests

1. read that plan and check the Python version and the files it uses;
2. check that every pin of ``binder/requirements.txt`` is the pin of
   ``requirements.txt`` (both are written by ``make lock``);
3. replay the plan's repository steps (the requirements file, then
   ``binder/postBuild``) in a fresh virtual environment of that Python, with
   ``HOME`` in a temporary folder and a copy of the repository's tracked files,
   then run every chapter of ``_toc.yml`` from ``book/`` with that
   environment's kernel, top to bottom, as "Run all" does;
4. check that every Binder or Colab link of the built site opens a file that
   the repository has.

The replay reports what a student waits for (``_build/binder/replay.txt``):
each step of the build, each chapter's time, and the first fit in a fresh
process. Those are measurements, not asserts. Run by ``make binder`` (part of
``make test``); the replay takes a few minutes, most of it installing packages
(pip's cache is used, which changes where packages come from, not which).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlparse

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "scripts" / "site"))
from repository_from_env import UNSET_TEXT  # noqa: E402
from toc import toc_files  # noqa: E402

REPORT = ROOT / "_build" / "binder" / "replay.txt"
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)(\[[^\]]*\])?==([^\s;]+)\s*(?:;\s*(.*))?$")


# --------------------------------------------------------------------------
# repo2docker's plan
# --------------------------------------------------------------------------


def read_plan(repository: Path) -> str:
    """The Dockerfile (and log) that repo2docker prints for ``repository``, without building."""
    repo2docker = Path(sys.executable).parent / "repo2docker"
    result = subprocess.run(
        [str(repo2docker), "--no-build", "--debug", str(repository)],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    return result.stdout + result.stderr


def plan_python(plan: str) -> str:
    """The Python version of the image's environment, as repo2docker logs it."""
    found = re.findall(r"Building conda environment for python=(\d+\.\d+)", plan)
    if len(found) != 1:
        raise ValueError(f"the plan names {len(found)} Python versions: {found}")
    return found[0]


def repository_steps(plan: str) -> tuple[list[str], list[str]]:
    """The files copied from the repository, and every RUN step from the first one on.

    Steps before the first copy build repo2docker's own base environment;
    those from it on are what the repository's files ask for.
    """
    lines = plan.replace("\\\n", " ").splitlines()
    copies = [m.group(1) for line in lines if (m := re.match(r"COPY\s.*\bsrc/(\S*)\s", line))]
    first = next(i for i, line in enumerate(lines) if re.match(r"COPY\s.*\bsrc/", line))
    runs = [line[4:].strip() for line in lines[first:] if line.startswith("RUN ")]
    return copies, runs


@pytest.fixture(scope="module")
def plan() -> str:
    return read_plan(ROOT)


def test_plan_uses_python_of_runtime_txt(plan: str) -> None:
    runtime = (ROOT / "binder" / "runtime.txt").read_text().strip()
    assert runtime == "python-3.11", runtime
    assert plan_python(plan) == "3.11", plan


def test_plan_installs_binder_requirements_then_post_build(plan: str) -> None:
    copies, runs = repository_steps(plan)
    assert copies == ["binder/requirements.txt", ""], copies  # the file, then the whole repo
    assert runs == [
        '${KERNEL_PYTHON_PREFIX}/bin/pip install --no-cache-dir -r "binder/requirements.txt"',
        "chmod +x binder/postBuild",
        "./binder/postBuild",
    ], runs


def test_plan_without_binder_folder_is_not_ours(tmp_path: Path) -> None:
    """The parser tells the plans apart: without ``binder/``, Python 3.10 and requirements.txt."""
    for name in ("requirements.txt", "pyproject.toml"):
        shutil.copy(ROOT / name, tmp_path / name)
    (tmp_path / "perceptron_lib").mkdir()
    other = read_plan(tmp_path)
    assert plan_python(other) != "3.11"
    copies, runs = repository_steps(other)
    assert "binder/requirements.txt" not in copies and "./binder/postBuild" not in runs


# --------------------------------------------------------------------------
# The slim requirements file pins what requirements.txt pins
# --------------------------------------------------------------------------


def pins(text: str) -> dict[str, tuple[str, str]]:
    """``{name: (version, marker)}`` of a pip-compiled requirements file."""
    found = {}
    for line in text.splitlines():
        if match := PIN.match(line.strip()):
            name = re.sub(r"[-_.]+", "-", match.group(1)).lower()
            found[name] = (match.group(3), (match.group(4) or "").strip())
    return found


def pin_mismatches(binder_text: str, main_text: str) -> list[str]:
    """Every pin of the Binder file that ``requirements.txt`` lacks or pins otherwise."""
    main = pins(main_text)
    return [
        f"{name}=={version} (requirements.txt: {main.get(name)})"
        for name, (version, marker) in pins(binder_text).items()
        if main.get(name) != (version, marker)
    ]


def test_binder_pins_are_those_of_requirements_txt() -> None:
    binder = (ROOT / "binder" / "requirements.txt").read_text()
    assert len(pins(binder)) > 50, "binder/requirements.txt pins too little: run make lock"
    assert pin_mismatches(binder, (ROOT / "requirements.txt").read_text()) == []
    for needed in ("numba", "jupyterlab", "jupyterlab-myst", "ipywidgets", "scikit-learn"):
        assert needed in pins(binder), needed
    for tool in ("sphinx-book-theme", "jupyter-book", "pytest", "ruff", "playwright", "nbgrader"):
        assert tool not in pins(binder), f"Binder does not need {tool}"


def test_a_pin_that_differs_is_reported() -> None:
    main = "numpy==2.4.6\n    # via x\nappnope==1.0.0 ; sys_platform == 'darwin'\n"
    assert pin_mismatches("numpy==2.4.6\nappnope==1.0.0 ; sys_platform == 'darwin'\n", main) == []
    assert pin_mismatches("numpy==2.4.5\n", main) == [
        "numpy==2.4.5 (requirements.txt: ('2.4.6', ''))"
    ]
    assert len(pin_mismatches("Pandas==3.1.1\n", main)) == 1  # missing from requirements.txt


# --------------------------------------------------------------------------
# Launch links open files that exist
# --------------------------------------------------------------------------


def tracked_files() -> set[str]:
    """The repository's files as a clone has them (what Binder and Colab open)."""
    listing = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    return {name for name in listing.split("\0") if name}


def launch_target(url: str) -> str | None:
    """The repository path a Binder or Colab URL opens, or None for another URL."""
    parsed = urlparse(url)
    if parsed.netloc.endswith("mybinder.org") and parsed.path.startswith("/v2/gh/"):
        urlpath = parse_qs(parsed.query).get("urlpath", [""])[0]
        return unquote(urlpath.split("/tree/", 1)[1]) if "/tree/" in urlpath else ""
    if parsed.netloc == "colab.research.google.com" and "/blob/" in parsed.path:
        return unquote(parsed.path.split("/blob/", 1)[1].split("/", 1)[1])
    return None


def dead_launch_links(html_dir: Path, files: set[str]) -> list[str]:
    """Every Binder or Colab link of the site whose file the repository does not have."""
    dead = []
    for page in sorted(html_dir.rglob("*.html")):
        for url in re.findall(r'href="([^"]+)"', page.read_text(errors="replace")):
            target = launch_target(url.replace("&amp;", "&"))
            if target is not None and target not in files:
                dead.append(f"{page.relative_to(html_dir)}: {url} opens {target!r}, not a file")
    return dead


def test_every_chapter_of_the_toc_is_a_tracked_notebook() -> None:
    """The launch buttons open ``<file>.ipynb`` for each notebook page of ``_toc.yml``."""
    files = tracked_files()
    chapters = [f for f in toc_files() if re.match(r"\d\d", Path(f).name)]
    assert chapters
    assert [f for f in chapters if f"{f}.ipynb" not in files] == []


def test_launch_links_of_the_built_site_open_existing_files() -> None:
    """Every launch link opens a tracked file; without them, every chapter says why."""
    html = ROOT / "_build" / "html"
    if not (html / "index.html").exists():
        pytest.skip("no built site: `make test` builds it (build-check) before this test")
    assert dead_launch_links(html, tracked_files()) == []
    for name in [f for f in toc_files() if re.match(r"\d\d", Path(f).name)]:
        page = (html / f"{name}.html").read_text(errors="replace")
        links = [u for u in re.findall(r'href="([^"]+)"', page) if launch_target(u) is not None]
        explained = UNSET_TEXT.format(service="Binder") in page
        assert links or explained, f"{name}.html has no Binder link and does not say why"
        assert not (links and explained), f"{name}.html both links and says it cannot"


def test_a_launch_link_to_a_missing_file_is_reported(tmp_path: Path) -> None:
    binder = "https://mybinder.org/v2/gh/o/r/main?urlpath=lab/tree/book/99_missing.ipynb"
    colab = "https://colab.research.google.com/github/o/r/blob/main/book/01_x.ipynb"
    (tmp_path / "page.html").write_text(f'<a href="{binder}">B</a><a href="{colab}">C</a>')
    dead = dead_launch_links(tmp_path, {"book/01_x.ipynb"})
    assert len(dead) == 1 and "book/99_missing.ipynb" in dead[0], dead


# --------------------------------------------------------------------------
# The replay
# --------------------------------------------------------------------------

RUNNER = '''
"""Run each notebook given, top to bottom, with this Python's kernel; print times."""
import sys, time
import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

for path in sys.argv[1:]:
    notebook = nbformat.read(path, as_version=4)
    # A last cell that says which Python ran the chapter.
    notebook.cells.append(nbformat.v4.new_code_cell("import sys; print(sys.prefix)"))
    start = time.perf_counter()
    folder = str(__import__("pathlib").Path(path).parent)  # where JupyterLab runs it
    client = NotebookClient(notebook, timeout=600, kernel_name="python3",
                            resources={"metadata": {"path": folder}})
    try:
        client.execute()
    except CellExecutionError as error:  # report it, and run the other chapters
        print(f"FAILED {path}: {str(error)[-3000:]}", file=sys.stderr, flush=True)
        continue
    seconds = time.perf_counter() - start
    prefix = notebook.cells[-1].outputs[0]["text"].strip()
    print(f"CHAPTER {path} {seconds:.1f} {prefix}", flush=True)
'''

FIRST_FIT = """
import time
start = time.perf_counter()
import perceptron_lib as pl
imported = time.perf_counter()
data = pl.make_separable(200, margin=0.1, random_state=0)
pl.Perceptron(random_state=0).fit(data.X, data.y)
fitted = time.perf_counter()
print(f"{imported - start:.2f} {fitted - imported:.2f}")
"""


def copy_tracked(destination: Path) -> None:
    """The tracked files, as they are in the work tree: what a clone of this commit holds."""
    for name in sorted(tracked_files()):
        source = ROOT / name
        if source.is_file():
            target = destination / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)


@pytest.fixture(scope="module")
def replay(plan: str, tmp_path_factory) -> dict:
    """Replay the plan: a fresh venv, the plan's steps, then every chapter."""
    version = plan_python(plan)
    python = shutil.which(f"python{version}")
    assert python, f"the replay needs python{version}, which the plan uses"
    base = tmp_path_factory.mktemp("binder")
    # On Binder the repository's folder is also HOME (repo2docker's REPO_DIR).
    repository, env = base / "repo", base / "env"
    home = repository
    copy_tracked(repository)
    subprocess.run([python, "-m", "venv", str(env)], check=True)
    pip_cache = subprocess.run(
        [sys.executable, "-m", "pip", "cache", "dir"], capture_output=True, text=True
    ).stdout.strip()
    environment = {
        key: value for key, value in os.environ.items() if not key.startswith(("VIRTUAL_ENV",))
    }
    environment.update(
        HOME=str(home),
        PATH=f"{env / 'bin'}:{os.environ['PATH']}",
        KERNEL_PYTHON_PREFIX=str(env),
        NB_PYTHON_PREFIX=str(env),
        REPO_DIR=str(repository),
        PIP_CACHE_DIR=pip_cache or str(home / ".cache" / "pip"),
        PYTHONNOUSERSITE="1",
    )
    report = {"python": version, "steps": [], "chapters": []}
    _, runs = repository_steps(plan)
    for step in runs:
        # pip's cache keeps the replay quick; it changes where packages come from, not which.
        command = step.replace("--no-cache-dir ", "")
        start = time.perf_counter()
        done = subprocess.run(
            ["bash", "-c", command],
            cwd=repository,
            env=environment,
            capture_output=True,
            text=True,
            timeout=1800,
        )
        assert done.returncode == 0, (
            f"{step} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
        )
        report["steps"].append((step, time.perf_counter() - start, done.stdout))
    # The library as a chapter imports it (from book/), and numba's cache beside
    # it as the build left it, before anything else runs.
    located = subprocess.run(
        [
            str(env / "bin" / "python"),
            "-c",
            "import perceptron_lib; print(perceptron_lib.__file__)",
        ],
        cwd=repository / "book",
        env=environment,
        capture_output=True,
        text=True,
        check=True,
    )
    report["library"] = Path(located.stdout.strip()).parent
    report["cached"] = sorted(
        str(p.relative_to(report["library"])) for p in report["library"].rglob("__pycache__/*.nbi")
    )
    first_fit = subprocess.run(
        [str(env / "bin" / "python"), "-c", FIRST_FIT],
        cwd=repository / "book",
        env=environment,
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    report["import_s"], report["first_fit_s"] = map(float, first_fit.stdout.split())
    (base / "runner.py").write_text(RUNNER)
    chapters = [
        str(repository / f"{name}.ipynb")
        for name in toc_files()
        if (repository / f"{name}.ipynb").exists()
    ]
    done = subprocess.run(
        [str(env / "bin" / "python"), str(base / "runner.py"), *chapters],
        cwd=repository,
        env=environment,
        capture_output=True,
        text=True,
        timeout=3600,
    )
    for line in done.stdout.splitlines():
        if line.startswith("CHAPTER "):
            _, path, seconds, prefix = line.split(" ", 3)
            report["chapters"].append((Path(path).name, float(seconds), prefix))
    report["runner"] = done
    report["env"], report["expected"] = str(env), [Path(c).name for c in chapters]
    write_report(report)
    return report


def write_report(report: dict) -> None:
    lines = [f"Binder replay, Python {report['python']}"]
    for step, seconds, _ in report["steps"]:
        lines.append(f"  {seconds:7.1f} s  {step}")
    post_build = report["steps"][-1][2] if report["steps"] else ""
    lines += ["  postBuild's warm-up (compiles into numba's cache):"]
    lines += [f"    {line}" for line in post_build.splitlines() if line.strip()]
    lines.append(
        f"First fit in a fresh process after the build: import {report['import_s']:.2f} s,"
        f" fit {report['first_fit_s']:.2f} s (target: fit <= 1.5 s)"
    )
    ran = [name for name, _, _ in report["chapters"]]
    for name, seconds, _ in report["chapters"]:
        lines.append(f"  {seconds:7.1f} s  {name}")
    lines += [f"  FAILED     {name}" for name in report["expected"] if name not in ran]
    REPORT.parent.mkdir(parents=True, exist_ok=True)
    REPORT.write_text("\n".join(lines) + "\n")
    print("\n" + "\n".join(lines))


@pytest.mark.binder
def test_replayed_build_runs_every_chapter_with_its_own_kernel(replay: dict) -> None:
    runner = replay["runner"]
    failures = "\n".join(line for line in runner.stderr.splitlines() if "FAILED" in line)
    assert runner.returncode == 0 and not failures, (
        f"a chapter failed:\n{runner.stdout[-2000:]}\n{runner.stderr[-6000:]}"
    )
    assert [name for name, _, _ in replay["chapters"]] == replay["expected"]
    for name, _, prefix in replay["chapters"]:
        assert prefix == replay["env"], f"{name} ran in {prefix}, not in the replayed environment"


@pytest.mark.binder
def test_replayed_build_has_the_library_compiled_and_cached(replay: dict) -> None:
    """postBuild installed perceptron_lib and left numba's cache where chapters find it."""
    assert replay["library"] == Path(replay["env"]).parent / "repo" / "perceptron_lib"
    # numba names an index file after the module and function: loops/__pycache__/plain.*.nbi
    compiled = {
        Path(name).parent.parent.name + "." + Path(name).name.split(".")[0]
        for name in replay["cached"]
    }
    assert {"loops.plain", "loops.speculative"} <= compiled, (
        f"numba's cache after the build, beside the library chapters import: {replay['cached']}"
    )
