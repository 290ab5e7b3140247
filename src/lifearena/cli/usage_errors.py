"""Usage errors in our words: the option, the value typed, and what was expected.

Typer checks numbers and ranges with the validation library's wording ("Input should be less
than or equal to 1"); :func:`usage_line` says the same as ``--density 2: expected a number
from 0 to 1``, from the option's own bounds.

>>> usage_line("--density", "2", "Input should be less than or equal to 1", float, 0.0, 1.0)
'--density 2: expected a number from 0 to 1'
>>> usage_line("--seed", "-1", "Input should be greater than or equal to 0", int, 0, None)
'--seed -1: expected a whole number of at least 0'
>>> usage_line("-n", "abc", "Input should be a valid integer, unable to parse string as an "
...            "integer", int, 0, 1_000_000)
'-n abc: expected a whole number from 0 to 1,000,000'
>>> usage_line("--topology", "cube", "Input should be 'bounded' or 'torus'", str, None, None)
"--topology cube: expected 'bounded' or 'torus'"
>>> usage_line("--topology", "cube", "Value error, 'cube' is not one of 'bounded', 'torus'.")
"--topology cube: expected one of 'bounded', 'torus'"
"""

from __future__ import annotations

import re
import shlex
from typing import Any, get_args

VALIDATION_PREFIX = "Input should be "


def _number(value: float, whole: bool) -> str:
    """``1,000,000`` for whole numbers, ``0.5`` or ``1`` otherwise."""
    if whole or float(value).is_integer():
        return f"{int(value):,}"
    return f"{value:g}"


def expected_number(kind: Any, low: float | None, high: float | None) -> str:
    """``expected a whole number from 0 to 10`` for a number option's type and bounds.

    >>> expected_number(float, None, 2.5)
    'expected a number of at most 2.5'
    """
    whole = kind is int
    noun = "a whole number" if whole else "a number"
    if low is not None and high is not None:
        return f"expected {noun} from {_number(low, whole)} to {_number(high, whole)}"
    if low is not None:
        return f"expected {noun} of at least {_number(low, whole)}"
    if high is not None:
        return f"expected {noun} of at most {_number(high, whole)}"
    return f"expected {noun}"


def usage_line(option: str, value: str, message: str, kind: Any = None,
               low: float | None = None, high: float | None = None) -> str:
    """The one line for a bad ``value`` of ``option`` (``kind``: the option's Python type,
    ``low``/``high``: its bounds); messages not in the validation library's wording are
    kept as they are, after the option and the value."""
    shown = shlex.quote(value) if value else "''"
    choices = re.match(r"^Value error, .* is not one of (.*?)\.?$", message)
    if choices is not None:
        message = f"expected one of {choices.group(1)}"
    elif message.startswith(VALIDATION_PREFIX):
        if kind in (int, float):
            message = expected_number(kind, low, high)
        else:
            message = "expected " + message[len(VALIDATION_PREFIX):]
    return f"{option} {shown}: {message}"


def param_bounds(param: Any) -> tuple[Any, float | None, float | None]:
    """A typer parameter's Python type and its ``min``/``max`` (``None`` where unknown)."""
    descriptor = getattr(param, "type_descriptor", None)
    kind = getattr(descriptor, "annotation", None)
    # an optional number (``int | None``) is checked as the number
    kind = next((k for k in get_args(kind) if k in (int, float)), kind)
    return kind, getattr(param, "min", None), getattr(param, "max", None)
