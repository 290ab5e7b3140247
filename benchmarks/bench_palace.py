"""Benchmark: palace numbers of a 100,000 x 100,000 region for k = 1000, streamed into a
downsampled picture (target: under 30 s on one core).

The fast path is :func:`lifearena.studies.palace_picture.fold_picture` (numba row kernel,
int16 counters, block means folded row by row; the region is never held). The baseline is
the same row-by-row dynamic programme in plain Python over numpy arrays, timed on a small
region in the same run and scaled per square. Both wall and CPU time are printed: on a shared
machine the wall time also counts the time other processes held the core.

    .venv/bin/python benchmarks/bench_palace.py            # the full 10^10 squares
    .venv/bin/python benchmarks/bench_palace.py --size 20000 --repeats 3
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from lifearena.studies.palace_picture import Window, fold_picture


def python_row_dp(k: int, width: int, height: int) -> int:
    """The baseline: three counters per column, one Python loop iteration per square."""
    col = np.zeros(width, np.int64)
    diag = np.zeros(width + 1, np.int64)
    palaces = 0
    for _ in range(height):
        r = 0
        carry = 0
        for x in range(width):
            d = carry
            carry = diag[x + 1]
            n = col[x] + d + r
            p = 1 if n < k else 0
            r += p
            col[x] += p
            diag[x + 1] = d + p
            palaces += p
    return palaces


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-k", type=int, default=1000, help="blocking parameter")
    parser.add_argument("--size", type=int, default=100_000, help="side of the square region")
    parser.add_argument("--pixels", type=int, default=2000, help="picture side in pixels")
    parser.add_argument("--repeats", type=int, default=1, help="timed runs of the fast path")
    parser.add_argument("--baseline-size", type=int, default=300,
                        help="side of the square region timed for the Python baseline")
    args = parser.parse_args()

    fold_picture(args.k, Window.square(500), pixels=100)  # compile (or load the cache)
    squares = args.size * args.size
    fast, cpu = [], []
    for _ in range(args.repeats):
        start, start_cpu = time.perf_counter(), time.process_time()
        picture = fold_picture(args.k, Window.square(args.size), pixels=args.pixels)
        fast.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    fast_s = statistics.median(fast)
    cpu_s = statistics.median(cpu)
    fast_ns = fast_s / squares * 1e9

    base = []
    for _ in range(3):
        start = time.perf_counter()
        python_row_dp(args.k, args.baseline_size, args.baseline_size)
        base.append(time.perf_counter() - start)
    base_ns = statistics.median(base) / args.baseline_size**2 * 1e9

    ph, pw = picture.values.shape
    print(f"palace numbers, k = {args.k}, {args.size:,} x {args.size:,} = {squares:.3g} squares "
          f"-> {pw}x{ph} picture (block {picture.block}, mean)")
    print(f"fast (numba row kernel): {fast_s:.2f} s median of {args.repeats} "
          f"({fast_ns:.2f} ns/square, {1 / fast_ns:.3f} Gsquares/s); CPU time {cpu_s:.2f} s "
          "(wall minus time lost to other processes on a shared machine)")
    print(f"baseline (Python row DP, {args.baseline_size}^2 squares): {base_ns:.0f} ns/square, "
          f"would take {base_ns * squares / 1e9:,.0f} s")
    print(f"speed-up fast/baseline: {base_ns / fast_ns:.0f}x")
    print(f"target < 30 s (wall): {'met' if fast_s < 30 else 'NOT met'}")
    if not np.isfinite(picture.values).all():
        raise SystemExit("picture has non-finite values")


if __name__ == "__main__":
    main()
