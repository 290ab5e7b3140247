"""Quick pairing on the server: the pools' routes and the task that pairs their seekers
(:mod:`lifearena.web.pools` holds the rules; this module holds the timing and the games).

* ``GET /api/pools``: the presets (``1+0``, ``3+2``, ``5+3``, ``10+5``, ``1d``,
  ``unlimited``) and how many wait in each pool (by game, preset and kind).
* ``POST /api/pools/{game}/{preset}/join`` ``{"kind": "people"|"bots", "rated": bool}``: the
  request's player waits in that pool (a rated pool needs an account; the bots' pool a bot
  account, the people's pool no bot), at its rating in that game. A seeker that neither joins
  again nor asks ``GET /api/pools/me`` for :data:`SEEK_FOR` seconds is taken out (a closed
  page or a stopped bot is never paired).
* ``POST /api/pools/leave``: stop waiting anywhere.
* ``GET /api/pools/me``: where the player waits and, once paired, its new game
  (``{"paired": {"id", "link", "game", "preset", "rated"}}``, told for :data:`TOLD_FOR` s).
  With ``?wait=N`` (up to :data:`LONGEST_WAIT` seconds) a waiting player's request is
  answered when it is paired or leaves the pools, or after N seconds: one request per
  pairing instead of one a second (a waiting request keeps its seek alive too).
  A bot learns of it from its event stream too (the game starts like any other).

Every :data:`PAIR_EVERY` seconds :class:`PoolRoom` pairs every pool and starts each pairing's
game, both seats held by their players (an online game with the preset's clock, made by
:meth:`~lifearena.web.rooms.Rooms.start_seated`, under the same bounds as any game). It keeps
the times seekers waited and the time each pairing round took, for the benchmarks.
Replicas of one site (``serve --broker``) keep copies of one another's seekers and only
one of them pairs (:mod:`lifearena.web.pool_share`).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import threading
import time
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal, Protocol

from fastapi import APIRouter, Query, Request, Response
from pydantic import Field

from lifearena.errors import BadParameterError, LifeArenaError
from lifearena.web import catalog
from lifearena.web.heavy import client_of
from lifearena.web.limits import address_key
from lifearena.web.models import Declared
from lifearena.web.players import BOT, Player
from lifearena.web.pools import PRESETS, Pairing, PoolKey, Pools, Seeker, preset
from lifearena.web.refusals import SeatError
from lifearena.web.stopping import cancel_and_wait

log = logging.getLogger("lifearena.web")


class SeekShare(Protocol):
    """The link to the other replicas' pools that a :class:`PoolRoom` tells of its seekers
    and pairings (:class:`lifearena.web.pool_share.PoolShare`: it imports this module, so
    this one names only what it calls)."""

    def joined(self, key: PoolKey, seeker: Seeker) -> None: ...

    def left(self, player: str) -> None: ...

    def alive(self, player: str) -> None: ...

    def paired(self, pairing: Pairing, game: dict[str, Any]) -> None: ...

    async def leads(self) -> bool: ...

    async def stop(self) -> None: ...

PAIR_EVERY = 0.5
"""Seconds between pairing rounds."""
SEEK_FOR = 30.0
"""Seconds a seeker stays in its pools without joining again or asking where it stands."""
TOLD_FOR = 120.0
"""Seconds a player's new game from a pool is told to ``GET /api/pools/me``."""
LONGEST_WAIT = 25.0
"""Most seconds ``GET /api/pools/me?wait=`` holds a request (less than :data:`SEEK_FOR`: the
next request keeps the seek alive)."""
WAITERS_PER_PLAYER = 4
"""Waiting requests one player may hold (its tabs); past it a request is answered at once."""
KEPT_TIMES = 10_000
"""Waits and rounds kept for the figures (the newest)."""


class JoinPool(Declared):
    """``POST /api/pools/{game}/{preset}/join``: wait in a pool."""

    kind: Literal["people", "bots"] = Field("people", description="the people's pool or "
                                                                   "the bots'")
    rated: bool = Field(False, description="rated (accounts only) or casual")


class LeavePools(Declared):
    """``POST /api/pools/leave``: stop waiting in every pool."""


@dataclass
class PoolRoom:
    """The pools of one server and the games their pairings start."""

    server: Any
    pools: Pools = field(default_factory=Pools)
    clock: Any = time.monotonic
    seen: dict[str, float] = field(default_factory=dict)
    """When each waiting player last joined or asked (it leaves :data:`SEEK_FOR` later)."""
    paired: dict[str, tuple[float, dict[str, Any]]] = field(default_factory=dict)
    """Each lately paired player's new game, and when it was made."""
    waits: collections.deque[float] = field(
        default_factory=lambda: collections.deque(maxlen=KEPT_TIMES))
    """Seconds each paired seeker waited."""
    rounds: collections.deque[float] = field(
        default_factory=lambda: collections.deque(maxlen=KEPT_TIMES))
    """Seconds each pairing round took (pairing and starting its games)."""
    waiters: dict[str, list[tuple[asyncio.AbstractEventLoop, asyncio.Event]]] = field(
        default_factory=dict)
    """The requests waiting for news of each player (:meth:`wait`)."""
    starting: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Players paired whose game is about to be made, and the pool each was paired from
    (still seeking, as their pages see it)."""
    share: SeekShare | None = None
    """The link to the other replicas' pools (:mod:`lifearena.web.pool_share`); None for
    a single server."""
    _tasks: dict[asyncio.AbstractEventLoop, asyncio.Task[None]] = field(default_factory=dict)
    _round: threading.Lock = field(default_factory=threading.Lock)

    def join(self, player: Player, address: str, game: str, key: str, kind: str,
             rated: bool) -> dict[str, Any]:
        """Put ``player`` (from ``address``) in the pool of ``game`` and preset ``key``."""
        if game not in catalog.GAMES:
            raise BadParameterError(f"game {game[:40]!r}; expected one of "
                                    f"{', '.join(catalog.GAMES)}")
        preset(key)
        if rated and not player.has_account:
            raise SeatError("rated pools need an account: sign up or log in, or seek a "
                            "casual game")
        if kind == "bots" and player.kind != BOT:
            raise SeatError("the bots' pool is for bot accounts")
        if kind == "people" and player.kind == BOT:
            raise SeatError("bots wait in the bots' pool (kind 'bots')")
        if self.server.settings.rated_within_address:
            address = player.id  # a club's site: its members all share one address
        rating = self.server.players.rating(player.id, game).rating
        now = self.clock()
        seeker = Seeker(player.id, rating.rating, rating.deviation, rated, address, now,
                        kind == "bots")
        self.pools.join(game, key, kind, seeker)
        self.seen[player.id] = now
        self.paired.pop(player.id, None)
        if self.share is not None:
            self.share.joined(PoolKey(game, key, kind), seeker)
        return self.where(player)

    # -- what other replicas tell (lifearena.web.pool_share) ---------------------------------

    def adopt(self, game: str, key: str, kind: str, seeker: Seeker) -> None:
        """A seeker joined on another replica: it waits here too."""
        try:
            self.pools.join(game, key, kind, seeker)
        except LifeArenaError as error:  # a bound reached here first: it waits there only
            log.info("a seeker from another replica not kept: %s", error)
            return
        self.seen[seeker.player] = self.clock()
        self.paired.pop(seeker.player, None)

    def left_elsewhere(self, player_id: str) -> None:
        """A player left the pools on another replica (or its pairing failed there)."""
        self.pools.leave_all(player_id)
        self.seen.pop(player_id, None)
        self._tell(player_id)

    def seen_elsewhere(self, players: list[str]) -> None:
        """These seekers' pages asked on another replica lately: they are still here."""
        now = self.clock()
        for player_id in players:
            if player_id in self.seen:
                self.seen[player_id] = now

    def paired_elsewhere(self, players: list[str], game: dict[str, Any]) -> None:
        """The pairer (another replica) started ``game`` for ``players``."""
        now = self.clock()
        for player_id in players:
            self.pools.leave_all(player_id)
            self.seen.pop(player_id, None)
            self.paired[player_id] = (now, game)
            self._tell(player_id)

    def leave(self, player: Player) -> dict[str, Any]:
        """Take ``player`` out of every pool."""
        self.pools.leave_all(player.id)
        self.seen.pop(player.id, None)
        self._tell(player.id)
        if self.share is not None:
            self.share.left(player.id)
        return self.where(player)

    async def wait(self, player: Player, seconds: float) -> dict[str, Any]:
        """:meth:`where`, once ``player`` is paired or waits nowhere, or after ``seconds``
        (at once when it waits nowhere now, or holds :data:`WAITERS_PER_PLAYER` such
        requests already)."""
        waiting = self.waiters.setdefault(player.id, [])
        if (player.id in self.paired or not (self.pools.pools_of(player.id)
                                             or player.id in self.starting)
                or len(waiting) >= WAITERS_PER_PLAYER or seconds <= 0):
            if not waiting:
                self.waiters.pop(player.id, None)
            return self.where(player)
        entry = (asyncio.get_running_loop(), asyncio.Event())
        waiting.append(entry)
        self.seen[player.id] = self.clock()
        if self.share is not None:
            self.share.alive(player.id)
        try:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(entry[1].wait(), min(seconds, LONGEST_WAIT))
        finally:
            waiting.remove(entry)
            if not waiting:
                self.waiters.pop(player.id, None)
        return self.where(player)

    def _tell(self, player_id: str) -> None:
        """Wake the requests waiting for news of ``player_id`` (from any thread)."""
        for loop, event in list(self.waiters.get(player_id, ())):
            with contextlib.suppress(RuntimeError):  # a loop already closed
                loop.call_soon_threadsafe(event.set)

    def where(self, player: Player) -> dict[str, Any]:
        """Where ``player`` waits, and its new game once paired."""
        if self.pools.pools_of(player.id):
            self.seen[player.id] = self.clock()
            if self.share is not None:
                self.share.alive(player.id)
        told = self.paired.get(player.id)
        seeking = [key._asdict() for key in self.pools.pools_of(player.id)]
        if player.id in self.starting:
            seeking.append(self.starting[player.id])
        return {"seeking": seeking, "paired": None if told is None else told[1]}

    def listing(self) -> dict[str, Any]:
        """The presets and how many wait in each pool."""
        counts = [{**key._asdict(), "waiting": count}
                  for key, count in self.pools.counts().items() if count]
        return {"presets": [{"key": p.key, "label": p.label, "speed": p.speed,
                             "clock": p.clock} for p in PRESETS],
                "waiting": counts}

    def pair_round(self) -> list[dict[str, Any]]:
        """Drop the seekers gone quiet, pair every pool and start the pairings' games."""
        with self._round:  # one round at a time (tests serve one app from two loops)
            started, now = time.perf_counter(), self.clock()
            games = [game for pairing in self._pairings(now)
                     if (game := self._started(pairing, now)) is not None]
            self.rounds.append(time.perf_counter() - started)
            return games

    async def pair_round_in_turns(self) -> int:
        """:meth:`pair_round`, giving the event loop back between the games it starts (a
        round that pairs fifty players does not hold every move back while it makes their
        twenty-five games); how many games it started."""
        started, now = time.perf_counter(), self.clock()
        with self._round:
            pairings = self._pairings(now)
        made = 0
        for pairing in pairings:
            await asyncio.sleep(0)
            with self._round:
                made += self._started(pairing, now) is not None
        self.rounds.append(time.perf_counter() - started)
        return made

    def _started(self, pairing: Pairing, now: float) -> dict[str, Any] | None:
        """:meth:`_start_or_log`, told to the other replicas."""
        game = self._start_or_log(pairing, now)
        if self.share is not None:
            if game is not None:
                self.share.paired(pairing, game)
            else:
                for player_id in pairing.players:
                    self.share.left(player_id)
        return game

    def _pairings(self, now: float) -> list[Pairing]:
        for player_id, last in list(self.seen.items()):
            if now - last > SEEK_FOR and not self.waiters.get(player_id):
                self.pools.leave_all(player_id)
                del self.seen[player_id]
                self._tell(player_id)
                if self.share is not None:
                    self.share.left(player_id)
        for player_id, (made, _) in list(self.paired.items()):
            if now - made > TOLD_FOR:
                del self.paired[player_id]
        pairings = self.pools.pair_all(now)
        for pairing in pairings:  # out of the pools at once: nobody is paired twice
            for seeker in (pairing.first, pairing.second):
                self.pools.leave_all(seeker.player)
                self.seen.pop(seeker.player, None)
                self.starting[seeker.player] = {
                    "game": pairing.game, "preset": pairing.preset.key,
                    "kind": "bots" if seeker.bot else "people"}
        return pairings

    def _start_or_log(self, pairing: Pairing, now: float) -> dict[str, Any] | None:
        try:
            return self._start(pairing, now)
        except LifeArenaError as error:  # a bound of one side's address: both may seek
            log.info("a pairing of %s was not started: %s", pairing.game, error)
            return None
        finally:
            for player_id in pairing.players:
                self.starting.pop(player_id, None)
                self._tell(player_id)

    def _start(self, pairing: Pairing, now: float) -> dict[str, Any]:
        first, second = pairing.first, pairing.second
        clock = None if pairing.preset.clock is None else dict(pairing.preset.clock)
        # the game's defaults, a random start drawn afresh (start_seated draws its seed)
        answer, _ = self.server.start_seated(
            pairing.game, {}, clock, 0, second.address, first.address,
            holders={0: first.player, 1: second.player}, rated=pairing.rated)
        game = {"id": answer["id"], "link": f"/play/{answer['id']}", "game": pairing.game,
                "preset": pairing.preset.key, "rated": pairing.rated}
        for seeker in (first, second):
            self.paired[seeker.player] = (now, game)
            self.waits.append(now - seeker.joined)
            self._tell(seeker.player)
        return game

    def start(self) -> None:
        """Pair every :data:`PAIR_EVERY` seconds on the running loop (one task per loop
        serving the app: tests may run two at once)."""
        loop = asyncio.get_running_loop()
        task = self._tasks.get(loop)
        if task is None or task.done():
            self._tasks[loop] = loop.create_task(self._run())

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(PAIR_EVERY)
            try:
                if self.share is not None and not await self.share.leads():
                    continue  # another replica pairs every pool
                await self.pair_round_in_turns()
            except Exception:  # the pairing task must outlive any one round
                log.exception("a pairing round failed")

    async def stop(self) -> None:
        """Stop pairing on the running loop."""
        if self.share is not None:
            await self.share.stop()
        task = self._tasks.pop(asyncio.get_running_loop(), None)
        if task is not None:
            await cancel_and_wait([task])


def router_for(server: Any, room: PoolRoom) -> APIRouter:
    """The pools' routes over ``room``."""
    router = APIRouter()

    @router.get("/api/pools")
    async def listing() -> dict[str, Any]:
        return room.listing()

    @router.post("/api/pools/leave")
    async def leave(body: LeavePools, request: Request) -> dict[str, Any]:
        player = request.app.state.identity.player_of(request)
        if player is None:
            return {"seeking": [], "paired": None}
        return room.leave(player)

    @router.get("/api/pools/me")
    async def mine(request: Request,
                   wait: Annotated[float, Query(ge=0, le=LONGEST_WAIT)] = 0) -> dict[str, Any]:
        player = request.app.state.identity.player_of(request)
        if player is None:
            return {"seeking": [], "paired": None}
        return await room.wait(player, wait)

    @router.post("/api/pools/{game}/{key}/join")
    async def join(game: str, key: str, body: JoinPool, request: Request,
                   response: Response) -> dict[str, Any]:
        identity = request.app.state.identity
        address = address_key(client_of(request.client))
        server.admit(address)  # its game will count as made from here
        player = identity.player_of(request)
        if body.rated and (player is None or not player.has_account):
            raise SeatError("rated pools need an account: sign up or log in, or seek a "
                            "casual game")
        player = identity.ensure(request, response)
        return room.join(player, address, game[:40], key[:20], body.kind, body.rated)

    return router
