"""The lobby shared by the replicas of one site (:mod:`lifearena.web.rooms.cluster`).

Every replica keeps the open challenges in memory, as one server does
(:class:`~lifearena.web.lobby.Lobby`), and tells the others of each change on the broker's
channel :data:`CHANNEL`:

* ``added``: a challenge made here, with its owner secret and its maker's address (the
  broker is trusted as the store is), so that its owner's page may say ``hello`` to any
  replica and every replica counts it against the maker's address;
* ``removed``: a challenge cancelled or accepted here; once accepted it carries the game, the
  creator's seat and token, so the replica where the creator's lobby page is tells it
  ``seated``. Expiry is not told: every replica expires its copy at the same ``expires``.

**One outcome per challenge.** Accepting and cancelling first take the broker lease
``challenge:{id}`` (:meth:`LobbyShare.claim`), held as long as a closed challenge is
remembered: two acceptances racing on two replicas (or an acceptance and a cancellation)
seat one game, and the loser is told 409 (:class:`~lifearena.web.lobby.ChallengeClosed`).
The lease's holder is ``{outcome}:{replica}``, so a replica that missed the ``removed``
message still learns why its copy is closed.

**Joining late.** A replica that subscribes (it starts, or Redis came back after a gap)
says ``hello``; every other replica answers ``open``, its open challenges, which the
newcomer adopts where it does not know them. Pub/sub is at most once: a ``removed``
message lost in a gap leaves a copy open until the next acceptance of it is refused by the
lease (and the copy closed) or it expires.

A single server (no broker) never makes a :class:`LobbyShare`: its lobby behaves as before.
"""

from __future__ import annotations

import contextlib
import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, cast

from lifearena.web.broker import BrokerUnavailable
from lifearena.web.channel_link import ChannelLink
from lifearena.web.rooms.cluster import OwnerUnavailable, ReplicatedRooms
from lifearena.web.sockets import encode

if TYPE_CHECKING:
    from lifearena.web.lobby import Challenge, Lobby, Reason
    from lifearena.web.rooms import Rooms

log = logging.getLogger("lifearena.web.lobby")

CHANNEL = "lobby"
"""The broker channel the replicas tell each other the lobby's changes on."""

ARRIVAL_S = 1.0
"""Seconds a request for a challenge this replica does not know waits for its news (made on
another replica a moment before: the news travels in milliseconds, more under load)."""
MAX_ID = 40
"""The longest challenge id waited for (longer ones are no challenge's)."""

_SHARED_FIELDS = ("id", "owner", "address", "game", "params", "clock", "colour", "created",
                  "expires", "maker", "rated")


def record_of(challenge: Challenge) -> dict[str, Any]:
    """An open challenge as the replicas tell it to each other (its secret included)."""
    record = {name: getattr(challenge, name) for name in _SHARED_FIELDS}
    record["rating_range"] = list(challenge.rating_range)
    return record


def challenge_of(record: dict[str, Any]) -> Challenge:
    """The challenge another replica told (:func:`record_of`'s inverse)."""
    from lifearena.web.lobby import Challenge

    low, high = record.get("rating_range") or (None, None)
    challenge = Challenge(**{name: record[name] for name in _SHARED_FIELDS},
                          rating_range=(low, high))
    challenge.text = encode(challenge.listed())
    return challenge


@dataclass
class LobbyShare(ChannelLink):
    """One replica's link between its lobby and the others' (see the module)."""

    channel: ClassVar[str] = CHANNEL
    what: ClassVar[str] = "the lobby's"
    lobby: Lobby = field(kw_only=True)
    lease_s: float = 3600.0
    """Seconds the ``challenge:{id}`` lease (the challenge's outcome) is kept."""
    # news awaited (ChannelLink.news): challenges by id (arrival, settled), and
    # "address:{address}" for a challenge of that address closed (freed)

    # -- telling the others --------------------------------------------------------------------

    def added(self, challenge: Challenge) -> None:
        """A challenge was made here."""
        self.send({"kind": "added", "challenge": record_of(challenge)})

    def removed(self, challenge: Challenge, reason: Reason) -> None:
        """A challenge was cancelled or accepted here (the seat and token of its creator
        with it, for the replica where the creator's page is)."""
        self.send({"kind": "removed", "id": challenge.id, "reason": reason,
                    "game": challenge.game_id, "seat": challenge.seat,
                    "token": challenge.token})

    # -- one outcome per challenge -------------------------------------------------------------

    async def claim(self, challenge: Challenge, outcome: Reason) -> None:
        """Take ``challenge``'s lease for ``outcome`` (this replica accepts or cancels it);
        :class:`~lifearena.web.lobby.ChallengeClosed` if another acceptance or cancellation
        took it first (the copy here is then closed), :class:`OwnerUnavailable` (503) when
        the broker does not answer."""
        try:
            token = await self.broker.acquire(self._key(challenge), f"{outcome}:{self.replica}",
                                              self.lease_s)
            holder = None if token is not None else await self.broker.owner_of(
                self._key(challenge))
        except BrokerUnavailable as error:
            raise OwnerUnavailable(f"the lobby cannot reach its broker; try again ({error})"
                                   ) from error
        if token is None:
            taken = (holder or "accepted:").partition(":")[0]
            reason = cast("Reason", taken if taken in ("accepted", "cancelled") else "accepted")
            if challenge.status == "open":
                self.lobby.close_elsewhere(challenge.id, reason)
        self.lobby.check_open(challenge)  # closed meanwhile (a message, or the lease's news)

    async def arrival(self, challenge_id: str) -> None:
        """Wait up to :data:`ARRIVAL_S` for the news of ``challenge_id`` (made on another
        replica a moment ago, its ``added`` still on its way); return at once for an id
        that no challenge could have."""
        if not (0 < len(challenge_id) <= MAX_ID) or self.lobby.known(challenge_id):
            return
        await self.news(challenge_id, ARRIVAL_S)

    async def settled(self, challenge: Challenge) -> None:
        """For a challenge open here: if another replica took its lease (accepted or
        cancelled it: the lease says so at once, its ``removed`` news follows), wait up to
        :data:`ARRIVAL_S` for that news, which carries the creator's game and seat."""
        if challenge.status != "open":
            return
        try:
            holder = await self.broker.owner_of(self._key(challenge))
        except BrokerUnavailable:
            return
        if holder is None or challenge.status != "open":
            return
        await self.news(challenge.id, ARRIVAL_S)

    async def freed(self, address: str) -> None:
        """Wait up to :data:`ARRIVAL_S` for the news of a challenge of ``address`` closed on
        another replica (a cancellation there a moment ago may still be on its way)."""
        await self.news(f"address:{address}", ARRIVAL_S)

    def _adopted(self, record: dict[str, Any]) -> None:
        challenge = challenge_of(record)
        self.lobby.adopt(challenge)
        self.heard_of(challenge.id)

    async def unclaim(self, challenge: Challenge, outcome: Reason) -> None:
        """Give the lease back: the acceptance failed after :meth:`claim` (a refused game)."""
        with contextlib.suppress(BrokerUnavailable):
            await self.broker.release(self._key(challenge), f"{outcome}:{self.replica}")

    @staticmethod
    def _key(challenge: Challenge) -> str:
        return f"challenge:{challenge.id}"

    # -- hearing the others --------------------------------------------------------------------

    def received(self, data: dict[str, Any]) -> None:
        """Act on another replica's message ``data`` on :data:`CHANNEL`."""
        kind = data.get("kind")
        if kind == "added":
            self._adopted(data["challenge"])
        elif kind == "open":
            for record in data.get("challenges", []):
                self._adopted(record)
        elif kind == "removed":
            copy = self.lobby.open.get(str(data["id"]))
            self.lobby.close_elsewhere(str(data["id"]), data["reason"], data.get("game"),
                                       data.get("seat"), data.get("token"))
            self.heard_of(str(data["id"]))
            if copy is not None:
                self.heard_of(f"address:{copy.address}")
        elif kind == "hello":
            records = [record_of(c) for c in self.lobby.open.values()]
            if records:
                self.send({"kind": "open", "challenges": records})


async def share_lobby(server: Rooms, lobby: Lobby) -> None:
    """Link ``lobby`` to the other replicas' when ``server`` is one replica of several
    (nothing for a single server)."""
    if isinstance(server, ReplicatedRooms) and server.broker is not None:
        lobby.share = LobbyShare(server.broker, server.replica, lobby=lobby)
        await lobby.share.start()


__all__ = ["CHANNEL", "LobbyShare", "challenge_of", "record_of", "share_lobby"]
