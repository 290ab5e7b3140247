"""JSON a client sends, read within this server's limits: numbers of at most
:data:`MAX_NUMBER_DIGITS` digits (Python refuses to make an int of over 4,300 digits with an
error FastAPI answers as a 500), no ``NaN`` or ``Infinity``, nesting at most :data:`MAX_DEPTH`
levels deep. Every request body (:mod:`lifearena.web.guard`) and socket message
(:func:`lifearena.web.models.read_message`) is read through :func:`parse_json`; this module
imports no web framework, so the models and the rooms below the routes can use it.
"""

from __future__ import annotations

import json
import math
from typing import Any

MAX_DEPTH = 32
"""Deepest nesting of arrays and objects in a JSON body."""
MAX_NUMBER_DIGITS = 40
"""Most digits of one number in a JSON body."""
_SHOWN = 80
"""Most characters of a number quoted in an error message."""


class Refused(ValueError):
    """JSON this server refuses; the message says why and what was expected."""


def check_json(body: bytes) -> None:
    """Raise :class:`ValueError` with a one-line reason unless ``body`` is JSON this server
    reads: no number of over :data:`MAX_NUMBER_DIGITS` digits, no ``NaN`` or ``Infinity``,
    no nesting deeper than :data:`MAX_DEPTH` levels (:func:`parse_json`'s checks).

    >>> check_json(b'{"game": "war_of_life", "seed": 7}')
    >>> def reason(body: bytes) -> None:
    ...     try:
    ...         check_json(body)
    ...     except ValueError as error:
    ...         print(error)
    >>> reason(b"[NaN]")
    request body is not JSON: NaN is not a JSON number; expected finite numbers
    >>> reason(b"[" * 40 + b"]" * 40)  # doctest: +ELLIPSIS
    request body is not JSON within this server's limits: nested deeper than 32 levels; ...
    >>> reason(b"1" * 5000)  # doctest: +ELLIPSIS
    request body is not JSON within this server's limits: a number of 5000 digits; ...
    """
    parse_json(body)


def parse_json(text: str | bytes, what: str = "request body") -> Any:
    """The JSON value of ``text`` (``what`` a client sent: a request body, a socket
    message), or :class:`ValueError` with a one-line reason when it is not JSON this server
    reads. Every JSON a client sends is read through here, so nothing reaches the standard
    parser's own failures (a 5,000-digit integer, infinity) or a deep recursion later.

    >>> parse_json('{"a": [1, 2.5]}', "message")
    {'a': [1, 2.5]}
    >>> parse_json("[Infinity]", "message")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    lifearena.web.json_limits.Refused: message is not JSON: Infinity is not a JSON number; ...
    """
    try:
        value = json.loads(text, parse_int=_parse_int, parse_float=_parse_float,
                           parse_constant=_parse_constant)
    except Refused as error:
        raise Refused(str(error).replace("request body", what, 1)) from None
    except json.JSONDecodeError as error:
        raise Refused(f"{what} is not JSON: {error.msg} at line {error.lineno} column "
                       f"{error.colno}; expected one JSON document") from None
    except UnicodeDecodeError as error:
        raise Refused(f"{what} is not JSON: byte {error.start} is not {error.encoding} "
                       "text; expected UTF-8") from None
    except RecursionError:
        raise Refused(_too_deep().replace("request body", what, 1)) from None
    except ValueError as error:  # anything else the decoder finds wrong
        reason = str(error).splitlines()[0][:_SHOWN] if str(error) else type(error).__name__
        raise Refused(f"{what} is not JSON: {reason}; expected one JSON document") from None
    if _depth(value) > MAX_DEPTH:
        raise Refused(_too_deep().replace("request body", what, 1))
    return value


def _parse_int(text: str) -> int:
    _check_digits(text)
    return int(text)


def _parse_float(text: str) -> float:
    _check_digits(text)
    value = float(text)
    if not math.isfinite(value):
        raise Refused(f"request body is not JSON within this server's limits: the number "
                       f"{_shown(text)} is out of range; expected a finite number")
    return value


def _parse_constant(text: str) -> Any:
    raise Refused(f"request body is not JSON: {text} is not a JSON number; expected finite "
                   "numbers")


def _check_digits(text: str) -> None:
    digits = sum(character.isdigit() for character in text)
    if digits > MAX_NUMBER_DIGITS:
        raise Refused(f"request body is not JSON within this server's limits: a number of "
                       f"{digits} digits; expected at most {MAX_NUMBER_DIGITS}")


def _too_deep() -> str:
    return (f"request body is not JSON within this server's limits: nested deeper than "
            f"{MAX_DEPTH} levels; expected at most {MAX_DEPTH}")


def _depth(value: Any) -> int:
    """How deep arrays and objects nest in a parsed JSON value (a scalar is 0), found
    without recursion; it stops looking once past :data:`MAX_DEPTH`."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            item = list(item.values())
        if isinstance(item, list):
            deepest = max(deepest, depth + 1)
            if deepest > MAX_DEPTH:
                return deepest
            stack.extend((child, depth + 1) for child in item)
    return deepest


def _shown(value: str) -> str:
    """``value`` quoted for an error message: one line, at most :data:`_SHOWN` characters."""
    return repr(value[:_SHOWN] + ("..." if len(value) > _SHOWN else ""))
