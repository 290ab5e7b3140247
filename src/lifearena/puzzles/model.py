"""A puzzle: a position from a real game where one move (or a stated set of equal moves) wins
by force, with the line that shows it, a theme and a rating.

A puzzle keeps the whole game it came from (its :class:`~lifearena.core.Record`) and the
ply of the position, so a page can show that game and the position is replayed, never
trusted from a copy. Puzzles of a game ship with the package as JSON lines
(``lifearena/puzzles/data/<game>.jsonl.gz``, one :meth:`Puzzle.to_dict` per line) and are
read with :func:`load`.

>>> from lifearena.core import Record
>>> source = Record("blocking_queen", {"k": 1}, "5,6", ["perfect", "random"], ["3,4", "3,2"])
>>> puzzle = Puzzle("blocking_queen-demo", "blocking_queen", source, 1, 1, ("#3,3",),
...                 ("#3,3",), "winning-block", 1, 1500.0)
>>> Puzzle.from_dict(puzzle.to_dict()) == puzzle
True
>>> puzzle.position().move_number()
1
"""

from __future__ import annotations

import gzip
import io
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from lifearena.core import Record, State, replay
from lifearena.errors import ParseError

DATA = "data"
"""The package folder of the shipped puzzles (``<game>.jsonl.gz`` each)."""


@dataclass(frozen=True)
class Puzzle:
    """One puzzle of ``game``: the position after the first ``ply`` moves of ``source``,
    where ``solver`` (the seat to move, or the seat to place in a simultaneous game) wins by
    force.

    ``solutions`` is every first move (in the game's notation, for ``solver``) that wins
    within ``depth`` of the solver's moves, found by exhaustive search: exactly one move for
    most puzzles, a stated set of equal moves for some. ``line`` is one main line: a solution,
    the defence that resists longest, and so on to the win (for a simultaneous game the
    solver's placements only). ``theme`` names what wins (``wipe-out-in-1``,
    ``goal-line-in-2``, ``winning-block``, ...); ``rating`` is the puzzle's first rating on
    the Glicko-2 scale (1500 an average puzzle).
    """

    id: str
    game: str
    source: Record
    ply: int
    solver: int
    solutions: tuple[str, ...]
    line: tuple[str, ...]
    theme: str
    depth: int
    rating: float

    def position(self) -> State:
        """The puzzle's position, replayed from its source game."""
        return replay(self.source, upto=self.ply)

    def to_dict(self) -> dict[str, Any]:
        """The puzzle as JSON-able data (one line of a puzzles file)."""
        return {"id": self.id, "game": self.game, "source": json.loads(self.source.to_json()),
                "ply": self.ply, "solver": self.solver, "solutions": list(self.solutions),
                "line": list(self.line), "theme": self.theme, "depth": self.depth,
                "rating": self.rating}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Puzzle:
        """The puzzle of :meth:`to_dict`'s data; :class:`ParseError` naming a missing or
        mistyped field."""
        try:
            source = Record.from_json(json.dumps(data["source"]))
            return cls(str(data["id"]), str(data["game"]), source, int(data["ply"]),
                       int(data["solver"]), tuple(map(str, data["solutions"])),
                       tuple(map(str, data["line"])), str(data["theme"]), int(data["depth"]),
                       float(data["rating"]))
        except (KeyError, TypeError, ValueError) as error:
            if isinstance(error, ParseError):
                raise
            raise ParseError(f"puzzle {data.get('id', '?')!r:.40}: bad or missing field "
                             f"{error}; expected the fields of Puzzle.to_dict") from None


def write(puzzles: Iterable[Puzzle], path: Path) -> int:
    """Write ``puzzles`` as gzipped JSON lines to ``path``; how many were written."""
    count = 0
    # no time stamp in the gzip header: the same puzzles make the same bytes
    with open(path, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as packed, \
            io.TextIOWrapper(packed, encoding="utf-8") as out:
        for puzzle in puzzles:
            out.write(json.dumps(puzzle.to_dict(), sort_keys=True) + "\n")
            count += 1
    return count


def read(path: Path) -> Iterator[Puzzle]:
    """The puzzles of a file that :func:`write` made."""
    with gzip.open(path, "rt", encoding="utf-8") as lines:
        for line in lines:
            if line.strip():
                yield Puzzle.from_dict(json.loads(line))


def shipped_path(game: str) -> Path:
    """Where ``game``'s shipped puzzles are (the file may not exist for a game without)."""
    return Path(str(resources.files("lifearena.puzzles") / DATA / f"{game}.jsonl.gz"))


@cache
def load(game: str) -> tuple[Puzzle, ...]:
    """The puzzles shipped for ``game`` (none for a game without a file), read once.

    >>> all(p.game == "war_of_life" for p in load("war_of_life"))
    True
    """
    path = shipped_path(game)
    return tuple(read(path)) if path.exists() else ()
