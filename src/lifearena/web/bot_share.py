"""The bot API shared by the replicas of one site (:mod:`lifearena.web.rooms.cluster`).

A bot's event stream is open on one replica; the challenge addressed to it may be made on
another, and the game it starts is owned by a third. Every replica keeps the streams opened
on it (:class:`~lifearena.web.bot_events.BotEvents`) and a copy of every open challenge
between named players (:class:`~lifearena.web.player_challenges.PlayerChallenges`), and
tells the others on the broker's channel :data:`CHANNEL`:

* ``tell``: a line for a player's event streams (``gameStart``, ``gameFinish``,
  ``challenge``, ``challengeDeclined``, ``challengeCanceled``), told where it happened and
  offered by each replica to the streams it holds;
* ``added``: a challenge made here (sent before its ``challenge`` line, so a bot told of it
  on any replica finds it there);
* ``closed``: a challenge accepted, declined or cancelled here. Expiry is not told: every
  replica expires its copy at the same ``expires`` and tells its own streams.

**One outcome per challenge.** Accepting, declining and cancelling first take the broker
lease ``pchallenge:{id}`` (:meth:`BotShare.claim`), held as long as a closed challenge is
remembered; the lease's holder is ``{outcome}:{replica}``. Two answers racing on two
replicas give one outcome; the loser is told 409
(:class:`~lifearena.web.player_challenges.ChallengeAnswered`) and its copy is closed with
the winner's outcome.

**Joining late.** A replica that subscribes (it starts, or Redis came back after a gap)
says ``hello``; the others answer ``open`` with their open challenges. Pub/sub is at most
once: a ``tell`` lost in a gap is not told again, and a bot resumes from its stream's
snapshot when it reconnects (its games in progress, its open challenges), as on one server.

**Game streams** (``/api/bot/game/stream/{id}``) are answered where they arrive. On a
replica that does not own the game the stream is a page of the game
(:class:`RemoteGameStream`): the owner publishes the view for its seats after each change,
as for a browser's page there, and the stream's ``gameState`` line is then built from the
store's copy, which that change has reached.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from lifearena.web.bot_events import BotEvents, game_state
from lifearena.web.broker import BrokerUnavailable
from lifearena.web.channel_link import ChannelLink
from lifearena.web.feeds import Feed
from lifearena.web.player_challenges import KEEP_CLOSED, PlayerChallenge, Status
from lifearena.web.rooms.cluster import OwnerUnavailable, ReplicatedRooms

if TYPE_CHECKING:
    from lifearena.web.live import LiveGame
    from lifearena.web.rooms import Rooms

log = logging.getLogger("lifearena.web.bot_share")

CHANNEL = "bot"
"""The broker channel the replicas tell each other the bot API's news on."""
ARRIVAL_S = 1.0
"""Seconds a request for a challenge this replica does not know waits for its news."""
MAX_ID = 40
"""The longest challenge id waited for (longer ones are no challenge's)."""
OUTCOMES: tuple[Status, ...] = ("accepted", "declined", "cancelled")
"""The outcomes a replica takes a challenge's lease for."""


@dataclass
class BotShare(ChannelLink):
    """One replica's link between its bot API streams and challenges and the others'
    (see the module)."""

    channel: ClassVar[str] = CHANNEL
    what: ClassVar[str] = "the bot API's"
    hub: BotEvents = field(kw_only=True)
    lease_s: float = 3600.0
    """Seconds the ``pchallenge:{id}`` lease (the challenge's outcome) is kept."""

    # -- telling the others --------------------------------------------------------------------

    def told(self, player_id: str, message: dict[str, Any]) -> None:
        """``message`` was told to ``player_id``'s event streams here."""
        self.send({"kind": "tell", "player": player_id, "message": message})

    def added(self, challenge: PlayerChallenge) -> None:
        """A challenge was made here."""
        self.send({"kind": "added", "challenge": challenge.record()})

    def closed(self, challenge: PlayerChallenge) -> None:
        """A challenge was accepted, declined or cancelled here."""
        self.send({"kind": "closed", "id": challenge.id, "status": challenge.status,
                   "reason": challenge.reason, "game_id": challenge.game_id})

    # -- one outcome per challenge -------------------------------------------------------------

    async def claim(self, challenge: PlayerChallenge, outcome: str) -> None:
        """Take ``challenge``'s lease for ``outcome``;
        :class:`~lifearena.web.player_challenges.ChallengeAnswered` if another replica
        answered it first (the copy here is then closed with that answer),
        :class:`OwnerUnavailable` (503) when the broker does not answer."""
        key = self._key(challenge)
        try:
            token = await self.broker.acquire(key, f"{outcome}:{self.replica}", self.lease_s)
            holder = None if token is not None else await self.broker.owner_of(key)
        except BrokerUnavailable as error:
            raise OwnerUnavailable(f"the challenges cannot reach their broker; try again "
                                   f"({error})") from error
        if token is None:
            taken = (holder or "accepted:").partition(":")[0]
            status: Status = next((o for o in OUTCOMES if o == taken), "accepted")
            self.hub.challenges.close_copy(challenge.id, status)
        self.hub.challenges.check_open(challenge)  # closed meanwhile, or just above

    async def unclaim(self, challenge: PlayerChallenge, outcome: str) -> None:
        """Give the lease back: the answer failed after :meth:`claim` (a refused game)."""
        with contextlib.suppress(BrokerUnavailable):
            await self.broker.release(self._key(challenge), f"{outcome}:{self.replica}")

    async def arrival(self, challenge_id: str) -> None:
        """Wait up to :data:`ARRIVAL_S` for the news of ``challenge_id`` (made on another
        replica a moment ago); return at once for an id no challenge could have."""
        if not (0 < len(challenge_id) <= MAX_ID) or self.hub.challenges.known(challenge_id):
            return
        await self.news(challenge_id, ARRIVAL_S)

    @staticmethod
    def _key(challenge: PlayerChallenge) -> str:
        return f"pchallenge:{challenge.id}"

    # -- hearing the others --------------------------------------------------------------------

    def received(self, data: dict[str, Any]) -> None:
        """Act on another replica's message ``data`` on :data:`CHANNEL`."""
        kind = data.get("kind")
        challenges = self.hub.challenges
        if kind == "tell":
            self.hub.tell_here(str(data["player"]), dict(data["message"]))
        elif kind == "added":
            challenges.adopt(dict(data["challenge"]))
            self.heard_of(str(data["challenge"]["id"]))
        elif kind == "open":
            for record in list(data.get("challenges", []))[:KEEP_CLOSED]:
                challenges.adopt(dict(record))
                self.heard_of(str(record["id"]))
        elif kind == "closed":
            status = str(data["status"])
            if status in OUTCOMES:
                challenges.close_copy(str(data["id"]), status,
                                      data.get("reason"), data.get("game_id"))
        elif kind == "hello":
            records = [c.record() for c in challenges.open.values()]
            if records:
                self.send({"kind": "open", "challenges": records})


@dataclass(eq=False)
class RemoteGameStream:
    """A game stream on a replica that does not own its game, as a page of the game
    (:class:`~lifearena.web.rooms.transport.Page`): each view the owner publishes for its
    seats says the game changed, and the stream is offered the ``gameState`` line of the
    store's copy (one read at a time; views that come during a read make one more)."""

    server: ReplicatedRooms
    feed: Feed
    game_id: str
    seats: tuple[int, ...]
    _reading: asyncio.Task[None] | None = field(default=None, init=False)
    _again: bool = field(default=False, init=False)

    @property
    def closed(self) -> bool:
        """Whether the stream has ended."""
        return self.feed.closed

    def offer(self, message: dict[str, Any] | str) -> bool:
        """The game changed: read it and tell the stream (nothing here when this replica
        owns the game now: its changes reach the stream directly)."""
        if self.feed.closed or self.server.owns(self.game_id):
            return not self.feed.closed
        if self._reading is not None and not self._reading.done():
            self._again = True
        else:
            self._reading = asyncio.get_running_loop().create_task(self._read())
        return True

    async def _read(self) -> None:
        while True:
            self._again = False
            try:
                live = await self.server.read_copy(self.game_id)
            except Exception as error:  # a damaged or vanished game ends its stream
                log.warning("game stream of %s: %s", self.game_id, error)
                self.feed.close("the game could not be read")
                return
            if self.feed.closed or self.server.owns(self.game_id):
                return
            self.feed.offer(game_state(live, self.seats))
            if live.over or live.row.cancelled:
                self.feed.close("the game is over")
                return
            if not self._again:
                return


def follow_remotely(server: Rooms, live: LiveGame, feed: Feed, seats: Sequence[int]) -> None:
    """Make the game stream ``feed`` of ``live`` hear the game's changes when this replica
    does not own it (see :class:`RemoteGameStream`; nothing on a single server or the
    owner)."""
    if not isinstance(server, ReplicatedRooms) or server.owns(live.row.id) or feed.closed:
        return
    page = RemoteGameStream(server, feed, live.row.id, tuple(seats))
    server.open_page(live, page, list(seats))
    feed.on_close(lambda: server.close_page(live.row.id, page))


async def share_bot_api(server: Rooms, hub: BotEvents) -> None:
    """Link ``hub`` to the other replicas' when ``server`` is one replica of several
    (nothing for a single server)."""
    if isinstance(server, ReplicatedRooms) and server.broker is not None:
        share = BotShare(server.broker, server.replica, hub=hub)
        hub.share = share
        await share.start()


async def unshare_bot_api(hub: BotEvents) -> None:
    """Stop ``hub``'s link to the other replicas (if any)."""
    if isinstance(hub.share, BotShare):
        await hub.share.stop()


__all__ = ["ARRIVAL_S", "CHANNEL", "BotShare", "RemoteGameStream", "follow_remotely",
           "share_bot_api", "unshare_bot_api"]
