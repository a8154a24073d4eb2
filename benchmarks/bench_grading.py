"""Grading time: seconds per notebook, and the time for a class of 100 on one chapter.

Run with ``make bench`` (after the training benchmark) or on its own:
``python benchmarks/bench_grading.py [CHAPTER] [STUDENTS]`` (default chapter 5,
8 students). It writes a course for the chapter in a temporary folder, hands
in the answer key under STUDENTS names, and times ``make grade``'s work
(``scripts/grades.py``): every notebook run in its sandbox, in parallel on the
machine's cores, then recorded by nbgrader. A second run, with nothing changed,
is timed too. The load average is printed with the times: on a shared machine
they move from run to run. A measurement, not a test.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
import grades  # noqa: E402
import nbgrader_course  # noqa: E402
import sample_submissions  # noqa: E402


def main(chapter: str = "05", students: str = "8") -> None:
    count = int(students)
    (notebook,) = sorted((ROOT / "book").glob(f"{int(chapter):02d}_*.ipynb"))
    with tempfile.TemporaryDirectory(prefix="bench-grading-") as tmp:
        course, handed = Path(tmp) / "course", Path(tmp) / "class"
        nbgrader_course.main(str(course), str(notebook))
        sample_submissions.main(str(course), str(Path(tmp) / "sample"))
        (key,) = (Path(tmp) / "sample" / "answer-key").glob("*/*.ipynb")
        for number in range(count):
            target = handed / f"student {number:03d}" / key.parent.name / key.name
            target.parent.mkdir(parents=True)
            shutil.copyfile(key, target)
        start = time.perf_counter()
        grades.main(str(course), str(handed))
        first = time.perf_counter() - start
        start = time.perf_counter()
        grades.main(str(course), str(handed))
        second = time.perf_counter() - start
    per = first / count
    print()
    print(
        f"Grading {notebook.name}, {count} notebooks, {os.cpu_count()} cores, "
        f"load average {os.getloadavg()[0]:.1f}:"
    )
    print(f"  {first:.1f} s in all, {per:.1f} s per notebook")
    print(f"  a class of 100 on this chapter: about {100 * per / 60:.1f} min")
    print(f"  a second make grade with nothing changed: {second:.1f} s")


if __name__ == "__main__":
    main(*sys.argv[1:3])
