"""Speed of the sparse tile plane (:class:`lifearena.life.plane.TilePlane`) on classic
patterns, against :func:`lifearena.life.growing.run_growing` (a bounded grid that grows)
measured in the same run.

For each pattern it prints the tile plane's engine time (CPU seconds of the ``step`` call
alone, after a warm-up that loads the compiled kernels; median of ``--repeats``; CPU time
because a shared machine's wall clock counts other people's work), the population reached
(checked against the known figure), the tiles held at the end and the rows computed, then
``run_growing``'s time for the same generations and the ratio. ``run_growing`` on Lidka to
29,055 generations takes minutes and gigabytes (its grid follows the gliders), so by default
it is timed to ``--growing-lidka`` generations (10,000) and the tile plane is timed to the
same generation too for the ratio. Where Debian's ``bgolly`` is installed, the last column
is Golly's QuickLife for the same run (CPU seconds of the whole bgolly process, reading the
pattern included), for scale.

One core: ``NUMBA_NUM_THREADS=1`` is set and nothing runs in parallel.

    .venv/bin/python benchmarks/bench_plane.py
    .venv/bin/python benchmarks/bench_plane.py --repeats 1 --growing-lidka 29055
"""

from __future__ import annotations

import argparse
import functools
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

# Golly's patterns (Patterns/Life): Lidka's two-generation predecessor (David Bell, 2005;
# Lidka by Andrzej Okrasinski), acorn (Charles Corderman) and Gosper's glider gun.
LIDKA = ("#N Lidka predecessor\nx = 9, y = 15, rule = B3/S23\n"
         "bo$obo$bo8$8bo$6bobo$5boobo$$4b3o!\n")
ACORN = "#N Acorn\nx = 7, y = 3, rule = B3/S23\nbo$3bo$2o2b3o!\n"
GUN = ("#N Gosper glider gun\nx = 36, y = 9, rule = B3/S23\n"
       "24bo$22bobo$12b2o6b2o12b2o$11bo3bo4b2o12b2o$2o8bo5bo3b2o$2o8bo3bob2o4b\n"
       "obo$10bo5bo7bo$11bo3bo$12b2o!\n")

# (name, RLE, generations, population at the end on the plane (bgolly agrees), target s)
CASES = [
    ("acorn", ACORN, 5206, 633, 0.5),
    ("Lidka", LIDKA, 29055, 1625, 0.5),
    ("Gosper gun", GUN, 10000, 1713, None),
]


def parse() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=3, help="timed repeats (median)")
    parser.add_argument("--growing-lidka", type=int, default=10_000,
                        help="generations of Lidka for run_growing (29055: all, minutes)")
    parser.add_argument("--no-growing", action="store_true", help="skip run_growing")
    return parser.parse_args()


def median_time(function: Callable[[], object], repeats: int) -> float:
    """Median CPU seconds of this process over ``repeats`` calls."""
    times = []
    for _ in range(repeats):
        start = time.process_time()
        function()
        times.append(time.process_time() - start)
    return statistics.median(times)


def golly_seconds(text: str, generations: int) -> float | None:
    """CPU seconds of ``bgolly -a QuickLife`` running ``text`` for ``generations``."""
    if shutil.which("bgolly") is None:
        return None
    with tempfile.TemporaryDirectory() as folder:
        source = os.path.join(folder, "pattern.rle")
        with open(source, "w") as handle:
            handle.write(text)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(["bgolly", "-q", "-q", "-a", "QuickLife", "-m", str(generations),
                        source], check=True, capture_output=True, timeout=600)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


def main() -> int:
    args = parse()
    import numpy as np

    from lifearena.life.growing import run_growing
    from lifearena.life.patterns import read_rle
    from lifearena.life.plane import TilePlane

    warm = TilePlane.from_cells(read_rle(ACORN).cells, "life")
    warm.step(10)
    run_growing(read_rle(ACORN).cells, "life", 10)
    print(f"{'pattern':<12}{'generations':>12}{'population':>12}{'tiles':>7}"
          f"{'rows':>13}{'tile plane':>12}{'run_growing':>22}{'ratio':>8}{'bgolly':>10}")
    failed = False
    for name, text, generations, expected, target in CASES:
        cells = read_rle(text).cells
        result: list[TilePlane] = []

        def on_plane(n: int = generations, cells: np.ndarray = cells,
                     result: list[TilePlane] = result) -> None:
            plane = TilePlane.from_cells(cells, "life")
            plane.step(n)
            result[:] = [plane]

        seconds = median_time(on_plane, args.repeats)
        plane = result[0]
        population = plane.population()[0]
        failed |= population != expected
        growing = ""
        ratio = ""
        if not args.no_growing:
            span = min(generations, args.growing_lidka) if name == "Lidka" else generations
            start = time.process_time()
            run = run_growing(cells, "life", span)
            growing_seconds = time.process_time() - start
            same, at_span = seconds, plane
            if span != generations:
                same = median_time(functools.partial(on_plane, span), args.repeats)
                at_span = result[0]
            if int((run.cells == 1).sum()) != at_span.population()[0]:
                print(f"  run_growing and the tile plane disagree at {span:,}", file=sys.stderr)
                failed = True
            growing = (f"{growing_seconds:.3f} s"
                       + ("" if span == generations else f" (to {span:,})"))
            ratio = f"{growing_seconds / same:.0f}x"
        golly = golly_seconds(text, generations)
        golly_text = "" if golly is None else f"{golly:.3f} s"
        mark = "" if target is None else (" ok" if seconds < target else f" > {target} s")
        print(f"{name:<12}{generations:>12,}{population:>12,}{plane.tiles:>7}"
              f"{plane.row_steps:>13,}{seconds:>10.3f} s{growing:>22}{ratio:>8}"
              f"{golly_text:>10}{mark}")
        if population != expected:
            print(f"  wrong population: expected {expected:,}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
