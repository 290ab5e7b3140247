"""What every agent is: ``act(state, player, limit) -> action``, plus search limits.

Agents see ``state.view(player)``, never more: the referee passes them that view, and an
agent must not look behind it.

>>> Limit(time=0.5).time, Limit.from_text("nodes=2000,depth=3")
(0.5, Limit(time=None, nodes=2000, simulations=None, depth=3))
"""

from __future__ import annotations

import time as _time
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from lifearena.core import Action, State
from lifearena.errors import BadParameterError


@dataclass(frozen=True)
class Limit:
    """How long an agent may think (as in python-chess's engine limits). ``None``: no bound.

    ``time`` is in seconds; ``nodes`` counts searched positions, ``simulations`` MCTS playouts,
    ``depth`` plies. Agents honour the ones that make sense for them.
    """

    time: float | None = None
    nodes: int | None = None
    simulations: int | None = None
    depth: int | None = None

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if value is not None and value <= 0:
                raise BadParameterError(f"limit {f.name}={value} must be positive")

    @classmethod
    def from_text(cls, text: str) -> Limit:
        """Parse ``"time=1.5,nodes=10000"``; an empty string is no limit."""
        values: dict[str, Any] = {}
        names = {f.name for f in fields(cls)}
        for part in filter(None, (p.strip() for p in text.split(","))):
            key, eq, raw = part.partition("=")
            if not eq or key.strip() not in names:
                raise BadParameterError(f"bad limit {part!r}; expected NAME=VALUE with NAME one "
                                        f"of {', '.join(sorted(names))}")
            try:
                values[key.strip()] = float(raw) if key.strip() == "time" else int(raw)
            except ValueError:
                raise BadParameterError(f"bad limit value {raw!r} for {key.strip()}; "
                                        "expected a number") from None
        return cls(**values)

    def deadline(self, start: float | None = None) -> float | None:
        """The ``time.perf_counter()`` moment the time limit runs out, if any."""
        if self.time is None:
            return None
        return (_time.perf_counter() if start is None else start) + self.time


class AgentTimeout(Exception):
    """Raised by an agent adapter that enforces its own deadline (e.g. a subprocess bot)."""


class IllegalAction(Exception):
    """Raised by an agent adapter whose agent answered something that is not a legal move."""


@dataclass(frozen=True)
class TimeControl:
    """How long each side may think: ``per_move`` seconds for each move and/or ``total``
    seconds for the whole game (plus ``increment`` after each move); ``grace`` seconds of
    tolerance before a late move forfeits. ``None`` means no bound.

    In-process agents cannot be interrupted: the referee measures each move and forfeits the
    agent afterwards if it was late. Adapters for external bots can enforce the deadline.
    """

    per_move: float | None = None
    total: float | None = None
    increment: float = 0.0
    grace: float = 0.0

    def __post_init__(self) -> None:
        for name in ("per_move", "total"):
            value = getattr(self, name)
            if value is not None and not value > 0:
                raise BadParameterError(f"time control {name}={value} must be positive")
        if self.increment < 0 or self.grace < 0:
            raise BadParameterError("time control increment and grace must be >= 0")

    def allowance(self, used: float, moves_made: int = 0) -> float | None:
        """Seconds the side may spend on its next move, having ``used`` seconds on
        ``moves_made`` moves so far; ``None`` when unbounded."""
        bounds = []
        if self.per_move is not None:
            bounds.append(self.per_move)
        if self.total is not None:
            bounds.append(max(0.0, self.total + self.increment * moves_made - used))
        return min(bounds) if bounds else None

    def to_dict(self) -> dict[str, float | None]:
        return {"per_move": self.per_move, "total": self.total, "increment": self.increment,
                "grace": self.grace}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> TimeControl | None:
        return None if data is None else cls(**data)


class Agent(ABC):
    """A player. Subclasses implement :meth:`act`; ``name`` identifies it in tables."""

    name: str = "agent"

    @abstractmethod
    def act(self, state: State, player: int, limit: Limit | None = None) -> Action:
        """Choose a legal action for ``player`` in ``state`` (already the player's view)."""

    def reset(self) -> None:  # noqa: B027 - optional hook, most agents keep no game state
        """Forget anything remembered from a previous game."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"
