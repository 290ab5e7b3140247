"""Classic mode: the 1978 BASIC program LIFE2 reproduced line for line, bugs included.

:func:`play_classic` reads one answer per line and writes what the original program printed.
It follows the BASIC listing statement by statement, so the empty lines fall where the
original's ``PRINT`` statements put them:

* every board starts with an empty line and its last line (`` 0  1  2  3  4  5  0 ``) is
  left open (``PRINT ...;``); the next ``PRINT`` closes it. Hence one empty line between the
  placed board and the first generation, and two before a board that follows an answer;
* each row ends with a space, because BASIC prints a number as sign/space, digits, space;
* the piece prompts ``XXXXXX``, ``$$$$$$``, ``&&&&&&`` were joined by carriage returns so a
  teletype overprinted the answer; like the issue's transcript they print here on lines of
  their own, then the ``INPUT`` prompt ``? ``;
* the known unfairness: during setup player 1's pieces are on the board before player 2
  chooses, so player 2 cannot take them (``ILLEGAL COORDS. RETYPE``);
* the known bug: when player 2 types player 1's cell on a later turn, the program prints
  ``SAME COORD.  SET TO 0``, places neither piece, and clears the cell one column right and
  one row down, ``(x + 1, y + 1)``, when it is on the board;
* the generation uses the original's arithmetic: a ``*`` is 100, a ``#`` 1000, each piece
  adds 1 (``*``) or 10 (``#``) to its eight neighbours, and two lists of codes say which sums
  become ``*`` or ``#``. The tests check that this equals the engine's Immigration rule.

Choices where the listing and the transcript leave something open (documented, not
guessed silently): an answer that is not two integers separated by a comma makes BASIC's
``INPUT`` complain; this prints ``?REDO FROM START`` (Microsoft BASIC's wording) and shows
``? `` again. When the input ends before the game does, :class:`ParseError` is raised after
everything so far has been written. The original ended at a missing line 800; the game
simply ends here.

``echo=True`` writes each answer after the ``? `` as a terminal would echo it, so the
output alone is the full transcript (what the tests compare with the issue's).

>>> import io
>>> out = io.StringIO()
>>> answers = "1,1\\n2,1\\n1,2\\n3,4\\n4,4\\n5,4\\n3,2\\n3,2\\n"
>>> play_classic(io.StringIO(answers), out, echo=True)
0
>>> "SAME COORD.  SET TO 0" in out.getvalue()
True
>>> print(out.getvalue().splitlines()[-1])
PLAYER 1 IS THE WINNER
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable, Iterator
from typing import TextIO

from lifearena.errors import ParseError

# Codes of the original: the sum for a cell that becomes * (first list) or # (second).
_STAR_CODES = frozenset({3, 102, 103, 120, 130, 121, 112, 111, 12})
_HASH_CODES = frozenset({21, 30, 1020, 1030, 1011, 1021, 1003, 1002, 1012})
# Neighbour offsets in the original's order (row, column pairs).
_OFFSETS = ((-1, 0), (1, 0), (0, -1), (0, 1), (-1, -1), (1, -1), (-1, 1), (1, 1))

_ANSWER = re.compile(r"\s*([+-]?\d+)\s*,\s*([+-]?\d+)\s*")

TITLE = (" " * 32 + "LIFE2\n"
         + " " * 14 + "CREATIVE COMPUTING  MORRISTOWN, NEW JERSEY\n"
         + "\n\n\n"
         + " " * 9 + "U.B. LIFE GAME\n")


def basic_number(value: int) -> str:
    """How BASIC's ``PRINT`` shows an integer: sign or space, digits, a space.

    >>> basic_number(3), basic_number(-1)
    (' 3 ', '-1 ')
    """
    return f"{' ' if value >= 0 else '-'}{abs(value)} "


class _Program:
    """The state of the BASIC program: the array N(0..6, 0..6) and the answers X(), Y()."""

    def __init__(self, answers: Iterator[str], out: TextIO, echo: bool) -> None:
        self.answers = answers
        self.out = out
        self.echo = echo
        # N(row, column); rows and columns 0 and 6 are a border the program never clears.
        self.n = [[0] * 7 for _ in range(7)]
        self.row = [0, 0, 0]  # X(B): the second number typed (y)
        self.col = [0, 0, 0]  # Y(B): the first number typed (x)
        self.m2 = 0  # pieces of player 1 counted while printing
        self.m3 = 0  # pieces of player 2

    def write(self, text: str) -> None:
        self.out.write(text)

    # lines 50-65: add each piece's weight to its eight neighbours, then print (line 90)
    def generation(self) -> None:
        n = self.n
        for j in range(1, 6):
            for k in range(1, 6):
                if n[j][k] > 99:
                    weight = 10 if n[j][k] > 999 else 1
                    for dj, dk in _OFFSETS:
                        n[j + dj][k + dk] += weight
        self.print_board()

    # lines 90-126 and 300-399: print the board while turning codes into pieces
    def print_board(self) -> None:
        self.m2 = self.m3 = 0
        header = "".join(basic_number(k) for k in range(6)) + basic_number(0)
        for j in range(7):
            self.write("\n")
            if j in (0, 6):
                self.write(header)
                continue
            self.write(basic_number(j))
            for k in range(1, 6):
                self.write(self.cell(j, k))
            self.write(basic_number(j))

    def cell(self, j: int, k: int) -> str:
        value = self.n[j][k]
        if value >= 3 and value in _STAR_CODES:
            self.n[j][k] = 100
            self.m2 += 1
            return " * "
        if value >= 3 and value in _HASH_CODES:
            self.n[j][k] = 1000
            self.m3 += 1
            return " # "
        self.n[j][k] = 0
        return "   "

    def read_answer(self, player: int) -> tuple[int, int]:
        """``INPUT Y(B),X(B)``: the prompt ``? `` and one line of two integers."""
        while True:
            self.write("? ")
            try:
                line = next(self.answers)
            except StopIteration:
                self.write("\n")
                raise ParseError(f"the input ended while player {player} was choosing a cell; "
                                 "expected one x,y line per answer") from None
            line = line.rstrip("\r\n")
            if self.echo:
                self.write(line + "\n")
            match = _ANSWER.fullmatch(line)
            if match:
                return int(match.group(1)), int(match.group(2))
            self.write("?REDO FROM START\n")

    # lines 700-750: ask player b for a cell; True when line 741 (SAME COORD) was taken
    def ask(self, b: int) -> bool:
        while True:
            self.write("X,Y\n")
            self.write("XXXXXX\n$$$$$$\n&&&&&&\n")
            self.col[b], self.row[b] = self.read_answer(b)
            row, col = self.row[b], self.col[b]
            if 0 < row <= 5 and 0 < col <= 5 and self.n[row][col] == 0:
                break
            self.write("ILLEGAL COORDS. RETYPE\n")
        if b == 1:
            return False
        if self.row[1] == self.row[2] and self.col[1] == self.col[2]:
            self.write("SAME COORD.  SET TO 0\n")
            # The original's bug: it clears N(X+1, Y+1) instead of nothing. Row or column
            # 6 is the never-read border, so an edge cell's "neighbour" is harmlessly hit.
            self.n[self.row[b] + 1][self.col[b] + 1] = 0
            return True
        return False

    def run(self) -> int | None:
        self.write(TITLE)
        for b in (1, 2):
            piece = 3 if b == 1 else 30  # setup codes, turned into 100/1000 when printed
            self.write(f"\nPLAYER{basic_number(b)} - 3 LIVE PIECES.\n")
            for _ in range(3):
                self.ask(b)
                self.n[self.row[b]][self.col[b]] = piece
        self.print_board()
        while True:
            self.write("\n")
            self.generation()
            if self.m2 == 0 and self.m3 == 0:
                self.write("\nA DRAW\n")
                return None
            if self.m3 == 0 or self.m2 == 0:
                winner = 1 if self.m3 == 0 else 2
                self.write(f"\nPLAYER{basic_number(winner)}IS THE WINNER\n")
                return winner - 1
            same = False
            for b in (1, 2):
                self.write(f"\n\nPLAYER{basic_number(b)}")
                same = self.ask(b)
                if same:
                    break
            if not same:
                self.n[self.row[1]][self.col[1]] = 100
                self.n[self.row[2]][self.col[2]] = 1000


def play_classic(answers: TextIO | Iterable[str], out: TextIO, *, echo: bool = False) -> int | None:
    """Play the original program: read answers (lines ``x,y``), write its transcript to ``out``.

    Returns the winner (0 for player 1, 1 for player 2) or ``None`` for a draw. With
    ``echo=True`` the answers are written after ``? `` as a terminal echoes typed input.
    """
    return _Program(iter(answers), out, echo).run()


def classic_generation(board: list[list[int]]) -> list[list[int]]:
    """One generation by the original's arithmetic on a 5x5 board of 0/1/2 (for the tests).

    >>> classic_generation([[1, 1, 0, 0, 0], [1, 0, 0, 0, 0], [0] * 5, [0] * 5, [0] * 5])[1][:2]
    [1, 1]
    """
    program = _Program(iter(()), io.StringIO(), echo=False)
    for y in range(5):
        for x in range(5):
            program.n[y + 1][x + 1] = (0, 100, 1000)[board[y][x]]
    program.generation()
    code = {0: 0, 100: 1, 1000: 2}
    return [[code[program.n[y + 1][x + 1]] for x in range(5)] for y in range(5)]
