"""The library as the fresh sandbox sees it: every module, and no exercise's solution.

:mod:`grading.probe` calls a student's function in a process the student's
code can reach from inside (frames, ``gc``, compiled code), so the tracing
there can be defeated. What that process cannot reach is what is not in it:
:func:`build` writes an *answer-free copy* of ``perceptron_lib/``, which the
fresh sandbox binds at the library's own path (:mod:`grading.evaluation`).
The copy has the same modules, the same module-level code (so every import an
answer cell makes works, and the constants are the same), the same classes
and the same function signatures; but every function's body is replaced by
one that raises :class:`RuntimeError` (:func:`poisoned_body`), its docstring
(the checkers' examples hold whole answers) and its numba decorator removed.
Three kinds of function keep their real body:

- the permitted helpers of every exercise (``PERMITTED_HELPERS`` in
  ``perceptron_lib/exercises/chNN.py``) and every function of the library they
  refer to, followed through names, modules, classes, default arguments and
  closures (:func:`_reachable`);
- the functions that run while the library's modules are imported (a
  decorator, a data set built at import such as ``ch09.THREE_GROUPS``), found
  by importing every module under a profiler in a process of its own
  (:func:`_run_at_import`), and a module's ``__getattr__`` and ``__dir__``
  (the lazy look-ups of ``import perceptron_lib``);
- lambdas outside any function (the gates' rules of ``logic_gate``: data).

The copy is built once for each state of the library's files and of this
module, in ``_build/grading/`` (outside every sandbox), and checked before it
is used: each module of the library imports from it (:func:`_check_imports`).
``kept.json`` beside it lists the functions it keeps. It holds no
``__pycache__`` and no numba cache.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
LIBRARY = ROOT / "perceptron_lib"
CACHE = ROOT / "_build" / "grading"
PREFIX = "answer-free-"
KEPT = "kept.json"
# Decorators that compile a function with numba: a poisoned function loses them
# (there is nothing left to compile, and nothing to cache).
COMPILERS = {"compiled", "_compiled_parallel", "njit", "jit", "vectorize", "guvectorize"}
# A module's own look-ups: run by `import` and attribute access, not by an answer.
MODULE_HOOKS = {"__getattr__", "__dir__"}


def poisoned_body(name: str) -> list[ast.stmt]:
    """The statements that replace a function's body in the copy.

    >>> print(ast.unparse(poisoned_body("perceptron_lib.exercises.ch01._reference_prediction")))
    raise RuntimeError("the grader's copy of the library holds no solutions: perceptron_lib.\
exercises.ch01._reference_prediction cannot be called while an answer is graded")
    """
    message = (
        f"the grader's copy of the library holds no solutions: {name} cannot be called "
        "while an answer is graded"
    )
    call = ast.Call(ast.Name("RuntimeError", ast.Load()), [ast.Constant(message)], [])
    return [ast.Raise(exc=call)]


def _key(path: str, line: int, name: str) -> str:
    """How a function is named in the keep set: its file, its first line, its name."""
    return f"{path}:{line}:{name}"


_PATHS: dict[tuple[str, Path], str | None] = {}  # (a code's file name, library) -> path in it


def _code_key(code, library: Path) -> str | None:
    """A code object's key, or None when it is not the library's."""
    where = (code.co_filename, library)
    if where not in _PATHS:
        try:
            path = Path(code.co_filename).resolve().relative_to(library.resolve())
            _PATHS[where] = path.as_posix()
        except (ValueError, OSError):
            _PATHS[where] = None
    path = _PATHS[where]
    return None if path is None else _key(path, code.co_firstlineno, code.co_name)


def _first_line(node: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    # A code object's first line is its first decorator's (Python >= 3.8).
    return min([node.lineno, *(d.lineno for d in node.decorator_list)])


def _compiler(decorator: ast.expr) -> bool:
    """Is ``decorator`` numba's (``@compiled``, ``@numba.njit(cache=True)``, ...)?"""
    if isinstance(decorator, ast.Call):
        decorator = decorator.func
    name = decorator.attr if isinstance(decorator, ast.Attribute) else getattr(decorator, "id", "")
    return name in COMPILERS


def _docstring(body: list[ast.stmt]) -> bool:
    return bool(
        body
        and isinstance(body[0], ast.Expr)
        and isinstance(body[0].value, ast.Constant)
        and isinstance(body[0].value.value, str)
    )


class _Poison(ast.NodeTransformer):
    """Replace the body of every function not kept (see the module's docstring)."""

    def __init__(self, path: str, module: str, kept: set[str]):
        self.path, self.module, self.kept = path, module, kept
        self.scope: list[str] = []  # the enclosing classes
        self.poisoned: list[str] = []

    def visit_Module(self, node: ast.Module) -> ast.Module:
        if _docstring(node.body):  # module docstrings show examples: dropped
            node.body = node.body[1:] or [ast.Pass()]
        self.generic_visit(node)
        return node

    def visit_ClassDef(self, node: ast.ClassDef) -> ast.ClassDef:
        if _docstring(node.body):
            node.body = node.body[1:] or [ast.Pass()]
        self.scope.append(node.name)
        self.generic_visit(node)
        self.scope.pop()
        return node

    def _function(self, node):
        key = _key(self.path, _first_line(node), node.name)
        if key in self.kept or (not self.scope and node.name in MODULE_HOOKS):
            return node  # kept whole, the functions inside it too
        name = ".".join([self.module, *self.scope, node.name])
        node.decorator_list = [d for d in node.decorator_list if not _compiler(d)]
        node.body = poisoned_body(name)
        self.poisoned.append(name)
        return node  # nothing inside it is left to visit

    visit_FunctionDef = visit_AsyncFunctionDef = _function


def poison(source: str, path: str, module: str, kept: set[str]) -> tuple[str, list[str]]:
    """``source`` with every function not in ``kept`` poisoned; and the names poisoned.

    ``path`` is the file's path in the library (``exercises/ch01.py``), which
    the keys of ``kept`` use; ``module`` its module's name.

    >>> source = '''
    ... "The module."
    ... @compiled
    ... def answer(x):
    ...     "Examples: answer(1) is 2."
    ...     return x + 1
    ...
    ... def helper(x):
    ...     return x
    ...
    ... class Model:
    ...     @property
    ...     def weights(self):
    ...         return answer(1)
    ... '''
    >>> text, poisoned = poison(source, "m.py", "pl.m", {_key("m.py", 8, "helper")})
    >>> poisoned
    ['pl.m.answer', 'pl.m.Model.weights']
    >>> print(text)  # doctest: +NORMALIZE_WHITESPACE
    def answer(x):
        raise RuntimeError("the grader's copy of the library holds no solutions: pl.m.answer
        cannot be called while an answer is graded")
    <BLANKLINE>
    def helper(x):
        return x
    <BLANKLINE>
    class Model:
    <BLANKLINE>
        @property
        def weights(self):
            raise RuntimeError("the grader's copy of the library holds no solutions:
            pl.m.Model.weights cannot be called while an answer is graded")
    """
    transformer = _Poison(path, module, kept)
    tree = transformer.visit(ast.parse(source))
    return ast.unparse(ast.fix_missing_locations(tree)) + "\n", transformer.poisoned


# -- what the copy keeps -------------------------------------------------------------


def _library_module(value, library: str) -> bool:
    name = str(getattr(value, "__name__", ""))
    return isinstance(value, type(sys)) and name.split(".")[0] == library


def _codes(code):
    """``code`` and every code object inside it (nested functions, comprehensions)."""
    yield code
    for constant in code.co_consts:
        if hasattr(constant, "co_code"):
            yield from _codes(constant)


def _reachable(functions, library: Path) -> dict[str, str]:
    """Every function of the library that ``functions`` refer to, themselves included.

    Followed: the global names their code uses (a function, a class and all its
    methods, a library module and the attributes the code names on it), their
    default arguments and closures, ``functools.partial`` and numba's
    dispatchers. More than they call, never less. Returns key -> full name.
    """
    package = library.name
    found: dict[str, str] = {}
    seen: set[int] = set()
    todo = list(functions)
    while todo:
        value = todo.pop()
        if id(value) in seen:
            continue
        seen.add(id(value))
        value = getattr(value, "py_func", value)  # a numba dispatcher
        if hasattr(value, "func") and hasattr(value, "keywords"):  # functools.partial
            todo += [value.func, *value.args, *value.keywords.values()]
            continue
        if isinstance(value, type) and str(value.__module__).startswith(package):
            for attribute in vars(value).values():
                attribute = getattr(attribute, "__func__", attribute)  # static, class
                if isinstance(attribute, property):
                    todo += [attribute.fget, attribute.fset, attribute.fdel]
                else:
                    todo.append(attribute)
            continue
        code = getattr(value, "__code__", None)
        if code is None:
            continue
        key = _code_key(code, library)
        if key is None:
            continue
        found[key] = f"{value.__module__}.{value.__qualname__}"
        names = {name for inner in _codes(code) for name in inner.co_names}
        namespace = getattr(value, "__globals__", {})
        todo += list(value.__defaults__ or ()) + list((value.__kwdefaults__ or {}).values())
        todo += [cell.cell_contents for cell in value.__closure__ or () if _filled(cell)]
        for name in names:
            target = namespace.get(name)
            if _library_module(target, package):
                todo += [getattr(target, n) for n in names if hasattr(target, n)]
            elif target is not None:
                todo.append(target)
    return found


def _filled(cell) -> bool:
    try:
        cell.cell_contents  # noqa: B018 - an empty cell raises
    except ValueError:
        return False
    return True


def permitted_helpers(library: Path = LIBRARY) -> dict[str, list]:
    """Every exercise's permitted helpers, by checker module (``ch05``): the functions.

    Imported from the library this process imports, which must be ``library``.
    """
    import importlib
    import pkgutil

    exercises = importlib.import_module(f"{library.name}.exercises")
    helpers = {}
    for info in pkgutil.iter_modules(exercises.__path__):
        module = importlib.import_module(f"{exercises.__name__}.{info.name}")
        for functions in getattr(module, "PERMITTED_HELPERS", {}).values():
            helpers.setdefault(info.name, []).extend(functions)
    return helpers


def _modules(library: Path) -> list[str]:
    """Every module of the library, by name, from its files."""
    names = []
    for path in sorted(library.rglob("*.py")):
        if "__pycache__" in path.parts:
            continue
        parts = path.relative_to(library.parent).with_suffix("").parts
        names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def _run_at_import(library: Path) -> dict[str, str]:
    """The library's functions that run while each of its modules is imported (key -> name).

    Found in a process of its own (this one has imported the library already):
    a profiler notes every function of the library entered while every module
    is imported, then while each module's names are read (``dir`` and
    ``getattr``, the lazy look-ups).
    """
    result = subprocess.run(
        [sys.executable, "-I", __file__, "imports", str(library)],
        capture_output=True,
        text=True,
        check=False,
        env={k: v for k, v in os.environ.items() if not k.startswith("PYTHON")},
    )
    if result.returncode != 0:
        raise RuntimeError(f"could not list what the library runs at import:\n{result.stderr}")
    return json.loads(result.stdout.splitlines()[-1])


def _profile_imports(library: Path) -> None:
    """In the process :func:`_run_at_import` starts: print the functions run at import."""
    import importlib

    sys.path.insert(0, str(library.parent))
    entered: dict[str, str] = {}

    def note(frame, event, arg):
        if event == "call":
            key = _code_key(frame.f_code, library)
            if key is not None and frame.f_code.co_name not in ("<module>",):
                module = frame.f_globals.get("__name__", "?")
                entered.setdefault(key, f"{module}.{frame.f_code.co_qualname}")

    sys.setprofile(note)
    modules = []
    for name in _modules(library):
        try:
            modules.append(importlib.import_module(name))
        except ImportError:  # an optional dependency (dask) that is missing: not ours
            continue
    for module in modules:
        for name in dir(module):
            getattr(module, name, None)
    sys.setprofile(None)
    print(json.dumps(entered))


# -- building and checking the copy ---------------------------------------------------


def _state(library: Path) -> str:
    """What the copy depends on: the library's files, this module, Python's version."""
    digest = hashlib.sha256(sys.version.encode())
    digest.update(Path(__file__).read_bytes())
    for path in sorted(library.rglob("*")):
        if "__pycache__" in path.parts or not path.is_file():
            continue
        digest.update(str(path.relative_to(library)).encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:20]


def _write(library: Path, target: Path, kept: dict[str, str]) -> list[str]:
    """Write the copy of ``library`` into ``target``; return the functions poisoned."""
    poisoned = []
    for path in sorted(library.rglob("*")):
        relative = path.relative_to(library)
        if "__pycache__" in relative.parts or not path.is_file():
            continue
        destination = target / relative
        destination.parent.mkdir(parents=True, exist_ok=True)
        if path.suffix != ".py":
            shutil.copyfile(path, destination)  # data, if the library ever ships some
            continue
        parts = Path(library.name, relative).with_suffix("").parts
        module = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        text, names = poison(path.read_text(encoding="utf-8"), relative.as_posix(), module, kept)
        destination.write_text(text, encoding="utf-8")
        poisoned += names
    return poisoned


def _check_imports(folder: Path, package: str) -> None:
    """Import every module of the copy in ``folder`` (in a new process); raise if one fails."""
    result = subprocess.run(
        [sys.executable, "-I", "-B", __file__, "check", str(folder / package)],
        capture_output=True,
        text=True,
        check=False,
        # -B: no __pycache__ in the copy; numba has nothing to compile in it (see _Poison)
        env={k: v for k, v in os.environ.items() if not k.startswith("PYTHON")},
    )
    if result.returncode != 0:
        raise RuntimeError(
            f"the answer-free copy of the library in {folder} does not import:\n"
            f"{result.stdout[-2000:]}{result.stderr[-3000:]}"
        )


def _import_all(library: Path) -> None:
    """In the process :func:`_check_imports` starts: import every module of ``library``.

    A module whose import fails for want of an optional package (dask) is let
    be if the real library fails alike; any other failure exits with 1.
    """
    import importlib

    sys.path.insert(0, str(library.parent))
    failed = []
    for name in _modules(library):
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as error:
            if error.name and error.name.split(".")[0] != library.name:
                continue  # an optional dependency missing here, as in the library itself
            failed.append(f"{name}: {error!r}")
            continue
        except Exception as error:  # noqa: BLE001 - reported, all of them
            failed.append(f"{name}: {error!r}")
            continue
        if not str(module.__file__).startswith(str(library)):
            failed.append(f"{name} was imported from {module.__file__}, not from the copy")
    if failed:
        print("\n".join(failed))
        raise SystemExit(1)


def build(library: Path = LIBRARY, cache: Path = CACHE) -> Path:
    """The answer-free copy of ``library`` (its ``perceptron_lib/`` folder), built if needed.

    One copy per state of the library (:func:`_state`), kept in ``cache``;
    copies of other states are removed a day later. Built in a temporary folder beside
    it, checked, then renamed into place, so a copy that exists is whole (two
    graders building at once each build one; the second rename finds the
    first's and drops its own).
    """
    library = library.resolve()
    final = cache / f"{PREFIX}{_state(library)}"
    if (final / KEPT).exists():
        return final / library.name
    cache.mkdir(parents=True, exist_ok=True)
    kept = _run_at_import(library)
    helpers = [f for functions in permitted_helpers(library).values() for f in functions]
    reachable = _reachable(helpers, library)
    kept.update(reachable)
    building = Path(tempfile.mkdtemp(prefix=f".{PREFIX}", dir=cache))
    try:
        os.chmod(building, 0o755)  # the sandbox's user reads it
        poisoned = _write(library, building / library.name, set(kept))
        _check_imports(building, library.name)
        record = {
            "helpers": sorted(reachable.values()),
            "at_import": sorted(set(kept.values()) - set(reachable.values())),
            "poisoned": len(poisoned),
        }
        (building / KEPT).write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
        try:
            building.rename(final)
        except OSError:  # another grader put the same copy there first
            if not (final / KEPT).exists():
                raise
    finally:
        shutil.rmtree(building, ignore_errors=True)
    _remove_old(cache, final)
    return final / library.name


def _remove_old(cache: Path, final: Path) -> None:
    """Remove the copies of other states of the library, and builds a killed grader left.

    Only those a day old: a grader started before the library changed may
    still be grading with its copy, or building one.
    """
    for old in [*cache.glob(f"{PREFIX}*"), *cache.glob(f".{PREFIX}*")]:
        try:
            stale = old != final and time.time() - old.stat().st_mtime > 86400
        except OSError:  # removed by another grader meanwhile
            continue
        if stale:
            shutil.rmtree(old, ignore_errors=True)


def kept(copy: Path) -> dict:
    """What the copy at ``copy`` (as :func:`build` returns it) keeps: ``kept.json``."""
    return json.loads((copy.parent / KEPT).read_text(encoding="utf-8"))


if __name__ == "__main__":
    # Run as a script: this folder (the grader's modules) is no place to import from.
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]
    task, folder = sys.argv[1], Path(sys.argv[2])
    if task == "imports":
        _profile_imports(folder)
    elif task == "check":
        _import_all(folder)
    else:  # pragma: no cover
        raise SystemExit(f"unknown task {task!r}")
