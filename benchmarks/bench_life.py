"""Throughput of the two-colour Life engine: bit-parallel kernels against plain references.

Prints the numba, llvmlite and numpy versions and the CPU (as the kernel sees it and as LLVM
compiles for it), then, for each rule (``--rules``), cell-updates per second of the
bit-parallel kernel on one ``--size`` x ``--size`` grid (50% random soup, torus unless
``--bounded``, packed for ``--generations`` steps per repeat; median of ``--repeats``, CPU
time of this process, one core), and its ratio to

* a plain compiled loop (:func:`plain_step`: one byte per cell, eight neighbour reads and a
  table look-up per cell, compiled by the same numba), timed in the same run on the same grid,
  whose result the bit-parallel kernel's first step must equal;
* the numpy kernel, timed in the same run on the same grid (one step per repeat),
* the reference kernel, timed on a small ``--ref-size`` grid, per cell-update.

The ratio to the plain loop is the guarded figure: both sides run on the same core in the
same process, so the machine's speed and load cancel out, and what is left is the kernel's
own work and how well numba and LLVM compile it. ``--check`` exits with status 1, naming
the rule, when a ratio falls under its floor in ``FLOORS`` (docs/engine-speed.md says where
the floors come from and what the known causes of a lower figure are).

Where Golly's ``bgolly`` is installed, Life is also run on the same soup by Golly's
QuickLife (``--golly-generations`` generations, the soup written as a ``:T`` RLE; whole
process less a one-generation run, CPU time, median of three).

Then batched boards (``--batch`` boards of ``--board``, Immigration by default) in
board-steps per second against numpy's batched step, and ``--runs`` p2life runs until
stable on 256x256 tori (the density-sweep path) against the numpy path's generations/s.

One core: ``NUMBA_NUM_THREADS=1`` is set and nothing runs in parallel (and CPU time, not
wall-clock time, is what is timed). ``--cpu NAME``
compiles for another CPU model (e.g. ``--cpu ivybridge``, AVX without AVX2, so 128-bit
integer SIMD) with its own numba cache, to see what a smaller machine would get.

    .venv/bin/python benchmarks/bench_life.py
    .venv/bin/python benchmarks/bench_life.py --size 1024 --repeats 3 --rules life,p2life
    .venv/bin/python benchmarks/bench_life.py --batch 0 --runs 0 --check
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

import numpy as np

# The floors of --check: bit-parallel cell-updates/s over the plain compiled loop's, per rule
# family. About half of what numba 0.62-0.68 reach on an AVX-512 machine (Zen 4: Life ~150,
# Immigration ~130, p2life ~50), so noise passes and a lost vectoriser (numba 0.60 on the
# same machine: Life ~40) fails. docs/engine-speed.md has the figures.
FLOORS = {"life": 140.0, "immigration": 110.0, "p2life": 40.0}


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
    parser.add_argument("--check", action="store_true",
                        help="exit 1 when a rule's ratio to the plain loop is under its floor")
    parser.add_argument("--golly-generations", type=int, default=100,
                        help="generations of Golly's QuickLife on the soup (0: skip); its "
                             "rate falls as the soup settles, so say how many")
    return parser.parse_args()


def median_time(function: Callable[[], object], repeats: int) -> float:
    """Median CPU seconds of this process over ``repeats`` calls of ``function``."""
    times = []
    for _ in range(repeats):
        start = time.process_time()
        function()
        times.append(time.process_time() - start)
    return statistics.median(times)


def cpu_name() -> str:
    """The processor's model name and family/model numbers, as the kernel reports them."""
    fields: dict[str, str] = {}
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            key, _, value = line.partition(":")
            fields.setdefault(key.strip(), value.strip())
    except OSError:
        return platform.processor() or platform.machine()
    return (f"{fields.get('model name', '?')} (family {fields.get('cpu family', '?')}, "
            f"model {fields.get('model', '?')})")


def versions() -> str:
    """numba, llvmlite (and its LLVM), numpy, and the CPU LLVM compiles for."""
    import llvmlite  # type: ignore[import-untyped]
    import llvmlite.binding as llvm  # type: ignore[import-untyped]
    import numba

    target = getattr(numba.config, "CPU_NAME", None) or llvm.get_host_cpu_name()
    features = getattr(numba.config, "CPU_FEATURES", None)
    if features is None:
        features = llvm.get_host_cpu_features().flatten()
    avx512 = "+avx512f" in features.split(",")
    llvm_version = ".".join(str(v) for v in llvm.llvm_version_info)
    return (f"numba {numba.__version__}, llvmlite {llvmlite.__version__} (LLVM "
            f"{llvm_version}), numpy {np.__version__}, Python {platform.python_version()}\n"
            f"# CPU: {cpu_name()}; LLVM target {target}"
            f"{', AVX-512' if avx512 else ', no AVX-512'}")


def golly_quicklife(cells: np.ndarray, generations: int) -> float | None:
    """Cell-updates/s of Golly's QuickLife on ``cells`` (a torus), whole process less a
    one-generation run, CPU time, median of three; None without ``bgolly``."""
    bgolly = shutil.which("bgolly")
    if bgolly is None or generations <= 0:
        return None
    from bench_golly import rle_of

    pin = ["taskset", "-c", "0"] if shutil.which("taskset") else []
    height, width = cells.shape
    with tempfile.TemporaryDirectory(prefix="bench-life-") as work:
        soup = Path(work) / "soup.rle"
        soup.write_text(rle_of(cells, f"B3/S23:T{width},{height}"))

        def run(n: int) -> float:
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            subprocess.run([*pin, bgolly, "-a", "QuickLife", "-q", "-q", "-m", str(n),
                            str(soup)], check=True, capture_output=True)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)

        whole = statistics.median(run(generations) for _ in range(3))
        one = statistics.median(run(1) for _ in range(3))
    return float(height * width * (generations - 1) / max(whole - one, 1e-9))


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
    from lifearena.life.kernels.bitplanes import pack, unpack
    from lifearena.life.kernels.bitwise import evolve_planes
    from lifearena.life.kernels.numpy_step import numpy_step
    from lifearena.life.kernels.reference import reference_step
    from lifearena.life.rules import Rule
    from lifearena.life.run import run_until_stable
    from plain_step import plain_step

    torus = not args.bounded
    n = args.size
    topology = "torus" if torus else "bounded"
    print(f"# {versions()}")
    print(f"# one {n}x{n} grid, 50% soup, {topology}, one core, CPU time; median of "
          f"{args.repeats}" + (f"; compiled for {args.cpu}" if args.cpu else ""))
    cells = random_grid(n, n, density=0.5, seed=1)
    small = random_grid(args.ref_size, args.ref_size, density=0.5, seed=2)
    header = (f"{'rule':<14}{'family':<13}{'bitwise cu/s':>14}{'plain cu/s':>12}"
              f"{'x plain':>9}{'floor':>7}{'numpy cu/s':>12}{'x numpy':>9}"
              f"{'reference cu/s':>16}{'x reference':>13}")
    print(header)
    failures: list[str] = []
    for name in args.rules.split(","):
        rule = Rule.from_string(name.strip())
        plan = plan_for(rule)
        gens = args.generations
        a, b = pack(cells)
        a, b = evolve_planes(plan.family, plan.flags, plan.terms, a, b, n, n, torus,
                             seed_word(0), 0, 1)
        plain = plain_step(cells, rule.table, torus, seed_word(0), 0)
        if not np.array_equal(unpack(a, b, n, n), plain):
            raise SystemExit(f"{rule.name}: the bit-parallel step differs from the plain loop's")

        fast_times: list[float] = []
        for _ in range(args.repeats):
            a, b = pack(cells)
            start = time.process_time()
            evolve_planes(plan.family, plan.flags, plan.terms, a, b, n, n, torus,
                          seed_word(0), 0, gens)
            fast_times.append(time.process_time() - start)
        fast_rate = n * n * gens / statistics.median(fast_times)
        plain_rate = n * n / median_time(
            partial(plain_step, cells, rule.table, torus, seed_word(0), 0), args.repeats)
        numpy_rate = n * n / median_time(
            partial(numpy_step, cells, rule, torus=torus), max(1, args.repeats // 2))
        ref_rate = small.size / median_time(partial(reference_step, small, rule, torus=torus), 5)
        ratio = fast_rate / plain_rate
        floor = FLOORS.get(plan.name)
        if floor is not None and ratio < floor:
            failures.append(f"{rule.name}: {ratio:.0f}x the plain loop, under the floor "
                            f"{floor:.0f}x")
        print(f"{rule.name:<14}{plan.name:<13}{fast_rate:>14.3e}{plain_rate:>12.3e}"
              f"{ratio:>9.0f}{floor if floor is not None else float('nan'):>7.0f}"
              f"{numpy_rate:>12.3e}{fast_rate / numpy_rate:>9.0f}"
              f"{ref_rate:>16.3e}{fast_rate / ref_rate:>13.0f}", flush=True)
        if plan.name == "life" and args.golly_generations:
            golly_rate = (golly_quicklife((cells != 0).astype(np.int8), args.golly_generations)
                          if torus else None)
            if golly_rate is not None:
                print(f"{'  Golly':<14}{'QuickLife':<13}{golly_rate:>14.3e}   bitwise is "
                      f"{fast_rate / golly_rate:.0f}x Golly QuickLife over "
                      f"{args.golly_generations} generations (whole process less a "
                      "one-generation run)", flush=True)

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
                start = time.process_time()
                evolve_words(plan.family, plan.flags, plan.terms, a, b, masks, torus,
                             (h, w) == (8, 8), seeds, 0, gens)
                batch_times.append(time.process_time() - start)

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
        start = time.process_time()
        results = [run_until_stable(g, "p2life", torus=True, seed=i, max_generations=20_000)
                   for i, g in enumerate(grids)]
        elapsed = time.process_time() - start
        generations = sum(r.generation for r in results)
        cap = 30
        numpy_start = time.process_time()
        run_until_stable(grids[0], "p2life", torus=True, max_generations=cap, kernel="numpy")
        numpy_gps = cap / (time.process_time() - numpy_start)
        print(f"{args.runs / elapsed:.1f} runs/s, {generations / elapsed:.3e} generations/s "
              f"(mean {generations / args.runs:.0f} generations per run, stopped: "
              f"{sorted({r.stopped for r in results})}); numpy path {numpy_gps:.3e} "
              f"generations/s, x numpy {generations / elapsed / numpy_gps:.0f}")

    if failures:
        print("\n".join(["", "under the floor:", *failures]))
        if args.check:
            sys.exit(1)


if __name__ == "__main__":
    main()
