"""The package's layers: every import runs down (or sideways inside a layer), never up.

Read bottom to top, the package is a house of layers; a module may import from
its own layer and from the layers below, never from one above:

1. ``loops/``: the compiled epochs (NumPy and numba only);
2. ``theory/``: margins, radii, bounds, separability, losses, the vote (NumPy
   and SciPy only: nothing here trains an estimator);
3. ``data/``: data sets and feature maps (may use ``theory/`` to check them);
4. the estimators and what works on one: ``_base``, ``_online``,
   ``perceptron``, ``averaged``, ``voted``, ``margin``, ``multiclass``, ``batch``, ``kernel``,
   ``structured``, ``mixing`` (the arithmetic of parameter mixing), ``trace`` (it drives an
   estimator, so it stands beside them) and ``rosenblatt``;
5. ``experiments/`` (what trains estimators to measure or check something)
   and ``distributed`` (an estimator built on ``mixing`` and a cluster);
6. ``figures/`` (matplotlib);
7. ``widgets/`` (ipywidgets over the figures);
8. ``exercises/`` (the chapters' checks, against any of the above).

``perceptron_lib/__init__.py`` re-exports the public names: it stands above
every layer, so importing it from inside the package is an upward arrow too.
``warm_up`` (which fits every exported estimator once) stands beside it.

The imports are read with :mod:`ast` (no module is imported): every
``import`` and ``from ... import`` statement, at the top of a module or inside
a function, relative or absolute.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

PACKAGE = "perceptron_lib"
ROOT = Path(__file__).resolve().parent.parent / PACKAGE

# Bottom to top; a name is a subpackage (every module in it) or a top-level module.
LAYERS = (
    ("loops", ("loops",)),
    ("theory", ("theory",)),
    ("data", ("data",)),
    (
        "estimators",
        (
            "_base",
            "_online",
            "perceptron",
            "averaged",
            "voted",
            "margin",
            "multiclass",
            "batch",
            "kernel",
            "structured",
            "mixing",
            "trace",
            "rosenblatt",
        ),
    ),
    ("experiments", ("experiments", "distributed")),
    ("figures", ("figures",)),
    ("widgets", ("widgets",)),
    ("exercises", ("exercises",)),
)
RANK = {part: rank for rank, (_, parts) in enumerate(LAYERS) for part in parts}
TOP = len(LAYERS)  # the package's own __init__: above every layer
# Modules that use the whole package, as a user does, stand beside its __init__:
# warm_up fits every estimator the package exports.
BESIDE_THE_PACKAGE = ("warm_up",)
LAYER_NAME = {rank: name for rank, (name, _) in enumerate(LAYERS)} | {TOP: PACKAGE}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted(ROOT.rglob("*.py"))}


def imported(name: str, path: Path) -> set[str]:
    """Every module name ``name`` imports, absolute, inside or outside the package."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module
            # ``from . import x`` runs the package and may name a module x: count both.
            found.update(f"{source}.{alias.name}" for alias in node.names)
            found.add(source)
    return found


def resolve(target: str, known: dict[str, Path]) -> str | None:
    """The package module an imported name lives in (None outside the package)."""
    while target and target not in known:
        target = target.rpartition(".")[0]
    return target or None


def rank(module: str) -> int:
    parts = module.split(".")
    if len(parts) == 1 or parts[1] in BESIDE_THE_PACKAGE:
        return TOP
    if parts[1] not in RANK:
        raise AssertionError(f"{module} belongs to no layer: add it to LAYERS in {__file__}")
    return RANK[parts[1]]


def arrows() -> set[tuple[str, str]]:
    known = modules()
    found = set()
    for name, path in known.items():
        for target in imported(name, path):
            module = resolve(target, known) if target.startswith(PACKAGE) else None
            if module is not None and module != name:
                found.add((name, module))
    return found


def upward(found: set[tuple[str, str]]) -> list[str]:
    lines = []
    for source, target in sorted(found):
        if source == PACKAGE:
            continue  # the package's __init__ re-exports from every layer
        if rank(target) > rank(source):
            lines.append(
                f"{source} ({LAYER_NAME[rank(source)]}) -> {target} ({LAYER_NAME[rank(target)]})"
            )
    return lines


def test_every_module_belongs_to_a_layer():
    for name in modules():
        rank(name)


def test_no_import_runs_upwards():
    lines = upward(arrows())
    assert not lines, f"{len(lines)} imports run upwards:\n" + "\n".join(lines)


def test_the_reader_sees_imports_inside_functions_and_relative_ones():
    # The reader itself, on modules whose imports are known: a relative import
    # at the top and an absolute one inside a function.
    found = arrows()
    assert ("perceptron_lib.theory", "perceptron_lib.theory.geometry") in found
    assert ("perceptron_lib.warm_up", "perceptron_lib.loops.speculative") in found


def test_theory_needs_only_numpy_and_scipy():
    allowed = {"numpy", "scipy", PACKAGE} | set(sys.stdlib_module_names)
    outside = []
    for name, path in modules().items():
        if name.startswith(f"{PACKAGE}.theory"):
            for target in imported(name, path):
                top = target.partition(".")[0]
                if top == PACKAGE and not target.startswith(f"{PACKAGE}.theory"):
                    outside.append(f"{name} -> {target}")
                elif top and top not in allowed:
                    outside.append(f"{name} -> {target}")
    assert not outside, "theory/ imports more than NumPy and SciPy:\n" + "\n".join(outside)


def test_importing_the_package_loads_neither_matplotlib_nor_ipywidgets():
    code = (
        "import sys, perceptron_lib\n"
        "print(sorted(m for m in ('matplotlib', 'ipywidgets') if m in sys.modules))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.stdout.strip() == "[]", result.stdout + result.stderr
