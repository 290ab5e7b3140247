"""Challenges from one named player to another (the bot API's, as lichess's
``/api/challenge/{username}``): pure bookkeeping, no FastAPI and no event loop.

The lobby's challenges (:mod:`lifearena.web.lobby`) are open to anyone; these name their
opponent, who accepts or declines them; the challenger may cancel. Each is told to both
players' event streams (:mod:`lifearena.web.bot_events`) through the ``tell`` callback.

Bounds: a player has at most :data:`OUT_PER_PLAYER` open challenges of its own and receives
at most :data:`IN_PER_PLAYER` (past either: :class:`~lifearena.web.limits.TooMany`, 429);
the server holds at most :data:`MAX_OPEN`. A challenge expires after :data:`EXPIRY`
seconds (10 minutes). Like the lobby's, they live in memory only: an open challenge does not
survive a restart; an accepted one is a stored game. Replicas of one site keep a copy each
(:mod:`lifearena.web.bot_share` tells the others: :meth:`PlayerChallenges.adopt`,
:meth:`PlayerChallenges.close_copy`).

>>> now = [0.0]
>>> book = PlayerChallenges(clock=lambda: now[0])
>>> made = book.create("ann", "10.0.0.1", "bot7", "blocking_queen", {"k": 2}, None, False, 0)
>>> [c.id for c in book.incoming("bot7")] == [made.id], book.outgoing("ann")[0].dest
(True, 'bot7')
>>> now[0] = EXPIRY + 1; [c.status for c in book.sweep()]
['expired']
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any, Literal

from lifearena.web import catalog
from lifearena.web.limits import BoundedTable, TooMany
from lifearena.web.lobby import UnknownChallenge
from lifearena.web.refusals import SeatError, TurnError

EXPIRY = 600.0
"""Seconds a challenge waits for its answer (10 minutes)."""
OUT_PER_PLAYER = 10
"""Open challenges one player may have made."""
IN_PER_PLAYER = 50
"""Open challenges one player may have received."""
MAX_OPEN = 10_000
"""Open challenges the server holds, from everybody."""
KEEP_CLOSED = 5_000
"""Closed challenges remembered (for their status), the oldest forgotten first."""
DECLINE_REASONS = ("generic", "later", "rated", "casual", "game", "clock", "too_many")
"""Why a challenge may be declined (a short word the challenger's program can act on)."""

Status = Literal["open", "accepted", "declined", "cancelled", "expired"]


class UnknownPlayerChallenge(UnknownChallenge):
    """No challenge with that id (404)."""


class NotYours(SeatError):
    """A challenge answered by someone it does not name (403)."""


class ChallengeAnswered(TurnError):
    """A challenge no longer open (409)."""


@dataclass
class PlayerChallenge:
    """One challenge from ``challenger`` to ``dest`` (player ids)."""

    id: str
    challenger: str
    address: str
    dest: str
    game: str
    params: dict[str, Any]
    clock: dict[str, Any] | None
    rated: bool
    colour: int | Literal["random"]
    """The challenger's seat (0 moves first), or ``"random"`` (drawn when accepted)."""
    created: float
    expires: float
    status: Status = "open"
    reason: str | None = None
    """Why it was declined."""
    game_id: str | None = None

    def record(self) -> dict[str, Any]:
        """Every field, as the replicas tell each other the challenge
        (:meth:`PlayerChallenges.adopt` takes it back)."""
        return asdict(self)

    def to_json(self, names: dict[str, dict[str, Any]] | None = None) -> dict[str, Any]:
        """The challenge as both players' programs see it (``names``: each player's
        public entry by id)."""
        names = names or {}
        entry = catalog.CATALOG.get(self.game)
        return {"id": self.id, "status": self.status,
                "challenger": names.get(self.challenger, {"id": self.challenger}),
                "dest": names.get(self.dest, {"id": self.dest}),
                "game": self.game, "title": entry.title if entry else self.game,
                "params": self.params, "clock": self.clock, "rated": self.rated,
                "colour": self.colour, "created": self.created, "expires": self.expires,
                "reason": self.reason, "game_id": self.game_id}


class PlayerChallenges:
    """The open and lately closed challenges between named players."""

    def __init__(self, expiry: float = EXPIRY, *, clock: Callable[[], float] = time.time,
                 out_per_player: int = OUT_PER_PLAYER, in_per_player: int = IN_PER_PLAYER,
                 max_open: int = MAX_OPEN,
                 on_close: Callable[[PlayerChallenge], None] | None = None) -> None:
        self.expiry = expiry
        self.on_close = on_close
        """Called with each challenge as it closes (accepted, declined, cancelled, expired)."""
        self.clock = clock
        self.out_per_player = out_per_player
        self.in_per_player = in_per_player
        self.max_open = max_open
        self.open: dict[str, PlayerChallenge] = {}
        self.closed: BoundedTable[str, PlayerChallenge] = BoundedTable(KEEP_CLOSED)

    def create(self, challenger: str, address: str, dest: str, game: str,
               params: dict[str, Any], clock: dict[str, Any] | None, rated: bool,
               colour: int | Literal["random"]) -> PlayerChallenge:
        """A new open challenge (its parameters already checked); :class:`TooMany` past a
        bound, nothing changed."""
        self.sweep()
        if challenger == dest:
            raise SeatError("you cannot challenge yourself; name another player")
        if sum(c.challenger == challenger for c in self.open.values()) >= self.out_per_player:
            raise TooMany(f"{self.out_per_player} open challenges of yours already, the most "
                          "allowed; cancel one or wait for the answers")
        if sum(c.dest == dest for c in self.open.values()) >= self.in_per_player:
            raise TooMany(f"this player has {self.in_per_player} challenges waiting, the most "
                          "allowed; try again later")
        if len(self.open) >= self.max_open:
            raise TooMany(f"{self.max_open} open challenges on this server, the most it "
                          "holds; try again later")
        now = self.clock()
        made = PlayerChallenge(secrets.token_urlsafe(9), challenger, address, dest, game,
                               dict(params), clock, rated, colour, now, now + self.expiry)
        self.open[made.id] = made
        return made

    def get(self, challenge_id: str) -> PlayerChallenge:
        """The challenge ``challenge_id``, open or lately closed."""
        self.sweep()
        found = self.open.get(challenge_id) or self.closed.peek(challenge_id)
        if found is None:
            raise UnknownPlayerChallenge(f"no challenge {challenge_id[:40]!r} (an answered "
                                         "or expired one is forgotten after a while)")
        return found

    def answerable(self, challenge_id: str, player: str) -> PlayerChallenge:
        """The open challenge ``challenge_id`` that ``player`` may accept or decline."""
        found = self.get(challenge_id)
        if found.dest != player:
            raise NotYours("this challenge is not addressed to you; only the player it names "
                           "can answer it")
        self.check_open(found)
        return found

    def cancellable(self, challenge_id: str, player: str) -> PlayerChallenge:
        """The open challenge ``challenge_id`` that ``player`` made (and may cancel)."""
        found = self.get(challenge_id)
        if found.challenger != player:
            raise NotYours("only the player who made a challenge can cancel it")
        self.check_open(found)
        return found

    def close(self, challenge: PlayerChallenge, status: Status, *, reason: str | None = None,
              game_id: str | None = None) -> None:
        """Close the open ``challenge`` with ``status``."""
        challenge.status, challenge.reason, challenge.game_id = status, reason, game_id
        self.open.pop(challenge.id, None)
        self.closed[challenge.id] = challenge
        if self.on_close is not None:
            self.on_close(challenge)

    def known(self, challenge_id: str) -> bool:
        """Whether ``challenge_id`` is open or lately closed here."""
        return challenge_id in self.open or self.closed.peek(challenge_id) is not None

    def adopt(self, record: dict[str, Any]) -> PlayerChallenge | None:
        """Keep a copy of an open challenge made on another replica (``record``:
        :meth:`PlayerChallenge.record`); ``None`` when it is known here already (or closed,
        or past its time). Adopted copies count against the bounds as this replica's own."""
        copy = PlayerChallenge(**record)
        if self.known(copy.id) or copy.status != "open" or copy.expires <= self.clock():
            return None
        self.open[copy.id] = copy
        return copy

    def close_copy(self, challenge_id: str, status: Status, reason: str | None = None,
                   game_id: str | None = None) -> PlayerChallenge | None:
        """Close this replica's copy of a challenge another replica closed (its players
        were told there: ``on_close`` is not called); the copy, or ``None`` if none was
        open."""
        copy = self.open.pop(challenge_id, None)
        if copy is None:
            return None
        copy.status, copy.reason, copy.game_id = status, reason, game_id
        self.closed[copy.id] = copy
        return copy

    def incoming(self, player: str) -> list[PlayerChallenge]:
        """The open challenges addressed to ``player``, oldest first."""
        self.sweep()
        return [c for c in self.open.values() if c.dest == player]

    def outgoing(self, player: str) -> list[PlayerChallenge]:
        """The open challenges ``player`` made, oldest first."""
        self.sweep()
        return [c for c in self.open.values() if c.challenger == player]

    def sweep(self) -> list[PlayerChallenge]:
        """Expire the challenges past their time; answer them."""
        now = self.clock()
        expired = [c for c in self.open.values() if c.expires <= now]
        for challenge in expired:
            self.close(challenge, "expired")
        return expired

    @staticmethod
    def check_open(challenge: PlayerChallenge) -> None:
        """:class:`ChallengeAnswered` (409) unless ``challenge`` is still open."""
        if challenge.status != "open":
            raise ChallengeAnswered(f"this challenge is {challenge.status}, no longer open")


__all__ = ["DECLINE_REASONS", "EXPIRY", "ChallengeAnswered", "NotYours", "PlayerChallenge",
           "PlayerChallenges", "UnknownPlayerChallenge"]
