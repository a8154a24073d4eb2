"""A solution's code cells as the edition shows them (as text: they do not run).

A solution is collapsed Markdown in the edition (its code does not run), so
what its code printed when the chapter was executed is pasted after it, and
the solution's text, which speaks of those numbers, still makes sense. A cell
that only glues numbers for the site's text (hidden there) is left out.
"""

from __future__ import annotations

import ast
import re

from glue_values import is_glue_output

# An image larger than this (base64 characters) is named, not embedded.
IMAGE_LIMIT = 60_000
# The text of an object that only shows itself as HTML or JavaScript (an animation).
OBJECT_REPR = re.compile(r"^<[\w.]+ object>$")


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


def fenced(text: str, language: str = "") -> str:
    """``text`` in a code fence longer than any run of backticks inside it.

    Examples
    --------
    >>> print(fenced("a ``` b", "text"))
    ````text
    a ``` b
    ````
    """
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{language}\n{text}\n{fence}"


def saved_output(outputs: list) -> str:
    """What a solution's code printed or showed when the chapter ran, as Markdown
    ("" if nothing): text in a fence labelled as output, a small image embedded.

    Examples
    --------
    >>> import nbformat
    >>> printed = nbformat.v4.new_output("stream", name="stdout", text="w = [1 2]\\n")
    >>> print(saved_output([printed]))
    *Output:*
    <BLANKLINE>
    ```text
    w = [1 2]
    ```
    >>> saved_output([nbformat.v4.new_output("stream", name="stdout", text="\\n")])
    ''
    """
    texts, images = [], []
    for output in outputs:
        if is_glue_output(output):
            continue
        if output.get("output_type") == "stream":
            texts.append(output.get("text", ""))
        elif output.get("output_type") == "error":
            texts.append(f"{output.get('ename', 'Error')}: {output.get('evalue', '')}\n")
        else:
            data = output.get("data", {})
            if "image/png" in data:
                images.append(data["image/png"].replace("\n", ""))
            elif "text/plain" in data and not OBJECT_REPR.match(data["text/plain"]):
                texts.append(data["text/plain"].rstrip("\n") + "\n")
    text = "".join(texts).strip("\n")
    pieces = [fenced(text, "text")] if text.strip() else []
    for image in images:
        if len(image) <= IMAGE_LIMIT:
            pieces.append(f"![The figure the code draws](data:image/png;base64,{image})")
        else:
            pieces.append("*(The code also draws a figure: run it to see it.)*")
    return "\n\n".join(["*Output:*", *pieces]) if pieces else ""
