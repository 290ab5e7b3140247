"""The 1978 BASIC program LIFE2 as lifearena first wrote it: a loop that reads every answer
from an iterator, statement by statement. The tests keep it as the reference that the
program as a state (:mod:`lifearena.games.life_for_two.classic`) and its terminal loop
must print exactly like, byte for byte, whatever is typed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import TextIO

from lifearena.errors import ParseError

_STAR_CODES = frozenset({3, 102, 103, 120, 130, 121, 112, 111, 12})
_HASH_CODES = frozenset({21, 30, 1020, 1030, 1011, 1021, 1003, 1002, 1012})
_OFFSETS = ((-1, 0), (1, 0), (0, -1), (0, 1), (-1, -1), (1, -1), (-1, 1), (1, 1))
_ANSWER = re.compile(r"\s*([+-]?\d+)\s*,\s*([+-]?\d+)\s*")

TITLE = (" " * 32 + "LIFE2\n"
         + " " * 14 + "CREATIVE COMPUTING  MORRISTOWN, NEW JERSEY\n"
         + "\n\n\n"
         + " " * 9 + "U.B. LIFE GAME\n")


def basic_number(value: int) -> str:
    return f"{' ' if value >= 0 else '-'}{abs(value)} "


class _Program:
    def __init__(self, answers: Iterator[str], out: TextIO, echo: bool) -> None:
        self.answers = answers
        self.out = out
        self.echo = echo
        self.n = [[0] * 7 for _ in range(7)]
        self.row = [0, 0, 0]
        self.col = [0, 0, 0]
        self.m2 = 0
        self.m3 = 0

    def write(self, text: str) -> None:
        self.out.write(text)

    def generation(self) -> None:
        n = self.n
        for j in range(1, 6):
            for k in range(1, 6):
                if n[j][k] > 99:
                    weight = 10 if n[j][k] > 999 else 1
                    for dj, dk in _OFFSETS:
                        n[j + dj][k + dk] += weight
        self.print_board()

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
            self.n[self.row[b] + 1][self.col[b] + 1] = 0
            return True
        return False

    def run(self) -> int | None:
        self.write(TITLE)
        for b in (1, 2):
            piece = 3 if b == 1 else 30
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


def reference_play(answers: Iterable[str], out: TextIO, *, echo: bool = False) -> int | None:
    """The program as first written: what ``play_classic`` printed before it was a state."""
    return _Program(iter(answers), out, echo).run()
