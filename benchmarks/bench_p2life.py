"""Speed of the p2life asymptotic-density sweep (target: the default sweep in < 10 minutes).

The default sweep of ``lifearena p2life density`` (the 256x256 part of the report's, which
adds 64x64 and 128x128, ratio and Life runs: 6600 runs in all) is p2life at 10 values of p
(0.1 .. 1.0), 2 boundaries, a 256x256 lattice and 100 runs per point: 2000 runs until stable
or periodic. This script runs
``--runs`` runs per point of it (all 20 points, every core, through the same code as
``lifearena p2life density``), and extrapolates to 100 runs per point; with ``--runs 100`` it
is the full sweep, no extrapolation.

Baseline, in the same run: the first ``--baseline-runs`` runs of the sweep again, one core,
with the fast packed run (``kernel="auto"``) and with the plain numpy step and blake2b digest
per generation (``kernel="numpy"``); the ratio of their medians is the speed-up per run.

    .venv/bin/python benchmarks/bench_p2life.py --runs 10
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from lifearena.life.grid import random_grid
from lifearena.life.run import run_until_stable
from lifearena.studies.p2life_density import SweepSpec, sweep


def time_run(task, kernel: str) -> float:  # type: ignore[no-untyped-def]
    point = task.point
    cells = random_grid(point.height, point.width, density=point.p, seed=task.seed)
    start = time.perf_counter()
    run_until_stable(cells, point.rule, torus=point.torus, seed=task.seed,
                     max_generations=task.max_generations, kernel=kernel)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10, help="runs per point (100 = full)")
    parser.add_argument("--size", type=int, default=256, help="lattice side")
    parser.add_argument("--workers", type=int, default=None, help="processes (default: all)")
    parser.add_argument("--baseline-runs", type=int, default=6,
                        help="runs timed with both kernels on one core")
    args = parser.parse_args()

    spec = SweepSpec(sizes=((args.size, args.size),), runs=args.runs, master_seed=12345)
    # Warm the compiled kernels (cached on disk) so the sweep measures running, not compiling.
    for torus in (True, False):
        run_until_stable(random_grid(32, 32, seed=1), "p2life", torus=torus, max_generations=50)

    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        rows = sweep(spec, Path(tmp) / "bench.sqlite", workers=args.workers)
        wall = time.perf_counter() - start
    n = len(rows)
    generations = sum(r.generations for r in rows)
    capped = sum(r.capped for r in rows)
    full = wall * 100 / args.runs
    label = "measured" if args.runs == 100 else f"extrapolated from {args.runs} runs/point"
    print(f"sweep: {n} runs ({len(spec.points())} points x {args.runs}), {args.size}x{args.size}, "
          f"{generations} generations in all ({generations / n:.0f} per run), {capped} capped")
    print(f"sweep wall time: {wall:.1f} s; default sweep (100 runs/point, 2000 runs): "
          f"{full:.0f} s = {full / 60:.1f} min ({label}); target < 600 s: "
          f"{'met' if full < 600 else 'NOT met'}")
    cell_updates = generations * args.size * args.size
    print(f"throughput: {cell_updates / wall:.3g} cell-updates/s over all workers")

    # Spread the baseline over the points: every ``stride``-th task of the sweep.
    tasks = spec.tasks()
    stride = max(1, len(tasks) // args.baseline_runs)
    sample = tasks[::stride][: args.baseline_runs]
    fast = [time_run(t, "auto") for t in sample]
    slow = [time_run(t, "numpy") for t in sample]
    print(f"per run, one core, {len(sample)} runs: packed kernel median "
          f"{statistics.median(fast):.3f} s, numpy baseline median {statistics.median(slow):.3f} s,"
          f" ratio {statistics.median(slow) / statistics.median(fast):.1f}x")
    baseline_full = statistics.mean(slow) * 2000 / (args.workers or 2)
    print(f"baseline estimate of the default sweep on the same workers: {baseline_full:.0f} s "
          f"= {baseline_full / 60:.1f} min")


if __name__ == "__main__":
    main()
