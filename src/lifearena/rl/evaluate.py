"""A policy's standard table on a versioned id: its frozen evaluation set played against the
game's built-in agents, both seats, by the arena's referee.

For each opponent (the game's standard entrants, :func:`lifearena.arena.tournament.default_agents`,
unless named) and each start of the id's evaluation set (:mod:`lifearena.rl.eval_sets`), the
policy plays the start once moving first and once moving second. The games run in blocks of
starts (one task of :class:`~lifearena.arena.executor.Executor` each); both agents of a block
are made once, seeded from the master seed, the block and the seats
(:func:`lifearena.arena.tournament.agent_seed`), so the table never depends on the number of
workers. A block whose two agents are plain names goes to the game's compiled fast path
where it has one that knows both (War of Life), as in a tournament; everything else goes
through :func:`lifearena.arena.referee.play_game`, with its forfeits (a crash, an illegal
move) counted as losses.

Each row: games, wins, draws and losses of the policy, its score ``(wins + draws / 2) /
games`` with a 95% Wilson interval, and the mean game length in moves (a joint move counts
once; the opening of a start is not counted).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass
from importlib.metadata import version
from typing import Any

from lifearena.agents import Limit
from lifearena.agents.registry import fast_player, has_fast_path
from lifearena.arena.executor import Executor
from lifearena.arena.referee import play_game
from lifearena.arena.stats import wilson_interval
from lifearena.arena.tournament import AgentSpec, agent_seed, default_agents, parse_agents
from lifearena.errors import BadParameterError
from lifearena.rl.eval_sets import SHA256, evaluation_set, file_name, start_state
from lifearena.rl.versions import spec

BLOCK = 10
"""Starts per task (each played from both seats)."""

Progress = Callable[[int, int], None]
"""Called as ``progress(games_just_played, games_total)``."""


@dataclass(frozen=True)
class GameSummary:
    """One game as the table counts it, from the policy's side."""

    opponent: str
    start: int
    seat: int
    result: str  # "win", "draw" or "loss"
    moves: int
    termination: str


@dataclass(frozen=True)
class OpponentRow:
    """The policy's results against one opponent (both seats together): ``score`` is
    ``(wins + draws / 2) / games`` with its 95% Wilson interval, ``first_score`` and
    ``second_score`` the same moving first and second, ``forfeits`` the games the policy
    lost by forfeit (a crash or an illegal move)."""

    opponent: str
    games: int
    wins: int
    draws: int
    losses: int
    score: float
    score_low: float
    score_high: float
    mean_moves: float
    first_score: float
    second_score: float
    forfeits: int

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class EvaluationReport:
    """The standard table of ``policy`` on ``env_id``."""

    env_id: str
    policy: str
    starts: int
    seed: int
    rows: tuple[OpponentRow, ...]

    def to_json(self) -> str:
        return json.dumps({
            "env_id": self.env_id, "policy": self.policy, "starts": self.starts,
            "games_per_opponent": 2 * self.starts, "seed": self.seed,
            "evaluation_set": file_name(self.env_id),
            "evaluation_set_sha256": SHA256[file_name(self.env_id)],
            "lifearena": version("lifearena"),
            "rows": [r.as_dict() for r in self.rows]}, indent=2)


def _score(summaries: Sequence[GameSummary]) -> float:
    points = sum(1.0 if s.result == "win" else 0.5 if s.result == "draw" else 0.0
                 for s in summaries)
    return points / len(summaries) if summaries else 0.0


def table_row(opponent: str, summaries: Sequence[GameSummary]) -> OpponentRow:
    """The row of ``opponent`` from its games' summaries.

    >>> games = [GameSummary("random", 0, 0, "win", 10, "win"),
    ...          GameSummary("random", 0, 1, "draw", 20, "limit")]
    >>> row = table_row("random", games)
    >>> row.score, row.mean_moves, round(row.score_low, 3), row.first_score
    (0.75, 15.0, 0.198, 1.0)
    """
    n = len(summaries)
    wins = sum(s.result == "win" for s in summaries)
    draws = sum(s.result == "draw" for s in summaries)
    low, high = wilson_interval(wins + draws / 2, n)
    return OpponentRow(
        opponent=opponent, games=n, wins=wins, draws=draws, losses=n - wins - draws,
        score=_score(summaries), score_low=low, score_high=high,
        mean_moves=sum(s.moves for s in summaries) / n if n else 0.0,
        first_score=_score([s for s in summaries if s.seat == 0]),
        second_score=_score([s for s in summaries if s.seat == 1]),
        forfeits=sum(s.termination == "forfeit" and s.result == "loss" for s in summaries))


def _result(winner: int | None, seat: int) -> str:
    return "draw" if winner is None else "win" if winner == seat else "loss"


def play_block(env_id: str, policy: Mapping[str, Any], opponent: Mapping[str, Any],
               seat: int, block: int, indices: Sequence[int], seed: int, fast: bool = True
               ) -> list[GameSummary]:
    """Play the starts ``indices`` of ``env_id``'s set with the policy at ``seat`` (through
    the game's fast path where ``fast`` and it plays both agents): the task an executor runs
    (plain arguments, so that it pickles)."""
    fixed = spec(env_id)
    starts = [evaluation_set(env_id).starts[i] for i in indices]
    mine, theirs = AgentSpec.from_dict(policy), AgentSpec.from_dict(opponent)
    seated = (mine, theirs) if seat == 0 else (theirs, mine)
    seeds = (agent_seed(seed, block, 0), agent_seed(seed, block, 1))
    compiled = None
    if (fast and not fixed.params and all(a.plain for a in seated)
            and has_fast_path(fixed.game) and not any(s.opening for s in starts)):
        compiled = fast_player(fixed.game, (seated[0].name, seated[1].name), seeds)
    if compiled is not None:
        played = compiled.play([s.position for s in starts])
        return [GameSummary(theirs.label, i, seat, _result(outcome.winner, seat), len(moves),
                            outcome.termination.value)
                for i, (moves, outcome, _) in zip(indices, played, strict=True)]
    players = [a.build(fixed.game, s) for a, s in zip(seated, seeds, strict=True)]
    limits = [Limit.from_text(a.limit) if a.limit else None for a in seated]
    summaries = []
    for index, start in zip(indices, starts, strict=True):
        result = play_game(fixed.game, players, state=start_state(fixed, start),
                           seed=start.seed, names=[a.label for a in seated], limits=limits)
        summaries.append(GameSummary(theirs.label, index, seat,
                                     _result(result.winner, seat), result.length,
                                     result.outcome.termination.value))
    return summaries


def opponents_for(env_id: str, names: str | Sequence[str] | None = None
                  ) -> tuple[AgentSpec, ...]:
    """The opponents named (``"a,b"`` or a list of agent specs), else the game's standard
    entrants."""
    game = spec(env_id).game
    return parse_agents(names) if names else default_agents(game)


def evaluate(policy: str, env_id: str, *, opponents: str | Sequence[str] | None = None,
             limit: int | None = None, seed: int = 0, workers: int | None = 1,
             fast: bool = True, progress: Progress | None = None) -> EvaluationReport:
    """Play ``policy`` (any agent spec: ``random``, ``policy:FILE``, ``LABEL=NAME:key=value``)
    from the first ``limit`` starts of ``env_id``'s evaluation set (all by default) against
    each opponent, both seats; its table. ``fast=False`` plays every game through the
    referee, even where the game's compiled fast path plays both agents (the same games,
    slower). ``progress(new, total)`` is called as games finish."""
    fixed = spec(env_id)
    starts = evaluation_set(fixed.id).starts
    if limit is not None and not 1 <= limit <= len(starts):
        raise BadParameterError(f"limit {limit}; expected 1 to {len(starts)} starts (the size "
                                f"of {fixed.id}'s evaluation set)")
    count = len(starts) if limit is None else limit
    mine = AgentSpec.parse(policy)
    rivals = opponents_for(fixed.id, opponents)
    for agent in (mine, *rivals):  # a bad name or file is refused before any game
        agent.build(fixed.game, 0)
    blocks = [range(b, min(b + BLOCK, count)) for b in range(0, count, BLOCK)]
    tasks = [(play_block, (fixed.id, mine.to_dict(), rival.to_dict(), seat, number,
                           list(indices), seed, fast))
             for rival in rivals for seat in (0, 1)
             for number, indices in enumerate(blocks)]
    total = 2 * count * len(rivals)
    games: list[GameSummary] = []
    if progress:
        progress(0, total)
    with Executor(workers, tasks=len(tasks)) as pool:
        for _, summaries in pool.run(tasks):
            games.extend(summaries)
            if progress:
                progress(len(summaries), total)
    rows = tuple(table_row(rival.label, [g for g in games if g.opponent == rival.label])
                 for rival in rivals)
    return EvaluationReport(fixed.id, mine.label, count, seed, rows)
