"""A solution's code cells as the edition shows them (as text: they do not run).

A cell that only glues numbers for the site's text (its input hidden there)
is left out of a solution: the text already holds the numbers.
"""

from __future__ import annotations

import ast


def glue_only(source: str) -> bool:
    """Whether a cell's code does nothing but call ``glue(...)`` (and import it).

    Examples
    --------
    >>> glue_only('glue("ch3_n", f"{n}", display=False)\\nglue("ch3_m", "2", display=False)')
    True
    >>> glue_only('from myst_nb import glue\\nglue("a", "1")')
    True
    >>> glue_only('n = 3\\nglue("ch3_n", f"{n}", display=False)')
    False
    >>> glue_only("")
    False
    """
    try:
        statements = ast.parse(source).body
    except SyntaxError:
        return False

    def is_glue(statement: ast.stmt) -> bool:
        if isinstance(statement, ast.ImportFrom):
            return [alias.name for alias in statement.names] == ["glue"]
        return (
            isinstance(statement, ast.Expr)
            and isinstance(statement.value, ast.Call)
            and isinstance(statement.value.func, ast.Name)
            and statement.value.func.id == "glue"
        )

    return bool(statements) and all(is_glue(statement) for statement in statements)
