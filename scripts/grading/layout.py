"""Find what each student handed in, even where it is not where nbgrader looks.

nbgrader's layout is ``DIR/<student>/chNN/<notebook>.ipynb``. Students also
hand in ``ch5/`` or ``05/`` for ``ch05/``, a notebook at their folder's root,
or ``05_convergence (1).ipynb`` for ``05_convergence.ipynb``. Each is matched to
its assignment and notebook, and a note says what was found where; what cannot
be matched is reported, never dropped.

A submission is regular files inside the student's folder. A symbolic link (the
student's folder, an assignment folder or a notebook that points to the answer
key, to another student's work or anywhere else) is never followed: it gets a
note or a row with a reason that names the link, never where it points, and
nothing it points to is read. A folder name nbgrader cannot take as a student
id (a newline, a leading dot, ...) is refused with a reason naming the folder.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

FOLDER = re.compile(r"^(?:ch)?0*(\d{1,3})$", re.IGNORECASE)
NUMBER = re.compile(r"^0*(\d{1,3})[_ -]")
# nbgrader finds a student's files with glob patterns built from the id: these
# letters would match other folders (or none); a leading dot hides the folder.
GLOB_LETTERS = set("*?[]")
LINK = "is a symbolic link, not a file or folder of the student's: not read"


@dataclass
class HandedIn:
    """One student's notebooks for one assignment: {expected name: file found}."""

    student: str
    assignment: str
    notebooks: dict[str, Path] = field(default_factory=dict)
    folder: Path | None = None
    notes: list[str] = field(default_factory=list)


def _assignment_of(name: str, assignments: dict[str, list[str]], pattern) -> str | None:
    match = pattern.match(name)
    if match is None:
        return None
    candidate = f"ch{int(match.group(1)):02d}"
    return candidate if candidate in assignments else None


def id_problem(name: str) -> str | None:
    """Why the folder name ``name`` cannot be an nbgrader student id, or ``None``.

    >>> id_problem("smith, john") is None
    True
    >>> print(id_problem("new\\nline")[:51])
    the folder name 'new\\nline' has a control character
    """
    reasons = []
    if any(unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp") for c in name):
        reasons.append("a control character (a newline, a tab...)")
    if GLOB_LETTERS & set(name):
        reasons.append("one of * ? [ ] (nbgrader reads them as patterns)")
    if name.startswith("."):
        reasons.append("a leading dot (a hidden folder)")
    if not reasons:
        return None
    return (
        f"the folder name {name!r} has {' and '.join(reasons)}, so nbgrader cannot use it as "
        "a student id; nothing in it was graded: rename the folder and run make grade again"
    )


def find(submitted: Path, assignments: dict[str, list[str]]):
    """Return (list of :class:`HandedIn`, list of (student, problem)) for a class folder."""
    found: dict[tuple[str, str], HandedIn] = {}
    problems: list[tuple[str, str]] = []
    for student_dir in sorted(submitted.iterdir()):
        student = student_dir.name
        if student_dir.is_symlink():
            problems.append((student, f"the student's folder {student}/ {LINK}; nothing graded"))
            continue
        if not student_dir.is_dir():
            continue
        problem = id_problem(student)
        if problem is not None:
            problems.append((student, problem))
            continue
        matched = linked = False
        for entry in sorted(student_dir.iterdir()):
            if entry.is_symlink():
                problems.append((student, f"{entry.name} {LINK}; not graded"))
                linked = True
                continue
            if entry.is_dir():
                assignment = (
                    entry.name
                    if entry.name in assignments
                    else _assignment_of(entry.name, assignments, FOLDER)
                )
                if assignment is None:
                    problems.append((student, f"a folder {entry.name}/ matches no assignment"))
                    continue
                item = found.setdefault((student, assignment), HandedIn(student, assignment))
                item.folder = entry
                if entry.name != assignment:
                    item.notes.append(f"found in the folder {entry.name}/, graded as {assignment}")
                notebooks = []
                for path in sorted(entry.glob("*.ipynb")):
                    if path.is_symlink() or not path.is_file():
                        item.notes.append(f"the notebook {path.name} {LINK}")
                    else:
                        notebooks.append(path)
            elif entry.suffix == ".ipynb" and entry.is_file():
                assignment = _assignment_of(entry.name, assignments, NUMBER)
                if assignment is None:
                    problems.append((student, f"the notebook {entry.name} matches no assignment"))
                    continue
                item = found.setdefault((student, assignment), HandedIn(student, assignment))
                item.notes.append(f"found at the student's root as {entry.name}")
                notebooks = [entry]
            else:
                continue
            matched = True
            _match_names(item, notebooks, assignments[assignment])
        if not matched and not linked:
            problems.append((student, "nothing in the student's folder matches an assignment"))
    return list(found.values()), problems


def _match_names(item: HandedIn, notebooks: list[Path], expected: list[str]) -> None:
    """Pair the files with the assignment's notebook names: exact, else by stem."""
    rest = []
    for path in notebooks:
        if path.name in expected and path.name not in item.notebooks:
            item.notebooks[path.name] = path
        else:
            rest.append(path)
    for path in rest:
        # "05_convergence (1).ipynb", "05_convergence-copy.ipynb": the same stem first.
        candidates = [
            n for n in expected if n not in item.notebooks and path.stem.startswith(Path(n).stem)
        ]
        if not candidates and len(expected) == 1 and expected[0] not in item.notebooks:
            candidates = expected
        if candidates:
            item.notebooks[candidates[0]] = path
            item.notes.append(f"the notebook {path.name} was graded as {candidates[0]}")
        else:
            item.notes.append(
                f"the notebook {path.name} is not part of {item.assignment}; not graded"
            )
