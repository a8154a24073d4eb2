"""Find what each student handed in, even where it is not where nbgrader looks.

nbgrader's layout is ``DIR/<student>/chNN/<notebook>.ipynb``. Students also
hand in ``ch5/`` or ``05/`` for ``ch05/``, a notebook at their folder's root,
or ``05_convergence (1).ipynb`` for ``05_convergence.ipynb``. Each is matched to
its assignment and notebook, and a note says what was found where; what cannot
be matched is reported, never dropped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

FOLDER = re.compile(r"^(?:ch)?0*(\d{1,3})$", re.IGNORECASE)
NUMBER = re.compile(r"^0*(\d{1,3})[_ -]")


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


def find(submitted: Path, assignments: dict[str, list[str]]):
    """Return (list of :class:`HandedIn`, list of (student, problem)) for a class folder."""
    found: dict[tuple[str, str], HandedIn] = {}
    problems: list[tuple[str, str]] = []
    for student_dir in sorted(p for p in submitted.iterdir() if p.is_dir()):
        student = student_dir.name
        matched = False
        for entry in sorted(student_dir.iterdir()):
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
                notebooks = sorted(entry.glob("*.ipynb"))
            elif entry.suffix == ".ipynb":
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
        if not matched:
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
