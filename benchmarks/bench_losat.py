"""Losat benchmarks: legal-move generation speed, and agent win rates with Wilson intervals.

1. Move generation: legal moves of positions from random games, by the game's incremental
   generator (neighbour counts kept up to date on every change, numpy masks, Zobrist superko)
   against a from-scratch generator (recount every point's neighbours, then test superko by
   comparing whole boards) measured in the same run; medians of repeats and the ratio.
2. Matches: each pair of agents plays ``--games`` games from the default start, colours
   swapped every game, agents seeded by the game number; wins/draws/losses of the first agent
   with Wilson 95% intervals on its win rate and on its score (win 1, draw 1/2).

    .venv/bin/python benchmarks/bench_losat.py --games 200 --nodes 3000
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from collections import Counter

import numpy as np

from lifearena.agents import Limit, make
from lifearena.games import losat


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def scratch_legal(board: np.ndarray, seen: set[bytes]) -> int:
    """Count legal changes from the bare board (the baseline generator)."""
    padded = np.pad(board, 1)
    length, width = board.shape
    count = 0
    for r in range(length):
        for c in range(width):
            window = padded[r:r + 3, c:c + 3]
            v = int(board[r, c])
            nb = int((window == 1).sum()) - (v == 1)
            nw = int((window == 2).sum()) - (v == 2)
            changes = []
            if v == 0:
                changes += [1] * (nb == 3) + [2] * (nw == 3)
            else:
                own, other = (nb, nw) if v == 1 else (nw, nb)
                if own < 2 or own > 3:
                    changes.append(0)
                if other == 3:
                    changes.append(3 - v)
            for new in changes:
                board[r, c] = new
                count += board.tobytes() not in seen
                board[r, c] = v
    return count


def bench_movegen(positions: int = 60, repeats: int = 5) -> None:
    rng = np.random.default_rng(0)
    states = []
    state = losat.new_game()
    while len(states) < positions:
        if state.is_terminal():
            state = losat.new_game()
        states.append(state.clone())
        legal = state.legal_actions()
        state.apply_action(legal[int(rng.integers(len(legal)))])
    boards = []
    for s in states:
        replayed = losat.new_game()
        seen = {replayed.board.tobytes()}
        for action in s.history():
            replayed.apply_action(action)
            seen.add(replayed.board.tobytes())
        boards.append((s.board, seen))
    fast_times, slow_times = [], []
    for _ in range(repeats):
        for s in states:
            s._legal_cache = None  # time the generator, not its per-position cache
        t = time.perf_counter()
        fast = [s._legal_actions(s.current_player()) for s in states]
        fast_times.append((time.perf_counter() - t) / positions)
        t = time.perf_counter()
        slow = [scratch_legal(b.copy(), seen) for b, seen in boards]
        slow_times.append((time.perf_counter() - t) / positions)
    counts = [0 if legal == [4 * 361] else len(legal) for legal in fast]
    assert counts == slow, "the two generators disagree"
    f, s = statistics.median(fast_times), statistics.median(slow_times)
    print(f"legal moves, 19x19, {positions} positions from random games, median of {repeats}:")
    print(f"  incremental {f * 1e6:8.1f} us/position   from scratch {s * 1e6:8.1f} us/position"
          f"   speed-up x{s / f:.0f}")


def play(names: tuple[str, str], seed: int, limit: Limit, options: dict) -> losat.LosatState:
    agents = [make(name, game="losat", seed=seed * 2 + i, **options.get(name, {}))
              for i, name in enumerate(names)]
    state = losat.new_game()
    while not state.is_terminal():
        player = state.current_player()
        state.apply_action(agents[player].act(state.view(player), player, limit))
    return state


def match(first: str, second: str, games: int, limit: Limit, options: dict) -> None:
    tally: Counter = Counter()
    terminations: Counter = Counter()
    lengths = []
    start = time.perf_counter()
    for game in range(games):
        names = (first, second) if game % 2 == 0 else (second, first)
        state = play(names, game, limit, options)
        outcome = state.outcome()
        lengths.append(state.plies())
        terminations[outcome.termination.value] += 1
        if outcome.winner is None:
            tally["draw"] += 1
        else:
            tally["win" if names[outcome.winner] == first else "loss"] += 1
    elapsed = time.perf_counter() - start
    wins, draws, losses = tally["win"], tally["draw"], tally["loss"]
    lo, hi = wilson(wins, games)
    slo, shi = wilson(wins + draws / 2, games)
    print(f"{first} vs {second}: {games} games (colours swapped), {limit}")
    print(f"  {first} wins {wins}, draws {draws}, losses {losses}; win rate {wins / games:.3f} "
          f"[{lo:.3f}, {hi:.3f}], score {(wins + draws / 2) / games:.3f} [{slo:.3f}, {shi:.3f}]"
          " (Wilson 95%)")
    print(f"  endings {dict(terminations)}; median length {statistics.median(lengths)} plies; "
          f"{elapsed:.0f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per pairing")
    parser.add_argument("--nodes", type=int, default=3000, help="alphabeta node limit per move")
    parser.add_argument("--pairs", default="alphabeta:greedy,greedy:random",
                        help="comma-separated FIRST:SECOND agent pairs")
    parser.add_argument("--skip-movegen", action="store_true", help="only play the matches")
    args = parser.parse_args()
    if not args.skip_movegen:
        bench_movegen()
    limit = Limit(nodes=args.nodes)
    for pair in args.pairs.split(","):
        first, second = pair.split(":")
        match(first, second, args.games, limit, {})


if __name__ == "__main__":
    main()
