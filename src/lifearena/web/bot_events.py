"""What the bot API's streams say, and to whom: each player's event streams and each
game's state streams (no FastAPI; the routes are :mod:`lifearena.web.bot_api`).

The server tells :class:`BotEvents` of every game that seats players
(:meth:`BotEvents.seated`: a ``gameStart`` to each holder) and of every change of a game
(:meth:`BotEvents.changed`, from :meth:`Rooms.broadcast <lifearena.web.rooms.Rooms.broadcast>`:
a ``gameState`` line to each stream of that game and, when it ends, a ``gameFinish`` to each
holder). Nothing here awaits: every line is offered to a bounded
:class:`~lifearena.web.feeds.Feed`, and a reader that does not keep up is dropped.

**Event streams** (``GET /api/stream/event``), one per API token (or browser session) at a
time: a second stream of the same token *replaces* the first, which ends (a bot that
reconnects after a network fault is not refused because its old connection has not timed out
yet). A player has at most :data:`EVENT_STREAMS_PER_PLAYER` at once (several tokens).

**Game streams** (``GET /api/bot/game/stream/{id}``): a ``gameFull`` line, then a
``gameState`` line after every change, until the game ends. One per token and game (a second
replaces the first), at most :data:`GAME_STREAMS_PER_PLAYER` per player and
:data:`MAX_GAME_STREAMS` on the server.

**Replicas.** On a site of several replicas each keeps the streams opened on it, and
:attr:`BotEvents.share` (:mod:`lifearena.web.bot_share`) carries what is told to a player
(:meth:`BotEvents.tell`) and the challenges' changes to the others: a bot's event stream on
one replica hears of a challenge made, or a game started, on another.

The lines' fields are documented in ``docs/bots.md`` ("Online: the bot API").
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

from lifearena.web import catalog
from lifearena.web.feeds import Feed, line_of
from lifearena.web.limits import TooMany
from lifearena.web.live import MAX_LEGAL_SENT
from lifearena.web.player_challenges import PlayerChallenge, PlayerChallenges
from lifearena.web.players import COMPUTER, PlayerStore
from lifearena.web.rated import results_of

if TYPE_CHECKING:
    from lifearena.web.live import LiveGame

log = logging.getLogger("lifearena.web.bot_events")

EVENT_STREAMS_PER_PLAYER = 8
"""Event streams one player may hold at once (one per token or session)."""
GAME_STREAMS_PER_PLAYER = 32
"""Game streams one player may hold at once."""
MAX_GAME_STREAMS = 10_000
"""Game streams the server holds at once."""
MAX_EVENT_STREAMS = 10_000
"""Event streams the server holds at once."""
EVENT_FEED_SIZE = 256
"""Lines an event stream holds unsent (its snapshot on connect included: a player's games
in progress and open challenges) before its reader counts as not reading."""


def status_of(live: LiveGame) -> str:
    """``started``, ``waiting`` (an invitation not yet taken), ``ended`` or ``cancelled``."""
    if live.row.cancelled:
        return "cancelled"
    if live.over:
        return "ended"
    if live.waiting_for_opponent:
        return "waiting"
    return "started"


def outcome_of(live: LiveGame) -> dict[str, Any] | None:
    """The game's outcome as the streams say it (``None`` while it goes on)."""
    outcome = live.outcome()
    if outcome is None:
        return None
    return {"text": str(outcome), "winner": outcome.winner,
            "termination": outcome.termination.value, "detail": outcome.detail}


def game_info(live: LiveGame, player_id: str) -> dict[str, Any]:
    """A game as a player's event stream tells it (``gameStart``, ``gameFinish``)."""
    seats = live.seats_of_player(player_id)
    seat = seats[0] if len(seats) == 1 else None
    opponent = live.people[1 - seat] if seat is not None else None
    entry = catalog.CATALOG.get(live.row.game)
    info: dict[str, Any] = {
        "id": live.row.id, "game": live.row.game,
        "title": entry.title if entry else live.row.game, "seat": seat,
        "rated": live.rated, "clock": live.row.opponent.get("clock"),
        "opponent": opponent, "my_turn": seat is not None and seat in live.awaiting()
        and not live.waiting_for_opponent,
        "move_number": len(live.row.moves), "status": status_of(live),
        "url": f"/play/{live.row.id}"}
    if live.over or live.row.cancelled:
        info["outcome"] = outcome_of(live)
        outcome = info["outcome"]
        results = None
        if outcome is not None:
            results = results_of(live.outcome().to_dict())  # type: ignore[union-attr]
        info["result"] = None if results is None or seat is None else results.get(seat)
    return info


def game_state(live: LiveGame, seats: Sequence[int]) -> dict[str, Any]:
    """A ``gameState`` line for a reader holding ``seats`` (none: a spectator): the whole
    move list in the game's notation, whose turn it is, the reader's legal moves when it is
    its turn (``None`` above :data:`~lifearena.web.live.MAX_LEGAL_SENT`), its own pending
    choice at a simultaneous turn (never the other seat's), clocks, offers and status."""
    awaiting = [] if live.waiting_for_opponent else live.awaiting()
    turn = [seat for seat in seats if seat in awaiting]
    legal: list[str] | None = []
    count = 0
    if len(turn) == 1:
        state = live.state
        actions = state.legal_actions(turn[0])
        count = len(actions)
        legal = ([state.action_to_string(a, turn[0]) for a in actions]
                 if count <= MAX_LEGAL_SENT else None)
    pending = live.row.pending
    return {"type": "gameState", "moves": list(live.row.moves),
            "move_number": len(live.row.moves), "awaiting": awaiting,
            "your_turn": bool(turn), "legal": legal, "legal_count": count,
            "chosen": sorted(int(s) for s in pending),
            "mine": next((pending[str(s)] for s in seats if str(s) in pending), None),
            "clock": live.clock_view(),
            "offers": {"draw": live.row.offers.get("draw"),
                       "draw_declined": live.row.offers.get("draw_declined")},
            "status": status_of(live), "outcome": outcome_of(live)}


def game_full(live: LiveGame, seats: Sequence[int]) -> dict[str, Any]:
    """The ``gameFull`` line a game stream starts with: the game, its parameters and start,
    the players on its seats, the reader's seat, and its state now."""
    info = live.state.info
    entry = catalog.CATALOG.get(live.row.game)
    return {"type": "gameFull", "id": live.row.id, "game": live.row.game,
            "title": entry.title if entry else live.row.game,
            "params": live.row.params, "setup": live.row.setup, "rated": live.rated,
            "clock": live.row.opponent.get("clock"), "symbols": list(info.player_symbols),
            "simultaneous": info.dynamics.value == "simultaneous",
            "seats": list(live.people),
            "your_seat": seats[0] if len(seats) == 1 else None,
            "your_seats": list(seats), "state": game_state(live, seats)}


class Share(Protocol):
    """What carries a replica's news to the others
    (:class:`~lifearena.web.bot_share.BotShare`)."""

    def told(self, player_id: str, message: dict[str, Any]) -> None:
        """``message`` was told to ``player_id``'s event streams here."""

    def added(self, challenge: PlayerChallenge) -> None:
        """A challenge was made here."""

    def closed(self, challenge: PlayerChallenge) -> None:
        """A challenge was accepted, declined or cancelled here."""

    async def arrival(self, challenge_id: str) -> None:
        """Wait a moment for the news of a challenge made elsewhere."""

    async def claim(self, challenge: PlayerChallenge, outcome: str) -> None:
        """Take the challenge's one outcome among the replicas."""

    async def unclaim(self, challenge: PlayerChallenge, outcome: str) -> None:
        """Give back an outcome taken by :meth:`claim`."""


class BotEvents:
    """The streams of one server (see the module)."""

    def __init__(self, players: PlayerStore | None,
                 challenges: PlayerChallenges | None = None) -> None:
        self.players = players
        self.challenges = challenges if challenges is not None else PlayerChallenges()
        self.challenges.on_close = self._challenge_closed
        self.events: dict[str, dict[str, Feed]] = {}
        """Each player's event streams, by token (or session) key."""
        self.games: dict[str, dict[Feed, tuple[int, ...]]] = {}
        """Each game's streams and the seats each reader holds."""
        self._game_keys: dict[tuple[str, str], Feed] = {}
        self._game_streams_of: dict[str, int] = {}
        self.share: Share | None = None
        """The link to the other replicas' streams (``None``: a single server)."""

    # -- registering streams -------------------------------------------------------------

    def open_events(self, player_id: str, key: str) -> Feed:
        """A new event stream of ``player_id`` under ``key`` (its token's), replacing the
        one that key had; :class:`TooMany` past the bounds."""
        mine = self.events.get(player_id, {})
        old = mine.get(key)
        if old is None and len(mine) >= EVENT_STREAMS_PER_PLAYER:
            raise TooMany(f"{EVENT_STREAMS_PER_PLAYER} event streams of this player are open, "
                          "the most allowed; close one (one stream per token is enough)")
        if old is None and sum(len(f) for f in self.events.values()) >= MAX_EVENT_STREAMS:
            raise TooMany("this server holds as many event streams as it can; try again later")
        if old is not None:
            old.close("replaced by a newer stream of the same token")
        feed = Feed(EVENT_FEED_SIZE)
        self.events.setdefault(player_id, {})[key] = feed

        def forget() -> None:
            held = self.events.get(player_id, {})
            if held.get(key) is feed:
                del held[key]
                if not held:
                    self.events.pop(player_id, None)

        feed.on_close(forget)
        return feed

    def open_game(self, live: LiveGame, player_id: str | None, key: str,
                  seats: Sequence[int]) -> Feed:
        """A new stream of the game ``live`` for the reader ``key`` holding ``seats``, its
        ``gameFull`` queued (no change can come between: nothing here awaits)."""
        game_id = live.row.id
        old = self._game_keys.get((key, game_id))
        owner = player_id or key
        if old is None:
            if self._game_streams_of.get(owner, 0) >= GAME_STREAMS_PER_PLAYER:
                raise TooMany(f"{GAME_STREAMS_PER_PLAYER} game streams of this player are "
                              "open, the most allowed; close those of finished games")
            if sum(self._game_streams_of.values()) >= MAX_GAME_STREAMS:
                raise TooMany("this server holds as many game streams as it can; try again "
                              "later")
        else:
            old.close("replaced by a newer stream of the same game and token")
        feed = Feed()
        self.games.setdefault(game_id, {})[feed] = tuple(seats)
        self._game_keys[(key, game_id)] = feed
        self._game_streams_of[owner] = self._game_streams_of.get(owner, 0) + 1

        def forget() -> None:
            readers = self.games.get(game_id, {})
            readers.pop(feed, None)
            if not readers:
                self.games.pop(game_id, None)
            if self._game_keys.get((key, game_id)) is feed:
                del self._game_keys[(key, game_id)]
            left = self._game_streams_of.get(owner, 1) - 1
            if left > 0:
                self._game_streams_of[owner] = left
            else:
                self._game_streams_of.pop(owner, None)

        feed.on_close(forget)
        feed.offer(game_full(live, seats))
        if live.over or live.row.cancelled:
            feed.close("the game is over")
        return feed

    # -- the server's news ---------------------------------------------------------------

    def seated(self, live: LiveGame) -> None:
        """Players were seated in ``live`` (a new game, a claimed seat): tell each holder."""
        for player_id in dict.fromkeys(live.holders.values()):
            self.tell(player_id, {"type": "gameStart", "game": game_info(live, player_id)})

    def changed(self, live: LiveGame, finished: bool) -> None:
        """``live`` changed (``finished``: it has just ended): a state line to each of its
        streams (built once per distinct seats), and the holders told of its end."""
        readers = self.games.get(live.row.id)
        if readers:
            lines: dict[tuple[int, ...], bytes] = {}
            over = live.over or live.row.cancelled
            for feed, seats in list(readers.items()):
                line = lines.get(seats)
                if line is None:
                    line = lines[seats] = line_of(game_state(live, seats))
                feed.offer(line)
                if over:
                    feed.close("the game is over")
        if finished:
            for player_id in dict.fromkeys(live.holders.values()):
                self.tell(player_id, {"type": "gameFinish",
                                      "game": game_info(live, player_id)})

    def tell(self, player_id: str, message: dict[str, Any]) -> None:
        """Offer ``message`` to every event stream of ``player_id``, here and on the other
        replicas."""
        if self.share is not None:
            self.share.told(player_id, message)
        self.tell_here(player_id, message)

    def tell_here(self, player_id: str, message: dict[str, Any]) -> None:
        """Offer ``message`` to the event streams of ``player_id`` opened on this server."""
        feeds = self.events.get(player_id)
        if not feeds:
            return
        line = line_of(message)
        for feed in list(feeds.values()):
            feed.offer(line)

    # -- challenges ----------------------------------------------------------------------

    def names(self, challenge: PlayerChallenge) -> dict[str, dict[str, Any]]:
        """The public entries of a challenge's two players (with their ratings in its
        game), by id."""
        if self.players is None:
            return {}
        found = self.players.named([challenge.challenger, challenge.dest])
        entries: dict[str, dict[str, Any]] = {}
        for player_id, player in found.items():
            entry: dict[str, Any] = {"id": player.id, "name": player.shown,
                                     "kind": player.kind}
            if player.has_account or player.kind == COMPUTER:
                rating = self.players.rating(player.id, challenge.game).to_json()
                entry["rating"] = rating["rating"]
                entry["provisional"] = rating["provisional"]
            entries[player_id] = entry
        return entries

    def challenge_json(self, challenge: PlayerChallenge) -> dict[str, Any]:
        """A challenge with its players' names."""
        return challenge.to_json(self.names(challenge))

    def challenge_made(self, challenge: PlayerChallenge) -> None:
        """Tell both players of a new challenge (and the other replicas of the challenge
        first, so that a bot told of it anywhere may answer it there)."""
        if self.share is not None:
            self.share.added(challenge)
        message = {"type": "challenge", "challenge": self.challenge_json(challenge)}
        for player_id in (challenge.dest, challenge.challenger):
            self.tell(player_id, message)

    async def arrival(self, challenge_id: str) -> None:
        """Wait a moment for the news of a challenge made on another replica, when
        ``challenge_id`` is not known here (nothing to wait for on a single server)."""
        if self.share is not None and not self.challenges.known(challenge_id):
            await self.share.arrival(challenge_id)

    async def claim(self, challenge: PlayerChallenge, outcome: str) -> None:
        """Take the one outcome of ``challenge`` (``accepted``, ``declined``,
        ``cancelled``) among the replicas: :class:`ChallengeAnswered` (409) when another
        replica answered it first (nothing to take on a single server)."""
        if self.share is not None:
            await self.share.claim(challenge, outcome)

    async def unclaim(self, challenge: PlayerChallenge, outcome: str) -> None:
        """Give back an outcome taken by :meth:`claim` whose change then failed."""
        if self.share is not None:
            await self.share.unclaim(challenge, outcome)

    def _challenge_closed(self, challenge: PlayerChallenge) -> None:
        if challenge.status != "expired" and self.share is not None:
            self.share.closed(challenge)  # every replica expires its copy by itself
        kind = {"declined": "challengeDeclined", "cancelled": "challengeCanceled",
                "expired": "challengeCanceled"}.get(challenge.status)
        if kind is None:  # accepted: the game's start says it
            return
        message = {"type": kind, "challenge": self.challenge_json(challenge)}
        for player_id in (challenge.challenger, challenge.dest):
            if challenge.status == "expired":
                self.tell_here(player_id, message)
            else:
                self.tell(player_id, message)


__all__ = ["EVENT_STREAMS_PER_PLAYER", "GAME_STREAMS_PER_PLAYER", "BotEvents", "Share",
           "game_full", "game_info", "game_state", "outcome_of", "status_of"]
