"""The routes that teach a game: its rules card and the preview of a move.

* ``GET /api/rules/{game}``: the rules card (:class:`~lifearena.core.RulesCard`) of a game
  under the parameters a new game of the home page's form has, for pages without a live
  game (the home page, the lesson page).
* ``GET /api/games/{id}/rules``: the card of a live game, worded for its parameters (p2life's
  edges and seed, Losat's neighbourhood and goal lines, the queen game's k...).
* ``POST /api/games/{id}/preview`` ``{"move": "...", "seat": 0}`` with the seat's token as
  ``POST /api/games/{id}/moves`` takes it: ``{"display": ...}``, the position after that move
  as that seat would see it, nothing played. Its ``before``, ``births`` and ``deaths`` show
  what the move's generation changed (War of Life's crank), or, in a game whose move runs no
  generation (Losat, the queen game's grid-less board aside), what the move itself changed.
  Refused with a 4xx and one line: no seat (403), a seat that is not to move, a game over
  (409), a simultaneous game (400: its result hangs on the other side's hidden choice), a
  move that does not parse (400) or is not legal (422, the presentation's reason).

A card depends on a game's rules parameters and the kind of its state, never on its position;
cards are kept (:data:`CARDS` of them, the least recently used forgotten) and built, when not
kept, in the server's slow-work pool (a card plays an example move: up to 1.5 ms), so a route
never builds one on the event loop; the home page's five are built when the routes are made,
before the server answers. A preview plays one move on a copy of the seat's own view
(``state.view(seat)``): 0.1 to 0.25 ms for War of Life and Losat
(``benchmarks/bench_preview.py``), so it runs on the event loop, under a per-address rate
(:data:`PREVIEWS_PER_SECOND`).

p2life's turns are simultaneous, so it has no preview; were it turn-based, its coins would
not need hiding: a 3-vs-3 birth's coin is a hash of the game's seed, which every seat sees
among the game's parameters, so the preview would simply be the truth.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Request
from fastapi.responses import Response

from lifearena.core import SIMULTANEOUS, TERMINAL, State, get_game, presentation_of
from lifearena.errors import LifeArenaError
from lifearena.games._display import with_change
from lifearena.web import catalog
from lifearena.web.heavy import client_of
from lifearena.web.limits import BoundedTable, MessageRate, TooMany, address_key
from lifearena.web.live import LiveGame
from lifearena.web.models import Preview
from lifearena.web.refusals import SeatError, TurnError
from lifearena.web.seat_tokens import Token

if TYPE_CHECKING:
    from lifearena.web.rooms import Rooms

CARDS = 512
"""Rules cards kept, by game, parameters and kind of state (a p2life game's seed is one of
its rules' parameters, so its cards are many)."""
PREVIEWS_PER_SECOND = 10.0
"""Previews one client address may ask for per second, on average (a person hovering over
moves asks a few)."""
PREVIEW_BURST = 20
"""Previews one address may ask for at once before the rate applies."""

CardKey = tuple[str, str, str]
"""A card's game, rules parameters (as sorted JSON) and kind of state."""


class NotTurnBased(LifeArenaError):
    """A preview asked of a game whose players move at once (answered 400)."""


def card_key(state: State) -> CardKey:
    """What ``state``'s rules card depends on: its game, its rules' parameters, its kind."""
    return (state.info.name, json.dumps(state.params, sort_keys=True, default=str),
            type(state).__name__)


def card_answer(game: str, params: dict[str, Any], setup: str) -> bytes:
    """The rules card of ``game`` under ``params``, from a state at ``setup`` (which says the
    kind of state: Life for Two's 1978 program is ``classic``), as the route's JSON body.
    A module-level function of plain values: it runs in a slow-work worker process.

    >>> body = json.loads(card_answer("war_of_life", {}, "[[[1,1]],[[8,8]]]"))
    >>> [section["title"] for section in body["sections"]], body["lesson"]
    (['Your move', 'The rule of Life', 'How to win'], '/learn/war_of_life')
    """
    state = get_game(game, params).state_from_setup(setup)
    card = presentation_of(state).rules(state)
    return json.dumps(card.to_dict(), separators=(",", ":")).encode()


def default_state(game: str) -> State:
    """The start of a new game of ``game`` as the home page's form makes it by default."""
    return catalog.entry_of(game).game_type.from_served({}).new_initial_state()


def default_answer(game: str) -> bytes:
    """The rules card of ``game`` under the home page's form's defaults, as the route's JSON
    body (making that start takes about a millisecond: it is done once, or in a worker)."""
    state = default_state(game)
    return card_answer(game, state.game.params, state.setup())


def preview(live: LiveGame, seat: int, text: str) -> dict[str, Any]:
    """``{"display": ...}``: the position after ``seat`` plays ``text`` in ``live``, as that
    seat sees it, played on a copy of its own view; :class:`TurnError`,
    :class:`NotTurnBased`, :class:`~lifearena.errors.ParseError` or
    :class:`~lifearena.errors.IllegalMoveError` with one line when it cannot be shown."""
    live.refuse_if_ended()
    if live.row.cancelled:
        raise TurnError("this game was cancelled by its creator; no move can be played")
    state = live.state
    current = state.current_player()
    if current == TERMINAL:
        raise TurnError("the game is over; no move can be previewed")
    if current == SIMULTANEOUS:
        raise NotTurnBased(f"preview is for turn-based games; in {state.info.name} both "
                           "players choose at once, so what a move does depends on the "
                           "other's hidden choice")
    if current != seat:
        symbols = state.info.player_symbols
        who = symbols[current] if 0 <= current < len(symbols) else "nobody"
        raise TurnError(f"it is not {symbols[seat]}'s turn; {who} is to move")
    view = state.view(seat)
    shown = presentation_of(view)
    action = view.read_move(text.strip(), seat)
    before = shown.display(view, seat)
    view.apply_action(action)
    after = shown.display(view, seat)
    if "grid" in before:
        after = with_change(after, before["grid"]["cells"])
    return {"display": after}


class Cards:
    """The kept rules cards, each as its answer's bytes: by :func:`card_key`, and the home
    page's (each game under its form's defaults) by game."""

    def __init__(self, size: int = CARDS) -> None:
        self.kept: BoundedTable[CardKey, bytes] = BoundedTable(size)
        self.defaults: dict[str, bytes] = {}

    async def of(self, server: Rooms, client: str, state: State,
                 params: dict[str, Any], setup: str) -> bytes:
        """The card of ``state`` (a game under ``params`` started at ``setup``): kept, or
        built in the slow-work pool for ``client`` and kept."""
        key = card_key(state)
        body = self.kept.get(key)
        if body is None:
            body = await server.heavy.run(client, card_answer, state.info.name, params,
                                          setup)
            self.kept[key] = body
        return body

    async def default(self, server: Rooms, client: str, game: str) -> bytes:
        """The card of ``game`` under the form's defaults: kept, or built in the slow-work
        pool for ``client`` and kept."""
        body = self.defaults.get(game)
        if body is None:
            body = self.defaults[game] = await server.heavy.run(client, default_answer, game)
        return body

    def warm(self) -> None:
        """Build the home page's cards now, those not kept yet."""
        for game in catalog.GAMES:
            if game not in self.defaults:
                self.defaults[game] = default_answer(game)


KEPT = Cards()
"""This process's rules cards (every server of the process shares them: a card depends on
nothing but its game)."""


def router_for(server: Rooms, cards: Cards = KEPT) -> APIRouter:
    """The rules and preview routes over ``server`` (its games, its slow-work pool and the
    seat tokens of its move routes). The home page's cards are built now, before the server
    answers (once per process: a few milliseconds once the engine's kernels are loaded)."""
    router = APIRouter()
    kept = cards
    kept.warm()
    rates: BoundedTable[str, MessageRate] = BoundedTable()

    @router.get("/api/rules/{game}")
    async def default_rules(game: str, request: Request) -> Response:
        name = catalog.entry_of(game).name  # an unknown game: 400, naming the known ones
        body = await kept.default(server, client_of(request.client), name)
        return Response(body, media_type="application/json")

    @router.get("/api/games/{game_id}/rules")
    async def game_rules(game_id: str, request: Request) -> Response:
        client = client_of(request.client)
        live = await server.game(game_id, client)
        body = await kept.of(server, client, live.state, dict(live.row.params),
                             live.row.setup)
        return Response(body, media_type="application/json")

    @router.post("/api/games/{game_id}/preview")
    async def preview_move(game_id: str, body: Preview, request: Request,
                           token: Token = None) -> dict[str, Any]:
        client = client_of(request.client)
        address = address_key(client)
        rate = rates.get(address)
        if rate is None:
            rate = rates[address] = MessageRate(PREVIEWS_PER_SECOND, PREVIEW_BURST)
        if not rate.allow():
            raise TooMany(f"more than {PREVIEWS_PER_SECOND:g} previews a second from this "
                          "address; try again in a moment")
        live = await server.game(game_id, client)
        held = live.seats_of(token)
        if not held:
            raise SeatError("a preview needs this seat's private link (token); spectators "
                            "cannot preview moves")
        seat = body.seat
        if seat is None:
            waiting = [s for s in held if s in live.awaiting()]
            seat = waiting[0] if waiting else held[0]
        if seat not in held:
            raise SeatError(f"this link does not play seat {seat}")
        return preview(live, seat, body.move)

    return router


__all__ = ["CARDS", "PREVIEWS_PER_SECOND", "Cards", "NotTurnBased", "card_answer",
           "card_key", "default_answer", "default_state", "preview",
           "router_for"]
