"""What an LMS download looks like to make grade, and the reasons a student reads first.

One chapter-1 course is made and two students are graded once (module scope):
``smithbob`` as Canvas's bulk download names a late file (at the top, renamed),
with an ``activation`` that forgets the bias, which ``predict`` then calls; and
``Lin Mei`` in Moodle's folder, the released notebook handed in untouched. The
other tests read folders with :func:`grading.layout.find` alone, run
``grades.py`` on a folder it cannot read, or start the sandbox without the library.
"""

from __future__ import annotations

import csv
import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from toc import ROOT

sys.path.insert(0, str(ROOT / "scripts"))
from grading import (  # noqa: E402
    export,
    grades,
    judge,
    layout,
    nbgrader_course,
    sample_submissions,
    sandbox,
)

CANVAS_FILE = "smithbob_LATE_340934_208490284_{stem}-1.ipynb"  # and a renamed copy
MOODLE_FOLDER = "Lin Mei_48213_assignsubmission_file_"
NO_BIAS = "    return sum(wi * xi for wi, xi in zip(w, x))\n"  # activation without + b


def _rows(course: Path) -> list[dict[str, str]]:
    with open(course / grades.GRADES_FILE, newline="", encoding="utf-8") as file:
        return list(csv.DictReader(file))


@pytest.fixture(scope="module")
def graded(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("layouts")
    course, downloads = root / "course", root / "downloads"
    (chapter,) = sorted((ROOT / "book").glob("01_*.ipynb"))
    nbgrader_course.main(str(course), str(chapter))
    source = nbformat.read(course / "source" / "ch01" / chapter.name, as_version=4)
    release = nbformat.read(course / "release" / "ch01" / chapter.name, as_version=4)
    slip = sample_submissions.with_body(
        sample_submissions.answer_key(source, release), "ex-ch1-activation-answer", NO_BIAS
    )
    sample_submissions.write(slip, downloads / CANVAS_FILE.format(stem=chapter.stem))
    sample_submissions.write(release, downloads / MOODLE_FOLDER / chapter.name)
    grades.main(str(course), str(downloads))
    return course


def test_canvas_and_moodle_downloads_are_graded_under_the_students_names(graded):
    rows = _rows(graded)
    assert {r["student"] for r in rows} == {"smithbob", "Lin Mei"}
    assert all(r["assignment"] == "ch01" and r["question"] for r in rows)
    canvas = [r["reason"] for r in rows if r["student"] == "smithbob"]
    moodle = [r["reason"] for r in rows if r["student"] == "Lin Mei"]
    assert all("(Canvas user id 340934, handed in late)" in reason for reason in canvas)
    assert all("graded as 01_neuron_model.ipynb" in reason for reason in canvas)
    assert all(f"the folder {MOODLE_FOLDER} was graded" in reason for reason in moodle)
    assert all("(Moodle participant 48213)" in reason for reason in moodle)
    # A checker's sentence, then notes: "smallest; the notebook ...", not "smallest.; ".
    assert any("smallest; " in reason for reason in canvas)
    assert not any(".; " in reason for reason in canvas + moodle)
    by_question = {
        r["question"]: float(r["score"] or 0) for r in rows if r["student"] == "smithbob"
    }
    assert by_question["ex-ch1-gates"] == 2  # the rest of the answer key is right
    # Where the file came from is for the instructor: not on the student's page.
    (page,) = (graded / "feedback" / "smithbob" / "ch01").glob("*.html")
    text = page.read_text(encoding="utf-8")
    assert "grading notes" in text.lower() and "Canvas download" not in text
    # predict's test cell prints the checker's sentence, then the callee note: no ".;".
    assert "predict calls activation" in text and ".;" not in text
    assert ": </li>" not in text  # no item of the notes ends in a bare colon
    # A question whose only note is where the download's file came from: its score alone.
    (gates,) = [r for r in rows if r["student"] == "smithbob" and r["question"] == "ex-ch1-gates"]
    only_where = "; ".join(p for p in gates["reason"].split("; ") if grades.DOWNLOAD_NOTE.match(p))
    assert only_where and grades.for_the_student(only_where) == ""
    row = grades.Row("smithbob", "ch01", "ex-ch1-gates", 2.0, 2.0, only_where)
    assert grades.note_text(row) == "2/2"


def _read(path: Path) -> list[dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as file:
        return list(csv.DictReader(file))


def test_the_lms_ids_of_the_downloads_go_back_to_canvas_and_moodle(graded):
    canvas_id = re.match(r"[^_]+_LATE_(\d+)_", CANVAS_FILE).group(1)
    participant = re.match(r"[^_]+_(\d+)_assignsubmission_", MOODLE_FOLDER).group(1)
    for row in _rows(graded):  # kept in the table of grades
        expected = (
            ("Canvas", canvas_id) if row["student"] == "smithbob" else ("Moodle", participant)
        )
        assert (row["lms"], row["lms_id"]) == expected, row
    export.main(str(graded))
    out = graded / export.FOLDER
    canvas = {r["Student"]: r for r in _read(out / "canvas.csv")}
    assert canvas["smithbob"]["ID"] == canvas_id  # Canvas matches on ID first
    assert canvas["smithbob"]["SIS Login ID"] == ""  # the name is not a login
    assert canvas["Lin Mei"]["ID"] == canvas["Lin Mei"]["SIS Login ID"] == ""  # not Canvas's
    assert not (out / "moodle.csv").exists()
    with open(out / "moodle-ch01.csv", newline="", encoding="utf-8") as file:
        assert next(csv.reader(file)) == export.MOODLE_COLUMNS
    moodle = {r["Full name"]: r for r in _read(out / "moodle-ch01.csv")}
    assert moodle["Lin Mei"]["Identifier"] == f"Participant {participant}"
    assert moodle["smithbob"]["Identifier"] == ""
    totals = {
        r["student"]: next(v for k, v in r.items() if k.startswith("ch01 total"))
        for r in _read(out / "by-student.csv")
    }
    for student, row in moodle.items():
        assert row["Grade"] == canvas[student]["ch01"] == totals[student]
        assert row["Last modified (grade)"].endswith("+00:00")
    notes = (out / export.NOTES).read_text(encoding="utf-8")
    assert "no LMS id" not in notes  # both came with one


def test_a_blank_answer_reads_not_answered(graded):
    for row in _rows(graded):
        if row["student"] == "Lin Mei" and row["question"] in (
            "ex-ch1-activation",
            "ex-ch1-predict",
            "ex-ch1-gates",
        ):
            assert row["reason"].startswith(judge.NOT_ANSWERED), row
            assert "NotImplementedError" not in row["reason"]
            assert float(row["score"]) == 0


def test_an_answer_that_calls_a_failed_answer_names_it(graded):
    by_question = {r["question"]: r for r in _rows(graded) if r["student"] == "smithbob"}
    predict, activation = by_question["ex-ch1-predict"], by_question["ex-ch1-activation"]
    assert float(activation["score"]) < 2 and float(predict["score"]) < 2
    assert (
        "predict calls activation, your answer to ex-ch1-activation, which lost points"
        in (predict["reason"])
    )
    assert "calls" not in activation["reason"]  # it calls no other answer


def test_a_folder_of_no_known_layout_stops_make_grade_with_a_message(graded, tmp_path):
    before = (graded / grades.GRADES_FILE).read_bytes()
    unknown = tmp_path / "unknown"
    unknown.mkdir()
    (unknown / "01_neuron_model.ipynb").write_text("{}")  # whose?
    (unknown / "index.html").write_text("<html></html>")
    empty = tmp_path / "empty"
    empty.mkdir()
    for folder, found in ((unknown, "01_neuron_model.ipynb: the notebook"), (empty, "empty")):
        result = subprocess.run(
            [sys.executable, str(ROOT / "scripts" / "grading" / "grades.py"), graded, folder],
            capture_output=True,
            text=True,
        )
        assert result.returncode != 0
        assert f"nothing in {folder} is a submission" in result.stderr
        assert "Canvas bulk download" in result.stderr and "Moodle download" in result.stderr
        assert found in result.stderr
        assert "Traceback" not in result.stderr and "rows" not in result.stdout
    assert (graded / grades.GRADES_FILE).read_bytes() == before


def test_moodle_flat_files_namesakes_and_online_text(tmp_path):
    assignments = {"ch03": ["03_learning_rule.ipynb"]}
    for name in (
        "smithbob_340934_11_03_learning_rule.ipynb",
        "smithbob_777001_12_03_learning_rule.ipynb",  # another Bob Smith
        "Ana Ruiz_48214_assignsubmission_file_03_learning_rule.ipynb",
        "Ana Ruiz_48214_assignsubmission_onlinetext_/onlinetext.html",
        "Ana Ruiz_48214_assignsubmission_file_notes.pdf",
    ):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(name)
    found, problems = layout.find(tmp_path, assignments)
    by = {item.student: item for item in found}
    assert set(by) == {"smithbob_340934", "smithbob_777001", "Ana Ruiz"}
    assert (
        by["smithbob_777001"]
        .notebooks["03_learning_rule.ipynb"]
        .name.startswith("smithbob_777001_")
    )
    assert by["Ana Ruiz"].notes == [
        "Moodle download: the file Ana Ruiz_48214_assignsubmission_file_03_learning_rule.ipynb "
        "was graded as the student Ana Ruiz (Moodle participant 48214)"
    ]
    assert sorted(problems) == [
        (
            "Ana Ruiz",
            "Ana Ruiz_48214_assignsubmission_file_notes.pdf is not a notebook: not graded",
        ),
        (
            "Ana Ruiz",
            "Ana Ruiz_48214_assignsubmission_onlinetext_ is Moodle's onlinetext, not a file: "
            "not graded",
        ),
    ]


def test_a_sandbox_without_the_library_names_it_and_where_it_looked(tmp_path, monkeypatch):
    if shutil.which("bwrap") is None:
        pytest.skip("no bubblewrap")
    elsewhere = tmp_path / "elsewhere" / "perceptron_lib"  # bound instead of the library
    elsewhere.mkdir(parents=True)
    monkeypatch.setattr(sandbox, "LIBRARY", elsewhere)
    work = tmp_path / "work"
    work.mkdir()
    with pytest.raises(sandbox.SandboxUnavailable) as error:
        sandbox.check(work)
    message = str(error.value)
    assert message.startswith("the sandbox cannot import perceptron_lib: its Python looked in ")
    assert str(Path(sys.prefix)) in message  # the environment's site-packages, among others
    assert f"only at {elsewhere} (bound read-only)" in message
    assert "AssertionError" not in message and "Traceback" not in message
