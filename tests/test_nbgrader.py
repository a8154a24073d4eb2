"""nbgrader assignments made from the chapters, and grading a class with them.

One course folder is generated from the chapters of ``_toc.yml`` for the whole
module, and the sample class of ``scripts/grading/sample_submissions.py`` is graded
once (several students per ``nbgrader autograde`` call): the answer key and
the blank notebook on every chapter, and the bad submissions on chapter 1.
A second ``make grade`` run then checks that nothing is lost or re-graded.
"""

from __future__ import annotations

import csv
import html
import json
import sys
from pathlib import Path

import nbformat
import numpy as np
import pytest
from toc import ROOT, toc_notebooks

sys.path.insert(0, str(ROOT / "scripts"))
from grading import grades, nbgrader_course, sample_submissions  # noqa: E402

sys.path.insert(0, str(ROOT / "scripts" / "notebooks"))
from student_notebooks import strip_solutions  # noqa: E402

from perceptron_lib.exercises import ExerciseFailure, ch01  # noqa: E402

CHAPTERS = toc_notebooks()
ASSIGNMENTS = [nbgrader_course.assignment_name(path) for path in CHAPTERS]
BAD = ["raises", "endless", "chatty", "no-test", "edited-test", "not-json"]


def read_grades(course: Path) -> dict[tuple[str, str, str], dict[str, str]]:
    with open(course / grades.GRADES_FILE, newline="") as file:
        return {(r["student"], r["assignment"], r["question"]): r for r in csv.DictReader(file)}


@pytest.fixture(scope="module")
def course(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("nbgrader")
    nbgrader_course.main(str(root / "course"), *map(str, CHAPTERS))
    sample_submissions.main(str(root / "course"), str(root / "class"))
    grades.main(str(root / "course"), str(root / "class"))
    return root / "course"


@pytest.fixture(scope="module")
def first_run(course):
    """The table of grades as the first run of ``make grade`` wrote it."""
    return read_grades(course)


def source_cells(course: Path, assignment: str):
    (path,) = (course / "source" / assignment).glob("*.ipynb")
    return nbformat.read(path, as_version=4).cells


def coding_questions(course: Path, assignment: str) -> list[str]:
    return [
        c.metadata["nbgrader"]["grade_id"]
        for c in source_cells(course, assignment)
        if c.metadata.get("nbgrader", {}).get("grade") and c.cell_type == "code"
    ]


def written_questions(course: Path, assignment: str) -> list[str]:
    return [
        c.metadata["nbgrader"]["grade_id"]
        for c in source_cells(course, assignment)
        if c.metadata.get("nbgrader", {}).get("grade") and c.cell_type == "markdown"
    ]


def feedback(course: Path, student: str, assignment: str = "ch01") -> str:
    (page,) = (course / "feedback" / student / assignment).glob("*.html")
    return page.read_text(encoding="utf-8")


def graded_tests(notebook) -> list:
    return [c for c in notebook.cells if c.metadata.get("nbgrader", {}).get("locked")]


# --- the assignments --------------------------------------------------------------


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda p: p.name)
def test_release_reads_as_the_chapter_without_any_solution(course, chapter):
    original = nbformat.read(chapter, as_version=4)
    name = nbgrader_course.assignment_name(chapter)
    release = nbformat.read(course / "release" / name / chapter.name, as_version=4)
    plain = [c for c in release.cells if "nbgrader" not in c.metadata]
    student = strip_solutions(original)

    # The lesson, exercises and figures, as in the students' copy of the chapter.
    def lines(cells, kind):
        text = "\n".join(c.source for c in cells if c.cell_type == kind)
        return [line for line in text.splitlines() if line.strip()]

    assert lines(plain, "markdown") == lines(student.cells, "markdown")
    student_code = [c for c in student.cells if c.cell_type == "code"]
    plain_code = [c for c in plain if c.cell_type == "code" and "Your working" not in c.source]
    assert [c.source for c in plain_code] == [c.source for c in student_code]
    assert [c.outputs for c in plain_code] == [c.outputs for c in student_code]
    figures = sum("image/png" in o.get("data", {}) for c in plain_code for o in c.outputs)
    assert figures >= 1

    # No solution: no marker, no piece of a solution's prose or code.
    text = json.dumps(release.cells)
    for marker in ("solution-start", "solution-end", "BEGIN SOLUTION", "END SOLUTION"):
        assert marker not in text
    released = "\n".join(c.source for c in release.cells)
    # The lesson may share a line with a solution, and the locked tests call the checkers.
    lesson = "\n".join(c.source for c in student.cells + graded_tests(release))
    for item in nbgrader_course.split_chapter(original):
        if isinstance(item, nbgrader_course.Solution):
            for piece in item.text:
                for line in piece.splitlines():
                    if len(line.strip()) > 30 and line not in lesson:  # a sentence
                        assert line not in released, line
            for cell in item.code:
                for line in cell.source.splitlines():
                    code = line.strip()
                    signature_or_import = code.startswith(("def ", "from ", "import "))
                    if len(code) > 20 and code not in lesson and not signature_or_import:
                        assert code not in released, code

    # One graded cell per exercise.
    exercises = sum(c.source.count("```{exercise}") for c in original.cells)
    graded = [c for c in release.cells if c.metadata.get("nbgrader", {}).get("grade")]
    assert len(graded) == exercises


def test_coding_answer_is_split_into_signature_and_hidden_body():
    cell = nbformat.v4.new_code_cell(
        "from perceptron_lib.exercises import ch09\n\n"
        "SCALE = 2.0\n\n\n"
        "def double(x):\n"
        '    """Twice x."""\n'
        "    # scale, then return\n"
        "    return SCALE * x\n\n\n"
        "print(double(1))\n"
        "ch09.check_double(double)\n"
        "print('a demonstration')\n"
    )
    answer = nbgrader_course.coding_answer(cell)
    assert answer.imports == ["from perceptron_lib.exercises import ch09"]
    assert answer.header == 'def double(x):\n    """Twice x."""'
    assert answer.body == "    SCALE = 2.0\n\n    # scale, then return\n    return SCALE * x"
    assert answer.check == "ch09.check_double(double)"
    namespace = {}
    exec(f"{answer.header}\n{answer.body}", namespace)  # the hidden body still works
    assert namespace["double"](3) == 6.0
    # A cell without a checker call on a function it defines is a written exercise.
    assert nbgrader_course.coding_answer(nbformat.v4.new_code_cell("ch01.check_x([1.0])")) is None


# --- grading ----------------------------------------------------------------------


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_answer_key_scores_full_marks(course, first_run, assignment):
    for question in coding_questions(course, assignment):
        row = first_run["answer-key", assignment, question]
        assert row["score"] == row["max_score"] != "0", row
    for question in written_questions(course, assignment):  # left to the instructor
        row = first_run["answer-key", assignment, question]
        assert row["score"] == "" and "formgrader" in row["reason"], row


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_blank_release_scores_zero(course, first_run, assignment):
    for question in coding_questions(course, assignment):
        row = first_run["blank", assignment, question]
        assert row["score"] == "0" and row["reason"].startswith("not answered"), row
    for question in written_questions(course, assignment):
        assert first_run["blank", assignment, question]["reason"] == "no answer"


def _library_activation(w, x, b):
    return float(np.dot(w, x) + b)


def test_one_typical_mistake_loses_exactly_its_points(course, first_run):
    def predict(w, x, b):  # what the student "typo" wrote: >= instead of >
        return 1 if _library_activation(w, x, b) >= 0 else -1

    with pytest.raises(ExerciseFailure) as failure:
        ch01.check_prediction(predict)
    # "predict(w=[0.0], x=[0.0], b=0.0) returned 1 but should return -1.": the same
    # smallest case as the checker's, judged by the grader outside the notebook.
    message = str(failure.value).splitlines()[0]
    for question in coding_questions(course, "ch01"):
        row = first_run["typo", "ch01", question]
        if question == sample_submissions.PREDICT:
            # Partial credit: the cases on the boundary fail, the others pass.
            assert 0 < float(row["score"]) < float(row["max_score"]), row
            assert message in row["reason"] and "checks passed" in row["reason"], row
        else:
            assert row["score"] == row["max_score"]
    assert html.escape(message, quote=False) in feedback(course, "typo")


def _other_coding_questions_full(course, first_run, student):
    for question in coding_questions(course, "ch01"):
        if question != sample_submissions.PREDICT:
            row = first_run[student, "ch01", question]
            assert row["score"] == row["max_score"], row


def _chapter_ran_to_the_end(course, student):
    (path,) = (course / "autograded" / student / "ch01").glob("*.ipynb")
    code = [c for c in nbformat.read(path, as_version=4).cells if c.cell_type == "code"]
    assert code[-1].execution_count is not None


@pytest.mark.parametrize(
    ("student", "reason"),
    [
        ("raises", "raised ValueError (I could not do it)"),
        ("endless", f"still running after {nbgrader_course.CELL_TIMEOUT} s"),
        ("chatty", "OutputTooLarge"),
        ("no-test", "test cell was deleted"),
        ("edited-test", "test cell had been edited; the original test was run"),
    ],
)
def test_bad_submission_loses_that_question_only(course, first_run, student, reason):
    row = first_run[student, "ch01", sample_submissions.PREDICT]
    # edited-test's answer (0 for -1) is right on the cases where +1 is expected.
    partial = student == "edited-test"
    assert 0 < float(row["score"]) < 2 if partial else row["score"] == "0", row
    assert reason in row["reason"], row
    _other_coding_questions_full(course, first_run, student)
    _chapter_ran_to_the_end(course, student)
    assert html.escape(reason) in feedback(course, student)  # in the grading notes


def test_edited_test_cell_is_restored_and_run(course, first_run):
    row = first_run["edited-test", "ch01", sample_submissions.PREDICT]
    assert "returned 0 but should return -1" in row["reason"]


def test_megabytes_of_output_are_cut(course):
    (path,) = (course / "autograded" / "chatty" / "ch01").glob("*.ipynb")
    assert path.stat().st_size < 2_000_000  # the student printed 10 MB
    assert len(feedback(course, "chatty")) < 3_000_000


def test_invalid_notebook_scores_zero_and_the_rest_is_graded(course, first_run):
    rows = [r for key, r in first_run.items() if key[:2] == ("not-json", "ch01")]
    assert len(rows) == len(coding_questions(course, "ch01") + written_questions(course, "ch01"))
    assert all(r["score"] == "0" and "not a valid Jupyter notebook" in r["reason"] for r in rows)
    assert "not a valid Jupyter notebook" in feedback(course, "not-json")
    # It is kept as handed in, and every other student was graded.
    assert (course / "submitted" / "not-json" / "ch01").exists()
    students = {key[0] for key in first_run}
    assert students == {"answer-key", "blank", "typo", *BAD}


def test_second_run_loses_and_regrades_nothing(course, first_run, tmp_path):
    autograded = {p: p.read_bytes() for p in (course / "autograded").rglob("*.ipynb")}
    typo_before = next((course / "submitted" / "typo" / "ch01").glob("*.ipynb")).read_bytes()
    # The instructor grades a written answer by hand between the two runs.
    written = written_questions(course, "ch01")[0]
    with grades.Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gradebook:
        notebook = gradebook.find_assignment("ch01").notebooks[0].name
        gradebook.find_grade(written, notebook, "ch01", "answer-key").manual_score = 1.5
        # ... and one of "typo", who then hands in a new version.
        gradebook.find_grade(written, notebook, "ch01", "typo").manual_score = 1.25
        gradebook.db.commit()
    # Second class folder: "typo" hands in a corrected notebook, "late" is new,
    # "not-json" hands in the same broken file again.
    key = next((course.parent / "class").glob("answer-key/ch01/*.ipynb"))
    again = tmp_path / "again"
    for student in ("typo", "late"):
        (again / student / "ch01").mkdir(parents=True)
        (again / student / "ch01" / key.name).write_bytes(key.read_bytes())
    broken = next((course / "submitted" / "not-json" / "ch01").glob("*.ipynb"))
    (again / "not-json" / "ch01").mkdir(parents=True)
    (again / "not-json" / "ch01" / broken.name).write_bytes(broken.read_bytes())

    grades.main(str(course), str(again))
    second = read_grades(course)

    # Everyone of the first run is still there, with the same grades...
    for key_, row in first_run.items():
        if key_[0] == "typo" or key_ == ("answer-key", "ch01", written):
            continue
        assert second[key_] == row
    # ... the hand-given grade is kept, the new student and the corrected one graded,
    assert second["answer-key", "ch01", written]["score"] == "1.5"
    for student in ("typo", "late"):
        for question in coding_questions(course, "ch01"):
            row = second[student, "ch01", question]
            assert row["score"] == row["max_score"], row
    # ... the new version starts ungraded: the old manual score is archived, cleared,
    assert second["typo", "ch01", written]["score"] == "", second["typo", "ch01", written]
    (archived_grades,) = (course / "archive").glob("*/grades/typo/ch01.csv")
    with open(archived_grades, newline="") as file:
        old = {r["question"]: r for r in csv.DictReader(file)}
    assert float(old[written]["manual_score"]) == 1.25
    # ... the replaced submission is archived, not lost,
    (archived,) = (course / "archive").glob("*/submitted/typo/ch01/*.ipynb")
    assert archived.read_bytes() == typo_before
    assert list((course / "archive").glob("*/feedback/typo/ch01/*.html"))
    # ... and nobody else was graded again.
    for path, content in autograded.items():
        if "/typo/" not in str(path):
            assert path.read_bytes() == content, path
