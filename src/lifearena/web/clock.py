"""The clocks of timed web games: pure bookkeeping, no timers and no event loop.

A game's :class:`GameClock` holds its time control (:class:`~lifearena.web.models.TimeControl`
as a dict), each seat's time left and which seats' clocks run. Times are seconds of one
``now`` clock the server gives (:func:`steady_wall`: wall time that never jumps while the
process runs), so a clock stored in a row reads the same after a restart.

The rules it keeps:

* **live** (``minutes``, ``increment``): each side has ``minutes`` for the game and gains
  ``increment`` seconds when it moves (a simultaneous game: when it commits its choice).
* **correspondence** (``days``): each move has ``days`` days; a side's time is full again
  once it moves.
* Nobody's clock runs before the game's first move (the first mover's first move, or a
  simultaneous game's first turn, is untimed; no increment is given for it); from then on a
  turn-based game runs the clock of the side to move, a simultaneous game every side that
  has not chosen yet. Clocks stop at the end.
* A clock may be **paused** (``since`` is ``None`` while its seats still count as running):
  the server pauses every running clock when it stops and resumes them when it loads the
  game again, so time while the server is down is not charged. After a crash (no pause
  was stored) the time since the last stored change is charged: at most the downtime.

>>> clock = GameClock.start({"kind": "live", "minutes": 1, "increment": 2})
>>> clock.run([1], now=100.0)            # after the first move: the second side's clock runs
>>> clock.left(1, now=130.0)
30.0
>>> clock.moved(1, now=130.0); clock.run([0], now=130.0)
>>> clock.remaining, clock.running
([60.0, 32.0], [0])
>>> clock.next_flag(now=130.0), clock.flagged(now=190.0)
(60.0, [0])
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from lifearena.agents.base import Limit

AGENT_SHARE = 30
"""An agent with a clock thinks at most its time left over this, plus its increment."""
_WALL0, _MONO0 = time.time(), time.monotonic()


def steady_wall() -> float:
    """Wall-clock seconds since the epoch, advancing with :func:`time.monotonic` while this
    process runs (a clock set back or forward does not change anyone's time left)."""
    return _WALL0 + (time.monotonic() - _MONO0)


def allowance(control: Mapping[str, Any]) -> float:
    """The seconds a side starts with (live) or has for each move (correspondence).

    >>> allowance({"kind": "live", "minutes": 0.5}), allowance({"kind": "correspondence",
    ...                                                         "days": 2})
    (30.0, 172800.0)
    """
    if control.get("kind") == "correspondence":
        return float(control["days"]) * 86_400.0
    return float(control["minutes"]) * 60.0


@dataclass
class GameClock:
    """Both seats' clocks of one game. ``remaining[seat]`` is the seat's time left as of
    ``since`` (for a running seat) or for good (a stopped one); ``since`` is ``None`` while
    the clocks are paused or none runs."""

    control: dict[str, Any]
    remaining: list[float]
    running: list[int] = field(default_factory=list)
    since: float | None = None

    @classmethod
    def start(cls, control: Mapping[str, Any]) -> GameClock:
        """The clocks of a new game: full time each, none running."""
        full = allowance(control)
        return cls(dict(control), [full, full])

    # -- reading -------------------------------------------------------------------------------

    def left(self, seat: int, now: float) -> float:
        """``seat``'s time left at ``now`` (negative once its flag has fallen)."""
        if seat in self.running and self.since is not None:
            return self.remaining[seat] - max(0.0, now - self.since)
        return self.remaining[seat]

    def flagged(self, now: float) -> list[int]:
        """The running seats whose time is up at ``now``."""
        return [seat for seat in self.running if self.left(seat, now) <= 0]

    def next_flag(self, now: float) -> float | None:
        """Seconds from ``now`` until the first running clock runs out (``None``: none runs,
        or the clocks are paused)."""
        if not self.running or self.since is None:
            return None
        return max(0.0, min(self.left(seat, now) for seat in self.running))

    def view(self, now: float) -> dict[str, Any]:
        """The clocks as a page sees them: each seat's time left at ``now`` in milliseconds,
        the running seats, and ``now`` (ms since the epoch) to tick from.

        >>> GameClock.start({"kind": "live", "minutes": 1}).view(5.0)["remaining_ms"]
        [60000, 60000]
        """
        return {"control": dict(self.control),
                "remaining_ms": [max(0, math.ceil(self.left(s, now) * 1000)) for s in (0, 1)],
                "running": list(self.running) if self.since is not None else [],
                "server_now": round(now * 1000)}

    # -- changing ------------------------------------------------------------------------------

    def charge(self, now: float) -> None:
        """Take the time since ``since`` off every running seat (nothing while paused)."""
        if self.since is not None:
            for seat in self.running:
                self.remaining[seat] -= max(0.0, now - self.since)
            self.since = now

    def moved(self, seat: int, now: float) -> None:
        """``seat`` has moved (or committed its choice) at ``now``: its time is charged and
        it gains its increment (live) or its next move's full time (correspondence)."""
        self.charge(now)
        if self.control.get("kind") == "correspondence":
            self.remaining[seat] = allowance(self.control)
        else:
            self.remaining[seat] += float(self.control.get("increment") or 0.0)

    def run(self, seats: Iterable[int], now: float) -> None:
        """From ``now`` on, the clocks of ``seats`` run (no seat: all stopped)."""
        self.charge(now)
        self.running = sorted(set(seats))
        self.since = now if self.running else None

    def stop(self, now: float) -> None:
        """Stop every clock (the game is over); a flagged seat keeps zero."""
        self.run([], now)
        self.remaining = [max(0.0, left) for left in self.remaining]

    def pause(self, now: float) -> None:
        """Charge the running seats up to ``now`` and hold their clocks (the server stops);
        :meth:`resume` starts them again."""
        self.charge(now)
        self.since = None

    def resume(self, now: float) -> None:
        """Start paused clocks again at ``now`` (clocks not paused are left alone)."""
        if self.running and self.since is None:
            self.since = now

    def agent_limit(self, seat: int, limit: Limit | None, now: float) -> Limit | None:
        """An agent's thinking limit under this clock: its level's ``limit``, held to its
        time left over :data:`AGENT_SHARE` plus its increment (live clocks only).

        >>> clock = GameClock.start({"kind": "live", "minutes": 0.5, "increment": 1})
        >>> clock.agent_limit(1, Limit(time=5.0), now=0.0)
        Limit(time=2.0, nodes=None, simulations=None, depth=None)
        >>> clock.agent_limit(1, None, now=0.0).time
        2.0
        """
        if self.control.get("kind") != "live":
            return limit
        budget = max(0.05, max(0.0, self.left(seat, now)) / AGENT_SHARE
                     + float(self.control.get("increment") or 0.0))
        budget = min(budget, max(0.05, self.left(seat, now) / 2))
        if limit is None:
            return Limit(time=budget)
        if limit.time is not None and limit.time <= budget:
            return limit
        return dataclasses.replace(limit, time=budget)

    # -- storing -------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The clock as a row keeps it (JSON)."""
        return {"control": dict(self.control), "remaining": list(self.remaining),
                "running": list(self.running), "since": self.since}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameClock:
        """The clock :meth:`to_dict` wrote; :class:`ValueError` naming a malformed field.

        >>> GameClock.from_dict({"control": {"kind": "live", "minutes": 1},
        ...                      "remaining": [1, "x"]})
        Traceback (most recent call last):
        ...
        ValueError: clock: remaining must be two numbers
        """
        control, remaining = data.get("control"), data.get("remaining")
        running, since = data.get("running", []), data.get("since")
        if not isinstance(control, dict) or control.get("kind") not in ("live",
                                                                         "correspondence"):
            raise ValueError("clock: control must be a live or correspondence time control")
        if (not isinstance(remaining, list) or len(remaining) != 2
                or not all(_number(x) for x in remaining)):
            raise ValueError("clock: remaining must be two numbers")
        if not isinstance(running, list) or not set(running) <= {0, 1} or any(
                isinstance(s, bool) for s in running):
            raise ValueError("clock: running must list seats 0 and 1")
        if since is not None and not _number(since):
            raise ValueError("clock: since must be a number or null")
        allowance(control)  # its numbers are there
        return cls(dict(control), [float(x) for x in remaining], sorted(set(running)),
                   None if since is None else float(since))


def _number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(
        value)


__all__ = ["AGENT_SHARE", "GameClock", "allowance", "steady_wall"]
