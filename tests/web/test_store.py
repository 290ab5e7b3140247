"""The games store on each backend (SQLite and PostgreSQL: the ``games_db`` fixture), its
migrations, and the files of earlier versions it adopts."""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from fastapi.testclient import TestClient
from sqlalchemy import Engine, text

from lifearena.errors import BadParameterError
from lifearena.web import Settings, create_app
from lifearena.web.database import (
    APPLICATION_ID,
    ForeignDatabase,
    database_url,
    head,
    open_engine,
    revision,
    upgrade,
)
from lifearena.web.store import DamagedRow, GameRow, Store
from lifearena.web.tables import metadata

from .conftest import QUICK_WAR, move, view

# today's schema as the store wrote it with raw sqlite3, before there were migrations
SCHEMA_BEFORE_MIGRATIONS = """
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
INDEX_BEFORE_MIGRATIONS = "CREATE INDEX IF NOT EXISTS games_by_status ON games (status, updated)"
# and as the first versions wrote it: none of the columns added since
SCHEMA_OF_THE_FIRST_VERSIONS = (
    "CREATE TABLE games (id TEXT PRIMARY KEY, game TEXT NOT NULL, params TEXT NOT NULL, "
    "setup TEXT NOT NULL, opponent TEXT NOT NULL, tokens TEXT NOT NULL, moves TEXT NOT NULL "
    "DEFAULT '[]', pending TEXT NOT NULL DEFAULT '{}', created REAL NOT NULL, updated REAL "
    "NOT NULL)")


@pytest.fixture
def store(games_db: str | Path) -> Store:
    opened = Store(games_db)
    yield opened
    opened.close()
    opened.engine.dispose()


def _differences(engine: Engine) -> list:
    with engine.connect() as connection:
        return list(compare_metadata(MigrationContext.configure(connection), metadata))


def test_a_game_reads_back_as_it_was_written(store: Store) -> None:
    row = GameRow("g1", "life_for_two", {"max_turns": None}, "..... 1", {"kind": "online"},
                  ["first", None], ["1,1 1,2 2,2"], {"1": "5,5"}, 1.5, 2.5,
                  {"1": "invitation"}, False, None, {"control": {"kind": "live"}},
                  {"draw": 0})
    store.insert(row)
    assert store.get("g1") == row and store.get("other") is None and store.count() == 1
    row.tokens, row.invites, row.cancelled = ["first", "second"], {}, True
    store.save_seats(row)
    row.moves, row.pending = ["1,1 1,2 2,2", "3,3"], {}
    row.ending, row.clock, row.offers = {"termination": "resign", "winner": 1}, None, {}
    store.save_play(row, row.ending)
    again = store.get("g1")
    assert again is not None and again.updated > 2.5
    assert (again.tokens, again.invites, again.cancelled, again.moves, again.pending,
            again.ending, again.clock, again.offers) == (
        row.tokens, row.invites, True, row.moves, {}, row.ending, None, {})
    row.game, row.params, row.setup = "life_for_two", {}, "classic"
    store.save_form(row)
    assert (store.get("g1").params, store.get("g1").setup) == ({}, "classic")


def test_the_lists_read_the_newest_games_of_a_status(store: Store) -> None:
    now = time.time()
    for number in range(5):
        store.insert(GameRow(f"g{number}", "losat", {}, "", {"kind": "hotseat"}, ["t", "t"],
                             updated=now - 100 * number))
    store.save_progress("g4", ["+bK7"], {})  # played now: the newest
    store.save_progress("g3", [], {}, {"termination": "win", "winner": 0})
    cancelled = store.get("g2")
    cancelled.cancelled = True
    store.save_seats(cancelled)
    store.insert(GameRow("old", "losat", {}, "", {"kind": "agent"}, ["t", None],
                         updated=now - 10_000))
    store.save_progress("old", [], {})
    with store.engine.begin() as connection:  # back in time, as if left alone since
        connection.execute(text("UPDATE games SET updated = :at WHERE id = 'old'"),
                           {"at": now - 10_000})
    playing = store.latest(False, 10, since=now - 1000)
    assert [g.id for g in playing] == ["g4", "g0", "g1"]
    assert playing[0].moves == 1 and playing[0].kind == "hotseat"
    assert [g.id for g in store.latest(False, 2, since=now - 1000)] == ["g4", "g0"]
    assert [g.id for g in store.latest(False, 10, since=now - 1000, also=["old"])] == [
        "g4", "g0", "g1", "old"]
    finished = store.latest(True, 10)
    assert [(g.id, g.outcome) for g in finished] == [("g3", {"termination": "win",
                                                             "winner": 0})]
    assert store.idle_agent_games(now - 5000) == ["old"]
    assert store.idle_agent_games(now - 20_000) == []


def test_clocked_games_are_the_timed_ones_being_played(store: Store) -> None:
    for game_id, clock in (("timed", {"control": {}}), ("untimed", None)):
        store.insert(GameRow(game_id, "losat", {}, "", {"kind": "hotseat"}, ["t", "t"],
                             clock=clock))
        store.save_progress(game_id, [], {})
    assert store.clocked() == ["timed"]


def test_a_damaged_row_says_so_and_leaves_the_lists(store: Store) -> None:
    store.insert(GameRow("bad", "losat", {}, "", {"kind": "hotseat"}, ["t", "t"]))
    store.save_progress("bad", [], {})
    with store.engine.begin() as connection:
        connection.execute(text("UPDATE games SET moves = 'not json' WHERE id = 'bad'"))
    with pytest.raises(DamagedRow, match="'bad'"):
        store.get("bad")
    assert store.latest(False, 10) == []


def test_threads_write_at_once_and_lose_nothing(store: Store) -> None:
    def play(number: int) -> None:
        for ply in range(10):
            game_id = f"t{number}-{ply}"
            store.insert(GameRow(game_id, "losat", {}, "", {"kind": "hotseat"}, ["t", "t"]))
            store.save_progress(game_id, [str(ply)], {})
            assert store.get(game_id).moves == [str(ply)]

    threads = [threading.Thread(target=play, args=(number,)) for number in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert store.count() == 80


def test_a_closed_store_opens_again_and_shares_its_engine(games_db: str | Path) -> None:
    store = Store(games_db)
    store.insert(GameRow("g1", "losat", {}, "", {"kind": "hotseat"}, ["t", "t"]))
    store.close()
    assert store.get("g1") is not None  # an app whose lifespan runs twice
    beside = Store(store.engine)  # the players' code shares the engine
    assert beside.engine is store.engine and beside.count() == 1
    beside.close()
    assert store.count() == 1
    store.close()
    store.engine.dispose()


def test_the_migrations_make_the_tables_the_code_reads(games_db: str | Path) -> None:
    engine = open_engine(database_url(games_db))
    try:
        assert revision(engine) is None
        upgrade(engine)
        upgrade(engine)  # once there, nothing more to do
        assert revision(engine) == head()
        assert _differences(engine) == []
    finally:
        engine.dispose()


def test_the_listing_query_reads_through_its_index(store: Store) -> None:
    query = ("SELECT id FROM games WHERE status = 'playing' AND updated >= 0 AND "
             "cancelled = 0 ORDER BY updated DESC LIMIT 10")
    with store.engine.connect() as connection:
        if store.engine.dialect.name == "sqlite":
            plan = connection.execute(text(f"EXPLAIN QUERY PLAN {query}")).all()
        else:  # on a tiny table the planner would scan it: ask whether it can use the index
            connection.execute(text("SET enable_seqscan = off"))
            plan = connection.execute(text(f"EXPLAIN {query}")).all()
    assert "games_by_status" in str(plan)


def test_a_database_at_a_revision_lifearena_does_not_know_is_refused(
        games_db: str | Path) -> None:
    engine = open_engine(database_url(games_db))
    try:
        with engine.begin() as connection:
            connection.execute(text("CREATE TABLE alembic_version (version_num VARCHAR(32) "
                                    "NOT NULL PRIMARY KEY)"))
            connection.execute(text("INSERT INTO alembic_version VALUES ('9f3c2a')"))
        with pytest.raises(ForeignDatabase, match="revision '9f3c2a'.*expected a lifearena"):
            upgrade(engine)
        with engine.connect() as connection:
            assert not engine.dialect.has_table(connection, "games")
    finally:
        engine.dispose()


@pytest.mark.parametrize("schema", [SCHEMA_BEFORE_MIGRATIONS, SCHEMA_OF_THE_FIRST_VERSIONS])
def test_a_file_made_before_migrations_is_brought_up_to_date_in_place(
        tmp_path: Path, schema: str) -> None:
    path = tmp_path / "games.sqlite"
    started = time.time()
    with sqlite3.connect(path) as old:
        old.execute(schema)
        if schema is SCHEMA_BEFORE_MIGRATIONS:
            old.execute(INDEX_BEFORE_MIGRATIONS)
            old.execute(f"PRAGMA application_id={APPLICATION_ID}")
        old.execute("INSERT INTO games (id, game, params, setup, opponent, tokens, moves, "
                    "pending, created, updated) VALUES ('oldwar', 'war_of_life', '{}', ?, ?, "
                    "?, '[]', '{}', 1, ?)",
                    (QUICK_WAR, json.dumps({"kind": "hotseat"}), json.dumps(["hot", "hot"]),
                     started))
    old.close()
    app = create_app(Settings(path, agent_workers="thread"))
    with TestClient(app, base_url="http://localhost") as client:
        seen = view(client, "oldwar", "hot")
        assert seen["game"] == "war_of_life" and seen["moves"] == []
        legal = seen["legal"]["0"]["moves"][0]["move"]
        assert move(client, "oldwar", "hot", legal).status_code == 200
        assert [g["id"] for g in client.get("/api/games").json()["games"]] == ["oldwar"]
    engine = open_engine(database_url(path))
    try:
        assert revision(engine) == head() and _differences(engine) == []
        with engine.connect() as connection:
            (created, count) = connection.execute(text(
                "SELECT created, (SELECT COUNT(*) FROM games) FROM games")).one()
        assert (created, count) == (1.0, 1)
    finally:
        engine.dispose()


@pytest.mark.parametrize("content", [b"not a database at all\n" * 100, "foreign"])
def test_a_foreign_or_broken_file_is_refused_unchanged(tmp_path: Path,
                                                       content: bytes | str) -> None:
    path = tmp_path / "games.sqlite"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        with sqlite3.connect(path) as other:
            other.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)")
        other.close()
    before = path.read_bytes()
    with pytest.raises(ForeignDatabase, match="not a lifearena games database"):
        Store(path)
    assert path.read_bytes() == before


def test_database_urls(tmp_path: Path) -> None:
    assert database_url(tmp_path / "g.sqlite") == f"sqlite:///{tmp_path}/g.sqlite"
    assert database_url("postgres://me:pw@h:5/n") == "postgresql+psycopg://me:pw@h:5/n"
    assert database_url("postgresql+psycopg://h/n") == "postgresql+psycopg://h/n"
    for bad in ("mysql://h/n", "sqlite://", "postgresql://", ""):
        with pytest.raises(BadParameterError) as refused:
            database_url(bad)
        assert "expected" in str(refused.value) and "\n" not in str(refused.value)


def test_a_postgresql_connection_idle_in_the_pool_is_checked_before_use(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The server closes the store's pooled connections (a restart, an administrator):
    without the idle check the next read fails; with it, a dead connection is replaced
    and the read succeeds. Connections in steady use are not checked (no round trip)."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.exc import OperationalError
    from sqlalchemy.pool import NullPool

    import lifearena.web.database as database

    from ..databases import fresh_postgres

    with fresh_postgres() as url:
        store = Store(url)
        admin = create_engine(url, isolation_level="AUTOCOMMIT", poolclass=NullPool)

        def close_the_stores_connections() -> None:
            with admin.connect() as db:
                db.execute(text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                "WHERE application_name = 'lifearena' AND pid <> "
                                "pg_backend_pid()"))
        try:
            store.insert(GameRow("g1", "losat", {}, "", {"kind": "hotseat"}, ["t", "t"]))
            monkeypatch.setattr(database, "IDLE_PING_S", 3600.0)
            close_the_stores_connections()
            with pytest.raises(OperationalError):
                store.fence_of("g1")  # not checked: the dead connection is used
            assert store.fence_of("g1") == 0  # the pool was emptied after the failure
            monkeypatch.setattr(database, "IDLE_PING_S", 0.0)
            close_the_stores_connections()
            assert store.fence_of("g1") == 0  # checked, found dead, replaced
        finally:
            admin.dispose()
            store.close()
            store.engine.dispose()
