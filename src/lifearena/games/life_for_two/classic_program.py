"""The 1978 BASIC program LIFE2's words and arithmetic, statement by statement: what it prints
and how it counts, for the program as a state (:mod:`.classic`) and its presentation.

The program keeps the board in the array ``N(0..6, 0..6)`` (:data:`Codes`, row first); rows
and columns 0 and 6 are a border it never clears nor reads. A ``*`` is 100, a ``#`` 1000;
during the setup the pieces are 3 (``*``) and 30 (``#``) until the board is first printed.

* The generation (lines 50-65, :func:`add_neighbours`) adds 1 (``*``) or 10 (``#``) to the
  eight neighbours of every piece; printing the board (lines 90-126 and 300-399,
  :func:`print_board`) turns each sum into a piece by two lists of codes. A test checks that
  this equals the engine's Immigration rule.
* Every board starts with an empty line and its last line (`` 0  1  2  3  4  5  0 ``) is
  left open (``PRINT ...;``); the next ``PRINT`` closes it. Each row ends with a space,
  because BASIC prints a number as sign or space, digits, space (:func:`basic_number`).
* The piece prompts ``XXXXXX``, ``$$$$$$``, ``&&&&&&`` were joined by carriage returns so a
  teletype overprinted the answer; like the issue's transcript they print here on lines of
  their own (:data:`QUESTION`), then the ``INPUT`` prompt ``? ``.
* ``INPUT Y(B),X(B)`` reads two integers (:func:`read_input`); anything else makes BASIC
  say :data:`REDO` and show ``? `` again (Microsoft BASIC's wording: the listing leaves it
  open). Two integers off the board, or a cell that is not empty, make the program say
  :data:`RETYPE` and ask its whole question again.

>>> codes = new_codes()
>>> codes[1][1] = codes[1][2] = codes[2][1] = 3     # three * of the setup
>>> printed, stars, hashes = print_board(codes)
>>> printed.split("\\n")[1:3]
[' 0  1  2  3  4  5  0 ', ' 1  *  *           1 ']
>>> stars, hashes, codes[1][1]
(3, 0, 100)
"""

from __future__ import annotations

import io
import re

TITLE = (" " * 32 + "LIFE2\n"
         + " " * 14 + "CREATIVE COMPUTING  MORRISTOWN, NEW JERSEY\n"
         + "\n\n\n"
         + " " * 9 + "U.B. LIFE GAME\n")
"""What the program prints first."""
QUESTION = "X,Y\nXXXXXX\n$$$$$$\n&&&&&&\n"
"""The program's question for a cell (lines 700-750), before BASIC's ``INPUT`` prompt."""
INPUT_PROMPT = "? "
"""BASIC's ``INPUT`` prompt: the answer is typed after it."""
REDO = "?REDO FROM START"
"""What BASIC's ``INPUT`` says to a line that is not two numbers, before ``? `` again."""
RETYPE = "ILLEGAL COORDS. RETYPE"
"""What the program says to a cell off the board or not empty, before its question again."""
SAME = "SAME COORD.  SET TO 0"
"""What the program says when player 2 types player 1's cell on a later turn."""
DRAW = "A DRAW"
"""The program's last line when both players died out."""

Codes = list[list[int]]
"""The array ``N(0..6, 0..6)``, row first."""

STAR, HASH = 100, 1000
"""The codes of a ``*`` and a ``#`` on a printed board."""
SETUP_CODES = (3, 30)
"""The codes of player 1's and player 2's setup pieces (turned into pieces when printed)."""

# Codes of the original: the sum for a cell that becomes * (first list) or # (second).
_STAR_CODES = frozenset({3, 102, 103, 120, 130, 121, 112, 111, 12})
_HASH_CODES = frozenset({21, 30, 1020, 1030, 1011, 1021, 1003, 1002, 1012})
# Neighbour offsets in the original's order (row, column pairs).
_OFFSETS = ((-1, 0), (1, 0), (0, -1), (0, 1), (-1, -1), (1, -1), (-1, 1), (1, 1))
_INPUT = re.compile(r"\s*([+-]?\d+)\s*,\s*([+-]?\d+)\s*")


def basic_number(value: int) -> str:
    """How BASIC's ``PRINT`` shows an integer: sign or space, digits, a space.

    >>> basic_number(3), basic_number(-1)
    (' 3 ', '-1 ')
    """
    return f"{' ' if value >= 0 else '-'}{abs(value)} "


def winner_line(player: int) -> str:
    """The program's last line when ``player`` (1 or 2) won.

    >>> winner_line(2)
    'PLAYER 2 IS THE WINNER'
    """
    return f"PLAYER{basic_number(player)}IS THE WINNER"


def read_input(line: str) -> tuple[str, str] | None:
    """``INPUT Y(B),X(B)``: the two integers of ``line`` as typed (x first), or ``None``
    when BASIC cannot read two numbers (it says :data:`REDO`).

    >>> read_input(" 3, -2 "), read_input("3;2")
    (('3', '-2'), None)
    """
    match = _INPUT.fullmatch(line)
    return None if match is None else (match.group(1), match.group(2))


def new_codes() -> Codes:
    """An empty board: ``N`` all zeros, border included."""
    return [[0] * 7 for _ in range(7)]


def add_neighbours(codes: Codes) -> None:
    """Lines 50-65: add each piece's weight (1 for ``*``, 10 for ``#``) to its eight
    neighbours, the border included."""
    for j in range(1, 6):
        for k in range(1, 6):
            if codes[j][k] > 99:
                weight = 10 if codes[j][k] > 999 else 1
                for dj, dk in _OFFSETS:
                    codes[j + dj][k + dk] += weight


def print_board(codes: Codes) -> tuple[str, int, int]:
    """Lines 90-126 and 300-399: the board as printed while each code turns into a piece
    (:data:`STAR`, :data:`HASH`) or an empty cell, and how many ``*`` and ``#`` it has."""
    out = io.StringIO()
    stars = hashes = 0
    header = "".join(basic_number(k) for k in range(6)) + basic_number(0)
    for j in range(7):
        out.write("\n")
        if j in (0, 6):
            out.write(header)
            continue
        out.write(basic_number(j))
        for k in range(1, 6):
            value = codes[j][k]
            if value >= 3 and value in _STAR_CODES:
                codes[j][k] = STAR
                stars += 1
                out.write(" * ")
            elif value >= 3 and value in _HASH_CODES:
                codes[j][k] = HASH
                hashes += 1
                out.write(" # ")
            else:
                codes[j][k] = 0
                out.write("   ")
        out.write(basic_number(j))
    return out.getvalue(), stars, hashes


def classic_generation(board: list[list[int]]) -> list[list[int]]:
    """One generation by the original's arithmetic on a 5x5 board of 0/1/2 (for the tests).

    >>> classic_generation([[1, 1, 0, 0, 0], [1, 0, 0, 0, 0], [0] * 5, [0] * 5, [0] * 5])[1][:2]
    [1, 1]
    """
    codes = new_codes()
    for y in range(5):
        for x in range(5):
            codes[y + 1][x + 1] = (0, STAR, HASH)[board[y][x]]
    add_neighbours(codes)
    print_board(codes)
    piece = {0: 0, STAR: 1, HASH: 2}
    return [[piece[codes[y + 1][x + 1]] for x in range(5)] for y in range(5)]
