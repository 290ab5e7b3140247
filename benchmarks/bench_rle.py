"""Reading and writing Golly RLE: the compiled reader and writer against the plain ones and
against Golly, in one run.

On one ``--size`` x ``--size`` 50% Life soup (``--colours 2`` for a two-colour soup)
written to a temporary ``.rle`` file, prints the median of ``--repeats`` in
CPU seconds (so that other work on a shared machine does not count) of

* ``read_rle`` (text to grid, from the string in memory) and ``write_rle`` (grid to text),
* the plain ``read_rle_reference`` / ``write_rle_reference`` (once each: they are slow), and
  the ratio plain / compiled,
* ``bgolly -m 0 -o out.rle in.rle`` (Golly reads the file and writes it back, whole process)
  and ``bgolly -m 0 in.rle`` (reading only), when ``bgolly`` is installed; Golly's write is
  the difference.

The compiled loops are warmed on a small grid first (their first call compiles or loads
them from numba's cache, which start-up measures, not this).

    .venv/bin/python benchmarks/bench_rle.py
    .venv/bin/python benchmarks/bench_rle.py --size 1024 --repeats 3
"""

from __future__ import annotations

import argparse
import resource
import shutil
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from lifearena.life.grid import random_grid
from lifearena.life.patterns import read_rle, read_rle_reference, write_rle, write_rle_reference


def parse() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=4096, help="side of the soup")
    parser.add_argument("--repeats", type=int, default=5, help="timed repeats (median quoted)")
    parser.add_argument("--colours", type=int, default=1, choices=(1, 2),
                        help="1: a Life soup (bo letters), 2: a two-colour soup (.AB)")
    return parser.parse_args()


def median_time(work: Callable[[], object], repeats: int) -> float:
    """Median CPU seconds of ``work``: this process's and its children's (bgolly), so that
    other load on the machine does not count."""
    times = []
    for _ in range(repeats):
        start = _cpu()
        work()
        times.append(_cpu() - start)
    return statistics.median(times)


def _cpu() -> float:
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def main() -> None:
    args = parse()
    cells = random_grid(args.size, args.size, density=0.5, seed=1, colours=args.colours)
    rule = "B3/S23" if args.colours == 1 else "immigration"
    read_rle(write_rle(cells[:64, :64], rule=rule))  # compile or load the loops
    text = write_rle(cells, rule=rule)
    print(f"{args.size}x{args.size} {'Life' if args.colours == 1 else 'two-colour'} soup, "
          f"{len(text) / 1e6:.1f} MB of RLE")
    read = median_time(lambda: read_rle(text), args.repeats)
    write = median_time(lambda: write_rle(cells, rule=rule), args.repeats)
    read_plain = median_time(lambda: read_rle_reference(text), 1)
    write_plain = median_time(lambda: write_rle_reference(cells, rule=rule), 1)
    print(f"read   compiled {read:7.3f} s   plain {read_plain:7.3f} s   "
          f"plain/compiled {read_plain / read:6.1f}x")
    print(f"write  compiled {write:7.3f} s   plain {write_plain:7.3f} s   "
          f"plain/compiled {write_plain / write:6.1f}x")
    bgolly = shutil.which("bgolly")
    if bgolly is None:
        print("bgolly not installed: no Golly figures (apt-get install golly)")
        return
    with tempfile.TemporaryDirectory() as folder:
        source, out = Path(folder) / "soup.rle", Path(folder) / "out.rle"
        source.write_text(text)
        quiet = {"capture_output": True, "check": True}
        both = median_time(lambda: subprocess.run(
            [bgolly, "-q", "-q", "-m", "0", "-o", str(out), str(source)], **quiet),
            args.repeats)
        only_read = median_time(lambda: subprocess.run(
            [bgolly, "-q", "-q", "-m", "0", str(source)], **quiet), args.repeats)
    print(f"bgolly read+write {both:7.3f} s (whole process)   read {only_read:7.3f} s   "
          f"write {both - only_read:7.3f} s")
    print(f"lifearena read+write {read + write:7.3f} s   Golly / lifearena "
          f"{both / (read + write):5.2f}x")


if __name__ == "__main__":
    main()
