"""Search agents against the games' baselines: paired starts, swapped seats, Wilson intervals.

The matches of the strong-agents issue (each line prints the search agent's score, its 95%
Wilson interval, and whether the interval excludes 50%):

* War of Life: alpha-beta at ``--time`` seconds per move against the coursework's 2-ply
  ``minimax``;
* Losat: the search agent against ``greedy``;
* Life for Two: decoupled-UCT MCTS (simultaneous moves) against ``greedy``.

Each start (``--games`` of them, from seeds 0, 1, ...) is played twice with the seats
swapped. ``--workers`` games run at once (each agent is single-threaded).

    .venv/bin/python benchmarks/bench_agents.py --game war_of_life --games 10 --time 1
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from lifearena import agents
from lifearena.agents.base import Limit
from lifearena.arena.executor import Executor
from lifearena.arena.ladder import start_state
from lifearena.arena.ratings import wilson_interval
from lifearena.arena.referee import play_game

# (game, search agent, its options, baseline agent); the time limit is added per run
MATCHES: dict[str, tuple[str, dict[str, Any], str]] = {
    "war_of_life": ("alphabeta", {}, "minimax"),
    "losat": ("alphabeta", {}, "greedy"),
    "life_for_two": ("mcts", {"rollout_depth": 2}, "greedy"),
}


def play_one(game: str, search: str, options: dict[str, Any], baseline: str, seed: int,
             seat: int, seconds: float) -> tuple[float, str, int, float, int]:
    """One game; the search agent sits in ``seat``. Returns its score, the outcome, the
    length, the search agent's thinking seconds and its number of moves."""
    strong = agents.make(search, game=game, seed=seed, **options)
    weak = agents.make(baseline, game=game, seed=seed)
    players = [strong, weak] if seat == 0 else [weak, strong]
    limits = [Limit(time=seconds), None] if seat == 0 else [None, Limit(time=seconds)]
    result = play_game(game, players, state=start_state(game, seed), seed=seed, limits=limits)
    winner = result.outcome.winner
    score = 0.5 if winner is None else float(winner == seat)
    moves = max(1, (result.length + (1 - seat)) // 2) if game != "life_for_two" \
        else max(1, result.length)
    spent = result.seconds[seat] if result.seconds else 0.0
    return score, str(result.outcome), result.length, spent, moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", choices=[*MATCHES, "all"], default="all")
    parser.add_argument("--games", type=int, default=10, help="start positions (x2 seats)")
    parser.add_argument("--time", type=float, default=1.0, help="seconds per search move")
    parser.add_argument("--workers", type=int, default=1, help="games played at once")
    parser.add_argument("--agent", default=None, help="search agent name (default per game)")
    parser.add_argument("--options", default="", help="agent options, e.g. rollout_depth=2")
    args = parser.parse_args()
    games = list(MATCHES) if args.game == "all" else [args.game]
    for game in games:
        search, options, baseline = MATCHES[game]
        search = args.agent or search
        if args.options:
            from lifearena.arena.ladder import Entrant

            options = {**options, **Entrant.parse(f"x:{args.options}").options}
        tasks = [(play_one, (game, search, options, baseline, seed, seat, args.time))
                 for seed in range(args.games) for seat in (0, 1)]
        start = time.perf_counter()
        with Executor(workers=args.workers) as executor:
            results = [r for _, r in sorted(executor.run(tasks))]
        wall = time.perf_counter() - start
        scores = [r[0] for r in results]
        wins = sum(s == 1.0 for s in scores)
        draws = sum(s == 0.5 for s in scores)
        n = len(scores)
        points = sum(scores)
        lo, hi = wilson_interval(points, n)
        # total time over total moves (the first game also pays for compiling the kernels)
        per_move = sum(r[3] for r in results) / sum(r[4] for r in results)
        length = sum(r[2] for r in results) / n
        verdict = "excludes 50%" if lo > 0.5 or hi < 0.5 else "does NOT exclude 50%"
        print(f"{game}: {search} (time={args.time}s/move) vs {baseline}: "
              f"{points:g}/{n} = {100 * points / n:.1f}% (wins {wins}, draws {draws}, "
              f"losses {n - wins - draws}); Wilson 95% [{100 * lo:.1f}%, {100 * hi:.1f}%] "
              f"{verdict}; {length:.1f} moves/game, {per_move:.2f} s per search move; "
              f"{wall:.0f} s wall with {args.workers} worker(s)", flush=True)


if __name__ == "__main__":
    main()
