"""A hostile class: students who attack the grader, and submissions it used to lose.

One chapter-1 course is made and graded once, every student in parallel (the
sandbox runs them on the machine's cores). Each student of ``HOSTILE`` answers
``predict`` (question ``ex-ch1-predict``, 2 points) wrongly *and* attacks the
grading in one way; the right score is then 0 or a known fraction, never 2.
Some attack the course folder, whose bytes are compared before and after.
"""

from __future__ import annotations

import csv
import hashlib
import json
import subprocess
import sys
import time
from pathlib import Path

import nbformat
import pytest
from toc import ROOT

sys.path.insert(0, str(ROOT / "scripts"))
from grading import grades, judge, nbgrader_course, sample_submissions, sandbox  # noqa: E402  # noqa: E402

PREDICT = sample_submissions.PREDICT
ACTIVATION = "ex-ch1-activation"
WRONG = "    return 0  # never right: predict returns +1 or -1\n"


def _course_attack(course: Path) -> str:
    """A 'scratch' body that goes after the gradebook, the config and the answer key."""
    return f"""    import os, socket, sqlite3
    course = {str(course)!r}
    for attempt in (
        lambda: sqlite3.connect(course + "/gradebook.db").execute(
            "update grade set manual_score = 99"),
        lambda: open(course + "/nbgrader_config.py", "a").write("raise SystemExit\\n"),
        lambda: open(course + "/planted.txt", "w").write("x"),
        lambda: os.listdir(course + "/source"),
        lambda: open({str(ROOT / "perceptron_lib" / "planted.py")!r}, "w").write("x"),
        lambda: socket.create_connection(("pypi.org", 443), timeout=2),
    ):
        try:
            attempt()
            print("ATTACK SUCCEEDED")
        except Exception:
            pass
    return 0
"""


PATCH_CHECKER = (
    "from perceptron_lib.exercises import ch01\n"
    "ch01.check_prediction = lambda f: print('All 10 checks passed for predict.')\n"
)
FRAMES = """    import sys
    frame = sys._getframe(1)
    while frame is not None:
        if "expected" in frame.f_locals:
            return frame.f_locals["expected"]
        frame = frame.f_back
    return 0
"""
HOOK = "get_ipython().set_custom_exc((BaseException,), lambda *args, **kwargs: None)\n"
HOG = """    chunks = []
    while True:
        chunks.append(bytearray(64 * 2**20))
"""
INTERRUPT = "    raise KeyboardInterrupt\n"
EXIT_CELL = "import os\nos._exit(0)\n"
# Leaves processes behind that ignore SIGTERM, each in a session of its own.
FORKER = """    import subprocess
    for _ in range(8):
        subprocess.Popen(
            ["sh", "-c", "trap '' TERM HUP; sleep 300"], start_new_session=True
        )
    return 0
"""
# Right on the cases where +1 is expected, wrong on the others.
ALWAYS_ONE = "    return 1\n"


# Chapter 7's value question: weights for XOR with the feature x1 AND x2.
LIFTED = "ex-ch7-lifted-xor"
XNOR = "ex-ch7-xnor"
VALUE_ANSWERS = {
    "values-right": "w = [1.0, 1.0, -2.0]\nb = -0.5\n",
    "values-wrong": "w = [1.0, 1.0, 0.0]\nb = -0.5\n",
    "values-type": "w = lambda x: x  # not a list of numbers\nb = -0.5\n",
    "values-dots": "w = ...  # your answer\nb = -0.5\n",
    # Right values, then an error: the answer cell must run to its end.
    "values-raises": "w = [1.0, 1.0, -2.0]\nb = -0.5\nraise NotImplementedError\n",
    # A wrong answer, and the checker patched to accept anything.
    "values-patcher": (
        "from perceptron_lib.exercises import ch07\n"
        "ch07.check_lifted_xor_weights = lambda w, b: print('All 4 inputs of XOR are right')\n"
        "w = [1.0, 1.0, 0.0]\nb = -0.5\n"
    ),
}


def _answer_cell(notebook, grade_id):
    return next(
        c for c in notebook.cells if c.metadata.get("nbgrader", {}).get("grade_id") == grade_id
    )


def _class(course: Path, out: Path) -> None:
    (source_path,) = (course / "source" / "ch01").glob("*.ipynb")
    release_path = course / "release" / "ch01" / source_path.name
    source = nbformat.read(source_path, as_version=4)
    release = nbformat.read(release_path, as_version=4)

    def key():
        return sample_submissions.answer_key(source, release)

    def with_body(body, before=""):
        notebook = sample_submissions.with_body(key(), f"{PREDICT}-answer", body)
        cell = _answer_cell(notebook, f"{PREDICT}-answer")
        cell.source = before + cell.source
        return notebook

    students = {
        "patcher": with_body(WRONG, PATCH_CHECKER),
        "frames": with_body(FRAMES),
        "hook": with_body(WRONG, HOOK),
        "all-cheats": with_body(FRAMES, PATCH_CHECKER + HOOK),
        "saboteur": with_body(_course_attack(course)),
        "hog": with_body(HOG),
        "interrupt": with_body(INTERRUPT),
        "always-one": with_body(ALWAYS_ONE),
        "forker": with_body(FORKER),
        "smith, john": key(),
        "Zoë Ünal": key(),
    }
    exits = key()
    _answer_cell(exits, f"{PREDICT}-answer").source = EXIT_CELL
    students["exits"] = exits
    for student, notebook in students.items():
        sample_submissions.write(notebook, out / student / "ch01" / source_path.name)
    (source_path,) = (course / "source" / "ch07").glob("*.ipynb")
    source = nbformat.read(source_path, as_version=4)
    release = nbformat.read(course / "release" / "ch07" / source_path.name, as_version=4)
    for student, answer in VALUE_ANSWERS.items():
        notebook = sample_submissions.answer_key(source, release)
        _answer_cell(notebook, f"{LIFTED}-answer").source = answer
        sample_submissions.write(notebook, out / student / "ch07" / source_path.name)


def _digest(folder: Path) -> dict[str, str]:
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    root = tmp_path_factory.mktemp("hostile")
    course = root / "course"
    (chapter,) = sorted((ROOT / "book").glob("01_*.ipynb"))
    (values_chapter,) = sorted((ROOT / "book").glob("07_*.ipynb"))
    nbgrader_course.main(str(course), str(chapter), str(values_chapter))
    _class(course, root / "class")
    protected = {name: _digest(course / name) for name in ("source", "release")}
    config = (course / "nbgrader_config.py").read_bytes()
    start = time.perf_counter()
    grades.main(str(course), str(root / "class"))
    seconds = time.perf_counter() - start
    with open(course / grades.GRADES_FILE, newline="", encoding="utf-8") as file:
        table = {(r["student"], r["question"]): r for r in csv.DictReader(file)}
    return course, root, table, protected, config, seconds


def test_cheats_score_what_the_answer_is_worth(graded):
    _, _, table, *_ = graded
    for student in ("patcher", "frames", "hook", "all-cheats"):
        row = table[student, PREDICT]
        assert row["score"] == "0", row
        if student in ("frames", "all-cheats"):
            # Reading the grader's frames (sys._getframe) is itself refused since
            # issue 33: the function runs in the grader's traced process.
            assert "refused" in row["reason"] and "sys._getframe" in row["reason"], row
        else:
            assert (
                "predict(w=[0.0], x=[0.0], b=0.0) returned 0 but should return -1" in row["reason"]
            ), row
        assert table[student, ACTIVATION]["score"] == "2", student


def test_honest_runs_compile_nothing_in_the_sandbox(graded):
    """numba's cache, prepared once outside, is found inside: no loop is compiled again.

    The library keeps compiled loops beside the modules that define them
    (perceptron_lib/loops/, the estimators' folder); each sandbox gets a copy in
    the folders numba looks in. A copy in the wrong folder costs seconds per notebook.
    """
    course, *_ = graded
    for student, assignment in (("values-right", "ch07"), ("Zoë Ünal", "ch01")):
        folder = course / "sandbox" / student / assignment
        (report,) = (p for p in folder.glob("*.json") if p.name != "found.json")
        compiled = json.loads(report.read_text())["compiled_in_sandbox"]
        assert compiled == 0, f"{student} {assignment}: {compiled} loops compiled in the sandbox"


def test_partial_credit_is_the_fraction_of_cases_passed(graded):
    course, _, table, *_ = graded
    calls = judge.checker_calls("ch01", "check_prediction", "predict")
    for number, call in enumerate(calls):
        call.hidden = judge.hidden_cases(call, f"always-one\0ch01\0{PREDICT}\0{number}")
    cases = calls[0].cases + calls[0].hidden
    right = sum(judge._outcome(calls[0].reference, case)[1] == 1 for case in cases)
    expected = int(2 * right / len(cases) * 100) / 100
    row = table["always-one", PREDICT]
    assert 0 < expected < 2 and float(row["score"]) == expected, (row, expected)
    assert f"{right} of {len(cases)} checks passed" in row["reason"]


def test_saboteur_touches_nothing_and_its_answer_is_judged(graded):
    course, root, table, protected, config, _ = graded
    assert not (course / "planted.txt").exists()
    assert not (ROOT / "perceptron_lib" / "planted.py").exists()
    for name, digest in protected.items():
        assert _digest(course / name) == digest
    # The config is written again by every make grade; nothing appended survives.
    assert (course / "nbgrader_config.py").read_bytes() == config
    (executed,) = (course / "sandbox" / "saboteur" / "ch01").glob("*.ipynb")
    cells = nbformat.read(executed, as_version=4).cells
    outputs = json.dumps([c.get("outputs", []) for c in cells if c.cell_type == "code"])
    assert "The results of check_prediction were recorded" in outputs  # it did run
    assert "ATTACK SUCCEEDED" not in outputs
    assert table["saboteur", PREDICT]["score"] == "0"
    # Nobody's written answers were touched (the saboteur set every manual score to 99).
    # Chapter 1's written questions; its gates exercise is graded by code since it has an
    # answer scaffold.
    for student in ("smith, john", "Zoë Ünal"):
        for question in ("ex-ch1-encoding", "ex-ch1-disjunction"):
            row = table[student, question]
            assert row["reason"].startswith("written answer") and row["score"] == "", row


def test_exit_costs_only_the_questions_not_reached(graded):
    course, _, table, *_ = graded
    assert table["exits", ACTIVATION]["score"] == "2"
    row = table["exits", PREDICT]
    assert row["score"] == "0" and "the kernel exited" in row["reason"], row
    assert list((course / "feedback" / "exits" / "ch01").glob("*.html"))


def test_value_answers_are_judged_by_the_checker_outside(graded):
    _, _, table, *_ = graded
    assert table["values-right", LIFTED]["score"] == "2"
    for student in VALUE_ANSWERS:  # every other value question is the answer key's
        assert table[student, XNOR]["score"] == "2", student
    for student in ("values-wrong", "values-patcher"):
        row = table[student, LIFTED]
        assert row["score"] == "0", row
        assert row["reason"].startswith("On input (1, 1), with x1 AND x2 = 1"), row
    row = table["values-type", LIFTED]  # the checker names what w is instead
    assert row["score"] == "0" and "w must be a list of numbers" in row["reason"], row
    row = table["values-dots", LIFTED]
    assert row["score"] == "0" and "w is not written yet" in row["reason"], row
    row = table["values-raises", LIFTED]
    assert row["score"] == "0", row
    assert row["reason"].startswith("the answer cell raised NotImplementedError"), row


def test_forking_student_leaves_no_process_cap_behind(graded):
    _, _, table, *_ = graded
    assert table["forker", PREDICT]["score"] == "0"
    assert sandbox.own_groups() == []


def test_memory_limit_stops_a_chunked_allocator(graded):
    _, _, table, *_ = graded
    row = table["hog", PREDICT]
    assert row["score"] == "0" and row["reason"].startswith("memory limit"), row


def test_keyboard_interrupt_is_not_a_time_out(graded):
    course, _, table, *_ = graded
    row = table["interrupt", PREDICT]
    assert row["score"] == "0", row
    assert row["reason"].startswith(
        "the function raised KeyboardInterrupt (it was not a time-out)"
    )


def test_ids_with_commas_spaces_and_accents_graded_once(graded):
    course, root, table, *_ = graded
    for student in ("smith, john", "Zoë Ünal"):
        assert table[student, PREDICT]["score"] == "2"
    before = {p: p.read_bytes() for p in (course / "autograded").rglob("*.ipynb")}
    start = time.perf_counter()
    grades.main(str(course), str(root / "class"))  # nothing changed
    again = time.perf_counter() - start
    after = {p: p.read_bytes() for p in (course / "autograded").rglob("*.ipynb")}
    assert after == before
    print(f"second make grade, nothing changed: {again:.1f} s")


def test_refuses_without_a_sandbox(tmp_path, monkeypatch):
    monkeypatch.setattr(sandbox.shutil, "which", lambda name: None)
    with pytest.raises(sandbox.SandboxUnavailable, match="bubblewrap"):
        sandbox.check(tmp_path)
    assert sandbox.own_groups() == []  # no process cap left by the refused run


def test_sandbox_caps_processes_and_hides_the_machine(tmp_path):
    script = (
        "import os, subprocess\n"
        "started = []\n"
        "try:\n"
        "    for _ in range(300):\n"
        "        started.append(subprocess.Popen(['sleep', '5']))\n"
        "except OSError:\n"
        "    pass\n"
        "print('started', len(started))\n"
        f"print('sees the course folder', os.path.exists({str(ROOT / 'book')!r}))\n"
        "print('uid', os.getuid())\n"
    )
    limits = sandbox.Limits(processes=32, wall_seconds=120)
    run = sandbox.run(tmp_path, [sys.executable, "-c", script], limits)
    started = int(run.log.split("started ")[1].split()[0])
    if sandbox.PIDS.is_dir():  # where the machine offers a pids cgroup
        assert started < 32, run.log
    assert "sees the course folder False" in run.log and "uid 65534" in run.log


def test_cgroup_removed_after_a_run_that_leaves_processes(tmp_path):
    script = (
        "import subprocess\n"
        "for _ in range(16):\n"
        "    subprocess.Popen(['sh', '-c', \"trap '' TERM HUP; sleep 300\"],"
        " start_new_session=True)\n"
        "print('forked')\n"
    )
    run = sandbox.run(tmp_path, [sys.executable, "-c", script], sandbox.Limits(wall_seconds=60))
    assert "forked" in run.log, run.log
    assert sandbox.own_groups() == []


def test_remove_group_kills_what_is_left(tmp_path):
    if sandbox._process_cap(8) is None:
        pytest.skip("no pids cgroup on this machine")
    (group,) = sandbox.own_groups()
    sleeper = subprocess.Popen(
        ["sleep", "300"], preexec_fn=lambda: (group / "cgroup.procs").write_text("0")
    )
    assert sandbox._members(group) == [sleeper.pid]
    assert sandbox.remove_group(group, seconds=10)
    assert sleeper.wait(timeout=10) == -9 and not group.exists()


def test_misplaced_and_renamed_notebooks_are_found(tmp_path):
    from grading import layout

    assignments = {"ch05": ["05_convergence.ipynb"], "ch06": ["06_voting.ipynb"]}
    files = {
        "renamed/ch05/05_convergence (1).ipynb": "05 (1)",
        "short-folder/ch5/05_convergence.ipynb": "ch5",
        "at-root/05_convergence.ipynb": "root",
        "stray/notes.ipynb": "stray",
        "empty/readme.txt": "",
        "two/ch06/06_voting.ipynb": "6",
        "two/ch06/scratch.ipynb": "scratch",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    found, problems = layout.find(tmp_path, assignments)
    by = {(h.student, h.assignment): h for h in found}
    assert set(by) == {
        ("renamed", "ch05"),
        ("short-folder", "ch05"),
        ("at-root", "ch05"),
        ("two", "ch06"),
    }
    assert by["renamed", "ch05"].notebooks["05_convergence.ipynb"].read_text() == "05 (1)"
    assert by["renamed", "ch05"].notes == [
        "the notebook 05_convergence (1).ipynb was graded as 05_convergence.ipynb"
    ]
    assert by["short-folder", "ch05"].notes == ["found in the folder ch5/, graded as ch05"]
    assert by["at-root", "ch05"].notes == ["found at the student's root as 05_convergence.ipynb"]
    assert by["two", "ch06"].notebooks["06_voting.ipynb"].read_text() == "6"
    assert by["two", "ch06"].notes == [
        "the notebook scratch.ipynb is not part of ch06; not graded"
    ]
    assert sorted(problems) == [
        ("empty", "nothing in the student's folder matches an assignment"),
        ("stray", "nothing in the student's folder matches an assignment"),
        ("stray", "the notebook notes.ipynb matches no assignment"),
    ]
