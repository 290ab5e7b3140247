"""The puzzles a server offers: every game's puzzles, read once, found by id, and the puzzle
of the day.

By default they are the puzzles shipped with the package (:func:`lifearena.puzzles.load`);
a folder of ``<game>.jsonl.gz`` files (:func:`lifearena.puzzles.write`) replaces them
(``Settings.puzzles_dir``: a test's own puzzles, or an operator's).

The daily puzzle is chosen from the UTC date alone, among all games' puzzles in the order
of their ids: the same for everyone that day, whichever server replica answers.

>>> import tempfile, pathlib
>>> from lifearena.core import Record
>>> from lifearena.puzzles.model import Puzzle, write
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> source = Record("blocking_queen", {"k": 1}, "2,3", ["", ""], [])
>>> _ = write([Puzzle("bq-1", "blocking_queen", source, 0, 0, ("2,1", "1,2"),
...                   ("2,1", "1,0", "0,0"), "demo", 2, 1400.0)],
...           folder / "blocking_queen.jsonl.gz")
>>> shelf = Collection(folder)
>>> shelf.counts()
{'blocking_queen': 1}
>>> shelf.get("bq-1").rating, shelf.get("nope")
(1400.0, None)
>>> import datetime
>>> shelf.daily(datetime.date(2026, 11, 27)).id
'bq-1'
"""

from __future__ import annotations

import datetime
import hashlib
import threading
from pathlib import Path

from lifearena.puzzles.model import Puzzle, load, read
from lifearena.puzzles.search import MINERS


class Collection:
    """The puzzles of ``games`` (every game with a miner by default), from ``folder`` or
    the package's shipped files; each game's file is read once, when first asked for."""

    def __init__(self, folder: Path | None = None, games: tuple[str, ...] = MINERS) -> None:
        self.folder = folder
        self.games = games
        self._of: dict[str, tuple[Puzzle, ...]] = {}
        self._by_id: dict[str, Puzzle] | None = None
        self._lock = threading.Lock()

    def of(self, game: str) -> tuple[Puzzle, ...]:
        """The puzzles of ``game`` (none for a game without any, or not offered)."""
        if game not in self.games:
            return ()
        with self._lock:
            found = self._of.get(game)
            if found is None:
                found = self._of[game] = self._read(game)
            return found

    def _read(self, game: str) -> tuple[Puzzle, ...]:
        if self.folder is None:
            return load(game)
        path = self.folder / f"{game}.jsonl.gz"
        return tuple(p for p in read(path) if p.game == game) if path.exists() else ()

    def counts(self) -> dict[str, int]:
        """How many puzzles each game has (games without any left out), in game order."""
        return {game: len(self.of(game)) for game in self.games if self.of(game)}

    def get(self, puzzle_id: str) -> Puzzle | None:
        """The puzzle ``puzzle_id`` of any game, or ``None``."""
        if self._by_id is None:
            found = {p.id: p for game in self.games for p in self.of(game)}
            self._by_id = found
        return self._by_id.get(puzzle_id)

    def everything(self) -> list[Puzzle]:
        """Every game's puzzles, in the order of their ids."""
        return sorted((p for game in self.games for p in self.of(game)), key=lambda p: p.id)

    def daily(self, day: datetime.date) -> Puzzle | None:
        """The puzzle of the UTC date ``day`` (``None`` when there are none): chosen by the
        SHA-256 of the date among :meth:`everything`."""
        every = self.everything()
        if not every:
            return None
        digest = hashlib.sha256(f"lifearena-daily-{day.isoformat()}".encode()).digest()
        return every[int.from_bytes(digest[:8], "big") % len(every)]
