"""Search agents against the games' baselines: paired starts, swapped seats, Wilson intervals.

The matches of the strong-agents issue (each prints the search agent's wins / draws /
losses, its win rate and its score (a draw counts half), each with a 95% Wilson interval, and
whether the interval excludes 50%):

* War of Life: alpha-beta at ``--time`` seconds per move against the coursework's 2-ply
  ``minimax``;
* Losat: the search agent (``alphabeta``) against ``greedy``, best run with a node budget
  (``--nodes``), which does not depend on the load of the machine;
* Life for Two: the simultaneous-move ``nash`` agent (one matrix game per turn, solved by
  linear programming; it takes no limit) against ``greedy``; ``--agent mcts`` tries generic
  decoupled-UCT MCTS instead. Played with ``max_turns=100, limit_result="population"``.

``--speed`` measures the alpha-beta search's nodes per second instead, on War of Life and
Losat, three ways in one run: on one state with the games' make and unmake (``push``/``pop``,
what the agent does), with a ``clone()`` per child, and with a ``copy.deepcopy`` per child
(what every child cost before the games had make and unmake); it prints the medians over
``--positions`` positions and the ratios of the first to the other two:

    .venv/bin/python benchmarks/bench_agents.py --speed --positions 12

Each start (``--games`` of them, from seeds 0, 1, ...) is played twice with the seats
swapped (Losat has one fixed start: its pairs differ by the agents' seeds). ``--workers``
games run at once over the arena's executor (each agent is single-threaded).

    .venv/bin/python benchmarks/bench_agents.py --game war_of_life --games 20 --time 1 \
        --workers 2
    .venv/bin/python benchmarks/bench_agents.py --game losat --games 100 --nodes 3000 \
        --workers 2
    .venv/bin/python benchmarks/bench_agents.py --game life_for_two --games 100 --workers 2
"""

from __future__ import annotations

import argparse
import copy
import statistics
import time
from collections import Counter
from typing import Any

from lifearena import agents
from lifearena.agents.base import Limit
from lifearena.arena.executor import Executor
from lifearena.arena.ladder import start_state
from lifearena.arena.ratings import wilson_interval
from lifearena.arena.referee import initial_state, play_game

# (search agent, its options, baseline agent); the limit is added per run
MATCHES: dict[str, tuple[str, dict[str, Any], str]] = {
    "war_of_life": ("alphabeta", {}, "minimax"),
    "losat": ("alphabeta", {}, "greedy"),
    "life_for_two": ("nash", {}, "greedy"),
}
NO_LIMIT = {"nash"}
"""Agents that take no search limit (they solve one matrix game per turn)."""
PARAMS: dict[str, dict[str, Any]] = {
    "life_for_two": {"max_turns": 100, "limit_result": "population"},
}
"""Game parameters of the matches: Life for Two games are unbounded by default, so they are
played as in its tournaments (100 turns, then the larger population wins)."""


def play_one(game: str, search: str, options: dict[str, Any], baseline: str, seed: int,
             seat: int, limit: Limit | None) -> tuple[float, str, int, float, int]:
    """One game; the search agent sits in ``seat``. Returns its score, the termination, the
    length, the search agent's thinking seconds and its number of moves."""
    strong = agents.make(search, game=game, seed=2 * seed + seat, **options)
    weak = agents.make(baseline, game=game, seed=2 * seed + 1 - seat)
    players = [strong, weak] if seat == 0 else [weak, strong]
    limits = [limit, None] if seat == 0 else [None, limit]
    if game in PARAMS:
        start = initial_state(game, seed=seed, params=PARAMS[game])
    else:
        start = start_state(game, seed)
    result = play_game(game, players, state=start, seed=seed, limits=limits)
    winner = result.outcome.winner
    score = 0.5 if winner is None else float(winner == seat)
    moves = max(1, (result.length + (1 - seat)) // 2) if game != "life_for_two" \
        else max(1, result.length)
    spent = result.seconds[seat] if result.seconds else 0.0
    return score, result.outcome.termination.value, result.length, spent, moves


def report(game: str, search: str, baseline: str, budget: str,
           results: list[tuple[float, str, int, float, int]], wall: float,
           workers: int) -> str:
    """The summary line(s) of one match."""
    scores = [r[0] for r in results]
    n = len(scores)
    wins = sum(s == 1.0 for s in scores)
    draws = sum(s == 0.5 for s in scores)
    losses = n - wins - draws
    points = wins + draws / 2
    wlo, whi = wilson_interval(wins, n)
    slo, shi = wilson_interval(points, n)
    # total time over total moves (the first game also pays for compiling the kernels)
    per_move = sum(r[3] for r in results) / sum(r[4] for r in results)
    length = sum(r[2] for r in results) / n
    endings = dict(Counter(r[1] for r in results).most_common())
    # tasks alternate seats (0, 1, 0, 1, ...): the search agent's record in each seat
    seats = []
    for seat in (0, 1):
        mine = scores[seat::2]
        seats.append(f"{sum(s == 1.0 for s in mine)}/{sum(s == 0.5 for s in mine)}/"
                     f"{sum(s == 0.0 for s in mine)}")

    def verdict(lo: float, hi: float) -> str:
        return "excludes 50%" if lo > 0.5 or hi < 0.5 else "does NOT exclude 50%"

    return (f"{game}: {search} ({budget}) vs {baseline}, {n} games (seats swapped)\n"
            f"  W/D/L {wins}/{draws}/{losses}; win rate {wins / n:.3f} [{wlo:.3f}, {whi:.3f}] "
            f"({verdict(wlo, whi)}); score {points / n:.3f} [{slo:.3f}, {shi:.3f}] "
            f"({verdict(slo, shi)}); Wilson 95%\n"
            f"  as player 0 (first to move) {seats[0]}, as player 1 {seats[1]} (W/D/L)\n"
            f"  endings {endings}; {length:.1f} plies/game; {per_move:.3f} s per search move; "
            f"{wall:.0f} s wall with {workers} worker(s)")


# (game, agent options) of the speed runs: a fixed depth, so the three ways search the same
# tree; War of Life's batched children are turned off (they value a whole ply at once and
# would hide the cost of making children)
SPEED: dict[str, dict[str, Any]] = {
    "war_of_life": {"children": False, "depth": 3},
    "losat": {"depth": 3},
}


def speed_positions(game: str, count: int) -> list[Any]:
    """``count`` positions a few random plies into games of ``game`` (fixed seeds)."""
    import numpy as np

    positions = []
    for seed in range(count):
        rng = np.random.default_rng(seed)
        state = start_state(game, seed)
        for _ in range(int(rng.integers(0, 6))):
            legal = state.legal_actions()
            if state.is_terminal() or not legal:
                break
            state.apply_action(int(rng.choice(legal)))
        if not state.is_terminal():
            positions.append(state)
    return positions


def nodes_per_second(game: str, state: Any, way: str) -> float:
    """The search's nodes per second on ``state``, making children ``way``: ``"undo"``,
    ``"clone"`` or ``"deepcopy"``."""
    from lifearena.agents.alphabeta import AlphaBetaAgent

    options = dict(SPEED[game])
    depth = options.pop("depth")
    agent = agents.make("alphabeta", game=game, seed=0, depth=depth, **options)
    assert isinstance(agent, AlphaBetaAgent)
    agent.undo = way == "undo"
    if way == "deepcopy":
        def child(parent: Any, action: int) -> Any:
            made = copy.deepcopy(parent)
            made.apply_action(action, check=False)
            return made
        agent._child = child  # type: ignore[method-assign]
    player = state.current_player()
    started = time.perf_counter()
    agent.act(state, player)
    return agent.stats.nodes / (time.perf_counter() - started)


def speed(positions: int) -> None:
    """Print the search's nodes per second three ways (see the module doc)."""
    for game in SPEED:
        states = speed_positions(game, positions)
        nodes_per_second(game, states[0], "undo")  # compile the game's kernels first
        rates: dict[str, list[float]] = {way: [] for way in ("undo", "clone", "deepcopy")}
        for state in states:
            for way in rates:
                rates[way].append(nodes_per_second(game, state, way))
        med = {way: statistics.median(values) for way, values in rates.items()}
        print(f"{game}: alpha-beta depth {SPEED[game]['depth']}, median over {len(states)} "
              f"positions: push/pop {med['undo']:,.0f} nodes/s, clone {med['clone']:,.0f}, "
              f"deepcopy {med['deepcopy']:,.0f}; push/pop over deepcopy "
              f"{med['undo'] / med['deepcopy']:.2f}x, over clone "
              f"{med['undo'] / med['clone']:.2f}x", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", choices=[*MATCHES, "all"], default="all")
    parser.add_argument("--games", type=int, default=10, help="start positions (x2 seats)")
    parser.add_argument("--time", type=float, default=1.0, help="seconds per search move")
    parser.add_argument("--nodes", type=int, default=None,
                        help="nodes per search move instead of a time limit")
    parser.add_argument("--workers", type=int, default=1, help="games played at once")
    parser.add_argument("--agent", default=None, help="search agent name (default per game)")
    parser.add_argument("--options", default="", help="agent options, e.g. rollout_depth=2")
    parser.add_argument("--speed", action="store_true",
                        help="measure the search's nodes per second instead of strength")
    parser.add_argument("--positions", type=int, default=12,
                        help="positions per game of the --speed runs")
    args = parser.parse_args()
    if args.speed:
        speed(args.positions)
        return
    games = list(MATCHES) if args.game == "all" else [args.game]
    for game in games:
        search, options, baseline = MATCHES[game]
        search = args.agent or search
        if args.options:
            from lifearena.arena.ladder import Entrant

            options = {**options, **Entrant.parse(f"x:{args.options}").options}
        if search in NO_LIMIT:
            limit, budget = None, "no limit"
        elif args.nodes is not None:
            limit, budget = Limit(nodes=args.nodes), f"nodes={args.nodes}/move"
        else:
            limit, budget = Limit(time=args.time), f"time={args.time}s/move"
        tasks = [(play_one, (game, search, options, baseline, seed, seat, limit))
                 for seed in range(args.games) for seat in (0, 1)]
        start = time.perf_counter()
        with Executor(workers=args.workers) as executor:
            results = [r for _, r in sorted(executor.run(tasks))]
        wall = time.perf_counter() - start
        print(report(game, search, baseline, budget, results, wall, args.workers), flush=True)


if __name__ == "__main__":
    main()
