"""Inside the fresh sandbox: an audit hook that refuses what an answer never needs.

:mod:`grading.probe` installs :func:`install` before any of the student's code
runs. Python's audit hooks cannot be removed once added, so unlike the
profiler (which ``ctypes`` can switch off) this one stays. It refuses, when
the student's code asks for it (directly, or through the standard library on
its behalf):

- ``ctypes`` (loading a library, looking a symbol up, calling a C function,
  reading or writing memory by address) and importing ``cffi``: the ways to
  change the grader's process from inside (switch the profiler off, rewrite
  an object);
- ``sys.setprofile`` and ``sys.settrace``: replacing the grader's tracing;
- starting a process (``os.system``, ``subprocess``, ``os.fork``, ``exec``,
  ``posix_spawn``): code run there is not traced;
- writing a file outside the sandbox's own folder and its private ``/tmp``
  (``/proc/self/mem`` would rewrite the process);
- reaching a frame directly (``exception.__traceback__.tb_frame``, a
  generator's ``gi_frame``, ``sys._current_frames``): the grader's frames
  hold its side of the pipe.

Refused means: the operation raises :class:`PermissionError`, and its name is
kept, so the grader gives the question 0 with "ask the instructor to read
it". What the probe's tracer notes (``sys.getprofile`` called by an answer,
say) is kept here too, through an audit event of the grader's own
(``grading.tampered``): an answer that reaches the tracer can empty the
tracer's list, not this one. The same operations asked for by the installed packages (NumPy's and
numba's own use of ``ctypes``, matplotlib looking for fonts with
``fc-list``) are theirs, not the answer's: the hook looks for the nearest
frame that is not the standard library's, and refuses only when that frame is
the student's (a notebook cell, or any file that is not installed).
"""

from __future__ import annotations

import os
import sys

# Events refused when the student's code asks for them, by their name's start.
REFUSED = (
    "ctypes.",
    "sys.setprofile",
    "sys.settrace",
    "sys._current_frames",
    "os.system",
    "os.exec",
    "os.fork",
    "os.forkpty",
    "os.posix_spawn",
    "os.spawn",
    "subprocess.Popen",
    "pty.spawn",
)
# Attributes that hand out a frame, raised as "object.__getattr__" (so is a frame's
# f_code, which this hook reads itself, and a function's __code__: both are let be).
FRAMES = {"tb_frame", "gi_frame", "cr_frame", "ag_frame"}
MODULES = {"ctypes", "_ctypes", "cffi", "_cffi_backend"}  # refused when first imported
WRITING = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC


def _stdlib() -> tuple[str, ...]:
    """Where the standard library's modules are (not its site-packages: installed packages)."""
    return (os.path.dirname(os.path.realpath(os.__file__)) + os.sep, "<frozen ")


class Guard:
    """The audit hook (see the module's docstring); ``refused`` lists what it refused.

    ``installed`` are the folders whose code is not the student's (the
    environment, Python, the library, the grader); ``work`` is the sandbox's
    own folder, where writing is allowed, as in the sandbox's own ``/tmp`` (a
    small tmpfs of its own: a figure saved there is no escape).

    >>> guard = Guard([sys.prefix, sys.base_prefix], "/home/student")
    >>> guard._writes_outside(("/proc/self/mem", "r+b", 2))
    True
    >>> guard._writes_outside(("/home/student/figure.png", "wb", 577))
    False
    >>> guard._writes_outside(("/tmp/figure.png", "wb", 577))
    False
    >>> guard._writes_outside(("/dev/null", "w", 577))
    False
    >>> guard._writes_outside(("/etc/hostname", "r", 524288))  # reading: let be
    False
    >>> guard("grading.tampered", ("sys.getprofile",))  # the tracer's note, kept
    >>> guard.refused
    ['sys.getprofile']
    """

    def __init__(self, installed: list[str], work: str):
        self.stdlib = _stdlib()
        # What is not the student's: the environment, Python, the library, the grader.
        self.installed = tuple(os.path.realpath(p).rstrip(os.sep) + os.sep for p in installed)
        self.work = os.path.realpath(work).rstrip(os.sep) + os.sep
        self.writable = (self.work, os.sep + "tmp" + os.sep)  # the sandbox's own /tmp too
        self.refused: list[str] = []
        self.paths: dict[str, str] = {}  # a code's file name, resolved

    def _where(self, filename: str) -> str:
        if filename not in self.paths:
            self.paths[filename] = (
                filename if filename.startswith("<") else os.path.realpath(filename)
            )
        return self.paths[filename]

    def _standard(self, filename: str) -> bool:
        where = self._where(filename)
        return where.startswith(self.stdlib) and not any(
            part in where for part in ("/site-packages/", "/dist-packages/")
        )

    def _students(self, frame, directly: bool = False) -> bool:
        """Is the nearest frame outside the standard library (or the frame) the student's?"""
        while not directly and frame is not None and self._standard(frame.f_code.co_filename):
            frame = frame.f_back
        if frame is None:
            return False
        return not self._where(frame.f_code.co_filename).startswith(self.installed)

    def _writes_outside(self, args) -> bool:
        path, mode, flags = (tuple(args) + (None, None, None))[:3]
        if not isinstance(path, str | bytes):
            return False  # a file descriptor: opened already
        writing = (isinstance(mode, str) and any(c in mode for c in "wax+")) or (
            isinstance(flags, int) and bool(flags & WRITING)
        )
        if not writing:
            return False
        where = os.path.realpath(os.fsdecode(path))
        if where == os.devnull:  # prints thrown away: nothing written
            return False
        return not (where + os.sep).startswith(self.writable)

    def __call__(self, event: str, args: tuple) -> None:
        directly = False
        if event == "object.__getattr__":  # the most frequent: the profiler reads f_code
            if len(args) < 2 or args[1] not in FRAMES:
                return
            name = f"a frame ({args[1]})"
            directly = True  # the standard library's tracebacks take frames: theirs
        elif event == "grading.tampered":  # noted by the probe's tracer: kept here too
            if args and str(args[0]) not in self.refused:
                self.refused.append(str(args[0]))
            return
        elif event == "open":
            if not self._writes_outside(args):
                return
            where = os.fsdecode(args[0])[:100]
            name = f"a file written outside the sandbox's folder and /tmp ({where})"
        elif event == "import":
            if not args or args[0] not in MODULES:
                return
            name = f"import {args[0]}"
        elif event.startswith(REFUSED):
            name = event
        else:
            return
        if not self._students(sys._getframe(1), directly):
            return
        if name not in self.refused:
            self.refused.append(name)
        raise PermissionError(f"{name}: refused by the grader")


def install(installed: list[str], work: str) -> Guard:
    """Add the hook (for good: Python has no way to remove it) and return it."""
    guard = Guard(installed, work)
    sys.addaudithook(guard)
    return guard
