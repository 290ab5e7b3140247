"""The lobby: open challenges any visitor may accept, listed live to every home page.

A challenge names a game, its parameters (checked against the catalog exactly as a new game's
are), a time control and the creator's colour (seat 0 or 1, or ``"random"``, drawn when it
is accepted). Accepting it seats both players at once: the server creates an online game
with both seats' tokens (:meth:`lifearena.web.rooms.Rooms.start_seated`), answers the
acceptor its token, and tells the creator its own privately, over its lobby socket and to
``GET /api/challenges/{id}`` with its owner secret. Nobody else ever learns either token.

* ``POST /api/challenges`` :class:`~lifearena.web.models.NewChallenge` → ``{id, owner}``
  (201): ``owner`` is the creator's secret, never listed; it answers as the
  ``X-Challenge-Owner`` header.
* ``GET /api/challenges`` → ``{now, challenges}``: the open ones, oldest first, without
  secrets; ``now`` is the server's clock, which pages word ages by.
* ``GET /api/challenges/{id}``: its status (``open``, ``accepted``, ``cancelled``,
  ``expired``); with the owner's header, once accepted, the creator's seat, token and link.
* ``POST /api/challenges/{id}/accept`` → ``{id, token, seat, links}`` (the new game, as
  ``POST /api/games`` answers); 403 for the creator's own challenge (known by its owner
  header), 409 once it is no longer open.
* ``POST /api/challenges/{id}/cancel`` with the owner's header.
* ``WS /ws/lobby``: a ``snapshot`` of the open challenges on connect, then only deltas
  (``challenge-added``, ``challenge-removed`` with its reason), gathered for
  :data:`BATCH_EVERY` seconds into one ``{"type": "changes", "changes": [...]}`` message,
  encoded once for every page. A page may say ``{"type": "hello", "owners": [...]}``
  (first, and again after it creates a challenge): it is then answered ``{"type": "mine",
  "ids": [...]}`` (its open challenges) and, for each of its challenges that is or gets
  accepted, ``{"type": "seated", "challenge", "game", "seat", "token", "link"}``.

Bounds: :data:`OPEN_PER_ADDRESS` open challenges per client address and :data:`MAX_OPEN` in
all; making a challenge and accepting one each count against the address's one quota of
creations a minute, shared with every other way of making a game (the server's
:class:`~lifearena.web.limits.CreationRate`), and its bound of games in progress (the maker's
when it makes the challenge, the acceptor's when it accepts; the game then counts for both);
and the lobby's sockets under the server's socket limits (at most :data:`MAX_WATCHERS`); a
refusal is a 429 with one line.
Challenges expire after ``Settings.challenge_expiry`` seconds (30 minutes by default), swept
by a task every few seconds.

The lobby is kept in memory: an open challenge does not survive a restart of the server (its
creator makes it again); an accepted one is a stored game like any other. Replicas of one
site (``serve --broker``) keep copies of one another's challenges and take one outcome per
challenge through the broker (:mod:`lifearena.web.lobby_share`).

>>> from lifearena.web.models import NewChallenge
>>> lobby = Lobby(clock=lambda: 1000.0)
>>> made = lobby.create(NewChallenge(game="blocking_queen", colour=0), "203.0.113.7")
>>> [c["game"] for c in lobby.listing()["challenges"]], "owner" in str(lobby.listing())
(['blocking_queen'], False)
>>> lobby.take(made["id"], made["owner"])  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
lifearena.web.lobby.OwnChallenge: this is your own challenge: wait for someone to accept it...
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Any, Literal, Protocol

from fastapi import APIRouter, Header, Request, Response, WebSocket

from lifearena.errors import BadParameterError, LifeArenaError
from lifearena.web import catalog
from lifearena.web.heavy import client_of
from lifearena.web.limits import (
    BoundedTable,
    CreationRate,
    SocketCounts,
    TooMany,
    address_key,
)
from lifearena.web.live import InvitationTaken, SeatError, new_secret, same_secret
from lifearena.web.models import (
    MAX_TOKEN,
    AcceptChallenge,
    CancelChallenge,
    LobbyHello,
    NewChallenge,
    read_lobby_message,
)
from lifearena.web.rooms.seats import seat_refusal
from lifearena.web.sockets import Outbox, encode, read_loop, refuse
from lifearena.web.stopping import cancel_and_wait

if TYPE_CHECKING:
    from lifearena.web.rooms import Rooms

log = logging.getLogger("lifearena.web.lobby")


class ChallengeShare(Protocol):
    """The link to the other replicas' lobbies that a :class:`Lobby` tells of its
    challenges (:class:`lifearena.web.lobby_share.LobbyShare`: it imports this module, so
    this one names only what it calls)."""

    def added(self, challenge: Challenge) -> None: ...

    def removed(self, challenge: Challenge, reason: Reason) -> None: ...

    async def claim(self, challenge: Challenge, outcome: Reason) -> None: ...

    async def unclaim(self, challenge: Challenge, outcome: Reason) -> None: ...

    async def arrival(self, challenge_id: str) -> None: ...

    async def settled(self, challenge: Challenge) -> None: ...

    async def freed(self, address: str) -> None: ...

    async def stop(self) -> None: ...

EXPIRY = 1800.0
"""Seconds an open challenge waits for an opponent before it expires (30 minutes)."""
OPEN_PER_ADDRESS = 5
"""Open challenges one client address may have at once."""
MAX_OPEN = 5_000
"""Open challenges the server holds at once, from everybody."""
MAX_WATCHERS = 2_000
"""Lobby sockets open at once (every home page holds one)."""
BATCH_EVERY = 0.05
"""Seconds the lobby gathers changes before it tells the pages (one ``changes`` message a
page per period, however many challenges came and went: a burst of hundreds is one message,
so a page's bounded outbox does not fill and every send is encoded once)."""
KEEP_CLOSED = 3600.0
"""Seconds a closed challenge's status stays known to its owner (a page reopened late still
learns its game)."""
SWEEP_EVERY = 5.0
"""Seconds between two sweeps of expired challenges (less when challenges expire sooner)."""
LOBBY_KEY = "(lobby)"
"""The key the lobby's sockets are counted under (no game id has parentheses)."""
MAX_LOBBY_MESSAGE = 4_096
"""Largest message a lobby page may send, in characters."""
OwnerHeader = Annotated[str | None, Header(alias="X-Challenge-Owner", max_length=MAX_TOKEN,
                                           description="the creator's secret")]

Reason = Literal["accepted", "cancelled", "expired"]


class UnknownChallenge(LifeArenaError):
    """No challenge with that id (never made, or closed long ago) (404)."""


class OwnChallenge(SeatError):
    """The creator trying to accept its own challenge (403)."""


class ChallengeClosed(InvitationTaken):
    """A challenge already accepted, cancelled or expired (409)."""


@dataclass
class Challenge:
    """One challenge, open or lately closed."""

    id: str
    owner: str
    address: str
    game: str
    params: dict[str, Any]
    clock: dict[str, Any] | None
    colour: int | Literal["random"]
    created: float
    expires: float
    status: Literal["open", "accepted", "cancelled", "expired"] = "open"
    closed: float | None = None
    game_id: str | None = None
    seat: int | None = None
    """The creator's seat, once accepted."""
    token: str | None = None
    """The creator's seat token, once accepted (told to the owner only)."""
    text: str = ""
    """:meth:`listed`, encoded once (a snapshot joins these)."""
    maker: dict[str, Any] | None = None
    """The creator as the list shows it (``id``, ``name``, ``rating`` in the game), if it
    is a player."""
    rated: bool = False
    rating_range: tuple[int | None, int | None] = (None, None)
    """The lowest and highest rating in the game of a player who may accept (``None``:
    no bound)."""

    def listed(self) -> dict[str, Any]:
        """The challenge as every visitor sees it: no secret, no address."""
        maker = None if self.maker is None else {k: v for k, v in self.maker.items()
                                                 if k != "id"}
        return {"id": self.id, "game": self.game, "title": catalog.CATALOG[self.game].title,
                "params": self.params, "clock": self.clock, "colour": self.colour,
                "created": self.created, "expires": self.expires, "maker": maker,
                "rated": self.rated, "rating_range": list(self.rating_range)}

    def admits(self, rating: float) -> bool:
        """Whether a player rated ``rating`` in the game may accept it."""
        low, high = self.rating_range
        return (low is None or rating >= low) and (high is None or rating <= high)

    def seated(self) -> dict[str, Any]:
        """The creator's private news of its accepted challenge: its game, seat and token."""
        return {"type": "seated", "challenge": self.id, "game": self.game_id,
                "seat": self.seat, "token": self.token,
                "link": f"/play/{self.game_id}#t={self.token}"}

    def owned_by(self, owner: str | None) -> bool:
        """Whether ``owner`` is this challenge's secret (compared in constant time)."""
        return bool(owner) and same_secret(self.owner, owner or "")


@dataclass
class Lobby:
    """The open challenges, the lately closed ones, and the pages watching them."""

    expiry: float = EXPIRY
    per_address: int = OPEN_PER_ADDRESS
    max_open: int = MAX_OPEN
    creations: CreationRate | None = None
    """The creations quota the challenges made count against (the server's, shared with
    every way of making a game); its own, of 30 a minute, when none is given."""
    max_watchers: int = MAX_WATCHERS
    clock: Callable[[], float] = time.time
    open: dict[str, Challenge] = field(default_factory=dict)
    """The open challenges by id, oldest first."""
    closed: BoundedTable[str, Challenge] = field(default_factory=BoundedTable)
    """Challenges closed within :data:`KEEP_CLOSED`, for their owners' questions."""
    owners: dict[str, str] = field(default_factory=dict)
    """Challenge id by owner secret, for open and kept closed challenges."""
    addresses: dict[str, int] = field(default_factory=dict)
    """Open challenges by client address."""
    watchers: dict[Outbox, frozenset[str]] = field(default_factory=dict)
    """The lobby's sockets and the owner secrets each page said it holds."""
    share: ChallengeShare | None = None
    """The link to the other replicas' lobbies (:mod:`lifearena.web.lobby_share`); None
    for a single server."""
    _listed: str | None = None  # the open challenges' JSON, made once per change
    _changes: list[str] = field(default_factory=list)  # encoded, not yet told to the pages
    _flush: asyncio.TimerHandle | None = None
    _sweepers: dict[asyncio.AbstractEventLoop, asyncio.Task[None]] = field(
        default_factory=dict)  # one per loop serving the app (tests may run two at once)

    def __post_init__(self) -> None:
        if not self.expiry > 0:
            raise BadParameterError(f"challenge expiry {self.expiry!r}; expected seconds > 0")
        if self.creations is None:
            self.creations = CreationRate(30)

    # -- challenges --------------------------------------------------------------------------

    def create(self, body: NewChallenge, address: str,
               maker: dict[str, Any] | None = None) -> dict[str, Any]:
        """Open a challenge for the client at ``address``: its id and the owner's secret.
        :class:`TooMany` past a bound, :class:`BadParameterError` for parameters the
        catalog refuses; nothing changes when it is refused."""
        assert self.creations is not None
        self.creations.check(address)
        if self.addresses.get(address, 0) >= self.per_address:
            raise TooMany(f"{self.per_address} open challenges from this address already, the "
                          "most allowed; cancel one or wait for it to be accepted")
        if len(self.open) >= self.max_open:
            raise TooMany(f"{self.max_open} open challenges on this server, the most it "
                          "holds; try again later")
        params = check_challenge(body.game, body.params)
        now = self.clock()
        clock = None if body.clock is None else body.clock.model_dump(exclude_none=True)
        challenge = Challenge(secrets.token_urlsafe(9), new_secret(), address, body.game,
                              params, clock, body.colour, now, now + self.expiry,
                              maker=maker, rated=body.rated,
                              rating_range=(body.min_rating, body.max_rating))
        challenge.text = encode(challenge.listed())
        self.open[challenge.id] = challenge
        self.owners[challenge.owner] = challenge.id
        self.addresses[address] = self.addresses.get(address, 0) + 1
        self.creations.count(address)
        self._opened(challenge)
        if self.share is not None:
            self.share.added(challenge)
        return {"id": challenge.id, "owner": challenge.owner}

    def _opened(self, challenge: Challenge) -> None:
        self._listed = None
        self._tell_all(f'{{"type":"challenge-added","now":{self.clock()!r},'
                       f'"challenge":{challenge.text}}}')

    def adopt(self, challenge: Challenge) -> None:
        """An open challenge made on another replica: listed here too, counted against its
        maker's address (one already known here, open or closed, is left as it is)."""
        if challenge.id in self.open or self.closed.peek(challenge.id) is not None \
                or challenge.expires <= self.clock():
            return
        self.open[challenge.id] = challenge
        self.owners[challenge.owner] = challenge.id
        self.addresses[challenge.address] = self.addresses.get(challenge.address, 0) + 1
        self._opened(challenge)

    def close_elsewhere(self, challenge_id: str, reason: Reason, game_id: str | None = None,
                        seat: int | None = None, token: str | None = None) -> None:
        """Another replica cancelled or accepted ``challenge_id`` (into ``game_id``, where
        its creator plays ``seat`` with ``token``): close the copy here and tell the
        creator's pages here their seat."""
        challenge = self.open.get(challenge_id) or self.closed.peek(challenge_id)
        if challenge is None:
            return
        if challenge.status == "open":
            self._close(challenge, reason, told=True)
        if reason == "accepted" and game_id is not None and seat is not None and token:
            challenge.status = "accepted"
            challenge.game_id, challenge.seat, challenge.token = game_id, seat, token
            self._tell_seated(challenge)

    def listing(self) -> dict[str, Any]:
        """The open challenges (oldest first, without secrets) and the server's clock."""
        return {"now": self.clock(), "challenges": [c.listed() for c in self.open.values()]}

    async def room_for(self, address: str) -> None:
        """Return once ``address`` may open one more challenge here or cannot yet: with
        replicas, at its bound here, wait a little for the news of one of its challenges
        closed on another replica (cancelled there a moment ago); a single server knows at
        once."""
        if self.share is not None and self.addresses.get(address, 0) >= self.per_address:
            await self.share.freed(address)

    def known(self, challenge_id: str) -> bool:
        """Whether ``challenge_id`` is open or lately closed here."""
        return challenge_id in self.open or self.closed.peek(challenge_id) is not None

    async def reached(self, challenge_id: str) -> None:
        """Return once ``challenge_id`` is known here or cannot be: with replicas, a
        challenge made on another one a moment ago may still be on its way (the share
        waits a little for it); a single server knows at once."""
        if self.share is not None and not self.known(challenge_id):
            await self.share.arrival(challenge_id)

    def get(self, challenge_id: str) -> Challenge:
        """The challenge ``challenge_id``, open or lately closed; :class:`UnknownChallenge`."""
        found = self.open.get(challenge_id) or self.closed.peek(challenge_id)
        if found is None:
            raise UnknownChallenge(f"no challenge {challenge_id[:40]!r} (an expired one is "
                                   "forgotten after a while)")
        return found

    def status(self, challenge_id: str, owner: str | None) -> dict[str, Any]:
        """Where a challenge stands; for its owner, once accepted, the creator's game, seat,
        token and link too. A wrong owner secret is a :class:`SeatError`."""
        challenge = self.get(challenge_id)
        answer: dict[str, Any] = {"id": challenge.id, "status": challenge.status,
                                  "challenge": challenge.listed()}
        if owner is not None:
            if not challenge.owned_by(owner):
                raise SeatError("this owner secret does not belong to this challenge")
            if challenge.status == "accepted":
                seated = challenge.seated()
                answer.update(game=seated["game"], seat=seated["seat"],
                              token=seated["token"], link=seated["link"])
        return answer

    def cancel(self, challenge_id: str, owner: str | None) -> dict[str, Any]:
        """The creator withdraws its open challenge."""
        challenge = self.get(challenge_id)
        if not challenge.owned_by(owner):
            raise SeatError("cancelling a challenge needs its owner secret (the "
                            "X-Challenge-Owner header)")
        self.check_open(challenge)
        self._close(challenge, "cancelled")
        return {"id": challenge.id, "status": challenge.status}

    def take(self, challenge_id: str, owner: str | None) -> Challenge:
        """The open challenge someone (holding ``owner``, if it says) may accept; checks
        only, changes nothing (:meth:`accepted` closes it once the game is made)."""
        challenge = self.get(challenge_id)
        if challenge.owned_by(owner):
            raise OwnChallenge("this is your own challenge: wait for someone to accept it, "
                               "or cancel it")
        self.check_open(challenge)
        return challenge

    def accepted(self, challenge: Challenge, game_id: str, seat: int, token: str) -> None:
        """Close ``challenge`` as accepted into ``game_id``, where its creator plays ``seat``
        with ``token``; tell the creator's pages."""
        challenge.game_id, challenge.seat, challenge.token = game_id, seat, token
        self._close(challenge, "accepted")
        self._tell_seated(challenge)

    def _tell_seated(self, challenge: Challenge) -> None:
        seated = encode(challenge.seated())
        for outbox, owners in list(self.watchers.items()):
            if challenge.owner in owners:
                outbox.offer(seated)

    def sweep(self) -> int:
        """Expire the open challenges past their time and forget the closed ones kept long
        enough; answer how many expired."""
        now = self.clock()
        expired = [c for c in self.open.values() if c.expires <= now]
        for challenge in expired:
            self._close(challenge, "expired")
        while (oldest := self.closed.oldest()) is not None:
            gone = self.closed.peek(oldest)
            if gone is None or gone.closed is None or now - gone.closed < KEEP_CLOSED:
                break
            del self.closed[oldest]
            self.owners.pop(gone.owner, None)
        return len(expired)

    def check_open(self, challenge: Challenge) -> None:
        """:class:`ChallengeClosed` unless ``challenge`` is still open."""
        if challenge.status == "open":
            return
        said = {"accepted": "was already accepted", "cancelled": "was cancelled by its creator",
                "expired": "expired before anyone accepted it"}[challenge.status]
        raise ChallengeClosed(f"this challenge {said}")

    def _close(self, challenge: Challenge, reason: Reason, *, told: bool = False) -> None:
        """Close an open challenge; the other replicas are told unless ``told`` (they told
        this one) or it expired (each expires its copy itself)."""
        challenge.status = reason
        challenge.closed = self.clock()
        del self.open[challenge.id]
        left = self.addresses.get(challenge.address, 1) - 1
        if left > 0:
            self.addresses[challenge.address] = left
        else:
            self.addresses.pop(challenge.address, None)
        forgotten = self.closed.oldest() if len(self.closed) >= self.closed.max_size else None
        if forgotten is not None:
            old = self.closed.peek(forgotten)
            if old is not None:
                self.owners.pop(old.owner, None)
        self.closed[challenge.id] = challenge
        self._listed = None
        self._tell_all({"type": "challenge-removed", "id": challenge.id, "reason": reason})
        if self.share is not None and not told and reason != "expired":
            self.share.removed(challenge, reason)

    # -- pages -------------------------------------------------------------------------------

    def snapshot(self) -> str:
        """The ``snapshot`` message a new page gets, encoded (the list's JSON is made once per
        change, however many pages connect)."""
        if self._listed is None:
            self._listed = "[" + ",".join(c.text for c in self.open.values()) + "]"
        return f'{{"type":"snapshot","now":{self.clock()!r},"challenges":{self._listed}}}'

    def watch(self, outbox: Outbox) -> None:
        """Add a page; it is offered the snapshot at once (the changes gathered so far go to
        the other pages first, so no change comes between)."""
        self.flush()
        self.watchers[outbox] = frozenset()
        outbox.offer(self.snapshot())

    def unwatch(self, outbox: Outbox) -> None:
        """Forget a page that left."""
        self.watchers.pop(outbox, None)

    def hello(self, outbox: Outbox, owners: Iterable[str]) -> None:
        """A page names the owner secrets it holds: answer which open challenges are its own,
        and the seat of each of them already accepted."""
        held = frozenset(owners)
        self.watchers[outbox] = held
        mine: list[str] = []
        for owner in held:
            found = self.owners.get(owner)
            challenge = None if found is None else (self.open.get(found)
                                                    or self.closed.peek(found))
            if challenge is None or not challenge.owned_by(owner):
                continue
            if challenge.status == "open":
                mine.append(challenge.id)
            elif challenge.status == "accepted":
                outbox.offer(challenge.seated())
        outbox.offer({"type": "mine", "ids": sorted(mine)})

    def _tell_all(self, message: dict[str, Any] | str) -> None:
        """Tell every page of one change: gathered for :data:`BATCH_EVERY` seconds, then
        offered to each page as one ``{"type": "changes", "changes": [...]}`` message,
        encoded once; nobody is waited for (a page that falls behind anyway is closed by its
        outbox and gets a fresh snapshot when it reconnects)."""
        if not self.watchers:
            return
        self._changes.append(message if isinstance(message, str) else encode(message))
        if self._flush is not None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no loop (a script or a doctest): told at once
            self.flush()
            return
        self._flush = loop.call_later(BATCH_EVERY, self.flush)

    def flush(self) -> None:
        """Offer the pages the changes gathered so far, as one message."""
        if self._flush is not None:
            self._flush.cancel()
            self._flush = None
        if not self._changes:
            return
        text = f'{{"type":"changes","changes":[{",".join(self._changes)}]}}'
        self._changes = []
        for outbox in list(self.watchers):
            if not outbox.closed:
                outbox.offer(text)

    # -- the sweeper -------------------------------------------------------------------------

    def start(self) -> None:
        """Start sweeping expired challenges on the running loop (once per loop)."""
        loop = asyncio.get_running_loop()
        if loop not in self._sweepers:
            self._sweepers[loop] = loop.create_task(self._sweep_often(), name="lobby sweeper")

    async def stop(self) -> None:
        """Stop the running loop's sweeper."""
        self.flush()
        if self.share is not None:
            await self.share.stop()
        task = self._sweepers.pop(asyncio.get_running_loop(), None)
        if task is not None:
            await cancel_and_wait([task])

    async def _sweep_often(self) -> None:
        every = max(0.05, min(SWEEP_EVERY, self.expiry / 4))
        while True:
            await asyncio.sleep(every)
            try:
                self.sweep()
            except Exception:  # a bug here must not end the sweeping
                log.exception("sweeping the lobby failed")


def check_challenge(game: str, params: dict[str, Any]) -> dict[str, Any]:
    """Every parameter of a challenge's game, checked as a new game's are
    (:func:`catalog.check_values <lifearena.web.catalog.check_values>`); a challenge is
    played online, so settings played at one screen only are refused.

    >>> check_challenge("blocking_queen", {"k": 3})["k"]
    3
    >>> check_challenge("life_for_two", {"rules": "classic"})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    lifearena.errors.BadParameterError: Life for Two with rules 'classic' is played at one ...
    """
    values = catalog.check_values(game, params)
    entry = catalog.entry_of(game)
    only = entry.hotseat_only_when
    if only is not None and values[only[0]] == only[1]:
        raise BadParameterError(f"{entry.title} with {only[0]} {only[1]!r} is played at one "
                                "screen only; it cannot be a challenge")
    catalog.new_state(game, params)  # the start itself can be made (a position parses)
    return dict(params)


# -- the routes ------------------------------------------------------------------------------


def router_for(server: Rooms, lobby: Lobby) -> APIRouter:
    """The routes and socket of ``lobby`` over the rooms ``server`` (its games and limits)."""
    router = APIRouter()

    @router.post("/api/challenges", status_code=201)
    async def create(body: NewChallenge, request: Request, response: Response
                     ) -> dict[str, Any]:
        if body.clock is not None:  # the server's shortest clock, as for any game
            server.clocks.check_control(body.clock.model_dump(exclude_none=True))
        address = address_key(client_of(request.client))
        server.in_progress.check(address)  # its game will be in progress for its maker
        identity = request.app.state.identity
        seat_refusal(body.rated, identity.player_of(request))
        server.admit(address)  # before a player is made for it
        player = identity.maybe(request, response)
        maker = None if player is None else {
            "id": player.id, "name": player.shown, "kind": player.kind,
            "rating": server.players.rating(player.id, body.game).rating.shown()
            if player.has_account else None}
        await lobby.room_for(address)
        return lobby.create(body, address, maker)

    @router.get("/api/challenges")
    async def listing() -> dict[str, Any]:
        return lobby.listing()

    @router.get("/api/challenges/{challenge_id}")
    async def status(challenge_id: str, owner: OwnerHeader = None) -> dict[str, Any]:
        await lobby.reached(challenge_id)
        if lobby.share is not None and owner is not None:  # its creator asks: accepted
            await lobby.share.settled(lobby.get(challenge_id))  # elsewhere a moment ago?
        return lobby.status(challenge_id, owner)

    @router.post("/api/challenges/{challenge_id}/accept")
    async def accept(challenge_id: str, body: AcceptChallenge, request: Request,
                     response: Response, owner: OwnerHeader = None) -> dict[str, Any]:
        address = address_key(client_of(request.client))
        await lobby.reached(challenge_id)
        challenge = lobby.take(challenge_id, owner)
        identity = request.app.state.identity
        player = identity.player_of(request)
        maker = None if challenge.maker is None else challenge.maker["id"]
        if player is not None and player.id == maker:
            raise OwnChallenge("this is your own challenge: wait for someone to accept it, "
                               "or cancel it")
        seat_refusal(challenge.rated, player)
        if challenge.rated and not server.settings.rated_within_address \
                and address == challenge.address:
            raise SeatError("a rated challenge cannot be accepted from its maker's address; "
                            "play it casual")
        rating = (1500.0 if player is None
                  else server.players.rating(player.id, challenge.game).rating.rating)
        if not challenge.admits(rating):
            low, high = challenge.rating_range
            raise SeatError(f"your rating {rating:.0f} is outside this challenge's range "
                            f"({'any' if low is None else low} to "
                            f"{'any' if high is None else high})")
        server.admit(address)  # before a player is made for it
        player = identity.maybe(request, response)
        if lobby.share is not None:  # one acceptance among the replicas (409 for the others)
            await lobby.share.claim(challenge, "accepted")
        # no await from here on: the challenge cannot be taken twice. The game counts as
        # made by the acceptor (its quota and bounds, checked in start_seated) and in
        # progress for the maker too
        colour = challenge.colour
        creator = colour if isinstance(colour, int) else secrets.randbelow(2)
        holders = {} if player is None else {1 - creator: player.id}
        if maker is not None:
            holders[creator] = maker
        try:
            answer, creator_token = server.start_seated(
                challenge.game, challenge.params, challenge.clock, creator, address,
                challenge.address, holders=holders, rated=challenge.rated)
        except Exception:
            if lobby.share is not None:  # refused: the challenge stays open for others
                await lobby.share.unclaim(challenge, "accepted")
            raise
        lobby.accepted(challenge, answer["id"], creator, creator_token)
        return answer

    @router.post("/api/challenges/{challenge_id}/cancel")
    async def cancel(challenge_id: str, body: CancelChallenge,
                     owner: OwnerHeader = None) -> dict[str, Any]:
        if lobby.share is not None:  # cancelled or accepted, once among the replicas
            await lobby.reached(challenge_id)
            challenge = lobby.get(challenge_id)
            if not challenge.owned_by(owner):
                raise SeatError("cancelling a challenge needs its owner secret (the "
                                "X-Challenge-Owner header)")
            await lobby.share.claim(challenge, "cancelled")
        return lobby.cancel(challenge_id, owner)

    @router.websocket("/ws/lobby")
    async def socket(websocket: WebSocket) -> None:
        await serve_lobby(lobby, server.socket_counts, websocket)

    return router


async def serve_lobby(lobby: Lobby, counts: SocketCounts, websocket: WebSocket) -> None:
    """One page's lobby socket: the snapshot, then the deltas through a bounded outbox, and
    the page's hellos (and pings) taken at a bounded rate (:func:`~lifearena.web.sockets.
    read_loop`, as a game's socket), until either side goes."""
    address = address_key(client_of(websocket.client))
    await websocket.accept()
    try:
        counts.acquire(LOBBY_KEY, address, limit=lobby.max_watchers)
    except TooMany as error:
        await refuse(websocket, _error_message(error, 429))
        return
    outbox = Outbox(websocket)

    async def said(text: str | None) -> None:
        message = read_lobby_message(text)
        if isinstance(message, LobbyHello):
            lobby.hello(outbox, message.owners)

    try:
        outbox.start()
        lobby.watch(outbox)
        await read_loop(websocket, outbox, said, max_chars=MAX_LOBBY_MESSAGE,
                        hold_off=lambda: counts.hold_off(address),
                        error_message=_error_message)
    except (RuntimeError, ConnectionError):  # the peer went away mid-send
        pass
    finally:
        counts.release(LOBBY_KEY, address)
        lobby.unwatch(outbox)
        await outbox.close()


def _error_message(error: LifeArenaError, status: int = 400) -> dict[str, Any]:
    """An error as a lobby socket tells it (a message the lobby cannot read: 400)."""
    return {"type": "error", "error": str(error), "status": status}


__all__ = ["EXPIRY", "MAX_OPEN", "OPEN_PER_ADDRESS", "Challenge", "ChallengeClosed", "Lobby",
           "OwnChallenge", "UnknownChallenge", "check_challenge", "router_for", "serve_lobby"]
