"""The exceptions lifearena raises for bad input.

Every error is a :class:`ValueError` subclass whose message names the offending input and
what was expected, so the command line can print it as one line and exit with status 2.

>>> try:
...     raise ParseError("bad run count 'x' at line 2, column 5; expected a number")
... except ValueError as error:
...     print(error)
bad run count 'x' at line 2, column 5; expected a number
"""

from __future__ import annotations

from pathlib import Path


class LifeArenaError(ValueError):
    """Base class of every error caused by bad input to lifearena."""


class ParseError(LifeArenaError):
    """Text (RLE, a position, a move, a record, a rule table) could not be read."""


class RuleError(LifeArenaError):
    """An unknown rule name or a malformed rule string or table."""


class GridError(LifeArenaError):
    """A grid has the wrong type, shape or cell values."""


class IllegalMoveError(LifeArenaError):
    """A move that the rules do not allow in the current position."""


class BadParameterError(LifeArenaError):
    """A parameter outside its allowed range (a size, a count, a probability...)."""


def read_text_file(path: str | Path, expected: str) -> str:
    """The text of the UTF-8 file ``path``; a file that is not text (a picture, a database)
    is a :class:`ParseError` naming it and ``expected``, rather than a line of garbage
    quoted from its bytes.

    >>> import tempfile
    >>> with tempfile.NamedTemporaryFile(suffix=".rle") as f:
    ...     _ = f.write(bytes([0x34, 0x91, 0xff, 0x06])); f.flush()
    ...     read_text_file(f.name, "a pattern in RLE")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    lifearena.errors.ParseError: '/...rle' is not a text file; expected a pattern in RLE
    """
    try:
        return Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise ParseError(f"{str(path)!r} is not a text file; expected {expected}") from None
