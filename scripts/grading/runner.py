"""Inside the sandbox: execute a notebook cell by cell and say how each cell ended.

Usage: ``python runner.py IN.ipynb OUT_DIR CELL_TIMEOUT``. Writes
``OUT_DIR/executed.ipynb`` and ``OUT_DIR/status.json``: for each code cell,
"ok", "error", "timeout" (still running after CELL_TIMEOUT seconds: it was
interrupted and the next cells ran) or "died" (the kernel ended: the status
names its exit code or signal), and nothing after a death. The runner shares the
sandbox with the student's code, so the grader treats what it writes as claims,
never as scores.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

# jsonschema (under nbformat) builds a grammar at import for one optional format
# check ("iri") that a notebook's schema never uses: seconds of CPU in every
# sandbox. Marked absent, it is skipped (jsonschema imports it optionally).
sys.modules.setdefault("rfc3987_syntax", None)

import nbformat  # noqa: E402
from nbclient import NotebookClient  # noqa: E402
from nbclient.exceptions import CellExecutionError, DeadKernelError  # noqa: E402


def _kernel_exit(client) -> int | None:
    process = getattr(getattr(client.km, "provisioner", None), "process", None)
    if process is None:
        return None
    for _ in range(20):
        code = process.poll()
        if code is not None:
            return code
        time.sleep(0.05)
    return None


# Run by the kernel at start: animations are not drawn while grading (drawing
# every frame took more than half of a chapter's run); the answers never need them.
# The chapters' glue (myst_nb) imports nbformat: the same grammar is skipped there.
STARTUP = """
import sys as _grading_sys

_grading_sys.modules.setdefault("rfc3987_syntax", None)
del _grading_sys


def _grading_still(anim, *args, **kwargs):
    import matplotlib.pyplot as plt
    plt.close(anim._fig)
    return "<p>(The animation is not drawn while grading.)</p>"


import matplotlib.animation as _grading_mpl_animation

_grading_mpl_animation.Animation.to_jshtml = _grading_still
import perceptron_lib as _grading_pl
import perceptron_lib.figures.animation as _grading_animation

_grading_animation.animation_html = _grading_still
if hasattr(_grading_pl, "animation_html"):
    _grading_pl.animation_html = _grading_still
del _grading_pl, _grading_animation, _grading_mpl_animation
"""


def _install_startup() -> None:
    ipython = Path(os.environ.get("IPYTHONDIR", "/tmp/ipython"))
    startup = ipython / "profile_default" / "startup"
    startup.mkdir(parents=True, exist_ok=True)
    (startup / "00-grading.py").write_text(STARTUP)


def main(notebook_path: str, out_dir: str, timeout: str) -> None:
    out = Path(out_dir)
    _install_startup()
    notebook = nbformat.read(notebook_path, as_version=4)
    client = NotebookClient(
        notebook,
        timeout=int(timeout),
        interrupt_on_timeout=True,
        allow_errors=True,
        kernel_name="python3",
        resources={"metadata": {"path": str(Path(notebook_path).parent)}},
    )
    timed_out = set()
    handle = client._async_handle_timeout

    async def on_timeout(timeout, cell=None):  # remember which cell ran out of time
        timed_out.add(id(cell))
        return await handle(timeout, cell)

    client._async_handle_timeout = on_timeout
    status: dict = {"cells": {}}
    with client.setup_kernel():
        for index, cell in enumerate(notebook.cells):
            if cell.cell_type != "code":
                continue
            try:
                client.execute_cell(cell, index)
            except DeadKernelError:
                status["cells"][index] = "died"
                status["exit"] = _kernel_exit(client)
                break
            except CellExecutionError:
                pass
            if id(cell) in timed_out:
                state = "timeout"
            elif any(o.output_type == "error" for o in cell.get("outputs", [])):
                state = "error"
            else:
                state = "ok"
            status["cells"][index] = state
            (out / "status.json").write_text(json.dumps(status))
    (out / "status.json").write_text(json.dumps(status))
    nbformat.write(notebook, out / "executed.ipynb")


if __name__ == "__main__":
    main(*sys.argv[1:4])
