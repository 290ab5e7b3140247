"""The bot API, in lichess's shape: programs play the server's games over HTTP with a
personal API token (thin FastAPI routes over :mod:`lifearena.web.bot_events` and
:mod:`lifearena.web.player_challenges`; ``docs/bots.md``, "Online: the bot API").

Every route takes ``Authorization: Bearer <token>`` (made on the account page, or by
``POST /api/account/tokens``), never a token in the URL (URLs are logged: refused, 400). The
scopes each route needs are named below; a route marked *session* also takes a logged-in
browser's cookie (a person accepting a bot's challenge from the site).

* ``GET /api/stream/event`` (``bot:play``, ``board:read`` or ``challenge:write``; session):
  NDJSON, one event a line: ``gameStart`` and ``gameFinish`` (``{"type", "game": {id, game,
  seat, rated, clock, opponent, my_turn, move_number, status[, outcome, result]}}``),
  ``challenge``, ``challengeCanceled``, ``challengeDeclined`` (``{"type", "challenge":
  {...}}``), and an empty line every 7 s of silence. On connect, a ``gameStart`` for each
  game in progress the player holds and a ``challenge`` for each open challenge to or from
  it (a reconnecting bot resumes). One stream per token: a second replaces the first.
* ``GET /api/bot/game/stream/{id}`` (``bot:play`` or ``board:read``; session): NDJSON, a
  ``gameFull`` line (game, params, setup, seats' players and ratings, your seat, state), then
  a ``gameState`` line after every change (moves, clocks, offers, status, outcome); it ends
  with the game.
* ``POST /api/bot/game/{id}/move/{move}[?ply=N]`` (``bot:play``, bot accounts only): the move
  in the game's notation, URL-encoded; ``ply``, the move number it was chosen at, makes a
  repeated post harmless (409, nothing played twice). At a simultaneous turn it is the
  seat's hidden choice.
* ``POST /api/bot/game/{id}/resign``, ``POST /api/bot/game/{id}/draw/{yes|no}``
  (``bot:play``, bot accounts only): resign; offer or accept a draw (``yes``), decline one
  (``no``).
* ``POST /api/challenge/{name}`` (``challenge:write`` or ``bot:play``; session): challenge
  the player ``name`` (body :class:`~lifearena.web.bot_models.PlayerChallengeBody`); it gets
  a ``challenge`` event. ``GET /api/challenge``: the open challenges to and from me.
  ``POST /api/challenge/{id}/accept`` starts the game with both players seated (rated: both
  hold accounts); ``/decline`` (body ``{"reason": ...}``, optional); ``/cancel`` (the
  challenger's). A challenge expires after 10 minutes.

Bounds: per token, :data:`REQUESTS_PER_MINUTE` requests and :data:`MOVES_PER_SECOND` moves a
second (a burst of :data:`MOVE_BURST`); streams as :mod:`lifearena.web.bot_events` says;
challenges as :mod:`lifearena.web.player_challenges` says. Past a bound: 429, one line. Every
error is ``{"error": "one line"}`` with a 4xx status.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import APIRouter, Query, Request, Response

from lifearena.errors import BadParameterError, ParseError
from lifearena.web.attempts import WindowCounter
from lifearena.web.bot_events import BotEvents, game_info
from lifearena.web.bot_models import DeclineBody, PlayerChallengeBody
from lifearena.web.bot_share import follow_remotely
from lifearena.web.feeds import FeedResponse
from lifearena.web.heavy import client_of
from lifearena.web.identity import Identity, MissingScope, NotLoggedIn
from lifearena.web.limits import BoundedTable, MessageRate, TooMany, address_key
from lifearena.web.lobby import check_challenge
from lifearena.web.models import MAX_MOVE_TEXT, MAX_PLY, Move
from lifearena.web.player_challenges import PlayerChallenge
from lifearena.web.players import BOT, COMPUTER, DELETED, Player, UnknownPlayer, digest
from lifearena.web.refusals import SeatError

if TYPE_CHECKING:
    from lifearena.web.rooms import Rooms

REQUESTS_PER_MINUTE = 600
"""Requests one token may make in a minute (streams opened included)."""
MOVES_PER_SECOND = 10.0
"""Moves one token may post a second, on average, over all its games."""
MOVE_BURST = 20
"""Moves one token may post at once before :data:`MOVES_PER_SECOND` applies."""
EVENT_SCOPES = ("bot:play", "board:read", "challenge:write")
GAME_SCOPES = ("bot:play", "board:read")
CHALLENGE_SCOPES = ("challenge:write", "bot:play")
MY_GAMES = 100
"""Most games in progress a new event stream looks at."""


class TooManyRequests(TooMany):
    """A token past its bound of requests or moves (429)."""


@dataclass
class TokenLimits:
    """Requests a minute and moves a second, per token (or per browser player)."""

    requests_per_minute: int = REQUESTS_PER_MINUTE
    moves_per_second: float = MOVES_PER_SECOND
    move_burst: int = MOVE_BURST
    _requests: WindowCounter | None = None
    _moves: BoundedTable[str, MessageRate] = field(default_factory=BoundedTable)

    def request(self, key: str) -> None:
        """Count one request of ``key``; :class:`TooManyRequests` past the bound."""
        if self._requests is None or self._requests.limit != self.requests_per_minute:
            self._requests = WindowCounter(self.requests_per_minute, 60.0)
        if self._requests.full(key):
            wait = self._requests.retry_after(key)
            raise TooManyRequests(f"{self.requests_per_minute} requests of this token in the "
                                  f"last minute, the most allowed; retry in {wait:.0f} s")
        self._requests.add(key)

    def move(self, key: str) -> None:
        """Count one move of ``key``; :class:`TooManyRequests` past the bound."""
        rate = self._moves.peek(key)
        if rate is None:
            rate = MessageRate(self.moves_per_second, self.move_burst)
        self._moves[key] = rate
        if not rate.allow():
            raise TooManyRequests(f"more than {self.moves_per_second:g} moves a second from "
                                  "this token; slow down")


@dataclass
class Caller:
    """Who a request of the bot API comes from: the player, and the key its streams and
    limits are kept under (its token's digest, or its session's player)."""

    player: Player
    key: str
    token: bool


def router_for(server: Rooms, identity: Identity, hub: BotEvents | None = None
               ) -> APIRouter:
    """The bot API's routes over ``server``; its streams (``hub``, made here when not
    given) are ``server``'s listener."""
    router = APIRouter()
    hub = hub if hub is not None else BotEvents(server.players)
    server.listeners.append(hub)
    limits = TokenLimits()
    # for tests and operators: the streams and the limits of this server's bot API
    server.bot_api = {"hub": hub, "limits": limits}
    book = server.players
    assert book is not None

    def caller(request: Request, scopes: tuple[str, ...], *, token_only: bool = False
               ) -> Caller:
        found = identity.bearer(request.headers)
        if found is not None:
            player, have = found
            if not set(scopes) & set(have):
                raise MissingScope(f"this API token lacks the scope {' or '.join(scopes)} (it "
                                   f"has {', '.join(have)})")
            secret = request.headers["authorization"].partition(" ")[2].strip()
            who = Caller(player, "t:" + digest(secret), True)
        else:
            if token_only:
                raise NotLoggedIn("this needs Authorization: Bearer <API token> with the scope "
                                  f"{' or '.join(scopes)}")
            player = identity.player_of(request)  # type: ignore[assignment]
            if player is None:
                raise NotLoggedIn("this needs an API token (Authorization: Bearer ...) or a "
                                  "logged-in session")
            who = Caller(player, "p:" + player.id, False)
        limits.request(who.key)
        return who

    def bot_caller(request: Request) -> Caller:
        who = caller(request, ("bot:play",), token_only=True)
        if who.player.kind != BOT:
            raise SeatError(f"only bot accounts play through the bot API (this is a "
                            f"{who.player.kind}); make the account a bot before its first "
                            "game (POST /api/account/bot), or play on the site")
        return who

    async def my_token(game_id: str, who: Caller, request: Request) -> tuple[str, Any]:
        live = await server.game(game_id, client_of(request.client))
        token = live.token_of_player(who.player.id)
        if token is None:
            raise SeatError("you hold no seat of this game")
        return token, live

    # -- streams ---------------------------------------------------------------------------

    @router.get("/api/stream/event")
    async def event_stream(request: Request) -> Response:
        who = caller(request, EVENT_SCOPES)
        feed = hub.open_events(who.player.id, who.key)
        client = client_of(request.client)
        # registered first: a game starting while the snapshot loads is told either way
        for challenge in [*hub.challenges.incoming(who.player.id),
                          *hub.challenges.outgoing(who.player.id)]:
            feed.offer({"type": "challenge", "challenge": hub.challenge_json(challenge)})
        for entry in book.games_of(who.player.id, finished=False, limit=MY_GAMES):
            try:
                live = await server.game(entry["game_id"], client)
            except Exception:  # a damaged game is not worth a broken stream
                continue
            if not (live.over or live.row.cancelled):
                feed.offer({"type": "gameStart", "game": game_info(live, who.player.id)})
        return FeedResponse(feed)

    @router.get("/api/bot/game/stream/{game_id}")
    async def game_stream(game_id: str, request: Request) -> Response:
        who = caller(request, GAME_SCOPES)
        live = await server.game(game_id, client_of(request.client))
        seats = live.seats_of_player(who.player.id)
        feed = hub.open_game(live, who.player.id, who.key, seats)
        follow_remotely(server, live, feed, seats)  # another replica owns the game
        return FeedResponse(feed)

    # -- playing -----------------------------------------------------------------------------

    @router.post("/api/bot/game/{game_id}/move/{move:path}")
    async def move(game_id: str, move: str, request: Request,
                   ply: Annotated[int | None, Query(ge=0, le=MAX_PLY)] = None
                   ) -> dict[str, Any]:
        who = bot_caller(request)
        if not move.strip():
            raise ParseError("empty move; expected a move in the game's notation")
        if len(move) > MAX_MOVE_TEXT:
            raise ParseError(f"move of {len(move)} characters; expected at most "
                             f"{MAX_MOVE_TEXT}")
        limits.move(who.key)
        token, live = await my_token(game_id, who, request)
        number = len(live.row.moves) if ply is None else ply
        played = await server.move(game_id, token, None, Move(move=move, ply=number),
                                   client_of(request.client))
        return {"ok": True, "move_number": len(played.row.moves)}

    @router.post("/api/bot/game/{game_id}/resign")
    async def resign(game_id: str, request: Request) -> dict[str, Any]:
        who = bot_caller(request)
        token, _ = await my_token(game_id, who, request)
        await server.resign(game_id, token, None, client_of(request.client))
        return {"ok": True}

    @router.post("/api/bot/game/{game_id}/draw/{answer}")
    async def draw(game_id: str, answer: str, request: Request) -> dict[str, Any]:
        who = bot_caller(request)
        actions = {"yes": "offer", "no": "decline"}
        if answer not in actions:
            raise BadParameterError(f"draw answer {answer[:20]!r}; expected yes (offer or "
                                    "accept) or no (decline)")
        token, _ = await my_token(game_id, who, request)
        await server.draw(game_id, token, None, actions[answer], client_of(request.client))
        return {"ok": True}

    # -- challenges --------------------------------------------------------------------------

    @router.get("/api/challenge")
    async def challenges(request: Request) -> dict[str, Any]:
        who = caller(request, EVENT_SCOPES)
        return {"in": [hub.challenge_json(c) for c in hub.challenges.incoming(who.player.id)],
                "out": [hub.challenge_json(c)
                        for c in hub.challenges.outgoing(who.player.id)]}

    @router.post("/api/challenge/{name}", status_code=201)
    async def challenge(name: str, body: PlayerChallengeBody, request: Request
                        ) -> dict[str, Any]:
        who = caller(request, CHALLENGE_SCOPES)
        dest = book.by_name(name) if 1 <= len(name) <= 40 else None
        if dest is None or dest.kind == DELETED:
            raise UnknownPlayer(f"no player named {name[:40]!r}")
        if dest.kind == COMPUTER:
            raise BadParameterError("the computer is played from the new-game form (opponent "
                                    "'agent'), not challenged; name a person or a bot")
        if body.rated and not (who.player.has_account and dest.has_account):
            raise SeatError("a rated game needs accounts on both sides (bots are accounts); "
                            "challenge casual (rated false)")
        params = check_challenge(body.game, body.params)
        clock = None if body.clock is None else body.clock.model_dump(exclude_none=True)
        server.clocks.check_control(clock)
        address = address_key(client_of(request.client))
        server.in_progress.check(address)  # its game will be in progress for its maker
        made = hub.challenges.create(who.player.id, address, dest.id, body.game, params,
                                     clock, body.rated, body.colour)
        hub.challenge_made(made)
        return {"challenge": hub.challenge_json(made)}

    @router.post("/api/challenge/{challenge_id}/accept")
    async def accept(challenge_id: str, request: Request) -> dict[str, Any]:
        who = caller(request, CHALLENGE_SCOPES)
        address = address_key(client_of(request.client))
        await hub.arrival(challenge_id)
        found = hub.challenges.answerable(challenge_id, who.player.id)
        check_rated(server, found, who.player, address)
        await hub.claim(found, "accepted")  # one answer among the replicas
        # no await from here on: the challenge cannot be taken twice
        creator = found.colour if isinstance(found.colour, int) else secrets.randbelow(2)
        try:
            answer, _ = server.start_seated(
                found.game, found.params, found.clock, creator, address, found.address,
                holders={creator: found.challenger, 1 - creator: found.dest},
                rated=found.rated)
        except Exception:
            await hub.unclaim(found, "accepted")
            raise
        hub.challenges.close(found, "accepted", game_id=answer["id"])
        return {"ok": True, "game": {"id": answer["id"], "seat": answer["seat"],
                                     "link": f"/play/{answer['id']}"},
                "challenge": hub.challenge_json(found)}

    @router.post("/api/challenge/{challenge_id}/decline")
    async def decline(challenge_id: str, request: Request,
                      body: DeclineBody | None = None) -> dict[str, Any]:
        who = caller(request, CHALLENGE_SCOPES)
        await hub.arrival(challenge_id)
        found = hub.challenges.answerable(challenge_id, who.player.id)
        await hub.claim(found, "declined")
        hub.challenges.close(found, "declined", reason=(body or DeclineBody()).reason)
        return {"ok": True}

    @router.post("/api/challenge/{challenge_id}/cancel")
    async def cancel(challenge_id: str, request: Request) -> dict[str, Any]:
        who = caller(request, CHALLENGE_SCOPES)
        await hub.arrival(challenge_id)
        found = hub.challenges.cancellable(challenge_id, who.player.id)
        await hub.claim(found, "cancelled")
        hub.challenges.close(found, "cancelled")
        return {"ok": True}

    return router


def check_rated(server: Rooms, challenge: PlayerChallenge, acceptor: Player,
                address: str) -> None:
    """Refuse a rated challenge's acceptance when it cannot be rated: an acceptor without
    an account, or both sides at one client address (unless the server allows it)."""
    if not challenge.rated:
        return
    if not acceptor.has_account:
        raise SeatError("this challenge is rated: sign up or log in to accept it")
    if address == challenge.address and not server.settings.rated_within_address:
        raise SeatError("both sides of a rated game cannot play from one address; ask for a "
                        "casual challenge")


__all__ = ["REQUESTS_PER_MINUTE", "TokenLimits", "TooManyRequests", "router_for"]
