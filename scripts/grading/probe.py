"""Inside a fresh sandbox: define the student's functions and call them on the grader's cases.

Run as ``python probe.py`` by :mod:`grading.evaluation`, after the notebook
itself ran (in another sandbox, :mod:`grading.runner`). This process starts
with no student code in it: it sets up its tracing first, then executes only
the notebook's import statements and its answer cells (the functions'
definitions), then calls each graded function once per call the chapter's
checker makes (the grader says how many), one case at a time, on cases it
receives from the grader over its standard input. No checker runs here: the
library this process imports is its answer-free copy
(:mod:`grading.answer_free`), where the checkers, their references and every
other solution raise instead of running. Each reply goes back over its standard
output and must carry the one-time number (nonce) the grader sent with that
case: nothing written before a case was sent (a line prepared by an answer
cell, a file) can count for it. The student's prints go elsewhere (counted, and
shown in the test cell's output by the grader). No reference runs here and no
hidden case is ever on disk: the grader compares, outside.

While a graded function runs, a profile function (:class:`Tracer`) notes every
function of the library entered directly from code that is not the library's
(the student's, or NumPy's on the student's behalf): an alias, a helper, a
default argument, a checker's reference function, ``vote``, an estimator's
method, a compiled loop (wrapped here in a Python function, since numba's
dispatcher has no Python frame). The grader refuses such an answer unless the
function is one of the exercise's permitted helpers (``PERMITTED_HELPERS`` in
the chapter's checker module). It also notes an answer that switches the
tracing off or starts a process or a thread that escapes it. An audit hook
(:mod:`grading.guard`), added before any student code and never removable,
refuses ``ctypes``, replacing the tracing, processes and writes outside the
folder, and keeps what the tracer noted out of the student's reach. Both give
the reasons; the copy is the wall behind them: an answer that defeats them
still finds no solution to run.

A value question (an answer cell that assigns numbers) is recorded here too:
every answer cell runs traced, and the values are read once the cells above
the question's test cell have run. A cell that reached the library (beyond the
permitted helpers) before the values were read is named with what it reached;
the grader runs the checker on the values outside, or refuses them.
"""

from __future__ import annotations

import ast
import copy
import functools
import importlib
import io
import json
import os
import pkgutil
import signal
import sys
import threading
import time
import types

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from codec import decode, encode  # noqa: E402
from guard import install  # noqa: E402

MAX_RECORD = 1_000_000  # characters of one case's results
MAX_PRINTED = 20_000_000  # characters of a question's prints kept for its test cell
ALARM_SECONDS = 30  # a question's cases, in all, before KeyboardInterrupt (a time-out)
STUDENT = "<cell "  # the file name the student's cells are compiled under
# How a function of the library's answer-free copy fails (grading.answer_free.poisoned_body).
NO_SOLUTION = "the grader's copy of the library holds no solutions: "
# The builtins among the escapes that only look (at the tracing, at frames, at objects).
LOOKING = {
    "sys.getprofile",
    "sys.gettrace",
    "sys._getframe",
    "gc.get_objects",
    "gc.get_referrers",
    "gc.get_referents",
}


# The library's code that holds no answer: a module's body, run when an answer cell
# imports it, and a module's own look-ups (perceptron_lib imports its figure
# functions on first use).
_NO_ANSWER = {"<module>", "__getattr__", "__dir__"}


class Tracer:
    """The profile function: which library functions the student's code entered.

    ``library`` is the library's folder; a call counts when the function
    entered is the library's and the frame that called it is neither the
    library's (the library calling itself) nor this file's (the probe).
    ``permitted`` holds the code objects of the exercise's permitted helpers.
    """

    def __init__(self, library: str, escapes: dict):
        self.library = library.rstrip(os.sep) + os.sep
        self.here = os.path.abspath(__file__)
        self.escapes = escapes  # id(builtin) -> its name: never expected from an answer
        self.permitted: set = set()
        self.window = False  # a graded function is running
        self.cell = False  # an answer cell is running: its calls into the library count too
        self.reached: list[str] = []
        self.tampered: list[str] = []

    def _ours(self, code) -> bool:
        return code.co_filename.startswith(self.library) or code.co_filename == self.here

    def __call__(self, frame, event, arg):
        if event == "c_call":
            name = self.escapes.get(id(arg))
            if name is None:
                return
            # Called by the student's own lines, at any time; the ones that act (not
            # the ones that look, which the standard library uses too: namedtuple
            # calls sys._getframe) also by any code but the library's while graded.
            if frame.f_code.co_filename.startswith(STUDENT) or (
                self.window and name not in LOOKING and not self._ours(frame.f_code)
            ):
                self._note(self.tampered, name)
                sys.audit("grading.tampered", name)  # kept by the guard, out of reach
            return
        if event != "call" or not (self.window or self.cell):
            return
        code = frame.f_code
        if not code.co_filename.startswith(self.library) or code in self.permitted:
            return
        if code.co_qualname in _NO_ANSWER:
            return
        caller = frame.f_back
        if caller is None or self._ours(caller.f_code):
            return
        module = frame.f_globals.get("__name__", "?")
        self._note(self.reached, f"{module}.{code.co_qualname}")

    @staticmethod
    def _note(found: list, name: str) -> None:
        if name not in found:
            found.append(name)


def _escapes() -> dict:
    """The builtins an answer never needs: the tracing, the grader's frames, processes, threads."""
    import _thread
    import gc

    found = {}
    for owner, names in (
        (sys, ("setprofile", "settrace", "getprofile", "gettrace", "_getframe")),
        (gc, ("get_objects", "get_referrers", "get_referents")),
        (threading, ("setprofile", "settrace")),
        (_thread, ("start_new_thread",)),
        (
            os,
            ("fork", "forkpty", "posix_spawn", "posix_spawnp", "system", "execv", "execve"),
        ),
        (os, ("write", "dup", "dup2", "kill")),
    ):
        for name in names:
            value = getattr(owner, name, None)
            if value is not None:
                found[id(value)] = f"{owner.__name__}.{name}"
    try:
        import _posixsubprocess

        found[id(_posixsubprocess.fork_exec)] = "subprocess (fork_exec)"
    except ImportError:  # pragma: no cover - not on Linux
        pass
    return found


def _wrap_compiled_loops(library_name: str) -> None:
    """Put a Python function in front of each of the library's numba dispatchers.

    A dispatcher is called from C, with no Python frame for the tracer to see;
    the wrapper has one, in this file, and the frame it calls from is the
    caller's, so the library calling its loops is the library, and an answer
    calling one is the answer. The wrappers are made before any student code
    runs, so every way of reaching a loop by its module goes through one.
    """
    try:
        from numba.core.dispatcher import Dispatcher
    except ImportError:  # no numba: the loops are Python functions, traced as such
        return
    loops = importlib.import_module(f"{library_name}.loops")
    for info in pkgutil.iter_modules(loops.__path__):  # every loop, before anyone imports one
        importlib.import_module(f"{loops.__name__}.{info.name}")
    for name, module in list(sys.modules.items()):
        if module is None or not (name == library_name or name.startswith(library_name + ".")):
            continue
        for attribute, value in list(vars(module).items()):
            if isinstance(value, Dispatcher):
                setattr(module, attribute, _loop_wrapper(value, module.__name__, attribute))


def _loop_wrapper(dispatcher, module: str, attribute: str):
    # Compiled under the library's file name, so the tracer counts it as the library's.
    name = attribute if attribute.isidentifier() else "loop"
    source = f"def {name}(*args, **kwargs):\n    return dispatcher(*args, **kwargs)\n"
    namespace = {"dispatcher": dispatcher, "__name__": module}
    exec(compile(source, dispatcher.py_func.__code__.co_filename, "exec"), namespace)  # noqa: S102
    loop = namespace[name]
    functools.update_wrapper(loop, dispatcher.py_func)
    loop.__module__ = module
    return loop


class _Printed(io.TextIOBase):
    """The student's prints: counted, the first MAX_PRINTED characters kept."""

    def __init__(self):
        self.parts, self.kept, self.count = [], 0, 0

    def writable(self):
        return True

    def write(self, text):
        text = str(text)
        self.count += len(text)
        if self.kept < MAX_PRINTED:
            part = text[: MAX_PRINTED - self.kept]
            self.parts.append(part)
            self.kept += len(part)
        return len(text)

    def take(self) -> tuple[str, int]:
        text, count = "".join(self.parts), self.count
        self.parts, self.kept, self.count = [], 0, 0
        return text, count


class _Channel:
    """JSON lines with the grader, on file descriptors the student's prints do not use."""

    def __init__(self):
        self.reader = os.fdopen(os.dup(0), "r", encoding="utf-8")
        self.writer = os.fdopen(os.dup(1), "w", encoding="utf-8")
        null = os.open(os.devnull, os.O_RDWR)
        os.dup2(null, 0)
        os.dup2(null, 1)

    def send(self, message: dict, limit: int = MAX_RECORD) -> None:
        line = json.dumps(message)
        if len(line) > limit:
            keep = ("question", "nonce", "reached", "tampered", "seconds")
            message = {k: v for k, v in message.items() if k in keep}
            message["too_large"] = len(line)
            line = json.dumps(message)
        self.writer.write(line + "\n")
        self.writer.flush()

    def receive(self) -> dict:
        line = self.reader.readline()
        if not line:
            raise SystemExit(0)  # the grader is gone
        return json.loads(line)


_TIMED_OUT: list = []  # set by the alarm: the KeyboardInterrupt was the grader's


def _alarm(signum, frame):
    _TIMED_OUT.append(True)
    raise KeyboardInterrupt  # the question's time is up: reported as a time-out


def _outcome(function, case, tracer: Tracer):
    arguments = copy.deepcopy(case)
    start = time.perf_counter()
    tracer.window = True
    try:
        if isinstance(arguments, dict):
            value = function(**arguments)
        else:
            value = function(*arguments)
    except BaseException as error:  # noqa: BLE001 - KeyboardInterrupt, SystemExit: reported
        tracer.window = False
        try:
            message = str(error)[:500]
        except BaseException:  # noqa: BLE001
            message = "?"
        return {
            "raised": [kind.__name__ for kind in type(error).__mro__],
            "message": message,
            "seconds": time.perf_counter() - start,
        }
    tracer.window = False
    return {
        "returned": encode(value),
        "after": encode(list(arguments) if isinstance(arguments, tuple) else arguments),
        "seconds": time.perf_counter() - start,
    }


class _Stop(Exception):
    """Stop a question (raised by the recorder only)."""


def _checker_namespace(spec: dict) -> dict:
    """The globals of a checker's own function of the student's (``feature_dot``), made early.

    ``spec`` is :func:`grading.judge.wrapper_source`'s: the function's source,
    and the modules it uses, imported here before any student code runs. The
    student's function is put in under its name once the answer cells have run
    (:func:`_checker_function`).
    """
    namespace = {"__name__": "grading.checker", "__builtins__": __builtins__}
    for name, module in spec["modules"].items():
        namespace[name] = importlib.import_module(module)
    return namespace


def _checker_function(spec: dict, namespace: dict, function):
    """The checker's function of ``function``, compiled under a name that is no file."""
    namespace[spec["student"]] = function
    exec(compile(spec["source"], f"<checker {spec['name']}>", "exec"), namespace)  # noqa: S102
    return namespace[spec["name"]]


def _helpers(names: list[str]) -> set:
    """The code objects of the permitted helpers named ``module:qualname`` (real in the copy)."""
    found = set()
    for name in names:
        module, _, qualname = name.partition(":")
        value = importlib.import_module(module)
        for part in qualname.split("."):
            value = getattr(value, part)
        found.add(getattr(value, "__code__", None))
    return found


def _python(source: str) -> str:
    """A cell's source without IPython's magics (``%matplotlib inline``, ``!pip``)."""
    if source.lstrip().startswith("%%"):
        return ""  # a cell magic: the whole cell is not Python
    return "\n".join(
        "pass  # " + line if line.lstrip().startswith(("%", "!")) else line
        for line in source.splitlines()
    )


def _names(sources: list[str]) -> set[str]:
    """Every name the given cells use."""
    names = set()
    for source in sources:
        try:
            tree = ast.parse(_python(source))
        except SyntaxError:
            continue
        names |= {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
    return names


def _imports(sources: list[str], used: set[str]) -> list[str]:
    """The notebook's top-level import statements that bind a name in ``used``, one by one.

    The others (plotting, widgets, the book's glue) would only cost seconds here.
    """
    found = []
    for source in sources:
        try:
            tree = ast.parse(_python(source))
        except SyntaxError:
            continue
        for node in tree.body:
            if not isinstance(node, ast.Import | ast.ImportFrom):
                continue
            bound = {(a.asname or a.name).split(".")[0] for a in node.names}
            if "*" in bound or bound & used:
                found.append(ast.unparse(node))
    return found


class _NoIPython:
    """``get_ipython()`` for an answer cell here: IPython is not running, nothing happens."""

    def __getattr__(self, name):
        return lambda *args, **kwargs: None


def _copys(error: BaseException) -> bool:
    """Was ``error`` raised by a function of the library's answer-free copy?"""
    return (
        type(error) is RuntimeError
        and len(error.args) == 1
        and isinstance(error.args[0], str)
        and error.args[0].startswith(NO_SOLUTION)
    )


def _run(source: str, namespace: dict, filename: str) -> str | None:
    """Execute one cell's source; the name of the first error it raised, if any.

    Statement by statement: a call of a function of the library's answer-free
    copy raises here where it ran in the notebook (a data set made at the top
    of an answer cell), so the cell goes on after that error, and the answer
    defined below it is still defined. Any other error stops the cell, as it
    stopped the notebook.
    """
    try:
        tree = ast.parse(_python(source), filename)
    except BaseException as error:  # noqa: BLE001 - a syntax error, or worse
        return type(error).__name__
    first = None
    for statement in tree.body:
        try:
            code = compile(ast.Module([statement], []), filename, "exec")
            exec(code, namespace)  # noqa: S102 - the student's
        except BaseException as error:  # noqa: BLE001 - a cell may raise anything
            first = first or type(error).__name__
            if not _copys(error):
                return first
    return first


def _tampered(tracer: Tracer, guard, before: list) -> list[str]:
    """What was done to the tracing or the process: this question's first, then earlier ones."""
    found = []
    for name in [*guard.refused, *tracer.tampered]:
        if name not in found:
            found.append(name)
    return [n for n in found if n not in before] + [n for n in found if n in before]


def _cell(source: str, number: int, namespace: dict, tracer: Tracer, helpers: set) -> dict:
    """Run one answer cell, traced: the library's functions it entered, and its error."""
    tracer.permitted, tracer.reached, tracer.cell = helpers, [], True
    try:
        raised = _run(source, namespace, f"{STUDENT}{number + 1}>")
    finally:
        tracer.cell = False
    return {"reached": tracer.reached, "raised": raised}


def _values(channel, question, namespace, tracer, printed, ran: dict, guard, before) -> None:
    """Send the values a value question names, as the answer cells above its test left them.

    With them: the library's functions each answer cell run so far entered
    (by the cell's number, from 1; the question's own answer cell first: a
    value computed in an earlier answer cell and copied is refused too), the
    error the question's own answer cell raised here, and what was done to the
    tracing.
    """
    record: dict = {"question": question["id"], "values": {}, "missing": []}
    for name in question["names"]:
        if name in namespace:
            record["values"][name] = encode(namespace[name])
        else:
            record["missing"].append(name)
    answer = question.get("answer")
    order = sorted(ran, key=lambda n: (n != answer, n))  # the question's own answer cell first
    record["reached"] = {str(n + 1): ran[n]["reached"] for n in order if ran[n]["reached"]}
    record["answer_raised"] = ran[answer]["raised"] if answer in ran else None
    record["tampered"] = _tampered(tracer, guard, before)
    record["profiled"] = sys.getprofile() is tracer
    channel.send(record)
    text, count = printed.take()
    channel.send(
        {"question": question["id"], "done": True, "printed": count, "printed_text": text},
        limit=MAX_PRINTED + MAX_RECORD,
    )


def _question(channel, question, namespace, tracer, printed, checker, seconds, guard, before):
    """Call the question's function on the grader's cases: one round per checker call.

    ``question["calls"]`` has one entry per ``check_function`` call the chapter's
    checker makes (the grader ran the checker, with the library, outside): the
    student's function is called on that call's cases, or the checker's own
    function of it (``checker``: the namespaces made by :func:`_checker_namespace`).
    """
    function = namespace.get(question["function"])

    def recorder(student_function):
        channel.send({"question": question["id"], "want": True})
        while True:
            message = channel.receive()
            if "case" not in message:
                return  # this call's cases are done
            tracer.reached = []  # per case; tampering, once seen, stays
            outcome = _outcome(student_function, decode(message["case"]), tracer)
            if _TIMED_OUT:
                outcome["timed_out"] = True
            channel.send(
                {
                    "nonce": message["nonce"],
                    **outcome,
                    "reached": tracer.reached,
                    "tampered": _tampered(tracer, guard, before),
                    "profiled": sys.getprofile() is tracer,
                }
            )
            if "KeyboardInterrupt" in outcome.get("raised", ()):
                raise _Stop  # the time is up: stop this question
            if "MemoryError" in outcome.get("raised", ()):
                raise _Stop  # at the memory limit: the next cases would only wait for it

    if question["function"] not in namespace:
        channel.send(
            {
                "question": question["id"],
                "done": True,
                "checker_raised": "NameError",
                "message": f"{question['function']} is not defined by the answer cells (the "
                "grader runs the notebook's imports and its answer cells, where the function "
                "belongs)",
            }
        )
        return
    raised = None
    _TIMED_OUT.clear()
    signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(seconds)
    try:
        for spec, globals_ in zip(question["calls"], checker, strict=True):
            recorder(function if spec is None else _checker_function(spec, globals_, function))
    except _Stop:
        pass
    except BaseException as error:  # noqa: BLE001 - an interruption between cases
        raised = {"checker_raised": type(error).__name__, "message": str(error)[:500]}
    finally:
        signal.alarm(0)
    text, count = printed.take()
    channel.send(
        {
            "question": question["id"],
            "done": True,
            **(raised or {}),
            "printed": count,
            "printed_text": text,
        },
        limit=MAX_PRINTED + MAX_RECORD,
    )


def main() -> None:
    """Serve the grader (see the module's docstring)."""
    channel = _Channel()
    printed = _Printed()
    setup = channel.receive()
    import numpy  # noqa: F401 - imported before the tracing, as the notebook had it

    import perceptron_lib

    library = os.path.dirname(os.path.abspath(perceptron_lib.__file__))
    # Read before any student code runs: an answer cell may change the modules after.
    helpers = {q["id"]: _helpers(q.get("helpers", [])) for q in setup["questions"]}
    checker = {
        q["id"]: [None if spec is None else _checker_namespace(spec) for spec in q["calls"]]
        for q in setup["questions"]
    }
    _wrap_compiled_loops("perceptron_lib")
    here = os.path.dirname(os.path.abspath(__file__))
    installed = [sys.prefix, sys.base_prefix, sys.exec_prefix, library, here]
    guard = install(installed, os.getcwd())
    # The student's cells get a module of their own as __main__, as in a notebook:
    # this module, the probe, is not theirs to change.
    main_module = types.ModuleType("__main__")
    sys.modules["__main__"] = main_module
    namespace = main_module.__dict__
    namespace["get_ipython"] = _NoIPython  # a cell calling get_ipython() still runs on
    answers = [setup["cells"][n] for q in setup["questions"] for n in q["cells"]]
    used = _names(answers)
    for statement in _imports(setup["cells"], used):  # each alone: a failure stops no other
        _run(statement, namespace, "<imports>")
    _wrap_compiled_loops("perceptron_lib")  # the modules those imports loaded
    tracer = Tracer(library, _escapes())
    sys.stdout = sys.stderr = printed
    # Not threading.setprofile: it would leave the tracer in threading's globals,
    # where an answer could reach it without a call; a thread is refused anyway.
    sys.setprofile(tracer)
    done, ran = 0, {}
    for question in setup["questions"]:
        before = _tampered(tracer, guard, [])
        permitted = helpers[question["id"]]
        for number in question["cells"]:  # answer cells not yet run, in the notebook's order
            if number >= done:
                ran[number] = _cell(setup["cells"][number], number, namespace, tracer, permitted)
        done = max([done, *[n + 1 for n in question["cells"]]])
        if question.get("names"):
            _values(channel, question, namespace, tracer, printed, ran, guard, before)
            continue
        seconds = int(setup.get("seconds", ALARM_SECONDS))
        tracer.permitted = permitted
        _question(
            channel,
            question,
            namespace,
            tracer,
            printed,
            checker[question["id"]],
            seconds,
            guard,
            before,
        )
    sys.setprofile(None)
    channel.send({"finished": True})


if __name__ == "__main__":
    main()
