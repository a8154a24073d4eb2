"""How the exercise checks compare two values and show them to a student.

Two jobs, kept together because they must agree: :func:`mismatch` decides
whether a returned value is right (and if not, says why in a few words), and
:func:`describe` writes a value the way a student would type it, so that a
failure message reads like Python (``[1.0, 2.0]``, not ``array([1., 2.])``).
"""

from __future__ import annotations

from collections.abc import Sequence
from numbers import Integral, Real
from typing import Any

import numpy as np

# Arrays with more elements than this are summarised (shape and first rows)
# rather than printed in full: a failure message should fit on a phone screen.
MAX_SHOWN_ELEMENTS = 30
SIGNIFICANT_DIGITS = 6


def _plain(value: Any) -> Any:
    """Return ``value`` with NumPy types turned into Python ones, floats rounded."""
    if isinstance(value, np.ndarray):
        return _plain(value.tolist())
    if isinstance(value, np.generic):
        return _plain(value.item())
    if isinstance(value, float):
        # Round away binary noise (0.30000000000000004 -> 0.3) but keep 11.0 as 11.0;
        # + 0.0 turns -0.0 into 0.0, which a student would never type.
        return float(f"{value:.{SIGNIFICANT_DIGITS}g}") + 0.0
    if isinstance(value, list):
        return [_plain(item) for item in value]
    if isinstance(value, tuple):
        return tuple(_plain(item) for item in value)
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    return value


def describe(value: Any) -> str:
    """Return a short, Python-looking text for ``value``, for failure messages.

    NumPy arrays are shown as nested lists, NumPy scalars as Python numbers,
    floats with at most six significant digits; large arrays are summarised.

    Examples
    --------
    >>> import numpy as np
    >>> describe(np.array([1.0, 2.5]))
    '[1.0, 2.5]'
    >>> describe(np.float64(0.1) + np.float64(0.2))
    '0.3'
    >>> describe(-np.inf)
    '-inf'
    >>> describe(-0.0)
    '0.0'
    >>> describe(np.zeros((50, 2)))
    'an array of shape (50, 2) starting [[0.0, 0.0], [0.0, 0.0], [0.0, 0.0], ...]'
    """
    if isinstance(value, np.ndarray) and value.size > MAX_SHOWN_ELEMENTS:
        head = repr(_plain(value[:3]))[:-1]
        return f"an array of shape {value.shape} starting {head}, ...]"
    if isinstance(value, list | tuple) and _size(value) > MAX_SHOWN_ELEMENTS:
        return describe(np.asarray(value)) if _is_numeric_array(value) else repr(value)
    return repr(_plain(value))


def _size(value: Any) -> int:
    if isinstance(value, np.ndarray):
        return int(value.size)
    if isinstance(value, list | tuple):
        return sum(_size(item) for item in value)
    if isinstance(value, dict):
        return sum(_size(item) for item in value.values())
    return 1


def size(arguments: tuple | dict) -> int:
    """Return the total number of elements in a case's arguments.

    Arrays and (nested) lists count their elements, every other value counts
    one. Cases are checked in order of this size, so that the first failing
    case reported is also the smallest one.

    Examples
    --------
    >>> size(([1.0, 2.0], [3.0, 4.0], 0.5))
    5
    >>> size({"X": [[0, 1], [1, 0]], "y": [1, -1]})
    6
    """
    values = arguments.values() if isinstance(arguments, dict) else arguments
    return sum(_size(value) for value in values)


def _is_numeric_array(value: Any) -> bool:
    try:
        array = np.asarray(value)
    except ValueError:  # ragged nested lists
        return False
    return array.dtype.kind in "biuf"


def _is_scalar_number(value: Any) -> bool:
    if isinstance(value, np.ndarray):
        return value.ndim == 0 and value.dtype.kind in "biuf"
    return isinstance(value, Real | np.number | np.bool_)


def _shape_of(value: Any) -> tuple[int, ...] | None:
    try:
        return np.shape(value)
    except ValueError:
        return None


def mismatch(got: Any, expected: Any, names: Sequence[str] | None = None) -> str | None:
    """Return why ``got`` is not ``expected``, or ``None`` when it is right.

    Exact equality for integers, booleans and strings; ``np.isclose`` for
    floats (``inf`` equals ``inf``, ``nan`` equals ``nan``); for arrays and
    lists the shapes must agree and then the elements, by ``np.allclose`` (or
    exactly for integer and boolean arrays). Tuples and dicts are compared item
    by item. An empty string means wrong with nothing more to say. A reason that
    starts with ``"the "`` is a full clause (``"the second value is wrong"``);
    any other reason describes the returned value (``"a str where ..."``).
    ``names`` names the values of an expected tuple, for the message.

    Examples
    --------
    >>> mismatch(0.1 + 0.2, 0.3) is None
    True
    >>> mismatch([1.0, 2.0, 3.0], [1.0, 2.0])
    'an array of shape (3,) where one of shape (2,) was expected'
    >>> mismatch(1, 2)
    ''
    >>> mismatch("and", 1)
    'a str where a number was expected'
    >>> mismatch((1.0, 2.0), (1.0, 3.0), names=("new_w", "new_b"))
    'the second value, new_b, is wrong'
    """
    if expected is None:
        return None if got is None else ""
    if got is None:  # the most common slip of all
        return "nothing: is a return statement missing?"
    if isinstance(expected, str):
        if not isinstance(got, str):
            return f"a {type(got).__name__} where a string was expected"
        return None if got == expected else ""
    if _is_scalar_number(expected) and not isinstance(expected, np.ndarray):
        return _scalar_mismatch(got, expected)
    if isinstance(expected, tuple):
        return _sequence_mismatch(got, expected, names)
    if isinstance(expected, dict):
        return _dict_mismatch(got, expected)
    if isinstance(expected, np.ndarray | list) and _is_numeric_array(expected):
        return _array_mismatch(got, np.asarray(expected))
    if isinstance(expected, list):
        return _sequence_mismatch(got, expected)
    try:
        return None if bool(got == expected) else ""
    except (TypeError, ValueError):
        return ""


def _scalar_mismatch(got: Any, expected: Any) -> str | None:
    if isinstance(got, np.ndarray) and got.ndim == 0:
        got = got.item()
    if not _is_scalar_number(got):
        shape = _shape_of(got)
        if isinstance(got, np.ndarray | list | tuple) and shape is not None:
            return f"an array of shape {shape} where a single number was expected"
        return f"a {type(got).__name__} where a number was expected"
    if isinstance(expected, bool | np.bool_ | Integral | np.integer):
        return None if got == expected else ""
    return None if np.isclose(float(got), float(expected), equal_nan=True) else ""


def _array_mismatch(got: Any, expected: np.ndarray) -> str | None:
    if isinstance(got, str) or not _is_numeric_array(got):
        return f"a {type(got).__name__} where an array of numbers was expected"
    got = np.asarray(got)
    if got.shape != expected.shape:
        if got.ndim == 0:
            return f"a single number where an array of shape {expected.shape} was expected"
        return f"an array of shape {got.shape} where one of shape {expected.shape} was expected"
    if expected.dtype.kind in "biu":
        return None if np.array_equal(got, expected) else ""
    return None if np.allclose(got, expected, equal_nan=True) else ""


def _because(reason: str) -> str:
    if not reason:
        return ""
    return f": {reason}" if reason.startswith("the ") else f": it is {reason}"


_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")


def ordinal(position: int) -> str:
    """Return ``"first"``, ``"second"``, ... for ``position`` 0, 1, ... (``"number 10"`` later).

    Examples
    --------
    >>> ordinal(1)
    'second'
    """
    return _ORDINALS[position] if position < len(_ORDINALS) else f"number {position + 1}"


def _sequence_mismatch(
    got: Any, expected: tuple | list, names: Sequence[str] | None = None
) -> str | None:
    if not isinstance(got, tuple | list | np.ndarray):
        return f"a {type(got).__name__} where {len(expected)} values were expected"
    if len(got) != len(expected):
        return f"{len(got)} values where {len(expected)} were expected"
    for position, (got_item, expected_item) in enumerate(zip(got, expected, strict=True)):
        reason = mismatch(got_item, expected_item)
        if reason is not None:
            name = f", {names[position]}," if names and position < len(names) else ""
            # A full clause, so that it reads on its own: "the second value, new_b, is wrong".
            return f"the {ordinal(position)} value{name} is wrong" + _because(reason)
    return None


def _dict_mismatch(got: Any, expected: dict) -> str | None:
    if not isinstance(got, dict):
        return f"a {type(got).__name__} where a dict was expected"
    if set(got) != set(expected):
        return f"keys {sorted(got)} where {sorted(expected)} were expected"
    for key, expected_item in expected.items():
        reason = mismatch(got[key], expected_item)
        if reason is not None:
            return f"the value for {key!r} is wrong" + _because(reason)
    return None


def unchanged(before: Any, after: Any) -> bool:
    """Return whether ``after`` is exactly ``before`` (used to catch in-place edits).

    Examples
    --------
    >>> import numpy as np
    >>> unchanged(np.array([1.0, 2.0]), np.array([1.0, 2.0]))
    True
    >>> unchanged([1.0, 2.0], [2.0, 2.0])
    False
    """
    if isinstance(before, np.ndarray) or isinstance(after, np.ndarray):
        before_array, after_array = np.asarray(before), np.asarray(after)
        if before_array.shape != after_array.shape or before_array.dtype != after_array.dtype:
            return False
        numeric = before_array.dtype.kind in "biufc"
        return bool(np.array_equal(before_array, after_array, equal_nan=numeric))
    if isinstance(before, list | tuple):
        return (
            type(before) is type(after)
            and len(before) == len(after)
            and all(unchanged(b, a) for b, a in zip(before, after, strict=True))
        )
    if isinstance(before, dict):
        return (
            isinstance(after, dict)
            and set(before) == set(after)
            and all(unchanged(before[key], after[key]) for key in before)
        )
    try:
        return bool(before == after) or (before != before and after != after)  # nan == nan
    except (TypeError, ValueError):
        return before is after
