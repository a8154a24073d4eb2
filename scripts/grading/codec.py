"""Values as JSON and back: what crosses the sandbox's wall is data, never a pickle.

The sandbox writes what a student's function returned with :func:`encode`; the
grader reads it with :func:`decode`, which builds only plain Python values and
NumPy arrays of numbers. Anything else becomes an :class:`Unencodable`, which
equals nothing, so it can never be taken for a right answer.

>>> import numpy as np
>>> value = (1, [2.5, np.array([1.0, -0.0])], {"a": True}, np.float64(0.5))
>>> back = decode(encode(value))
>>> back[0], back[1][0], back[1][1].tolist(), back[2], type(back[3]).__name__
(1, 2.5, [1.0, -0.0], {'a': True}, 'float64')
>>> decode(encode(object())) == decode(encode(object()))
False
>>> decode(encode([...]))
[Ellipsis]
"""

from __future__ import annotations

from typing import Any

import numpy as np

MAX_DEPTH = 20
NUMBER_KINDS = "biuf"  # bool, signed and unsigned integers, floats


class Unencodable:
    """A value that was not plain data: it equals nothing, itself included."""

    def __init__(self, kind: str, text: str):
        self.kind, self.text = kind, text

    def __eq__(self, other):
        return False

    __hash__ = None

    def __repr__(self):
        return f"<a {self.kind}: {self.text}>"


def encode(value: Any, depth: int = 0) -> Any:
    """Return a JSON-able form of ``value`` (see the module's docstring)."""
    if depth > MAX_DEPTH:
        return {"unencodable": "deeply nested value", "repr": "..."}
    if value is Ellipsis:  # an answer left as ``...``: the checker says "not written yet"
        return {"ellipsis": True}
    if value is None or isinstance(value, bool | int | float | str):
        if type(value) in (bool, int, float, str) or value is None:
            return value
    if isinstance(value, np.ndarray) and value.dtype.kind in NUMBER_KINDS:
        return {"ndarray": value.tolist(), "dtype": value.dtype.str, "shape": list(value.shape)}
    if isinstance(value, np.generic) and value.dtype.kind in NUMBER_KINDS:
        return {"scalar": value.item(), "dtype": value.dtype.str}
    if type(value) is tuple:
        return {"tuple": [encode(item, depth + 1) for item in value]}
    if type(value) is list:
        return [encode(item, depth + 1) for item in value]
    if type(value) is dict and all(type(key) is str for key in value):
        return {"dict": [[key, encode(item, depth + 1)] for key, item in value.items()]}
    try:
        text = repr(value)[:200]
    except Exception:  # noqa: BLE001 - a student's __repr__ may raise anything
        text = "?"
    return {"unencodable": type(value).__name__, "repr": text}


def decode(data: Any, depth: int = 0) -> Any:
    """Rebuild a value written by :func:`encode`; anything unexpected is Unencodable."""
    if depth > MAX_DEPTH:
        return Unencodable("deeply nested value", "...")
    if data is None or type(data) in (bool, int, float, str):
        return data
    if type(data) is list:
        return [decode(item, depth + 1) for item in data]
    if type(data) is not dict or len(data) == 0:
        return Unencodable("value", repr(data)[:200])
    try:
        if "ndarray" in data:
            dtype = np.dtype(data["dtype"])
            if dtype.kind not in NUMBER_KINDS:
                raise ValueError(dtype)
            array = np.array(data["ndarray"], dtype=dtype)
            return array.reshape([int(n) for n in data["shape"]])
        if "scalar" in data:
            dtype = np.dtype(data["dtype"])
            if dtype.kind not in NUMBER_KINDS:
                raise ValueError(dtype)
            return dtype.type(data["scalar"])
        if "tuple" in data:
            return tuple(decode(item, depth + 1) for item in data["tuple"])
        if "dict" in data:
            return {str(key): decode(item, depth + 1) for key, item in data["dict"]}
        if data == {"ellipsis": True}:
            return Ellipsis
        if "unencodable" in data:
            return Unencodable(str(data["unencodable"])[:100], str(data.get("repr", ""))[:200])
    except (TypeError, ValueError, OverflowError):
        pass
    return Unencodable("value", repr(data)[:200])
