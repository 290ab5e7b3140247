"""The match runner: :class:`Rooms` plays the server's games over a store and a transport.

It makes games (a new game's form, a lobby's accepted challenge, an opened record, a
rematch: every one through :meth:`Rooms.start`, under one quota of creations a minute and
one bound of games in progress per address), seats players, takes moves, runs the clocks,
offers and endings (resign, draw, rematch, takeback), the agents' searches and the sweep of
abandoned games, and tells the pages of every change through its
:class:`~lifearena.web.rooms.transport.Transport`. It knows neither HTTP nor sockets: the
routes parse a request and call it, the socket loop registers a page and hands it messages.

Every action runs under the game's lock, checks the clocks first (a flag that fell is seen
before anything else), stores the row and tells every page; when storing fails, memory is
put back as it was (or the game dropped, to be rebuilt from the store).

**Abandoned games.** An untimed game against an agent in which nothing happened for
:data:`ABORT_AFTER` seconds, and which no seat has open, is aborted (as lichess aborts a
game left unplayed): it ends with :attr:`~lifearena.core.Termination.ABORTED`, nobody
winning, is stored so and leaves the list of games being played (:meth:`Rooms.abort_idle`,
run every :data:`ABORT_SWEEP` seconds).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import secrets
import time
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from lifearena.core import Outcome, Record, Termination
from lifearena.errors import BadParameterError, LifeArenaError, ParseError
from lifearena.web import catalog
from lifearena.web.agent_queue import AgentQueue
from lifearena.web.endings import takeback_position
from lifearena.web.heavy import HeavyWork
from lifearena.web.lanes import new_game_id
from lifearena.web.limits import (
    ByteRate,
    CreationRate,
    GamesInProgress,
    SocketCounts,
    address_key,
)
from lifearena.web.live import LiveGame, new_secret, record_players, replayed
from lifearena.web.models import GameAction, Move, MoveMessage, NewGame
from lifearena.web.players import Player, PlayerStore
from lifearena.web.rated import Ratings
from lifearena.web.refusals import SeatError
from lifearena.web.rooms.agents import AgentTurns
from lifearena.web.rooms.cache import LOOP_REPLAY_MOVES, LiveGames
from lifearena.web.rooms.clocks import Clocks
from lifearena.web.rooms.presence import Presence
from lifearena.web.rooms.seats import GameListener, Seats, seat_refusal
from lifearena.web.rooms.transport import Page, Transport
from lifearena.web.settings import Settings
from lifearena.web.store import GameRow, Listed, Store

log = logging.getLogger("lifearena.web")
T = TypeVar("T")

ABORT_AFTER = 600.0
"""Seconds without a move after which an untimed game against an agent that no seat has
open is aborted (10 minutes)."""
ABORT_SWEEP = 60.0
"""Seconds between two looks for abandoned games."""
LOOP_TAKEBACK_MOVES = 32
"""Moves a game may have for a takeback to be replayed on the event loop; a longer game is
replayed in a slow-work worker."""
LISTED = 12
"""Games in each of the home page's lists (being played, finished lately)."""
LIVE_WITHIN = 600.0
"""Seconds since its last move after which a game that nobody has open is no longer listed
as being played now (10 minutes: a game left against the computer drops off the list, and is
aborted: :meth:`Rooms.abort_idle`; it still opens by its link)."""


@dataclass
class Rooms:
    """The games of one server (see the module): ``settings``, the ``store`` and the
    ``transport`` to the pages, and the bounds every client is held to."""

    settings: Settings
    store: Store
    transport: Transport
    creations: CreationRate = field(default_factory=lambda: CreationRate(30))
    socket_counts: SocketCounts = field(default_factory=SocketCounts)
    """Open sockets by game and client address (the socket loop acquires its place)."""
    in_progress: GamesInProgress = field(default_factory=GamesInProgress)
    """Unfinished games by client address (every path that makes a game counts here)."""
    view_rate: ByteRate = field(default_factory=ByteRate)
    """Bytes of views each address fetched over HTTP (one address re-reading a huge view
    cannot keep the event loop sending it)."""
    heavy: HeavyWork = field(default_factory=lambda: HeavyWork("thread"))
    agents: AgentQueue | None = None
    """The agents' searches, fairly between addresses (started with the server)."""
    players: PlayerStore | None = None
    """The players' store (identities, seats, ratings); ``None``: games seat nobody."""
    ratings: Ratings | None = None
    """The ratings of rated games (over :attr:`players`)."""
    listeners: list[GameListener] = field(default_factory=list)
    """Told of every game that seats players and every change of a game (the bot API's
    streams: :mod:`lifearena.web.bot_events`)."""
    bot_api: dict[str, Any] = field(default_factory=dict)
    """The bot API's streams (``hub``) and limits per token (``limits``), for operators and
    tests (:mod:`lifearena.web.bot_api`)."""
    tasks: set[asyncio.Task[None]] = field(default_factory=set)
    """The rooms' own tasks (agents' moves, the sweeps), cancelled when the server stops."""

    def __post_init__(self) -> None:
        self.cache = LiveGames(self.store, lambda: self.heavy, self.settings.max_cached,
                               loaded=self._loaded, looked_at=self._looked_at,
                               keep=self._keep)
        self.presence = Presence(self._presence_settled)
        self.clocks = Clocks(self.settings, self.store, self.cache.games,
                             self.cache.is_locked, self.broadcast)
        self.seats = Seats(self.players, self.ratings, self.listeners)
        self.turns = AgentTurns(lambda: self.agents, self.store, self.clocks, self.locked,
                                self.broadcast, self.tasks)

    @property
    def games(self) -> collections.OrderedDict[str, LiveGame]:
        """The games in memory, least recently used first."""
        return self.cache.games

    # -- games ------------------------------------------------------------------------------

    async def game(self, game_id: str, client: str = "server") -> LiveGame:
        """The live game ``game_id``, from memory or the store
        (:meth:`~lifearena.web.rooms.cache.LiveGames.get`)."""
        return await self.cache.get(game_id, client)

    def locked(self, game_id: str, client: str = "server"
               ) -> contextlib.AbstractAsyncContextManager[LiveGame]:
        """The game ``game_id`` under its lock (the copy every change goes to)."""
        return self.cache.locked(game_id, client)

    def exists(self, game_id: str) -> bool:
        """Whether ``game_id`` is a game here (in memory or stored; not rebuilt)."""
        return self.cache.exists(game_id)

    def _loaded(self, live: LiveGame) -> None:
        self.seats.load_people(live)
        self.adopt(live)
        # whoever's request reloaded it (a spectator, the idle sweep) is not charged for
        # its agent's search: that waits in the server's own queue until a player moves
        self.schedule_agent(live)

    def _looked_at(self, live: LiveGame) -> None:
        self.clocks.settle(live)  # a flag that is due falls before anyone looks

    def _keep(self, game_id: str, live: LiveGame) -> bool:
        return (self.presence.watched(game_id) or live.thinking
                or (live.clock is not None and bool(live.clock.running)))

    def adopt(self, live: LiveGame) -> None:
        """Give a game loaded or made here its clock and presence: the server's ``now``,
        paused clocks resumed, the flag checked and its timer set."""
        live.connected = self.presence.present(live.row.id)
        self.clocks.start(live)

    async def join(self) -> None:
        """The server starts (nothing to do for a single server; replicas join the others:
        :mod:`lifearena.web.rooms.cluster`)."""

    async def leave(self) -> None:
        """The server stops: running clocks are paused and stored (time while the server
        is down is not charged)."""
        self.clocks.pause_all()

    async def load_clocked(self) -> None:
        """Load every stored game with a clock, so that its flag falls on time."""
        for game_id in self.store.clocked():
            try:
                await self.game(game_id)
            except Exception as error:  # a damaged row: its page says so
                log.warning("a clocked game %s did not load: %s", game_id, error)

    # -- making games ---------------------------------------------------------------------------

    def admit(self, address: str, *, agent: bool = False) -> None:
        """Refuse (429, one line) a new game for ``address`` past any of its bounds, counting
        nothing: its creations in the last minute, its games in progress and, for a game
        against the computer (``agent``), its searches waiting or running. Every path that
        makes a game passes here (:meth:`start`)."""
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

    def create(self, body: NewGame, address: str = "server",
               player: Player | None = None) -> dict[str, Any]:
        """Create a game from a new-game form for the client at ``address`` (the player
        ``player`` takes its seat, or both at one screen); answer the creator's token and
        the links. The form's game is built once: its parameters checked, its start made
        and played from, never written out and parsed back."""
        game, opponent, side = body.game, body.opponent, body.side
        holders = self.seats.holders_for(opponent, side, player, body.rated,
                                         body.level if opponent == "agent" else None, game)
        drawn = catalog.drawn_values(game, body.params)  # a random start's fresh seed
        made = catalog.served_game(game, {**body.params, **drawn})
        values = made.params
        # the catalog says which settings are played at one screen only (the form reads it)
        only = catalog.entry_of(game).hotseat_only_when
        if only is not None and values[only[0]] == only[1] and opponent != "hotseat":
            raise BadParameterError(f"{catalog.entry_of(game).title} with {only[0]} "
                                    f"{only[1]!r} is played at one screen only; choose "
                                    "'at this screen'")
        state = catalog.start_of(made)
        config: dict[str, Any] = {"kind": opponent}
        if body.rated:
            config["rated"] = True
        if drawn:
            config["drawn"] = drawn
        if body.clock is not None:
            config["clock"] = body.clock.model_dump(exclude_none=True)
            self.clocks.check_control(config["clock"])
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
        row = GameRow(new_game_id(self.settings.lane), game, dict(state.params),
                      state.setup(), config, tokens, invites=invites)
        return self.start(LiveGame.started(row, state), token,
                          None if opponent == "hotseat" else side, address, holders=holders)

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
        row = GameRow(new_game_id(self.settings.lane), game, dict(state.params), state.setup(),
                      config, list(tokens))
        answer = self.start(LiveGame.started(row, state), tokens[1 - creator], 1 - creator,
                            acceptor, *(() if maker is None else (maker,)),
                            holders=holders or {})
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
        row = GameRow(new_game_id(self.settings.lane), record.game, dict(record.params),
                      str(record.setup), {"kind": "hotseat", "from_record": True,
                                          "players": record_players(record)},
                      [token, token], [str(m) for m in record.moves])
        if len(row.moves) <= LOOP_REPLAY_MOVES:
            return self.start(replayed(row), token, None, address)
        return self.start(await self.heavy.run(client, replayed, row), token, None, address)

    def start(self, live: LiveGame, token: str, side: int | None, address: str,
              *others: str, holders: dict[int, str] | None = None) -> dict[str, Any]:
        """Store and start a game made for the client at ``address`` (in progress for
        ``others`` too): every path that makes a game ends here, so every one is under the
        same bounds (:meth:`admit`), checked and counted with no ``await`` between."""
        row = live.row
        self.clocks.check_control(row.opponent.get("clock"))
        self.admit(address, agent=live.agent_seat is not None)
        self.adopt(live)  # its clock, before it is stored
        self.store.insert(row, live.stored_outcome())
        self.seat_new(live, holders or {})
        self.admitted(row.id, address, *others)
        if live.over:  # an opened record of a finished game is in progress for nobody
            self.in_progress.finished(row.id)
        self.cache.add(live)
        links = {"you": f"/play/{row.id}#t={token}", "spectator": f"/play/{row.id}"}
        for secret in row.invites.values():
            links["invite"] = f"/play/{row.id}#i={secret}"
        self.schedule_agent(live, address)
        return {"id": row.id, "token": token, "seat": side, "links": links}

    def seat_new(self, live: LiveGame, holders: dict[int, str]) -> None:
        """Seat ``holders`` (seat to player id) in the new game ``live`` (at once here; a
        replica defers the store's part off the event loop)."""
        self.seats.seat_players(live, holders)

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
                await self.stored(self.store.save_seats, live.row)
            except Exception:
                live.row.tokens[seat] = None  # memory and store never disagree
                raise
            self.in_progress.add(address, game_id)
            if player is not None:
                holders = {**live.holders, seat: player.id}
                await self.stored(self.seats.record, live, holders)
                self.seats.announce(live, holders)
        self.broadcast(live)
        return {"id": game_id, "token": token, "seat": seat,
                "links": {"you": f"/play/{game_id}#t={token}",
                          "spectator": f"/play/{game_id}"}}

    async def cancel(self, game_id: str, token: str | None, seats: list[int] | None = None,
                     client: str = "server") -> LiveGame:
        """The creator withdraws an unclaimed invitation."""
        async with self.locked(game_id, client) as live:
            live.cancel(live.seats_of(token) if seats is None else seats)
            try:
                await self.stored(self.store.save_seats, live.row)
            except Exception:
                live.row.cancelled = False
                raise
        self.broadcast(live)
        return live

    # -- moves -------------------------------------------------------------------------------

    async def stored(self, call: Callable[..., T], *args: Any) -> T:
        """``call(*args)``, a call of the store: at once on an embedded database (SQLite, in
        this process), else in a worker thread, so that the event loop serves the other
        games while the database server answers (the caller holds the game's lock)."""
        if self.store.embedded:
            return call(*args)
        return await asyncio.to_thread(call, *args)

    async def move(self, game_id: str, token: str | None, seats: list[int] | None,
                   move: Move | MoveMessage, client: str = "server") -> LiveGame:
        """Play ``move`` for the seat ``token`` (or, on a socket, ``seats``) holds, under the
        game's lock; store it and tell every page."""
        async with self.locked(game_id, client) as live:
            self.clocks.settle(live, force=True)  # a move after the flag fell is refused
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
                await self.stored(self.store.save_play, live.row, live.stored_outcome())
            except Exception:
                live.row.moves, live.row.pending = before
                self.games.pop(game_id, None)  # rebuilt from the store on the next request
                raise
            self.clocks.schedule(live)
            self.schedule_agent(live, address_key(client))
        self.broadcast(live)
        return live

    # -- offers and endings --------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def acting(self, game_id: str, token: str | None, seats: list[int] | None,
                     client: str) -> AsyncIterator[tuple[LiveGame, list[int]]]:
        """The game and the seats the request holds, under the game's lock and with its
        flag settled; on leaving, the row is stored, the flag timer set, the pages told
        (unless the body raised: then nothing was changed)."""
        async with self.locked(game_id, client) as live:
            self.clocks.settle(live, force=True)
            held = live.seats_of(token) if seats is None else list(seats)
            yield live, held
            try:
                await self.stored(self.store.save_play, live.row, live.stored_outcome())
            except Exception:
                self.games.pop(game_id, None)  # rebuilt from the store on the next request
                raise
            self.clocks.schedule(live)
        self.broadcast(live)

    async def resign(self, game_id: str, token: str | None, seats: list[int] | None,
                     client: str = "server") -> LiveGame:
        """The seat the request holds resigns."""
        async with self.acting(game_id, token, seats, client) as (live, held):
            live.resign(held)
        return live

    async def draw(self, game_id: str, token: str | None, seats: list[int] | None,
                   action: str, client: str = "server") -> LiveGame:
        """Offer, accept or decline a draw."""
        async with self.acting(game_id, token, seats, client) as (live, held):
            _need_seat(held, "a draw offer")
            live.draw(held, action)
        return live

    async def rematch(self, game_id: str, token: str | None, seats: list[int] | None,
                      action: str, client: str = "server") -> LiveGame:
        """Offer, accept or decline a rematch; make it when it is agreed (or at once
        against an agent or at one screen). A rematch is a new game made by ``client``'s
        address: under its creation quota and its bound of games in progress, as any."""
        async with self.acting(game_id, token, seats, client) as (live, held):
            if live.rematch(held, action) == "create":
                new_id = new_game_id(self.settings.lane)
                before = dict(live.row.offers)
                row = live.rematch_row(new_id, new_secret,
                                       secrets.randbelow(catalog.MAX_SEED + 1))
                try:
                    fresh = LiveGame.from_row(row)
                    token_of = next((t for t in row.tokens if t), "")
                    self.start(fresh, token_of, None, address_key(client))
                except Exception:
                    live.row.offers = before
                    raise
        return live

    async def takeback(self, game_id: str, token: str | None, seats: list[int] | None,
                       client: str = "server") -> LiveGame:
        """Undo the person's last move (and the agent's reply) in an untimed game against
        an agent."""
        async with self.acting(game_id, token, seats, client) as (live, held):
            person = live.check_takeback(held)
            row = live.row
            job = (row.game, dict(row.params), row.setup, list(row.moves), person)
            if len(row.moves) <= LOOP_TAKEBACK_MOVES:
                kept, state = takeback_position(*job)
            else:
                kept, state = await self.heavy.run(client, takeback_position, *job)
            live.take_back(kept, state)
            # a search of the position taken back is void: stopped, and one of the new
            # position starts once it has (or now, when none ran)
            self.turns.cancel(game_id)
        self.schedule_agent(live, address_key(client))
        return live

    async def heard(self, game_id: str, seats: list[int], message: MoveMessage | GameAction,
                    client: str = "server") -> None:
        """A move or a game action said on a socket holding ``seats``: nothing is answered,
        its page learns the outcome as every page of the game does."""
        if isinstance(message, MoveMessage):
            await self.move(game_id, None, seats, message, client)
        else:
            await self.act(game_id, message.type, None, seats,
                           getattr(message, "action", None), client)

    async def act(self, game_id: str, kind: str, token: str | None, seats: list[int] | None,
                  action: str | None = None, client: str = "server") -> LiveGame:
        """The game action ``kind`` (resign, draw, rematch, takeback, cancel; ``action``:
        offer, accept or decline, for a draw or a rematch) of the seat ``token`` (or, on a
        socket, ``seats``) holds, from ``client``."""
        if kind == "resign":
            return await self.resign(game_id, token, seats, client)
        if kind == "draw":
            return await self.draw(game_id, token, seats, action or "", client)
        if kind == "rematch":
            return await self.rematch(game_id, token, seats, action or "", client)
        if kind == "takeback":
            return await self.takeback(game_id, token, seats, client)
        if kind == "cancel":
            return await self.cancel(game_id, token, seats, client)
        raise ParseError(f"unknown game action {kind[:40]!r}; expected resign, draw, "
                         "rematch, takeback or cancel")

    # -- abandoned games ---------------------------------------------------------------------------

    async def abort_idle(self, now: float | None = None) -> list[str]:
        """Abort the untimed games against an agent in which nothing happened for
        :data:`ABORT_AFTER` seconds before ``now`` (a :func:`time.time`) and which no seat
        has open: each ends with nobody winning, is stored so and its pages are told.
        Answers the ids aborted."""
        cutoff = (time.time() if now is None else now) - ABORT_AFTER
        aborted = []
        for game_id in self.store.idle_agent_games(cutoff):
            if any(self.presence.present(game_id)) or not self.may_abort(game_id):
                continue  # its player is looking at it, or another replica runs it
            try:
                async with self.locked(game_id) as live:
                    if live.over or live.thinking or any(self.presence.present(game_id)):
                        continue
                    live.end(Outcome(Termination.ABORTED, None, None,
                                     f"no move in {ABORT_AFTER / 60:.0f} minutes"))
                    self.store.save_play(live.row, live.stored_outcome())
            except LifeArenaError as error:  # a damaged row: its own page says so
                log.warning("an idle game %s was not aborted: %s", game_id, error)
                continue
            self.broadcast(live)
            aborted.append(game_id)
        return aborted

    def may_abort(self, game_id: str) -> bool:
        """Whether this server runs ``game_id`` (every game, for a single server)."""
        return True

    async def abort_idle_often(self) -> None:
        """:meth:`abort_idle` every :data:`ABORT_SWEEP` seconds, as long as the server runs."""
        while True:
            await asyncio.sleep(ABORT_SWEEP)
            try:
                await self.abort_idle()
            except Exception:  # the next sweep tries again
                log.exception("the sweep of abandoned games failed")

    # -- pages ---------------------------------------------------------------------------------

    def open_page(self, live: LiveGame, page: Page, seats: list[int]) -> None:
        """A page of ``live`` holding ``seats`` opened: it is told of every change from now
        on, and, when it holds a seat, the other pages soon learn it is here. The caller
        offers it its first view with no ``await`` between, so no change is missed."""
        game_id = live.row.id
        self.presence.open(game_id, page, seats)
        live.connected = self.presence.present(game_id)  # who has the game open, this too
        if seats:  # and the other pages are told
            self.presence.changed(game_id)

    def close_page(self, game_id: str, page: Page) -> None:
        """A page of ``game_id`` closed."""
        self.presence.close(game_id, page)
        self.presence.changed(game_id)

    def _presence_settled(self, game_id: str) -> None:
        live = self.games.get(game_id)
        if live is None:
            return
        live.connected = self.presence.present(game_id)
        if live.connected != live.told:
            live.told = list(live.connected)
            self.broadcast(live)

    def recent(self, limit: int = LISTED) -> dict[str, Any]:
        """The games being played here (moved in within :data:`LIVE_WITHIN`, or open on a
        page now) and the last finished ones, newest first, each with its spectator link (a
        finished one with its replay and result too); from the store, so a restarted server
        lists them all the same. ``now``: the server's clock, which pages word the ages by."""
        now = time.time()
        open_now = list(self.presence.listed_games())
        return {"now": now,
                "games": [self._listed(g) for g in
                          self.store.latest(False, limit, now - LIVE_WITHIN, open_now)],
                "finished": [self._listed(g) for g in self.store.latest(True, limit)]}

    def _listed(self, game: Listed) -> dict[str, Any]:
        entry = catalog.CATALOG.get(game.game)
        item: dict[str, Any] = {
            "id": game.id, "game": game.game, "title": entry.title if entry else game.game,
            "kind": game.kind, "moves": game.moves, "updated": game.updated,
            "watch": f"/play/{game.id}", "watchers": self.presence.watchers(game.id)}
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
        """Offer every open page of ``live`` the game as that page may see it, through the
        transport; nobody waits for any page.

        Every change of a game ends here, so here the game's books follow it too: a game
        that ended or was cancelled is in progress for nobody and its agent's search (if
        any) is dropped or stopped; any other change keeps it counted as in progress."""
        game_id = live.row.id
        finished = False
        if live.over or live.row.cancelled:
            if not live.seats_closed:
                live.seats_closed = finished = True
                self.seats.close_seats(live, live.stored_outcome())
            self.in_progress.finished(game_id)
            if live.thinking:
                self.turns.cancel(game_id)
        else:
            self.in_progress.touch(game_id)
        self.transport.tell(self.presence.audience(game_id), live.view_text)
        for listener in self.listeners:
            try:
                listener.changed(live, finished)
            except Exception:  # a listener's bug must not stop the pages being told
                log.exception("a game listener failed on a change of %s", game_id)

    def schedule_agent(self, live: LiveGame, address: str | None = None) -> None:
        """Start the agent's thinking when the game waits for it (:mod:`.agents`)."""
        self.turns.schedule(live, address)


def _holds(live: LiveGame, token: str) -> bool:
    try:
        return bool(live.seats_of(token))
    except SeatError:
        return False


def _need_seat(held: Sequence[int], what: str) -> None:
    if not held:
        raise SeatError(f"{what} needs a seat's private link (token); spectators cannot")
