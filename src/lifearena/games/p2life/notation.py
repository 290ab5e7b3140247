"""p2life's notation: the players' symbols, one player's move, and positions.

* A cell is ``x,y``: x the column (1 = left), y the row (1 = top), as in Life for Two.
* A move is ``pass``, ``+x,y`` (place a token) or ``-x,y`` (remove one of one's own); a joint
  move in a record is ``"+3,4 | pass"``.
* A position is the rows from the top joined by ``/`` (``.`` empty, ``w``, ``b``), a space,
  the number of generations played so far and, after a colon, the moves made since the last
  generation: ``"w...b/...../..... 0:0"``.

Dense actions for a board of ``n = height * width`` cells: ``0`` is pass, ``1 + i`` places on
cell ``i = (y - 1) * width + (x - 1)``, ``1 + n + i`` removes from cell ``i``.

>>> move = Move.parse("-2,1")
>>> move.action(5, 5), Move.from_action(move.action(5, 5), 5, 5) == move
(27, True)
>>> format_position(*parse_position("w.b/... 3:0"))
'w.b/... 3:0'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

import numpy as np

from lifearena.errors import ParseError

SYMBOLS = ("w", "b")
"""The players' symbols: white (player 0, colour 1) and black (player 1, colour 2)."""
CHARS = ".wb"
"""A cell's character in a position, indexed by its value (0 empty, 1 white, 2 black)."""
MAX_SIDE = 64
"""The longest side of a board."""

MoveKind = Literal["pass", "place", "remove"]

_VALUES = {char: value for value, char in enumerate(CHARS)}
_MOVE_RE = re.compile(r"\s*([+-])\s*(\d+)\s*,\s*(\d+)\s*")
_POSITION_RE = re.compile(r"(?P<rows>[.wb/]+)\s+(?P<gen>\d+):(?P<moved>\d+)")


@dataclass(frozen=True)
class Move:
    """One player's choice: pass, place (``+``) or remove (``-``) at cell ``(x, y)``, 1-based.

    Its action depends on the board's size (:meth:`action`, :meth:`from_action`).

    >>> Move.parse("+3,2"), Move.parse("pass").kind
    (Move.parse('+3,2'), 'pass')
    >>> Move.parse("-1,1").action(5, 5), Move.from_action(27, 5, 5)
    (26, Move.parse('-2,1'))
    """

    kind: MoveKind
    x: int = 0
    y: int = 0

    @classmethod
    def parse(cls, text: str) -> Move:
        """Read ``pass``, ``+x,y`` or ``-x,y`` (not checked against a board's size)."""
        if text.strip().lower() == "pass":
            return cls("pass")
        match = _MOVE_RE.fullmatch(text)
        if not match:
            raise ParseError(f"bad move {text.strip()!r}; expected pass, +x,y (place) or -x,y "
                             "(remove), x the column and y the row from 1")
        sign, x, y = match.groups()
        return cls("place" if sign == "+" else "remove", int(x), int(y))

    from_text = parse
    """The same as :meth:`parse` (the name the other games' moves use)."""

    @classmethod
    def from_action(cls, action: int, height: int, width: int) -> Move:
        """The move of ``action`` on a ``height`` x ``width`` board."""
        n = height * width
        if action == 0:
            return cls("pass")
        if not 0 < action <= 2 * n:
            raise ParseError(f"action {action} out of range; expected 0..{2 * n}")
        kind: MoveKind = "place" if action <= n else "remove"
        y, x = divmod((action - 1) % n, width)
        return cls(kind, x + 1, y + 1)

    def action(self, height: int, width: int) -> int:
        """This move's action on a ``height`` x ``width`` board (the cell must be on it)."""
        if self.kind == "pass":
            return 0
        if not (1 <= self.x <= width and 1 <= self.y <= height):
            raise ParseError(f"cell {self.x},{self.y} is off the {height}x{width} board; "
                             f"expected x in 1..{width} and y in 1..{height}")
        index = (self.y - 1) * width + (self.x - 1)
        return 1 + index + (height * width if self.kind == "remove" else 0)

    @property
    def cell(self) -> tuple[int, int] | None:
        """The ``(row, column)`` array index (0-based) of the cell; ``None`` for a pass.

        >>> Move.parse("+3,2").cell, Move.parse("pass").cell
        ((1, 2), None)
        """
        return None if self.kind == "pass" else (self.y - 1, self.x - 1)

    def __str__(self) -> str:
        if self.kind == "pass":
            return "pass"
        return f"{'+' if self.kind == 'place' else '-'}{self.x},{self.y}"

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"


def parse_position(text: str) -> tuple[np.ndarray, int, int]:
    """The board, generations played and moves since the last generation of a position.

    >>> board, generation, moved = parse_position("w.b/... 3:0")
    >>> board.tolist(), generation, moved
    ([[1, 0, 2], [0, 0, 0]], 3, 0)
    """
    match = _POSITION_RE.fullmatch(text.strip())
    rows = match.group("rows").split("/") if match else []
    if not match or not rows[0] or any(len(r) != len(rows[0]) for r in rows):
        raise ParseError(f"bad p2life position {text!r}; expected rows of equal length from "
                         "'.wb' joined by '/', a space, generations:moves (e.g. 'w../.b. 0:0')")
    if len(rows) > MAX_SIDE or len(rows[0]) > MAX_SIDE:
        raise ParseError(f"p2life board {len(rows)}x{len(rows[0])} is too large; "
                         f"expected at most {MAX_SIDE}x{MAX_SIDE}")
    board = np.array([[_VALUES[c] for c in row] for row in rows], dtype=np.int8)
    return board, int(match.group("gen")), int(match.group("moved"))


def format_position(board: np.ndarray, generation: int, moved: int) -> str:
    """The notation of a position (inverse of :func:`parse_position`).

    >>> format_position(np.array([[1, 0], [0, 2]]), 4, 1)
    'w./.b 4:1'
    """
    rows = ("".join(CHARS[v] for v in row) for row in board.tolist())
    return "/".join(rows) + f" {generation}:{moved}"
