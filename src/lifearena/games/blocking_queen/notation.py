"""The blocking queen game's notation: squares, the dense actions, and the ``Move`` value
object.

Squares are ``x,y`` with x, y in 0 .. 127, y growing downward (the origin top left):

* a queen move is its destination ``x,y`` (``13,33``);
* a block is ``#x,y`` (``#13,21``); in the block phase a bare ``x,y`` is read as a block;
* ending the blocks early is ``-``;
* a setup (position) is the start square ``x,y``.

Dense actions: ``y * 128 + x`` moves the queen to (x, y); ``16384 + y * 128 + x`` blocks
(x, y); ``32768`` ends the blocks.

>>> Move.parse("#13,21").action, Move.from_action(32768)
(19085, Move.parse('-'))
>>> Move.parse("13,21", blocking=True)
Move.parse('#13,21')
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from lifearena.errors import BadParameterError, ParseError

SIDE = 128
"""Coordinates run 0 .. SIDE - 1 (the dense action space covers this square)."""
SQUARES = SIDE * SIDE
BLOCK_BASE = SQUARES
"""The first block action: ``BLOCK_BASE + y * SIDE + x`` blocks (x, y)."""
DONE = 2 * SQUARES
"""The action that ends the blocks early (``-``)."""
NUM_ACTIONS = 2 * SQUARES + 1
SYMBOLS = ("1", "2")
"""The players' symbols: player 0 is ``1``, player 1 is ``2``."""

MoveKind = Literal["move", "block", "stop"]

_SQUARE = re.compile(r"\s*(\d+)\s*,\s*(\d+)\s*")


def parse_square(text: str) -> tuple[int, int]:
    """Read ``x,y`` with both coordinates in 0 .. SIDE - 1.

    >>> parse_square(" 20, 33")
    (20, 33)
    """
    match = _SQUARE.fullmatch(text)
    if not match:
        raise ParseError(f"square {text!r}; expected 'x,y' such as '20,33'")
    x, y = int(match.group(1)), int(match.group(2))
    if x >= SIDE or y >= SIDE:
        raise ParseError(f"square {text!r} is off the board; expected 0 <= x, y < {SIDE}")
    return x, y


def square_index(x: int, y: int) -> int:
    """The index ``y * SIDE + x`` of square (x, y) (its queen move's action)."""
    return y * SIDE + x


def index_square(index: int) -> tuple[int, int]:
    """The square ``(x, y)`` of an index (inverse of :func:`square_index`)."""
    return index % SIDE, index // SIDE


@dataclass(frozen=True)
class Move:
    """One ply: the queen moves to (x, y), a player blocks (x, y), or stops blocking.

    >>> Move.parse("20,9"), Move.parse("-").kind
    (Move.parse('20,9'), 'stop')
    >>> Move("block", 3, 2).action == 16384 + 2 * 128 + 3
    True
    """

    kind: MoveKind
    x: int = 0
    y: int = 0

    def __post_init__(self) -> None:
        if self.kind not in ("move", "block", "stop"):
            raise BadParameterError(f"move kind {self.kind!r}; expected move, block or stop")
        if not (0 <= self.x < SIDE and 0 <= self.y < SIDE):
            raise BadParameterError(f"square {self.x},{self.y} is off the board; expected "
                                    f"0 <= x, y < {SIDE}")

    @classmethod
    def parse(cls, text: str, *, blocking: bool = False) -> Move:
        """Read ``x,y``, ``#x,y`` or ``-``; a bare ``x,y`` is a block when ``blocking``."""
        stripped = text.strip()
        if stripped == "-":
            return cls("stop")
        if stripped.startswith("#"):
            return cls("block", *parse_square(stripped[1:]))
        return cls("block" if blocking else "move", *parse_square(stripped))

    @classmethod
    def from_action(cls, action: int) -> Move:
        """The move of a dense action (:class:`ParseError` out of range, as in every game).

        >>> Move.from_action(DONE)
        Move.parse('-')
        """
        action = int(action)
        if action == DONE:
            return cls("stop")
        if 0 <= action < BLOCK_BASE:
            return cls("move", *index_square(action))
        if BLOCK_BASE <= action < DONE:
            return cls("block", *index_square(action - BLOCK_BASE))
        raise ParseError(f"action {action} is out of range 0..{NUM_ACTIONS - 1}")

    @property
    def action(self) -> int:
        """This move's dense action."""
        if self.kind == "stop":
            return DONE
        base = BLOCK_BASE if self.kind == "block" else 0
        return base + square_index(self.x, self.y)

    @property
    def square(self) -> tuple[int, int] | None:
        """The square ``(x, y)`` the queen moves to or that is blocked; ``None`` for ``-``."""
        return None if self.kind == "stop" else (self.x, self.y)

    def __str__(self) -> str:
        if self.kind == "stop":
            return "-"
        return f"{'#' if self.kind == 'block' else ''}{self.x},{self.y}"

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"
