"""Benchmark: War of Life games per second, compiled bitboard path vs the protocol path.

For every pair of the five coursework strategies, the fast path
(:func:`lifearena.agents.war_of_life_fast.fast_play`: numba bitboards, setups parsed and moves
written out as text, per-game timing included) plays ``--games`` games from the same random
starts, repeated ``--repeats`` times (median reported); the protocol path (the registered
agents acting on :class:`WarOfLifeState`, engine crank) plays the first ``--protocol-games``
of them in the same run, and the ratio is printed. Then the whole 25-pairing table of
``--games`` games each is timed on one core, and over ``--processes`` processes.
Targets: random vs random >= 20,000 games/s on one core; the 25 x 1000 table < 60 s on 2 cores.
Wall and CPU seconds are both shown: on a shared machine wall time counts others' work too.

    .venv/bin/python benchmarks/bench_war_of_life.py
    .venv/bin/python benchmarks/bench_war_of_life.py --games 300 --protocol-games 3
"""

from __future__ import annotations

import argparse
import statistics
import time
from concurrent.futures import ProcessPoolExecutor

from lifearena import agents
from lifearena.agents.war_of_life_fast import fast_play
from lifearena.games import war_of_life as wol

STRATEGIES = ("random", "bloodlust", "self_preservation", "land_grab", "minimax")


def fast_rate(setups: list[str], pair: tuple[str, str], repeats: int) -> tuple[float, float]:
    """Median games/s (wall) and games/s (CPU) of the fast path over ``repeats`` runs."""
    walls, cpus = [], []
    for _ in range(repeats):
        wall, cpu = time.perf_counter(), time.process_time()
        fast_play(setups, pair, (1, 2))
        walls.append(len(setups) / (time.perf_counter() - wall))
        cpus.append(len(setups) / max(time.process_time() - cpu, 1e-9))
    return statistics.median(walls), statistics.median(cpus)


def protocol_rate(setups: list[str], pair: tuple[str, str]) -> float:
    """Games/s (CPU) of the registered agents playing on the protocol state."""
    players = [agents.make(name, game="war_of_life", seed=s) for name, s in zip(pair, (1, 2),
                                                                             strict=True)]
    cpu = time.process_time()
    wol.play_all([wol.WarOfLifeState.from_setup(s) for s in setups], players)
    return len(setups) / max(time.process_time() - cpu, 1e-9)


def table(setups: list[str], pairs: list[tuple[str, str]]) -> int:
    return sum(len(fast_play(setups, pair, (1, 2))) for pair in pairs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games per pairing")
    parser.add_argument("--protocol-games", type=int, default=10,
                        help="games per pairing on the protocol path (the baseline)")
    parser.add_argument("--repeats", type=int, default=3, help="repeats of each fast run")
    parser.add_argument("--processes", type=int, default=2, help="processes for the table")
    args = parser.parse_args()

    setups = [wol.new_game(seed=s).setup() for s in range(args.games)]
    fast_play(setups[:1], ("minimax", "random"), (0, 0))  # load the compiled code
    pairs = [(a, b) for a in STRATEGIES for b in STRATEGIES]
    print(f"{'blue':18} {'red':18} {'fast games/s':>13} {'(cpu)':>10} "
          f"{'protocol games/s':>17} {'ratio (cpu)':>12}")
    for pair in pairs:
        wall_rate, cpu_rate = fast_rate(setups, pair, args.repeats)
        slow = protocol_rate(setups[:args.protocol_games], pair)
        print(f"{pair[0]:18} {pair[1]:18} {wall_rate:13,.0f} {cpu_rate:10,.0f} "
              f"{slow:17,.1f} {cpu_rate / slow:12,.0f}")

    wall, cpu = time.perf_counter(), time.process_time()
    played = table(setups, pairs)
    print(f"\nwhole table, one core: {played} games in {time.perf_counter() - wall:.2f} s wall, "
          f"{time.process_time() - cpu:.2f} s CPU (target < 60 s on 2 cores)")
    wall = time.perf_counter()
    with ProcessPoolExecutor(args.processes) as pool:
        chunks = [pairs[i::args.processes] for i in range(args.processes)]
        played = sum(pool.map(table, [setups] * args.processes, chunks))
    print(f"whole table, {args.processes} processes: {played} games in "
          f"{time.perf_counter() - wall:.2f} s wall (process start-up included)")


if __name__ == "__main__":
    main()
