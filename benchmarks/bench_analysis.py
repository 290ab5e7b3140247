"""Time the analysis of a 60-ply War of Life game, against the protocol's alpha-beta.

The game: two ``self_preservation`` agents (ties broken at random, seeds 5 and 6) from
``new_game(seed=5)``, 60 moves. The analysis (``lifearena.analysis.analyse``) searches every
position to the depth of ``engines.WAR_OF_LIFE_DEPTH`` (5 plies) on the compiled bitboards,
twice per position (the best move, and the played move's own value). The time printed is the
median of 3 runs, after a first run that loads the compiled search.

The baseline is the same search at the same depth by the protocol-level alpha-beta
(``agents.make("alphabeta", game="war_of_life")`` with ``Limit(depth=5)``), timed on
``--sample`` positions spread over the game and scaled to the 60 positions, counting one
search per position (the analysis makes two): a whole run of it would take many minutes.
Both searches' values are printed for the sampled positions: they agree.

    PYTHONPATH=src python benchmarks/bench_analysis.py
"""

from __future__ import annotations

import argparse
import statistics
import time

from lifearena import agents
from lifearena.agents.base import Limit
from lifearena.analysis import analyse
from lifearena.analysis.engines import WAR_OF_LIFE_DEPTH
from lifearena.analysis.war_of_life_search import search
from lifearena.core import Record, replay_positions
from lifearena.games.war_of_life import new_game


def sixty_ply_game() -> Record:
    """The benchmark's game (see the module docstring)."""
    state = new_game(seed=5)
    bots = [agents.make("self_preservation", game="war_of_life", seed=5 + i, ties="random")
            for i in range(2)]
    while not state.is_terminal() and state.move_number() < 60:
        player = state.current_player()
        state.apply_action(bots[player].act(state, player))
    assert state.move_number() == 60
    return state.record(("self_preservation", "self_preservation"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sample", type=int, default=3,
                        help="positions the protocol baseline searches (default 3)")
    args = parser.parse_args()
    record = sixty_ply_game()
    analyse(record)  # load the compiled search
    times = []
    for _ in range(3):
        start = time.perf_counter()
        analyse(record)
        times.append(time.perf_counter() - start)
    fast = statistics.median(times)
    print(f"analysis of {len(record.moves)} plies, War of Life depth {WAR_OF_LIFE_DEPTH}: "
          f"{fast:.2f} s (median of 3: {', '.join(f'{t:.2f}' for t in times)})")

    states = [s.clone() for s in replay_positions(record)][:-1]
    picks = [states[i * len(states) // args.sample + len(states) // (2 * args.sample)]
             for i in range(args.sample)]
    spent = 0.0
    for state in picks:
        agent = agents.make("alphabeta", game="war_of_life", seed=0)
        start = time.perf_counter()
        agent.act(state, state.current_player(), Limit(depth=WAR_OF_LIFE_DEPTH))
        spent += time.perf_counter() - start
        print(f"  ply {state.move_number()}: protocol value {agent.stats.value:+.4f}, "
              f"compiled {search(state, WAR_OF_LIFE_DEPTH)[0]:+.4f}")
    per_position = spent / len(picks)
    baseline = per_position * len(states)
    print(f"protocol alpha-beta, depth {WAR_OF_LIFE_DEPTH}: {per_position:.2f} s a position "
          f"({len(picks)} sampled), {baseline:.0f} s for the game's {len(states)} positions")
    print(f"speed-up: {baseline / fast:.0f}x")


if __name__ == "__main__":
    main()
