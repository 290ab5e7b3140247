"""The HTTP and WebSocket server of ``lifearena serve`` (FastAPI).

* ``GET /``, ``GET /play/{id}``: the pages (static HTML, CSS and JavaScript, package data).
* ``GET /api/catalog``: the games, their form parameters and levels, a sample picture each.
* ``POST /api/games``: a new game; answers the game's id, the creator's seat token and the
  links (one private link per seat, ``/play/{id}#t={token}``, and a spectator link).
* ``GET /api/games/{id}``, ``POST /api/games/{id}/moves``: the game as a seat or spectator
  sees it, and a move (the seat token in the ``X-Seat-Token`` header).
* ``GET /api/games/{id}/record``: the game's :class:`~lifearena.core.Record`
  (``?format=json`` or ``text``); ``POST /api/records``: open a record as a new hot-seat game.
* ``GET /api/games/{id}/position?upto=N``: the picture after N moves (browsing a game).
* ``WS /ws/{id}?token=...``: one socket per open page; the server pushes the game as that
  page may see it after every change, and takes moves ``{"type": "move", "move": "...",
  "seat": 0}``.

Errors are JSON ``{"error": "one-line reason"}`` with a 4xx status (over the socket:
``{"type": "error", "error": ...}``) and leave the game unchanged. Agents think in a process
(or thread) pool, never on the event loop. Every response carries a Content-Security-Policy
that allows only this host: the pages work offline.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import logging
import os
import re
import secrets
import time
from collections.abc import AsyncIterator, Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, field
from multiprocessing import get_context
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from lifearena.arena.executor import exit_with_parent
from lifearena.core import Record, replay
from lifearena.errors import BadParameterError, IllegalMoveError, LifeArenaError, ParseError
from lifearena.web import catalog
from lifearena.web.classic import CLASSIC, ClassicGame
from lifearena.web.lab import install as install_lab
from lifearena.web.lab.common import LabTooLarge, read_json
from lifearena.web.lab.launcher import Launcher, TooManyRunning
from lifearena.web.lab.results import UnknownResults
from lifearena.web.live import LiveGame, SeatError, TurnError
from lifearena.web.store import GameRow, Store

log = logging.getLogger("lifearena.web")

STATIC = Path(__file__).parent / "static"
CSP = ("default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
       "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
       "form-action 'self'; frame-ancestors 'none'")
MAX_BODY = 16_384
"""Largest JSON body of an ordinary request, in bytes."""
MAX_RECORD = 262_144
"""Largest record upload, in bytes."""
MAX_WS_MESSAGE = 4_096
"""Largest WebSocket message, in characters."""
NO_SUCH_GAME = ("<!doctype html><html lang=en><head><meta charset=utf-8><title>lifearena — no "
                "such game</title><link rel=stylesheet href=/static/style.css></head><body><main>"
                "<h2>No such game</h2><p class=muted>This link names no game on this server."
                "</p><p><a class=button href=/>Start a new game</a></p></main></body></html>")
_ID = re.compile(r"^[A-Za-z0-9_-]{6,32}$")
_STATUS: dict[type[Exception], int] = {SeatError: 403, TurnError: 409, IllegalMoveError: 422,
                                       ParseError: 400, BadParameterError: 400,
                                       UnknownResults: 404, TooManyRunning: 429,
                                       LabTooLarge: 413}


class NotFound(LifeArenaError):
    """No game with that id."""


class TooMany(LifeArenaError):
    """Too many games created by one client in the last minute."""


class TooLarge(LifeArenaError):
    """A request or message over its size bound."""


def status_of(error: Exception) -> int:
    """The HTTP status for a library or web error."""
    if isinstance(error, NotFound):
        return 404
    if isinstance(error, TooMany):
        return 429
    if isinstance(error, TooLarge):
        return 413
    for kind, status in _STATUS.items():
        if isinstance(error, kind):
            return status
    return 400


@dataclass
class Settings:
    """What a server instance is configured with."""

    db: Path
    agent_workers: str = "process"
    """``"process"`` (a process pool, the default) or ``"thread"`` (tests)."""
    workers: int = 2
    creates_per_minute: int = 30
    max_cached: int = 5_000
    results: tuple[Path, ...] = ()
    tournaments_running: int = 2
    """Tournaments started from the lab's page that may run at once (0: none can be
    started)."""
    on_ready: Callable[[], None] | None = None
    """Called once the server is about to answer requests (its agent workers warm)."""


@dataclass
class Server:
    """The state of one server: the store, the live games and their open sockets."""

    settings: Settings
    store: Store
    games: collections.OrderedDict[str, LiveGame | ClassicGame] = field(
        default_factory=collections.OrderedDict)
    sockets: dict[str, dict[WebSocket, list[int]]] = field(default_factory=dict)
    created: dict[str, collections.deque[float]] = field(default_factory=dict)
    pool: Executor | None = None
    tasks: set[asyncio.Task[None]] = field(default_factory=set)

    # -- games ------------------------------------------------------------------------------

    def game(self, game_id: str) -> LiveGame | ClassicGame:
        """The live game ``game_id``, rebuilt from the store when not in memory."""
        if not _ID.match(game_id):
            raise NotFound(f"no game {game_id[:40]!r}")
        live = self.games.get(game_id)
        if live is None:
            row = self.store.get(game_id)
            if row is None:
                raise NotFound(f"no game {game_id!r}")
            live = _rebuild(row)
            self.games[game_id] = live
            self._evict()
            self.schedule_agent(live)
        self.games.move_to_end(game_id)
        return live

    def _evict(self) -> None:
        while len(self.games) > self.settings.max_cached:
            for old, live in self.games.items():
                if not self.sockets.get(old) and not live.thinking:
                    del self.games[old]
                    break
            else:
                return

    def check_rate(self, client: str) -> None:
        """Refuse a client's game creation beyond the per-minute bound."""
        now = time.monotonic()
        stamps = self.created.setdefault(client, collections.deque())
        while stamps and now - stamps[0] > 60:
            stamps.popleft()
        if len(stamps) >= self.settings.creates_per_minute:
            raise TooMany(f"more than {self.settings.creates_per_minute} games created from "
                          "this address in a minute; wait and try again")
        stamps.append(now)

    def create(self, body: dict[str, Any]) -> dict[str, Any]:
        """Create a game from a new-game form; answer the creator's token and the links."""
        game = body.get("game")
        if not isinstance(game, str):
            raise BadParameterError("game: expected one of " + ", ".join(catalog.GAMES))
        params = body.get("params", {})
        if not isinstance(params, dict):
            raise BadParameterError("params: expected an object of the game's parameters")
        opponent = body.get("opponent", "hotseat")
        values = catalog.check_values(game, params)
        # the catalog says which settings are played at one screen only (the form reads it)
        only = catalog.entry_of(game).hotseat_only_when
        if only is not None and values[only[0]] == only[1] and opponent != "hotseat":
            raise BadParameterError(f"{catalog.entry_of(game).title} with {only[0]} "
                                    f"{only[1]!r} is played at one screen only; choose "
                                    "'at this screen'")
        if game == "life_for_two" and values["rules"] == "classic":  # the 1978 program
            token = secrets.token_urlsafe(18)
            return self._start(GameRow(secrets.token_urlsafe(9), CLASSIC, {}, "",
                                       {"kind": "hotseat"}, [token, token]),
                               token, 0, "hotseat")
        state = catalog.new_state(game, params)
        side = body.get("side", 0)
        if side not in (0, 1):
            raise BadParameterError(f"side {side!r}; expected 0 (first player) or 1 (second)")
        config: dict[str, Any] = {"kind": opponent}
        if opponent == "hotseat":
            token = secrets.token_urlsafe(18)
            tokens: list[str | None] = [token, token]
        elif opponent == "online":
            tokens = [secrets.token_urlsafe(18), secrets.token_urlsafe(18)]
            token = tokens[side]
        elif opponent == "agent":
            level = body.get("level", "easy")
            if not isinstance(level, str):
                raise BadParameterError("level: expected one of " + ", ".join(catalog.LEVELS))
            name, _ = catalog.level_agent(game, level)
            token = secrets.token_urlsafe(18)
            tokens = [None, None]
            tokens[side] = token
            config.update(level=level, agent=name, agent_seat=1 - side,
                          seed=secrets.randbelow(catalog.MAX_SEED + 1))
        else:
            raise BadParameterError(f"opponent {opponent!r}; expected hotseat, online or agent")
        return self._start(GameRow(secrets.token_urlsafe(9), game, dict(state.params),
                                   state.setup(), config, tokens), token, side, opponent)

    def open_record(self, text: str) -> dict[str, Any]:
        """Open an uploaded record as a hot-seat game at its last position."""
        record = Record.load(text)
        if record.game not in catalog.GAMES:
            raise BadParameterError(f"record of game {record.game!r}; expected one of "
                                    f"{', '.join(catalog.GAMES)}")
        if not isinstance(record.params, dict) or not isinstance(record.moves, list):
            raise ParseError("record params must be an object and moves a list")
        replay(record)  # every move checked before anything is stored
        token = secrets.token_urlsafe(18)
        row = GameRow(secrets.token_urlsafe(9), record.game, dict(record.params),
                      str(record.setup), {"kind": "hotseat", "from_record": True},
                      [token, token], [str(m) for m in record.moves])
        return self._start(row, token, 0, "hotseat")

    def _start(self, row: GameRow, token: str, side: int, kind: str) -> dict[str, Any]:
        live = _rebuild(row)
        self.store.insert(row)
        self.games[row.id] = live
        self._evict()
        links = {"spectator": f"/play/{row.id}"}
        if kind == "online":
            for seat in (0, 1):
                links[f"seat{seat}"] = f"/play/{row.id}#t={row.tokens[seat]}"
        else:
            links["you"] = f"/play/{row.id}#t={token}"
        self.schedule_agent(live)
        return {"id": row.id, "token": token, "seat": None if kind == "hotseat" else side,
                "links": links}

    # -- moves -------------------------------------------------------------------------------

    async def move(self, live: LiveGame | ClassicGame, seats: list[int], seat: Any,
                   text: Any) -> None:
        """Play ``text`` for ``seat`` (one of ``seats``), store it and tell every page."""
        if not seats:
            raise SeatError("a move needs this seat's private link (token); spectators "
                            "cannot move")
        if seat is None:
            waiting = [s for s in seats if s in live.awaiting()]
            seat = waiting[0] if waiting else seats[0]
        if seat not in seats:
            raise SeatError(f"this link does not play seat {seat!r}")
        if not isinstance(text, str):
            raise ParseError("move: expected the move as text in the game's notation")
        live.play(text, seat)
        self.store.save_progress(live.row.id, live.row.moves, live.row.pending)
        self.schedule_agent(live)
        await self.broadcast(live)

    async def broadcast(self, live: LiveGame | ClassicGame) -> None:
        """Send every open page of ``live`` the game as that page may see it."""
        for socket, seats in list(self.sockets.get(live.row.id, {}).items()):
            try:
                await socket.send_json(live.view(seats))
            except Exception:  # a page that went away; its handler cleans up
                self.sockets.get(live.row.id, {}).pop(socket, None)

    # -- agents ------------------------------------------------------------------------------

    def schedule_agent(self, live: LiveGame | ClassicGame) -> None:
        """Start the agent's thinking when the game waits for it (off the event loop)."""
        seat = live.agent_seat
        if seat is None or live.thinking or seat not in live.awaiting():
            return
        assert isinstance(live, LiveGame)
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        live.thinking = True
        task = loop.create_task(self._agent_move(live, seat))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _agent_move(self, live: LiveGame, seat: int) -> None:
        opponent = live.row.opponent
        name, limit = catalog.level_agent(live.row.game, opponent["level"])
        number = len(live.row.moves)
        seed = (int(opponent.get("seed", 0)) + 7919 * number) % (catalog.MAX_SEED + 1)
        view = live.state.view(seat)
        assert self.pool is not None
        try:
            text = await asyncio.get_running_loop().run_in_executor(
                self.pool, catalog.choose_move, view, seat, name, limit, seed)
            if len(live.row.moves) == number and seat in live.awaiting():
                live.play(text, seat)
                self.store.save_progress(live.row.id, live.row.moves, live.row.pending)
            live.agent_error = None
        except Exception as error:
            log.exception("agent %s failed in game %s", name, live.row.id)
            live.agent_error = f"the agent {name} failed: {str(error).splitlines()[0][:200]}"
            live.thinking = False
            await self.broadcast(live)
            return  # not retried in a loop; reopening the game tries again
        finally:
            live.thinking = False
        self.schedule_agent(live)
        await self.broadcast(live)


async def start_agent_pool(settings: Settings) -> Executor:
    """The pool the agents think in: threads (tests) or ``settings.workers`` processes.

    Every worker process is started now, from the calling thread (the event loop's, which
    lives as long as the server), and has loaded the engine when this returns
    (:func:`lifearena.web.warmup.warm_up` once per worker), so the first agent move does not
    wait for it. A worker exits when the server's process dies, even by SIGKILL
    (:func:`~lifearena.arena.executor.exit_with_parent`).
    """
    if settings.agent_workers == "thread":
        return ThreadPoolExecutor(settings.workers, thread_name_prefix="agent")
    from lifearena.web.warmup import warm_up

    pool = ProcessPoolExecutor(settings.workers, mp_context=get_context("spawn"),
                               initializer=exit_with_parent, initargs=(os.getpid(),))
    loop = asyncio.get_running_loop()
    warmed = await asyncio.gather(*(loop.run_in_executor(pool, warm_up)
                                    for _ in range(settings.workers)), return_exceptions=True)
    for outcome in warmed:
        if isinstance(outcome, BaseException):  # the first move will say what is wrong
            log.warning("an agent worker's warm-up failed: %s", outcome)
    return pool


def stop_agent_pool(pool: Executor) -> None:
    """End the agent workers now, thinking or not, and wait until they are gone.

    Waiting matters: ``uvicorn`` ends a server stopped by SIGTERM by raising SIGTERM again
    once the app has shut down, and a process ended that way runs no exit handlers, so
    workers left to end by themselves outlived the server.
    """
    if isinstance(pool, ProcessPoolExecutor):
        terminate = getattr(pool, "terminate_workers", None)  # Python 3.14 and later
        if terminate is not None:
            terminate()
        else:
            # no public way before 3.14: the pool's own table of its worker processes
            for process in list((getattr(pool, "_processes", None) or {}).values()):
                with contextlib.suppress(Exception):
                    process.terminate()
    pool.shutdown(wait=True, cancel_futures=True)


def tournaments_folder(db: Path) -> Path:
    """Where the tournaments started from the lab keep their results files: a folder beside
    the games database ``db``.

    >>> tournaments_folder(Path("/srv/web.sqlite")).as_posix()
    '/srv/web-tournaments'
    """
    return db.parent / f"{db.stem}-tournaments"


def create_app(settings: Settings) -> FastAPI:
    """The web application over the store at ``settings.db``."""
    server = Server(settings, Store(settings.db))
    # the lab's tournaments play into files of their own, beside the games database
    launcher = (Launcher(tournaments_folder(settings.db), settings.tournaments_running)
                if settings.tournaments_running > 0 else None)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        server.pool = await start_agent_pool(settings)
        if settings.on_ready is not None:
            settings.on_ready()
        try:
            yield
        finally:
            for task in list(server.tasks):
                task.cancel()
            stop_agent_pool(server.pool)
            if launcher is not None:
                launcher.close()

    app = FastAPI(title="lifearena", lifespan=lifespan, docs_url=None, redoc_url=None,
                  openapi_url=None)
    app.state.server = server

    @app.middleware("http")
    async def guard(request: Request, call_next: Callable[..., Any]) -> Response:
        length = request.headers.get("content-length")
        big = request.url.path.startswith(("/api/records", "/api/lab/"))
        bound = MAX_RECORD if big else MAX_BODY
        if length is not None and (not length.isdigit() or int(length) > bound):
            response: Response = _error(TooLarge(f"request body over {bound} bytes"))
        else:
            response = await call_next(request)
        response.headers["Content-Security-Policy"] = CSP
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "no-referrer"
        response.headers["X-Frame-Options"] = "DENY"
        return response

    @app.exception_handler(LifeArenaError)
    async def library_error(request: Request, error: LifeArenaError) -> Response:
        return _error(error)

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, error: RequestValidationError) -> Response:
        first = error.errors()[0] if error.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ()))
        return JSONResponse({"error": f"bad request: {where}: {first.get('msg', 'invalid')}"},
                            status_code=400)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, error: StarletteHTTPException) -> Response:
        return JSONResponse({"error": str(error.detail)}, status_code=error.status_code)

    # -- pages --------------------------------------------------------------------------------

    @app.get("/", include_in_schema=False)
    async def home() -> Response:
        return FileResponse(STATIC / "index.html")

    @app.get("/play/{game_id}", include_in_schema=False)
    async def play_page(game_id: str) -> Response:
        try:
            server.game(game_id)
        except NotFound:
            return HTMLResponse(NO_SUCH_GAME, status_code=404)
        return FileResponse(STATIC / "game.html")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    install_lab(app, settings.results, launcher)

    # -- API ----------------------------------------------------------------------------------

    @app.get("/api/catalog")
    async def game_catalog() -> dict[str, Any]:
        pictures = catalog.home_pictures()
        return {"games": [{**catalog.CATALOG[g].to_json(), "picture": pictures[g]}
                          for g in catalog.GAMES]}

    @app.post("/api/games")
    async def create(request: Request) -> Response:
        body = await read_json(request, MAX_BODY)
        server.check_rate(request.client.host if request.client else "?")
        return JSONResponse(server.create(body), status_code=201)

    @app.post("/api/records")
    async def open_record(request: Request) -> Response:
        body = await read_json(request, MAX_RECORD)
        text = body.get("record")
        if not isinstance(text, str):
            raise ParseError("record: expected the record's text (JSON or PGN-like)")
        server.check_rate(request.client.host if request.client else "?")
        return JSONResponse(server.open_record(text), status_code=201)

    @app.get("/api/games/{game_id}")
    async def game_view(game_id: str, request: Request) -> dict[str, Any]:
        live = server.game(game_id)
        return live.view(live.seats_of(_token(request)))

    @app.post("/api/games/{game_id}/moves")
    async def make_move(game_id: str, request: Request) -> dict[str, Any]:
        live = server.game(game_id)
        seats = live.seats_of(_token(request))
        body = await read_json(request, MAX_BODY)
        await server.move(live, seats, body.get("seat"), body.get("move"))
        return live.view(seats)

    @app.get("/api/games/{game_id}/record")
    async def download(game_id: str, format: str = "json") -> Response:
        live = server.game(game_id)
        if format not in ("json", "text"):
            raise BadParameterError(f"format {format!r}; expected json or text")
        if isinstance(live, ClassicGame):
            body, kind, suffix = live.download(format)
        elif format == "json":
            body, kind, suffix = live.record().to_json(), "application/json", "json"
        else:
            body, kind, suffix = live.record().to_text(), "text/plain; charset=utf-8", "txt"
        name = f"{live.row.game}-{live.row.id}.{suffix}"
        return Response(body, media_type=kind,
                        headers={"Content-Disposition": f'attachment; filename="{name}"'})

    @app.get("/api/games/{game_id}/position")
    async def position(game_id: str, upto: int) -> dict[str, Any]:
        return server.game(game_id).position_at(upto)

    @app.websocket("/ws/{game_id}")
    async def socket(websocket: WebSocket, game_id: str) -> None:
        await websocket.accept()
        try:
            live = server.game(game_id)
            seats = live.seats_of(websocket.query_params.get("token"))
        except LifeArenaError as error:
            await websocket.send_json({"type": "error", "error": str(error),
                                       "status": status_of(error)})
            await websocket.close(code=4400 + status_of(error) % 100)
            return
        server.sockets.setdefault(game_id, {})[websocket] = seats
        try:
            await websocket.send_json(live.view(seats))
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                try:
                    await _on_message(server, live, seats, message.get("text"))
                except LifeArenaError as error:
                    await websocket.send_json({"type": "error", "error": str(error),
                                               "status": status_of(error)})
        except WebSocketDisconnect:
            pass
        finally:
            server.sockets.get(game_id, {}).pop(websocket, None)
            if not server.sockets.get(game_id):
                server.sockets.pop(game_id, None)

    return app


async def _on_message(server: Server, live: LiveGame | ClassicGame, seats: list[int],
                      text: str | None) -> None:
    if text is None:
        raise ParseError("binary message; expected JSON text")
    if len(text) > MAX_WS_MESSAGE:
        raise TooLarge(f"message of {len(text)} characters; expected at most {MAX_WS_MESSAGE}")
    try:
        message = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        raise ParseError("message is not JSON; expected {\"type\": \"move\", ...}") from None
    if not isinstance(message, dict):
        raise ParseError("message must be a JSON object")
    kind = message.get("type")
    if kind == "move":
        await server.move(live, seats, message.get("seat"), message.get("move"))
    elif kind != "ping":
        raise ParseError(f"message type {str(kind)[:20]!r}; expected move or ping")


def _rebuild(row: GameRow) -> LiveGame | ClassicGame:
    """A stored game, live again (the 1978 program for classic Life for Two)."""
    return ClassicGame.from_row(row) if row.game == CLASSIC else LiveGame.from_row(row)


def _token(request: Request) -> str | None:
    return request.headers.get("x-seat-token") or None


def _error(error: Exception) -> JSONResponse:
    return JSONResponse({"error": str(error)}, status_code=status_of(error))


