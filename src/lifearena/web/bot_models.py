"""The request bodies of the bot API's challenges (:mod:`lifearena.web.bot_api`), declared
as every body of the server is (:mod:`lifearena.web.models`: exact types, unknown fields
refused).

>>> PlayerChallengeBody(game="blocking_queen", params={"k": 2}, colour=0).rated
False
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from lifearena.web.models import ChallengeTerms, Declared
from lifearena.web.player_challenges import DECLINE_REASONS


class PlayerChallengeBody(ChallengeTerms):
    """``POST /api/challenge/{name}``: a challenge to the player ``name``."""


class DeclineBody(Declared):
    """``POST /api/challenge/{id}/decline``: why (optional)."""

    reason: Literal[DECLINE_REASONS] = Field(  # type: ignore[valid-type]
        "generic", description=f"one of {', '.join(DECLINE_REASONS)}")
