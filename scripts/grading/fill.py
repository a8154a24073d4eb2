"""An nbgrader preprocessor that takes the place of ``Execute`` in ``nbgrader autograde``.

The notebook was already run in the sandbox and its answers judged
(:mod:`grading.submission`). This preprocessor copies the sandbox's outputs into
the notebook nbgrader is grading and puts each question's verdict into its
test cell as nbgrader reads it: no error for full points, a number for
partial credit, an error (with the reason) for none. Nothing is executed here.
"""

from __future__ import annotations

import json
from pathlib import Path

import nbformat
from nbconvert.preprocessors import Preprocessor
from nbformat.v4 import new_output
from traitlets import Bool, Unicode


class SandboxResults(Preprocessor):
    """Fill a submission's outputs and verdicts from ``sandbox/<student>/<assignment>/``."""

    enabled = Bool(True).tag(config=True)  # nbconvert's preprocessors are off by default
    course = Unicode(".", help="the course folder").tag(config=True)

    def preprocess(self, nb, resources):
        info = resources["nbgrader"]
        folder = Path(self.course) / "sandbox" / info["student"] / info["assignment"]
        name = info["notebook"]
        report = json.loads((folder / f"{name}.json").read_text(encoding="utf-8"))
        executed = nbformat.read(folder / f"{name}.ipynb", as_version=4)
        tests = {v["index"]: (grade_id, v) for grade_id, v in report["verdicts"].items()}
        same = len(executed.cells) == len(nb.cells)
        for index, cell in enumerate(nb.cells):
            if cell.cell_type != "code":
                continue
            ran = executed.cells[index] if same else None
            outputs = list(ran.get("outputs", [])) if ran is not None else []
            cell.execution_count = ran.get("execution_count") if ran is not None else None
            if index not in tests:
                cell.outputs = outputs
                continue
            grade_id, verdict = tests[index]
            if cell.metadata.get("nbgrader", {}).get("grade_id") != grade_id:
                raise ValueError(f"cell {index} is not {grade_id}: the notebook changed")
            # What the student's function printed stays (the output cap reads it);
            # the test cell's own outputs are the grader's, nothing else decides.
            cell.outputs = [
                o
                for o in outputs
                if o.output_type == "stream"
                and o.name == "stdout"
                and not o.text.startswith("The results of ")
            ]
            cell.outputs += verdict_outputs(verdict)
        return nb, resources


def verdict_outputs(verdict: dict) -> list:
    """The outputs that make nbgrader give ``verdict["score"]`` points."""
    passed, total = verdict["passed"], verdict["total"]
    if verdict["score"] >= verdict["max_score"] and not verdict["reason"]:
        text = f"All {total} checks passed (the public cases and the hidden ones).\n"
        return [new_output("stream", name="stdout", text=text)]
    if verdict["score"] <= 0:
        return [
            new_output(
                "error",
                ename="Failed",
                evalue=verdict["reason"],
                traceback=[f"Failed: {verdict['reason']}"],
            )
        ]
    text = f"{passed} of {total} checks passed: {verdict['score']:g} points. {verdict['reason']}\n"
    return [
        new_output("stream", name="stdout", text=text),
        new_output(
            "execute_result", data={"text/plain": f"{verdict['score']:g}"}, execution_count=None
        ),
    ]


class KeepFirstCopy(Preprocessor):
    """A copied graded or locked cell (same grade id) is an ordinary cell; the first is kept.

    It takes the place of nbgrader's ``DeduplicateIds``, which keeps the last
    copy: the sandbox ran the first (:func:`grading.submission.run_notebook`),
    so that is the one whose verdict is recorded. nbgrader then writes the
    instructor's text into it (``OverwriteCells``); the copy is graded by no one.
    """

    enabled = Bool(True).tag(config=True)

    def preprocess(self, nb, resources):
        seen = set()
        for cell in nb.cells:
            grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
            if grade_id is None:
                continue
            if grade_id in seen:  # no metadata at all: nbgrader rejects an empty one
                del cell.metadata["nbgrader"]
            seen.add(grade_id)
        return nb, resources
