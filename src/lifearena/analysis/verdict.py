"""What a search says of one position: the value, and for each side that acts its best
move(s), its mixed strategy where the turn is simultaneous, and what its played move lost.

Values are on the analysis's one scale (:mod:`lifearena.analysis.scale`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from lifearena.analysis.scale import SYMBOLS, mark_of


@dataclass(frozen=True)
class SideVerdict:
    """One acting side's part of a position's verdict."""

    player: int
    best: list[str]
    """The best move(s) in the game's notation (every winning move where a solver knows
    them all; the search's first best otherwise)."""
    strategy: list[tuple[str, float]] | None = None
    """A simultaneous turn's optimal mixed strategy: ``(move, probability)``, the support
    only, most likely first."""
    played: str | None = None
    """The move the record played here (``None``: a position off the record)."""
    loss: float | None = None
    """How much the played move lost on the scale, from this side's point of view (``None``:
    not known, e.g. a move the search did not look at)."""

    @property
    def mark(self) -> str | None:
        return mark_of(self.loss)

    def to_dict(self) -> dict[str, Any]:
        mark = self.mark
        return {
            "player": self.player,
            "best": list(self.best),
            "strategy": None if self.strategy is None else [
                {"move": m, "p": round(p, 4)} for m, p in self.strategy],
            "played": self.played,
            "loss": None if self.loss is None else round(self.loss, 4),
            "mark": mark,
            "symbol": SYMBOLS.get(mark or "", ""),
        }


@dataclass(frozen=True)
class Verdict:
    """A position's verdict: ``value`` for player 0 (the first side) on the scale,
    ``exact`` when a solver proved it, and one :class:`SideVerdict` per acting side."""

    value: float
    exact: bool
    sides: list[SideVerdict] = field(default_factory=list)

    def value_for(self, player: int) -> float:
        return self.value if player == 0 else -self.value
