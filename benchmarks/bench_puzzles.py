"""The puzzle generator's throughput for each game with a miner, and the miner's searcher
against the plain exhaustive search on the same positions, in one run.

For each game (``--game``, default every game whose miner exists):

1. ``--games`` agent-against-agent games are played once by the miner's ``agent_games``
   (not timed with the mining: its time is printed apart);
2. **generator**: :func:`lifearena.puzzles.generate.generate` mines them all (no target),
   three times: the median positions examined per second and puzzles per minute;
3. **searchers**: ``--positions`` positions spread over those games are judged as a miner
   judges them (the winning moves in 1, and in 2 where none wins in 1) by the miner's
   ``SEARCHER`` and by the plain :class:`~lifearena.puzzles.search.ExhaustiveSearch`,
   three times each: the medians of positions per second and their ratio.

    PYTHONPATH=src .venv/bin/python benchmarks/bench_puzzles.py
    PYTHONPATH=src .venv/bin/python benchmarks/bench_puzzles.py --game losat --games 10 \
        --positions 100
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

from lifearena.core import SIMULTANEOUS, State, replay_positions
from lifearena.puzzles.generate import available, generate, miner
from lifearena.puzzles.search import ExhaustiveSearch, Searcher

GAMES = {"war_of_life": 300, "losat": 20}
"""Agent games mined per game by default (Losat's games are long: 200 to 400 moves)."""


def _median(runs: list[float]) -> float:
    return statistics.median(runs)


def spread_positions(sources: list[Any], count: int) -> list[State]:
    """``count`` positions, not over, spread evenly over the games' positions."""
    every = [state.clone() for record in sources for state in replay_positions(record)
             if not state.is_terminal() and _joint_moves(state) <= JOINT_BOUND]
    step = max(1, len(every) // max(count, 1))
    return every[::step][:count]


JOINT_BOUND = 400
"""Simultaneous positions with more joint moves than this are left out of the sample: the
plain search would take minutes on one (Life for Two's first turn: 2,300 placements a side)."""


def _joint_moves(state: State) -> int:
    if state.current_player() != SIMULTANEOUS:
        return 1
    return len(state.legal_actions(0)) * len(state.legal_actions(1))


def judge(search: Searcher, positions: list[State]) -> float:
    """Seconds to judge every position as a miner does: the wins in 1, then in 2 (at a
    simultaneous turn, seat 0's win in 1 alone: a win in 2 is minutes of plain search)."""
    start = time.perf_counter()
    for state in positions:
        solver = max(state.current_player(), 0)
        if not search.winning_moves(state, solver, 1) \
                and state.current_player() != SIMULTANEOUS:
            search.winning_moves(state, solver, 2)
    return time.perf_counter() - start


def bench(game: str, games: int, positions: int, seed: int) -> None:
    module = miner(game)
    start = time.perf_counter()
    sources = list(module.agent_games(games, seed))
    played = time.perf_counter() - start
    examined = sum(len(record.moves) + 1 for record in sources)
    print(f"{game}: {games} agent games ({examined} positions) played in {played:.1f} s")
    generate(game, sources[:2], target=10**9)  # compile and warm what the miner uses
    rates, per_minute, found = [], [], 0
    for _ in range(3):
        start = time.perf_counter()
        puzzles = generate(game, sources, target=10**9)
        seconds = time.perf_counter() - start
        found = len(puzzles)
        rates.append(examined / seconds)
        per_minute.append(found / seconds * 60)
    print(f"  generator: {found} puzzles; {_median(rates):,.0f} positions/s, "
          f"{_median(per_minute):,.0f} puzzles/min (medians of 3)")
    sample = spread_positions(sources, positions)
    fast = _median([judge(module.SEARCHER, sample) for _ in range(3)])
    plain = _median([judge(ExhaustiveSearch(), sample) for _ in range(3)])
    print(f"  searchers on the same {len(sample)} positions: SEARCHER "
          f"{len(sample) / fast:,.0f} positions/s, ExhaustiveSearch "
          f"{len(sample) / plain:,.1f} positions/s: {plain / fast:,.0f}x faster")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", action="append", help="a game with a miner (repeat); "
                        "default: all of them")
    parser.add_argument("--games", type=int, help="agent games to mine (default: 300 for "
                        "War of Life, 20 for Losat, 50 otherwise)")
    parser.add_argument("--positions", type=int, default=150,
                        help="positions judged by both searchers (default 150)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    for game in args.game or available():
        bench(game, args.games or GAMES.get(game, 50), args.positions, args.seed)


if __name__ == "__main__":
    main()
