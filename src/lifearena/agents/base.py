"""What every agent is: ``act(state, player, limit) -> action``, plus search limits.

Agents see ``state.view(player)``, never more: the referee passes them that view, and an
agent must not look behind it.

>>> Limit(time=0.5).time, Limit.from_text("nodes=2000,depth=3")
(0.5, Limit(time=None, nodes=2000, simulations=None, depth=3))
"""

from __future__ import annotations

import time as _time
from abc import ABC, abstractmethod
from dataclasses import dataclass, fields

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
        values: dict[str, float | int] = {}
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
