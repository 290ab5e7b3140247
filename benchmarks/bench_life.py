"""Throughput of the two-colour Life engine: bit-parallel kernels against numpy and reference.

Prints, for each rule (``--rules``), cell-updates per second of the bit-parallel kernel on
one ``--size`` x ``--size`` grid (50% random soup, torus unless ``--bounded``, packed for
``--generations`` steps per repeat; median of ``--repeats``), and its ratio to

* the plain numpy kernel, timed in the same run on the same grid (one step per repeat),
* the reference kernel, timed on a small ``--ref-size`` grid, per cell-update.

Then batched boards (``--batch`` boards of ``--board``, Immigration by default) in
board-steps per second against numpy's batched step, and ``--runs`` p2life runs until
stable on 256x256 tori (the density-sweep path) against the numpy path's generations/s.

One core: ``NUMBA_NUM_THREADS=1`` is set and nothing runs in parallel. ``--cpu NAME``
compiles for another CPU model (e.g. ``--cpu ivybridge``, AVX without AVX2, so 128-bit
integer SIMD) with its own numba cache, to see what a smaller machine would get.

    .venv/bin/python benchmarks/bench_life.py
    .venv/bin/python benchmarks/bench_life.py --size 1024 --repeats 3 --rules life,p2life
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable


def parse() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=4096, help="side of the large grid")
    parser.add_argument("--repeats", type=int, default=7, help="timed repeats (median quoted)")
    parser.add_argument("--generations", type=int, default=50,
                        help="generations per repeat of the bit-parallel kernel")
    parser.add_argument("--rules", default="life,immigration,p2life",
                        help="comma-separated rules for the large grid")
    parser.add_argument("--bounded", action="store_true", help="bounded grid instead of torus")
    parser.add_argument("--ref-size", type=int, default=48, help="side of the reference grid")
    parser.add_argument("--batch", type=int, default=65536, help="boards in the batch (0: skip)")
    parser.add_argument("--board", default="8x8", help="board shape HxW of the batch")
    parser.add_argument("--batch-rule", default="immigration", help="rule of the batch")
    parser.add_argument("--runs", type=int, default=20,
                        help="p2life 256x256 runs until stable (0: skip)")
    parser.add_argument("--cpu", default=None,
                        help="numba CPU name to compile for (own cache dir), e.g. ivybridge")
    return parser.parse_args()


def median_time(function: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    args = parse()
    os.environ["NUMBA_NUM_THREADS"] = "1"
    if args.cpu:
        os.environ["NUMBA_CPU_NAME"] = args.cpu
        os.environ["NUMBA_CPU_FEATURES"] = ""
        os.environ["NUMBA_CACHE_DIR"] = os.path.join(
            os.path.expanduser("~"), ".cache", "lifearena-numba-" + args.cpu)
    if "numba" in sys.modules:
        raise SystemExit("numba was imported before the environment was set")

    from lifearena.life.grid import random_grid
    from lifearena.life.kernels.batch import evolve_words, pack_words, seed_words, word_masks
    from lifearena.life.kernels.bitlogic import plan_for, seed_word
    from lifearena.life.kernels.bitplanes import pack
    from lifearena.life.kernels.bitwise import evolve_planes
    from lifearena.life.kernels.numpy_step import numpy_step
    from lifearena.life.kernels.reference import reference_step
    from lifearena.life.rules import Rule
    from lifearena.life.run import run_until_stable

    torus = not args.bounded
    n = args.size
    topology = "torus" if torus else "bounded"
    print(f"# one {n}x{n} grid, 50% soup, {topology}, one core; median of {args.repeats}"
          + (f"; compiled for {args.cpu}" if args.cpu else ""))
    cells = random_grid(n, n, density=0.5, seed=1)
    small = random_grid(args.ref_size, args.ref_size, density=0.5, seed=2)
    header = (f"{'rule':<14}{'family':<13}{'bitwise cu/s':>14}{'numpy cu/s':>12}"
              f"{'x numpy':>9}{'reference cu/s':>16}{'x reference':>13}")
    print(header)
    for name in args.rules.split(","):
        rule = Rule.from_string(name.strip())
        plan = plan_for(rule)
        gens = args.generations
        a, b = pack(cells)
        evolve_planes(plan.family, plan.flags, plan.terms, a, b, n, n, torus, seed_word(0), 0, 1)

        fast_times: list[float] = []
        for _ in range(args.repeats):
            a, b = pack(cells)
            start = time.perf_counter()
            evolve_planes(plan.family, plan.flags, plan.terms, a, b, n, n, torus,
                          seed_word(0), 0, gens)
            fast_times.append(time.perf_counter() - start)
        fast_rate = n * n * gens / statistics.median(fast_times)
        numpy_rate = n * n / median_time(
            lambda rule=rule: numpy_step(cells, rule, torus=torus), max(1, args.repeats // 2))
        ref_rate = small.size / median_time(
            lambda rule=rule: reference_step(small, rule, torus=torus), 5)
        print(f"{rule.name:<14}{plan.name:<13}{fast_rate:>14.3e}{numpy_rate:>12.3e}"
              f"{fast_rate / numpy_rate:>9.0f}{ref_rate:>16.3e}{fast_rate / ref_rate:>13.0f}")

    if args.batch:
        h, w = (int(v) for v in args.board.lower().split("x"))
        rule = Rule.from_string(args.batch_rule)
        plan = plan_for(rule)
        boards = random_grid(h, w, density=0.5, seed=3, boards=args.batch)
        seeds = seed_words(0, args.batch)
        print(f"\n# batch of {args.batch} {h}x{w} boards, {rule.name}, {topology}")
        if h * w > 64:
            print("boards over 64 cells run one at a time (see lifearena.life.kernels.batch); "
                  "skipped")
        else:
            masks = word_masks(h, w, torus)
            gens = 200

            def batch_fast() -> None:
                a, b = pack_words(boards)
                start = time.perf_counter()
                evolve_words(plan.family, plan.flags, plan.terms, a, b, masks, torus,
                             (h, w) == (8, 8), seeds, 0, gens)
                batch_times.append(time.perf_counter() - start)

            batch_times: list[float] = []
            batch_fast()
            batch_times.clear()
            for _ in range(args.repeats):
                batch_fast()
            fast_rate = args.batch * gens / statistics.median(batch_times)
            numpy_rate = args.batch / median_time(
                lambda: numpy_step(boards, rule, torus=torus), 3)
            from lifearena.life.step import step

            one_call = args.batch / median_time(lambda: step(boards, rule, torus=torus), 3)
            print(f"bitwise packed {fast_rate:.3e} board-steps/s; numpy {numpy_rate:.3e}; "
                  f"x numpy {fast_rate / numpy_rate:.0f}")
            print(f"step() on int8 boards, pack and unpack included: {one_call:.3e} "
                  f"board-steps/s; x numpy {one_call / numpy_rate:.1f}")

    if args.runs:
        print(f"\n# p2life until stable, {args.runs} random 256x256 tori at density 0.5")
        grids = [random_grid(256, 256, density=0.5, seed=100 + i) for i in range(args.runs)]
        run_until_stable(grids[0][:16, :16], "p2life", torus=True, max_generations=10)
        start = time.perf_counter()
        results = [run_until_stable(g, "p2life", torus=True, seed=i, max_generations=20_000)
                   for i, g in enumerate(grids)]
        elapsed = time.perf_counter() - start
        generations = sum(r.generation for r in results)
        cap = 30
        numpy_start = time.perf_counter()
        run_until_stable(grids[0], "p2life", torus=True, max_generations=cap, kernel="numpy")
        numpy_gps = cap / (time.perf_counter() - numpy_start)
        print(f"{args.runs / elapsed:.1f} runs/s, {generations / elapsed:.3e} generations/s "
              f"(mean {generations / args.runs:.0f} generations per run, stopped: "
              f"{sorted({r.stopped for r in results})}); numpy path {numpy_gps:.3e} "
              f"generations/s, x numpy {generations / elapsed / numpy_gps:.0f}")


if __name__ == "__main__":
    main()
