"""The web application's store of games, on SQLAlchemy Core (:data:`~lifearena.web.tables.games`):
one SQLite file by default, or a PostgreSQL database (:mod:`lifearena.web.database`).

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

A SQLite file is marked as lifearena's (SQLite's ``application_id``); a file of another
program, or one that is not SQLite, is refused with :class:`ForeignDatabase` before anything
is written to it. Opening a store runs the schema's migrations
(:func:`~lifearena.web.database.upgrade`): files of earlier versions (no mark, no invitation
columns) are brought up to date in place and their games load and play as before.

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
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, bindparam, func, insert, or_, select, update
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.sql.dml import Update

from lifearena.errors import LifeArenaError
from lifearena.web.database import (
    APPLICATION_ID,
    EARLIER_COLUMNS,
    ForeignDatabase,
    autocommit,
    database_url,
    open_engine,
    upgrade,
)
from lifearena.web.tables import games

__all__ = [
    "APPLICATION_ID",
    "EARLIER_COLUMNS",
    "DamagedRow",
    "FencedOut",
    "ForeignDatabase",
    "GameRow",
    "Listed",
    "Store",
]

MAX_ALSO = 500
"""Most ids :meth:`Store.latest` takes besides its time bound (the games open on a page)."""
PLAYING, FINISHED = "playing", "finished"
"""The statuses of a game whose end is known: still being played, or over."""
ROW = (games.c.id, games.c.game, games.c.params, games.c.setup, games.c.opponent,
       games.c.tokens, games.c.moves, games.c.pending, games.c.created, games.c.updated,
       games.c.invites, games.c.cancelled, games.c.ending, games.c.clock, games.c.offers,
       games.c.fence)
"""The columns a :class:`GameRow` is read from, in its fields' order."""



def _updating(*columns: str) -> Update:
    """An update of ``columns`` of the game whose id is bound as ``key``, every value bound
    by its column's name: built once, so a move's write skips building and compiling it
    (about a third of the time of building it at each call). It writes only where the
    stored ``fence`` is not above the writer's (bound as ``fence``, and stored)."""
    return update(games).where(games.c.id == bindparam("key"),
                               games.c.fence <= bindparam("fence")).values(
        {name: bindparam(name) for name in (*columns, "fence")})


INSERT = insert(games).values({column.name: bindparam(column.name) for column in games.c})
SAVE_PROGRESS = _updating("moves", "pending", "updated", "status", "outcome")
SAVE_PLAY = _updating("moves", "pending", "ending", "clock", "offers", "updated", "status",
                      "outcome")
SAVE_SEATS = _updating("tokens", "invites", "cancelled", "updated")
GET = select(*ROW).where(games.c.id == bindparam("key"))
"""The store's statements that run at every move or load, built once."""


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
    fence: int = 0
    """The fencing token of the replica that owns the game now (its lease's, see
    :mod:`lifearena.web.leases`; 0 on a single server): a write of this row is refused
    (:class:`FencedOut`) where a larger token already wrote it."""


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
    """Games in one database; safe to call from the event loop and from worker threads.

    ``target`` is a file path, a database URL (:func:`~lifearena.web.database.database_url`)
    or an engine another part of the server made; the schema is brought up to date at once.
    :attr:`engine` is there for the code that keeps other tables of the same database (the
    players'). Each call takes a pooled connection of its own, so threads never share one;
    on SQLite the writes of this process also take turns on a lock, so that they queue here
    rather than in SQLite's busy loop (which would stall the event loop in sleeps)."""

    def __init__(self, target: str | Path | Engine) -> None:
        self._owned = not isinstance(target, Engine)
        self.engine: Engine = (open_engine(database_url(target)) if not isinstance(target, Engine)
                               else target)
        self._sqlite = self.engine.dialect.name == "sqlite"
        self._autocommit = autocommit(self.engine)
        """Reads and writes (each one statement): autocommit on PostgreSQL."""
        self._lock = threading.Lock()
        try:
            upgrade(self.engine)
        except BaseException:
            if self._owned:
                self.engine.dispose()
            raise

    @property
    def embedded(self) -> bool:
        """Whether the database is in this process (SQLite: a call takes microseconds), not
        a server a round trip away (PostgreSQL).

        >>> import tempfile, pathlib
        >>> Store(pathlib.Path(tempfile.mkdtemp()) / "games.sqlite").embedded
        True
        """
        return self._sqlite

    @contextlib.contextmanager
    def _writing(self) -> Iterator[Connection]:
        """A connection to write with: every write of the store is one statement, atomic by
        itself, so on PostgreSQL it runs in autocommit (one round trip, no ``BEGIN`` and
        ``COMMIT``); SQLite's writes take turns in a transaction that commits on leaving."""
        with self._lock if self._sqlite else contextlib.nullcontext(), \
                self._autocommit.begin() as connection:
            yield connection

    def insert(self, row: GameRow, outcome: dict[str, Any] | None = None) -> None:
        """Store a new game; ``outcome`` (:meth:`~lifearena.core.Outcome.to_dict`) when it
        is already over (a finished game's record opened again)."""
        status, ended = _status(outcome)
        with self._writing() as db:
            db.execute(INSERT, {
                "id": row.id, "game": row.game, "params": json.dumps(row.params),
                "setup": row.setup, "opponent": json.dumps(row.opponent),
                "tokens": json.dumps(row.tokens), "moves": json.dumps(row.moves),
                "pending": json.dumps(row.pending), "created": row.created,
                "updated": row.updated, "invites": json.dumps(row.invites),
                "cancelled": int(row.cancelled), "ending": json.dumps(row.ending),
                "clock": json.dumps(row.clock), "offers": json.dumps(row.offers),
                "status": status, "outcome": ended, "fence": row.fence})

    def save_progress(self, game_id: str, moves: list[str], pending: dict[str, str],
                      outcome: dict[str, Any] | None = None, fence: int = 0) -> None:
        """Record a game's moves and pending choices, and its ``outcome`` once it is over
        (one statement: all or nothing)."""
        status, ended = _status(outcome)
        with self._writing() as db:
            db.execute(SAVE_PROGRESS, {
                "key": game_id, "moves": json.dumps(moves), "pending": json.dumps(pending),
                "updated": time.time(), "status": status, "outcome": ended, "fence": fence})

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
        status, ended = _status(outcome)
        with self._writing() as db:
            done = db.execute(SAVE_PLAY, {
                "key": row.id, "moves": json.dumps(row.moves),
                "pending": json.dumps(row.pending), "ending": json.dumps(row.ending),
                "clock": json.dumps(row.clock), "offers": json.dumps(row.offers),
                "updated": time.time(), "status": status, "outcome": ended,
                "fence": row.fence})
            _fenced(row, done.rowcount)

    def clocked(self) -> list[str]:
        """The ids of the games being played whose clocks may be running (the server
        loads them when it starts, so their flags fall without anyone asking)."""
        with self._autocommit.connect() as db:
            found = db.execute(select(games.c.id).where(
                games.c.status == PLAYING, games.c.clock != "null", games.c.cancelled == 0))
            return list(found.scalars())

    def save_form(self, row: GameRow, outcome: dict[str, Any] | None = None) -> None:
        """Rewrite the game, parameters, setup and moves of a stored game (a row of an earlier
        version's form, once upgraded), and its ``outcome`` when it is over."""
        status, ended = _status(outcome)
        with self._writing() as db:
            db.execute(update(games).where(games.c.id == row.id).values(
                game=row.game, params=json.dumps(row.params), setup=row.setup,
                moves=json.dumps(row.moves), status=status, outcome=ended))

    def save_seats(self, row: GameRow) -> None:
        """Record who holds the seats of ``row`` and whether it was cancelled."""
        with self._writing() as db:
            done = db.execute(SAVE_SEATS, {
                "key": row.id, "tokens": json.dumps(row.tokens),
                "invites": json.dumps(row.invites), "cancelled": int(row.cancelled),
                "updated": time.time(), "fence": row.fence})
            _fenced(row, done.rowcount)

    def get(self, game_id: str) -> GameRow | None:
        """The stored game ``game_id``, or ``None``; :class:`DamagedRow` when the row no
        longer reads as a game."""
        with self._autocommit.connect() as db:
            found = db.execute(GET, {"key": game_id}).one_or_none()
        if found is None:
            return None
        (gid, game, params, setup, opponent, tokens, moves, pending, created, updated,
         invites, cancelled, ending, clock, offers, fence) = found
        try:
            return GameRow(gid, game, json.loads(params), setup, json.loads(opponent),
                           json.loads(tokens), json.loads(moves), json.loads(pending), created,
                           updated, json.loads(invites), bool(cancelled), json.loads(ending),
                           json.loads(clock), json.loads(offers), int(fence))
        except (TypeError, ValueError) as error:
            raise DamagedRow(f"game {game_id!r}: its stored row does not read ({error})"
                             ) from None

    def latest(self, finished: bool, limit: int, since: float = 0.0,
               also: Sequence[str] = ()) -> list[Listed]:
        """The ``limit`` games last changed since ``since`` (a :func:`time.time`), or whose
        id is in ``also`` whenever they changed, newest first, that are finished
        (``finished``) or still being played (an invitation its creator cancelled is not);
        a row that no longer reads is left out. The ``games_by_status`` index serves it.

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
        recent = games.c.updated >= since
        query = (select(games.c.id, games.c.game, games.c.opponent, games.c.moves,
                        games.c.updated, games.c.outcome)
                 .where(games.c.status == (FINISHED if finished else PLAYING),
                        or_(recent, games.c.id.in_(also)) if also else recent,
                        games.c.cancelled == 0)
                 .order_by(games.c.updated.desc()).limit(limit))
        with self._autocommit.connect() as db:
            found = db.execute(query).all()
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
        query = (select(games.c.id, games.c.opponent)
                 .where(games.c.status == PLAYING, games.c.updated < before,
                        games.c.clock == "null", games.c.cancelled == 0)
                 .order_by(games.c.updated).limit(limit))
        with self._autocommit.connect() as db:
            found = db.execute(query).all()
        idle = []
        for game_id, opponent in found:
            try:
                if json.loads(opponent).get("kind") == "agent":
                    idle.append(game_id)
            except (AttributeError, TypeError, ValueError):
                continue  # a damaged row: its own page says so
        return idle

    def take_fence(self, game_id: str, fence: int) -> bool:
        """Mark ``game_id`` as written by ``fence`` now, where no larger token wrote it: a
        replica that takes a game over does so before loading it, so the late writes of
        the owner before it are refused from then on. Whether it was marked.

        >>> import tempfile, pathlib
        >>> store = Store(pathlib.Path(tempfile.mkdtemp()) / "games.sqlite")
        >>> store.insert(GameRow("g1", "losat", {}, "", {"kind": "hotseat"}, ["t", "t"]))
        >>> store.take_fence("g1", 3), store.take_fence("g1", 2), store.fence_of("g1")
        (True, False, 3)
        """
        with self._writing() as db:
            done = db.execute(update(games).where(games.c.id == game_id,
                                                  games.c.fence <= fence).values(fence=fence))
            return bool(done.rowcount)

    def fence_of(self, game_id: str) -> int | None:
        """The fencing token that last wrote ``game_id`` (``None``: no such game)."""
        with self._autocommit.connect() as db:
            found = db.execute(select(games.c.fence).where(games.c.id == game_id))
            fence = found.scalar_one_or_none()
        return None if fence is None else int(fence)

    def running(self, limit: int = 1000) -> list[str]:
        """The ids of the games being played that something must run without a request: a
        clock (its flag) or an agent (its moves); a replica's sweep claims those whose
        owner is gone.

        >>> import tempfile, pathlib
        >>> store = Store(pathlib.Path(tempfile.mkdtemp()) / "games.sqlite")
        >>> store.insert(GameRow("g1", "losat", {}, "", {"kind": "agent"}, ["t", None]))
        >>> store.insert(GameRow("g2", "losat", {}, "", {"kind": "online"}, ["t", "u"]))
        >>> store.insert(GameRow("g3", "losat", {}, "", {"kind": "online"}, ["t", "u"],
        ...                      clock={"kind": "live"}))
        >>> sorted(store.running())
        ['g1', 'g3']
        """
        query = (select(games.c.id, games.c.opponent, games.c.clock)
                 .where(games.c.status == PLAYING, games.c.cancelled == 0)
                 .order_by(games.c.updated.desc()).limit(limit))
        with self._autocommit.connect() as db:
            found = db.execute(query).all()
        running = []
        for game_id, opponent, clock in found:
            try:
                if clock != "null" or json.loads(opponent).get("kind") == "agent":
                    running.append(game_id)
            except (AttributeError, TypeError, ValueError):
                continue  # a damaged row: its own page says so
        return running

    def count(self) -> int:
        """How many games are stored."""
        with self._autocommit.connect() as db:
            return int(db.execute(select(func.count()).select_from(games)).scalar_one())

    def close(self) -> None:
        """Close the store's connections (the server stops); on SQLite, first checkpoint the
        write-ahead log into the file. A later call opens connections again (an app whose
        lifespan runs twice, as in tests)."""
        with self._lock:
            if self._sqlite:  # outside a transaction, where SQLite can checkpoint everything
                with contextlib.suppress(SQLAlchemyError, sqlite3.Error), \
                        contextlib.closing(self.engine.raw_connection()) as raw:
                    raw.cursor().execute("PRAGMA wal_checkpoint(TRUNCATE)")
            if self._owned:
                self.engine.dispose()


class DamagedRow(LifeArenaError):
    """A stored game whose row no longer reads."""


class FencedOut(LifeArenaError):
    """A write of a game by a replica whose lease was taken over: a replica with a larger
    fencing token has written the row since (the writer must drop its copy of the game)."""


def _fenced(row: GameRow, updated: int) -> None:
    """Refuse (:class:`FencedOut`) a write of a replica's game (``fence`` above 0) that
    changed no row: a larger token wrote it since. A single server's writes (``fence`` 0)
    are never refused."""
    if row.fence > 0 and updated == 0:
        raise FencedOut(f"game {row.id!r} is owned by another replica now (fencing token "
                        f"{row.fence} is stale)")


def _status(outcome: dict[str, Any] | None) -> tuple[str, str]:
    """The ``status`` and ``outcome`` columns of a game whose outcome is ``outcome``."""
    return (PLAYING, "null") if outcome is None else (FINISHED, json.dumps(outcome))
