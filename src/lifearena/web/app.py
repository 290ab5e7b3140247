"""The HTTP and WebSocket server of ``lifearena serve`` (FastAPI).

* ``GET /``, ``GET /play/{id}``, ``GET /@/{name}`` (a player), ``GET /leaderboard``,
  ``GET /account``: the pages (static HTML, CSS and JavaScript, package data);
  ``GET /game/{id}`` leads to ``/play/{id}``. An address that names nothing (an unknown game,
  lab page or file) answers a browser a page saying so with a link back (404,
  :func:`missing_page`); under ``/api/`` the answer stays JSON.
* ``GET /api/games``: the games being played on this server and the last finished ones, from
  the store (so they survive a restart), for the home page
  (:meth:`Rooms.recent <lifearena.web.rooms.Rooms.recent>`).
* ``GET /api/catalog``: the games, their form parameters and levels, a sample picture each.
* ``POST /api/games``: a new game; answers the game's id, the creator's seat token and the
  links: the creator's private link ``/play/{id}#t={token}``, for an online game an
  invitation ``/play/{id}#i={secret}`` (whoever opens it first takes the other seat, through
  ``POST /api/games/{id}/claim``) and a spectator link. ``POST /api/games/{id}/cancel``
  withdraws an invitation nobody claimed.
* ``GET /api/games/{id}``, ``POST /api/games/{id}/moves``: the game as a seat or spectator
  sees it, and a move naming the move number it was chosen at (the seat token in the
  ``X-Seat-Token`` header). A view is built and encoded once per change of the game and
  shared by every reader; it lists the last 200 moves (``moves_from`` says how many come
  before them), and ``GET /api/games/{id}/moves?from=N&limit=L`` pages through the rest.
* ``GET /api/games/{id}/record`` (``?format=json`` or ``text``); ``POST /api/records``: open
  a record as a new hot-seat game; ``GET /api/games/{id}/position?upto=N``: the picture after
  N moves (replayed in a worker).
* ``WS /ws/{id}``: one socket per open page. Its first message says who the page is,
  ``{"type": "hello", "token": ...}`` (no token: a spectator; tokens never travel in a URL);
  then the server pushes the game as that page may see it after every change and takes moves
  ``{"type": "move", "move": "...", "ply": N, "seat": 0}``.
* ``/api/challenges``, ``WS /ws/lobby``: the lobby's open challenges, listed live to every
  home page; accepting one seats both players at once (:mod:`lifearena.web.lobby`,
  :meth:`Rooms.start_seated <lifearena.web.rooms.Rooms.start_seated>`).
* ``/api/stream/event``, ``/api/bot/...``, ``/api/challenge/...``: the bot API, in
  lichess's shape: programs holding an API token stream their events and games as NDJSON,
  move, resign, offer draws and challenge named players (:mod:`lifearena.web.bot_api`).
* ``GET /api/rules/{game}``, ``GET /api/games/{id}/rules``: a game's rules card (under the
  form's defaults, or a live game's parameters); ``POST /api/games/{id}/preview``: the
  position after a move of the seat to move, nothing played
  (:mod:`lifearena.web.learning_routes`).
* ``/puzzles``, ``/api/puzzles/...``: puzzles mined from real games, solved move by move, with
  a puzzle rating for every player and a daily puzzle (:mod:`lifearena.web.puzzle_routes`,
  ``docs/puzzles-site.md``).
* ``GET /api/openapi.json``: the schema of every request (:mod:`lifearena.web.models`).

Errors are JSON ``{"error": "one-line reason"}`` with a 4xx status (over the socket:
``{"type": "error", "error": ..., "status": ...}``) and leave the game unchanged. Every body
and message is a declared model; :class:`~lifearena.web.guard.Guard` checks the Host,
cross-site requests and body sizes before any of it is read. One lock per game orders its
moves; agents think and replays run in worker processes, never on the event loop, the
agents' searches taking turns between client addresses (:mod:`lifearena.web.agent_queue`);
every socket has a bounded outbox, so a page that does not read is closed, not waited for.
Every way of making a game (a new game, a rematch, an opened record, an accepted challenge)
passes :meth:`Rooms.start <lifearena.web.rooms.Rooms.start>`, under one quota of creations a
minute and one bound of games in progress per address (429 past either).

The games themselves are played by the rooms (:mod:`lifearena.web.rooms`: seats, moves,
clocks, offers, agents; no FastAPI there): every route here parses its request and calls
them, the game actions (resign, draw, rematch, takeback, cancel) through one helper
(:data:`GAME_ACTIONS`), and the game's and the lobby's sockets share one read loop
(:func:`lifearena.web.sockets.read_loop`).
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import FastAPI, Query, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import (
    FileResponse,
    HTMLResponse,
    JSONResponse,
    RedirectResponse,
    Response,
)
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from lifearena import __version__
from lifearena.errors import BadParameterError, IllegalMoveError, LifeArenaError, ParseError
from lifearena.web import catalog
from lifearena.web.accounts import router_for as accounts_router
from lifearena.web.agent_queue import AgentQueue
from lifearena.web.agent_workers import ProcessRunner, ThreadRunner
from lifearena.web.analysis_routes import router_for as analysis_router
from lifearena.web.answers import AnswerBudget
from lifearena.web.bot_api import router_for as bot_router
from lifearena.web.bot_events import BotEvents
from lifearena.web.bot_share import share_bot_api, unshare_bot_api
from lifearena.web.guard import Guard, default_hosts
from lifearena.web.heavy import HeavyWork, TooBusy, client_of
from lifearena.web.identity import Identity, MissingScope, NotLoggedIn, WrongPassword
from lifearena.web.lab import install as install_lab
from lifearena.web.lab.launcher import Launcher, TooManyRunning
from lifearena.web.lab.results import UnknownResults
from lifearena.web.learning_routes import router_for as learning_router
from lifearena.web.lessons_routes import router_for as lessons_router
from lifearena.web.limits import (
    ByteRate,
    CreationRate,
    GamesInProgress,
    TooMany,
    TooManySockets,
    address_key,
)
from lifearena.web.live import (
    MOVES_PAGE,
    VIEW_MOVES,
    InvitationTaken,
    LiveGame,
    SeatError,
    TurnError,
    position_after,
)
from lifearena.web.lobby import Lobby, UnknownChallenge
from lifearena.web.lobby import router_for as lobby_router
from lifearena.web.lobby_share import share_lobby
from lifearena.web.models import (
    MAX_TOKEN,
    Cancel,
    Claim,
    Declared,
    Draw,
    GameAction,
    Hello,
    Move,
    MoveMessage,
    NewGame,
    OpenRecord,
    Rematch,
    Resign,
    Takeback,
    first_error,
    read_message,
)
from lifearena.web.players import NameTaken, PlayerStore, UnknownPlayer
from lifearena.web.pool_room import PoolRoom
from lifearena.web.pool_room import router_for as pools_router
from lifearena.web.pool_share import share_pools
from lifearena.web.puzzle_routes import router_for as puzzles_router
from lifearena.web.rated import Ratings
from lifearena.web.rooms import NotFound, Rooms, seat_refusal
from lifearena.web.rooms.cluster import OwnerUnavailable, rooms_of
from lifearena.web.seat_tokens import SeatToken, Token
from lifearena.web.settings import Settings, tournaments_folder
from lifearena.web.sockets import AbortableSockets, LocalTransport, Outbox, read_loop, refuse
from lifearena.web.store import DamagedRow, FencedOut, Store

log = logging.getLogger("lifearena.web")

STATIC = Path(__file__).parent / "static"
MAX_BODY = 16_384
"""Largest body of an ordinary request, in bytes."""
MAX_LAB_BODY = 262_144
"""Largest body of a record upload or a lab request, in bytes."""
MAX_WS_MESSAGE = 4_096
"""Largest WebSocket message, in characters."""
HELLO_TIMEOUT = 10.0
"""Seconds a new socket has to say who it is before it is closed."""
MISSING = STATIC / "missing.html"
"""The page of an address that names nothing here (:func:`missing_page` fills it in)."""
GAME_ACTIONS: dict[str, type[Declared]] = {
    "resign": Resign, "draw": Draw, "rematch": Rematch, "takeback": Takeback, "cancel": Cancel}
"""The game actions posted to ``/api/games/{id}/<action>``, each with its declared body
(:meth:`~lifearena.web.rooms.Rooms.act` plays them)."""
_STATUS: list[tuple[type[Exception], int]] = [
    (SeatError, 403), (InvitationTaken, 409), (TurnError, 409), (IllegalMoveError, 422),
    (ParseError, 400), (BadParameterError, 400), (UnknownResults, 404),
    (TooManyRunning, 429), (TooBusy, 429), (TooMany, 429), (TooManySockets, 429),
    (DamagedRow, 410), (UnknownChallenge, 404), (NotLoggedIn, 401), (WrongPassword, 401),
    (MissingScope, 403), (NameTaken, 409), (UnknownPlayer, 404), (OwnerUnavailable, 503),
    (FencedOut, 503)]


def status_of(error: Exception) -> int:
    """The HTTP status for a library or web error.

    >>> status_of(NotFound("x")), status_of(TurnError("x")), status_of(DamagedRow("x"))
    (404, 409, 410)
    """
    if isinstance(error, NotFound):
        return 404
    for kind, status in _STATUS:
        if isinstance(error, kind):
            return status
    return 400


def body_bound(path: str) -> int:
    """The largest body a request to ``path`` may send, in bytes.

    >>> body_bound("/api/games"), body_bound("/api/records")
    (16384, 262144)
    """
    return MAX_LAB_BODY if path.startswith(("/api/records", "/api/lab/", "/api/analysis")) \
        else MAX_BODY


async def start_agents(settings: Settings) -> AgentQueue:
    """The queue of the agents' searches over ``settings.workers`` workers: threads (tests)
    or processes (:mod:`lifearena.web.agent_workers`).

    Every worker process is started now, from the calling thread (the event loop's, which
    lives as long as the server), and has loaded the engine when this returns
    (:func:`lifearena.web.warmup.warm_up` once per worker), so the first agent move does not
    wait for it. A worker exits when the server's process dies, even by SIGKILL
    (:func:`~lifearena.arena.executor.exit_with_parent`).
    """
    if settings.agent_workers == "thread":
        return AgentQueue(ThreadRunner(settings.workers), settings.agent_searches)
    from lifearena.web.warmup import warm_up

    runner = ProcessRunner(settings.workers, warm_up)
    await runner.start()
    return AgentQueue(runner, settings.agent_searches)


def create_app(settings: Settings) -> FastAPI:
    """The web application over the store at ``settings.db``."""
    creations = CreationRate(settings.creates_per_minute)  # one quota for every path
    store = Store(settings.db)
    players = PlayerStore(store.engine)  # one database: the games and their players
    identity = Identity(players)
    # the match runner, over the store and this process's sockets (lifearena.web.rooms)
    server = rooms_of(settings)(
        settings, store, LocalTransport(), creations=creations, players=players,
        ratings=Ratings(players), in_progress=GamesInProgress(settings.games_in_progress),
        view_rate=ByteRate(settings.view_bytes_per_second, 2 * settings.view_bytes_per_second),
        heavy=HeavyWork(settings.agent_workers, settings.workers))
    lobby = Lobby(settings.challenge_expiry, creations=creations)
    pool_room = PoolRoom(server)
    bots = BotEvents(players)  # the bot API's streams and challenges
    # the lab's tournaments play into files of their own, beside the games database
    launcher = (Launcher(tournaments_folder(settings.db, settings.tournaments_dir),
                         settings.tournaments_running)
                if settings.tournaments_running > 0 else None)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        server.agents = await start_agents(settings)
        await server.join()  # a replica joins the others (lifearena.web.rooms.cluster)
        await share_lobby(server, lobby)  # replicas tell each other the lobby's changes
        await share_pools(server, pool_room)  # and the pools (one of them pairs)
        await share_bot_api(server, bots)  # and the bot API's news and challenges
        lobby.start()
        pool_room.start()
        loading = asyncio.get_running_loop().create_task(server.load_clocked())
        server.tasks.add(loading)  # the clocked games load, so their flags fall on time
        loading.add_done_callback(server.tasks.discard)
        sweeping = asyncio.get_running_loop().create_task(server.abort_idle_often())
        server.tasks.add(sweeping)  # abandoned games against an agent are aborted
        sweeping.add_done_callback(server.tasks.discard)
        if settings.on_ready is not None:
            settings.on_ready()
        try:
            yield
        finally:
            await lobby.stop()  # first: a replica's lobby and pools use the broker
            await pool_room.stop()
            await unshare_bot_api(bots)
            await server.leave()  # clocks paused (one server) or leases given up (replicas)
            for task in list(server.tasks):
                task.cancel()
            server.agents.close()
            server.heavy.close()
            if launcher is not None:
                launcher.close()
            server.store.close()  # the write-ahead log checkpointed into the file
            identity.hasher.close()

    app = FastAPI(title="lifearena", version=__version__, lifespan=lifespan, docs_url=None,
                  redoc_url=None, openapi_url="/api/openapi.json")
    app.state.server = server  # the rooms
    app.state.lobby = lobby
    app.state.identity = identity
    app.state.pools = pool_room
    app.state.heavy = server.heavy
    app.state.answers = AnswerBudget(settings.answer_bytes_per_address,
                                     settings.answer_bytes_total)
    app.add_middleware(Guard, allowed_hosts=default_hosts(settings.bind_host,
                                                          settings.allowed_hosts),
                       bound_of=body_bound)
    app.add_middleware(AbortableSockets)  # outermost: it finds the socket's transport

    @app.exception_handler(LifeArenaError)
    async def library_error(request: Request, error: LifeArenaError) -> Response:
        if status_of(error) == 404 and wants_page(request.method, request.url.path):
            return missing_page(request.url.path)
        return _error(error)

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, error: RequestValidationError) -> Response:
        return JSONResponse({"error": f"bad request: {first_error(error.errors())}"},
                            status_code=400)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, error: StarletteHTTPException) -> Response:
        if error.status_code == 404 and wants_page(request.method, request.url.path):
            return missing_page(request.url.path)
        return JSONResponse({"error": str(error.detail)}, status_code=error.status_code)

    # -- pages --------------------------------------------------------------------------------

    @app.get("/", include_in_schema=False)
    async def home() -> Response:
        return FileResponse(STATIC / "index.html")

    @app.get("/account", include_in_schema=False)
    async def account_page() -> Response:
        return FileResponse(STATIC / "account.html")

    @app.get("/leaderboard", include_in_schema=False)
    async def leaderboard_page() -> Response:
        return FileResponse(STATIC / "leaderboard.html")

    @app.get("/@/{name}", include_in_schema=False)
    async def player_page(name: str, request: Request) -> Response:
        if not 1 <= len(name) <= 40 or players.by_name(name) is None:
            return missing_page(request.url.path)
        return FileResponse(STATIC / "player.html")

    @app.get("/play/{game_id}", include_in_schema=False)
    async def play_page(game_id: str, request: Request) -> Response:
        if not server.exists(game_id):  # a damaged game's page opens and says so (410)
            return missing_page(request.url.path)
        return FileResponse(STATIC / "game.html")

    @app.get("/game/{game_id}", include_in_schema=False)
    async def game_page(game_id: str, request: Request) -> Response:
        if not server.exists(game_id):
            return missing_page(request.url.path)
        return RedirectResponse(f"/play/{game_id}", status_code=307)

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    install_lab(app, settings.results, launcher, admin_token=settings.lab_admin)
    app.include_router(lobby_router(server, lobby))  # before /ws/{game_id}: /ws/lobby is its own
    app.include_router(accounts_router(server, identity))
    app.include_router(pools_router(server, pool_room))
    app.include_router(bot_router(server, identity, bots))
    app.include_router(lessons_router())
    app.include_router(analysis_router(server, STATIC))
    app.include_router(learning_router(server))
    app.include_router(puzzles_router(server, identity))


    # -- API ----------------------------------------------------------------------------------

    @app.get("/api/games")
    async def recent_games() -> dict[str, Any]:
        return server.recent()

    @app.get("/api/catalog")
    async def game_catalog() -> dict[str, Any]:
        pictures = catalog.home_pictures()
        return {"games": [{**catalog.CATALOG[g].to_json(), "picture": pictures[g]}
                          for g in catalog.GAMES]}

    @app.post("/api/games", status_code=201)
    async def create(body: NewGame, request: Request, response: Response) -> dict[str, Any]:
        # the bounds are checked, and only games really made counted, in Rooms.start
        address = address_key(client_of(request.client))
        server.admit(address, agent=body.opponent == "agent")  # before a player is made
        player = identity.maybe(request, response)
        return server.create(body, address, player)

    @app.post("/api/records", status_code=201)
    async def open_record(body: OpenRecord, request: Request) -> dict[str, Any]:
        return await server.open_record(body.record, client_of(request.client))

    @app.get("/api/games/{game_id}")
    async def game_view(game_id: str, request: Request,
                        token: Token = None) -> Response:
        client = client_of(request.client)
        live = await server.game(game_id, client)
        answer = view_answer(live, token)
        server.view_rate.charge(address_key(client), len(answer.body))
        return answer

    @app.post("/api/games/{game_id}/moves")
    async def make_move(game_id: str, body: Move, request: Request,
                        token: Token = None) -> Response:
        live = await server.move(game_id, token, None, body, client_of(request.client))
        return view_answer(live, token)

    def game_action(kind: str, model: type[Declared]) -> None:
        """``POST /api/games/{id}/<kind>``: the game action ``kind`` with its own body
        ``model`` (each keeps its own route and schema), answered with the game's view."""
        async def act(game_id: str, body: Declared, request: Request,
                      token: Token = None) -> Response:
            live = await server.act(game_id, kind, token, None, getattr(body, "action", None),
                                    client_of(request.client))
            return view_answer(live, token)

        act.__annotations__["body"] = model  # the declared body FastAPI reads and documents
        app.post(f"/api/games/{{game_id}}/{kind}", name=kind)(act)

    for kind, model in GAME_ACTIONS.items():
        game_action(kind, model)

    @app.post("/api/games/{game_id}/claim")
    async def claim(game_id: str, body: Claim, request: Request, response: Response,
                    token: SeatToken = None) -> dict[str, Any]:
        live = await server.game(game_id, client_of(request.client))
        player = identity.player_of(request)
        seat_refusal(live.rated, player)  # before an anonymous player is made for it
        player = identity.maybe(request, response)
        return await server.claim(game_id, body.invitation, token, client_of(request.client),
                                  player)

    @app.get("/api/games/{game_id}/moves")
    async def move_list(game_id: str, request: Request,
                        start: Annotated[int, Query(alias="from", ge=0, le=1_000_000)] = 0,
                        limit: Annotated[int, Query(ge=1, le=MOVES_PAGE)] = VIEW_MOVES
                        ) -> dict[str, Any]:
        live = await server.game(game_id, client_of(request.client))
        return live.moves_page(start, limit)

    @app.get("/api/games/{game_id}/record")
    async def download(game_id: str, request: Request,
                       format: Literal["json", "text"] = "json") -> Response:
        live = await server.game(game_id, client_of(request.client))
        if format == "json":
            body, kind, suffix = live.record().to_json(), "application/json", "json"
        else:
            body, kind, suffix = live.record().to_text(), "text/plain; charset=utf-8", "txt"
        name = f"{live.row.game}-{live.row.id}.{suffix}"
        return Response(body, media_type=kind,
                        headers={"Content-Disposition": f'attachment; filename="{name}"'})

    @app.get("/api/games/{game_id}/position")
    async def position(game_id: str, request: Request,
                       upto: Annotated[int, Query(ge=0, le=1_000_000)]) -> dict[str, Any]:
        live = await server.game(game_id, client_of(request.client))
        job = live.position_job(upto)
        return await server.heavy.run(client_of(request.client), position_after, *job)

    @app.websocket("/ws/{game_id}")
    async def socket(websocket: WebSocket, game_id: str) -> None:
        await serve_socket(server, websocket, game_id)

    return app


async def serve_socket(server: Rooms, websocket: WebSocket, game_id: str) -> None:
    """One page's socket: who it is (its hello), then the game pushed through a bounded
    outbox (a page of the rooms) and moves taken at a bounded rate
    (:func:`~lifearena.web.sockets.read_loop`), until either side goes."""
    client = client_of(websocket.client)
    address = address_key(client)
    await websocket.accept()
    try:
        server.socket_counts.acquire(game_id, address)
    except TooManySockets as error:
        await refuse(websocket, error_message(error))
        return
    outbox: Outbox | None = None
    try:
        try:
            seats = await _greet(server, websocket, game_id, client)
            if seats is None:
                return  # gone before saying hello
            live = await server.game(game_id, client)
        except LifeArenaError as error:
            await refuse(websocket, error_message(error))
            return
        # registered and offered its first view with no await between: no push is missed
        outbox = Outbox(websocket)
        outbox.start()
        server.open_page(live, outbox, seats)
        outbox.offer(live.view_text(seats))

        async def said(text: str | None) -> None:
            await _on_message(server, game_id, seats, text, client)

        await read_loop(websocket, outbox, said, max_chars=MAX_WS_MESSAGE,
                        hold_off=lambda: server.socket_counts.hold_off(address),
                        error_message=error_message)
    except (RuntimeError, ConnectionError):  # the peer went away mid-send
        pass
    finally:
        # the books first: a handler cancelled while closing still gives its place back
        server.socket_counts.release(game_id, address)
        if outbox is not None:
            server.close_page(game_id, outbox)
            await outbox.close()


def error_message(error: Exception) -> dict[str, Any]:
    """An error as a socket tells it: what went wrong and the HTTP status it would be."""
    return {"type": "error", "error": str(error), "status": status_of(error)}


async def _greet(server: Rooms, websocket: WebSocket, game_id: str,
                 client: str) -> list[int] | None:
    """The seats of a new socket: from its ``X-Seat-Token`` header, or its first message
    (a hello); ``None`` when the page left first."""
    if "token" in websocket.query_params:
        raise SeatError("a seat token in the socket's URL is refused (URLs are logged); "
                        "send it in the first message: {\"type\": \"hello\", \"token\": ...}")
    header = websocket.headers.get("x-seat-token")
    if header is None:
        try:
            message = await asyncio.wait_for(websocket.receive(), HELLO_TIMEOUT)
        except TimeoutError:
            raise ParseError(f"no hello within {HELLO_TIMEOUT:.0f} s; expected "
                             "{\"type\": \"hello\", \"token\": ...} first") from None
        if message["type"] == "websocket.disconnect":
            return None
        hello = read_message(message.get("text"))
        if not isinstance(hello, Hello):
            raise ParseError(f"first message of type {hello.type!r}; expected a hello: "
                             "{\"type\": \"hello\", \"token\": ...}")
        header = hello.token
    elif len(header) > MAX_TOKEN:
        raise SeatError("this link's seat token does not belong to this game")
    live = await server.game(game_id, client)
    if not header:  # a page of a player holding a seat plays it without the link's token
        identity: Identity = websocket.app.state.identity
        player = identity.player_of(websocket)
        return live.seats_of_player(None if player is None else player.id)
    return live.seats_of(header)


async def _on_message(server: Rooms, game_id: str, seats: list[int],
                      text: str | None, client: str = "server") -> None:
    message = read_message(text)
    if isinstance(message, MoveMessage | GameAction):
        await server.heard(game_id, seats, message, client)
    elif isinstance(message, Hello):
        raise ParseError("this socket has already said hello; expected a move or a ping")


def wants_page(method: str, path: str) -> bool:
    """Whether a request is answered with a page rather than JSON when it names nothing here:
    a browser's GET of any address outside ``/api/``.

    >>> wants_page("GET", "/game/xyz"), wants_page("GET", "/lab/nope")
    (True, True)
    >>> wants_page("GET", "/api/games/xyz"), wants_page("POST", "/play/xyz")
    (False, False)
    """
    return method in ("GET", "HEAD") and not (path == "/api" or path.startswith("/api/"))


def missing_page(path: str) -> HTMLResponse:
    """The page (404) of an address that names nothing here: an unknown game (``/play/ID``,
    ``/game/ID``), lab page or other address, named (escaped, cut short) with a link back.
    It is served under the same Content-Security-Policy as every page (no inline script or
    style: it only links ``/static/style.css``).

    >>> page = missing_page("/play/<b>nope")
    >>> page.status_code, "No such game: <code>&lt;b&gt;nope</code>" in page.body.decode()
    (404, True)
    >>> "No such lab page" in missing_page("/lab/nothing").body.decode()
    True
    >>> "No such player: <code>nobody</code>" in missing_page("/@/nobody").body.decode()
    True
    """
    parts = path.strip("/").split("/", 1)
    shown = html.escape(path if len(path) <= 60 else path[:60] + "…")
    if parts[0] in ("play", "game") and len(parts) == 2 and "/" not in parts[1]:
        name = parts[1] if len(parts[1]) <= 40 else parts[1][:40] + "…"
        title, what = "No such game", f"No such game: <code>{html.escape(name)}</code>"
        detail, back, back_text = ("This link names no game on this server", "/",
                                   "back to the games")
    elif parts[0] == "@" and len(parts) == 2 and "/" not in parts[1]:
        name = parts[1] if len(parts[1]) <= 40 else parts[1][:40] + "…"
        title, what = "No such player", f"No such player: <code>{html.escape(name)}</code>"
        detail, back, back_text = ("Nobody plays here under this name", "/leaderboard",
                                   "to the leaderboards")
    elif parts[0] == "lab":
        title, what = "No such lab page", f"No such lab page: <code>{shown}</code>"
        detail, back, back_text = ("The lab has no page at this address", "/lab",
                                   "back to the lab")
    else:
        title, what = "No such page", f"No such page: <code>{shown}</code>"
        detail, back, back_text = ("This server has no page at this address", "/",
                                   "back to the games")
    text = MISSING.read_text(encoding="utf-8").format(
        title=title, heading=what, detail=detail, back=back, back_text=back_text)
    return HTMLResponse(text, status_code=404)


def view_answer(live: LiveGame, token: str | None) -> Response:
    """The game as the holder of ``token`` sees it (a spectator without one), answered with
    the bytes every reader of this version of the game shares (:meth:`LiveGame.view_bytes`):
    a view is built and encoded once per change, not once per request."""
    return Response(live.view_bytes(live.seats_of(token)), media_type="application/json")


def _error(error: Exception) -> JSONResponse:
    return JSONResponse({"error": str(error)}, status_code=status_of(error))
