"""The arena: plays games between agents and keeps the results.

* :mod:`~lifearena.arena.referee` — :func:`play_game` (one game, views only, time controls,
  forfeits) and its :class:`GameResult`.
* :mod:`~lifearena.arena.executor` — :class:`Executor`: independent tasks serially, over
  processes or on a Dask cluster, results as they complete.
* :mod:`~lifearena.arena.storage` — :class:`ResultsDB`: SQLite runs of games or generic tasks,
  resumable.
* :mod:`~lifearena.arena.tournament` — :func:`run_tournament` over a
  :class:`TournamentConfig`: round robins with paired starts, and their reports.
* :mod:`~lifearena.arena.stats` — tables, rankings, first-player advantage, Wilson intervals.
* :mod:`~lifearena.arena.ratings`, :mod:`~lifearena.arena.ladder` — ratings and the ladder.

>>> from lifearena.arena import play_game, run_tournament, Executor, ResultsDB
"""

from lifearena.agents.base import AgentTimeout, TimeControl
from lifearena.arena.executor import Executor, run_tasks
from lifearena.arena.referee import GameResult, play_game
from lifearena.arena.storage import GameKey, ResultsDB
from lifearena.arena.tournament import (
    AgentSpec,
    TournamentConfig,
    TournamentReport,
    parse_agents,
    run_tournament,
)

__all__ = [
    "AgentSpec",
    "AgentTimeout",
    "Executor",
    "GameKey",
    "GameResult",
    "ResultsDB",
    "TimeControl",
    "TournamentConfig",
    "TournamentReport",
    "parse_agents",
    "play_game",
    "run_tasks",
    "run_tournament",
]
