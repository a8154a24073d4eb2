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

Two downloads of a learning management system are read as they come:

- Canvas's bulk download ("Download Submissions") puts every file at the top,
  renamed ``<name>_<user id>_<submission id>_<original name>`` (``LATE_`` after
  the name for a late one);
- Moodle's "Download all submissions" makes a folder per student,
  ``<Full Name>_<participant id>_assignsubmission_file_/``, or without folders
  prefixes each file's name with that.

The student id is the name the download gives (``smithbob``, ``Lin Mei``), with
the number added (``Lin Mei_48213``) when two students share a name; a note says
which file or folder it came from and the number the system gave. That number is
kept (:attr:`HandedIn.lms_id`): it is what Canvas's gradebook import matches
(its ``ID`` column, the Canvas user id) and what Moodle's grading worksheet
matches (``Participant 48213``), so ``make export`` can put the grades back. A
student of nbgrader's folder layout has no such number. A folder in
which nothing is a submission stops ``make grade`` with a message
(:class:`UnrecognisedLayout`): it never grades nothing in silence.
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
CANVAS = re.compile(r"^(?P<name>[^_]+)_(?P<late>LATE_)?(?P<number>\d+)_\d+_(?P<file>.+)$")
MOODLE = re.compile(
    r"^(?P<name>.+?)_(?P<number>\d+)_assignsubmission_(?P<kind>[a-z]+)_(?P<file>.*)$"
)
LAYOUTS = (
    "DIR/<student>/chNN/<notebook>.ipynb (nbgrader's), a Canvas bulk download (files "
    "<name>_<user id>_<number>_<notebook>.ipynb) or a Moodle download (folders "
    "<Full Name>_<id>_assignsubmission_file_/)"
)


class UnrecognisedLayout(SystemExit):
    """Nothing in the folder is a submission: ``make grade`` stops with this message.

    A :class:`SystemExit`, so that the grader exits with a non-zero status and
    the message alone, no traceback: the layout is the instructor's to fix.
    """


@dataclass
class Download:
    """A file or folder an LMS download named after a student."""

    system: str  # "Canvas" or "Moodle"
    name: str  # the student's name as the download writes it
    number: str  # the student's number in that system
    original: str  # the file's own name ("" for a Moodle folder)
    kind: str = "file"  # Moodle's submission plugin: "file", "onlinetext", ...
    late: bool = False


def download_of(entry: Path) -> Download | None:
    """The LMS download that named ``entry``, or ``None`` for any other name.

    >>> canvas = download_of(Path("smithbob_LATE_340934_208490284_03_learning_rule.ipynb"))
    >>> canvas.system, canvas.name, canvas.number, canvas.original, canvas.late
    ('Canvas', 'smithbob', '340934', '03_learning_rule.ipynb', True)
    >>> download_of(Path("Lin Mei_48213_assignsubmission_file_")).name
    'Lin Mei'
    >>> download_of(Path("ch03")) is None
    True
    """
    moodle = MOODLE.match(entry.name)
    if moodle is not None:
        return Download("Moodle", moodle["name"], moodle["number"], moodle["file"], moodle["kind"])
    canvas = CANVAS.match(entry.name)
    if canvas is not None and not entry.is_dir():
        return Download(
            "Canvas", canvas["name"], canvas["number"], canvas["file"], late=bool(canvas["late"])
        )
    return None


@dataclass
class HandedIn:
    """One student's notebooks for one assignment: {expected name: file found}."""

    student: str
    assignment: str
    notebooks: dict[str, Path] = field(default_factory=dict)
    folder: Path | None = None
    notes: list[str] = field(default_factory=list)
    # The LMS that named the file or folder ("Canvas", "Moodle"; "" for a student's
    # folder) and the number it gave the student there: the user id (Canvas), the
    # participant number (Moodle), which their grade imports match.
    lms: str = ""
    lms_id: str = ""


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
    """Return (list of :class:`HandedIn`, list of (student, problem)) for a class folder.

    Raises :class:`UnrecognisedLayout` when nothing in ``submitted`` is a submission.
    """
    found: dict[tuple[str, str], HandedIn] = {}
    problems: list[tuple[str, str]] = []
    downloads: list[tuple[Path, Download]] = []
    loose: list[str] = []  # files at the top that no layout names
    for student_dir in sorted(submitted.iterdir()):
        student = student_dir.name
        if student_dir.is_symlink():
            problems.append((student, f"the student's folder {student}/ {LINK}; nothing graded"))
            continue
        download = download_of(student_dir)
        if download is not None:
            downloads.append((student_dir, download))
            continue
        if not student_dir.is_dir():
            loose.append(student)
            if student_dir.suffix == ".ipynb":
                problems.append(
                    (
                        student,
                        f"the notebook {student} is at the top of the submissions folder, in "
                        "no student's folder, and not named as Canvas or Moodle name theirs: "
                        "whose is it? Not graded",
                    )
                )
            continue
        problem = id_problem(student)
        if problem is not None:
            problems.append((student, problem))
            continue
        _student_folder(student, student_dir, assignments, found, problems)
    folders = {d.name for d in submitted.iterdir() if d.is_dir() and download_of(d) is None}
    for entry, download in downloads:
        _from_download(entry, download, downloads, folders, assignments, found, problems)
    if not found:
        seen = [f"{student}: {problem}" for student, problem in problems[:3]]
        seen += [f"{name} (a file)" for name in loose[: 3 - len(seen)]]
        raise UnrecognisedLayout(
            f"make grade: nothing in {submitted} is a submission it can read, so nothing "
            f"was graded. It reads {LAYOUTS}. "
            + (f"Found: {'; '.join(seen)}." if seen else "The folder is empty.")
        )
    return list(found.values()), problems


def _student_id(download: Download, downloads, folders: set[str]) -> str:
    """The download's name, with its number if another student has the same name."""
    others = {d.number for _, d in downloads if d.name == download.name}
    if len(others) > 1 or download.name in folders:
        return f"{download.name}_{download.number}"
    return download.name


def _from_download(entry, download, downloads, folders, assignments, found, problems) -> None:
    """A Canvas file, or a Moodle folder or file, graded under the student's name."""
    student = _student_id(download, downloads, folders)
    what = "folder" if entry.is_dir() else "file"
    number = "user id" if download.system == "Canvas" else "participant"
    origin = (
        f"{download.system} download: the {what} {entry.name} was graded as the student "
        f"{student} ({download.system} {number} {download.number}"
        + (", handed in late)" if download.late else ")")
    )
    problem = id_problem(student)
    if problem is not None:
        problems.append((student, problem))
    elif download.kind != "file":
        problems.append(
            (student, f"{entry.name} is Moodle's {download.kind}, not a file: not graded")
        )
    elif entry.is_dir():
        _student_folder(student, entry, assignments, found, problems, (origin, download))
    elif download.original.endswith(".ipynb") and entry.is_file():
        _notebook_at_root(
            student, entry, download.original, assignments, found, problems, (origin, download)
        )
    else:
        problems.append((student, f"{entry.name} is not a notebook: not graded"))


def _student_folder(student, student_dir, assignments, found, problems, source=None) -> None:
    """The notebooks of one student's folder: in assignment folders or at its root.

    ``source`` is (the note, the :class:`Download`) of an LMS download's folder.
    """
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
            item = _item(found, student, assignment, source)
            item.folder = entry
            if entry.name != assignment:
                item.notes.append(f"found in the folder {entry.name}/, graded as {assignment}")
            notebooks = []
            for path in sorted(entry.glob("*.ipynb")):
                if path.is_symlink() or not path.is_file():
                    item.notes.append(f"the notebook {path.name} {LINK}")
                else:
                    notebooks.append((path.name, path))
            _match_names(item, notebooks, assignments[assignment])
        elif entry.suffix == ".ipynb" and entry.is_file():
            if not _notebook_at_root(
                student, entry, entry.name, assignments, found, problems, source
            ):
                continue
        else:
            continue
        matched = True
    if not matched and not linked:
        problems.append((student, "nothing in the student's folder matches an assignment"))


def _notebook_at_root(student, path, name, assignments, found, problems, source) -> bool:
    """A notebook outside any assignment folder, matched by the number its ``name`` starts with."""
    assignment = _assignment_of(name, assignments, NUMBER)
    if assignment is None:
        problems.append((student, f"the notebook {name} matches no assignment"))
        return False
    item = _item(found, student, assignment, source)
    if source is None:
        item.notes.append(f"found at the student's root as {name}")
    _match_names(item, [(name, path)], assignments[assignment])
    return True


def _item(found, student: str, assignment: str, source) -> HandedIn:
    item = found.get((student, assignment))
    if item is None:
        item = found[student, assignment] = HandedIn(student, assignment)
    if source is not None:
        origin, download = source
        if origin not in item.notes:
            item.notes.append(origin)
        item.lms, item.lms_id = download.system, download.number
    return item


def _match_names(item: HandedIn, notebooks: list[tuple[str, Path]], expected: list[str]) -> None:
    """Pair the files (by their own names) with the assignment's notebooks: exact, else by stem."""
    rest = []
    for name, path in notebooks:
        if name in expected and name not in item.notebooks:
            item.notebooks[name] = path
        else:
            rest.append((name, path))
    for name, path in rest:
        # "05_convergence (1).ipynb", "05_convergence-copy.ipynb": the same stem first.
        candidates = [
            n
            for n in expected
            if n not in item.notebooks and Path(name).stem.startswith(Path(n).stem)
        ]
        if not candidates and len(expected) == 1 and expected[0] not in item.notebooks:
            candidates = expected
        if candidates:
            item.notebooks[candidates[0]] = path
            item.notes.append(f"the notebook {name} was graded as {candidates[0]}")
        else:
            item.notes.append(f"the notebook {name} is not part of {item.assignment}; not graded")
