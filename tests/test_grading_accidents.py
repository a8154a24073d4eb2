"""Accidents and faults in grading a class: links, a copied test cell, odd names, disk, kills.

One chapter-1 course is made and graded once (module scope), with one student
per accident; the kill tests grade a copy of the fresh course in a subprocess
that they interrupt (Ctrl-C) or kill (SIGKILL), then grade again and compare
with the uninterrupted result. Helpers come from ``test_grading_hostile``.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import nbformat
import pytest
from test_grading_hostile import ACTIVATION, PREDICT, _answer_cell
from toc import ROOT

sys.path.insert(0, str(ROOT / "scripts"))
from grading import grades, nbgrader_course, sample_submissions, sandbox, submission  # noqa: E402

SECRET = "TOP-SECRET-7f3a: the instructor's private notes"
# predict appends 1 GiB in 64 MiB files (each under the file-size limit), then answers:
# the first call fills the disk, the next ones fail at once on the full disk.
FILL = (
    "    for number in range(16):\n"
    "        with open(f'{FOLDER}/fill-{number}', 'ab') as file:\n"
    "            file.write(bytes(64 * 2**20))\n"
    "    return 1 if activation(w, x, b) > 0 else -1\n"
)
BAD_NAME = "new\nline"
KILL_CLASS = ("honest", "twin-test")


def _read(course: Path) -> dict[tuple[str, str], dict[str, str]]:
    return {(r["student"], r["question"]): r for r in _rows(course)}


def _rows(course: Path, student: str | None = None) -> list[dict[str, str]]:
    with open(course / grades.GRADES_FILE, newline="", encoding="utf-8") as file:
        return [r for r in csv.DictReader(file) if student in (None, r["student"])]


def _key(course: Path):
    (source_path,) = (course / "source" / "ch01").glob("*.ipynb")
    source = nbformat.read(source_path, as_version=4)
    release = nbformat.read(course / "release" / "ch01" / source_path.name, as_version=4)
    return source_path.name, sample_submissions.answer_key(source, release)


def _twin_test(notebook):
    """The predict test cell copied and pasted just below itself (same metadata, new id)."""
    cell = _answer_cell(notebook, PREDICT)
    twin = nbformat.from_dict(dict(cell))
    twin["id"] = "pasted-copy"
    notebook.cells.insert(notebook.cells.index(cell) + 1, twin)
    return notebook


def _filler(notebook, folder: str):
    return sample_submissions.with_body(
        notebook, f"{PREDICT}-answer", FILL.replace("{FOLDER}", folder)
    )


def _class(course: Path, root: Path, students: tuple[str, ...] | None = None) -> Path:
    name, _ = _key(course)
    out = root / "class"
    outside = root / "outside"  # a folder of the instructor's, outside the class
    made = {
        "honest": _key(course)[1],
        "twin-test": _twin_test(_key(course)[1]),
        "disk-tmp": _filler(_key(course)[1], "/tmp"),
        "disk-work": _filler(_key(course)[1], "."),
        BAD_NAME: _key(course)[1],
    }
    for student, notebook in made.items():
        if students is None or student in students:
            sample_submissions.write(notebook, out / student / "ch01" / name)
    if students is not None:
        return out
    (outside / "notes.txt").parent.mkdir(parents=True)
    (outside / "notes.txt").write_text(SECRET + "\n")
    sample_submissions.write(_key(course)[1], outside / "folder" / name)
    (outside / "folder" / "secret.txt").write_text(SECRET)
    sample_submissions.write(_key(course)[1], outside / "student" / "ch01" / name)
    links = {
        "linked-source/ch01": course / "source" / "ch01",
        f"linked-peer/ch01/{name}": out / "honest" / "ch01" / name,
        f"linked-file/ch01/{name}": outside / "notes.txt",
        "linked-folder/ch01": outside / "folder",
        "linked-student": outside / "student",
    }
    for link, target in links.items():
        (out / link).parent.mkdir(parents=True, exist_ok=True)
        (out / link).symlink_to(target)
    return out


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    root = tmp_path_factory.mktemp("accidents")
    course = root / "course"
    (chapter,) = sorted((ROOT / "book").glob("01_*.ipynb"))
    nbgrader_course.main(str(course), str(chapter))
    shutil.copytree(course, root / "fresh")  # an ungraded course, for the kill tests
    _class(course, root)
    printed = io.StringIO()
    start = time.perf_counter()
    with contextlib.redirect_stdout(printed):
        grades.main(str(course), str(root / "class"))
    seconds = time.perf_counter() - start
    print(printed.getvalue())
    print(f"grading the accidents' class: {seconds:.1f} s")
    for row in _rows(course):  # what an instructor would read
        if row["student"] != "honest" and not row["reason"].startswith("written answer"):
            print(" | ".join(row.values()))
    return course, root, _read(course), printed.getvalue()


def _everything(course: Path) -> bytes:
    return b"".join(p.read_bytes() for p in sorted(course.rglob("*")) if p.is_file())


def test_links_are_refused_with_a_reason_and_nothing_outside_is_read(graded):
    course, root, table, _ = graded
    for student in (
        *(f"linked-{t}" for t in ("source", "peer", "file", "folder")),
        "linked-student",
    ):
        own = _rows(course, student)
        assert own and all(r["score"] in ("", "0") for r in own), own
        assert any("symbolic link" in r["reason"] for r in own), own
    assert table["honest", PREDICT]["score"] == "2"
    assert SECRET.encode() not in _everything(course)  # not copied, not quoted, no feedback
    (source,) = (course / "source" / "ch01").glob("*.ipynb")
    copies = [p for p in (course / "submitted").rglob("*") if p.is_file()]
    assert source.read_bytes() not in {p.read_bytes() for p in copies}
    assert not [p for p in course.rglob("*") if p.is_symlink()]


def test_a_link_loop_costs_only_its_student(tmp_path):
    (tmp_path / "loop" / "ch01").mkdir(parents=True)
    (tmp_path / "loop" / "ch01" / "01_neuron_model.ipynb").symlink_to("01_neuron_model.ipynb")
    (tmp_path / "loop" / "ch01" / "a").symlink_to("b")
    (tmp_path / "loop" / "ch01" / "b").symlink_to("a")
    (tmp_path / "loop" / "ch01" / "data").symlink_to(".")
    (tmp_path / "fine" / "ch01").mkdir(parents=True)
    (tmp_path / "fine" / "ch01" / "01_neuron_model.ipynb").write_text("{}")
    course = tmp_path / "course"
    (course / "source" / "ch01").mkdir(parents=True)
    (course / "source" / "ch01" / "01_neuron_model.ipynb").write_text("{}")
    to_grade = grades.collect(course, tmp_path, "stamp")
    assert to_grade == {"ch01": ["fine", "loop"]}
    assert not list((course / "submitted" / "loop" / "ch01").iterdir())
    notes = (course / "sandbox" / "loop" / "ch01" / "found.json").read_text()
    assert "symbolic link" in notes


def test_a_copied_test_cell_is_graded_once_from_the_instructors_cell(graded):
    _, _, table, _ = graded
    for question in (PREDICT, ACTIVATION):
        assert table["twin-test", question]["score"] == "2", table["twin-test", question]
    reason = table["twin-test", PREDICT]["reason"]
    assert f"the cell {PREDICT} appears 2 times" in reason, reason


def test_a_folder_name_nbgrader_cannot_take_is_refused_by_name(graded):
    course, _, table, _ = graded
    own = _rows(course, BAD_NAME)
    assert own, sorted({s for s, _ in table})
    assert all(r["score"] in ("", "0") for r in own), own
    assert any(repr(BAD_NAME) in r["reason"] for r in own), own
    assert not any("kernel" in r["reason"] for r in own), own
    assert not [s for s, _ in table if s in ("new", "line")]


def test_disk_writers_lose_only_their_own_points(graded):
    _, _, table, _ = graded
    for student in ("disk-tmp", "disk-work"):
        assert table[student, ACTIVATION]["score"] == "2", student
        row = table[student, PREDICT]
        assert float(row["score"]) < 2 and row["reason"], row
    # The answer is called in a fresh sandbox whose /tmp is a small tmpfs of its own,
    # and whose folder has a file-size limit and a quota: the calls made before a
    # limit is reached pass, the others fail with it named (partial credit is the
    # fraction of checks passed, as for any answer).
    reason = table["disk-tmp", PREDICT]["reason"]
    assert "No space left on device" in reason or "File too large" in reason, reason
    reason = table["disk-work", PREDICT]["reason"]
    assert "File too large" in reason or "MiB a submission may write" in reason, reason
    assert table["honest", PREDICT]["score"] == "2"


def test_progress_counts_elapsed_and_remaining(graded):
    *_, printed = graded
    lines = [line for line in printed.splitlines() if "notebooks graded" in line]
    assert lines, printed
    assert "elapsed" in lines[-1] and "left" in lines[0], lines


def test_progress_line_on_a_terminal_and_plain_lines_otherwise():
    from grading import progress

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    for stream, terminal in ((io.StringIO(), False), (Terminal(), True)):
        clock = iter([0.0, 10.0, 30.0, 31.0]).__next__  # the start, then each step
        shown = progress.Progress(3, "notebooks graded", stream=stream, clock=clock)
        shown.step()
        shown.step()
        shown.step()
        text = stream.getvalue()
        assert "1 of 3 notebooks graded" in text and "3 of 3" in text
        assert "20 s left" in text  # 10 s per notebook, two to go
        if terminal:
            assert text.count("\r") == 3 and text.endswith("\n") and text.count("\n") == 1
        else:
            assert "\r" not in text and text.count("\n") == 3


def _grader(course: Path, class_dir: Path, temp: Path) -> subprocess.Popen:
    script = ROOT / "scripts" / "grading" / "grades.py"
    return subprocess.Popen(
        [sys.executable, str(script), str(course), str(class_dir)],
        env={**os.environ, "TMPDIR": str(temp)},  # its work folders, apart from other runs'
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # Ctrl-C as at a terminal: a test run started in the background by a shell
        # inherits SIGINT ignored, and the grader would never see the interrupt.
        preexec_fn=_default_sigint,
    )


def _default_sigint() -> None:  # in the child, before Python starts
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _wait_for(condition, seconds=300.0):
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the grader never got there"
        time.sleep(0.05)


def _notebooks_in(temp: Path) -> list[Path]:
    return sorted(temp.rglob("*.ipynb"))


def _running(temp: Path) -> bool:
    """Is a notebook running in a sandbox (its work copy is there)?

    The grader deletes work folders while this looks: a folder that goes away
    during the walk is simply not running any more.
    """
    # os.walk skips a folder that vanishes (its errors are ignored); rglob raises.
    return any("submission.ipynb" in files for _, _, files in os.walk(temp))


def _groups(pid: int) -> list[Path]:
    if not sandbox.PIDS.is_dir():
        return []
    return sorted(sandbox.PIDS.glob(f"{sandbox.GROUP_PREFIX}{pid}-*"))


def test_interrupted_and_killed_graders_resume_to_the_same_grades(graded):
    course, root, table, _ = graded
    fresh, temp = root / "fresh", root / "temp"
    temp.mkdir()
    class_dir = _class(fresh, root / "kill", KILL_CLASS)

    # Ctrl-C while a notebook runs in the sandbox: a message, no traceback, nothing left.
    grader = _grader(fresh, class_dir, temp)
    _wait_for(lambda: _running(temp))
    grader.send_signal(signal.SIGINT)
    _, err = grader.communicate(timeout=120)
    assert "Traceback" not in err and "interrupted" in err, (grader.returncode, err)
    assert grader.returncode == 130, err
    assert not _notebooks_in(temp) and not _groups(grader.pid)

    # SIGKILL while a notebook runs: its notebook and cgroup stay behind...
    grader = _grader(fresh, class_dir, temp)
    _wait_for(lambda: _running(temp))
    grader.kill()
    grader.communicate()
    killed = [grader.pid]
    assert _notebooks_in(temp)  # (the kill did leave a student's notebook behind)

    # ...SIGKILL again while nbgrader records the grades...
    grader = _grader(fresh, class_dir, temp)
    _wait_for(lambda: (fresh / "autograded" / KILL_CLASS[0]).exists())
    grader.kill()
    grader.communicate()
    killed.append(grader.pid)

    # ...and the next run cleans up after the dead graders and gives the same grades,
    # without running again the notebooks the killed grader had run to the end.
    grader = _grader(fresh, class_dir, temp)
    out, err = grader.communicate(timeout=900)
    assert grader.returncode == 0, err
    every = len(list((class_dir).glob("*/*/*.ipynb")))
    assert f"{every} of {every} notebooks had been run to the end by a grader" in out, out
    assert not _notebooks_in(temp), _notebooks_in(temp)
    assert not [group for pid in killed for group in _groups(pid)]
    resumed = _read(fresh)
    expected = {k: v for k, v in table.items() if k[0] in KILL_CLASS}
    assert resumed == expected


def _probe_running() -> bool:
    return any("probe.py" in " ".join(map(str, p.args)) for p in list(sandbox._running))


@pytest.mark.parametrize("stage", ["notebook", "probe"])
def test_a_notebook_running_at_ctrl_c_leaves_no_results_to_take(graded, tmp_path, stage):
    """Its sandboxes are killed, so its results are not written for the next run to take.

    Stopped while the notebook runs in its sandbox, or later, while its
    functions are called in the fresh sandbox.
    """
    course = tmp_path / "course"
    shutil.copytree(graded[0], course, ignore=shutil.ignore_patterns("feedback", "autograded"))
    (name,) = [p.name for p in (course / "submitted" / "honest" / "ch01").glob("*.ipynb")]
    report = course / "sandbox" / "honest" / "ch01" / f"{Path(name).stem}.json"
    report.unlink()
    raised = []

    def grade():
        try:
            submission.grade_notebook(course, "honest", "ch01", name)
        except sandbox.Stopped as error:
            raised.append(error)

    worker = threading.Thread(target=grade)
    worker.start()
    try:
        _wait_for(_probe_running if stage == "probe" else lambda: sandbox._running)
        sandbox.stop_all()  # what Ctrl-C does
        worker.join(timeout=120)
    finally:
        sandbox.resume()
    assert not worker.is_alive() and raised, raised
    assert not report.exists()


def test_a_stop_after_the_functions_were_called_writes_no_results(graded, tmp_path, monkeypatch):
    """Ctrl-C after the last question, before the report: the report is not written."""
    course = tmp_path / "course"
    shutil.copytree(graded[0], course, ignore=shutil.ignore_patterns("feedback", "autograded"))
    (name,) = [p.name for p in (course / "submitted" / "honest" / "ch01").glob("*.ipynb")]
    report = course / "sandbox" / "honest" / "ch01" / f"{Path(name).stem}.json"
    report.unlink()
    real = submission.evaluation.evaluate

    def evaluate_then_stop(*args, **kwargs):
        outcomes = real(*args, **kwargs)
        sandbox.stop_all()
        return outcomes

    monkeypatch.setattr(submission.evaluation, "evaluate", evaluate_then_stop)
    try:
        with pytest.raises(sandbox.Stopped):
            submission.grade_notebook(course, "honest", "ch01", name)
    finally:
        sandbox.resume()
    assert not report.exists()


def test_a_finished_run_is_taken_only_with_the_same_key(tmp_path):
    """Same notebooks, credit rule and limits: taken; anything else, or a torn report: run."""
    source, handed_in = tmp_path / "source.ipynb", tmp_path / "handed-in.ipynb"
    source.write_text('{"cells": []}')
    handed_in.write_text('{"cells": [1]}')
    limits = sandbox.Limits()
    key = submission.run_key(source, handed_in, True, limits)
    assert key == submission.run_key(source, handed_in, True, sandbox.Limits())
    assert key != submission.run_key(source, handed_in, False, limits)
    assert key != submission.run_key(source, handed_in, True, sandbox.Limits(cpu_seconds=1))
    out = tmp_path / "sandbox" / "ada" / "ch01"
    out.mkdir(parents=True)
    assert submission.finished_run(tmp_path, "ada", "ch01", "n.ipynb", key) is None
    (out / "n.json").write_text(json.dumps({"verdicts": {}, "key": key}))
    assert submission.finished_run(tmp_path, "ada", "ch01", "n.ipynb", key) is None  # no notebook
    (out / "n.ipynb").write_text("{}")
    assert submission.finished_run(tmp_path, "ada", "ch01", "n.ipynb", key) == {
        "verdicts": {},
        "key": key,
    }
    handed_in.write_text('{"cells": [2]}')  # handed in again, changed
    changed = submission.run_key(source, handed_in, True, limits)
    assert submission.finished_run(tmp_path, "ada", "ch01", "n.ipynb", changed) is None
    (out / "n.json").write_text('{"verdicts": {}, "ke')  # torn by a kill
    assert submission.finished_run(tmp_path, "ada", "ch01", "n.ipynb", key) is None


def test_a_course_graded_before_the_marks_is_not_graded_again(tmp_path):
    """Feedback written means nbgrader finished; an autograded folder alone does not."""
    for student in ("finished", "killed"):
        (tmp_path / "autograded" / student / "ch01").mkdir(parents=True)
    (tmp_path / "feedback" / "finished" / "ch01").mkdir(parents=True)
    (tmp_path / "feedback" / "finished" / "ch01" / "01_neuron_model.html").write_text("<p>")
    grades.mark_graded_before(tmp_path)
    assert grades.recorded(tmp_path, "finished", "ch01")
    assert not grades.recorded(tmp_path, "killed", "ch01")
    (tmp_path / "feedback" / "killed" / "ch01").mkdir(parents=True)
    (tmp_path / "feedback" / "killed" / "ch01" / "01_neuron_model.html").write_text("<p>")
    grades.mark_graded_before(tmp_path)  # once per course: later runs mark as they record
    assert not grades.recorded(tmp_path, "killed", "ch01")
