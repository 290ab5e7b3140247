"""The HTTP and WebSocket server of ``lifearena serve`` (FastAPI).

* ``GET /``, ``GET /play/{id}``, ``GET /@/{name}`` (a player), ``GET /leaderboard``,
  ``GET /account``: the pages (static HTML, CSS and JavaScript, package data);
  ``GET /game/{id}`` leads to ``/play/{id}``. An address that names nothing (an unknown game,
  lab page or file) answers a browser a page saying so with a link back (404,
  :func:`missing_page`); under ``/api/`` the answer stays JSON.
* ``GET /api/games``: the games being played on this server and the last finished ones, from
  the store (so they survive a restart), for the home page (:meth:`Server.recent`).
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
  :meth:`Server.start_seated`).
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
passes :meth:`Server._start`, under one quota of creations a minute and one bound of games
in progress per address (429 past either).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import html
import logging
import math
import secrets
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
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
from starlette.websockets import WebSocketState

from lifearena import __version__
from lifearena.core import Outcome, Record
from lifearena.errors import BadParameterError, IllegalMoveError, LifeArenaError, ParseError
from lifearena.web import catalog
from lifearena.web.accounts import router_for as accounts_router
from lifearena.web.actions import GameActions
from lifearena.web.agent_queue import PER_ADDRESS, AgentQueue
from lifearena.web.agent_workers import ProcessRunner, SearchCancelled, ThreadRunner
from lifearena.web.analysis_routes import router_for as analysis_router
from lifearena.web.answers import PER_ADDRESS as ANSWER_BYTES_PER_ADDRESS
from lifearena.web.answers import TOTAL as ANSWER_BYTES_TOTAL
from lifearena.web.answers import AnswerBudget
from lifearena.web.bot_api import router_for as bot_router
from lifearena.web.clock import steady_wall
from lifearena.web.database import database_url
from lifearena.web.guard import Guard, default_hosts
from lifearena.web.heavy import HeavyWork, TooBusy, client_of
from lifearena.web.identity import (
    Identity,
    MissingScope,
    NotLoggedIn,
    WrongPassword,
    seat_refusal,
)
from lifearena.web.lab import install as install_lab
from lifearena.web.lab.launcher import Launcher, TooManyRunning
from lifearena.web.lab.results import UnknownResults
from lifearena.web.learning_routes import router_for as learning_router
from lifearena.web.lessons_routes import router_for as lessons_router
from lifearena.web.limits import (
    FLOOD_HOLD_OFF,
    GAMES_IN_PROGRESS,
    VIEW_BYTES_PER_SECOND,
    ByteRate,
    CreationRate,
    GamesInProgress,
    MessageRate,
    SocketCounts,
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
    new_secret,
    position_after,
    record_players,
    replayed,
)
from lifearena.web.lobby import Lobby, UnknownChallenge
from lifearena.web.lobby import router_for as lobby_router
from lifearena.web.models import (
    MAX_TOKEN,
    Cancel,
    Claim,
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
from lifearena.web.players import NameTaken, Player, PlayerStore, UnknownPlayer
from lifearena.web.pool_room import PoolRoom
from lifearena.web.pool_room import router_for as pools_router
from lifearena.web.puzzle_routes import router_for as puzzles_router
from lifearena.web.rated import Ratings
from lifearena.web.seat_tokens import SeatToken, Token
from lifearena.web.seating import GameListener, Seating
from lifearena.web.sockets import AbortableSockets, Outbox, broadcast, receive, stop_reading
from lifearena.web.store import DamagedRow, GameRow, Listed, Store

log = logging.getLogger("lifearena.web")

STATIC = Path(__file__).parent / "static"
MAX_BODY = 16_384
"""Largest body of an ordinary request, in bytes."""
MAX_LAB_BODY = 262_144
"""Largest body of a record upload or a lab request, in bytes."""
MAX_WS_MESSAGE = 4_096
"""Largest WebSocket message, in characters."""
LOOP_REPLAY_MOVES = 32
"""Moves a game may have for the event loop to replay it itself (at most about 0.15 ms a
move: a few milliseconds); a longer game is replayed in a slow-work worker."""
HELLO_TIMEOUT = 10.0
"""Seconds a new socket has to say who it is before it is closed."""
MISSING = STATIC / "missing.html"
"""The page of an address that names nothing here (:func:`missing_page` fills it in)."""
LISTED = 12
"""Games in each of the home page's lists (being played, finished lately)."""
LIVE_WITHIN = 600.0
"""Seconds since its last move after which a game that nobody has open is no longer listed
as being played now (10 minutes: a game left against the computer drops off the list, and is
aborted: :meth:`GameActions.abort_idle`; it still opens by its link)."""
_STATUS: list[tuple[type[Exception], int]] = [
    (SeatError, 403), (InvitationTaken, 409), (TurnError, 409), (IllegalMoveError, 422),
    (ParseError, 400), (BadParameterError, 400), (UnknownResults, 404),
    (TooManyRunning, 429), (TooBusy, 429), (TooMany, 429), (TooManySockets, 429),
    (DamagedRow, 410), (UnknownChallenge, 404), (NotLoggedIn, 401), (WrongPassword, 401),
    (MissingScope, 403), (NameTaken, 409), (UnknownPlayer, 404)]


class NotFound(LifeArenaError):
    """No game with that id."""


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


@dataclass
class Settings:
    """What a server instance is configured with."""

    db: str | Path
    """The games database: a SQLite file's path, or a URL
    (:func:`~lifearena.web.database.database_url`: ``postgresql://user@host:port/name``)."""
    agent_workers: str = "process"
    """``"process"`` (process pools for agents and slow work, the default) or ``"thread"``
    (tests)."""
    workers: int = 2
    creates_per_minute: int = 30
    max_cached: int = 5_000
    results: tuple[Path, ...] = ()
    tournaments_running: int = 2
    """Tournaments started from the lab's page that may run at once (0: none can be
    started)."""
    lab_admin: str | None = None
    """The operator's secret that starts, stops and resumes tournaments from the lab
    (``serve --lab-admin``); without it the tournament pages are read only."""
    bind_host: str = "127.0.0.1"
    allowed_hosts: tuple[str, ...] = ()
    """Host names the server answers to besides the loopback names and ``bind_host``
    (``--allowed-host``); ``"*"`` for any."""
    on_ready: Callable[[], None] | None = None
    """Called once the server is about to answer requests (its agent workers warm)."""
    challenge_expiry: float = 1800.0
    """Seconds an open challenge of the lobby waits for an opponent (30 minutes)."""
    now: Callable[[], float] = steady_wall
    """The clock games' clocks read, in seconds since the epoch (tests give their own)."""
    shortest_clock: float = 0.5
    """The shortest live time control a new game may have, in minutes."""
    view_bytes_per_second: int = VIEW_BYTES_PER_SECOND
    """Bytes of game views one client address may fetch over HTTP a second, on average
    (:class:`~lifearena.web.limits.ByteRate`)."""
    games_in_progress: int = GAMES_IN_PROGRESS
    """Unfinished games one client address may have made or hold a seat in at once
    (:class:`~lifearena.web.limits.GamesInProgress`)."""
    agent_searches: int = PER_ADDRESS
    """Searches of the computer one client address may have waiting or running; past it,
    its new games against the computer are refused (:mod:`lifearena.web.agent_queue`)."""
    answer_bytes_per_address: int = ANSWER_BYTES_PER_ADDRESS
    """Bytes of big answers (replays) not yet read that one address may hold before its
    next big request is refused (:mod:`lifearena.web.answers`)."""
    answer_bytes_total: int = ANSWER_BYTES_TOTAL
    """The same, for every address together."""
    rated_within_address: bool = False
    """Whether two accounts at one client address may play a rated game together (off: a
    person cannot feed one of its accounts wins from another; ``serve --rated-within-address``
    for a site behind one address, such as a club's)."""
    tournaments_dir: Path | None = None
    """Where the lab's tournaments keep their results files (``None``:
    :func:`tournaments_folder` chooses)."""
    puzzles_dir: Path | None = None
    """A folder of ``<game>.jsonl.gz`` puzzle files offered in place of the shipped ones
    (:mod:`lifearena.web.puzzle_routes`)."""


@dataclass
class Server(Seating, GameActions):
    """The state of one server: the store, the live games, their locks and open sockets
    (resign, draw, rematch, takeback, clocks and presence: :mod:`lifearena.web.actions`;
    the players on the seats and their ratings: :mod:`lifearena.web.seating`)."""

    settings: Settings
    store: Store
    games: collections.OrderedDict[str, LiveGame] = field(
        default_factory=collections.OrderedDict)
    locks: dict[str, asyncio.Lock] = field(default_factory=dict)
    sockets: dict[str, dict[Outbox, list[int]]] = field(default_factory=dict)
    creations: CreationRate = field(default_factory=lambda: CreationRate(30))
    socket_counts: SocketCounts = field(default_factory=SocketCounts)
    in_progress: GamesInProgress = field(default_factory=GamesInProgress)
    """Unfinished games by client address (every path that makes a game counts here)."""
    view_rate: ByteRate = field(default_factory=ByteRate)
    """Bytes of views each address fetched over HTTP (one address re-reading a huge view
    cannot keep the event loop sending it)."""
    heavy: HeavyWork = field(default_factory=lambda: HeavyWork("thread"))
    agents: AgentQueue | None = None
    """The agents' searches, fairly between addresses (started with the server)."""
    tasks: set[asyncio.Task[None]] = field(default_factory=set)
    loading: dict[str, asyncio.Future[LiveGame]] = field(default_factory=dict)
    """Games being rebuilt from the store, by id (every caller awaits the one rebuild)."""
    flag_timers: dict[str, asyncio.TimerHandle] = field(default_factory=dict)
    """Each clocked game's timer for its next flag (:meth:`GameActions.schedule_flag`)."""
    presence_timers: dict[str, asyncio.TimerHandle] = field(default_factory=dict)
    """Games whose pages are about to be told who has the game open."""
    lobby: Lobby = field(default_factory=Lobby)
    """The open challenges and the pages watching them (:mod:`lifearena.web.lobby`)."""
    players: PlayerStore | None = None
    """The players' store (identities, seats, ratings); ``None``: games seat nobody."""
    ratings: Ratings | None = None
    """The ratings of rated games (over :attr:`players`)."""
    bot_api: dict[str, Any] = field(default_factory=dict)
    """The bot API's streams (``hub``) and limits per token (``limits``), for operators and
    tests (:mod:`lifearena.web.bot_api`)."""
    listeners: list[GameListener] = field(default_factory=list)
    """Told of every game that seats players and every change of a game (the bot API's
    streams: :mod:`lifearena.web.bot_events`)."""

    # -- games ------------------------------------------------------------------------------

    async def game(self, game_id: str, client: str = "server") -> LiveGame:
        """The live game ``game_id``: from memory, else rebuilt from the store; a long game
        is replayed in a slow-work worker for ``client`` (so the event loop never replays
        thousands of moves), and concurrent loads of one game share one rebuild.
        :class:`NotFound` (404) for an unknown id, :class:`DamagedRow` (410) for a stored
        game that no longer loads, :class:`TooBusy` (429) past ``client``'s bound."""
        if not valid_id(game_id):
            raise NotFound(f"no game {game_id[:40]!r}")
        live = self.games.get(game_id)
        if live is not None:
            self.games.move_to_end(game_id)
            self.settle(live)  # a flag that is due falls before anyone looks
            return live
        loading = self.loading.get(game_id)
        if loading is None:
            loading = asyncio.ensure_future(self._load(game_id, client))
            self.loading[game_id] = loading
            loading.add_done_callback(lambda _: self.loading.pop(game_id, None))
        # shielded: a page that leaves does not end a load other pages wait for
        return await asyncio.shield(loading)

    async def _load(self, game_id: str, client: str) -> LiveGame:
        row = self.store.get(game_id)
        if row is None:
            raise NotFound(f"no game {game_id!r}")
        if len(row.moves) <= LOOP_REPLAY_MOVES:
            live = _rebuild(row)
        else:
            live = await self.heavy.run(client, _rebuild, row)
        if live.row.game != row.game:  # a row of an earlier form, upgraded: stored so, once
            self.store.save_form(live.row, ended(live))
        # loads of one game are one task, and every change goes through a loaded copy: no
        # other copy can have arrived meanwhile
        self.games[game_id] = live
        self.load_people(live)
        self.adopt(live)
        self._evict()
        # whoever's request reloaded it (a spectator, the idle sweep) is not charged for
        # its agent's search: that waits in the server's own queue until a player moves
        self.schedule_agent(live)
        return live

    def exists(self, game_id: str) -> bool:
        """Whether ``game_id`` is a game of this server (in memory or stored; not rebuilt)."""
        return valid_id(game_id) and (game_id in self.games
                                      or self.store.get(game_id) is not None)

    @contextlib.asynccontextmanager
    async def locked(self, game_id: str, client: str = "server"
                     ) -> AsyncIterator[LiveGame]:
        """The game ``game_id`` held under its lock: the copy every change goes to. A game
        whose lock is held is never evicted, so no change lands on a copy the cache let go."""
        await self.game(game_id, client)  # an unknown id is refused before a lock is made
        lock = self.locks.setdefault(game_id, asyncio.Lock())
        async with lock:
            yield await self.game(game_id, client)

    def _evict(self) -> None:
        while len(self.games) > self.settings.max_cached:
            for old, live in self.games.items():
                lock = self.locks.get(old)
                if (not self.sockets.get(old) and not live.thinking
                        and not (lock is not None and lock.locked())
                        and not (live.clock is not None and live.clock.running)):
                    del self.games[old]
                    self.locks.pop(old, None)
                    break
            else:
                return

    def admit(self, address: str, *, agent: bool = False) -> None:
        """Refuse (429, one line) a new game for ``address`` past any of its bounds, counting
        nothing: its creations in the last minute, its games in progress and, for a game
        against the computer (``agent``), its searches waiting or running. Every path that
        makes a game passes here (:meth:`_start`)."""
        self.creations.check(address)
        self.in_progress.check(address)
        if agent and self.agents is not None:
            self.agents.check_room(address)

    def admitted(self, game_id: str, address: str, *others: str) -> None:
        """Count the game ``game_id`` just made for ``address`` (its creation and a game in
        progress) and as a game in progress of ``others`` (a challenge's maker)."""
        self.creations.count(address)
        for holder in dict.fromkeys((address, *others)):
            self.in_progress.add(holder, game_id)

    def create(self, body: NewGame, address: str = "server", player: Player | None = None
               ) -> dict[str, Any]:
        """Create a game from a new-game form for the client at ``address`` (the player
        ``player`` takes its seat, or both at one screen); answer the creator's token and
        the links."""
        game, opponent, side = body.game, body.opponent, body.side
        holders = self.holders_for(opponent, side, player, body.rated,
                                   body.level if opponent == "agent" else None, game)
        drawn = catalog.drawn_values(game, body.params)  # a random start's fresh seed
        params = {**body.params, **drawn}
        values = catalog.check_values(game, params)
        # the catalog says which settings are played at one screen only (the form reads it)
        only = catalog.entry_of(game).hotseat_only_when
        if only is not None and values[only[0]] == only[1] and opponent != "hotseat":
            raise BadParameterError(f"{catalog.entry_of(game).title} with {only[0]} "
                                    f"{only[1]!r} is played at one screen only; choose "
                                    "'at this screen'")
        state = catalog.new_state(game, params)
        config: dict[str, Any] = {"kind": opponent}
        if body.rated:
            config["rated"] = True
        if drawn:
            config["drawn"] = drawn
        if body.clock is not None:
            config["clock"] = body.clock.model_dump(exclude_none=True)
            self.check_control(config["clock"])
        token = new_secret()
        invites: dict[str, str] = {}
        tokens: list[str | None] = [None, None]
        if opponent == "hotseat":
            tokens = [token, token]
        elif opponent == "online":
            tokens[side] = token
            invites[str(1 - side)] = new_secret()
        else:
            name, _ = catalog.level_agent(game, body.level)
            tokens[side] = token
            config.update(level=body.level, agent=name, agent_seat=1 - side,
                          seed=secrets.randbelow(catalog.MAX_SEED + 1))
        row = GameRow(secrets.token_urlsafe(9), game, dict(state.params), state.setup(), config,
                      tokens, invites=invites)
        return self._start(_rebuild(row), token, None if opponent == "hotseat" else side,
                           address, holders=holders)

    def start_seated(self, game: str, params: dict[str, Any], clock: dict[str, Any] | None,
                     creator: int, acceptor: str = "server", maker: str | None = None,
                     holders: dict[int, str] | None = None, rated: bool = False,
                     ) -> tuple[dict[str, Any], str]:
        """An online game with both seats taken at once (an accepted challenge of the
        lobby, its parameters already checked; a random start's seed left out is drawn
        afresh, as in :meth:`create`): the acceptor's answer (as :meth:`create`
        gives it, for seat ``1 - creator``) and the creator's token, which the lobby tells
        the creator alone. ``clock``: the time control, kept in ``opponent["clock"]``. The
        game counts as made by the ``acceptor``'s address, and in progress for the
        challenge's ``maker`` too. ``holders``: the players on the seats (seat to id);
        ``rated``: whether the game is rated (both must then hold accounts)."""
        drawn = catalog.drawn_values(game, params)  # a random start's fresh seed
        state = catalog.new_state(game, {**params, **drawn})
        tokens = [new_secret(), new_secret()]
        config: dict[str, Any] = {"kind": "online", "lobby": True}
        if rated:
            config["rated"] = True
        if drawn:
            config["drawn"] = drawn
        if clock is not None:
            config["clock"] = clock
        row = GameRow(secrets.token_urlsafe(9), game, dict(state.params), state.setup(),
                      config, list(tokens))
        answer = self._start(_rebuild(row), tokens[1 - creator], 1 - creator, acceptor,
                             *(() if maker is None else (maker,)), holders=holders or {})
        return answer, tokens[creator]

    async def open_record(self, text: str, client: str = "server") -> dict[str, Any]:
        """Open an uploaded record as a hot-seat game at its last position; every move is
        checked (in a slow-work worker for ``client`` when the record is long) before
        anything is stored. It counts as a game made by ``client``'s address (checked
        before the replay and again, with no ``await`` between, when it is stored)."""
        address = address_key(client)
        self.admit(address)  # no replay for an address already past its bounds
        record = Record.load(text)
        if record.game not in catalog.GAMES:
            raise BadParameterError(f"record of game {record.game!r}; expected one of "
                                    f"{', '.join(catalog.GAMES)}")
        if not isinstance(record.params, dict) or not isinstance(record.moves, list):
            raise ParseError("record params must be an object and moves a list")
        token = new_secret()
        row = GameRow(secrets.token_urlsafe(9), record.game, dict(record.params),
                      str(record.setup), {"kind": "hotseat", "from_record": True,
                                          "players": record_players(record)},
                      [token, token], [str(m) for m in record.moves])
        if len(row.moves) <= LOOP_REPLAY_MOVES:
            return self._start(replayed(row), token, None, address)
        return self._start(await self.heavy.run(client, replayed, row), token, None, address)

    def _start(self, live: LiveGame, token: str, side: int | None, address: str,
               *others: str, holders: dict[int, str] | None = None) -> dict[str, Any]:
        """Store and start a game made for the client at ``address`` (in progress for
        ``others`` too): every path that makes a game ends here, so every one is under the
        same bounds (:meth:`admit`), checked and counted with no ``await`` between."""
        row = live.row
        self.check_control(row.opponent.get("clock"))
        self.admit(address, agent=live.agent_seat is not None)
        self.adopt(live)  # its clock, before it is stored
        self.store.insert(row, ended(live))
        self.seat_players(live, holders or {})
        self.admitted(row.id, address, *others)
        if live.over:  # an opened record of a finished game is in progress for nobody
            self.in_progress.finished(row.id)
        self.games[row.id] = live
        self._evict()
        links = {"you": f"/play/{row.id}#t={token}", "spectator": f"/play/{row.id}"}
        for secret in row.invites.values():
            links["invite"] = f"/play/{row.id}#i={secret}"
        self.schedule_agent(live, address)
        return {"id": row.id, "token": token, "seat": side, "links": links}

    # -- seats -------------------------------------------------------------------------------

    async def claim(self, game_id: str, invitation: str, holder: str | None,
                    client: str = "server", player: Player | None = None) -> dict[str, Any]:
        """The first claim of an invitation takes its seat; answer that seat's token. The
        game then counts as in progress for the claimant's address too, and the seat is
        ``player``'s (a rated game's seat needs an account)."""
        address = address_key(client)
        async with self.locked(game_id, client) as live:
            # one player on both seats of a casual game is a game at one screen; of a rated
            # game, it would rate a player against itself
            if (holder and _holds(live, holder)) or (
                    live.rated and player is not None and live.seats_of_player(player.id)):
                raise SeatError("you already play a seat of this game; send the invitation "
                                "to your opponent")
            seat_refusal(live.rated, player)
            if live.rated and not self.settings.rated_within_address and \
                    address in self.in_progress.addresses_of(game_id):
                raise SeatError("both seats of a rated game cannot be played from one "
                                "address; play it casual")
            self.in_progress.check(address)
            seat, token = live.claim(invitation)
            try:
                self.store.save_seats(live.row)
            except Exception:
                live.row.tokens[seat] = None  # memory and store never disagree
                raise
            self.in_progress.add(address, game_id)
            if player is not None:
                self.seat_players(live, {**live.holders, seat: player.id})
        self.broadcast(live)
        return {"id": game_id, "token": token, "seat": seat,
                "links": {"you": f"/play/{game_id}#t={token}",
                          "spectator": f"/play/{game_id}"}}

    async def cancel(self, game_id: str, token: str | None,
                     client: str = "server") -> LiveGame:
        """The creator withdraws an unclaimed invitation."""
        async with self.locked(game_id, client) as live:
            live.cancel(live.seats_of(token))
            try:
                self.store.save_seats(live.row)
            except Exception:
                live.row.cancelled = False
                raise
        self.broadcast(live)
        return live

    # -- moves -------------------------------------------------------------------------------

    async def move(self, game_id: str, token: str | None, seats: list[int] | None,
                   move: Move | MoveMessage, client: str = "server"
                   ) -> LiveGame:
        """Play ``move`` for the seat ``token`` (or, on a socket, ``seats``) holds, under the
        game's lock; store it and tell every page."""
        async with self.locked(game_id, client) as live:
            self.settle(live, force=True)  # a move after the flag fell is refused
            held = live.seats_of(token) if seats is None else seats
            if not held:
                raise SeatError("a move needs this seat's private link (token); spectators "
                                "cannot move")
            seat = move.seat
            if seat is None:
                waiting = [s for s in held if s in live.awaiting()]
                seat = waiting[0] if waiting else held[0]
            if seat not in held:
                raise SeatError(f"this link does not play seat {seat}")
            before = (list(live.row.moves), dict(live.row.pending))
            live.play(move.move, seat, move.ply)
            try:
                self.store.save_play(live.row, ended(live))
            except Exception:
                live.row.moves, live.row.pending = before
                self.games.pop(game_id, None)  # rebuilt from the store on the next request
                raise
            self.schedule_flag(live)
            self.schedule_agent(live, address_key(client))
        self.broadcast(live)
        return live

    # -- lists -------------------------------------------------------------------------------

    def recent(self, limit: int = LISTED) -> dict[str, Any]:
        """The games being played on this server (moved in within :data:`LIVE_WITHIN`, or
        open on a page now) and
        the last finished ones, newest first, each with its spectator link (a finished one
        with its replay and result too); from the store, so a restarted server lists them
        all the same. ``now``: the server's clock, which pages word the ages by."""
        now = time.time()
        open_now = [game_id for game_id, pages in self.sockets.items() if pages]
        return {"now": now,
                "games": [self._listed(g) for g in
                          self.store.latest(False, limit, now - LIVE_WITHIN, open_now)],
                "finished": [self._listed(g) for g in self.store.latest(True, limit)]}

    def _listed(self, game: Listed) -> dict[str, Any]:
        entry = catalog.CATALOG.get(game.game)
        item: dict[str, Any] = {
            "id": game.id, "game": game.game, "title": entry.title if entry else game.game,
            "kind": game.kind, "moves": game.moves, "updated": game.updated,
            "watch": f"/play/{game.id}",
            # spectators only: a player's own page is not someone watching
            "watchers": sum(1 for seats in self.sockets.get(game.id, {}).values()
                            if not seats)}
        if game.outcome is None:
            return item
        try:
            outcome: Outcome | None = Outcome.from_dict(game.outcome)
        except (LifeArenaError, ValueError, TypeError, KeyError):
            outcome = None
        return {**item, "outcome": None if outcome is None else str(outcome),
                "result": catalog.outcome_json(outcome),
                "replay": f"/lab/replay#game={game.id}"}

    def broadcast(self, live: LiveGame) -> None:
        """Offer every open page of ``live`` the game as that page may see it; a page whose
        outbox is full is closed by its outbox, and nobody waits for any page.

        Every change of a game ends here, so here the game's books follow it too: a game
        that ended or was cancelled is in progress for nobody and its agent's search (if
        any) is dropped or stopped; any other change keeps it counted as in progress."""
        game_id = live.row.id
        finished = False
        if live.over or live.row.cancelled:
            if not live.seats_closed:
                live.seats_closed = finished = True
                self.close_seats(live, ended(live))
            self.in_progress.finished(game_id)
            if live.thinking and self.agents is not None:
                self.agents.cancel(game_id)
        else:
            self.in_progress.touch(game_id)
        broadcast(self.sockets.get(game_id, {}), live.view_text)
        for listener in self.listeners:
            try:
                listener.changed(live, finished)
            except Exception:  # a listener's bug must not stop the pages being told
                log.exception("a game listener failed on a change of %s", game_id)

    # -- agents ------------------------------------------------------------------------------

    def schedule_agent(self, live: LiveGame, address: str | None = None) -> None:
        """Start the agent's thinking when the game waits for it (in a worker, in the turn
        of ``address``: the client whose request gave the agent work, else the one that did
        last; :mod:`lifearena.web.agent_queue`)."""
        if address is not None:
            live.address = address
        seat = live.agent_seat
        if seat is None or live.thinking or seat not in live.awaiting() or live.over:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        live.thinking = True
        task = loop.create_task(self._agent_move(live, seat, live.address or "server"))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _agent_move(self, live: LiveGame, seat: int, address: str) -> None:
        opponent = live.row.opponent
        name, limit = catalog.level_agent(live.row.game, opponent["level"])
        if live.clock is not None:  # it thinks within its clock
            limit = live.clock.agent_limit(seat, limit, live.now())
        number, undone = len(live.row.moves), live.undone
        seed = (int(opponent.get("seed", 0)) + 7919 * number) % (catalog.MAX_SEED + 1)
        view = live.state.view(seat)
        assert self.agents is not None
        try:
            text = await self.agents.run(address, live.row.id, catalog.choose_move, view, seat,
                                         name, limit, seed)
            # a thinking game is never evicted: the lock gives this very copy
            async with self.locked(live.row.id) as current:
                self.settle(live, force=True)
                if (current is live and len(live.row.moves) == number
                        and live.undone == undone and seat in live.awaiting()):
                    live.play(text, seat, number)
                    self.store.save_play(live.row, ended(live))
                    self.schedule_flag(live)
            live.agent_error = None
        except SearchCancelled:  # the game ended, or a takeback changed the position:
            pass  # after the flag is cleared below, a search of the new position (if due)
        except Exception as error:
            log.exception("agent %s failed in game %s", name, live.row.id)
            live.agent_error = f"the agent {name} failed: {str(error).splitlines()[0][:200]}"
            live.thinking = False
            self.broadcast(live)
            return  # not retried in a loop; reopening the game tries again
        finally:
            live.thinking = False
        self.schedule_agent(live)
        self.broadcast(live)


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


TOURNAMENTS_DIR = "lifearena-tournaments"
"""The folder, in the working directory, of the lab's tournaments of a server whose games
are in a database server (PostgreSQL): there is no games file to put them beside."""


def tournaments_folder(db: str | Path, chosen: Path | None = None) -> Path:
    """Where the tournaments started from the lab keep their results files (each a SQLite
    file of its own): ``chosen`` when given (``serve --tournaments-dir``), else a folder
    beside the games file ``db``, or :data:`TOURNAMENTS_DIR` in the working directory when
    ``db`` is a database server's URL.

    >>> tournaments_folder(Path("/srv/web.sqlite")).as_posix()
    '/srv/web-tournaments'
    >>> tournaments_folder("sqlite:////srv/web.sqlite").as_posix()
    '/srv/web-tournaments'
    >>> tournaments_folder("postgresql://me@db/arena", Path("/srv/lab")).as_posix()
    '/srv/lab'
    >>> tournaments_folder("postgresql://me@db/arena") == Path.cwd() / TOURNAMENTS_DIR
    True
    """
    if chosen is not None:
        return chosen
    url = database_url(db)
    if url.startswith("sqlite:///"):
        file = Path(url.removeprefix("sqlite:///"))
        return file.parent / f"{file.stem}-tournaments"
    return Path.cwd() / TOURNAMENTS_DIR


def create_app(settings: Settings) -> FastAPI:
    """The web application over the store at ``settings.db``."""
    creations = CreationRate(settings.creates_per_minute)  # one quota for every path
    store = Store(settings.db)
    players = PlayerStore(store.engine)  # one database: the games and their players
    identity = Identity(players)
    server = Server(settings, store, creations=creations, players=players,
                    ratings=Ratings(players),
                    in_progress=GamesInProgress(settings.games_in_progress),
                    view_rate=ByteRate(settings.view_bytes_per_second,
                                       2 * settings.view_bytes_per_second),
                    heavy=HeavyWork(settings.agent_workers, settings.workers),
                    lobby=Lobby(settings.challenge_expiry, creations=creations))
    pool_room = PoolRoom(server)
    # the lab's tournaments play into files of their own, beside the games database
    launcher = (Launcher(tournaments_folder(settings.db, settings.tournaments_dir),
                         settings.tournaments_running)
                if settings.tournaments_running > 0 else None)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        server.agents = await start_agents(settings)
        server.lobby.start()
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
            server.pause_clocks()  # time while the server is down is not charged
            for task in list(server.tasks):
                task.cancel()
            await server.lobby.stop()
            await pool_room.stop()
            server.agents.close()
            server.heavy.close()
            if launcher is not None:
                launcher.close()
            server.store.close()  # the write-ahead log checkpointed into the file
            identity.hasher.close()

    app = FastAPI(title="lifearena", version=__version__, lifespan=lifespan, docs_url=None,
                  redoc_url=None, openapi_url="/api/openapi.json")
    app.state.server = server
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
    app.include_router(lobby_router(server))  # before /ws/{game_id}: /ws/lobby is its own
    app.include_router(accounts_router(server, identity))
    app.include_router(pools_router(server, pool_room))
    app.include_router(bot_router(server, identity))
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
        # the bounds are checked, and only games really made counted, in Server._start
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

    @app.post("/api/games/{game_id}/resign")
    async def resign(game_id: str, body: Resign, request: Request,
                     token: Token = None) -> Response:
        live = await server.resign(game_id, token, None, client_of(request.client))
        return view_answer(live, token)

    @app.post("/api/games/{game_id}/draw")
    async def draw(game_id: str, body: Draw, request: Request,
                   token: Token = None) -> Response:
        live = await server.draw(game_id, token, None, body.action, client_of(request.client))
        return view_answer(live, token)

    @app.post("/api/games/{game_id}/rematch")
    async def rematch(game_id: str, body: Rematch, request: Request,
                      token: Token = None) -> Response:
        live = await server.rematch(game_id, token, None, body.action,
                                    client_of(request.client))
        return view_answer(live, token)

    @app.post("/api/games/{game_id}/takeback")
    async def takeback(game_id: str, body: Takeback, request: Request,
                       token: Token = None) -> Response:
        live = await server.takeback(game_id, token, None, client_of(request.client))
        return view_answer(live, token)

    @app.post("/api/games/{game_id}/claim")
    async def claim(game_id: str, body: Claim, request: Request, response: Response,
                    token: SeatToken = None) -> dict[str, Any]:
        live = await server.game(game_id, client_of(request.client))
        player = identity.player_of(request)
        seat_refusal(live.rated, player)  # before an anonymous player is made for it
        player = identity.maybe(request, response)
        return await server.claim(game_id, body.invitation, token, client_of(request.client),
                                  player)

    @app.post("/api/games/{game_id}/cancel")
    async def cancel(game_id: str, body: Cancel, request: Request,
                     token: Token = None) -> Response:
        live = await server.cancel(game_id, token, client_of(request.client))
        return view_answer(live, token)

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


async def serve_socket(server: Server, websocket: WebSocket, game_id: str) -> None:
    """One page's socket: who it is (its hello), then the game pushed through a bounded
    outbox and moves taken at a bounded rate, until either side goes."""
    client = client_of(websocket.client)
    address = address_key(client)
    await websocket.accept()
    try:
        server.socket_counts.acquire(game_id, address)
    except TooManySockets as error:
        await _refuse(websocket, error)
        return
    outbox: Outbox | None = None
    try:
        try:
            seats = await _greet(server, websocket, game_id, client)
            if seats is None:
                return  # gone before saying hello
            live = await server.game(game_id, client)
        except LifeArenaError as error:
            await _refuse(websocket, error)
            return
        # registered and offered its first view with no await between: no push is missed
        outbox = Outbox(websocket)
        outbox.start()
        server.sockets.setdefault(game_id, {})[outbox] = seats
        live.connected = server.present(game_id)  # who has the game open, this page too
        if seats:  # and the other pages are told
            server.presence_changed(game_id)
        outbox.offer(live.view_text(seats))
        rate = MessageRate()
        warned = -math.inf  # when the page was last told to slow down
        while not outbox.closed:
            message = await receive(websocket, outbox)
            if message["type"] == "websocket.disconnect":
                break
            if not rate.allow():
                if rate.flooding:  # read no more of it: close, and hold its address off
                    stop_reading(websocket)
                    server.socket_counts.hold_off(address)
                    await outbox.close(FLOOD_CODE, f"flooding: over {rate.per_second:.0f} "
                                       f"messages a second; no new socket for "
                                       f"{FLOOD_HOLD_OFF:.0f} s", flush=True)
                    break
                # said at most once a second; whatever is past the rate is dropped unread
                if time.monotonic() - warned > 1.0:
                    warned = time.monotonic()
                    outbox.offer(_error_message(TooManyMessages(
                        f"more than {rate.per_second:.0f} messages a second from one page; "
                        "slow down (messages past the rate are dropped)")))
                continue
            try:
                await _on_message(server, game_id, seats, message.get("text"), client)
            except LifeArenaError as error:
                outbox.offer(_error_message(error))
    except (RuntimeError, ConnectionError):  # the peer went away mid-send
        pass
    finally:
        # the books first: a handler cancelled while closing still gives its place back
        server.socket_counts.release(game_id, address)
        if outbox is not None:
            server.sockets.get(game_id, {}).pop(outbox, None)
            if not server.sockets.get(game_id):
                server.sockets.pop(game_id, None)
            server.presence_changed(game_id)
            await outbox.close()


class TooManyMessages(TooMany):
    """A page sending faster than :class:`~lifearena.web.limits.MessageRate` allows (429)."""


FLOOD_CODE = 1008
"""The close code of a socket closed for flooding (WebSocket's "policy violation")."""


def _error_message(error: Exception) -> dict[str, Any]:
    """An error as a socket tells it: what went wrong and the HTTP status it would be."""
    return {"type": "error", "error": str(error), "status": status_of(error)}


async def _greet(server: Server, websocket: WebSocket, game_id: str,
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


async def _refuse(websocket: WebSocket, error: Exception) -> None:
    """Tell a socket why it is refused, then close it with 44xx (the HTTP status's twin)
    (after which nothing more is read from it: a refused page may be flooding)."""
    with contextlib.suppress(Exception):
        await websocket.send_json(_error_message(error))
        if websocket.client_state != WebSocketState.DISCONNECTED:
            await websocket.close(code=4400 + status_of(error) % 100,
                                  reason=str(error)[:120])


async def _on_message(server: Server, game_id: str, seats: list[int],
                      text: str | None, client: str = "server") -> None:
    if text is not None and len(text) > MAX_WS_MESSAGE:
        raise ParseError(f"message of {len(text)} characters; expected at most "
                         f"{MAX_WS_MESSAGE}")
    message = read_message(text)
    if isinstance(message, MoveMessage):
        await server.move(game_id, None, seats, message, client)
    elif isinstance(message, GameAction):
        await server.act(game_id, seats, message, client)
    elif isinstance(message, Hello):
        raise ParseError("this socket has already said hello; expected a move or a ping")


def valid_id(game_id: str) -> bool:
    """Whether ``game_id`` has the shape of a game id (6 to 32 URL-safe characters).

    >>> valid_id("a1B2-c_"), valid_id("../etc"), valid_id("x" * 40)
    (True, False, False)
    """
    return 6 <= len(game_id) <= 32 and all(c.isascii() and (c.isalnum() or c in "-_")
                                           for c in game_id)


def ended(live: LiveGame) -> dict[str, Any] | None:
    """The outcome of ``live`` as the store keeps it, once the game is over; else ``None``."""
    outcome = live.outcome()
    return None if outcome is None else outcome.to_dict()


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


def _holds(live: LiveGame, token: str) -> bool:
    try:
        return bool(live.seats_of(token))
    except SeatError:
        return False


def view_answer(live: LiveGame, token: str | None) -> Response:
    """The game as the holder of ``token`` sees it (a spectator without one), answered with
    the bytes every reader of this version of the game shares (:meth:`LiveGame.view_bytes`):
    a view is built and encoded once per change, not once per request."""
    return Response(live.view_bytes(live.seats_of(token)), media_type="application/json")


def _rebuild(row: GameRow) -> LiveGame:
    """A stored game, live again."""
    return LiveGame.from_row(row)


def _error(error: Exception) -> JSONResponse:
    return JSONResponse({"error": str(error)}, status_code=status_of(error))
