"""``lifearena life run`` against the engine, and the command line's start-up.

Prints, best of ``--repeats``:

* the engine: :func:`lifearena.life.kernels.bitwise.bitwise_evolve` on a ``--size`` x
  ``--size`` torus, 50% Life soup, ``--generations`` generations (in this process);
* the CLI: the "time" line of ``lifearena life run --size NxN --rule life -n G`` (a whole
  process each, the same soup: seed 0), and its ratio to the engine (target: at most 1.2);
* start-up: the CPU time (user + system) of the whole process for ``lifearena --help`` and
  for a one-generation run of a small pattern (target: under 0.5 s each).

    .venv/bin/python benchmarks/bench_life_cli.py
    .venv/bin/python benchmarks/bench_life_cli.py --size 2048 --generations 500 --repeats 5
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import subprocess
import sys
import time


def _cpu_seconds(argv: list[str]) -> float:
    """User + system CPU seconds of one whole ``lifearena ARGV`` process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-m", "lifearena", *argv], check=True,
                   capture_output=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=4096)
    parser.add_argument("--generations", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()

    from lifearena.life.grid import random_grid
    from lifearena.life.kernels.bitwise import bitwise_evolve
    from lifearena.life.rules import Rule

    cells = random_grid(args.size, args.size, density=0.5, seed=0, colours=1)
    rule = Rule.named("life")
    bitwise_evolve(cells[:3, :3], rule, 1, torus=True)  # load the kernel first
    environment = {**os.environ, "COLUMNS": "200"}
    engine, cli = [], []
    for _ in range(args.repeats):
        start = time.perf_counter()
        bitwise_evolve(cells, rule, args.generations, torus=True)
        engine.append(time.perf_counter() - start)
        out = subprocess.run([sys.executable, "-m", "lifearena", "life", "run", "--size",
                              f"{args.size}x{args.size}", "--rule", "life", "-n",
                              str(args.generations), "--no-show"], check=True,
                             capture_output=True, text=True, env=environment).stdout
        found = re.search(r"time\s*│\s*([\d.]+) s", out)
        if found is None:
            raise SystemExit(f"no time line in the run's summary:\n{out}")
        cli.append(float(found.group(1)))
    print(f"{args.size}x{args.size} torus, Life soup, {args.generations} generations, "
          f"best of {args.repeats}:")
    print(f"  engine (bitwise_evolve)  {min(engine):8.3f} s")
    print(f"  lifearena life run       {min(cli):8.3f} s   ratio {min(cli) / min(engine):.2f}")
    helps = [_cpu_seconds(["--help"]) for _ in range(args.repeats)]
    runs = [_cpu_seconds(["life", "run", "-p", "glider", "-n", "1", "--no-show"])
            for _ in range(args.repeats)]
    print("start-up, CPU seconds of the whole process, best of "
          f"{args.repeats}:\n  lifearena --help         {min(helps):8.3f} s\n"
          f"  life run -p glider -n 1  {min(runs):8.3f} s")


if __name__ == "__main__":
    main()
