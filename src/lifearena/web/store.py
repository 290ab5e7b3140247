"""The web application's store of games: one SQLite file in WAL mode.

A row holds what rebuilds a game exactly: the game's name, parameters and setup (as a
:class:`~lifearena.core.Record` would), the opponent configuration, the seat tokens, the
invitations of an online game (the secret of each seat offered to whoever opens its link
first), whether its creator cancelled it, the moves in the game's notation and the pending
simultaneous choices (one per seat, never shown to anyone but that seat). Live states are
rebuilt from a row with :func:`lifearena.core.replay`, so a restarted server loses no game.

Each row also says whether its game is still being played (``status``: ``playing``,
``finished``, or ``unknown`` for a row of an earlier version until its next move is saved) and,
once it ended, its outcome (:meth:`lifearena.core.Outcome.to_dict`), so the lists of games in
progress and lately finished (:meth:`Store.latest`) come from the file and survive a restart.

A game may also end outside its rules (a resignation, a draw agreed, a clock run out): its
``ending`` (an outcome) is then kept apart from the moves. Its ``clock`` (a
:class:`~lifearena.web.clock.GameClock` as a dict, or null when untimed) and its ``offers``
(draw and rematch offers, and the rematch once made) are stored too, so a restart keeps them.

The file is marked as lifearena's (SQLite's ``application_id``); a file of another program,
or one that is not SQLite, is refused with :class:`ForeignDatabase` before anything is
written to it. Files of earlier versions (no mark, no invitation columns) are brought up to
date in place and their games load and play as before.

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

import contextlib
import json
import sqlite3
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lifearena.errors import LifeArenaError

APPLICATION_ID = 0x4C415747  # "LAWG": marks a file as a lifearena web games database
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
    updated REAL NOT NULL,
    invites TEXT NOT NULL DEFAULT '{}',
    cancelled INTEGER NOT NULL DEFAULT 0,
    status TEXT NOT NULL DEFAULT 'unknown',
    outcome TEXT NOT NULL DEFAULT 'null',
    ending TEXT NOT NULL DEFAULT 'null',
    clock TEXT NOT NULL DEFAULT 'null',
    offers TEXT NOT NULL DEFAULT '{}'
)
"""
ADDED_COLUMNS = {"invites": "TEXT NOT NULL DEFAULT '{}'",
                 "cancelled": "INTEGER NOT NULL DEFAULT 0",
                 "status": "TEXT NOT NULL DEFAULT 'unknown'",
                 "outcome": "TEXT NOT NULL DEFAULT 'null'",
                 "ending": "TEXT NOT NULL DEFAULT 'null'",
                 "clock": "TEXT NOT NULL DEFAULT 'null'",
                 "offers": "TEXT NOT NULL DEFAULT '{}'"}
"""Columns that files of earlier versions lack, added when such a file is opened (their rows'
status is ``unknown``: whether they ended is only known once they are played again)."""
MAX_ALSO = 500
"""Most ids :meth:`Store.latest` takes besides its time bound (the games open on a page)."""
INDEX = "CREATE INDEX IF NOT EXISTS games_by_status ON games (status, updated)"
"""The index :meth:`Store.latest` reads the newest games of a status through."""
PLAYING, FINISHED = "playing", "finished"
"""The statuses of a game whose end is known: still being played, or over."""
COLUMNS = ("id, game, params, setup, opponent, tokens, moves, pending, created, updated, "
           "invites, cancelled, ending, clock, offers")


class ForeignDatabase(LifeArenaError):
    """The games file is not SQLite, or is another program's."""


@dataclass
class GameRow:
    """One stored game. ``tokens[seat]`` is the seat's secret (the same string for both
    seats of a hot-seat game, ``None`` for an agent's seat); ``pending`` maps a seat (as a
    string, JSON's keys) to its unrevealed simultaneous choice. ``invites[seat]`` (again a
    string key) is the secret of an online game's invitation to that seat: the seat's token is
    ``None`` until someone claims it. ``cancelled``: the creator withdrew the invitation
    before anyone claimed it. ``ending``: how the game ended outside its rules (an
    :meth:`~lifearena.core.Outcome.to_dict`: resigned, agreed, on time), else ``None``;
    ``clock``: its clocks (:meth:`~lifearena.web.clock.GameClock.to_dict`), ``None`` when
    untimed; ``offers``: ``"draw"`` and ``"rematch"`` map to the seat that offered one,
    ``"next"`` to the rematch once made (its id and each old seat's new token)."""

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
    invites: dict[str, str] = field(default_factory=dict)
    cancelled: bool = False
    ending: dict[str, Any] | None = None
    clock: dict[str, Any] | None = None
    offers: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Listed:
    """One game as the lists of games in progress and lately finished show it: never its
    tokens, invitations or pending choices. ``outcome`` is the finished game's
    :meth:`~lifearena.core.Outcome.to_dict` (``None`` while it is played)."""

    id: str
    game: str
    kind: str
    moves: int
    updated: float
    outcome: dict[str, Any] | None = None


class Store:
    """Games in one SQLite file; safe to call from the event loop and from worker threads."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        self._connection: sqlite3.Connection | None = None
        self._open()

    def _open(self) -> sqlite3.Connection:
        try:
            self._connection = sqlite3.connect(self.path, check_same_thread=False,
                                               isolation_level=None)
            self._prepare()
        except sqlite3.DatabaseError as error:
            if self._connection is not None:
                with contextlib.suppress(Exception):
                    self._connection.close()
                self._connection = None
            raise ForeignDatabase(f"{self.path.name} is not a lifearena games database "
                                  f"({error}); expected a file made by lifearena serve, or "
                                  "a new file name") from None
        return self._connection

    @property
    def _db(self) -> sqlite3.Connection:
        """The open connection (opened again after :meth:`close`, for an app whose lifespan
        runs twice, as in tests)."""
        return self._connection if self._connection is not None else self._open()

    def _prepare(self) -> None:
        db = self._connection
        assert db is not None
        app_id = db.execute("PRAGMA application_id").fetchone()[0]
        tables = {name for (name,) in db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
        ours = app_id == APPLICATION_ID or (app_id == 0 and tables <= {"games"})
        if not ours:
            listed = ", ".join(sorted(tables)) or "none"
            raise sqlite3.DatabaseError(f"another program's file: tables {listed}")
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        db.execute("PRAGMA busy_timeout=5000")
        db.execute(SCHEMA)
        have = {row[1] for row in db.execute("PRAGMA table_info(games)")}
        for column, kind in ADDED_COLUMNS.items():
            if column not in have:
                db.execute(f"ALTER TABLE games ADD COLUMN {column} {kind}")
        db.execute(INDEX)
        if app_id != APPLICATION_ID:
            db.execute(f"PRAGMA application_id={APPLICATION_ID}")

    def insert(self, row: GameRow, outcome: dict[str, Any] | None = None) -> None:
        """Store a new game; ``outcome`` (:meth:`~lifearena.core.Outcome.to_dict`) when it
        is already over (a finished game's record opened again)."""
        with self._lock:
            self._db.execute(
                f"INSERT INTO games ({COLUMNS}, status, outcome) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (row.id, row.game, json.dumps(row.params), row.setup, json.dumps(row.opponent),
                 json.dumps(row.tokens), json.dumps(row.moves), json.dumps(row.pending),
                 row.created, row.updated, json.dumps(row.invites), int(row.cancelled),
                 json.dumps(row.ending), json.dumps(row.clock), json.dumps(row.offers),
                 *_status(outcome)),
            )

    def save_progress(self, game_id: str, moves: list[str], pending: dict[str, str],
                      outcome: dict[str, Any] | None = None) -> None:
        """Record a game's moves and pending choices, and its ``outcome`` once it is over
        (one statement: all or nothing)."""
        with self._lock:
            self._db.execute("UPDATE games SET moves = ?, pending = ?, updated = ?, status = ?, "
                             "outcome = ? WHERE id = ?",
                             (json.dumps(moves), json.dumps(pending), time.time(),
                              *_status(outcome), game_id))

    def save_play(self, row: GameRow, outcome: dict[str, Any] | None = None) -> None:
        """Record everything play changes in ``row``: its moves, pending choices, ending,
        clock and offers, and its ``outcome`` once it is over (one statement: all or
        nothing).

        >>> import tempfile, pathlib
        >>> store = Store(pathlib.Path(tempfile.mkdtemp()) / "games.sqlite")
        >>> row = GameRow("g1", "losat", {}, "", {"kind": "hotseat"}, ["t", "t"])
        >>> store.insert(row)
        >>> row.ending = {"termination": "resign", "winner": 1}
        >>> row.offers = {"rematch": 0}
        >>> store.save_play(row, row.ending)
        >>> store.get("g1").ending, store.get("g1").offers, store.latest(True, 5)[0].id
        ({'termination': 'resign', 'winner': 1}, {'rematch': 0}, 'g1')
        """
        with self._lock:
            self._db.execute(
                "UPDATE games SET moves = ?, pending = ?, ending = ?, clock = ?, offers = ?, "
                "updated = ?, status = ?, outcome = ? WHERE id = ?",
                (json.dumps(row.moves), json.dumps(row.pending), json.dumps(row.ending),
                 json.dumps(row.clock), json.dumps(row.offers), time.time(),
                 *_status(outcome), row.id))

    def clocked(self) -> list[str]:
        """The ids of the games being played whose clocks may be running (the server
        loads them when it starts, so their flags fall without anyone asking)."""
        with self._lock:
            found = self._db.execute(
                "SELECT id FROM games WHERE status = ? AND clock != 'null' AND cancelled = 0",
                (PLAYING,)).fetchall()
        return [game_id for (game_id,) in found]

    def save_form(self, row: GameRow, outcome: dict[str, Any] | None = None) -> None:
        """Rewrite the game, parameters, setup and moves of a stored game (a row of an earlier
        version's form, once upgraded), and its ``outcome`` when it is over."""
        with self._lock:
            self._db.execute(
                "UPDATE games SET game = ?, params = ?, setup = ?, moves = ?, status = ?, "
                "outcome = ? WHERE id = ?",
                (row.game, json.dumps(row.params), row.setup, json.dumps(row.moves),
                 *_status(outcome), row.id))

    def save_seats(self, row: GameRow) -> None:
        """Record who holds the seats of ``row`` and whether it was cancelled."""
        with self._lock:
            self._db.execute(
                "UPDATE games SET tokens = ?, invites = ?, cancelled = ?, updated = ? "
                "WHERE id = ?", (json.dumps(row.tokens), json.dumps(row.invites),
                                 int(row.cancelled), time.time(), row.id))

    def get(self, game_id: str) -> GameRow | None:
        """The stored game ``game_id``, or ``None``; :class:`DamagedRow` when the row no
        longer reads as a game."""
        with self._lock:
            found = self._db.execute(f"SELECT {COLUMNS} FROM games WHERE id = ?",
                                     (game_id,)).fetchone()
        if found is None:
            return None
        (gid, game, params, setup, opponent, tokens, moves, pending, created, updated,
         invites, cancelled, ending, clock, offers) = found
        try:
            return GameRow(gid, game, json.loads(params), setup, json.loads(opponent),
                           json.loads(tokens), json.loads(moves), json.loads(pending), created,
                           updated, json.loads(invites), bool(cancelled), json.loads(ending),
                           json.loads(clock), json.loads(offers))
        except (TypeError, ValueError) as error:
            raise DamagedRow(f"game {game_id!r}: its stored row does not read ({error})"
                             ) from None

    def latest(self, finished: bool, limit: int, since: float = 0.0,
               also: Sequence[str] = ()) -> list[Listed]:
        """The ``limit`` games last changed since ``since`` (a :func:`time.time`), or whose
        id is in ``also`` whenever they changed, newest first, that are finished
        (``finished``) or still being played (an invitation its creator cancelled is not);
        a row that no longer reads is left out.

        >>> import tempfile, pathlib
        >>> store = Store(pathlib.Path(tempfile.mkdtemp()) / "games.sqlite")
        >>> store.insert(GameRow("g1", "losat", {}, "", {"kind": "agent"}, ["t", None]))
        >>> store.insert(GameRow("g2", "losat", {}, "", {"kind": "hotseat"}, ["t", "t"]))
        >>> store.save_progress("g2", ["+bK7"], {}, {"termination": "win", "winner": 0})
        >>> [(g.id, g.kind, g.moves) for g in store.latest(False, 10)]
        [('g1', 'agent', 0)]
        >>> [(g.id, g.moves, g.outcome) for g in store.latest(True, 10)]
        [('g2', 1, {'termination': 'win', 'winner': 0})]
        """
        also = list(also)[:MAX_ALSO]
        marks = ", ".join("?" * len(also))
        with self._lock:
            found = self._db.execute(
                "SELECT id, game, opponent, moves, updated, outcome FROM games "
                f"WHERE status = ? AND (updated >= ? OR id IN ({marks})) AND cancelled = 0 "
                "ORDER BY updated DESC LIMIT ?",
                (FINISHED if finished else PLAYING, since, *also, limit)).fetchall()
        listed = []
        for game_id, game, opponent, moves, updated, outcome in found:
            try:
                kind, played, ended = (json.loads(opponent).get("kind", "?"),
                                       json.loads(moves), json.loads(outcome))
                listed.append(Listed(game_id, game, str(kind), len(played), float(updated),
                                     ended if isinstance(ended, dict) else None))
            except (AttributeError, TypeError, ValueError):
                continue  # a damaged row: its own page says so
        return listed

    def idle_agent_games(self, before: float, limit: int = 100) -> list[str]:
        """The ids of untimed games against an agent, still being played, in which nothing
        happened since ``before`` (a :func:`time.time`), oldest first: the games a server
        aborts once nobody has them open.

        >>> import tempfile, pathlib
        >>> store = Store(pathlib.Path(tempfile.mkdtemp()) / "games.sqlite")
        >>> store.insert(GameRow("g1", "losat", {}, "", {"kind": "agent"}, ["t", None],
        ...                      updated=10.0))
        >>> store.insert(GameRow("g2", "losat", {}, "", {"kind": "hotseat"}, ["t", "t"],
        ...                      updated=10.0))
        >>> store.idle_agent_games(100.0), store.idle_agent_games(5.0)
        (['g1'], [])
        """
        with self._lock:
            found = self._db.execute(
                "SELECT id, opponent FROM games WHERE status = ? AND updated < ? "
                "AND clock = 'null' AND cancelled = 0 ORDER BY updated LIMIT ?",
                (PLAYING, before, limit)).fetchall()
        idle = []
        for game_id, opponent in found:
            try:
                if json.loads(opponent).get("kind") == "agent":
                    idle.append(game_id)
            except (AttributeError, TypeError, ValueError):
                continue  # a damaged row: its own page says so
        return idle

    def count(self) -> int:
        """How many games are stored."""
        with self._lock:
            return int(self._db.execute("SELECT COUNT(*) FROM games").fetchone()[0])

    def close(self) -> None:
        """Checkpoint the write-ahead log into the file and close it (the server stops)."""
        with self._lock:
            with contextlib.suppress(sqlite3.Error):
                self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            self._db.close()
            self._connection = None


class DamagedRow(LifeArenaError):
    """A stored game whose row no longer reads."""


def _status(outcome: dict[str, Any] | None) -> tuple[str, str]:
    """The ``status`` and ``outcome`` columns of a game whose outcome is ``outcome``."""
    return (PLAYING, "null") if outcome is None else (FINISHED, json.dumps(outcome))
