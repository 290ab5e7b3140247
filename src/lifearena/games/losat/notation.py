"""Losat's notation: Go coordinates, moves (the :class:`Move` value) and positions.

Move notation
-------------
``+bD4`` / ``+wD4`` add a black / white stone at D4 (``+D4`` on input: the mover's colour),
``-D4`` remove the stone at D4, ``xD4`` capture the stone at D4 (it turns to the other
colour), ``pass``. Input is case-insensitive. Actions are dense integers: with ``N`` points,
``kind * N + point`` for kind 0 remove, 1 add black, 2 add white, 3 capture, and ``4 * N``
for the pass; points are numbered row by row from the top-left (``A19``) corner.

>>> move = Move.parse("+bd4")
>>> move, move.kind == ADD_BLACK, move.point, str(move)
(Move.parse('+bD4'), True, (3, 4), '+bD4')
>>> move.action(19, 19), Move.from_action(649, 19, 19)
(649, Move.parse('+bD4'))

Position notation
-----------------
A FEN-like line: the rows from the top (row ``length``) down to row 1, separated by ``/``,
each row a run of ``b`` (black), ``w`` (white), ``.`` (empty) and decimal counts of empty
points; then optionally the side to move (``b``/``w``), the captures ``B-W`` and the number of
passes just played in a row (0 or 1). The default start::

    19/19/19/19/19/9www7/9w1w7/9w1w7/19/19/19/8b1b8/8b1b8/8bbb8/19/19/19/19/19 b 0-0 0

This module knows nothing of the state: it reads and writes text for a board of a given
``width`` and ``length``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from lifearena.errors import BadParameterError, ParseError

BLACK, WHITE = 0, 1
"""Player ids; a point holds ``player + 1`` (1 black, 2 white) or 0 when empty."""
SYMBOLS = ("b", "w")
COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
"""Go column letters: the alphabet without I."""
REMOVE, ADD_BLACK, ADD_WHITE, CAPTURE = 0, 1, 2, 3
"""The kinds of a change: an action is ``kind * N + point`` on a board of ``N`` points."""
PASS = 4
"""The kind of a pass, whose action is ``4 * N``."""

MAX_WIDTH, MAX_LENGTH = len(COLUMNS), 99

_PREFIXES = {REMOVE: "-", ADD_BLACK: "+b", ADD_WHITE: "+w", CAPTURE: "x"}
_MOVE = re.compile(r"^(?:(?P<pass>pass)|(?P<kind>[-x+])(?P<colour>[bw])?(?P<col>[a-z])"
                   r"(?P<row>\d{1,2}))$")


def point_name(point: int, width: int, length: int) -> str:
    """Go-style name of a point index (row by row from the top-left).

    >>> point_name(0, 19, 19), point_name(360, 19, 19)
    ('A19', 'T1')
    """
    row, col = divmod(point, width)
    return f"{COLUMNS[col]}{length - row}"


def parse_point(text: str, width: int, length: int) -> int:
    """The point index of a Go-style name like ``D4``; :class:`ParseError` if off the board.

    >>> parse_point("k10", 19, 19)
    180
    >>> parse_point("U4", 19, 19)
    Traceback (most recent call last):
    ...
    lifearena.errors.ParseError: point 'U4' is off the board: columns are A..T (no I)
    """
    match = re.fullmatch(r"([A-Za-z])(\d{1,2})", text.strip())
    if not match:
        raise ParseError(f"bad point {text!r}; expected a column letter and a row number "
                         "such as D4")
    letter, number = match.group(1).upper(), int(match.group(2))
    if letter == "I":
        raise ParseError(f"bad point {text!r}: Go coordinates skip the letter I; columns are "
                         f"{COLUMNS[0]}..{COLUMNS[width - 1]}")
    return _point_index(text, COLUMNS.index(letter), number, width, length)


def _point_index(text: str, col: int, number: int, width: int, length: int) -> int:
    """The index of the point in column ``col`` (0 = A) and row ``number`` (1 = bottom), or
    a :class:`ParseError` naming ``text`` if that is off the board."""
    if col >= width:
        raise ParseError(f"point {text!r} is off the board: columns are "
                         f"{COLUMNS[0]}..{COLUMNS[width - 1]} (no I)")
    if not 1 <= number <= length:
        raise ParseError(f"point {text!r} is off the board: rows are 1..{length}")
    return (length - number) * width + col


@dataclass(frozen=True, slots=True)
class Move:
    """One Losat move: its ``kind`` (:data:`REMOVE`, :data:`ADD_BLACK`, :data:`ADD_WHITE`,
    :data:`CAPTURE` or :data:`PASS`) and its ``point``, ``(column, row)`` in Go coordinates
    (column 0 is ``A``, the letter I skipped; row 1 is the bottom row), ``None`` for a pass.

    A move does not know the board: :meth:`action` and :meth:`from_action` take its size,
    which the dense action numbers depend on.

    >>> Move(CAPTURE, (9, 6))
    Move.parse('xK6')
    >>> Move.parse("PASS"), Move.parse("pass").action(19, 19)
    (Move.parse('pass'), 1444)
    >>> Move.parse("+K5", mover=WHITE)
    Move.parse('+wK5')
    >>> Move(REMOVE, None)
    Traceback (most recent call last):
    ...
    lifearena.errors.BadParameterError: a remove move needs a point (column, row); got None
    """

    kind: int
    point: tuple[int, int] | None = None

    def __post_init__(self) -> None:
        if self.kind not in (REMOVE, ADD_BLACK, ADD_WHITE, CAPTURE, PASS):
            raise BadParameterError(f"move kind {self.kind!r}; expected 0 (remove), 1 (add "
                                    "black), 2 (add white), 3 (capture) or 4 (pass)")
        if self.kind == PASS:
            if self.point is not None:
                raise BadParameterError(f"a pass has no point; got {self.point!r}")
            return
        if self.point is None:
            kind = {REMOVE: "remove", CAPTURE: "capture"}.get(self.kind, "add")
            raise BadParameterError(f"a {kind} move needs a point (column, row); got None")
        col, row = self.point
        if not (0 <= col < MAX_WIDTH and 1 <= row <= MAX_LENGTH):
            raise BadParameterError(f"point {self.point!r}; expected (column 0..{MAX_WIDTH - 1}"
                                    f", row 1..{MAX_LENGTH})")

    @classmethod
    def parse(cls, text: str, *, mover: int | None = None, width: int = MAX_WIDTH,
              length: int = MAX_LENGTH) -> Move:
        """Read the move notation (case-insensitive) for a ``width`` x ``length`` board (the
        largest by default); ``mover`` (0 Black, 1 White) is the colour ``+D4`` adds.

        >>> Move.parse(" xk6 ")
        Move.parse('xK6')
        >>> Move.parse("-bD4")
        Traceback (most recent call last):
        ...
        lifearena.errors.ParseError: bad Losat move '-bD4': only additions name a colour; \
write -D4
        >>> Move.parse("+bU4", width=19, length=19)
        Traceback (most recent call last):
        ...
        lifearena.errors.ParseError: point 'u4' is off the board: columns are A..T (no I)
        """
        match = _MOVE.match(text.strip().lower())
        if not match:
            raise ParseError(f"bad Losat move {text!r}; expected +bD4 or +wD4 (add), -D4 "
                             "(remove), xD4 (capture) or pass")
        if match.group("pass"):
            return cls(PASS)
        index = parse_point(match.group("col") + match.group("row"), width, length)
        row, col = divmod(index, width)
        point = (col, length - row)
        kind, colour = match.group("kind"), match.group("colour")
        if kind == "+":
            if colour is None:
                if mover is None:
                    raise ParseError(f"bad Losat move {text!r}: whose colour does it add? "
                                     "write +b or +w and the point")
                colour = SYMBOLS[mover]
            return cls(ADD_BLACK if colour == "b" else ADD_WHITE, point)
        if colour is not None:
            raise ParseError(f"bad Losat move {text!r}: only additions name a colour; "
                             f"write {kind}{text.strip()[2:].upper()}")
        return cls(REMOVE if kind == "-" else CAPTURE, point)

    @classmethod
    def from_action(cls, action: int, width: int, length: int) -> Move:
        """The move of the dense ``action`` on a ``width`` x ``length`` board.

        >>> Move.from_action(180, 19, 19), Move.from_action(4 * 361, 19, 19)
        (Move.parse('-K10'), Move.parse('pass'))
        >>> Move.from_action(1445, 19, 19)
        Traceback (most recent call last):
        ...
        lifearena.errors.ParseError: action 1445 is out of range; expected 0..1444
        """
        n = width * length
        if not 0 <= action <= 4 * n:
            raise ParseError(f"action {action} is out of range; expected 0..{4 * n}")
        if action == 4 * n:
            return cls(PASS)
        kind, index = divmod(int(action), n)
        row, col = divmod(index, width)
        return cls(kind, (col, length - row))

    def action(self, width: int, length: int) -> int:
        """The dense action of this move on a ``width`` x ``length`` board;
        :class:`ParseError` if its point is off that board.

        >>> Move.parse("+wA19").action(19, 19), Move.parse("-T1").action(19, 19)
        (722, 360)
        """
        n = width * length
        if self.point is None:
            return PASS * n
        col, row = self.point
        return self.kind * n + _point_index(str(self.point_name), col, row, width, length)

    @property
    def point_name(self) -> str | None:
        """The point's Go name such as ``D4`` (``None`` for a pass)."""
        if self.point is None:
            return None
        col, row = self.point
        return f"{COLUMNS[col]}{row}"

    def __str__(self) -> str:
        if self.point is None:
            return "pass"
        return f"{_PREFIXES[self.kind]}{self.point_name}"

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"


def parse_position(text: str) -> tuple[np.ndarray, int | None, tuple[int, int], int]:
    """Read the position notation: ``(board, side or None, captures, passes)``.

    >>> board, side, caps, passes = parse_position("5/2b2/.www. w 1-0 1")
    >>> board.tolist(), side, caps, passes
    ([[0, 0, 0, 0, 0], [0, 0, 1, 0, 0], [0, 2, 2, 2, 0]], 1, (1, 0), 1)
    """
    fields = text.split()
    if not fields:
        raise ParseError("empty Losat position; expected rows like '19/19/...' then "
                         "side, captures and passes")
    if len(fields) > 4:
        raise ParseError(f"Losat position {text!r} has {len(fields)} fields; expected at most 4 "
                         "(rows, side to move, captures B-W, passes)")
    board = _parse_rows(fields[0])
    side = None
    if len(fields) > 1:
        if fields[1] not in SYMBOLS:
            raise ParseError(f"bad side to move {fields[1]!r}; expected 'b' or 'w'")
        side = SYMBOLS.index(fields[1])
    captures = (0, 0)
    if len(fields) > 2:
        match = re.fullmatch(r"(\d+)-(\d+)", fields[2])
        if not match:
            raise ParseError(f"bad captures {fields[2]!r}; expected B-W such as 0-0")
        captures = (int(match.group(1)), int(match.group(2)))
    passes = 0
    if len(fields) > 3:
        if fields[3] not in ("0", "1"):
            raise ParseError(f"bad passes {fields[3]!r}; expected 0 or 1 (passes in a row)")
        passes = int(fields[3])
    return board, side, captures, passes


def _parse_rows(text: str) -> np.ndarray:
    """The board of a position's first field (rows from the top, separated by ``/``)."""
    rows: list[list[int]] = []
    row_texts = text.split("/")
    if len(row_texts) > MAX_LENGTH:
        raise ParseError(f"position has {len(row_texts)} rows; expected at most {MAX_LENGTH}")
    for number, row_text in enumerate(row_texts, start=1):
        row: list[int] = []
        for run in re.findall(r"\d+|.", row_text):
            if run.isdigit():
                if int(run) == 0:
                    raise ParseError(f"row {number} of position {text!r} has an empty run "
                                     "'0'; expected a positive count")
                # checked before the run is expanded: a count like 10**12 must not fill memory
                if len(row) + int(run) > MAX_WIDTH:
                    raise ParseError(f"row {number} of position {text!r} is more than "
                                     f"{MAX_WIDTH} points wide; expected at most {MAX_WIDTH}")
                row.extend([0] * int(run))
            elif run in "bw.":
                row.append({"b": 1, "w": 2, ".": 0}[run])
            else:
                raise ParseError(f"bad character {run!r} in row {number} of position "
                                 f"{text!r}; expected b, w, . or a count")
        rows.append(row)
    widths = {len(r) for r in rows}
    if len(widths) != 1:
        raise ParseError(f"rows of position {text!r} have different widths "
                         f"{sorted(widths)}; expected equal widths")
    return np.array(rows, dtype=np.int8)


def format_position(board: np.ndarray, side: int, captures: tuple[int, int],
                    passes: int) -> str:
    """Write the position notation (empty runs as counts).

    >>> format_position(np.array([[0, 1, 0], [2, 0, 0]]), 0, (0, 2), 0)
    '1b1/w2 b 0-2 0'
    """
    rows = []
    for row in np.asarray(board):
        text, empties = "", 0
        for value in row:
            if value == 0:
                empties += 1
                continue
            if empties:
                text += str(empties)
                empties = 0
            text += "bw"[int(value) - 1]
        rows.append(text + (str(empties) if empties else ""))
    return f"{'/'.join(rows)} {SYMBOLS[side]} {captures[0]}-{captures[1]} {passes}"
