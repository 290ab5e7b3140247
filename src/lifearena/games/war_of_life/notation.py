"""War of Life's notation: the board's coordinates, moves and positions as the coursework
writes them.

* Moves are written as in the coursework, ``[r1,c1,r2,c2]`` (from row/column to row/column).
  Also read: ``r1,c1,r2,c2`` (spaces allowed) and the short form ``r1c1r2c2`` of four digits,
  optionally split as ``r1c1-r2c2`` or ``r1c1 r2c2`` (``7172`` = ``71-72`` = ``[7,1,7,2]``).
* Positions use the coursework's Prolog form ``[[[3,4],[5,7]],[[8,8]]]``: the blue list, then
  the red list, each sorted by (row, column). A setup string (what records store) is that form,
  followed by `` r`` when red is to move and by the number of moves already played when it is
  not 0, e.g. ``[[[1,1]],[[8,8]]] r 249``.
* Actions are dense integers ``cell * 8 + direction`` (512 of them) with
  ``cell = (row - 1) * 8 + (column - 1)`` and the directions in the coursework's order
  ``(-1,-1), (-1,0), (-1,+1), (0,-1), (0,+1), (+1,-1), (+1,0), (+1,+1)``; so the sorted legal
  actions list the moves pieces by (row, column), then by direction: the strategies' tie order.

>>> Move.parse("71-72").action, ACTION_TEXT[Move(7, 1, 7, 2).action]
(388, '[7,1,7,2]')
>>> board_to_prolog(prolog_to_board("[[[2,3],[1,4]],[[8,8]]]"))
'[[[1,4],[2,3]],[[8,8]]]'
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

import numpy as np

from lifearena.core import Action
from lifearena.errors import IllegalMoveError, ParseError

SIZE = 8
"""Rows and columns of the board."""
NUM_ACTIONS = SIZE * SIZE * 8
DIRECTIONS: tuple[tuple[int, int], ...] = (
    (-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1),
)
"""(row delta, column delta) of the 8 directions, in the coursework's enumeration order."""
EMPTY, BLUE, RED = 0, 1, 2
"""Cell values on the board (the engine's empty, first and second colour)."""
SYMBOLS = ("b", "r")
"""The players' symbols: player 0 is blue, player 1 red."""


def _target(cell: int, direction: int) -> int:
    dr, dc = DIRECTIONS[direction]
    row, col = divmod(cell, SIZE)
    row, col = row + dr, col + dc
    return row * SIZE + col if 0 <= row < SIZE and 0 <= col < SIZE else -1


TARGETS: tuple[int, ...] = tuple(_target(a // 8, a % 8) for a in range(NUM_ACTIONS))
"""``TARGETS[action]``: the 0-based target cell of an action, or -1 when it leaves the board."""


@dataclass(frozen=True)
class Move:
    """A move from ``(r1, c1)`` to ``(r2, c2)``, 1-based as in the coursework.

    >>> Move.from_text("[7,1,7,2]")
    Move(7, 1, 7, 2)
    >>> str(Move.from_action(Move(7, 1, 7, 2).action))
    '[7,1,7,2]'
    """

    r1: int
    c1: int
    r2: int
    c2: int

    def __post_init__(self) -> None:
        for value in (self.r1, self.c1, self.r2, self.c2):
            if not 1 <= value <= SIZE:
                raise IllegalMoveError(f"move {self} leaves the board; rows and columns are "
                                       f"1..{SIZE}")
        dr, dc = self.r2 - self.r1, self.c2 - self.c1
        if (dr, dc) not in DIRECTIONS:
            raise IllegalMoveError(f"move {self} does not go to a neighbouring cell; a piece "
                                   "moves one step in one of the 8 directions")

    @property
    def action(self) -> Action:
        """The dense action number of this move."""
        direction = DIRECTIONS.index((self.r2 - self.r1, self.c2 - self.c1))
        return ((self.r1 - 1) * SIZE + self.c1 - 1) * 8 + direction

    @classmethod
    def from_action(cls, action: Action) -> Move:
        if not 0 <= action < NUM_ACTIONS or TARGETS[action] < 0:
            raise ParseError(f"action {action} is not a move on the board; expected "
                             f"0..{NUM_ACTIONS - 1} staying on the board")
        cell, target = divmod(action, 8)[0], TARGETS[action]
        return cls(cell // SIZE + 1, cell % SIZE + 1, target // SIZE + 1, target % SIZE + 1)

    @classmethod
    def from_text(cls, text: str) -> Move:
        """Read ``[r1,c1,r2,c2]``, ``r1,c1,r2,c2`` or the short ``r1c1r2c2`` / ``r1c1-r2c2``."""
        raw = text.strip()
        body = raw.removeprefix("[").removesuffix("]") if raw.startswith("[") else raw
        if "," in body:
            parts = [p.strip() for p in body.split(",")]
        else:
            parts = list(re.sub(r"[\s\-]", "", body))
        if len(parts) != 4 or not all(p.isdigit() and len(p) == 1 for p in parts):
            raise ParseError(f"bad move {text!r}; expected [r1,c1,r2,c2], r1,c1,r2,c2 or "
                             "r1c1r2c2 with rows and columns 1..8, e.g. [7,1,7,2]")
        values = [int(p) for p in parts]
        if not all(1 <= v <= SIZE for v in values):
            raise ParseError(f"bad move {text!r}: rows and columns go from 1 to {SIZE}")
        return cls(*values)

    parse = from_text
    """The same as :meth:`from_text` (the name every game's ``Move`` reads text by)."""

    def __str__(self) -> str:
        return f"[{self.r1},{self.c1},{self.r2},{self.c2}]"

    def __repr__(self) -> str:
        return f"Move({self.r1}, {self.c1}, {self.r2}, {self.c2})"


ACTION_TEXT: tuple[str, ...] = tuple(
    str(Move.from_action(a)) if TARGETS[a] >= 0 else "" for a in range(NUM_ACTIONS)
)
"""The coursework notation of every action ("" for the ones that leave the board)."""


# -- positions ----------------------------------------------------------------------------------


def cells_of(board: np.ndarray, colour: int) -> list[tuple[int, int]]:
    """The cells of ``colour`` on an ``(8, 8)`` board as (row, column), 1-based, sorted.

    >>> cells_of(prolog_to_board("[[[2,3],[1,4]],[[8,8]]]"), BLUE)
    [(1, 4), (2, 3)]
    """
    rows, cols = np.nonzero(board == colour)
    return [(int(r) + 1, int(c) + 1) for r, c in zip(rows, cols, strict=True)]


def board_to_prolog(board: np.ndarray) -> str:
    """The Prolog form of an ``(8, 8)`` board of 0/1/2.

    >>> board = np.zeros((8, 8), dtype=np.int8); board[2, 3] = 1; board[7, 7] = 2
    >>> board_to_prolog(board)
    '[[[3,4]],[[8,8]]]'
    """
    lists = ("[" + ",".join(f"[{r},{c}]" for r, c in cells_of(board, colour)) + "]"
             for colour in (BLUE, RED))
    return "[" + ",".join(lists) + "]"


def prolog_to_board(text: str) -> np.ndarray:
    """An ``(8, 8)`` int8 board from the Prolog form; :class:`ParseError` if malformed.

    >>> int(prolog_to_board("[[[1,4],[2,3]],[[8,8]]]").sum())
    4
    >>> prolog_to_board("[[[1,9]],[]]")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    lifearena.errors.ParseError: bad position '[[[1,9]],[]]': cell [1,9] is off the board; ...
    """
    expected = ("expected the Prolog form [[[r,c],...],[[r,c],...]] (blue cells, then red "
                "cells), e.g. [[[3,4],[5,7]],[[8,8]]]")
    raw = text.strip().removesuffix(".").strip()
    try:
        data = json.loads(raw)
    except json.JSONDecodeError:
        raise ParseError(f"bad position {text!r}; {expected}") from None
    if not (isinstance(data, list) and len(data) == 2 and all(isinstance(x, list) for x in data)):
        raise ParseError(f"bad position {text!r}: not two lists; {expected}")
    board = np.zeros((SIZE, SIZE), dtype=np.int8)
    for colour, cells in zip((BLUE, RED), data, strict=True):
        for cell in cells:
            if not (isinstance(cell, list) and len(cell) == 2
                    and all(type(v) is int for v in cell)):
                raise ParseError(f"bad position {text!r}: {json.dumps(cell)} is not a cell "
                                 f"[row,column]; {expected}")
            row, col = cell
            if not (1 <= row <= SIZE and 1 <= col <= SIZE):
                raise ParseError(f"bad position {text!r}: cell [{row},{col}] is off the board; "
                                 f"rows and columns go from 1 to {SIZE}")
            if board[row - 1, col - 1]:
                raise ParseError(f"bad position {text!r}: cell [{row},{col}] is listed twice; "
                                 "each cell holds at most one piece")
            board[row - 1, col - 1] = colour
    return board
