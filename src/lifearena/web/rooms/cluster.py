"""Several replicas of the server, one site: :class:`ReplicatedRooms` are the rooms of one
replica among others that share a store (PostgreSQL) and a broker (Redis,
:mod:`lifearena.web.broker`).

**One owner per live game.** The replica holding a game's lease (``game:{id}``, renewed by
a :class:`~lifearena.web.leases.LeaseKeeper`) is its owner: only it keeps the game in
memory, runs its clock and its agent's turns and writes its row, and every write carries the
lease's fencing token (``fence``: the store refuses a write where a larger token wrote
before, :class:`~lifearena.web.store.FencedOut`; the game is then dropped here). A replica
asked to change a game it does not own takes the lease when it is free (and loads the game
from the store), else **forwards** the call to the owner: a request on ``replica:{owner}``
with an id, answered on ``reply:{asker}`` with the result or the library error (its class
and message, so the route answers the same 4xx). An owner that does not answer within
:data:`FORWARD_TIMEOUT_S` is asked again, or its game taken over once its lease expired;
after :data:`CALL_DEADLINE_S` the caller is told :class:`OwnerUnavailable` (503).

**Pages on any replica.** A read of a game this replica does not own is answered from a copy
read from the store (the truth after each write; rebuilt only when its row changed; no clock
or agent runs on it). Each replica marks the seat lists its pages of a game hold (a
spectator's, each seat's, both seats' at one screen) in the presence set ``pages:{id}``; the
owner reads the others' marks at each sweep, shows a seat's holder as present wherever its
page is, and after each change publishes on ``game:{id}`` the view of each seat list
another replica's pages hold (``{"seats": [...], "text": ...}``), and nothing when none
does (a seat list it hears of for the first time is sent the current view at once). Every
replica reads the channels of the games it has pages of on its one subscription (added with
the game's first page here, let go with its last) and hands each view only to its pages
holding exactly those seats, so a hidden choice reaches no other seat and no spectator. Once
a channel is confirmed, and after a gap in the subscription (Redis went away), its pages get
the game read afresh from the store.

**Failover.** Every :data:`SWEEP_S` seconds each replica looks for games in progress whose
lease is free and that something must run without a request (a clock, an agent:
:meth:`~lifearena.web.store.Store.running`) or that one of its pages shows, takes them
(the lease decides between replicas) and loads them: their clocks are charged for the time
since their last stored change, their flags set and their agents started. A replica killed
with ``kill -9`` stops renewing; its games are taken over within the lease's TTL plus one
sweep.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import functools
import itertools
import logging
import os
import secrets
import socket
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any

from lifearena.errors import BadParameterError, LifeArenaError
from lifearena.web.broker import (
    Broker,
    BrokerUnavailable,
    Message,
    RedisBroker,
    Subscription,
)
from lifearena.web.database import database_url
from lifearena.web.heavy import TooBusy
from lifearena.web.leases import LeaseKeeper
from lifearena.web.live import LiveGame
from lifearena.web.models import GameAction, Move, MoveMessage
from lifearena.web.players import Player
from lifearena.web.quota_share import SharedCreations
from lifearena.web.rooms.cache import LOOP_REPLAY_MOVES, NotFound, rebuild, valid_id
from lifearena.web.rooms.presence import Presence
from lifearena.web.rooms.runner import Rooms
from lifearena.web.rooms.transport import Page
from lifearena.web.settings import Settings
from lifearena.web.store import DamagedRow, FencedOut
from lifearena.web.watcher_share import WatcherShare

log = logging.getLogger("lifearena.web")

LEASE_TTL_S = 3.0
"""Seconds a game's lease lasts without renewal (renewed every third of it)."""
SWEEP_S = 1.0
"""Seconds between two looks for games whose owner is gone (and for other replicas'
pages)."""
FORWARD_TIMEOUT_S = 2.0
"""Seconds a replica waits for the owner's answer to a forwarded call."""
CALL_DEADLINE_S = 8.0
"""Seconds a call may spend finding an owner (forwarding, waiting for a dead owner's lease
to expire) before it is refused with :class:`OwnerUnavailable`."""
ANSWERS_KEPT = 4096
"""Forwarded calls whose reply an owner keeps, to send it again to an asker that asks again
(its first answer was late) rather than run the call twice."""
READ_COPIES = 64
"""Games read from the store (another replica's) kept rebuilt here until their row
changes."""
MARK_EVERY = 3
"""Sweeps between two renewals of a replica's marks in ``pages:{id}`` (a change is marked at
once, when a page opens or closes)."""
PAGES_TTL_S = 10.0
"""Seconds a replica's mark of the seats its pages hold lasts in ``pages:{id}`` (marked
again every sweep)."""


def default_replica_id() -> str:
    """A name for this replica that no other has: ``host-pid-random``."""
    return f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}"


def rooms_of(settings: Settings) -> Callable[..., Rooms]:
    """What makes the rooms of a server with ``settings``: :class:`Rooms` for one process
    (no broker), else :class:`ReplicatedRooms` over the Redis broker ``settings.broker``
    (whose store must be shared: SQLite is refused, one line)."""
    if settings.broker is None:
        return Rooms
    if database_url(settings.db).startswith("sqlite"):
        raise BadParameterError("replicas (--broker) need a shared store; expected --db "
                                "postgresql://user@host:port/name, not a SQLite file")
    return functools.partial(ReplicatedRooms, broker=RedisBroker(settings.broker),
                             replica=settings.replica_id or default_replica_id())


class OwnerUnavailable(LifeArenaError):
    """No replica can act on the game now (its owner does not answer and its lease has
    not expired yet, or the broker is down): 503, try again."""


class NotOwner(LifeArenaError):
    """This replica was asked to change a game whose lease it does not hold (the caller
    forwards it, or takes the lease over)."""


class RemoteError(LifeArenaError):
    """An error of the owner whose class this replica does not know (400)."""


def _error_classes() -> dict[str, type[LifeArenaError]]:
    found: dict[str, type[LifeArenaError]] = {}
    todo: list[type[LifeArenaError]] = [LifeArenaError]
    while todo:
        kind = todo.pop()
        found.setdefault(kind.__name__, kind)
        todo.extend(kind.__subclasses__())
    return found


def remote_error(name: str, message: str) -> LifeArenaError:
    """The library error ``name`` (a class name) with ``message``, as the owner raised it.

    >>> type(remote_error("NotFound", "no game 'x'")).__name__
    'NotFound'
    >>> type(remote_error("Nonesuch", "?")).__name__
    'RemoteError'
    """
    kind = _error_classes().get(name, RemoteError)
    try:
        return kind(message)
    except TypeError:  # a class whose constructor takes more than a message
        return RemoteError(message)


def _move_args(token: str | None, seats: list[int] | None, move: Move | MoveMessage,
               client: str) -> dict[str, Any]:
    """A move's arguments as they travel to the game's owner."""
    return {"token": token, "seats": seats, "client": client,
            "move": {"kind": type(move).__name__, "body": move.model_dump()}}


def _act_args(kind: str, token: str | None, seats: list[int] | None, action: str | None,
              client: str) -> dict[str, Any]:
    """A game action's arguments as they travel to the game's owner."""
    return {"kind": kind, "token": token, "seats": seats, "action": action, "client": client}


SEAT_LISTS = ("", "0", "1", "0,1")
"""The seat lists a page may hold, as :func:`_seat_key` writes them: a spectator's, each
seat's, both seats' (one screen)."""


def _seat_key(seats: list[int] | tuple[int, ...]) -> str:
    return ",".join(str(s) for s in sorted(seats))


class SharedPresence(Presence):
    """The open pages of this replica, and the seats other replicas' pages hold
    (``remote``: game id to whether each seat has a page open elsewhere)."""

    def __init__(self, settled: Callable[[str], None]) -> None:
        super().__init__(settled)
        self.remote: dict[str, list[bool]] = {}
        self.share: WatcherShare | None = None
        """The spectators of the other replicas (:mod:`lifearena.web.watcher_share`)."""

    def present(self, game_id: str) -> list[bool]:
        here = super().present(game_id)
        there = self.remote.get(game_id, [False, False])
        return [a or b for a, b in zip(here, there, strict=True)]

    def watchers(self, game_id: str) -> int:
        """This replica's spectators of ``game_id`` and the others'."""
        elsewhere = 0 if self.share is None else self.share.elsewhere(game_id)
        return self.spectators(game_id) + elsewhere

    def listed_games(self) -> set[str]:
        """The games open here, and those other replicas' spectators watch."""
        elsewhere = set() if self.share is None else self.share.watched_elsewhere()
        return set(self.open_games()) | elsewhere


@dataclass
class ReplicatedRooms(Rooms):
    """The rooms of one replica among several (see the module): ``broker`` is shared with
    the others, ``replica`` names this one. :meth:`join` starts the lease keeper, the
    forwarding and the sweep; :meth:`leave` gives the leases up."""

    broker: Broker | None = None
    replica: str = ""
    keeper: LeaseKeeper | None = None
    pending: dict[str, asyncio.Future[dict[str, Any]]] = field(default_factory=dict)
    """Forwarded calls waiting for their answer, by request id."""
    relays: set[str] = field(default_factory=set)
    """The games with pages here, whose channel ``game:{id}`` this replica's subscription
    reads."""

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.broker is None or not self.replica:
            raise ValueError("replicated rooms need a broker and a replica name")
        self.presence = SharedPresence(self._presence_settled)
        self.keeper = LeaseKeeper(self.broker, self.replica, LEASE_TTL_S, on_lost=self._lost)
        self._outgoing: asyncio.Queue[tuple[str, dict[str, Any]]] | None = None
        self._ids = itertools.count()
        self._ready: asyncio.Event | None = None
        self._sweeping = asyncio.Lock()
        self._sweeps = 0
        self._marked: dict[str, set[str]] = {}
        """The seat lists marked as held by this replica's pages, by game id."""
        self._subscription: Subscription | None = None
        self._claiming: dict[str, asyncio.Task[None]] = {}
        self._unseated: dict[str, dict[int, str]] = {}
        """The seats of games just made here, written by :meth:`_claim_new`."""
        self._own_tasks: list[asyncio.Task[None]] = []
        self._answers: collections.OrderedDict[str, asyncio.Future[dict[str, Any]]] = \
            collections.OrderedDict()
        """The forwarded calls run here lately, by request id: their reply once sent."""
        self._copies: collections.OrderedDict[str, tuple[str, LiveGame]] = \
            collections.OrderedDict()
        """Games read from the store here, by id: (the row's stamp, the game rebuilt)."""
        self._listened: dict[str, set[str]] = {}
        """Owned games with pages on other replicas, by id: the seat lists (as
        :func:`_seat_key` writes them) those pages hold, learnt at each sweep."""
        self._verified: dict[str, int] = {}
        """Owned games whose stored fencing token was seen no larger than their lease's
        since the last gap in the subscription, by id: that lease's token."""

    @property
    def _broker(self) -> Broker:
        assert self.broker is not None
        return self.broker

    @property
    def _keeper(self) -> LeaseKeeper:
        assert self.keeper is not None
        return self.keeper

    # -- joining and leaving ---------------------------------------------------------------

    async def join(self) -> None:
        """Start renewing leases, answering forwarded calls and sweeping (the server
        starts); returns once this replica's channels are subscribed."""
        self._ready = asyncio.Event()
        self._outgoing = asyncio.Queue()
        self._keeper.start()
        creations = SharedCreations(self._broker, self.creations.per_minute)
        creations.start()  # the creation quota counted site-wide
        self.creations.shared = creations
        presence = self.presence
        assert isinstance(presence, SharedPresence)
        presence.share = WatcherShare(self._broker, self.replica, presence=presence)
        await presence.share.start()  # and the spectators
        self._own_tasks = [self._spawn(work) for work in (
            self._listen(), self._publish_in_order(), self._sweep_often())]
        await asyncio.wait_for(self._ready.wait(), 10)

    async def leave(self) -> None:
        """Give every lease up, so the other replicas take the games over at once (the
        server stops); the games' clocks keep running there."""
        for task in self._own_tasks:
            task.cancel()  # first: no sweep takes a game again once the leases are given up
        if isinstance(self.creations.shared, SharedCreations):
            await self.creations.shared.stop()
        if isinstance(self.presence, SharedPresence) and self.presence.share is not None:
            await self.presence.share.stop()
        with contextlib.suppress(BrokerUnavailable):
            await self._keeper.stop(release=True)
        await self._broker.close()

    def _spawn(self, work: Any) -> asyncio.Task[None]:
        task: asyncio.Task[None] = asyncio.get_running_loop().create_task(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return task

    # -- ownership ---------------------------------------------------------------------------

    def owns(self, game_id: str) -> bool:
        """Whether this replica holds ``game_id``'s lease now."""
        return self._keeper.token(game_id) is not None

    async def _take(self, game_id: str, fence: int) -> bool:
        """Take ``game_id``'s lease if it is free (above the stored ``fence``) and load the
        game; whether this replica owns it now."""
        if self.owns(game_id):
            return True
        try:
            token = await self._keeper.claim(game_id, after=fence)
        except BrokerUnavailable:
            return False
        if token is None:
            return False
        # the store first: from now on the late writes of an earlier owner are refused
        if not await self.stored(self.store.take_fence, game_id, token):
            await self._keeper.release(game_id)
            return False
        self._forget(game_id)  # any copy held from an earlier ownership is stale
        self._verified[game_id] = token
        try:
            await super().game(game_id)  # loaded: its clock and its agent run here now
        except Exception:
            await self._keeper.release(game_id)
            raise
        return True

    async def _still_owns(self, game_id: str) -> bool:
        """Whether this replica holds ``game_id``'s lease and no larger fencing token wrote
        the game since (else it lost the lease without noticing yet: the game is dropped
        here, so that no answer comes from a stale copy).

        The store is asked once a lease, and again after each gap in this replica's
        subscription (Redis went away: had it restarted empty, another replica may have
        taken the lease before the next renewal tells this one). In between the lease
        keeper is trusted: a lease lost otherwise is noticed at its next renewal, within
        :data:`LEASE_TTL_S` / 3, and every write is fenced anyway (a stale owner's is
        refused and the game dropped)."""
        token = self._keeper.token(game_id)
        if token is None:
            return False
        if self._verified.get(game_id) == token:
            return True
        stored = await self.stored(self.store.fence_of, game_id) or 0
        if self._keeper.token(game_id) != token:  # the lease changed while the store answered
            return await self._still_owns(game_id)
        if stored <= token:
            self._verified[game_id] = token
            return True
        self._forget(game_id)
        await self._keeper.release(game_id)
        return False

    async def _overtaken(self, game_id: str) -> bool:
        """Whether a larger fencing token than this replica's wrote ``game_id`` (asked of
        the store when a change was refused here: a copy kept after a lease lost unawares
        would refuse what the current game allows); if so the game is dropped here."""
        token = self._keeper.token(game_id)
        if token is not None and (self.store.fence_of(game_id) or 0) <= token:
            return False
        self._forget(game_id)
        await self._keeper.release(game_id)
        return True

    def _forget(self, game_id: str) -> None:
        self._verified.pop(game_id, None)
        live = self.games.pop(game_id, None)
        self.cache.locks.pop(game_id, None)
        timer = self.clocks.timers.pop(game_id, None)
        if timer is not None:
            timer.cancel()
        if live is not None and live.thinking:
            self.turns.cancel(game_id)

    async def _lost(self, game_id: str) -> None:
        log.warning("replica %s lost the lease of game %s", self.replica, game_id)
        self._forget(game_id)

    def _loaded(self, live: LiveGame) -> None:
        token = self._keeper.token(live.row.id)
        live.row.fence = token or 0  # every write of the owner carries its token
        super()._loaded(live)

    def start(self, live: LiveGame, token: str, side: int | None, address: str,
              *others: str, holders: dict[int, str] | None = None) -> dict[str, Any]:
        """A game made here (see :meth:`Rooms.start`); its lease is taken at once (a new
        id nobody else knows yet: it is free), and its writes carry the token."""
        game_id = live.row.id
        try:
            answer = super().start(live, token, side, address, *others, holders=holders)
        except BaseException:
            self._unseated.pop(game_id, None)
            raise
        self._claiming[game_id] = self._spawn(self._claim_new(live))
        self._claiming[game_id].add_done_callback(
            lambda _: self._claiming.pop(game_id, None))
        return answer

    def seat_new(self, live: LiveGame, holders: dict[int, str]) -> None:
        """The seats of a game made here are written by :meth:`_claim_new`, in a worker
        thread, rather than on the event loop (a database server's round trips); every
        change and read of the game here waits for it."""
        if self.store.embedded or self.players is None or not holders:
            super().seat_new(live, holders)
        else:
            self._unseated[live.row.id] = dict(holders)

    async def _claim_new(self, live: LiveGame) -> None:
        game_id = live.row.id
        holders = self._unseated.pop(game_id, None)
        if holders:  # before the lease: a replica that takes the game finds its seats
            try:
                await self.stored(self.seats.record, live, holders)
                self.seats.announce(live, holders)
            except Exception:  # the game stands; its seats name nobody (logged)
                log.exception("the seats of game %s were not written", game_id)
        try:
            token = await self._keeper.claim(game_id)
        except BrokerUnavailable:
            token = None
        if token is None or not await self.stored(self.store.take_fence, game_id, token):
            self._forget(game_id)  # taken by another replica first (or no broker)
            return
        self._verified[game_id] = token
        if self.games.get(game_id) is live:
            live.row.fence = token

    @contextlib.asynccontextmanager
    async def _owned(self, game_id: str, client: str) -> AsyncIterator[LiveGame]:
        claiming = self._claiming.get(game_id)
        if claiming is not None:  # a game just made here: its lease is on its way
            await asyncio.shield(claiming)
        if not self.owns(game_id):
            raise NotOwner(f"game {game_id!r} is not owned by replica {self.replica}")
        async with self.cache.locked(game_id, client) as live:
            yield live

    def locked(self, game_id: str, client: str = "server"
               ) -> contextlib.AbstractAsyncContextManager[LiveGame]:
        """The game under its lock, only where this replica owns it (:class:`NotOwner`)."""
        return self._owned(game_id, client)

    def may_abort(self, game_id: str) -> bool:
        """Only the owner aborts an abandoned game (the others leave it to the owner)."""
        return self.owns(game_id)

    async def load_clocked(self) -> None:
        """Nothing at start: the sweep takes the running games whose lease is free."""

    # -- reads -----------------------------------------------------------------------------

    async def game(self, game_id: str, client: str = "server") -> LiveGame:
        """The game: the owner's copy here, else (a game in progress whose lease is free)
        taken over, else a copy read from the store for this request. An owner whose
        lease was taken over before it noticed (a Redis restart) sees a larger fence in
        the store and answers from the store too."""
        claiming = self._claiming.get(game_id)
        if claiming is not None:  # a game just made here: its seats and lease on their way
            await asyncio.shield(claiming)
        if await self._still_owns(game_id):
            return await super().game(game_id, client)
        copy = await self.read_copy(game_id, client)
        if not (copy.over or copy.row.cancelled) and await self._take(game_id, copy.row.fence):
            return await super().game(game_id, client)
        return copy

    async def read_copy(self, game_id: str, client: str = "server") -> LiveGame:
        """``game_id`` as stored now (no clock or agent runs on it). The row is read on
        every call; the game is rebuilt only when the row changed since the last read here
        (:data:`READ_COPIES` copies kept), and a long game is rebuilt in a slow-work worker
        under ``client``'s bound, as the owner loads one: readers of another replica's long
        game never replay it on the event loop, request after request."""
        if not valid_id(game_id):
            raise NotFound(f"no game {game_id[:40]!r}")
        row = await self.stored(self.store.get, game_id)
        if row is None:
            raise NotFound(f"no game {game_id!r}")
        stamp = repr(row)  # every stored field: any change makes a new copy
        kept = self._copies.get(game_id)
        if kept is not None and kept[0] == stamp:
            live = kept[1]
            self._copies.move_to_end(game_id)
        else:
            live = (rebuild(row) if len(row.moves) <= LOOP_REPLAY_MOVES
                    else await self.heavy.run(client, rebuild, row))
            await self.stored(self.seats.load_people, live)  # they change with its row
            self._copies[game_id] = (stamp, live)
            while len(self._copies) > READ_COPIES:
                self._copies.popitem(last=False)
        live.now = self.settings.now
        live.connected = self.presence.present(game_id)
        return live

    def stored_fence(self, game_id: str) -> int:
        """The fencing token stored with ``game_id`` (:class:`NotFound` for none)."""
        if not valid_id(game_id):
            raise NotFound(f"no game {game_id[:40]!r}")
        fence = self.store.fence_of(game_id)
        if fence is None:
            raise NotFound(f"no game {game_id!r}")
        return fence

    # -- changes: here, or at the owner --------------------------------------------------------

    async def move(self, game_id: str, token: str | None, seats: list[int] | None,
                   move: Move | MoveMessage, client: str = "server") -> LiveGame:
        """:meth:`Rooms.move` where the game's owner is (here or forwarded)."""
        return await self._call(  # type: ignore[no-any-return]
            game_id, "move", _move_args(token, seats, move, client))

    async def act(self, game_id: str, kind: str, token: str | None, seats: list[int] | None,
                  action: str | None = None, client: str = "server") -> LiveGame:
        """:meth:`Rooms.act` where the game's owner is (here or forwarded)."""
        return await self._call(  # type: ignore[no-any-return]
            game_id, "act", _act_args(kind, token, seats, action, client))

    async def heard(self, game_id: str, seats: list[int], message: MoveMessage | GameAction,
                    client: str = "server") -> None:
        """:meth:`Rooms.heard` where the game's owner is: a forwarded one is not read back
        from the store (the socket's page hears the change through the owner's views)."""
        if isinstance(message, MoveMessage):
            await self._call(game_id, "move", _move_args(None, seats, message, client),
                             answered=False)
        else:
            await self._call(game_id, "act", _act_args(
                message.type, None, seats, getattr(message, "action", None), client),
                answered=False)

    async def claim(self, game_id: str, invitation: str, holder: str | None,
                    client: str = "server", player: Player | None = None) -> dict[str, Any]:
        """:meth:`Rooms.claim` where the game's owner is (here or forwarded; the player
        travels by id)."""
        args = {"invitation": invitation, "holder": holder, "client": client,
                "player": None if player is None else player.id}
        return await self._call(game_id, "claim", args)  # type: ignore[no-any-return]

    async def _here(self, game_id: str, method: str, args: dict[str, Any]) -> Any:
        """Run ``method`` of the plain rooms on a game this replica owns."""
        if method == "move":
            body = args["move"]
            kind = MoveMessage if body["kind"] == "MoveMessage" else Move
            return await Rooms.move(self, game_id, args["token"], args["seats"],
                                    kind.model_validate(body["body"]), args["client"])
        if method == "act":
            return await Rooms.act(self, game_id, args["kind"], args["token"], args["seats"],
                                   args["action"], args["client"])
        if method == "claim":
            player = (None if args["player"] is None or self.players is None
                      else await self.stored(self.players.get, args["player"]))
            return await Rooms.claim(self, game_id, args["invitation"], args["holder"],
                                     args["client"], player)
        raise NotOwner(f"unknown forwarded call {method!r}")

    async def _call(self, game_id: str, method: str, args: dict[str, Any],
                    answered: bool = True) -> Any:
        """``method`` on ``game_id`` where its owner is: here (taking a free lease), or
        forwarded; a LiveGame answer is the game as stored after the change (read from the
        store only where ``answered``)."""
        if not valid_id(game_id):
            raise NotFound(f"no game {game_id[:40]!r}")
        request = f"{self.replica}/{next(self._ids)}/{secrets.token_hex(4)}"
        loop = asyncio.get_running_loop()
        deadline = loop.time() + CALL_DEADLINE_S
        while True:
            here = await self._still_owns(game_id)
            if not here:
                try:  # the owner first (one Redis read): the store is read only to take
                    owner = await self._broker.owner_of(self._keeper.key(game_id))
                    if owner is not None and owner != self.replica:
                        answer = await self._forward(owner, game_id, method, args,
                                                     request)
                        if answer is None and answered:
                            return await self.read_copy(game_id)
                        return answer
                    if owner is None:  # free: take it, above the stored fence
                        here = await self._take(game_id, self.stored_fence(game_id))
                except (TimeoutError, BrokerUnavailable, NotOwner):
                    pass  # the owner is gone or lost it: look again
            if here:
                try:
                    return await self._here(game_id, method, args)
                except (FencedOut, NotOwner):
                    self._forget(game_id)  # another replica owns it now: ask it
                    await self._keeper.release(game_id)
                except LifeArenaError:
                    if not await self._overtaken(game_id):
                        raise  # the game's own refusal, from its current copy
            if loop.time() > deadline:
                raise OwnerUnavailable(f"game {game_id!r}: no replica can act on it now; "
                                       "try again in a few seconds")
            await asyncio.sleep(0.1)

    async def _forward(self, owner: str, game_id: str, method: str, args: dict[str, Any],
                       request: str) -> Any:
        """Ask ``owner`` to run ``method``; ``request`` names the call, the same each time
        it is asked again, so that an owner that ran it already answers what it answered
        then instead of running it twice."""
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.pending[request] = future
        try:
            await self._broker.publish(f"replica:{owner}", {
                "request": request, "asker": self.replica, "game": game_id,
                "method": method, "args": args})
            answer = await asyncio.wait_for(future, FORWARD_TIMEOUT_S)
        finally:
            self.pending.pop(request, None)
        if "error" in answer:
            raise remote_error(answer["error"], answer.get("message", ""))
        return answer.get("value")

    async def _answer(self, data: dict[str, Any]) -> None:
        """Run a forwarded call (if this replica owns the game) and answer the asker. A
        call asked again (its answer was late) is not run again: the answer it had is sent
        again, or, while it still runs, the answer it will have."""
        asker, game_id = str(data.get("asker")), str(data.get("game"))
        request = str(data.get("request"))
        known = self._answers.get(request)
        if known is not None:
            if known.done():
                with contextlib.suppress(BrokerUnavailable):
                    await self._broker.publish(f"reply:{asker}", known.result())
            return
        answered: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._answers[request] = answered
        while len(self._answers) > ANSWERS_KEPT:
            self._answers.popitem(last=False)
        try:
            reply = await self._reply(game_id, data)
        except BaseException:
            self._answers.pop(request, None)
            raise
        if reply.get("error") == "NotOwner":
            self._answers.pop(request, None)  # not run here: asked again, it runs afresh
        else:
            answered.set_result(reply)
        with contextlib.suppress(BrokerUnavailable):
            await self._broker.publish(f"reply:{asker}", reply)

    async def _reply(self, game_id: str, data: dict[str, Any]) -> dict[str, Any]:
        """Run a forwarded call here: the reply to send its asker."""
        reply: dict[str, Any] = {"request": data.get("request")}
        try:
            if not await self._still_owns(game_id):
                raise NotOwner(f"game {game_id!r} is not owned by replica {self.replica}")
            value = await self._here(game_id, str(data.get("method")), dict(data["args"]))
            reply["value"] = None if isinstance(value, LiveGame) else value
        except FencedOut as error:
            self._forget(game_id)
            reply.update(error="NotOwner", message=str(error))
        except LifeArenaError as error:
            if not isinstance(error, NotOwner) and await self._overtaken(game_id):
                reply.update(error="NotOwner", message=f"game {game_id!r} moved on")
            else:
                reply.update(error=type(error).__name__, message=str(error))
        except Exception as error:  # the asker answers 400 rather than wait in vain
            log.exception("a forwarded %s of game %s failed", data.get("method"), game_id)
            reply.update(error="RemoteError", message=str(error).splitlines()[0][:200])
        return reply

    async def _listen(self) -> None:
        """Read this replica's requests and replies, and the views of the games with pages
        here, on one subscription (resubscribing after a failure: the relayed games are then
        read from the store again)."""
        assert self._ready is not None
        while True:
            channels = [f"replica:{self.replica}", f"reply:{self.replica}",
                        *(f"game:{game_id}" for game_id in self.relays)]
            try:
                async with self._broker.subscribe(channels) as subscription:
                    self._subscription = subscription
                    late = [f"game:{game_id}" for game_id in self.relays
                            if f"game:{game_id}" not in channels]
                    if late:  # pages opened while it was being made: they join now
                        await subscription.add(late)
                    self._ready.set()
                    for game_id in channels[2:]:  # what was published before is missed
                        self._spawn(self._resync(game_id.removeprefix("game:")))
                    async for message in subscription:
                        self._received(message)
            except asyncio.CancelledError:
                raise
            except Exception as error:
                log.warning("replica %s: its channels failed (%s); again", self.replica, error)
            finally:
                self._subscription = None
            await asyncio.sleep(0.5)

    def _received(self, message: Message) -> None:
        data, channel = message.data, message.channel
        if channel.startswith("game:"):
            game_id = channel.removeprefix("game:")
            if game_id not in self.relays:
                return  # its last page here closed
            if message.gap or message.joined:  # a view may have been missed: read the store
                self._spawn(self._resync(game_id))
            elif data.get("from") != self.replica:
                self._hand_on(game_id, data)
            return
        if message.gap:  # Redis went away: were the leases kept? (they are gone if it
            self._verified.clear()  # restarted empty, as are the page marks)
            self._sweeps = 0  # the next sweep marks every page again
            self._spawn(self._renew_now())
            return
        if not data:
            return
        if channel.startswith("reply:"):
            future = self.pending.get(str(data.get("request")))
            if future is not None and not future.done():
                future.set_result(data)
        else:
            self._spawn(self._answer(data))

    async def _renew_now(self) -> None:
        with contextlib.suppress(BrokerUnavailable):
            await self._keeper.renew_all()

    # -- pages on every replica ----------------------------------------------------------------

    def broadcast(self, live: LiveGame) -> None:
        """Tell this replica's pages (as :meth:`Rooms.broadcast`) and publish every seat
        list's view on ``game:{id}`` for the other replicas' pages. A game whose lease
        was lost (a late timer, an agent's search ending after the loss) is not told: its
        copy here may hold a change the store refused, and the game's books (its end, its
        ratings) are the new owner's."""
        if not self.owns(live.row.id) or self.games.get(live.row.id) is not live:
            return
        super().broadcast(live)
        self._publish_views(live, sorted(self._listened.get(live.row.id, set())))

    def _publish_views(self, live: LiveGame, keys: list[str]) -> None:
        """Publish ``live``'s view for each seat list of ``keys`` (as :func:`_seat_key`
        writes them) on ``game:{id}``, in order."""
        if self._outgoing is None:
            return
        for key in keys:
            seats = [int(seat) for seat in key.split(",") if seat]
            self._outgoing.put_nowait((f"game:{live.row.id}", {
                "from": self.replica, "seats": seats, "text": live.view_text(seats)}))

    async def _publish_in_order(self) -> None:
        assert self._outgoing is not None
        while True:
            channel, message = await self._outgoing.get()
            try:
                await self._broker.publish(channel, message)
            except BrokerUnavailable as error:  # the pages resync after the gap
                log.warning("publishing on %s: %s", channel, error)

    def open_page(self, live: LiveGame, page: Page, seats: list[int]) -> None:
        """A page opened here (see :meth:`Rooms.open_page`): it hears the owner's views
        through ``game:{id}``, which this replica's subscription takes for as long as the
        game has pages here."""
        super().open_page(live, page, seats)
        game_id = live.row.id
        if game_id not in self.relays:
            self.relays.add(game_id)
            self._spawn(self._follow(game_id))
        self._spawn(self._mark_pages(game_id))

    def close_page(self, game_id: str, page: Page) -> None:
        """A page closed here: the last one of a game lets its channel go."""
        super().close_page(game_id, page)
        if not self.presence.watched(game_id) and game_id in self.relays:
            self.relays.discard(game_id)
            self._spawn(self._follow(game_id))
        self._spawn(self._mark_pages(game_id))

    async def _follow(self, game_id: str) -> None:
        """Add ``game:{id}`` to this replica's subscription while the game has pages here
        (its confirmation makes them read the store), else let it go; with no subscription
        open, the next one takes every relayed game's channel."""
        subscription = self._subscription
        if subscription is None:
            return
        with contextlib.suppress(BrokerUnavailable):
            if game_id in self.relays:
                await subscription.add([f"game:{game_id}"])
            else:
                await subscription.remove([f"game:{game_id}"])

    def _hand_on(self, game_id: str, data: dict[str, Any]) -> None:
        """Offer a view to the pages here holding exactly its seats."""
        key, text = _seat_key(list(data.get("seats") or [])), str(data.get("text"))
        for page, seats in list(self.presence.audience(game_id).items()):
            if _seat_key(seats) == key:
                page.offer(text)

    async def _resync(self, game_id: str) -> None:
        """Offer every page here the game as stored now."""
        if self.owns(game_id):
            return  # the owner's pages were told of every change
        try:
            live = await self.read_copy(game_id)
        except (NotFound, DamagedRow, TooBusy):
            return
        self.transport.tell(self.presence.audience(game_id), live.view_text)

    def _page_marks(self, game_id: str, refresh: bool = False) -> list[tuple[str, str, bool]]:
        """What changed in the seat lists this replica's pages of ``game_id`` hold (a
        spectator's, each seat's, both seats'), as
        :meth:`~lifearena.web.broker.Broker.mark_all` takes it: the lists newly held (all
        held ones where ``refresh``: their marks expire) and those no longer held."""
        held = {_seat_key(seats) for seats in self.presence.audience(game_id).values()}
        before = self._marked.pop(game_id, set())
        if held:
            self._marked[game_id] = held
        key = f"pages:{game_id}"
        return [*((key, f"{self.replica}:{seats}", True) for seats in sorted(held)
                  if refresh or seats not in before),
                *((key, f"{self.replica}:{seats}", False) for seats in sorted(before - held))]

    async def _mark_pages(self, game_id: str) -> None:
        with contextlib.suppress(BrokerUnavailable):
            await self._broker.mark_all(self._page_marks(game_id), PAGES_TTL_S)

    def _others_pages(self, game_id: str, members: set[str]) -> None:
        """Learn the seat lists other replicas' pages of an owned game hold (``members``:
        its set ``pages:{id}``): the views :meth:`broadcast` publishes, and who is present.
        A seat list heard of for the first time is sent the game's view at once (a move
        made since its page opened there was not published for it)."""
        lists = {key for replica, _, key in (m.rpartition(":") for m in members)
                 if replica != self.replica and key in SEAT_LISTS}
        new = lists - self._listened.get(game_id, set())
        self._listened[game_id] = lists
        live = self.games.get(game_id)
        told = None if live is None else list(live.told)
        there = [any(str(seat) in key.split(",") for key in lists) for seat in (0, 1)]
        presence = self.presence
        assert isinstance(presence, SharedPresence)
        if presence.remote.get(game_id, [False, False]) != there:
            presence.remote[game_id] = there
            self._presence_settled(game_id)  # a change of who is here: every view told
        if new and live is not None and live.told == told:  # nothing was told: the new
            self._publish_views(live, sorted(new))

    # -- failover ------------------------------------------------------------------------------

    async def sweep(self) -> list[str]:
        """Take the games in progress whose lease is free (their owner died or left) and
        that something must run (a clock, an agent) or that a page here shows; renew the
        marks of this replica's pages and learn the others'. Answers the games taken
        (one sweep at a time)."""
        async with self._sweeping:
            return await self._sweep()

    async def _sweep(self) -> list[str]:
        taken = []
        running = await self.stored(self.store.running)
        others = [game_id for game_id in dict.fromkeys([*running, *self.presence.open_games()])
                  if not self.owns(game_id)]
        owners = await self._broker.owners_of([self._keeper.key(g) for g in others])
        for game_id, owner in zip(others, owners, strict=True):
            if owner is not None:
                continue
            try:
                copy = await self.read_copy(game_id)  # a game with pages here: if played
                if copy.over or copy.row.cancelled:
                    continue
                if await self._take(game_id, copy.row.fence):
                    taken.append(game_id)
            except (NotFound, DamagedRow, TooBusy):
                continue
        self._sweeps += 1  # the marks live PAGES_TTL_S: renewed every MARK_EVERY sweeps
        refresh = self._sweeps % MARK_EVERY == 1
        games = {*self.presence.open_games(), *self._marked}
        await self._broker.mark_all([mark for game_id in games
                                     for mark in self._page_marks(game_id, refresh)],
                                    PAGES_TTL_S)
        held = list(self._keeper.held)
        for game_id, members in zip(held, await self._broker.members_of(
                [f"pages:{game_id}" for game_id in held]), strict=True):
            self._others_pages(game_id, members)
        for known in (self._verified, self._listened):
            for game_id in [g for g in known if g not in self._keeper.held]:
                del known[game_id]  # a game no longer owned (over, given up)
        return taken

    async def _sweep_often(self) -> None:
        while True:
            try:
                taken = await self.sweep()
                if taken:
                    log.info("replica %s took over games %s", self.replica, taken)
            except asyncio.CancelledError:
                raise
            except BrokerUnavailable as error:
                log.warning("replica %s: sweep: %s", self.replica, error)
            except Exception:
                log.exception("replica %s: the sweep failed", self.replica)
            await asyncio.sleep(SWEEP_S)
