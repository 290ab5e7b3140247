"""Why the server refuses a player's request: the seat is not theirs, or it is not the time.

:mod:`lifearena.web.live` and :mod:`lifearena.web.endings` raise them; the server answers
403 and 409 (:func:`lifearena.web.app.status_of`)."""

from __future__ import annotations

from lifearena.errors import LifeArenaError


class SeatError(LifeArenaError):
    """A move from someone who may not make it: no token, a wrong token, or another seat."""


class TurnError(LifeArenaError):
    """A move at the wrong time: out of turn, a second choice, or after the end."""


__all__ = ["SeatError", "TurnError"]
