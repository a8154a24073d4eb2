"""The fresh sandbox holds no solution: the library's answer-free copy (issue 33).

The process that calls a student's function (:mod:`grading.probe`) traces it,
but the tracing runs in that process, where an answer can defeat it. Three
such answers, each of which earned full marks when the fresh sandbox held the
real library (chapter 1's ``predict``, 19 of 19 checks, 2 of 2 points), are
graded here in one fresh sandbox beside an honest one:

- ``frames``: calls the checker's own reference, then walks up its frames
  (``inspect.currentframe``, which the tracing lets the standard library
  call) to the grader's tracer and empties its notes;
- ``exec``: reads the library's loop from its file and runs it under a made-up
  file name, numba's decorator cut, so the tracing takes it for the answer's;
- ``numba``: calls the compiled loop's numba dispatcher, found in the globals
  of the grader's wrapper around it (a dispatcher has no Python frame).

With the copy each scores 0; an honest answer keeps its points, also when its
cell calls the library above the definition (the call raises in the copy). The
copy itself is checked too: every module imports from it, the permitted helpers
give the real library's results, it keeps no exercise's solution, and the fresh
sandbox sees no numba cache and none of the grader's files but the three the
probe needs.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest
from test_grading_forgery import _predict_questions
from toc import ROOT

sys.path.insert(0, str(ROOT / "scripts"))
from grading import answer_free, evaluation, judge, sandbox  # noqa: E402

FRAMES = """import inspect
from perceptron_lib.exercises import ch01 as _c


def predict(w, x, b):
    result = _c._reference_prediction(w, x, b)
    frame = inspect.currentframe()
    while frame is not None:  # up to the grader's frame that holds its tracer
        tracer = frame.f_locals.get("tracer")
        if tracer is not None:
            tracer.reached.clear()
        frame = frame.f_back
    return result
"""
EXEC = """import numpy as np
import perceptron_lib.loops.plain as _plain

_mine = {"__name__": "perceptron_lib.loops._mine", "__package__": "perceptron_lib.loops"}
with open(_plain.__file__) as _file:
    exec(compile(_file.read().replace("@compiled", ""), "<mine>", "exec"), _mine)


def predict(w, x, b):
    a = _mine["activation"](np.asarray(w, float), float(b), np.asarray(x, float))
    return 1 if a > 0 else -1
"""
NUMBA = """import numpy as np
import perceptron_lib.loops.plain as _plain

# The grader wraps the compiled loop in a function; the dispatcher is in its globals.
_loop = _plain.activation.__globals__.get("dispatcher", _plain.activation)


def predict(w, x, b):
    a = _loop(np.asarray(w, float), float(b), np.asarray(x, float))
    return 1 if a > 0 else -1
"""
HONEST = """import numpy as np


def predict(w, x, b):
    return 1 if np.dot(np.asarray(w, float), np.asarray(x, float)) + b > 0 else -1
"""
# An honest answer whose cell first calls the library (which raises in the copy):
# the definition below the call still runs, as it did in the notebook.
LIBRARY_ABOVE = (
    "import perceptron_lib as pl\n\n_margin = pl.lifted_margin([1.0], 0.0, [[1.0]], [1])\n\n\n"
    + HONEST
)
DEFEATS = {"frames": FRAMES, "exec": EXEC, "numba": NUMBA}


@pytest.fixture(scope="module")
def copy():
    start = time.perf_counter()
    folder = answer_free.build()
    print(f"the answer-free copy: {time.perf_counter() - start:.1f} s")
    return folder


@pytest.fixture(scope="module")
def verdicts(copy):
    """The three defeats and the honest answer, each redefining ``predict``: one sandbox."""
    names = [*DEFEATS, "honest", "library-above"]
    calls, questions, cells = _predict_questions([*DEFEATS.values(), HONEST, LIBRARY_ABOVE])
    outcomes = evaluation.evaluate(cells, questions, sandbox.Limits(), 30)
    return {
        name: judge.judge(calls, outcomes[question.grade_id].records, 2.0)
        for name, question in zip(names, questions, strict=True)
    }


@pytest.mark.parametrize("way", sorted(DEFEATS))
def test_an_answer_that_defeats_the_tracing_finds_no_solution(verdicts, way):
    verdict = verdicts[way]
    assert verdict.score == 0 and verdict.passed == 0, verdict
    assert verdict.reason.startswith("refused: predict reached the library's") or (
        "the grader's copy of the library holds no solutions" in verdict.reason
    ), verdict


@pytest.mark.parametrize("way", ["honest", "library-above"])
def test_the_honest_answers_beside_them_keep_full_marks(verdicts, way):
    assert verdicts[way].score == 2.0 and verdicts[way].reason == "", verdicts[way]


def _in_copy(copy, code: str):
    """Run ``code`` (which prints JSON) with the copy first on the path; its output."""
    prelude = f"import sys\nsys.path.insert(0, {str(copy.parent)!r})\n"
    result = subprocess.run(
        [sys.executable, "-I", "-B", "-c", prelude + code],
        capture_output=True,
        text=True,
        check=False,
        cwd=copy.parent,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.splitlines()[-1])


def test_every_module_imports_from_the_copy_and_no_cache_is_in_it(copy):
    answer_free._check_imports(copy.parent, copy.name)  # raises if one does not
    assert not [
        p for p in copy.rglob("*") if "__pycache__" in p.parts or p.suffix in (".nbi", ".nbc")
    ]
    assert sorted(p.relative_to(copy) for p in copy.rglob("*.py")) == sorted(
        p.relative_to(answer_free.LIBRARY)
        for p in answer_free.LIBRARY.rglob("*.py")
        if "__pycache__" not in p.parts
    )


HELPERS = """
import json
import numpy as np
import perceptron_lib as pl
X = np.array([[3.0, 4.0], [0.0, 1.0], [-2.0, 0.5]])
found = {gate: pl.logic_gate(gate, n)[1].tolist() for gate in ("and", "or", "nand", "nor", "xor")
         for n in (1, 3)}
found["at_least_2_of_3"] = pl.at_least_m_of_n(2, 3)[1].tolist()
found["constant"] = pl.add_constant_feature(X).tolist()
found["radius"] = pl.lifted_radius(X)
found["file"] = pl.__file__
print(json.dumps(found))
"""


def test_the_permitted_helpers_give_the_real_library_results(copy):
    found = _in_copy(copy, HELPERS)
    assert found.pop("file").startswith(str(copy))
    real: dict = {}
    exec(HELPERS.replace("print(json.dumps(found))", ""), real)  # noqa: S102 - the real library
    expected = real["found"]
    expected.pop("file")
    assert found == json.loads(json.dumps(expected))


POISONED = """
import json
import perceptron_lib as pl
from perceptron_lib.exercises import ch01, ch09
found = {}
for name, call in [
    ("reference", lambda: ch01._reference_prediction([1.0], [1.0], 0.0)),
    ("checker", lambda: ch01.check_prediction(lambda w, x, b: 1)),
    ("estimator", lambda: pl.Perceptron().fit([[0.0], [1.0]], [-1, 1])),
    ("lifted_margin", lambda: pl.lifted_margin([1.0], 0.0, [[1.0]], [1])),
]:
    try:
        call()
        found[name] = "ran"
    except RuntimeError as error:
        found[name] = str(error)
found["three_groups"] = ch09.THREE_GROUPS["x"].tolist()
found["doc"] = ch01.check_prediction.__doc__
print(json.dumps(found))
"""


def test_the_copy_raises_in_place_of_a_solution_and_keeps_the_data(copy):
    found = _in_copy(copy, POISONED)
    assert found.pop("doc") is None  # the checkers' examples hold answers
    from perceptron_lib.exercises import ch09

    assert found.pop("three_groups") == ch09.THREE_GROUPS["x"].tolist()
    for name, message in found.items():
        assert message.startswith("the grader's copy of the library holds no solutions: "), name
    assert "perceptron_lib.exercises.ch01._reference_prediction cannot" in found["reference"]


def _solutions() -> dict[str, str]:
    """The library's answers to the exercises: each checker's reference, and what it forbids.

    The references (``_reference_prediction``) and the library functions a
    chapter's checker module holds under a ``_library_`` name or in a list of
    answers a student may not call (``_LIBRARY_ANSWERS``, ``refuse_calls``).
    """
    import importlib
    import pkgutil

    from perceptron_lib import exercises

    found = {}
    for info in pkgutil.iter_modules(exercises.__path__):
        if not info.name.startswith("ch"):
            continue
        module = importlib.import_module(f"perceptron_lib.exercises.{info.name}")
        for name, value in vars(module).items():
            values = value if isinstance(value, tuple) and name.isupper() else (value,)
            for item in values:
                if callable(item) and (
                    name.startswith(("_reference", "_library", "_step_answers"))
                    or name.endswith("_ANSWERS")
                ):
                    item = getattr(item, "py_func", item)
                    found[f"{item.__module__}.{item.__qualname__}"] = f"{info.name}.{name}"
    found["perceptron_lib.loops.viterbi.viterbi"] = "ch09 refuse_calls"
    found["perceptron_lib.theory.kesler.kesler_lift"] = "ch09 refuse_calls"
    return found


def test_the_copy_keeps_no_solution_but_one_permitted_helper(copy):
    kept = answer_free.kept(copy)
    names = set(kept["helpers"]) | set(kept["at_import"])
    solutions = _solutions()
    assert len(solutions) > 20, solutions  # the references of nine chapters
    # lifted_radius is the R of chapter 5's lifted_quantities (refused there), and a
    # permitted helper of its bound_with_deviations: the copy keeps it for that one.
    assert {n for n in names if n in solutions} == {
        "perceptron_lib.theory.convergence.lifted_radius"
    }
    print("kept:", json.dumps(kept, indent=1))


SEEN = """import glob
import os

import perceptron_lib.exercises.ch01 as _c

grader = sorted(os.listdir("/opt/grading"))
with open(_c.__file__) as _file:
    solution = "_library_activation(np.asarray" in _file.read()
caches = sorted(glob.glob(os.path.dirname(_c.__file__) + "/../**/*.nb[ic]", recursive=True))
numba = os.environ.get("NUMBA_CACHE_DIR", "/nowhere")
caches += sorted(glob.glob(numba + "/**/*", recursive=True))
"""


def test_the_fresh_sandbox_sees_the_copy_three_grader_files_and_no_cache(copy):
    names = ("grader", "solution", "caches")
    question = evaluation.Question(
        "seen", 1, "ch07", "check_lifted_xor_weights", "grader", [], [0], names, 0
    )
    (outcome,) = evaluation.evaluate([SEEN, ""], [question], sandbox.Limits(), 30).values()
    (record,) = [r for r in outcome.records if "values" in r]
    assert record["values"] == {
        "grader": sorted(evaluation.PROBE_FILES),
        "solution": False,
        "caches": [],
    }
    assert record["reached"] == {}  # reading a file is no call of the library


POLY2 = """import numpy as np


def poly2_features(x):
    x = np.asarray(x, dtype=float)
    first, second = np.triu_indices(len(x), k=1)
    return np.concatenate([[1.0], np.sqrt(2) * x, x**2, np.sqrt(2) * x[first] * x[second]])
"""


def test_a_checker_that_wraps_the_answer_is_rebuilt_without_the_checker(copy):
    """Chapter 7's checker calls its own feature_dot of poly2_features: sent as source."""
    calls = judge.checker_calls("ch07", "check_poly2_features", "poly2_features")
    assert calls[0].wrapper["name"] == "feature_dot", calls[0].wrapper
    for answer, score in ((POLY2, 2.0), (POLY2.replace("[[1.0], ", "[[0.0], "), 0.0)):
        question = evaluation.Question(
            "poly2",
            1,
            "ch07",
            "check_poly2_features",
            "poly2_features",
            evaluation.cases_of(calls),
            [0],
        )
        outcomes = evaluation.evaluate([answer, ""], [question], sandbox.Limits(), 30)
        verdict = judge.judge(calls, outcomes["poly2"].records, 2.0)
        assert verdict.score == score, verdict
    assert "feature_dot(x=" in verdict.reason and "should return" in verdict.reason, verdict
