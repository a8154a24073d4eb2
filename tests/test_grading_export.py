"""The instructor's first hour: feedback that stays true, grades an LMS takes (issue 37).

One chapter-3 course is made and graded once (module scope), for three
students: the answer key handed in under a name with a comma, the released
notebook untouched, and a slip in ``update``. One test grades written answers
by hand and overrides an autograded score, then runs ``make grade`` again: the
tests after it read the course as it left it.
"""

from __future__ import annotations

import csv
import html
import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import nbformat
import pytest
from test_nbgrader import feedback, written_questions
from toc import ROOT

sys.path.insert(0, str(ROOT / "scripts"))
from grading import export, grades, nbgrader_course, sample_submissions  # noqa: E402
from grading import feedback as feedback_module  # noqa: E402

KEY = "smith, john"  # the answer key, under a name an unquoted CSV would split
SLIP = "Zoë"
UPDATE = "ex-ch3-update"
# update forgets the bias: right on some cases, wrong on others (partial credit).
NO_BIAS = (
    "    w, x = np.asarray(w, dtype=float), np.asarray(x, dtype=float)\n"
    "    if y * (w @ x + b) <= 0:\n"
    "        return w + y * x, b\n"
    "    return w, b\n"
)


def read_csv(path: Path) -> list[dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as file:
        return list(csv.DictReader(file))


def by_question(course: Path) -> dict[tuple[str, str], dict[str, str]]:
    return {(r["student"], r["question"]): r for r in read_csv(course / grades.GRADES_FILE)}


@pytest.fixture(scope="module")
def course(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("export")
    course = root / "course"
    (chapter,) = sorted((ROOT / "book").glob("03_*.ipynb"))
    nbgrader_course.main(str(course), str(chapter))
    source = nbformat.read(course / "source" / "ch03" / chapter.name, as_version=4)
    release = nbformat.read(course / "release" / "ch03" / chapter.name, as_version=4)
    made = {
        KEY: sample_submissions.answer_key(source, release),
        "blank": release,
        SLIP: sample_submissions.with_body(
            sample_submissions.answer_key(source, release), f"{UPDATE}-answer", NO_BIAS
        ),
    }
    for student, notebook in made.items():
        sample_submissions.write(notebook, root / "class" / student / "ch03" / chapter.name)
    grades.main(str(course), str(root / "class"))
    return course


def test_nbgrader_export_does_not_replace_our_table(course):
    ours = (course / grades.GRADES_FILE).read_bytes()
    nbgrader_course.nbgrader("export", course=course)
    assert (course / "grades.csv").exists()  # nbgrader's own export, its default name
    assert (course / grades.GRADES_FILE).read_bytes() == ours
    assert grades.GRADES_FILE != "grades.csv"


def test_an_ungraded_written_answer_reads_not_graded_yet(course):
    table = by_question(course)
    written = written_questions(course, "ch03")
    assert written
    for question in written:  # the instructor's table keeps the instruction
        assert table[KEY, question]["score"] == ""
        assert "formgrader" in table[KEY, question]["reason"]
    page = feedback(course, KEY, "ch03")
    assert "formgrader" not in page  # nothing meant for the instructor
    for question in written:
        toc = re.search(rf'href="#{question}">[^<]*</a> \(([^)]*)\)', page)
        assert toc is not None and toc.group(1).startswith(grades.NOT_GRADED_YET), question
        assert toc.group(1) == f"{grades.NOT_GRADED_YET}, out of 2.0"  # no "((...))"
        heading = re.search(rf'name="{question}".*?pull-right">\s*([^<]*)<', page, re.DOTALL)
        assert heading.group(1).strip().startswith(grades.NOT_GRADED_YET), question
    assert f"{len(written)} written answer(s) {grades.NOT_GRADED_YET}" in page
    notes = page[page.index(grades.NOTES_MARK) : page.index("</ul>")]
    assert f"{grades.NOT_GRADED_YET}/" not in notes
    titles = grades.exercise_titles(course, "ch03")
    for question in written:  # by its title, then "not graded yet (2 points)"
        assert (
            f"<b>{html.escape(titles[question])}</b> ({question}), "
            f"{grades.NOT_GRADED_YET} (2 points)</li>" in notes  # said once
        ), question
    assert f": {grades.NOT_GRADED_YET}" not in notes
    # using.md's gradebook snippet names a written question of this chapter, as it is.
    guide = (ROOT / "book" / "using.md").read_text(encoding="utf-8")
    named = re.search(r'find_grade\(\s*"([^"]+)", "([^"]+)", "([^"]+)"', guide)
    assert named.group(1) in written and named.group(3) == "ch03"
    assert (course / "source" / "ch03" / f"{named.group(2)}.ipynb").exists()
    # A blank written answer is graded (0, "no answer"): it is not "not graded yet".
    assert grades.NOT_GRADED_YET not in feedback(course, "blank", "ch03")


def _check_exports(course: Path) -> None:
    """Every row of the three files, read back with csv, against the question table."""
    export.main(str(course))
    table = by_question(course)
    students = sorted({student for student, _ in table})
    questions = [q for s, q in table if s == students[0]]
    rows = read_csv(course / "export" / "by-student.csv")
    assert [r["student"] for r in rows] == students  # "smith, john" is one field
    for row in rows:
        mine = [table[row["student"], q] for q in questions]
        for question, mark in zip(questions, mine, strict=True):
            (column,) = [c for c in row if c.startswith(f"ch03 {question} (out of")]
            assert row[column] == (
                "" if mark["score"] == "" else export.number(float(mark["score"]))
            )
        total = sum(float(m["score"] or 0) for m in mine)
        out_of = sum(float(m["max_score"]) for m in mine)
        assert row[f"ch03 total (out of {out_of:g})"] == export.number(total)
        assert int(row[export.NOT_GRADED]) == sum(m["score"] == "" for m in mine)
        canvas = {r["SIS Login ID"]: r for r in read_csv(course / "export" / "canvas.csv")}
        assert canvas[row["student"]]["ch03"] == export.number(total)
        assert canvas[row["student"]]["Student"] == row["student"]
        assert canvas[row["student"]]["ID"] == ""  # a plain folder: no Canvas user id
        moodle = {r["Full name"]: r for r in read_csv(course / "export" / "moodle-ch03.csv")}
        assert moodle[row["student"]]["Grade"] == export.number(total)
        assert moodle[row["student"]]["Identifier"] == ""  # nor a Moodle participant
    notes = (course / "export" / export.NOTES).read_text(encoding="utf-8")
    (no_id,) = [line for line in notes.splitlines() if "no LMS id" in line]
    assert all(student in no_id for student in students)
    waiting = [s for s in students if any(table[s, q]["score"] == "" for q in questions)]
    flagged = [line for line in notes.splitlines() if "count those answers as 0" in line]
    assert bool(flagged) == bool(waiting)
    for student in students:  # (no name is part of another here)
        assert (student in "".join(flagged)) == (student in waiting), student
    with open(course / "export" / "canvas.csv", newline="", encoding="utf-8") as file:
        assert next(csv.reader(file)) == [*export.CANVAS_IDS, "ch03"]
    for name in ("by-student.csv", "canvas.csv", "moodle-ch03.csv"):
        text = (course / "export" / name).read_text(encoding="utf-8")
        assert f'"{KEY}"' in text  # quoted
        assert not re.search(r"\d\.\d{3}", text)  # two decimals at most


def test_export_rows_match_the_table(course):
    table = by_question(course)
    assert 0 < float(table[SLIP, UPDATE]["score"]) < float(table[SLIP, UPDATE]["max_score"])
    _check_exports(course)


def test_a_manual_grade_rewrites_the_feedback_and_the_export(course):
    written = written_questions(course, "ch03")
    untouched = feedback(course, "blank", "ch03")
    before = by_question(course)[SLIP, UPDATE]
    with grades.Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gradebook:
        notebook = gradebook.find_assignment("ch03").notebooks[0].name
        for question in written:
            gradebook.find_grade(question, notebook, "ch03", KEY).manual_score = 1.5
        # The instructor overrides the autograder: the slip in update gets full marks.
        gradebook.find_grade(UPDATE, notebook, "ch03", SLIP).manual_score = 2.0
        gradebook.db.commit()
    # using.md: "make grade" again with any folder already graded, here one student's:
    # the other students' rows are kept, and their pages refreshed too.
    (chapter,) = (course.parent / "class" / KEY / "ch03").glob("*.ipynb")
    alone = course.parent / "one-student" / KEY / "ch03"
    alone.mkdir(parents=True)
    shutil.copy2(chapter, alone)
    grades.main(str(course), str(alone.parent.parent))
    assert {s for s, _ in by_question(course)} == {KEY, SLIP, "blank"}
    overridden = by_question(course)[SLIP, UPDATE]
    assert overridden["score"] == "2"
    auto = before["score"]  # (both written with :g)
    assert overridden["reason"] == (
        f"score set by the instructor (the autograder gave {auto}); "
        f"the autograder's note: {before['reason']}"
    )
    slip_page = feedback(course, SLIP, "ch03")
    assert re.search(
        rf'href="#{UPDATE}">[^<]*</a> \(Score: 2.0 / 2.0, set by the instructor\)', slip_page
    )
    heading = re.search(rf'name="{UPDATE}".*?pull-right">\s*([^<]*)<', slip_page, re.DOTALL)
    assert heading.group(1).strip() == "Score: 2.0 / 2.0, set by the instructor"
    notes = slip_page[slip_page.index(grades.NOTES_MARK) : slip_page.index("</ul>")]
    assert f"({UPDATE}), 2/2: score set by the instructor (the autograder gave {auto})" in notes
    # The test cell's output is the autograder's: a line over it says it was replaced.
    cell = re.search(
        rf'name="{UPDATE}"(.*?)<div class="output_wrapper">(.*?)</pre>', slip_page, re.DOTALL
    )
    assert 'class="cell ' not in cell.group(1)
    shown = html.unescape(cell.group(2))  # (the typesetting writes ' as it is)
    assert shown.startswith(f"<p><i>{grades.REPLACED}</i></p>")
    assert f"{auto} points" in shown
    assert html.unescape(slip_page).count(grades.REPLACED) == 1  # only where it was set
    table = by_question(course)
    page = feedback(course, KEY, "ch03")
    assert grades.NOT_GRADED_YET not in page
    # Graded with no comment: nbgrader's "Comments: No response." is not shown.
    assert "No response." not in page and "Comments:" not in page
    total = sum(float(table[KEY, q]["score"]) for q in written) + sum(
        float(r["score"]) for (s, q), r in table.items() if s == KEY and q not in written
    )
    out_of = sum(float(r["max_score"]) for (s, _), r in table.items() if s == KEY)
    header = re.search(r"\(Score: ([0-9.]+) / ([0-9.]+)\)</h4>", page)
    assert float(header.group(1)) == pytest.approx(total)
    assert float(header.group(2)) == out_of
    for question in written:
        assert table[KEY, question]["score"] == "1.5"
        assert re.search(rf'href="#{question}">[^<]*</a> \(Score: 1.5 / 2.0\)', page)
    # Only the page whose grades changed was written again.
    assert feedback(course, "blank", "ch03") == untouched
    _check_exports(course)
    flags = {
        r["student"]: r[export.NOT_GRADED] for r in read_csv(course / "export" / "by-student.csv")
    }
    assert flags[KEY] == "0" and flags[SLIP] == str(len(written))


def test_export_refuses_a_course_without_grades(tmp_path):
    with pytest.raises(SystemExit, match="no gradebook"):
        export.main(str(tmp_path))


def test_summary_gives_each_question_and_each_student(course):
    table = by_question(course)
    lines = (course / grades.SUMMARY_FILE).read_text(encoding="utf-8").splitlines()
    students = sorted({student for student, _ in table})
    for question in sorted({q for _, q in table}):
        marks = [table[s, question] for s in students]
        scores = [float(m["score"]) for m in marks if m["score"] != ""]
        (line,) = [line for line in lines if line.startswith(f"ch03 {question} ")]
        mean, out_of, zeros, pending = line.split()[2:]
        assert mean == (f"{sum(scores) / len(scores):.2f}" if scores else "-")
        assert float(out_of) == float(marks[0]["max_score"])
        assert int(zeros) == sum(score == 0 for score in scores)
        assert int(pending) == len(marks) - len(scores)
    assert grades.SUMMARY_MEANS in lines and grades.SUMMARY_TOTALS in lines
    assert "over the answers graded" in grades.SUMMARY_MEANS
    for student in students:
        mine = [r for (s, _), r in table.items() if s == student]
        (line,) = [line for line in lines if line.startswith(f"{student} ") and " ch03 " in line]
        total = sum(float(r["score"] or 0) for r in mine)
        assert line.split()[-3] == f"{total:.2f}"


def test_a_folder_not_graded_is_named_in_the_summary_and_the_export_notes():
    """A folder with no assignment has no total and no LMS line: both say it is missing."""
    table = [
        grades.Row("ada", "ch01", "ex-ch1-predict", 2, 2, ""),
        grades.Row("nina\nlast", "", "", 0, 0, "the folder name has a newline: rename it"),
        grades.Row("gina", "", "", 0, 0, "ch03 is a symbolic link: not read"),
    ]
    text = grades.summary(table)
    assert "Not graded (2 folders, in no total and no LMS file):" in text
    assert "  'nina\\nlast': the folder name has a newline: rename it" in text
    assert "  gina: ch03 is a symbolic link: not read" in text
    notes = export.notes(table)
    assert "'nina\\nlast' is in no file here: the folder name has a newline: rename it" in notes
    assert "gina is in no file here: ch03 is a symbolic link: not read" in notes
    assert "Not graded" not in grades.summary(table[:1]) and len(export.notes(table[:1])) == 1


def test_one_chapter_is_assigned_alone():
    notebooks = [str(p) for p in sorted((ROOT / "book").glob("0*_*.ipynb"))]
    (only,) = nbgrader_course.chosen(notebooks, "3")
    assert Path(only).name.startswith("03_")
    assert [Path(p).name[:2] for p in nbgrader_course.chosen(notebooks, "5, 3")] == ["03", "05"]
    with pytest.raises(ValueError, match="no chapter 42"):
        nbgrader_course.chosen(notebooks, "42")
    with pytest.raises(ValueError, match="chapter numbers"):
        nbgrader_course.chosen(notebooks, "three")
    # make passes CHAPTERS on (a dry run: nothing is built).
    dry = subprocess.run(
        ["make", "-n", "-o", ".venv/.installed", "assignments", "CHAPTERS=3"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    assert '--chapters "3"' in dry.stdout


def test_questions_table_shows_the_exercises_titles(course):
    (released,) = (course / "release" / "ch03").glob("*.ipynb")
    notebook = nbformat.read(released, as_version=4)
    (chapter,) = sorted((ROOT / "book").glob("03_*.ipynb"))
    titles = nbgrader_course.exercise_titles(nbformat.read(chapter, as_version=4))
    graded = [
        c.metadata["nbgrader"]["grade_id"]
        for c in notebook.cells
        if c.metadata.get("nbgrader", {}).get("grade")
    ]
    assert graded and set(graded) <= set(titles)
    table = notebook.cells[0].source
    for question in graded:
        assert f"| {titles[question]} (`{question}`) |" in table
    # A question of an exercise that no cell grades is said to be not graded.
    (row,) = [line for line in table.splitlines() if "`ex-ch3-rosenblatt`" in line]
    assert '"For which examples does it do something different' in row
    assert row.endswith("is not graded |")
    marked = nbgrader_course.ungraded_questions(nbformat.read(chapter, as_version=4))
    assert list(marked) == ["ex-ch3-rosenblatt"]


class PageText(HTMLParser):
    """The text a reader sees: outside code, scripts, styles and typeset formulas."""

    SKIPPED = {"script", "style", "pre", "code", "svg", "mjx-assistive-mml", "textarea"}

    def __init__(self):
        super().__init__()
        self.depth, self.text, self.external = 0, [], []

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        url = attributes.get("src") if tag == "script" else None
        if tag == "link" and "stylesheet" in (attributes.get("rel") or ""):
            url = attributes.get("href")
        if url and re.match(r"(https?:)?//", url):
            self.external.append(url)
        if tag in self.SKIPPED:
            self.depth += 1

    def handle_endtag(self, tag):
        if tag in self.SKIPPED:
            self.depth -= 1

    def handle_data(self, data):
        if self.depth == 0:
            self.text.append(data)


def test_feedback_reads_as_jupyterlab_shows_the_chapter_with_no_network(course):
    page = feedback(course, KEY, "ch03")
    assert "math:" not in page  # the front matter is gone (it was a heading)
    reader = PageText()
    reader.feed(page)
    assert reader.external == []  # no script or stylesheet from elsewhere (MathJax's CDN)
    assert 'id="MJX-SVG-styles"' in page and "<mjx-container" in page  # typeset here
    text = " ".join(reader.text)
    assert not re.search(r"\$[^$\s][^$]*\$|\\\(|\\\[", text)  # no TeX left as text
    assert r"\vw" not in text and "Undefined control sequence" not in page  # macros known
    # MyST directives are headed blocks, not code blocks; roles are their text.
    assert "```{" not in page and 'class="language-{' not in page
    assert "<strong>Definition (Online and error-driven learning)</strong>" in page
    assert "<strong>Algorithm (Perceptron training)</strong>" in page
    assert "{glue:text}" not in page and "{cite:" not in page and "{numref}" not in page
    (chapter,) = sorted((ROOT / "book").glob("03_*.ipynb"))
    glued = feedback_module.glued_values(nbformat.read(chapter, as_version=4))
    assert f"needs {glued['ch3_notes_updates']} updates in" in text


def test_feedback_without_node_says_so(tmp_path, monkeypatch):
    page = tmp_path / "page.html"
    page.write_text("<html><body>$x$</body></html>", encoding="utf-8")
    monkeypatch.setattr(feedback_module.shutil, "which", lambda name: None)
    assert feedback_module.typeset([page]) == feedback_module.NO_NODE
    assert "make node" in feedback_module.NO_NODE
    assert page.read_text(encoding="utf-8") == "<html><body>$x$</body></html>"


def test_using_md_gives_the_chapters_signatures_and_the_course_folder():
    """The instructors' page names each function as its chapter defines it."""
    text = (ROOT / "book" / "using.md").read_text(encoding="utf-8")
    checked = 0
    for row in re.findall(r"^\| (\d)\. [^|]*\| ([^|]*)\|", text, re.MULTILINE):
        (chapter,) = sorted((ROOT / "book").glob(f"0{row[0]}_*.ipynb"))
        source = chapter.read_text(encoding="utf-8")
        for name, arguments in re.findall(r"`(\w+)\(([^)`]*)\)`", row[1]):
            defined = re.search(rf"def {name}\(([^)]*)\)", source)
            if defined is not None:
                assert arguments == defined.group(1), (chapter.name, name)
                checked += 1
    assert checked >= 10
    formgrader = text[text.index("*Formgrader*") - 700 : text.index("*Formgrader*")]
    assert "COURSE=" in formgrader  # the formgrader for a course folder of one's own
    binder = text[text.index("**Binder**") : text.index("**A JupyterHub**")]
    assert "Canvas" in binder and "Moodle" in binder
