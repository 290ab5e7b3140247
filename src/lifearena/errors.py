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
