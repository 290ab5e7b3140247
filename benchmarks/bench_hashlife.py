"""HashLife against Golly's HashLife (``bgolly -a HashLife``), side by side in one run.

For each case (the Gosper gun to 1,000,000 and to 2**30 generations by default, each as
one step the size of the run, like ``bgolly -m N -i N``) it prints

* lifearena's **engine** time: ``HashLife.step(N)`` in this process on a fresh universe
  (median of ``--repeats``), and its population;
* lifearena's **whole process**: ``python -c`` that imports the engine, reads the RLE,
  runs and prints the population, and that time less a one-generation run's (**engine**
  time as the issue measures it);
* bgolly's whole process (``bgolly -a HashLife -m N -i N gun.rle``), and that less a
  one-generation run's, with bgolly's population.

The populations must agree (178,957,021 at 2**30); a mismatch is printed and the script
exits 1. Both programs are single-threaded; times are medians of CPU time (user and system,
of this process or of the child process), which other work on a shared machine does not
inflate as it does wall-clock time. Without
``bgolly`` (Debian's ``golly`` package) only lifearena's columns are printed.

    .venv/bin/python benchmarks/bench_hashlife.py
    .venv/bin/python benchmarks/bench_hashlife.py --generations 1000000,1073741824,2**40
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")

GUN_RLE = """#N Gosper glider gun
x = 36, y = 9, rule = B3/S23
24bo$22bobo$12b2o6b2o12b2o$11bo3bo4b2o12b2o$2o8bo5bo3b2o$2o8bo3bob2o4b
obo$10bo5bo7bo$11bo3bo$12b2o!
"""

OURS = """
import sys
from pathlib import Path
from lifearena.life.hashlife import HashLife
from lifearena.life.patterns import read_rle
pattern = read_rle(Path(sys.argv[1]).read_text())
universe = HashLife.from_cells(pattern.cells, pattern.rule or "B3/S23")
universe.step(int(sys.argv[2]))
print(universe.population()[0])
"""


def parse() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--generations", default="1000000,2**30",
                        help="comma-separated generation counts (2**k allowed)")
    parser.add_argument("--pattern", type=Path, default=None,
                        help="an RLE file to run instead of the Gosper gun")
    parser.add_argument("--repeats", type=int, default=5, help="timed repeats (median quoted)")
    return parser.parse_args()


def count(text: str) -> int:
    base, _, exponent = text.strip().partition("**")
    return int(base) ** int(exponent) if exponent else int(base)


def cpu_seconds() -> float:
    """CPU time (user and system) of this process and of its finished children: other
    people's work on a shared machine does not count, as it does in wall-clock time."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def median_time(function: Callable[..., T], repeats: int, *arguments: Any) -> tuple[float, T]:
    """The median CPU time of ``function(*arguments)`` and its last result."""
    times = []
    for _ in range(repeats):
        start = cpu_seconds()
        result = function(*arguments)
        times.append(cpu_seconds() - start)
    return statistics.median(times), result


def run(command: list[str], env: dict[str, str] | None = None) -> str:
    return subprocess.run(command, capture_output=True, text=True, check=True,
                          env=env).stdout


def ours_engine(rle: str, generations: int) -> int:
    from lifearena.life.hashlife import HashLife  # type: ignore[import-not-found, unused-ignore]
    from lifearena.life.patterns import read_rle

    pattern = read_rle(rle)
    universe = HashLife.from_cells(pattern.cells, pattern.rule or "B3/S23")
    universe.step(generations)
    return int(universe.population()[0])


def bgolly_population(output: str) -> int:
    population = re.findall(r"^[\d,]+: ([\d,]+)$", output, re.MULTILINE)[-1]
    return int(population.replace(",", ""))


def main() -> int:
    args = parse()
    rle = args.pattern.read_text() if args.pattern else GUN_RLE
    env = dict(os.environ)
    source = str(Path(__file__).resolve().parents[1] / "src")
    env["PYTHONPATH"] = source + os.pathsep + env.get("PYTHONPATH", "")
    sys.path.insert(0, source)
    bgolly = shutil.which("bgolly")
    failed = False
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "pattern.rle"
        path.write_text(rle)
        ours_one = median_time(run, args.repeats, [sys.executable, "-c", OURS, str(path), "1"],
                               env)[0]
        golly_one = median_time(run, args.repeats, [bgolly, "-a", "HashLife", "-m", "1",
                                                    str(path)])[0] if bgolly else 0.0
        print(f"pattern: {args.pattern or 'Gosper glider gun'}; one generation, whole process: "
              f"lifearena {ours_one:.3f} s" + (f", bgolly {golly_one:.3f} s" if bgolly else ""))
        header = (f"{'generations':>14} {'population':>12} {'engine':>8} {'process':>8} "
                  f"{'proc-1gen':>9}")
        if bgolly:
            header += f" | {'bgolly pop':>12} {'process':>8} {'proc-1gen':>9}"
        print(header)
        for generations in (count(text) for text in args.generations.split(",")):
            engine, population = median_time(ours_engine, args.repeats, rle, generations)
            process = median_time(run, args.repeats,
                                  [sys.executable, "-c", OURS, str(path), str(generations)],
                                  env)[0]
            line = (f"{generations:>14,} {population:>12,} {engine:>7.3f}s {process:>7.3f}s "
                    f"{process - ours_one:>8.3f}s")
            if bgolly:
                n = str(generations)
                golly, output = median_time(
                    run, args.repeats, [bgolly, "-a", "HashLife", "-m", n, "-i", n, str(path)])
                theirs = bgolly_population(output)
                line += f" | {theirs:>12,} {golly:>7.3f}s {golly - golly_one:>8.3f}s"
                if theirs != population:
                    line += "  POPULATIONS DIFFER"
                    failed = True
            print(line)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
