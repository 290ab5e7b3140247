"""Games per second of a War of Life strategy written in Prolog, through the bridge, against
the same strategy in Python.

Both sides of every game play the chosen strategy (``examples/prolog/strategies.pl`` against
itself, then the Python agent against itself) from the random starts of seeds ``0..games-1``,
through the referee (the arena's path). The Prolog games run on one SWI-Prolog session per
side, as a tournament would; the first game includes starting ``swipl``. Prints games/s,
moves/s and ms per move for both, the ratio, and whether the games were the same; then the
cost of the bridge alone: ms per move of a Prolog strategy that plays its first legal move.

    .venv/bin/python benchmarks/bench_prolog.py --strategy land_grab --games 20
    .venv/bin/python benchmarks/bench_prolog.py --strategy minimax --games 5
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from lifearena import agents
from lifearena.arena.referee import GameResult, play_game

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "prolog" / "strategies.pl"
STRATEGIES = ("bloodlust", "self_preservation", "land_grab", "minimax")


def run(names: tuple[str, str], games: int) -> tuple[list[GameResult], float]:
    """Play ``games`` games between the two agent names; the results and the seconds."""
    players = [agents.make(name, game="war_of_life") for name in names]
    start = time.perf_counter()
    results = [play_game("war_of_life", players, seed=seed) for seed in range(games)]
    seconds = time.perf_counter() - start
    for agent in players:
        close = getattr(agent, "close", None)
        if close is not None:
            close()
    return results, seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--strategy", choices=STRATEGIES, default="land_grab")
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args()

    prolog = f"prolog:{EXAMPLES}:{args.strategy}"
    rows = {}
    for label, name in (("prolog", prolog), ("python", args.strategy)):
        results, seconds = run((name, name), args.games)
        moves = sum(len(r.moves) for r in results)
        rows[label] = (results, seconds, moves)
        print(f"{label:>6} {args.strategy}: {args.games} games, {moves} moves in "
              f"{seconds:.2f} s: {args.games / seconds:.2f} games/s, {moves / seconds:.0f} "
              f"moves/s, {1000 * seconds / moves:.2f} ms per move")
    same = all(a.moves == b.moves for a, b in zip(rows["prolog"][0], rows["python"][0],
                                                    strict=True))
    print(f"Python is {rows['prolog'][1] / rows['python'][1]:.1f}x faster than Prolog; "
          f"same games: {same}")


    with tempfile.TemporaryDirectory() as folder:
        trivial = Path(folder) / "first.pl"
        trivial.write_text("first(C, B, N, M) :- possible_move(C, B, M), !, "
                           "make_move(C, B, M, N).\n")
        results, seconds = run((f"prolog:{trivial}:first",) * 2, args.games)
        moves = sum(len(r.moves) for r in results)
        print(f"bridge alone (first legal move, {moves} moves): {1000 * seconds / moves:.2f} "
              "ms per move")


if __name__ == "__main__":
    main()
