"""An nbgrader preprocessor: a graded cell that prints too much scores 0, with the reason.

nbgrader's own ``LimitOutput`` counts lines, so one line of megabytes passes it
and lands in the gradebook and the feedback page. ``OutputCap`` runs after the
notebook is executed and before the grades are saved: any code cell whose text
output is larger than ``max_chars`` keeps only its beginning, and a *graded*
cell (a locked test) also gets an error output saying why, so that nbgrader
gives it 0 points, and the student reads the reason in the feedback.
"""

from __future__ import annotations

from nbconvert.preprocessors import Preprocessor
from nbformat.v4 import new_output
from traitlets import Bool, Integer


class OutputCap(Preprocessor):
    """Truncate any cell's oversized text output; a graded cell that printed it scores 0."""

    enabled = Bool(True).tag(config=True)
    max_chars = Integer(100_000, help="characters of text output allowed per cell").tag(
        config=True
    )

    def preprocess_cell(self, cell, resources, index):
        if cell.cell_type != "code":
            return cell, resources
        streams = [output for output in cell.outputs if output.output_type == "stream"]
        size = sum(len(output.text) for output in streams)
        if size <= self.max_chars:
            return cell, resources
        budget = self.max_chars
        for output in streams:
            output.text = output.text[:budget]
            budget = max(0, budget - len(output.text))
        cell.outputs = [o for o in cell.outputs if o.output_type != "stream" or o.text]
        if cell.metadata.get("nbgrader", {}).get("grade"):
            reason = (
                f"the cell printed {size:,} characters, more than the {self.max_chars:,} "
                "allowed; the output was cut and the question scores 0. Remove the prints."
            )
            cell.outputs.insert(
                0,
                new_output(
                    "error",
                    ename="OutputTooLarge",
                    evalue=reason,
                    traceback=[f"OutputTooLarge: {reason}"],
                ),
            )
        return cell, resources
