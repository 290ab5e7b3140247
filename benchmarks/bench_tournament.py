"""Benchmark: the whole War of Life tournament through the arena (executor + SQLite storage).

Times ``run_tournament`` on the coursework's 25-pairing table (``--games`` per pairing, paired
starts, every game's record written to a temporary SQLite file as it finishes) over all cores,
``--repeats`` times (median reported), and in the same run three baselines:

* the same tournament with ``workers=1`` (serial), for the parallel speed-up;
* the bare compiled games (``lifearena.agents.war_of_life_fast.fast_play`` over the same
  starts, one core, nothing stored), for the arena's own overhead;
* the referee path (registered agents on the protocol state, ``fast=False``) on
  ``--referee-games`` games per pairing, extrapolated, for the fast path's gain.

Target (issue 3): the 25 x 1000 table in under 60 s on this 2-core machine.

    .venv/bin/python benchmarks/bench_tournament.py
    .venv/bin/python benchmarks/bench_tournament.py --games 200 --repeats 1
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from lifearena.agents.war_of_life_fast import fast_play
from lifearena.arena.executor import available_cores
from lifearena.arena.tournament import (
    TournamentConfig,
    default_agents,
    run_tournament,
    start_seed,
)
from lifearena.games import war_of_life


def timed_tournament(config: TournamentConfig, workers: int) -> float:
    """Seconds for the whole tournament into a fresh SQLite file."""
    with tempfile.TemporaryDirectory() as folder:
        start = time.perf_counter()
        report = run_tournament(config, db=Path(folder) / "bench.sqlite", workers=workers)
        seconds = time.perf_counter() - start
    assert report.games == config.total_games()
    return seconds


def bare_games(config: TournamentConfig) -> float:
    """Seconds for the same games played by fast_play alone, one core, nothing stored."""
    setups = [war_of_life.new_game(seed=start_seed(config.seed, i)).setup()
              for i in range(config.games)]
    start = time.perf_counter()
    for _, _, first, second in config.schedule():
        fast_play(setups, (first.name, second.name), (1, 2))
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games per pairing")
    parser.add_argument("--repeats", type=int, default=3, help="repeats of the parallel run")
    parser.add_argument("--referee-games", type=int, default=2,
                        help="games per pairing on the referee path (baseline)")
    args = parser.parse_args()

    config = TournamentConfig("war_of_life", default_agents("war_of_life"), games=args.games)
    total = config.total_games()
    cores = available_cores()
    fast_play([war_of_life.new_game(seed=0).setup()], ("random", "random"), (0, 0))

    runs = [timed_tournament(config, workers=cores) for _ in range(args.repeats)]
    parallel = statistics.median(runs)
    serial = timed_tournament(config, workers=1)
    bare = bare_games(config)
    referee_config = replace(config, games=args.referee_games, fast=False)
    start = time.perf_counter()
    run_tournament(referee_config, workers=1)
    referee_rate = referee_config.total_games() / (time.perf_counter() - start)

    print(f"War of Life tournament: {len(config.schedule())} pairings x {args.games} games = "
          f"{total} games, stored in SQLite")
    print(f"  arena, {cores} processes : {parallel:7.2f} s median of "
          f"{', '.join(f'{r:.2f}' for r in runs)}  ({total / parallel:,.0f} games/s)"
          f"  target < 60 s: {'met' if parallel < 60 else 'NOT met'}")
    print(f"  arena, serial       : {serial:7.2f} s  ({total / serial:,.0f} games/s); "
          f"speed-up x{serial / parallel:.2f}")
    print(f"  bare fast_play, 1 core, nothing stored: {bare:7.2f} s; arena overhead on one "
          f"core x{serial / bare:.2f}")
    print(f"  referee path (protocol agents): {referee_rate:,.1f} games/s over "
          f"{referee_config.total_games()} games; fast arena / referee x"
          f"{(total / parallel) / referee_rate:,.0f}")


if __name__ == "__main__":
    main()
