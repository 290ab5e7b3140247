"""``lifearena serve``: the web application (play every game in a browser).

Binds to loopback by default and answers only to the loopback names and its bind address
(the Host header is checked, so another site cannot reach it through DNS rebinding). To let
others in, run it behind a reverse proxy that terminates TLS: name the public host with
``--allowed-host``, and the proxy's address with ``--forwarded-allow-ips`` so that the
per-address bounds count the client's address from ``X-Forwarded-For`` (from nobody else).
The seat tokens in the private links are the only authentication of players;
``--lab-admin`` prints the operator's private link that starts tournaments from the lab.

The games are kept in one SQLite file by default (``--db FILE``), or in PostgreSQL
(``--db postgresql://user@host:port/name``); either is brought up to date with the
running version's schema when the server starts.
"""

from __future__ import annotations

import errno
import gc
import ipaddress
import secrets
import socket
from pathlib import Path
from typing import Annotated, Any

import typer

from lifearena.errors import BadParameterError
from lifearena.extras import require

DEFAULT_DB = Path("lifearena-web.sqlite")
GRACEFUL_SHUTDOWN = 5.0
"""Seconds a stopping server waits for open requests and streams before cutting them."""


def register(app: typer.Typer) -> None:
    """Add the ``serve`` command to the ``lifearena`` app."""
    app.command("serve")(serve)


def serve(
    host: Annotated[str, typer.Option(help="Address to listen on (loopback by default; "
                                      "0.0.0.0 for every interface, behind a proxy).")
                    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="TCP port.", min=1, max=65535)] = 8000,
    db: Annotated[str, typer.Option(
        help="Where the games are kept: a SQLite file (created if missing) or a PostgreSQL "
        "URL, postgresql://user[:password]@host:port/name (an existing database; its tables "
        "are made or brought up to date at start).")] = str(DEFAULT_DB),
    workers: Annotated[int, typer.Option(help="Processes in which agents think.", min=1,
                                         max=64)] = 2,
    creates_per_minute: Annotated[int, typer.Option(
        help="Games one client address may create per minute.", min=1, max=100_000)] = 30,
    games_in_progress: Annotated[int, typer.Option(
        help="Unfinished games one client address may have made or hold a seat in at once.",
        min=1, max=100_000)] = 20,
    agent_searches: Annotated[int, typer.Option(
        help="Searches of the computer one client address may have waiting or running; "
        "past it, its new games against the computer are refused.", min=1, max=64)] = 4,
    results: Annotated[list[Path] | None, typer.Option(
        "--results", help="A tournament, ladder or p2life results file to show in the lab "
        "(read only; repeatable).")] = None,
    tournaments: Annotated[int, typer.Option(
        help="Tournaments the lab's page may have running at once (0: none can be started "
        "from the page).", min=0, max=16)] = 2,
    rated_within_address: Annotated[bool, typer.Option(
        "--rated-within-address", help="Let two accounts of one client address play rated "
        "games together (off: one person cannot feed one account wins from another; on for "
        "a club whose members share one address).")] = False,
    tournaments_dir: Annotated[Path | None, typer.Option(
        "--tournaments-dir", help="Folder of the results files of the tournaments started "
        "from the lab (default: <db stem>-tournaments beside a --db file; "
        "./lifearena-tournaments for a PostgreSQL --db).", file_okay=False)] = None,
    lab_admin: Annotated[bool, typer.Option(
        "--lab-admin", help="Print a private admin link that may start, stop and resume "
        "tournaments from the lab (without it the tournament pages are read only).")
    ] = False,
    allowed_host: Annotated[list[str] | None, typer.Option(
        "--allowed-host", help="A host name the server answers to besides the loopback "
        "names and --host (the public name behind a proxy; repeatable; * for any).")
    ] = None,
    forwarded_allow_ips: Annotated[str | None, typer.Option(
        "--forwarded-allow-ips", help="Comma-separated addresses of the proxies whose "
        "X-Forwarded-For and X-Forwarded-Proto are believed (default: nobody's).")] = None,
    broker: Annotated[str | None, typer.Option(
        "--broker", help="Run as one replica of several behind a load balancer: the Redis "
        "they share, redis://host:port/db (needs a PostgreSQL --db; default: one process, "
        "nothing shared).")] = None,
    replica_id: Annotated[str | None, typer.Option(
        "--replica-id", help="This replica's name among the others (default: "
        "host-pid-random).")] = None,
    lane: Annotated[int | None, typer.Option(
        "--lane", min=0, max=63, help="This replica's place (0, 1, ...) in the -r list of "
        "lifearena deploy nginx: its games' ids make nginx send their requests here first "
        "(needs --broker; default: no lane, any replica).")] = None,
) -> None:
    """Serve the games in a browser: hot-seat, online (your own link and an invitation for
    your opponent) or against an agent. Prints the URL and the database file."""
    require("web", "lifearena serve")
    target = check_db(db)
    if broker is not None:
        check_replica(target, broker, replica_id)
    if lane is not None:
        check_lane_option(lane, broker)
    if broker is not None:
        reach_broker(broker)
    names = [check_host_name(name) for name in allowed_host or ()]
    proxies = check_proxies(forwarded_allow_ips) if forwarded_allow_ips is not None else None
    from sqlalchemy.exc import SQLAlchemyError

    from lifearena.web import Settings, create_app
    from lifearena.web.database import ForeignDatabase, hide_password
    from lifearena.web.settings import tournaments_folder

    where = str(target) if isinstance(target, Path) else hide_password(target)
    lab = tournaments_folder(target, tournaments_dir.resolve() if tournaments_dir else None)

    admin = secrets.token_urlsafe(18) if lab_admin else None
    shown = f"[{host}]" if ":" in host else host

    def ready() -> None:
        settle_collector()
        typer.echo(f"lifearena web: http://{shown}:{port}/")
        typer.echo(f"games stored in {where}")
        if tournaments:
            typer.echo(f"tournaments started in the lab stored in {lab}")
        if admin is not None:
            typer.echo(f"lab admin link (private: it starts tournaments): "
                       f"http://{shown}:{port}/lab/tournaments#admin={admin}")

    # the port first: a start that fails there leaves no database file behind
    listener = bind(host, port)
    try:
        try:
            app = create_app(Settings(db=target, workers=workers, tournaments_dir=lab,
                                      creates_per_minute=creates_per_minute,
                                      games_in_progress=games_in_progress,
                                      agent_searches=agent_searches,
                                      rated_within_address=rated_within_address,
                                      results=tuple(p.resolve() for p in results or ()),
                                      tournaments_running=tournaments, lab_admin=admin,
                                      bind_host=host, allowed_hosts=tuple(names),
                                      broker=broker, replica_id=replica_id, lane=lane,
                                      on_ready=ready))
        except ForeignDatabase as error:
            raise BadParameterError(f"--db {where}: {error}") from None
        except SQLAlchemyError as error:
            raise BadParameterError(f"--db {where} cannot be used: {first_line(error)}; "
                                    "expected a lifearena games database, or a new file, or "
                                    "an empty PostgreSQL database this user may create "
                                    "tables in") from None
        warm()  # the URL is printed once the agent workers are warm too (ready)
        import uvicorn

        uvicorn.Server(server_config(app, proxies)).run(sockets=[listener])
    finally:
        listener.close()


def check_db(db: str) -> str | Path:
    """A ``--db`` value: a SQLite file's absolute path (not a folder, in a folder that
    exists), or a database URL (:func:`~lifearena.web.database.database_url`).

    >>> check_db("postgresql://me@db.example/arena")
    'postgresql+psycopg://me@db.example/arena'
    >>> check_db("ftp://example.org/games")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    lifearena.errors.BadParameterError: --db 'ftp://example.org/games' is not ...
    """
    from lifearena.web.database import database_url

    if "://" in db:
        try:
            return database_url(db)
        except BadParameterError as error:
            raise BadParameterError(f"--db{str(error).removeprefix('database')}") from None
    path = Path(db).expanduser()
    if path.is_dir():
        raise BadParameterError(f"--db {db} is a folder; expected a SQLite file")
    if not path.resolve().parent.is_dir():
        raise BadParameterError(f"--db {db}: the folder {path.resolve().parent} does not "
                                "exist")
    return path.resolve()


def first_line(error: Exception) -> str:
    """The first line of a database error's own message (the driver's, without
    SQLAlchemy's statement and link)."""
    original = getattr(error, "orig", None) or error
    lines = str(original).strip().splitlines()
    return lines[0] if lines else type(original).__name__


GC_THRESHOLDS = (700, 10, 100)
"""The collector's thresholds while serving (Python's: 700, 10, 10): full collections come
ten times less often (each takes tens of milliseconds under load)."""


def settle_collector() -> None:
    """Once the server has loaded what it serves with (modules, compiled kernels: about a
    million objects that live as long as it does), leave that out of the garbage collector's
    full passes and make those rarer: each would otherwise stop every game for 50-90 ms every
    few seconds under load (``benchmarks/bench_server.py``). For this process only: the
    ``serve`` command owns it, the web application does not."""
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def check_replica(target: str | Path, broker: str, replica_id: str | None) -> None:
    """Refuse (one line) a replica whose store is not shared (a SQLite ``--db``), a
    ``--broker`` that is not a Redis URL, or a ``--replica-id`` that is not a short name.

    >>> check_replica(Path("games.sqlite"), "redis://127.0.0.1:6379/0", None)
    Traceback (most recent call last):
    lifearena.errors.BadParameterError: --broker needs a shared store; expected --db postgresql://...
    """
    from lifearena.web.broker import check_redis_url

    if isinstance(target, Path) or str(target).startswith("sqlite"):
        raise BadParameterError("--broker needs a shared store; expected --db postgresql://"
                                f"user@host:port/name, not the SQLite file {target}")
    try:
        check_redis_url(broker)
    except BadParameterError as error:
        raise BadParameterError(f"--broker: {error}") from None
    if replica_id is not None and not (
            0 < len(replica_id) <= 64
            and all(c.isascii() and (c.isalnum() or c in "-_.") for c in replica_id)):
        raise BadParameterError(f"--replica-id {replica_id[:70]!r}; expected 1 to 64 "
                                "letters, digits, '-', '_' or '.'")


def check_lane_option(lane: int, broker: str | None) -> None:
    """Refuse (one line) a ``--lane`` out of range, or given to a server that is no replica.

    >>> check_lane_option(1, None)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    lifearena.errors.BadParameterError: --lane needs --broker; expected a replica of several ...
    """
    from lifearena.web.lanes import check_lane

    if broker is None:
        raise BadParameterError("--lane needs --broker; expected a replica of several "
                                "(lanes route games between replicas)")
    check_lane(lane)


def reach_broker(url: str) -> None:
    """Refuse (one line) a ``--broker`` that does not answer now."""
    import asyncio

    from lifearena.web.broker import BrokerUnavailable, RedisBroker

    async def ping() -> None:
        broker = RedisBroker(url)
        try:
            await broker.ping()
        finally:
            await broker.close()

    try:
        asyncio.run(ping())
    except BrokerUnavailable as error:
        raise BadParameterError(f"--broker: {first_line(error)}") from None


def server_config(app: Any, proxies: str | None, **more: Any) -> Any:
    """The ``uvicorn.Config`` of the server: ``X-Forwarded-For`` and ``X-Forwarded-Proto``
    count only from ``proxies`` (``None``: from nobody; uvicorn would believe any local
    client by default), no ``Server`` header, and at most :data:`GRACEFUL_SHUTDOWN` seconds
    of waiting for open requests when stopping (the bot API's streams never end by
    themselves)."""
    import uvicorn

    more.setdefault("timeout_graceful_shutdown", GRACEFUL_SHUTDOWN)
    return uvicorn.Config(app, log_level="warning", ws_max_size=65_536,
                          proxy_headers=proxies is not None, forwarded_allow_ips=proxies or "",
                          server_header=False, **more)


def check_host_name(name: str) -> str:
    """An ``--allowed-host`` value, lowercased: a host name or address without a port, or
    ``*``.

    >>> check_host_name("Games.Example.org")
    'games.example.org'
    >>> check_host_name("example.org:8000")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    lifearena.errors.BadParameterError: --allowed-host 'example.org:8000'; expected a host ...
    """
    text = name.strip().lower()
    if text == "*" or (text and len(text) <= 253
                       and all(c.isalnum() or c in ".-_[]:" for c in text)
                       and (":" not in text or text.count(":") > 1)):
        return text.strip("[]")
    raise BadParameterError(f"--allowed-host {name!r}; expected a host name without a port "
                            "or scheme, such as games.example.org")


def check_proxies(text: str) -> str:
    """A ``--forwarded-allow-ips`` value: comma-separated IP addresses or networks.

    >>> check_proxies("127.0.0.1, 10.0.0.0/8")
    '127.0.0.1,10.0.0.0/8'
    >>> check_proxies("proxy.local")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    lifearena.errors.BadParameterError: --forwarded-allow-ips: 'proxy.local' is not an IP ...
    """
    items = [item.strip() for item in text.split(",") if item.strip()]
    if not items:
        raise BadParameterError("--forwarded-allow-ips is empty; expected addresses such as "
                                "127.0.0.1,10.0.0.0/8")
    for item in items:
        try:
            ipaddress.ip_network(item, strict=False)
        except ValueError:
            raise BadParameterError(f"--forwarded-allow-ips: {item!r} is not an IP address or "
                                    "network; expected addresses such as 127.0.0.1,10.0.0.0/8"
                                    ) from None
    return ",".join(items)

def bind(host: str, port: int) -> socket.socket:
    """A socket listening on ``host:port``, or a :class:`BadParameterError` naming them
    (the port taken, the address not this machine's).

    >>> listener = bind("127.0.0.1", 0)
    >>> listener.getsockname()[1] > 0
    True
    >>> bind("127.0.0.1", listener.getsockname()[1])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    lifearena.errors.BadParameterError: --port ...: 127.0.0.1:... is already in use; ...
    >>> listener.close()
    """
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
    except socket.gaierror as error:
        raise BadParameterError(f"--host {host!r}: {error.strerror}; expected an address of "
                                "this machine such as 127.0.0.1 or 0.0.0.0") from None
    listener = socket.socket(family, kind, proto)
    try:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn does
        listener.bind(address)
        listener.listen(2048)
    except OSError as error:
        listener.close()
        where = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
        if error.errno == errno.EADDRINUSE:
            raise BadParameterError(f"--port {port}: {where} is already in use; expected a "
                                    "free port (or stop the server using it)") from None
        raise BadParameterError(f"--host {host} --port {port}: cannot listen on {where} "
                                f"({error.strerror}); expected an address of this machine "
                                "and a port this user may open") from None
    return listener


def warm() -> None:
    """Build the home page's pictures; when numba's cache is cold, say "compiling the engine
    (once)..." and compile every kernel the pages and agents call here, once, for the agent
    workers to load from the cache as they start."""
    from lifearena.cli.compiling import announce_compiling, announcing
    from lifearena.web.catalog import home_pictures
    from lifearena.web.warmup import WEB_KERNELS, warm_up

    with announcing():  # and if a kernel WEB_KERNELS does not name compiles, say it then
        if announce_compiling(*WEB_KERNELS):
            warm_up()
        else:
            home_pictures()
