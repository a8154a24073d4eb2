"""Grading time: seconds per notebook, and the time for a class of 100 on one chapter.

Run with ``make bench`` (after the training benchmark) or on its own:
``python benchmarks/bench_grading.py [CHAPTER] [STUDENTS]`` (default chapter 5,
8 students). It writes a course for the chapter in a temporary folder, hands
in the answer key under STUDENTS names, and times ``make grade``'s work
(``scripts/grading/grades.py``): every notebook run in its sandbox, in parallel on the
machine's cores, then recorded by nbgrader. A second run, with nothing changed,
is timed too. The load average is printed with the times: on a shared machine
they move from run to run. A measurement, not a test.

Where the time goes is printed by stage (the library prepared once, the
sandbox's start-up check, the notebooks in their sandboxes, nbgrader's autograde
and feedback), in wall-clock seconds and in CPU seconds of every process
involved. CPU time is what a loaded machine does not distort: it is read from a
``cpuacct`` cgroup the benchmark enters where the machine lets it make one
(else only wall-clock times are printed). The class of 100 is estimated from the
per-notebook part (the sandboxes and nbgrader) plus the fixed part.
"""

from __future__ import annotations

import itertools
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
from grading import (  # noqa: E402
    grades,
    nbgrader_course,
    sample_submissions,
    sandbox,  # noqa: E402
)

CPUACCT = Path("/sys/fs/cgroup/cpuacct")


class Clock:
    """Wall-clock and CPU seconds (this process and all it starts), stage by stage."""

    def __init__(self):
        self.group = None
        try:
            group = Path(tempfile.mkdtemp(prefix="bench-grading-", dir=CPUACCT))
            (group / "cgroup.procs").write_text(str(os.getpid()))
            self.group = group
        except OSError:
            pass
        self.marks: list[tuple[str, float, float | None]] = []

    def cpu(self) -> float | None:
        if self.group is None:
            return None
        return int((self.group / "cpuacct.usage").read_text()) / 1e9

    def mark(self, name: str) -> None:
        self.marks.append((name, time.perf_counter(), self.cpu()))

    def stages(self) -> list[tuple[str, float, float | None]]:
        out = []
        for (_, wall0, cpu0), (name, wall1, cpu1) in itertools.pairwise(self.marks):
            out.append((name, wall1 - wall0, None if cpu0 is None else cpu1 - cpu0))
        return out

    def close(self) -> None:
        if self.group is not None:
            (CPUACCT / "cgroup.procs").write_text(str(os.getpid()))
            for _ in range(50):
                try:
                    self.group.rmdir()
                    break
                except OSError:
                    time.sleep(0.1)


def _instrument(clock: Clock) -> None:
    """Mark the stages of ``grades.main`` as it runs."""
    prepare, check, batch = sandbox.prepare, sandbox.check, grades._batch

    def timed_prepare():
        prepare()
        clock.mark("library prepared (bytecode, numba cache)")

    def timed_check(work):
        check(work)
        clock.mark("sandbox start-up check")

    def timed_batch(*args, **kwargs):
        clock.mark("notebooks in their sandboxes")
        recorded = batch(*args, **kwargs)  # the students recorded: grades.py marks them
        clock.mark("nbgrader autograde and feedback")
        return recorded

    sandbox.prepare, sandbox.check, grades._batch = timed_prepare, timed_check, timed_batch


def main(chapter: str = "05", students: str = "8") -> None:
    count = int(students)
    (notebook,) = sorted((ROOT / "book").glob(f"{int(chapter):02d}_*.ipynb"))
    clock = Clock()
    _instrument(clock)
    try:
        with tempfile.TemporaryDirectory(prefix="bench-grading-") as tmp:
            course, handed = Path(tmp) / "course", Path(tmp) / "class"
            nbgrader_course.main(str(course), str(notebook))
            sample_submissions.main(str(course), str(Path(tmp) / "sample"))
            (key,) = (Path(tmp) / "sample" / "answer-key").glob("*/*.ipynb")
            for number in range(count):
                target = handed / f"student {number:03d}" / key.parent.name / key.name
                target.parent.mkdir(parents=True)
                shutil.copyfile(key, target)
            clock.mark("start")
            grades.main(str(course), str(handed))
            clock.mark("the table of grades and feedback notes")
            stages = clock.stages()
            compiled = sum(
                json.loads(p.read_text()).get("compiled_in_sandbox", 0)
                for p in (course / "sandbox").glob("*/*/*.json")
                if p.name != "found.json"
            )
            start = time.perf_counter()
            grades.main(str(course), str(handed))
            second = time.perf_counter() - start
    finally:
        clock.close()
    first = sum(wall for _, wall, _ in stages)
    per = first / count
    per_notebook_stages = ("notebooks in their sandboxes", "nbgrader autograde and feedback")
    variable = sum(wall for name, wall, _ in stages if name in per_notebook_stages)
    fixed = first - variable
    print()
    print(
        f"Grading {notebook.name}, {count} notebooks, {os.cpu_count()} cores, "
        f"load average {os.getloadavg()[0]:.1f}:"
    )
    for name, wall, cpu in stages:
        cpu_text = "" if cpu is None else f", CPU {cpu:6.1f} s ({cpu / count:5.2f} s a notebook)"
        print(f"  {name:<42} wall {wall:6.1f} s{cpu_text}")
    print(f"  {first:.1f} s in all, {per:.1f} s per notebook")
    print(f"  numba loops compiled inside the sandboxes (cache misses): {compiled}")
    print(
        f"  a class of 100 on this chapter: about {(fixed + 100 * variable / count) / 60:.1f} min"
    )
    print(f"  a second make grade with nothing changed: {second:.1f} s")


if __name__ == "__main__":
    main(*sys.argv[1:3])
