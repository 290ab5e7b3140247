"""The analysis of a record, as data: one entry per position, a summary per side.

:meth:`Analysis.to_dict` is what ``lifearena analyse --json`` prints and the server answers:

* ``plies``: for each position before a move of the record, ``ply`` (0 the start),
  ``eval`` (the expected score, in [-1, 1], of the side to move; on a simultaneous turn of
  the first side), ``eval_first`` (the same for the first side always: what an evaluation
  graph draws), ``exact`` (proven by a solver or a finished game within the horizon), and
  ``sides``: each acting side's ``best`` move(s), mixed ``strategy`` (a simultaneous turn),
  ``played`` move, its ``loss`` and ``mark`` (``inaccuracy``, ``mistake``, ``blunder`` or
  ``null``) and the mark's ``symbol`` (``?!``, ``?``, ``??``);
* ``final``: the last position's ``eval_first`` (the result, once the game is over);
* ``summary``: per side, the counts of marks, the moves judged and the average loss;
* ``method`` (the search and its budget), ``thresholds``, and the record's game, players.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from lifearena.analysis.scale import BLUNDER, INACCURACY, MARKS, MISTAKE
from lifearena.analysis.verdict import SideVerdict

PLURALS = {"inaccuracy": "inaccuracies", "mistake": "mistakes", "blunder": "blunders"}


@dataclass(frozen=True)
class PlyAnalysis:
    """The verdict on one position of the record (the one before move ``ply + 1``)."""

    ply: int
    eval: float
    eval_first: float
    exact: bool
    sides: list[SideVerdict]

    def to_dict(self) -> dict[str, Any]:
        return {"ply": self.ply, "eval": round(self.eval, 4),
                "eval_first": round(self.eval_first, 4), "exact": self.exact,
                "sides": [s.to_dict() for s in self.sides]}


@dataclass(frozen=True)
class SideSummary:
    """How one side played: marks counted, moves judged, average loss."""

    player: int
    moves: int = 0
    judged: int = 0
    loss_total: float = 0.0
    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(MARKS, 0))

    @property
    def average_loss(self) -> float | None:
        return None if not self.judged else self.loss_total / self.judged

    def to_dict(self) -> dict[str, Any]:
        average = self.average_loss
        return {"player": self.player, "moves": self.moves, "judged": self.judged,
                "average_loss": None if average is None else round(average, 4),
                **{PLURALS[mark]: n for mark, n in self.counts.items()}}


@dataclass(frozen=True)
class Analysis:
    """A record's analysis (see the module docstring)."""

    game: str
    players: list[str]
    method: str
    plies: list[PlyAnalysis]
    final: float
    finished: bool

    def summary(self) -> list[SideSummary]:
        """Each side's :class:`SideSummary`."""
        totals = []
        for player in (0, 1):
            moves = judged = 0
            loss = 0.0
            counts = dict.fromkeys(MARKS, 0)
            for ply in self.plies:
                for side in ply.sides:
                    if side.player != player or side.played is None:
                        continue
                    moves += 1
                    if side.loss is not None:
                        judged += 1
                        loss += side.loss
                    if side.mark is not None:
                        counts[side.mark] += 1
            totals.append(SideSummary(player, moves, judged, loss, counts))
        return totals

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": list(self.players),
            "method": self.method,
            "scale": "expected score in [-1, 1] of the side named",
            "thresholds": {"inaccuracy": INACCURACY, "mistake": MISTAKE, "blunder": BLUNDER},
            "plies": [p.to_dict() for p in self.plies],
            "final": round(self.final, 4),
            "finished": self.finished,
            "summary": [s.to_dict() for s in self.summary()],
        }
