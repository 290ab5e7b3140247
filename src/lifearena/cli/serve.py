"""``lifearena serve``: the web application (play every game in a browser).

Binds to loopback by default. To let others in, bind ``--host 0.0.0.0`` behind a reverse
proxy that terminates TLS; the seat tokens in the private links are the only authentication.
"""

from __future__ import annotations

import errno
import socket
import sqlite3
from pathlib import Path
from typing import Annotated

import typer

from lifearena.errors import BadParameterError

DEFAULT_DB = Path("lifearena-web.sqlite")


def register(app: typer.Typer) -> None:
    """Add the ``serve`` command to the ``lifearena`` app."""
    app.command("serve")(serve)


def serve(
    host: Annotated[str, typer.Option(help="Address to listen on (loopback by default; "
                                      "0.0.0.0 for every interface, behind a proxy).")
                    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="TCP port.", min=1, max=65535)] = 8000,
    db: Annotated[Path, typer.Option(help="SQLite file of the games (created if missing).")
                  ] = DEFAULT_DB,
    workers: Annotated[int, typer.Option(help="Processes in which agents think.", min=1,
                                         max=64)] = 2,
    creates_per_minute: Annotated[int, typer.Option(
        help="Games one client address may create per minute.", min=1, max=100_000)] = 30,
    results: Annotated[list[Path] | None, typer.Option(
        "--results", help="A tournament, ladder or p2life results file to show in the lab "
        "(read only; repeatable).")] = None,
    tournaments: Annotated[int, typer.Option(
        help="Tournaments the lab's page may have running at once (0: none can be started "
        "from the page).", min=0, max=16)] = 2,
) -> None:
    """Serve the games in a browser: hot-seat, online (a private link per seat) or against
    an agent. Prints the URL and the database file."""
    if db.exists() and db.is_dir():
        raise BadParameterError(f"--db {db} is a folder; expected a SQLite file")
    if not db.resolve().parent.is_dir():
        raise BadParameterError(f"--db {db}: the folder {db.resolve().parent} does not exist")
    import uvicorn

    from lifearena.web import Settings, create_app
    from lifearena.web.app import tournaments_folder

    def ready() -> None:
        shown = f"[{host}]" if ":" in host else host
        typer.echo(f"lifearena web: http://{shown}:{port}/")
        typer.echo(f"games stored in {db.resolve()}")
        if tournaments:
            typer.echo("tournaments started in the lab stored in "
                       f"{tournaments_folder(db.resolve())}")

    try:
        app = create_app(Settings(db=db.resolve(), workers=workers,
                                  creates_per_minute=creates_per_minute,
                                  results=tuple(p.resolve() for p in results or ()),
                                  tournaments_running=tournaments, on_ready=ready))
    except sqlite3.Error as error:
        raise BadParameterError(f"--db {db} cannot be used as a SQLite file: {error}") from None
    listener = bind(host, port)  # before anything is printed as if the server started
    try:
        warm()  # the URL is printed once the agent workers are warm too (ready)
        config = uvicorn.Config(app, log_level="warning", ws_max_size=65_536)
        uvicorn.Server(config).run(sockets=[listener])
    finally:
        listener.close()

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
    from lifearena.cli.compiling import announce_compiling
    from lifearena.web.catalog import home_pictures
    from lifearena.web.warmup import WEB_KERNELS, warm_up

    if announce_compiling(*WEB_KERNELS):
        warm_up()
    else:
        home_pictures()
