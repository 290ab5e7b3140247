"""Results of long runs in one SQLite file: tournaments (one row per finished game with its
record) and a generic task table for other sweeps, both resumable after an interruption.

A file holds any number of *runs*, each a name, a kind (``"tournament"``, ``"sweep"``...) and
its configuration (a JSON object). :meth:`ResultsDB.open_run` starts a run or resumes the one
of that name; resuming with a different configuration raises
:class:`~lifearena.errors.BadParameterError` naming the differences and writes nothing.

Games are keyed by ``(pairing, game index, seat)``; each batch of results is written in one
transaction as it arrives, so a run killed at any moment (even by SIGKILL) loses at most the
batch in flight and never stores a game twice, and :meth:`Run.done_games` tells the caller
what to skip.

Promises about the file (each proved by a test, see ``docs/reliability.md``):

* **Only our files.** A file that is not SQLite, is damaged or truncated (``PRAGMA
  quick_check`` fails), or is an SQLite file of another program (a p2life density results
  file, say) is refused with :class:`~lifearena.errors.BadParameterError` naming the file and
  what was expected, and nothing is written to it.
* **Two writers.** The file is in WAL mode with a busy timeout of :data:`BUSY_TIMEOUT`
  seconds, so two processes may write one file at once (two tournaments, or two copies of
  one tournament, which then share its games); a writer kept waiting longer than that gets
  :class:`ResultsFileBusy` (one clear line), never a ``database is locked`` traceback.

>>> db = ResultsDB(":memory:")
>>> run = db.open_run("sweep", "density", {"sizes": [8, 16]})
>>> run.add_tasks([("size=8", {"density": 0.25})])
1
>>> run.done_tasks(), run.task_results()["size=8"]
({'size=8'}, {'density': 0.25})
>>> try:
...     db.open_run("sweep", "density", {"sizes": [8]})
... except ValueError as error:
...     print(str(error)[:80])
run 'sweep' in :memory: was started with another configuration (sizes: [8, 16] s
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from lifearena.arena.referee import GameResult
from lifearena.errors import BadParameterError

APPLICATION_ID = 0x4C494645  # "LIFE": marks a file as a lifearena results database
SCHEMA_VERSION = 1
BUSY_TIMEOUT = 30.0
"""Seconds a writer waits for another writer of the same file before giving up."""


class ResultsFileBusy(BadParameterError):
    """Another process held the results file longer than :data:`BUSY_TIMEOUT`."""


def _is_busy(error: sqlite3.Error) -> bool:
    text = str(error).lower()
    return isinstance(error, sqlite3.OperationalError) and ("locked" in text or "busy" in text)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL,
    config TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'running',
    created REAL NOT NULL,
    updated REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS games (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    pairing TEXT NOT NULL,
    game_index INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    player0 TEXT NOT NULL,
    player1 TEXT NOT NULL,
    winner INTEGER,
    termination TEXT NOT NULL,
    length INTEGER NOT NULL,
    duration REAL NOT NULL,
    seconds0 REAL,
    seconds1 REAL,
    setup TEXT NOT NULL,
    seed INTEGER,
    result TEXT NOT NULL,
    finished REAL NOT NULL,
    PRIMARY KEY (run_id, pairing, game_index, seat)
);
CREATE TABLE IF NOT EXISTS tasks (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    key TEXT NOT NULL,
    result TEXT NOT NULL,
    finished REAL NOT NULL,
    PRIMARY KEY (run_id, key)
);
"""


class GameKey(NamedTuple):
    """Which game of a run: the pairing (e.g. ``"a|b"``), the index of its start, the seat
    order (0: the pairing's first agent plays first)."""

    pairing: str
    index: int  # type: ignore[assignment]  # a field's name, not tuple.index
    seat: int


def _diff(stored: Any, given: Any, prefix: str = "") -> list[str]:
    if isinstance(stored, dict) and isinstance(given, dict):
        out = []
        for key in sorted(set(stored) | set(given)):
            name = f"{prefix}{key}"
            if key not in stored:
                out.append(f"{name}: not stored, {json.dumps(given[key])} given")
            elif key not in given:
                out.append(f"{name}: {json.dumps(stored[key])} stored, not given")
            else:
                out.extend(_diff(stored[key], given[key], f"{name}."))
        return out
    if stored != given:
        return [f"{prefix.rstrip('.')}: {json.dumps(stored)} stored, {json.dumps(given)} given"]
    return []


class ResultsDB:
    """An SQLite results file (``":memory:"`` for a throw-away one)."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        if self.path != ":memory:" and Path(self.path).is_dir():
            raise BadParameterError(f"results file {self.path!r} is a directory; expected a file")
        try:
            self._conn = sqlite3.connect(self.path, isolation_level=None, timeout=BUSY_TIMEOUT)
        except sqlite3.Error as error:
            raise BadParameterError(f"cannot open results file {self.path!r}: {error}") from None
        deadline = time.monotonic() + BUSY_TIMEOUT
        try:
            while True:
                try:
                    self._prepare()
                    break
                except sqlite3.OperationalError as error:
                    # two processes creating one file at once: one waits for the other
                    if not _is_busy(error) or time.monotonic() > deadline:
                        raise
                    time.sleep(0.05)
        except sqlite3.DatabaseError as error:
            self._conn.close()
            if _is_busy(error):
                raise self._busy() from None
            raise BadParameterError(
                f"{self.path!r} is not a usable results database ({error}); expected an SQLite "
                "file made by lifearena (tournament or ladder --db)") from None
        except BaseException:
            self._conn.close()
            raise

    def _busy(self) -> ResultsFileBusy:
        return ResultsFileBusy(f"results file {self.path!r} is held by another process for more "
                               f"than {BUSY_TIMEOUT:g} s; expected it to be free (wait for the "
                               "other run, or use another file)")

    def _prepare(self) -> None:
        conn = self._conn
        # The file's mark and tables are read in one transaction (one snapshot): read in two
        # statements, another process could make its schema in between, and a whole
        # lifearena file would pass for another program's (mark unset, tables made). A new
        # file gets its schema and its mark in one write transaction that reads the file
        # again first: a second process opening the same new file waits for it and then
        # finds the whole schema, never half of one. A file that is not ours is refused
        # before anything is written.
        conn.execute("BEGIN")
        try:
            tables = self._check_contents()
        finally:
            conn.execute("ROLLBACK")
        if not tables:
            with self.transaction():
                if not self._check_contents():
                    conn.execute(f"PRAGMA application_id={APPLICATION_ID}")
                    for statement in filter(str.strip, _SCHEMA.split(";")):
                        conn.execute(statement)  # executescript would commit half-way
                    conn.execute("INSERT OR REPLACE INTO meta VALUES ('schema', ?)",
                                 (str(SCHEMA_VERSION),))
        version = conn.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
        if version is None or int(version[0]) > SCHEMA_VERSION:
            raise BadParameterError(f"{self.path!r} has results schema {version and version[0]}; "
                                    f"this lifearena reads schema {SCHEMA_VERSION}")
        if self.path != ":memory:":
            conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute("PRAGMA foreign_keys=ON")

    def _check_contents(self) -> set[str]:
        """The file's tables, inside the caller's transaction; refuses a file another
        program made or a damaged one."""
        conn = self._conn
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if (tables and app_id != APPLICATION_ID) or app_id not in (0, APPLICATION_ID):
            listed = ", ".join(sorted(tables)) or "none"
            raise BadParameterError(
                f"{self.path!r} is an SQLite file of another program (tables: {listed}); "
                "expected a lifearena results database made by tournament or ladder --db")
        if tables:
            check = [row[0] for row in conn.execute("PRAGMA quick_check")]
            if check != ["ok"]:
                raise BadParameterError(
                    f"{self.path!r} is damaged ({'; '.join(check[:3])}); expected an intact "
                    "lifearena results database")
        return tables

    def transaction(self) -> _Transaction:
        """``with db.transaction(): ...`` — all or nothing; :class:`ResultsFileBusy` when
        another writer holds the file longer than :data:`BUSY_TIMEOUT`."""
        return _Transaction(self._conn, self._busy)

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> ResultsDB:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- runs ---------------------------------------------------------------------------------

    def open_run(self, name: str, kind: str, config: Mapping[str, Any], *,
                 fresh: bool = False, plan: Mapping[str, Any] | None = None) -> Run:
        """Start the run ``name``, or resume it if it exists with the same ``kind`` and
        ``config``; ``fresh=True`` deletes an existing run of that name first.

        ``plan`` holds what may change from one invocation to the next without making it
        another run (a ladder's starts per pair and planned total: a longer ladder goes on
        from a shorter one): stored in the run's config beside ``config``, replaced on each
        open, never compared."""
        planned = json.loads(json.dumps(dict(plan or {}), sort_keys=True))
        clash = set(planned) & set(config)
        if clash:
            raise BadParameterError(f"plan keys {', '.join(sorted(clash))} are also in the "
                                    "config; expected each key in one of them")
        canonical = json.dumps(config, sort_keys=True)
        normal = json.loads(canonical)
        with self.transaction():
            row = self._conn.execute("SELECT id, kind, config FROM runs WHERE name=?",
                                     (name,)).fetchone()
            if row is not None and fresh:
                self._conn.execute("DELETE FROM runs WHERE id=?", (row[0],))
                row = None
            if row is not None:
                run_id, stored_kind, stored = row
                differences = ([f"kind: {stored_kind} stored, {kind} given"]
                               if stored_kind != kind else [])
                differences += _diff({key: value for key, value in json.loads(stored).items()
                                      if key not in planned}, normal)
                if differences:
                    raise BadParameterError(
                        f"run {name!r} in {self.path} was started with another configuration "
                        f"({'; '.join(differences)}); use another file or run name, or start "
                        "it afresh")
                if planned:
                    self._conn.execute("UPDATE runs SET config=? WHERE id=?", (json.dumps(
                        {**normal, **planned}, sort_keys=True), run_id))
            else:
                now = time.time()
                run_id = self._conn.execute(
                    "INSERT INTO runs (name, kind, config, created, updated) "
                    "VALUES (?, ?, ?, ?, ?)", (name, kind, json.dumps(
                        {**normal, **planned}, sort_keys=True), now, now)).lastrowid
        return Run(self, int(run_id), name, kind, {**normal, **planned})

    def get_run(self, name: str) -> Run:
        """The stored run ``name`` (without checking a configuration)."""
        row = self._conn.execute("SELECT id, kind, config FROM runs WHERE name=?",
                                 (name,)).fetchone()
        if row is None:
            known = ", ".join(r.name for r in self.runs()) or "none"
            raise BadParameterError(f"no run {name!r} in {self.path}; runs there: {known}")
        return Run(self, int(row[0]), name, row[1], json.loads(row[2]))

    def runs(self) -> list[RunInfo]:
        """Every run in the file, oldest first."""
        rows = self._conn.execute(
            "SELECT r.name, r.kind, r.status, r.created, "
            "(SELECT COUNT(*) FROM games g WHERE g.run_id=r.id), "
            "(SELECT COUNT(*) FROM tasks t WHERE t.run_id=r.id) FROM runs r ORDER BY r.id")
        return [RunInfo(*row) for row in rows]


@dataclass(frozen=True)
class RunInfo:
    name: str
    kind: str
    status: str
    created: float
    games: int
    tasks: int


class _Transaction:
    def __init__(self, conn: sqlite3.Connection,
                 busy: Callable[[], ResultsFileBusy] | None = None) -> None:
        self.conn = conn
        self.busy = busy

    def __enter__(self) -> sqlite3.Connection:
        try:
            self.conn.execute("BEGIN IMMEDIATE")  # waits up to the busy timeout for a writer
        except sqlite3.OperationalError as error:
            if _is_busy(error) and self.busy is not None:
                raise self.busy() from None
            raise
        return self.conn

    def __exit__(self, exc_type: object, *exc: object) -> None:
        self.conn.execute("COMMIT" if exc_type is None else "ROLLBACK")


class Run:
    """One run in a :class:`ResultsDB`: its games and/or tasks."""

    def __init__(self, db: ResultsDB, run_id: int, name: str, kind: str,
                 config: dict[str, Any]) -> None:
        self.db, self.id, self.name, self.kind, self.config = db, run_id, name, kind, config

    def __repr__(self) -> str:
        return f"<Run {self.name!r} ({self.kind}) in {self.db.path}>"

    @property
    def _conn(self) -> sqlite3.Connection:
        return self.db._conn

    def set_status(self, status: str) -> None:
        """Mark the run (``"running"``, ``"done"``, ``"interrupted"``)."""
        with self.db.transaction() as conn:
            conn.execute("UPDATE runs SET status=?, updated=? WHERE id=?",
                         (status, time.time(), self.id))

    @property
    def status(self) -> str:
        return str(self._conn.execute("SELECT status FROM runs WHERE id=?",
                                      (self.id,)).fetchone()[0])

    # -- games --------------------------------------------------------------------------------

    def add_games(self, games: Iterable[tuple[GameKey, GameResult]]) -> int:
        """Store finished games in one transaction; already stored keys are left as they are.
        Returns how many were new."""
        now = time.time()
        rows = []
        for key, result in games:
            seconds = result.seconds or (None, None)
            rows.append((self.id, key.pairing, key.index, key.seat, result.players[0],
                         result.players[1], result.winner, result.outcome.termination.value,
                         result.length, result.duration, seconds[0], seconds[1], result.setup,
                         result.seed, json.dumps(result.to_dict(), sort_keys=True), now))
        with self.db.transaction() as conn:
            before = conn.total_changes
            conn.executemany("INSERT OR IGNORE INTO games VALUES "
                             "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
            added = conn.total_changes - before
            conn.execute("UPDATE runs SET updated=? WHERE id=?", (now, self.id))
        return added

    def done_games(self) -> set[GameKey]:
        """The keys of the games already stored."""
        rows = self._conn.execute("SELECT pairing, game_index, seat FROM games WHERE run_id=?",
                                  (self.id,))
        return {GameKey(*row) for row in rows}

    def count_games(self) -> int:
        return int(self._conn.execute("SELECT COUNT(*) FROM games WHERE run_id=?",
                                      (self.id,)).fetchone()[0])

    def summaries(self) -> list[dict[str, Any]]:
        """The summary columns of every stored game (no records), in key order."""
        cursor = self._conn.execute(
            "SELECT pairing, game_index, seat, player0, player1, winner, termination, length, "
            "duration, seconds0, seconds1 FROM games WHERE run_id=? "
            "ORDER BY pairing, game_index, seat", (self.id,))
        names = [d[0] for d in cursor.description]
        return [dict(zip(names, row, strict=True)) for row in cursor]

    def games(self) -> Iterator[tuple[GameKey, GameResult]]:
        """Every stored game with its full result (record included), in key order."""
        cursor = self._conn.execute(
            "SELECT pairing, game_index, seat, result FROM games WHERE run_id=? "
            "ORDER BY pairing, game_index, seat", (self.id,))
        for pairing, index, seat, text in cursor:
            yield GameKey(pairing, index, seat), GameResult.from_dict(json.loads(text))

    # -- generic tasks ------------------------------------------------------------------------

    def add_tasks(self, results: Iterable[tuple[str, Any]]) -> int:
        """Store ``(key, JSON-able result)`` pairs of finished tasks in one transaction."""
        now = time.time()
        rows = [(self.id, key, json.dumps(value, sort_keys=True), now) for key, value in results]
        with self.db.transaction() as conn:
            before = conn.total_changes
            conn.executemany("INSERT OR IGNORE INTO tasks VALUES (?, ?, ?, ?)", rows)
            return conn.total_changes - before

    def done_tasks(self) -> set[str]:
        """The keys of the finished tasks."""
        rows = self._conn.execute("SELECT key FROM tasks WHERE run_id=?", (self.id,))
        return {row[0] for row in rows}

    def task_results(self) -> dict[str, Any]:
        """Every finished task's result by key."""
        rows = self._conn.execute("SELECT key, result FROM tasks WHERE run_id=? ORDER BY key",
                                  (self.id,))
        return {key: json.loads(value) for key, value in rows}
