"""The web server's database: where it is (:func:`database_url`), how it is opened
(:func:`open_engine`) and how its schema is brought up to date (:func:`upgrade`).

SQLite is the embedded default: one file, in WAL mode so that readers never wait for the
writer, marked as lifearena's with SQLite's ``application_id`` so that another program's file
given by mistake is refused (:class:`ForeignDatabase`) before a byte of it changes.
PostgreSQL is a URL away (``postgresql://user@host:5432/name``), through psycopg 3, for a
server that outgrows one file or runs as several replicas.

The schema is :data:`lifearena.web.tables.metadata`; Alembic's migrations in the package's
``migrations`` folder make it, so a database of any earlier release is brought up to date in
place: :func:`upgrade` runs them to the newest, and adopts a file written before there were
migrations (a ``games`` table, perhaps without the columns added since, and no
``alembic_version``) by adding what it lacks and marking it as the first revision.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> url = database_url(folder / "games.sqlite")
>>> url.startswith("sqlite:///") and url.endswith("games.sqlite")
True
>>> engine = open_engine(url)
>>> upgrade(engine)
>>> revision(engine) == head()
True
>>> engine.dispose()
"""

from __future__ import annotations

import contextlib
import functools
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from sqlalchemy import Column, Connection, Engine, create_engine, event, inspect, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DisconnectionError

from lifearena.errors import BadParameterError, LifeArenaError
from lifearena.web import tables

APPLICATION_ID = 0x4C415747  # "LAWG": marks a file as a lifearena web games database
MIGRATIONS = Path(__file__).parent / "migrations"
"""Alembic's script folder: ``env.py`` and the revisions in ``versions/``."""
BASELINE = "0001"
"""The revision of the schema as it was before there were migrations (the games table)."""
EARLIER_COLUMNS = ("invites", "cancelled", "status", "outcome", "ending", "clock", "offers")
"""Columns of ``games`` that files of earlier versions may lack: they are added in place
(their rows' status is ``unknown`` until the game is played again)."""
BUSY_TIMEOUT_MS = 5000
"""How long a SQLite connection waits for another's write before giving up."""
PG_LOCK = 0x4C415747
"""The PostgreSQL advisory lock that lets one server at a time run the migrations."""


class ForeignDatabase(LifeArenaError):
    """The database is not SQLite, or is another program's."""


def database_url(target: str | Path) -> str:
    """The SQLAlchemy URL of ``target``: a file path (made absolute, so that the server's
    later changes of folder do not move it), a ``sqlite:///`` URL, or a PostgreSQL URL
    (``postgresql://`` and ``postgres://`` are read as psycopg 3's ``postgresql+psycopg://``).

    >>> database_url("postgresql://me@db.example:5432/arena")
    'postgresql+psycopg://me@db.example:5432/arena'
    >>> database_url("sqlite:////srv/web.sqlite")
    'sqlite:////srv/web.sqlite'
    >>> database_url("mysql://me@db/arena")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    lifearena.errors.BadParameterError: database 'mysql://me@db/arena' is not ...
    """
    if isinstance(target, Path) or "://" not in target:
        if not str(target).strip():
            raise BadParameterError("database '' is empty; expected a file path or a "
                                    "postgresql:// URL")
        return f"sqlite:///{Path(target).expanduser().resolve().as_posix()}"
    scheme, _, rest = target.partition("://")
    if scheme in ("postgresql", "postgres", "postgresql+psycopg") and rest:
        return f"postgresql+psycopg://{rest}"
    if scheme == "sqlite" and rest.startswith("/") and len(rest) > 1:
        return target
    raise BadParameterError(f"database {target!r} is not a file path or a supported URL; "
                            "expected a SQLite file (games.sqlite or sqlite:////abs/path) "
                            "or postgresql://user@host:port/name")


def hide_password(url: str) -> str:
    """``url`` as it may be printed: its password hidden.

    >>> hide_password("postgresql+psycopg://me:secret@db/arena")
    'postgresql+psycopg://me:***@db/arena'
    """
    return make_url(url).render_as_string(hide_password=True)


def open_engine(url: str) -> Engine:
    """An engine on ``url`` (as :func:`database_url` gives it). A SQLite file is checked to be
    lifearena's, or new, before anything is written to it (else :class:`ForeignDatabase`),
    then marked and put in WAL mode; its connections wait :data:`BUSY_TIMEOUT_MS` for a
    writer and enforce foreign keys. PostgreSQL gets a small pool whose connections are
    checked before use when they sat idle (:data:`IDLE_PING_S`: a server restarted under us
    is survived)."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        path = Path(parsed.database or "")
        _claim_sqlite_file(path)
        engine = create_engine(url, connect_args={"check_same_thread": False})
        event.listen(engine, "connect", _sqlite_connection)
        event.listen(engine, "begin", _sqlite_begin)
        return engine
    engine = create_engine(url, pool_size=5, max_overflow=10, pool_timeout=30,
                           pool_recycle=1800,
                           connect_args={"connect_timeout": 10, "application_name": "lifearena"})
    event.listen(engine, "checkin", _note_checkin)
    event.listen(engine, "checkout", _ping_if_idle)
    return engine


IDLE_PING_S = 5.0
"""A pooled PostgreSQL connection idle longer than this is checked (one round trip) before
use; one in steady use is not, so that a busy server pays no extra round trip a query."""


def _note_checkin(dbapi_connection: Any, record: Any) -> None:
    record.info["idle_since"] = time.monotonic()


def _ping_if_idle(dbapi_connection: Any, record: Any, proxy: Any) -> None:
    """Check a connection that sat idle in the pool (the server may have restarted since):
    a dead one is replaced by a fresh one (SQLAlchemy's pessimistic disconnect handling,
    done only where it is needed; ``pool_pre_ping`` would ping before every query)."""
    if time.monotonic() - record.info.get("idle_since", 0.0) < IDLE_PING_S:
        return
    try:
        cursor = dbapi_connection.cursor()
        cursor.execute("SELECT 1")
        cursor.close()
        if not dbapi_connection.autocommit:
            dbapi_connection.rollback()  # no transaction left open by the check
    except Exception as error:
        raise DisconnectionError(f"a pooled connection is dead: {error}") from error


def autocommit(engine: Engine) -> Engine:
    """``engine`` for reads and single-statement writes: on PostgreSQL its connections run in
    autocommit (one round trip a statement, no ``BEGIN`` and ``ROLLBACK`` around it; a
    statement is atomic by itself); SQLite's ``engine`` as it is.

    >>> autocommit(create_engine("sqlite://")).dialect.name
    'sqlite'
    """
    if engine.dialect.name == "sqlite":
        return engine
    return engine.execution_options(isolation_level="AUTOCOMMIT")


def _claim_sqlite_file(path: Path) -> None:
    """Refuse ``path`` unless it is new, lifearena's, or a games file of an earlier version
    (no mark, no table but ``games``); then mark it and switch it to WAL. Raw ``sqlite3``:
    the check must read the header before SQLAlchemy's pool touches the file."""
    try:
        with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as db:
            app_id = db.execute("PRAGMA application_id").fetchone()[0]
            found = {name for (name,) in db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'")}
            if not (app_id == APPLICATION_ID or (app_id == 0 and found <= {"games"})):
                listed = ", ".join(sorted(found)) or "none"
                raise sqlite3.DatabaseError(f"another program's file: tables {listed}")
            db.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
            db.execute("PRAGMA journal_mode=WAL")
            if app_id != APPLICATION_ID:
                db.execute(f"PRAGMA application_id={APPLICATION_ID}")
    except sqlite3.DatabaseError as error:
        raise ForeignDatabase(f"{path.name} is not a lifearena games database ({error}); "
                              "expected a file made by lifearena serve, or a new file name"
                              ) from None


def _sqlite_connection(dbapi: Any, _record: Any) -> None:
    """Each new SQLite connection: no implicit transactions of the driver's own (SQLAlchemy
    says when one begins, :func:`_sqlite_begin`, so DDL is transactional too), a busy
    timeout, foreign keys enforced, and WAL's cheaper synchronous mode."""
    dbapi.isolation_level = None
    cursor = dbapi.cursor()
    for pragma in (f"busy_timeout={BUSY_TIMEOUT_MS}", "foreign_keys=ON", "synchronous=NORMAL"):
        cursor.execute(f"PRAGMA {pragma}")
    cursor.close()


def _sqlite_begin(connection: Connection) -> None:
    """Begin SQLite's transaction; ``BEGIN IMMEDIATE`` (the write lock at once) where the
    connection says it will write after reading (:func:`upgrade`), so that it cannot fail
    half way on a lock another writer took in between."""
    immediate = connection.get_execution_options().get("lifearena_immediate", False)
    # on the driver's connection: SQLAlchemy's own execution would cost more than the query
    connection.connection.driver_connection.execute(  # type: ignore[union-attr]
        "BEGIN IMMEDIATE" if immediate else "BEGIN")


def alembic_config(connection: Connection | None = None) -> Any:
    """Alembic's configuration for the package's own migrations (no ``alembic.ini``): the
    ``env.py`` there runs them on ``connection``."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", MIGRATIONS.as_posix())
    config.attributes["connection"] = connection
    return config


@functools.cache
def _scripts() -> Any:
    """The migrations' ``ScriptDirectory`` (read once per process)."""
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(alembic_config())


def head() -> str:
    """The newest revision of the migrations.

    >>> head()
    '0004'
    """
    found = _scripts().get_current_head()
    assert found is not None
    return str(found)


def revision(engine: Engine) -> str | None:
    """The revision the database at ``engine`` is at (``None``: never migrated)."""
    with engine.connect() as connection:
        return _revision(connection)


def _revision(connection: Connection) -> str | None:
    if not inspect(connection).has_table("alembic_version"):
        return None
    return connection.execute(text("SELECT version_num FROM alembic_version")).scalar()


def upgrade(engine: Engine) -> None:
    """Bring the database at ``engine`` to the newest schema, in one transaction, one server
    at a time: nothing is done when it is there already; a games file of an earlier version
    is adopted first (:func:`adopt`). A database at a revision these migrations do not know
    (another program's, or a newer lifearena's) is refused with :class:`ForeignDatabase`."""
    from alembic import command

    if revision(engine) == head():
        return
    with _migrating(engine) as connection:
        current = _revision(connection)
        if current is None and inspect(connection).has_table("games"):
            adopt(connection)
            current = BASELINE
        if current is not None and current not in _known():
            where = hide_password(str(engine.url))
            raise ForeignDatabase(f"{where} is at revision {current!r}, which lifearena does "
                                  f"not know; expected a lifearena database (revisions "
                                  f"{', '.join(sorted(_known()))}) or an empty one")
        command.upgrade(alembic_config(connection), "head")


@contextlib.contextmanager
def _migrating(engine: Engine) -> Iterator[Connection]:
    """A connection in a transaction that holds the database's migration lock: SQLite's write
    lock, or a PostgreSQL advisory lock (released at commit)."""
    with engine.connect() as connection:
        connection.execution_options(lifearena_immediate=True)
        with connection.begin():
            if engine.dialect.name == "postgresql":
                connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": PG_LOCK})
            yield connection


def _known() -> frozenset[str]:
    return frozenset(script.revision for script in _scripts().walk_revisions())


def adopt(connection: Connection) -> None:
    """Make a games table of an earlier version (before migrations) the baseline revision,
    every row kept, and record it at :data:`BASELINE`.

    On SQLite (the only backend earlier versions had) the table is rebuilt as the baseline
    makes it, its rows copied across: columns an earlier version lacked
    (:data:`EARLIER_COLUMNS`) take their defaults, and the file ends up exactly as a new
    one (the old ``id TEXT PRIMARY KEY`` let SQLite store a null id, and ``REAL`` columns
    read back as another type than the baseline's; a row without an id, which no page could
    ever open, is the one thing not copied). Elsewhere the missing columns are added."""
    from alembic.migration import MigrationContext
    from alembic.operations import Operations

    have = [column["name"] for column in inspect(connection).get_columns("games")]
    kept = ", ".join(name for name in have if name in tables.games.c)
    if connection.dialect.name == "sqlite":
        connection.execute(text("DROP INDEX IF EXISTS games_by_status"))
        connection.execute(text("ALTER TABLE games RENAME TO games_before_migrations"))
        tables.games.create(connection)
        connection.execute(text(f"INSERT INTO games ({kept}) SELECT {kept} "
                                "FROM games_before_migrations WHERE id IS NOT NULL"))
        connection.execute(text("DROP TABLE games_before_migrations"))
        context = MigrationContext.configure(connection)
    else:
        context = MigrationContext.configure(connection)
        operations = Operations(context)
        for name in EARLIER_COLUMNS:
            if name not in have:
                model = tables.games.c[name]
                default = model.server_default
                operations.add_column("games", Column(
                    name, model.type, nullable=False,
                    server_default=getattr(default, "arg", None)))
        indexes = {index["name"] for index in inspect(connection).get_indexes("games")}
        if "games_by_status" not in indexes:
            operations.create_index("games_by_status", "games", ["status", "updated"])
    context.stamp(_scripts(), BASELINE)
