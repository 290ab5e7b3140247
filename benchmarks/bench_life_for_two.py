"""Life for Two: agent strength (win rates with Wilson 95% intervals) and step throughput.

Matches are played by the arena's referee (``lifearena.arena.referee.play_game``) from the
empty board with ``max_turns=100, limit_result="population"``: a game still undecided after
100 turns goes to the player with more pieces (equal: a draw). Seats alternate, so half the
games of a pairing have the first-named agent as player 1 (``*``); agent seeds differ for
every game. The win rate counts wins over all games (a draw is not a win); the score counts
a draw as half a win.

Speed: the batched 5x5 Immigration step the agents use, in boards per second, against the
engine's ``lifearena.life.step.step`` called once per board (the baseline), medians of
repeats.

    .venv/bin/python benchmarks/bench_life_for_two.py --games 1000 --workers 2
"""

from __future__ import annotations

import argparse
import statistics
import time
from concurrent.futures import ProcessPoolExecutor

import numpy as np

from lifearena import agents
from lifearena.arena.ratings import wilson_interval
from lifearena.arena.referee import play_game
from lifearena.games.life_for_two.batch import step_batch
from lifearena.life.step import step

PARAMS = {"max_turns": 100, "limit_result": "population"}
PAIRINGS = (("nash", "random"), ("nash", "greedy"), ("greedy", "random"))


def _games(job: tuple[str, str, int, int]) -> list[tuple[int, int]]:
    """Play games ``start..stop-1`` of a pairing; for each, (result for the first agent:
    1 win, 0 draw, -1 loss; number of turns)."""
    first, second, start, stop = job
    out = []
    for game in range(start, stop):
        swap = game % 2 == 1
        names = (second, first) if swap else (first, second)
        bots = [agents.make(name, game="life_for_two", seed=100_003 * game + seat)
                for seat, name in enumerate(names)]
        result = play_game("life_for_two", bots, params=PARAMS, seed=game)
        winner = result.outcome.winner
        mine = 1 if swap else 0
        out.append((0 if winner is None else 1 if winner == mine else -1, result.length))
    return out


def match(first: str, second: str, games: int, workers: int) -> dict[str, float]:
    chunk = max(2, games // (4 * max(workers, 1)))
    jobs = [(first, second, s, min(s + chunk, games)) for s in range(0, games, chunk)]
    with ProcessPoolExecutor(workers) as pool:
        rows = [row for part in pool.map(_games, jobs) for row in part]
    wins = sum(r == 1 for r, _ in rows)
    draws = sum(r == 0 for r, _ in rows)
    losses = sum(r == -1 for r, _ in rows)
    n = len(rows)
    return {"wins": wins, "draws": draws, "losses": losses, "n": n,
            "win_rate": wins / n, "win_ci": wilson_interval(wins, n),
            "score": (wins + draws / 2) / n, "score_ci": wilson_interval(wins + draws / 2, n),
            "turns": statistics.mean(t for _, t in rows)}


def step_speed(repeats: int = 5) -> tuple[float, float]:
    boards = np.random.default_rng(0).integers(0, 3, (2000, 25)).astype(np.int8)
    grids = boards.reshape(-1, 5, 5)
    fast, slow = [], []
    for _ in range(repeats):
        start = time.perf_counter()
        step_batch(boards)
        fast.append(len(boards) / (time.perf_counter() - start))
        start = time.perf_counter()
        for grid in grids[:200]:
            step(grid, "immigration")
        slow.append(200 / (time.perf_counter() - start))
    return statistics.median(fast), statistics.median(slow)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games per pairing")
    parser.add_argument("--workers", type=int, default=2, help="processes")
    parser.add_argument("--pairings", default=",".join(f"{a}:{b}" for a, b in PAIRINGS),
                        help="comma-separated first:second agent pairs")
    args = parser.parse_args()
    fast, slow = step_speed()
    print(f"batched step: {fast:,.0f} boards/s; engine step one board at a time: "
          f"{slow:,.0f} boards/s; ratio {fast / slow:.0f}x")
    print(f"{args.games} games per pairing, seats alternating, {PARAMS}")
    for pair in args.pairings.split(","):
        first, second = pair.split(":")
        start = time.perf_counter()
        r = match(first, second, args.games, args.workers)
        low, high = r["win_ci"]
        slow_, shigh = r["score_ci"]
        print(f"{first} vs {second}: W/D/L {r['wins']}/{r['draws']}/{r['losses']} of {r['n']}; "
              f"win rate {r['win_rate']:.3f} [{low:.3f}, {high:.3f}]; "
              f"score {r['score']:.3f} [{slow_:.3f}, {shigh:.3f}]; "
              f"mean {r['turns']:.1f} turns; {time.perf_counter() - start:.0f} s", flush=True)


if __name__ == "__main__":
    main()
