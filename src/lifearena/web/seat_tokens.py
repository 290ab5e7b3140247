"""The seat token a game's request acts with, as every route that acts for a seat takes it:
the ``X-Seat-Token`` header, else the token of the seat the request's player (session cookie
or API token) holds in the game (:data:`Token`, a FastAPI dependency)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

from fastapi import Depends, Header, Request

from lifearena.web.heavy import client_of
from lifearena.web.identity import Identity
from lifearena.web.models import MAX_TOKEN

if TYPE_CHECKING:
    from lifearena.web.rooms import Rooms

SeatToken = Annotated[str | None, Header(alias="X-Seat-Token", max_length=MAX_TOKEN,
                                         description="the seat's private token")]
"""The ``X-Seat-Token`` header alone."""


async def seat_token(game_id: str, request: Request, token: SeatToken = None) -> str | None:
    """The seat token a request acts with: its ``X-Seat-Token``, else the token of the seat
    its player (session cookie or API token) holds in the game, else none."""
    if token:
        return token
    identity: Identity = request.app.state.identity
    player = identity.player_of(request)
    if player is None:
        return None
    server: Rooms = request.app.state.server
    live = await server.game(game_id, client_of(request.client))
    return live.token_of_player(player.id)


Token = Annotated[str | None, Depends(seat_token)]
"""A route's seat token (:func:`seat_token`)."""
