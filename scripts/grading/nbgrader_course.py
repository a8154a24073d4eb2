"""Write the nbgrader course folder: one assignment per chapter, made from the chapter.

``make assignments`` runs this script. For every chapter notebook of ``_toc.yml``
(``book/03_learning_rule.ipynb`` becomes the assignment ``ch03``) it writes
``_build/nbgrader/source/ch03/03_learning_rule.ipynb`` and then runs
``nbgrader generate_assignment``, which writes the students' version to
``_build/nbgrader/release/ch03/``. Nothing in ``source/`` is edited by hand:
change the chapter and run ``make assignments`` again.

The chapter is copied as it is, outputs and figures included, except for the
exercises' solutions (between ``solution-start`` and ``solution-end``, markers
possibly in the middle of a Markdown cell, as in ``student_notebooks.py``):

- a **coding exercise** is one whose solution's first code cell defines a
  function and calls the chapter's checker on it, ``chNN.check_name(name)``.
  It becomes an nbgrader *solution cell* (the function's signature, its body
  between ``### BEGIN SOLUTION`` and ``### END SOLUTION``) followed by a
  locked, graded *test cell* that imports the checker and calls it;
- a **value exercise** is one whose solution's first code cell assigns names
  and ends with the checker called on them, ``ch07.check_weights(w, b)``. It
  becomes a solution cell (the assignments between the markers) followed by a
  locked, graded test cell with the same call: the grader checks the values;
- any other exercise is a **written exercise**: it becomes a manually graded
  Markdown answer cell (the solution's prose is the instructor's answer key in
  ``source/``), plus an ungraded code cell for the student's working when the
  solution had code.

Everything else of the solution (its prose, its further demonstration cells,
the checker's output) is dropped, so ``release/`` holds no solution at all.

``--chapters 3`` (or ``"3 5"``, ``3,5``) keeps only those chapters of the
notebooks given (``make assignments CHAPTERS=3``): an instructor who assigns a
chapter a week builds that one; the assignments built before are kept.

Usage: ``python scripts/grading/nbgrader_course.py [--chapters N...] COURSE_DIR NOTEBOOK...``
"""

from __future__ import annotations

import ast
import copy
import os
import re
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import nbformat

SCRIPTS = Path(__file__).resolve().parents[1]  # scripts/, where the grading package is
COURSE_ID = "perceptron-course"
CODING_POINTS = 2  # an exercise checked by the library's checker
WRITTEN_POINTS = 2  # an exercise the instructor reads and grades
CELL_TIMEOUT = 30  # seconds a cell of a submission may run before it is stopped
BEGIN, END = "### BEGIN SOLUTION", "### END SOLUTION"

# ```{solution-start} ex-ch3-update            ```{solution-end}
# :class: dropdown                              ```
# ```
SOLUTION_START = re.compile(
    r"^```\{solution-start\}[ \t]*(?P<label>\S+).*?^```[ \t]*$\n?", re.MULTILINE | re.DOTALL
)
SOLUTION_END = re.compile(r"^```\{solution-end\}[ \t]*\n```[ \t]*$\n?", re.MULTILINE)
CHAPTER_NUMBER = re.compile(r"^(\d+)_")
# ```{exercise} One update                     (or four backticks)
# :label: ex-ch3-update
EXERCISE = re.compile(
    r"^`{3,}\{exercise\}[ \t]*(?P<title>[^\n]*)\n(?::[^\n]*\n)*?:label:[ \t]*(?P<label>\S+)",
    re.MULTILINE,
)


# A question of an exercise's text that no answer cell grades is followed, in the
# chapter, by this line (invisible in the book): the questions table names it.
NOT_GRADED_MARK = "<!-- not graded -->"


def ungraded_questions(notebook: nbformat.NotebookNode) -> dict[str, list[str]]:
    """{label: the questions of its text marked "not graded"}, each a sentence.

    The question is the sentence that ends just before the mark (after the
    last ".", ":" or "?" before it), on one line.
    """
    found: dict[str, list[str]] = {}
    for cell in notebook.cells:
        if cell.cell_type != "markdown" or NOT_GRADED_MARK not in cell.source:
            continue
        starts = list(EXERCISE.finditer(cell.source))
        for number, start in enumerate(starts):
            end = starts[number + 1].start() if number + 1 < len(starts) else len(cell.source)
            text = cell.source[start.end() : end]
            for before in text.split(NOT_GRADED_MARK)[:-1]:
                sentence = re.split(r"(?<=[.:?])\s+", before.strip())[-1]
                found.setdefault(start.group("label"), []).append(" ".join(sentence.split()))
    return found


def exercise_titles(notebook: nbformat.NotebookNode) -> dict[str, str]:
    """{label: title} of the chapter's exercises, for the questions table."""
    return {
        match.group("label"): match.group("title").strip()
        for cell in notebook.cells
        if cell.cell_type == "markdown"
        for match in EXERCISE.finditer(cell.source)
    }


def assignment_name(notebook: Path) -> str:
    """``book/03_learning_rule.ipynb`` -> ``ch03``: one assignment per chapter."""
    match = CHAPTER_NUMBER.match(notebook.name)
    if match is None:
        raise ValueError(f"{notebook}: a chapter's file name starts with its number, NN_")
    return f"ch{int(match.group(1)):02d}"


@dataclass
class Solution:
    """One exercise's solution, as found in the chapter."""

    label: str
    text: list[str] = field(default_factory=list)  # its Markdown, in pieces
    code: list[nbformat.NotebookNode] = field(default_factory=list)  # its code cells


@dataclass
class CodingAnswer:
    """The first solution cell of a coding exercise, taken apart."""

    function: str  # the student's function's name
    imports: list[str]  # import statements, shown to the student as they are
    header: str  # ``def name(...):`` and its docstring, shown to the student
    body: str  # the answer, hidden from the student
    check: str  # the checker call, ``ch03.check_update(update)``
    module: str  # ``ch03``


def split_chapter(notebook: nbformat.NotebookNode) -> list[nbformat.NotebookNode | Solution]:
    """Return the chapter's cells with each solution gathered into one :class:`Solution`."""
    items: list[nbformat.NotebookNode | Solution] = []
    current: Solution | None = None
    for cell in notebook.cells:
        if cell.cell_type != "markdown":
            if current is not None:
                current.code.append(cell)
            else:
                items.append(cell)
            continue
        text, position, kept = cell.source, 0, []
        while True:
            marker = (SOLUTION_START if current is None else SOLUTION_END).search(text, position)
            piece = text[position : None if marker is None else marker.start()]
            if current is None:
                kept.append(piece)
            else:
                current.text.append(piece)
            if marker is None:
                break
            if current is None:
                if "".join(kept).strip():
                    items.append(_markdown_like(cell, "".join(kept).strip("\n")))
                kept = []
                current = Solution(marker.group("label"))
            else:
                items.append(current)
                current = None
            position = marker.end()
        if current is None and "".join(kept).strip():
            items.append(_markdown_like(cell, "".join(kept).strip("\n")))
    if current is not None:
        raise ValueError(f"the solution of {current.label} has no solution-end")
    return items


def _markdown_like(cell: nbformat.NotebookNode, source: str) -> nbformat.NotebookNode:
    new = copy.deepcopy(cell)
    new.source = source
    new.pop("id", None)
    return new


def _checker_call(statement: ast.stmt) -> ast.Call | None:
    """The call if ``statement`` is ``chNN.check_something(argument, ...)``, else ``None``."""
    call = statement.value if isinstance(statement, ast.Expr) else None
    if (
        isinstance(call, ast.Call)
        and isinstance(call.func, ast.Attribute)
        and isinstance(call.func.value, ast.Name)
        and re.fullmatch(r"ch\d\d", call.func.value.id)
        and call.func.attr.startswith("check_")
        and call.args
    ):
        return call
    return None


def _checker_calls(source: str) -> Iterator[tuple[ast.Call, list[ast.stmt], list[str]]]:
    """Each top-level ``chNN.check_something(...)`` call of ``source``, in order.

    Yields the call, the statements before it and the lines of ``source``;
    nothing if ``source`` is not valid Python.
    """
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return
    lines = source.splitlines()
    for position, statement in enumerate(tree.body):
        call = _checker_call(statement)
        if call is not None:
            yield call, tree.body[:position], lines


def coding_answer(cell: nbformat.NotebookNode) -> CodingAnswer | None:
    """Take a coding exercise's first solution cell apart, or ``None`` if it is not one.

    The cell defines a function and calls ``chNN.check_something(function)``.
    Statements after the checker call are demonstrations and are dropped;
    other statements before it (helpers, constants) are part of the answer and
    go inside the function's hidden body; bare expressions (prints) are dropped.
    """
    for call, before, lines in _checker_calls(cell.source):
        if not isinstance(call.args[0], ast.Name):
            continue
        name = call.args[0].id
        functions = [s for s in before if isinstance(s, ast.FunctionDef) and s.name == name]
        if not functions:
            return None
        function = functions[-1]
        check = ast.get_source_segment(cell.source, call)
        return _split_function(lines, before, function, call, check)
    return None


def _segment(lines: list[str], node: ast.stmt) -> str:
    first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
    return "\n".join(lines[first - 1 : node.end_lineno])


def _split_function(lines, before, function, call, check) -> CodingAnswer:
    body = function.body
    has_docstring = (
        isinstance(body[0], ast.Expr)
        and isinstance(body[0].value, ast.Constant)
        and isinstance(body[0].value.value, str)
        and len(body) > 1
    )
    first_hidden = body[1] if has_docstring else body[0]
    if first_hidden.lineno == function.lineno:
        raise ValueError(f"write {function.name}'s body on its own lines, not after 'def ...:'")
    # The signature (and docstring) stays visible; comment lines just before the
    # first hidden statement belong to the answer.
    header_end = first_hidden.lineno - 1
    while header_end > function.lineno and lines[header_end - 1].strip().startswith("#"):
        header_end -= 1
    header = "\n".join(lines[function.lineno - 1 - len(function.decorator_list) : header_end])
    indent = re.match(r"\s*", lines[first_hidden.lineno - 1]).group(0)
    hidden = "\n".join(lines[header_end : function.end_lineno])
    helpers = [
        _segment(lines, s)
        for s in before
        if s is not function and not isinstance(s, ast.Import | ast.ImportFrom | ast.Expr)
    ]
    if helpers:  # what the function needs lives inside it, hidden with the answer
        hidden = textwrap.indent("\n\n".join(helpers), indent) + "\n\n" + hidden
    imports = [_segment(lines, s) for s in before if isinstance(s, ast.Import | ast.ImportFrom)]
    return CodingAnswer(
        function=function.name,
        imports=imports,
        header=header,
        body=hidden,
        check=check,
        module=call.func.value.id,
    )


@dataclass
class ValueAnswer:
    """The first solution cell of a value exercise: names assigned, then checked."""

    names: list[str]  # what the checker is called on, ``w, b``
    imports: list[str]
    body: str  # the assignments (and whatever they need), hidden from the student
    check: str  # ``ch07.check_lifted_xor_weights(w, b)``
    module: str


def value_answer(cell: nbformat.NotebookNode) -> ValueAnswer | None:
    """Take a value exercise's first solution cell apart, or ``None`` if it is not one.

    The cell's last statement calls ``chNN.check_something(name, ...)`` on names
    the cell assigns (keywords, if any, are constants). Prints and whatever
    follows the call are dropped.
    """
    for call, before, lines in _checker_calls(cell.source):
        if not all(isinstance(a, ast.Name) for a in call.args):
            continue
        assigned = {
            target.id
            for node in before
            if isinstance(node, ast.Assign)
            for target in node.targets
            if isinstance(target, ast.Name)
        }
        names = [argument.id for argument in call.args]
        if not all(name in assigned for name in names):
            return None
        try:
            for keyword in call.keywords:
                ast.literal_eval(keyword.value)
        except ValueError:
            return None
        imports = [
            _segment(lines, s) for s in before if isinstance(s, ast.Import | ast.ImportFrom)
        ]
        body = "\n".join(
            _segment(lines, s)
            for s in before
            if not isinstance(s, ast.Import | ast.ImportFrom | ast.Expr)
        )
        return ValueAnswer(
            names, imports, body, ast.get_source_segment(cell.source, call), call.func.value.id
        )
    return None


def _nbgrader(grade_id: str, *, solution: bool, grade: bool, locked: bool, points=None) -> dict:
    metadata = {
        "grade_id": grade_id,
        "solution": solution,
        "grade": grade,
        "locked": locked,
        "schema_version": 3,
    }
    if points is not None:
        metadata["points"] = points
    return {"nbgrader": metadata}


def _answer_and_check(label: str, answer_source: str, checked: str, check_source: str) -> list:
    """The two cells of a checked exercise: the student's answer, then its locked check.

    ``checked`` names what the check looks at (a function, or the values assigned);
    the check cell scores :data:`CODING_POINTS`.
    """
    student = nbformat.v4.new_code_cell(answer_source)
    student.metadata = _nbgrader(f"{label}-answer", solution=True, grade=False, locked=False)
    test = nbformat.v4.new_code_cell(
        f"# Checks {checked}: run this cell (it is locked).\n{check_source}"
    )
    test.metadata = _nbgrader(label, solution=False, grade=True, locked=True, points=CODING_POINTS)
    return [student, test]


def exercise_cells(solution: Solution) -> list[nbformat.NotebookNode]:
    """The nbgrader cells that replace one solution in the assignment."""
    answer = coding_answer(solution.code[0]) if solution.code else None
    if answer is not None:
        indent = re.match(r"\s*", answer.body).group(0)
        source = "\n\n\n".join(
            part
            for part in (
                "\n".join(answer.imports),
                f"{answer.header}\n{indent}{BEGIN}\n{answer.body}\n{indent}{END}",
            )
            if part
        )
        return _answer_and_check(
            solution.label,
            source,
            answer.function,
            f"from perceptron_lib.exercises import {answer.module}\n\n{answer.check}",
        )
    values = value_answer(solution.code[0]) if solution.code else None
    if values is not None:
        source = "\n\n".join(
            part for part in ("\n".join(values.imports), f"{BEGIN}\n{values.body}\n{END}") if part
        )
        return _answer_and_check(
            solution.label,
            source,
            ", ".join(values.names),
            f"from perceptron_lib.exercises import {values.module}\n\n{values.check}",
        )
    key = "\n\n".join(piece.strip("\n") for piece in solution.text if piece.strip())
    written = nbformat.v4.new_markdown_cell(f"{BEGIN}\n\n{key or 'See the chapter.'}\n\n{END}")
    written.metadata = _nbgrader(
        solution.label, solution=True, grade=True, locked=False, points=WRITTEN_POINTS
    )
    cells = [written]
    if solution.code:
        cells.append(nbformat.v4.new_code_cell("# Your working (not graded)\n"))
    return cells


def header_cell(
    file_name: str,
    cells: list,
    titles: dict[str, str] | None = None,
    ungraded: dict[str, list[str]] | None = None,
) -> nbformat.NotebookNode:
    """The released notebook's first cell: points per question, what to hand in.

    A question is shown by its exercise's title (``titles``, by label), its
    label after it: the grader's reasons name the label. A question of the
    exercise's text that no cell grades (``ungraded``) is said to be not graded.
    """
    titles, ungraded = titles or {}, ungraded or {}
    graded = [c.metadata["nbgrader"] for c in cells if c.metadata.get("nbgrader", {}).get("grade")]
    lines = [
        f"**Assignment.** Hand in this notebook as `{file_name}`, in a folder named "
        f"after the assignment (`{assignment_name(Path(file_name))}`). Don't rename or "
        "delete cells, and don't edit the locked test cells: the grader finds your "
        "answers by their cells.",
        "",
        "| Question | Points | Graded |",
        "|---|---|---|",
    ]
    for meta in graded:
        how = "by the instructor" if meta.get("solution") else "automatically"
        title = titles.get(meta["grade_id"])
        name = f"{title} (`{meta['grade_id']}`)" if title else f"`{meta['grade_id']}`"
        for question in ungraded.get(meta["grade_id"], []):
            how += f'; its question "{question}" is not graded'
        lines.append(f"| {name} | {meta['points']:g} | {how} |")
    total = sum(meta["points"] for meta in graded)
    lines += [
        "",
        f"Total: {total:g} points. A coding question earns points in proportion to the "
        "checks its function passes, on the cases shown and on hidden ones.",
    ]
    cell = nbformat.v4.new_markdown_cell("\n".join(lines))
    cell.metadata = _nbgrader("assignment-header", solution=False, grade=False, locked=True)
    return cell


def assignment_notebook(chapter: nbformat.NotebookNode, file_name: str) -> nbformat.NotebookNode:
    """Return the nbgrader source notebook of one chapter (the chapter is not changed)."""
    notebook = copy.deepcopy(chapter)
    cells = []
    for item in split_chapter(chapter):
        if isinstance(item, Solution):
            cells.extend(exercise_cells(item))
        else:
            cells.append(item)
    header = header_cell(file_name, cells, exercise_titles(chapter), ungraded_questions(chapter))
    notebook.cells = [header, *cells]
    for cell in notebook.cells:
        cell.pop("id", None)  # new ids below: nbgrader wants them unique
    notebook.nbformat, notebook.nbformat_minor = 4, 5
    for number, cell in enumerate(notebook.cells):
        cell["id"] = f"cell-{number:03d}"
    return notebook


def write_config(course: Path) -> None:
    """The course's ``nbgrader_config.py``: keep the chapter's figures, cap outputs, typeset maths.

    nbgrader runs in the course folder, its root by default, so the folder can move.
    """
    (course / "nbgrader_config.py").write_text(
        f'''"""nbgrader settings of the course (written by scripts/grading/nbgrader_course.py)."""

import sys

sys.path.insert(0, {str(SCRIPTS)!r})

from grading.feedback import FrontMatterMacros, MystMarkdown  # noqa: E402
from grading.fill import KeepFirstCopy, SandboxResults  # noqa: E402
from nbconvert import preprocessors as nbconvert  # noqa: E402
from nbgrader import preprocessors as p  # noqa: E402
from grading.nbgrader_output_cap import OutputCap  # noqa: E402

c = get_config()  # noqa: F821
c.CourseDirectory.course_id = {COURSE_ID!r}
# The released notebook still reads as the chapter: keep its outputs (figures).
c.GenerateAssignment.preprocessors = [
    p.IncludeHeaderFooter, p.InstantiateTests, p.LockCells, p.ClearSolutions,
    p.CheckCellMetadata, p.ComputeChecksums, p.SaveCells, p.ClearHiddenTests,
    p.ClearMarkScheme, p.ComputeChecksums, p.CheckCellMetadata,
]
# A graded cell copied by the student: the first copy is graded (the one the sandbox ran).
c.Autograde.sanitize_preprocessors = [
    p.ClearOutput, KeepFirstCopy, p.OverwriteKernelspec, p.OverwriteCells, p.CheckCellMetadata,
]
# nbgrader executes nothing: scripts/grading/grades.py ran each submission in a sandbox
# and judged its answers outside it; SandboxResults brings in the outputs and verdicts.
# A graded cell that prints more than OutputCap's limit scores 0, with the reason.
c.Autograde.autograde_preprocessors = [
    SandboxResults, p.IgnorePattern, nbconvert.ClearMetadataPreprocessor, OutputCap, p.LimitOutput,
    p.SaveAutoGrades, p.AssignLatePenalties, p.CheckCellMetadata,
]
# The feedback page: the chapter's front matter becomes MathJax macros, its MyST
# directives headed blocks (grading/feedback.py).
c.GenerateFeedback.preprocessors = [
    p.GetGrades, FrontMatterMacros, MystMarkdown, nbconvert.CSSHTMLHeaderPreprocessor,
]
'''
    )


def nbgrader(*arguments: str, course: Path) -> subprocess.CompletedProcess:
    """Run ``nbgrader`` in the course folder, with this environment's tools on PATH.

    (nbgrader calls ``alembic`` by name to create its database.)
    """
    bin_dir = str(Path(sys.executable).parent)
    env = {**os.environ, "PATH": bin_dir + os.pathsep + os.environ.get("PATH", "")}
    return subprocess.run(
        [sys.executable, "-m", "nbgrader", *arguments],
        cwd=course,
        env=env,
        check=True,
    )


def chosen(notebooks: list[str], chapters: str) -> list[str]:
    """The notebooks of the chapters numbered in ``chapters`` ("3", "3 5", "3,5")."""
    numbers = {}
    for word in chapters.replace(",", " ").split():
        if not word.isdigit():
            raise ValueError(f"CHAPTERS={chapters!r}: give chapter numbers, such as CHAPTERS=3")
        numbers[int(word)] = word
    found = {int(assignment_name(Path(path))[2:]): path for path in notebooks}
    missing = sorted(set(numbers) - set(found))
    if missing:
        raise ValueError(
            f"CHAPTERS={chapters!r}: no chapter {', '.join(map(str, missing))}; "
            f"the chapters are {', '.join(map(str, sorted(found)))}"
        )
    return [path for number, path in sorted(found.items()) if number in numbers]


def main(course_dir: str, *notebooks: str, chapters: str | None = None) -> None:
    if chapters is not None and chapters.strip():
        notebooks = tuple(chosen(list(notebooks), chapters))
    course = Path(course_dir)
    course.mkdir(parents=True, exist_ok=True)
    write_config(course)
    for path in map(Path, notebooks):
        name = assignment_name(path)
        target = course / "source" / name / path.name
        target.parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(assignment_notebook(nbformat.read(path, as_version=4), path.name), target)
        nbgrader("generate_assignment", name, "--force", course=course)
        print(f"{course / 'release' / name / path.name}")


if __name__ == "__main__":
    arguments, chapters = sys.argv[1:], None
    if arguments[:1] == ["--chapters"]:
        chapters, arguments = arguments[1] if len(arguments) > 1 else "", arguments[2:]
    if len(arguments) < 2:
        sys.exit(__doc__)
    try:
        main(arguments[0], *arguments[1:], chapters=chapters)
    except ValueError as error:
        sys.exit(f"make assignments: {error}")
