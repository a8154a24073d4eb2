"""Forged grades: results written by the notebook, and answers that reach the library's own.

One chapter-1 class is graded once, as ``make grade`` grades it (issue 33,
items 1 and 2). Its students answer ``predict`` (2 points):

- ``forger`` writes the grader's results file itself, in the protocol's
  format, with the library's values on the cases it reads from the sandbox,
  and hands in a ``predict`` that returns 0 (never right);
- ``prewriter`` writes lines that claim -1 for every case ahead of the
  grader's, and hands in ``predict`` that always returns 1 (right on some);
- ``wrapper``, whose ``predict`` calls the checker's reference through a
  helper object;
- ``honest``, the answer key (NumPy and the student's own ``activation``);
- ``gate-fitter``, the answer key but for the gates (a value question), whose
  weights are learnt by the library's estimator.

Each forger earns exactly what its honest work earns; the wrapper is refused
with a reason; the honest one keeps full marks. The seven ways of reaching the
library's implementation of ``predict`` (an alias, a helper object, a default
argument, the checker's own reference function, ``vote``, an estimator, a
compiled loop; each gets full marks from the checker itself) and a permitted
helper (chapter 5's ``add_constant_feature``) are tried on the fresh sandbox
alone (:mod:`grading.evaluation`), without running whole notebooks: one
sandbox for all seven and an honest answer. So are three value answers of
chapters 7 and 9 computed by the library (an estimator, the checker's own
reference, the multiclass estimator), one copied from an earlier answer cell,
and two honest ones (by hand; with the permitted truth table): one sandbox.
"""

from __future__ import annotations

import contextlib
import csv
import importlib
import io
import sys
import time

import nbformat
import pytest
from test_grading_hostile import ALWAYS_ONE, PREDICT, _answer_cell
from toc import ROOT

sys.path.insert(0, str(ROOT / "scripts"))
from grading import (  # noqa: E402
    evaluation,
    grades,
    judge,
    nbgrader_course,
    sample_submissions,
    sandbox,
    submission,
)

from perceptron_lib.exercises import ExerciseFailure, refuse_calls  # noqa: E402

# Today's protocol: cases in cases.json, results appended to out/results.jsonl.
FORGER = """import json, sys
try:
    sys.path.insert(0, "/opt/grading")
    from codec import decode, encode
    from perceptron_lib.exercises import ch01 as _c

    _calls = json.load(open("cases.json"))["ex-ch1-predict"]
    with open("out/results.jsonl", "a") as _file:
        for _n, _call in enumerate(_calls):
            for _i, _case in enumerate(_call):
                _args = decode(_case)
                try:
                    _result = {"returned": encode(_c._reference_prediction(*_args)),
                               "after": encode(list(_args))}
                except Exception as _error:
                    _result = {"raised": [k.__name__ for k in type(_error).__mro__]}
                _record = {"question": "ex-ch1-predict", "call": _n, "case": _i, **_result}
                _file.write(json.dumps(_record) + "\\n")
except Exception:
    pass


def predict(w, x, b):
    return 0
"""
# Lines for every case index that a later, honest record would lose to.
PREWRITER = f"""import json, os
os.makedirs("out", exist_ok=True)
with open("out/results.jsonl", "a") as _file:
    for _i in range(100):
        _record = {{"question": "ex-ch1-predict", "call": 0, "case": _i,
                   "returned": -1, "after": []}}
        _file.write(json.dumps(_record) + "\\n")


def predict(w, x, b):
{ALWAYS_ONE}"""

REFERENCE = "from perceptron_lib.exercises import ch01 as _c\n\n\n"
# Answers that reach the library's predict: (the answer cell, the function reached).
REACHING = {
    "alias": (
        "from perceptron_lib.exercises.ch01 import _reference_prediction as decide\n\n\n"
        "def predict(w, x, b):\n    return decide(w, x, b)\n",
        "_reference_prediction",
    ),
    "wrapper": (
        REFERENCE + "class _Helper:\n    def __call__(self, *args):\n"
        "        return _c._reference_prediction(*args)\n\n\n_helper = _Helper()\n\n\n"
        "def predict(w, x, b):\n    return _helper(w, x, b)\n",
        "_reference_prediction",
    ),
    "default": (
        REFERENCE + "def predict(w, x, b, _decide=_c._reference_prediction):\n"
        "    return _decide(w, x, b)\n",
        "_reference_prediction",
    ),
    "reference": (
        REFERENCE + "def predict(w, x, b):\n    return _c._reference_prediction(w, x, b)\n",
        "_reference_prediction",
    ),
    "vote": (
        "import numpy as np\nfrom perceptron_lib.theory.averaging import vote as _v\n\n\n"
        "def predict(w, x, b):\n"
        "    score = _v([np.asarray(w, float)], [float(b)], [1], [np.asarray(x, float)])\n"
        "    return 1 if score[0] > 0 else -1\n",
        "averaging.vote",
    ),
    "estimator": (
        "import numpy as np\nimport perceptron_lib as _pl\n\n\n"
        "def predict(w, x, b):\n"
        "    model = _pl.Perceptron().fit(np.eye(2), np.array([1, -1]))\n"
        "    model.coef_, model.intercept_ = np.asarray(w, float), float(b)\n"
        "    model.n_features_in_ = len(w)\n"
        "    return int(model.predict(np.asarray([x], float))[0])\n",
        "perceptron_lib._online.OnlineLinearClassifier",  # Perceptron's own methods' class
    ),
    "compiled": (
        "import numpy as np\nimport perceptron_lib.loops.plain as _loops\n\n\n"
        "def predict(w, x, b):\n"
        "    a = _loops.activation(np.asarray(w, float), float(b), np.asarray(x, float))\n"
        "    return 1 if a > 0 else -1\n",
        "plain.activation",
    ),
}


GATES = "ex-ch1-gates"
# Chapter 1's value question ("Three more gates"): the weights and thresholds
# learnt by the library's estimator on each truth table, not found by hand.
GATES_BY_THE_ESTIMATOR = """import itertools
import numpy as np
import perceptron_lib as pl


def _unit(rule, n):
    X = np.array(list(itertools.product([0, 1], repeat=n)), dtype=float)
    y = np.array([1 if rule(*x) else -1 for x in X])
    model = pl.Perceptron().fit(X, y)
    return model.coef_.tolist(), float(-model.intercept_)


and_not = _unit(lambda a, b: a and not b, 2)
two_of_three = _unit(lambda a, b, c: a + b + c >= 2, 3)
implies = _unit(lambda a, b: (not a) or b, 2)
"""


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    root = tmp_path_factory.mktemp("forgery")
    course, out = root / "course", root / "class"
    (chapter,) = sorted((ROOT / "book").glob("01_*.ipynb"))
    nbgrader_course.main(str(course), str(chapter))
    (source_path,) = (course / "source" / "ch01").glob("*.ipynb")
    source = nbformat.read(source_path, as_version=4)
    release = nbformat.read(course / "release" / "ch01" / source_path.name, as_version=4)
    # One answer reaching the library goes through make grade; all of them are
    # tried in one fresh sandbox below (test_each_way_of_reaching_the_library_is_refused).
    answers = {"forger": FORGER, "prewriter": PREWRITER, "wrapper": REACHING["wrapper"][0]}
    answers["honest"] = answers["gate-fitter"] = None
    for student, answer in answers.items():
        notebook = sample_submissions.answer_key(source, release)
        if answer is not None:
            _answer_cell(notebook, f"{PREDICT}-answer").source = answer
        if student == "gate-fitter":  # a value answer computed by the library's estimator
            _answer_cell(notebook, f"{GATES}-answer").source = GATES_BY_THE_ESTIMATOR
        sample_submissions.write(notebook, out / student / "ch01" / source_path.name)
    start = time.perf_counter()
    grades.main(str(course), str(out))
    seconds = time.perf_counter() - start
    print(f"graded {len(answers)} notebooks in {seconds:.1f} s")
    with open(course / grades.GRADES_FILE, newline="", encoding="utf-8") as file:
        table = {(r["student"], r["question"]): r for r in csv.DictReader(file)}
    return course, table


def _always_one_score(student: str) -> tuple[float, int, int]:
    """What ``return 1`` earns on ``student``'s cases (public and hidden)."""
    calls = judge.checker_calls("ch01", "check_prediction", "predict")
    cases = []
    for number, call in enumerate(calls):
        call.hidden = judge.hidden_cases(call, f"{student}\0ch01\0{PREDICT}\0{number}")
        cases += [(call, case) for case in call.cases + call.hidden]
    right = sum(judge._outcome(call.reference, case)[1] == 1 for call, case in cases)
    return int(2 * right / len(cases) * 100) / 100, right, len(cases)


def test_a_forged_results_file_earns_what_the_function_earns(graded):
    _, table = graded
    row = table["forger", PREDICT]
    assert row["score"] == "0", row
    assert "predict(w=[0.0], x=[0.0], b=0.0) returned 0 but should return -1" in row["reason"]


def test_lines_written_ahead_of_the_grader_count_for_nothing(graded):
    _, table = graded
    expected, right, total = _always_one_score("prewriter")
    row = table["prewriter", PREDICT]
    assert 0 < expected < 2 and float(row["score"]) == expected, (row, expected)
    assert f"{right} of {total} checks passed" in row["reason"], row


def test_an_answer_reaching_the_library_is_refused_in_grades_csv(graded):
    _, table = graded
    row = table["wrapper", PREDICT]
    assert row["score"] == "0", row
    assert "refused: predict reached the library's" in row["reason"], row
    assert "_reference_prediction" in row["reason"], row
    assert table["wrapper", "ex-ch1-activation"]["score"] == "2"


def _predict_questions(answers: list[str]) -> tuple[list, list, list]:
    """Chapter 1's ``predict`` asked once per answer cell, all in one fresh sandbox."""
    calls = judge.checker_calls("ch01", "check_prediction", "predict")
    for number, call in enumerate(calls):
        call.hidden = judge.hidden_cases(call, f"evasions\0ch01\0{PREDICT}\0{number}")
    questions = [
        evaluation.Question(
            f"q{n}",
            2 * n + 1,
            "ch01",
            "check_prediction",
            "predict",
            evaluation.cases_of(calls),
            [2 * n],
        )
        for n in range(len(answers))
    ]
    cells = [source for answer in answers for source in (answer, "")]
    return calls, questions, cells


@pytest.fixture(scope="module")
def evasions():
    """Each answer of REACHING, then the honest one, each redefining ``predict`` in turn."""
    honest = (
        "import numpy as np\n\n\ndef predict(w, x, b):\n"
        "    return 1 if np.dot(np.asarray(w, float), np.asarray(x, float)) + b > 0 else -1\n"
    )
    names = sorted(REACHING)
    calls, questions, cells = _predict_questions([REACHING[n][0] for n in names] + [honest])
    start = time.perf_counter()
    outcomes = evaluation.evaluate(cells, questions, sandbox.Limits(), 30)
    print(f"{len(questions)} answers in one fresh sandbox: {time.perf_counter() - start:.1f} s")
    verdicts = {
        name: judge.judge(calls, outcomes[question.grade_id].records, 2.0)
        for name, question in zip([*names, "honest"], questions, strict=True)
    }
    return verdicts


@pytest.mark.parametrize("student", sorted(REACHING))
def test_each_way_of_reaching_the_library_is_refused(evasions, student):
    verdict = evasions[student]
    assert verdict.score == 0, verdict
    assert verdict.reason.startswith("refused: predict reached the library's"), verdict
    assert REACHING[student][1] in verdict.reason, verdict


def test_an_honest_numpy_answer_beside_them_keeps_full_marks(evasions):
    assert evasions["honest"].score == 2.0 and evasions["honest"].reason == "", evasions["honest"]


def test_a_value_answer_computed_by_the_library_is_refused_in_grades_csv(graded):
    _, table = graded
    row = table["gate-fitter", GATES]
    assert row["score"] == "0", row
    assert row["reason"].startswith(
        "refused: before and_not, two_of_three, implies were read, cell"
    )
    assert "_online.OnlineLinearClassifier" in row["reason"], row
    assert table["gate-fitter", PREDICT]["score"] == "2"  # the rest is the answer key's


def test_the_honest_answer_keeps_full_marks(graded):
    course, table = graded
    for question in (PREDICT, "ex-ch1-activation", GATES):
        assert table["honest", question]["score"] == "2", table["honest", question]
    # What the test cell shows in the feedback: the recording, and nothing of the cases.
    (executed,) = (course / "sandbox" / "honest" / "ch01").glob("*.ipynb")
    text = "".join(
        output.get("text", "")
        for cell in nbformat.read(executed, as_version=4).cells
        if cell.metadata.get("nbgrader", {}).get("grade_id") == PREDICT
        for output in cell.get("outputs", [])
    )
    assert text.startswith("The results of check_prediction were recorded"), text


def test_the_notebook_never_sees_the_hidden_cases(graded):
    course, _ = graded
    (executed,) = (course / "sandbox" / "forger" / "ch01").glob("*.ipynb")
    notebook = nbformat.read(executed, as_version=4)
    assert submission.ELSEWHERE in "".join(cell.source for cell in notebook.cells)
    assert sandbox.own_groups() == []


# Value answers (chapters 7 and 9), each computed by the library's implementation
# of what its exercise asks: (checker's module, checker, names, answer cell, what is reached).
VALUE_REACHING = {
    "estimator": (
        "ch07",
        "check_lifted_xor_weights",
        ("w", "b"),
        "import numpy as np\nimport perceptron_lib as pl\n\n"
        "X, y = pl.logic_gate('xor')\n"
        "model = pl.Perceptron().fit(np.column_stack([X, X[:, 0] * X[:, 1]]), y)\n"
        "w, b = model.coef_.tolist(), float(model.intercept_)\n",
        "_online.OnlineLinearClassifier",  # Perceptron's own methods' class
    ),
    "reference": (
        "ch09",
        "check_multiclass_step",
        ("scores", "rival", "W_new"),
        "from perceptron_lib.exercises import ch09\n\n"
        "_e = ch09.STEP_EXAMPLE\n"
        "scores, rival, W_new = ch09._step_answers(_e['W'], _e['z'], _e['c'])\n",
        "_step_answers",
    ),
    "multiclass": (
        "ch09",
        "check_three_group_weights",
        ("W",),
        "import numpy as np\nfrom perceptron_lib import MulticlassPerceptron\n"
        "from perceptron_lib.exercises.ch09 import THREE_GROUPS as _g\n\n"
        "_m = MulticlassPerceptron().fit(_g['x'].reshape(-1, 1), _g['y'])\n"
        "W = np.column_stack([_m.intercept_, _m.coef_[:, 0]]).tolist()\n",
        "MulticlassPerceptron",
    ),
}
# Honest value answers: by hand, one with a permitted helper (the truth table).
VALUE_HONEST = {
    "by-hand": (
        "ch07",
        "check_lifted_xor_weights",
        ("w", "b"),
        "w = [1.0, 1.0, -2.0]\nb = -0.5\n",
    ),
    "helper": (
        "ch07",
        "check_lifted_xor_weights",
        ("w", "b"),
        "import numpy as np\nfrom perceptron_lib import logic_gate\n\n"
        "X, y = logic_gate('xor')\nw, b = np.array([1.0, 1.0, -2.0]), -0.5\n"
        "assert np.all(y * (np.column_stack([X, X[:, 0] * X[:, 1]]) @ w + b) > 0)\n",
    ),
}
# A value learnt by the library in an earlier answer cell, copied in the answer cell.
SMUGGLED = (
    "import numpy as np\nimport perceptron_lib as pl\n\n"
    "_X, _y = pl.logic_gate('xor')\n"
    "_model = pl.Perceptron().fit(np.column_stack([_X, _X[:, 0] * _X[:, 1]]), _y)\n",
    "w, b = _model.coef_.tolist(), float(_model.intercept_)\n",
)


def _value_right(module: str, checker: str, source: str, names: tuple) -> bool:
    """Does the chapter's checker accept the values ``source`` assigns (as today's grader did)?"""
    namespace: dict = {}
    exec(source, namespace)  # noqa: S102 - the test's own answer cells
    checks = importlib.import_module(f"perceptron_lib.exercises.{module}")
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            getattr(checks, checker)(*(namespace[name] for name in names))
    except ExerciseFailure:
        return False
    return True


@pytest.fixture(scope="module")
def value_evasions():
    """The honest value answers, then each of VALUE_REACHING, then SMUGGLED: one sandbox."""
    answers = [*VALUE_HONEST.values(), *VALUE_REACHING.values()]
    cells, questions = [], []
    for n, (module, checker, names, source, *_) in enumerate(answers):
        cells += [source, ""]
        questions.append(
            evaluation.Question(
                f"v{n}", 2 * n + 1, module, checker, names[0], [], [2 * n], names, 2 * n
            )
        )
    module, checker, names, *_ = VALUE_REACHING["estimator"]
    start = len(cells)
    cells += [SMUGGLED[0], SMUGGLED[1], ""]
    questions.append(
        evaluation.Question(
            "smuggled",
            start + 2,
            module,
            checker,
            names[0],
            [],
            [start, start + 1],
            names,
            start + 1,
        )
    )
    outcomes = evaluation.evaluate(cells, questions, sandbox.Limits(), 30)
    keys = [*VALUE_HONEST, *VALUE_REACHING, "smuggled"]
    answers.append(VALUE_REACHING["estimator"])
    return {
        key: judge.judge_values(
            module, checker, list(names), {}, outcomes[question.grade_id].records, 2.0
        )
        for key, question, (module, checker, names, *_) in zip(
            keys, questions, answers, strict=True
        )
    }


@pytest.mark.parametrize("way", sorted(VALUE_REACHING))
def test_a_value_computed_by_the_library_is_refused(value_evasions, way):
    module, checker, names, source, reached = VALUE_REACHING[way]
    assert _value_right(module, checker, source, names)  # full marks from the checker itself
    verdict = value_evasions[way]
    assert verdict.score == 0 and verdict.reason.startswith("refused: before"), verdict
    assert reached in verdict.reason, verdict


def test_a_value_learnt_in_an_earlier_answer_cell_is_refused(value_evasions):
    verdict = value_evasions["smuggled"]
    assert verdict.score == 0 and "_online.OnlineLinearClassifier" in verdict.reason, verdict
    assert verdict.reason.startswith("refused: before w, b were read, cell "), verdict


@pytest.mark.parametrize("way", sorted(VALUE_HONEST))
def test_honest_values_keep_full_marks(value_evasions, way):
    assert value_evasions[way].score == 2.0 and value_evasions[way].reason == "", value_evasions[
        way
    ]


# Answers that defeat the tracing from inside its process, each then returning the
# library's own prediction: (the answer cell, what the reason names).
LIBRARY_PREDICTION = "_c._reference_prediction(w, x, b)"
DEFEATS = {
    # The tracer's own record, emptied after the library was called (no ctypes).
    "record": (
        "import sys\n" + REFERENCE + "def predict(w, x, b):\n    tracer = sys.getprofile()\n"
        f"    result = {LIBRARY_PREDICTION}\n"
        "    tracer.reached.clear()\n    tracer.tampered.clear()\n    return result\n",
        "sys.getprofile",
    ),
    "ctypes": (
        "import ctypes\n" + REFERENCE + "def predict(w, x, b):\n"
        "    ctypes.pythonapi.PyEval_SetProfile(None, None)\n"
        f"    return {LIBRARY_PREDICTION}\n",
        "ctypes.",
    ),
    "setprofile": (
        "import sys\n" + REFERENCE + "def predict(w, x, b):\n    sys.setprofile(None)\n"
        f"    return {LIBRARY_PREDICTION}\n",
        "sys.setprofile",
    ),
    "subprocess": (
        "import subprocess, sys\n\n\ndef predict(w, x, b):\n"
        "    code = ('from perceptron_lib.exercises.ch01 import _reference_prediction as f; '\n"
        "            f'print(f({list(w)!r}, {list(x)!r}, {float(b)!r}))')\n"
        "    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True)\n"
        "    return int(out.stdout)\n",
        "subprocess.Popen",
    ),
    "system": (
        "import os\n\n\ndef predict(w, x, b):\n    os.system('true')\n"
        "    return 1 if sum(a * c for a, c in zip(w, x)) + b > 0 else -1\n",
        "os.system",
    ),
    "write": (  # the process's own memory, as a file: a way to rewrite the grader
        "def predict(w, x, b):\n    with open('/proc/self/mem', 'r+b') as file:\n"
        "        file.seek(0)\n"
        "    return 1 if sum(a * c for a, c in zip(w, x)) + b > 0 else -1\n",
        "a file written outside",
    ),
    "cffi": (
        "def predict(w, x, b):\n    import cffi  # noqa: F401\n"
        "    return 1 if sum(a * c for a, c in zip(w, x)) + b > 0 else -1\n",
        "import cffi",
    ),
}
# Honest answers beside them: NumPy, and matplotlib drawn in the answer cell.
PLOTTING = (
    "import matplotlib.pyplot as plt\nimport numpy as np\n\n"
    "fig, ax = plt.subplots()\nax.plot([0, 1], [1, 0])\n"
    "fig.savefig('line.png')\nplt.close(fig)\n\n\n"
    "def predict(w, x, b):\n"
    "    return 1 if np.dot(np.asarray(w, float), np.asarray(x, float)) + b > 0 else -1\n"
)


@pytest.fixture(scope="module")
def defeats():
    """The honest answers, then each of DEFEATS, each redefining ``predict``: one sandbox."""
    names = sorted(DEFEATS)
    honest = PLOTTING.split("fig, ax")[0] + PLOTTING.split("plt.close(fig)\n")[1]
    # A figure saved in the sandbox's own /tmp, in the answer cell and by the function.
    in_tmp = PLOTTING.replace("'line.png'", "'/tmp/line.png'").replace(
        "def predict(w, x, b):\n",
        "def predict(w, x, b):\n    with open('/tmp/notes.txt', 'a') as notes:\n"
        "        notes.write(repr(w))\n",
    )
    calls, questions, cells = _predict_questions(
        [honest, PLOTTING, in_tmp] + [DEFEATS[n][0] for n in names]
    )
    outcomes = evaluation.evaluate(cells, questions, sandbox.Limits(), 30)
    keys = ["numpy", "plotting", "tmp", *names]
    return {
        key: judge.judge(calls, outcomes[question.grade_id].records, 2.0)
        for key, question in zip(keys, questions, strict=True)
    }


@pytest.mark.parametrize("way", sorted(DEFEATS))
def test_each_way_of_defeating_the_tracing_is_refused(defeats, way):
    verdict = defeats[way]
    assert verdict.score == 0, verdict
    assert verdict.reason.startswith("refused: while it was graded, predict changed"), verdict
    assert f"({DEFEATS[way][1]}" in verdict.reason, verdict
    assert verdict.reason.endswith("Ask the instructor to read it"), verdict


@pytest.mark.parametrize("way", ["numpy", "plotting", "tmp"])
def test_honest_answers_beside_the_defeats_keep_full_marks(defeats, way):
    assert defeats[way].score == 2.0 and defeats[way].reason == "", defeats[way]


LIFTED = """import numpy as np
from perceptron_lib import add_constant_feature


def lifted_quantities(X, y, w, b):
    scores = y * (X @ w + b)
    if np.any(scores <= 0):
        raise ValueError("not a separator")
    R = np.max(np.linalg.norm(add_constant_feature(X), axis=1))
    gamma = scores.min() / np.sqrt(w @ w + b * b)
    return R, gamma, (R / gamma) ** 2
"""
LIFTED_BY_THE_LIBRARY = """import perceptron_lib as pl


def lifted_quantities(X, y, w, b, _r=pl.lifted_radius, _m=pl.lifted_margin):
    R, gamma = _r(X), _m(X, y, w, b)
    return R, gamma, (R / gamma) ** 2
"""


@pytest.mark.parametrize(
    ("answer", "score", "reason"),
    [
        (LIFTED, 2.0, ""),
        (LIFTED_BY_THE_LIBRARY, 0.0, "lifted_radius"),
    ],
    ids=["permitted-helper", "library-by-default-argument"],
)
def test_permitted_helpers_keep_full_credit(answer, score, reason):
    calls = judge.checker_calls("ch05", "check_lifted_quantities", "lifted_quantities")
    for number, call in enumerate(calls):
        call.hidden = judge.hidden_cases(call, f"helper\0ch05\0q\0{number}")
    question = evaluation.Question(
        "ex-ch5-lifted",
        1,
        "ch05",
        "check_lifted_quantities",
        "lifted_quantities",
        evaluation.cases_of(calls),
        [0],
    )
    outcomes = evaluation.evaluate([answer, ""], [question], sandbox.Limits(), 30)
    verdict = judge.judge(calls, outcomes[question.grade_id].records, 2.0)
    assert verdict.score == score and reason in verdict.reason, verdict
    assert sandbox.own_groups() == []


def test_refuse_calls_follows_default_arguments():
    import perceptron_lib as pl

    def answer(X, _radius=pl.lifted_radius):
        return _radius(X)

    with pytest.raises(ExerciseFailure, match="lifted_radius"):
        refuse_calls(answer, [pl.lifted_radius], name="R")


def test_values_recorded_twice_are_not_graded():
    """The fresh sandbox sends one record per value question: two are not graded."""
    right = {"question": "q", "values": {"w": [1.0, 1.0, -2.0], "b": -0.5}}
    once = judge.judge_values("ch07", "check_lifted_xor_weights", ["w", "b"], {}, [right], 2.0)
    assert once.score == 2.0, once
    wrong = {"question": "q", "values": {"w": [1.0, 1.0, 0.0], "b": -0.5}}
    twice = judge.judge_values(
        "ch07", "check_lifted_xor_weights", ["w", "b"], {}, [right, wrong], 2.0
    )
    assert twice.score == 0 and "recorded 2 times" in twice.reason, twice
