"""Life for Two's notation: cells, moves, dense actions and positions.

* A cell is ``x,y``: x the column (1 = left), y the row (1 = top), both 1..5.
* A move is one cell (``3,2``) or, on the first turn, three cells separated by spaces
  (``1,1 2,1 1,2``). A joint move in a record is ``"1,1 2,1 1,2 | 3,4 4,4 5,4"``.
* A position is five rows from the top joined by ``/`` (``.`` empty, ``*``, ``#``), a space
  and the number of the turn to be played next (1 is the three-piece turn):
  ``"...../..*../...#./..#../..... 2"``.

Dense actions (``NUM_ACTIONS = 25 + 2300``): ``0..24`` is the single cell with index
``(y - 1) * 5 + (x - 1)``; ``25 + k`` is the k-th 3-cell subset of the 25 cells in
lexicographic order of the sorted cell indices (``25`` is ``{0, 1, 2}``, ``2324`` is
``{22, 23, 24}``).

>>> Move.parse("2,1 1,1 1,2"), Move.from_action(7)
(Move.parse('1,1 2,1 1,2'), Move.parse('3,2'))
>>> board, turn = parse_position("...../..*../...#./..#../..... 2")
>>> format_position(board, turn)
'...../..*../...#./..#../..... 2'
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import combinations
from typing import cast

import numpy as np

from lifearena.errors import ParseError

SIZE = 5
CELLS = SIZE * SIZE
FIRST_PIECES = 3
"""How many cells each player chooses on the first turn (one on every later turn)."""
SYMBOLS = ("*", "#")
"""Player 1's (id 0) and player 2's (id 1) pieces."""
CHARS = ".*#"
"""A cell's character in a position: empty, player 1's piece, player 2's piece."""
_VALUE_OF = {char: value for value, char in enumerate(CHARS)}

TRIPLES: tuple[tuple[int, int, int], ...] = tuple(
    cast(Iterator[tuple[int, int, int]], combinations(range(CELLS), FIRST_PIECES)))
"""The 3-cell subsets in action order: action ``25 + k`` is ``TRIPLES[k]``."""
_TRIPLE_ACTION = {cells: CELLS + k for k, cells in enumerate(TRIPLES)}
NUM_ACTIONS = CELLS + len(TRIPLES)

_CELL_RE = re.compile(r"\s*([+-]?\d+)\s*,\s*([+-]?\d+)\s*")


def cell_index(x: int, y: int) -> int:
    """The index of the cell in column ``x``, row ``y`` (both 1..5).

    >>> cell_index(3, 2)
    7
    """
    if not (1 <= x <= SIZE and 1 <= y <= SIZE):
        raise ParseError(f"cell {x},{y} is off the board; expected x and y in 1..{SIZE}")
    return (y - 1) * SIZE + (x - 1)


def cell_text(index: int) -> str:
    """The ``x,y`` notation of a cell index.

    >>> cell_text(7)
    '3,2'
    """
    y, x = divmod(index, SIZE)
    return f"{x + 1},{y + 1}"


def parse_cell(text: str) -> int:
    """The cell index of ``x,y`` text; :class:`ParseError` for anything else.

    >>> parse_cell(" 5, 1 ")
    4
    >>> parse_cell("6,1")
    Traceback (most recent call last):
    ...
    lifearena.errors.ParseError: cell 6,1 is off the board; expected x and y in 1..5
    """
    match = _CELL_RE.fullmatch(text)
    if not match:
        raise ParseError(f"bad cell {text.strip()!r}; expected x,y with x the column and y the "
                         f"row, both 1..{SIZE} (e.g. 3,2)")
    return cell_index(int(match.group(1)), int(match.group(2)))


@dataclass(frozen=True)
class Move:
    """One player's choice for a turn: one cell, or three distinct cells on the first turn
    (cell indices, kept sorted).

    >>> Move.parse("2,1 1,1 1,2")
    Move.parse('1,1 2,1 1,2')
    >>> Move.parse("1,1 2,1 1,2").action, Move.from_action(7)
    (28, Move.parse('3,2'))
    >>> Move.parse("1,1 1,1 2,2")
    Traceback (most recent call last):
    ...
    lifearena.errors.ParseError: the cells of a move must be distinct; got 1,1 1,1 2,2
    """

    cells: tuple[int, ...]

    def __post_init__(self) -> None:
        cells = tuple(sorted(int(c) for c in self.cells))
        if len(cells) not in (1, FIRST_PIECES):
            raise ParseError(f"a move is 1 cell or {FIRST_PIECES} cells; got {len(cells)}")
        if len(set(cells)) != len(cells):
            raise ParseError(f"the cells of a move must be distinct; got "
                             f"{' '.join(cell_text(c) for c in self.cells)}")
        if not all(0 <= c < CELLS for c in cells):
            raise ParseError(f"cell index out of range in {cells}; expected 0..{CELLS - 1}")
        object.__setattr__(self, "cells", cells)

    @classmethod
    def parse(cls, text: str) -> Move:
        """Read one cell ``x,y`` or three cells ``x,y x,y x,y`` (not checked against a
        position)."""
        parts = text.split()
        if not parts:
            raise ParseError("empty move; expected x,y (or three cells x,y x,y x,y on the "
                             "first turn)")
        return cls(tuple(parse_cell(p) for p in parts))

    from_text = parse
    """The same as :meth:`parse` (the name the other games' moves use)."""

    @classmethod
    def from_action(cls, action: int) -> Move:
        """The move of a dense action (see the module docstring)."""
        if 0 <= action < CELLS:
            return cls((action,))
        if CELLS <= action < NUM_ACTIONS:
            return cls(TRIPLES[action - CELLS])
        raise ParseError(f"action {action} out of range; expected 0..{NUM_ACTIONS - 1}")

    @property
    def action(self) -> int:
        """The dense action number of this move."""
        if len(self.cells) == 1:
            return self.cells[0]
        return _TRIPLE_ACTION[cast(tuple[int, int, int], self.cells)]

    @property
    def grid_cells(self) -> list[tuple[int, int]]:
        """The ``(row, column)`` array indices (0-based) of the cells, in order.

        >>> Move.parse("3,2 1,1 5,5").grid_cells
        [(0, 0), (1, 2), (4, 4)]
        """
        return [divmod(c, SIZE) for c in self.cells]

    def __str__(self) -> str:
        return " ".join(cell_text(c) for c in self.cells)

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"


def parse_position(text: str) -> tuple[np.ndarray, int]:
    """The board and next turn number of a position in this module's notation.

    >>> board, turn = parse_position("*..../...../...../...../....# 3")
    >>> board.tolist()[0][0], board.tolist()[4][4], turn
    (1, 2, 3)
    """
    parts = text.split()
    rows = parts[0].split("/") if parts else []
    if len(parts) not in (1, 2) or len(rows) != SIZE or any(len(r) != SIZE for r in rows):
        raise ParseError(f"bad position {text!r}; expected 5 rows of 5 characters from '.*#' "
                         "joined by '/', then the turn number (e.g. '...../...../...../...../"
                         "..... 1')")
    board = np.zeros((SIZE, SIZE), dtype=np.int8)
    for y, row in enumerate(rows):
        for x, char in enumerate(row):
            if char not in _VALUE_OF:
                raise ParseError(f"bad character {char!r} in position {text!r}; expected "
                                 "'.', '*' or '#'")
            board[y, x] = _VALUE_OF[char]
    turn = 1
    if len(parts) == 2:
        if not parts[1].isdigit() or int(parts[1]) < 1:
            raise ParseError(f"bad turn number {parts[1]!r} in position {text!r}; expected an "
                             "integer >= 1")
        turn = int(parts[1])
    return board, turn


def format_position(board: np.ndarray, turn: int) -> str:
    """The notation of ``board`` with ``turn`` to play (inverse of :func:`parse_position`)."""
    rows = ("".join(CHARS[v] for v in row) for row in board.tolist())
    return "/".join(rows) + f" {turn}"
