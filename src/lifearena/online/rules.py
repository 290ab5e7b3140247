"""Which challenges a connected bot accepts, and time controls written as text.

>>> rules = AcceptRules(games=frozenset({"war_of_life"}), mode="casual", max_games=1)
>>> challenge = {"game": "war_of_life", "rated": True, "clock": None}
>>> rules.refusal(challenge, playing=0)
'casual'
>>> rules.refusal({**challenge, "rated": False}, playing=1)
'later'
>>> parse_clock("3+2"), parse_clock("2d"), parse_clock("none")
({'kind': 'live', 'minutes': 3.0, 'increment': 2.0}, {'kind': 'correspondence', 'days': 2}, None)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from lifearena.errors import BadParameterError

Mode = Literal["any", "rated", "casual", "none"]
CLOCK_KINDS = ("untimed", "live", "correspondence")


@dataclass(frozen=True)
class AcceptRules:
    """``games``: the games accepted (``None``: any); ``mode``: rated and casual
    challenges, one of them, or none; ``clocks``: the kinds of time control accepted
    (``None``: any); ``max_games``: games played at once (past it: declined as ``later``)."""

    games: frozenset[str] | None = None
    mode: Mode = "any"
    clocks: frozenset[str] | None = None
    max_games: int = 2

    def refusal(self, challenge: dict[str, Any], playing: int) -> str | None:
        """The decline reason for ``challenge`` (as the event stream gives it) while
        ``playing`` games go on, or ``None`` to accept it."""
        if self.mode == "none":
            return "generic"
        if self.games is not None and challenge.get("game") not in self.games:
            return "game"
        rated = bool(challenge.get("rated"))
        if self.mode == "rated" and not rated:
            return "rated"
        if self.mode == "casual" and rated:
            return "casual"
        clock = challenge.get("clock")
        kind = "untimed" if not clock else str(clock.get("kind"))
        if self.clocks is not None and kind not in self.clocks:
            return "clock"
        if playing >= self.max_games:
            return "later"
        return None


def parse_clock(text: str) -> dict[str, Any] | None:
    """A time control from ``MINUTES+INCREMENT`` (live), ``DAYSd`` (correspondence) or
    ``none``."""
    value = text.strip().lower()
    if value in ("none", "untimed", ""):
        return None
    try:
        if value.endswith("d"):
            return {"kind": "correspondence", "days": int(value[:-1])}
        minutes, _, increment = value.partition("+")
        return {"kind": "live", "minutes": float(minutes), "increment": float(increment or 0)}
    except ValueError:
        raise BadParameterError(f"--clock {text!r}; expected MINUTES+INCREMENT (3+2), DAYSd "
                                "(2d) or none") from None


__all__ = ["CLOCK_KINDS", "AcceptRules", "parse_clock"]
