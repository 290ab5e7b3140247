"""The quick-pairing pools shared by the replicas of one site
(:mod:`lifearena.web.rooms.cluster`).

Every replica keeps a copy of every pool (:class:`~lifearena.web.pool_room.PoolRoom`) and
tells the others on the broker channel :data:`CHANNEL` of each seeker that joins or leaves
there (``join``, ``leave``) and, about once a second, of the seekers whose pages asked there
lately (``alive``: a seeker whose page is on another replica is not taken for gone).

**One pairer.** Only the replica holding the broker lease :data:`LEASE` (renewed while it
lives, taken by another within its TTL once it dies) runs the pairing rounds: two seekers
joining on two replicas are paired by it, it starts their game and tells every replica
``paired`` (both players and their new game), so ``GET /api/pools/me`` answers the game
wherever the player's page is. A pairing that could not start is told as ``leave``.

**Joining late.** A replica that subscribes says ``hello``; the others answer ``seekers``,
which the newcomer adds where it does not know them. Seekers' join times travel as how
long they have waited (each replica's pairing clock is its own monotonic clock).

A single server (no broker) never makes a :class:`PoolShare`: its pools pair as before.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from lifearena.web.broker import BrokerUnavailable
from lifearena.web.channel_link import ChannelLink
from lifearena.web.pools import Pairing, PoolKey, Seeker
from lifearena.web.rooms.cluster import ReplicatedRooms

if TYPE_CHECKING:
    from lifearena.web.pool_room import PoolRoom
    from lifearena.web.rooms import Rooms

log = logging.getLogger("lifearena.web")

CHANNEL = "pools"
"""The broker channel the replicas tell each other the pools' changes on."""
LEASE = "pools"
"""The broker lease whose holder runs the pairing rounds."""
LEASE_TTL_S = 3.0
"""Seconds the pairer's lease lasts without renewal (a dead pairer's successor waits at
most this long)."""
ALIVE_EVERY_S = 1.0
"""Seconds between two ``alive`` messages of one replica."""


def seeker_record(key: PoolKey, seeker: Seeker, now: float) -> dict[str, Any]:
    """A seeker in the pool ``key`` as the replicas tell it (its wait so far, not its
    join time on this replica's clock)."""
    return {"pool": list(key), "player": seeker.player, "rating": seeker.rating,
            "deviation": seeker.deviation, "rated": seeker.rated, "address": seeker.address,
            "waited": max(0.0, now - seeker.joined), "bot": seeker.bot}


@dataclass
class PoolShare(ChannelLink):
    """One replica's link between its pools and the others' (see the module)."""

    channel: ClassVar[str] = CHANNEL
    what: ClassVar[str] = "the pools'"
    unread: ClassVar[tuple[type[Exception], ...]] = (KeyError, TypeError, ValueError,
                                                     LookupError)
    room: PoolRoom = field(kw_only=True)
    _alive: set[str] = field(default_factory=set, init=False)
    _leads: bool = field(default=False, init=False)

    # -- telling the others --------------------------------------------------------------------

    def joined(self, key: PoolKey, seeker: Seeker) -> None:
        """A seeker joined a pool here."""
        self.send({"kind": "join", "seeker": seeker_record(key, seeker, self.room.clock())})

    def left(self, player: str) -> None:
        """A player left every pool here (or was taken out: quiet, or its pairing failed)."""
        self.send({"kind": "leave", "player": player})

    def alive(self, player: str) -> None:
        """A seeker's page asked here (told with the others at the next ``alive``)."""
        self._alive.add(player)

    def paired(self, pairing: Pairing, game: dict[str, Any]) -> None:
        """The pairer started ``pairing``'s ``game``."""
        self.send({"kind": "paired", "players": list(pairing.players), "game": game})

    # -- the pairer ------------------------------------------------------------------------------

    async def leads(self) -> bool:
        """Whether this replica runs the pairing rounds now: it renews the lease it holds,
        or takes it when it is free."""
        try:
            if self._leads and await self.broker.renew(LEASE, self.replica, LEASE_TTL_S):
                return True
            self._leads = await self.broker.acquire(LEASE, self.replica,
                                                    LEASE_TTL_S) is not None
        except BrokerUnavailable as error:
            log.warning("the pools' lease: %s", error)
            self._leads = False
        return self._leads

    # -- hearing the others ------------------------------------------------------------------

    def received(self, data: dict[str, Any]) -> None:
        """Act on another replica's message ``data`` on :data:`CHANNEL`."""
        kind = data.get("kind")
        room = self.room
        if kind == "join":
            room.adopt(**self._seeker(data["seeker"]))
        elif kind == "seekers":
            for record in data.get("seekers", []):
                if not room.pools.pools_of(str(record["player"])):
                    room.adopt(**self._seeker(record))
        elif kind == "leave":
            room.left_elsewhere(str(data["player"]))
        elif kind == "alive":
            room.seen_elsewhere([str(p) for p in data.get("players", [])])
        elif kind == "paired":
            room.paired_elsewhere([str(p) for p in data["players"]], dict(data["game"]))
        elif kind == "hello":
            now = room.clock()
            records = [seeker_record(key, seeker, now) for key in room.pools.counts()
                       for seeker in room.pools.pool(*key).waiting()]
            if records:
                self.send({"kind": "seekers", "seekers": records})

    def _seeker(self, record: dict[str, Any]) -> dict[str, Any]:
        game, preset_key, kind = record["pool"]
        seeker = Seeker(str(record["player"]), float(record["rating"]),
                        float(record["deviation"]), bool(record["rated"]),
                        str(record["address"]), self.room.clock() - float(record["waited"]),
                        bool(record["bot"]))
        return {"game": str(game), "key": str(preset_key), "kind": str(kind),
                "seeker": seeker}

    async def _tell_alive(self) -> None:
        while True:
            await asyncio.sleep(ALIVE_EVERY_S)
            if self._alive:
                players, self._alive = sorted(self._alive), set()
                self.send({"kind": "alive", "players": players})

    def background(self) -> list[Coroutine[Any, Any, None]]:
        """The ``alive`` messages, about once a second."""
        return [self._tell_alive()]


async def share_pools(server: Rooms, room: PoolRoom) -> None:
    """Link ``room`` to the other replicas' pools when ``server`` is one replica of several
    (nothing for a single server)."""
    if isinstance(server, ReplicatedRooms) and server.broker is not None:
        room.share = PoolShare(server.broker, server.replica, room=room)
        await room.share.start()


__all__ = ["CHANNEL", "LEASE", "PoolShare", "seeker_record", "share_pools"]
