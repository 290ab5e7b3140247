"""The web application's store of games: one SQLite file in WAL mode.

A row holds what rebuilds a game exactly: the game's name, parameters and setup (as a
:class:`~lifearena.core.Record` would), the opponent configuration, the seat tokens, the
moves in the game's notation and the pending simultaneous choices (one per seat, never shown
to anyone but that seat). Live states are rebuilt from a row with
:func:`lifearena.core.replay`, so a restarted server loses no game.

>>> import tempfile, pathlib
>>> store = Store(pathlib.Path(tempfile.mkdtemp()) / "games.sqlite")
>>> row = GameRow("g1", "losat", {"width": 9}, "start", {"kind": "hotseat"}, ["t", "t"])
>>> store.insert(row)
>>> store.save_progress("g1", ["+bK7"], {})
>>> store.get("g1").moves
['+bK7']
>>> store.get("nope") is None
True
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    params TEXT NOT NULL,
    setup TEXT NOT NULL,
    opponent TEXT NOT NULL,
    tokens TEXT NOT NULL,
    moves TEXT NOT NULL DEFAULT '[]',
    pending TEXT NOT NULL DEFAULT '{}',
    created REAL NOT NULL,
    updated REAL NOT NULL
)
"""


@dataclass
class GameRow:
    """One stored game. ``tokens[seat]`` is the seat's secret (the same string for both
    seats of a hot-seat game, ``None`` for an agent's seat); ``pending`` maps a seat (as a
    string, JSON's keys) to its unrevealed simultaneous choice."""

    id: str
    game: str
    params: dict[str, Any]
    setup: str
    opponent: dict[str, Any]
    tokens: list[str | None]
    moves: list[str] = field(default_factory=list)
    pending: dict[str, str] = field(default_factory=dict)
    created: float = field(default_factory=time.time)
    updated: float = field(default_factory=time.time)


class Store:
    """Games in one SQLite file; safe to call from the event loop and from worker threads."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("PRAGMA busy_timeout=5000")
        self._db.execute(SCHEMA)

    def insert(self, row: GameRow) -> None:
        """Store a new game."""
        with self._lock:
            self._db.execute(
                "INSERT INTO games (id, game, params, setup, opponent, tokens, moves, pending,"
                " created, updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (row.id, row.game, json.dumps(row.params), row.setup, json.dumps(row.opponent),
                 json.dumps(row.tokens), json.dumps(row.moves), json.dumps(row.pending),
                 row.created, row.updated),
            )

    def save_progress(self, game_id: str, moves: list[str], pending: dict[str, str]) -> None:
        """Record a game's moves and pending choices (one statement: all or nothing)."""
        with self._lock:
            self._db.execute("UPDATE games SET moves = ?, pending = ?, updated = ? WHERE id = ?",
                             (json.dumps(moves), json.dumps(pending), time.time(), game_id))

    def get(self, game_id: str) -> GameRow | None:
        """The stored game ``game_id``, or ``None``."""
        with self._lock:
            found = self._db.execute(
                "SELECT id, game, params, setup, opponent, tokens, moves, pending, created, "
                "updated FROM games WHERE id = ?", (game_id,)).fetchone()
        if found is None:
            return None
        gid, game, params, setup, opponent, tokens, moves, pending, created, updated = found
        return GameRow(gid, game, json.loads(params), setup, json.loads(opponent),
                       json.loads(tokens), json.loads(moves), json.loads(pending), created,
                       updated)

    def count(self) -> int:
        """How many games are stored."""
        with self._lock:
            return int(self._db.execute("SELECT COUNT(*) FROM games").fetchone()[0])

    def close(self) -> None:
        with self._lock:
            self._db.close()
