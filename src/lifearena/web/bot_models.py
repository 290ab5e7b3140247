"""The request bodies of the bot API's challenges (:mod:`lifearena.web.bot_api`), declared
as every body of the server is (:mod:`lifearena.web.models`: exact types, unknown fields
refused).

>>> PlayerChallengeBody(game="blocking_queen", params={"k": 2}, colour=0).rated
False
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from lifearena.web.models import MAX_PARAMS, Declared, ParamValue, Seat, TimeControl
from lifearena.web.player_challenges import DECLINE_REASONS


class PlayerChallengeBody(Declared):
    """``POST /api/challenge/{name}``: a challenge to the player ``name``."""

    game: Annotated[str, Field(max_length=40)] = Field(
        description="one of the catalog's games (war_of_life, life_for_two, ...)")
    params: dict[Annotated[str, Field(max_length=40)], ParamValue] = Field(
        default_factory=dict, max_length=MAX_PARAMS,
        description="the game's parameters, checked against the catalog's bounds")
    clock: TimeControl | None = Field(None, description="the time control (none: untimed)")
    rated: bool = Field(False, description="a rated game: needs accounts on both sides "
                                           "(bots are accounts)")
    colour: Seat | Literal["random"] = Field(
        "random", description="the challenger's seat: 0 moves first, or random")


class DeclineBody(Declared):
    """``POST /api/challenge/{id}/decline``: why (optional)."""

    reason: Literal[DECLINE_REASONS] = Field(  # type: ignore[valid-type]
        "generic", description=f"one of {', '.join(DECLINE_REASONS)}")
