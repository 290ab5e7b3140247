"""lifearena's ``life run`` beside Golly's ``bgolly``, whole processes, in one run.

Each case runs both programs as whole processes, one at a time, on one core (``taskset -c
0`` where it exists), ``--repeats`` times, and quotes the median. A figure is the process's
CPU time (user + system, from the kernel's accounting of the finished child, so a busy
machine shares its cores without inflating it; ``--wall`` quotes wall-clock time instead).
"Engine time" is a run's time less the median of the same command run for one generation:
it leaves out start-up, reading and writing files. Cases (issue 30's measures):

* **gun 2^30** -- Gosper's gun to 2**30 generations with HashLife (``--algorithm hashlife
  --step-exponent 30``; Golly's HashLife with ``-i 2**30``); the final population must be
  178,957,021. Target: under 1 s of engine time.
* **acorn 5,206** -- to its stable end (population 633). Target: under 0.5 s engine time.
* **Lidka 29,055** -- the 13-cell methuselah to its end; whole process within 10x Golly's
  QuickLife.
* **soup 2048² / 4096²** -- a 50% Life soup read from one ``:T`` RLE file (the same file for
  both), 1,000 generations, written back as RLE; whole process faster than Golly QuickLife.
* **Immigration soup** -- a 1024² two-colour soup on a torus, 1,000 generations, against
  Golly's rule-table algorithm (``-a RuleLoader -s DIR -r Immigration``) with the ``.rule``
  file written here from lifearena's own rule table; engine time at least 40x Golly's.
* **start-up** -- ``lifearena --help`` and a one-generation run, whole process, under 0.5 s.

lifearena is called as ``lifearena life run --input FILE --generations N [--algorithm
hashlife|tiles] [--step-exponent K] --output OUT.rle``. A case whose flags this lifearena
does not have, or whose file it refuses, prints "not available" and the reason instead of
failing; a run past ``--timeout`` seconds reads "timed out". The population of each side's
result is checked against the other's (and the gun's and acorn's against the known values).

A full run took 14 minutes on the shared Zen 4 machine, most of it Golly's rule-table
algorithm (about 41 s a run) and Lidka reaching the time limit.

    python benchmarks/bench_golly.py
    python benchmarks/bench_golly.py --repeats 5 --markdown golly.md
    python benchmarks/bench_golly.py --cases acorn,startup --repeats 1
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
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

GUN = ("x = 36, y = 9, rule = B3/S23\n24bo$22bobo$12b2o6b2o12b2o$11bo3bo4b2o12b2o$2o8bo5bo3b2o$"
       "2o8bo3bob2o4bobo$10bo5bo7bo$11bo3bo$12b2o!\n")
ACORN = "x = 7, y = 3, rule = B3/S23\nbo5b$3bo3b$2o2b3o!\n"
LIDKA = "x = 9, y = 15, rule = B3/S23\nbo$obo$bo8$8bo$6bobo$5b2obo2$4b3o!\n"
GUN_GENERATIONS = 2**30
GUN_POPULATION = 178_957_021
ACORN_POPULATION = 633
# Engine times under this many seconds are within the noise of the whole-process times they
# are the difference of; a ratio to one is quoted as a bound.
RESOLUTION = 0.05
CASES = ("gun", "acorn", "lidka", "soup2048", "soup4096", "immigration", "startup")


def parse(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=3, help="runs per command (median)")
    parser.add_argument("--cases", default=",".join(CASES),
                        help=f"comma-separated cases, of {', '.join(CASES)}")
    parser.add_argument("--timeout", type=float, default=300.0,
                        help="seconds one lifearena process may take before the case reads "
                             "'timed out'")
    parser.add_argument("--wall", action="store_true",
                        help="quote wall-clock time instead of the processes' CPU time")
    parser.add_argument("--bgolly", default=shutil.which("bgolly"), help="Golly's bgolly")
    parser.add_argument("--lifearena", default=None,
                        help="lifearena command (default: the one beside this Python)")
    parser.add_argument("--markdown", type=Path, default=None,
                        help="also write the table as markdown to this file")
    parser.add_argument("--keep", type=Path, default=None,
                        help="work in this folder and keep its files (default: a temporary one)")
    args = parser.parse_args(argv)
    unknown = set(args.cases.split(",")) - set(CASES)
    if unknown:
        parser.error(f"unknown case(s) {', '.join(sorted(unknown))}; "
                     f"expected of {', '.join(CASES)}")
    if args.repeats < 1:
        parser.error(f"--repeats {args.repeats} is below 1")
    return args


# -- processes --------------------------------------------------------------------------------


class Unavailable(Exception):
    """The case cannot run with this lifearena or this machine; the message says why."""


@dataclass
class Timing:
    """Median seconds of one command over the repeats, and the last run's output."""

    seconds: float
    stdout: str


@dataclass
class Runner:
    """Runs whole processes on one core and times them."""

    wall: bool
    timeout: float
    pin: list[str] = field(default_factory=list)

    def once(self, command: Sequence[str], timeout: float | None = None) -> Timing:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        try:
            done = subprocess.run([*self.pin, *command], capture_output=True, text=True,
                                  timeout=timeout or self.timeout, check=False)
        except subprocess.TimeoutExpired as expired:
            raise Unavailable(f"timed out (> {expired.timeout:.0f} s)") from None
        elapsed = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if done.returncode != 0:
            lines = (done.stderr.strip() or done.stdout.strip() or "no output").splitlines()
            name = Path(command[0]).name
            raise Unavailable(f"not available: {name} exit {done.returncode}: {lines[-1][:140]}")
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        return Timing(elapsed if self.wall else cpu, done.stdout)

    def median(self, command: Sequence[str], repeats: int) -> Timing:
        runs = [self.once(command) for _ in range(repeats)]
        return Timing(statistics.median(r.seconds for r in runs), runs[-1].stdout)


# -- files ------------------------------------------------------------------------------------


def soup_rle(size: int, rule: str, colours: int, seed: int) -> str:
    """A 50% soup on a ``size`` x ``size`` torus as RLE (``rule`` with Golly's ``:T`` suffix).

    Cells are drawn from ``numpy.random.default_rng(seed)``: alive with probability 1/2 and,
    with two colours, each colour equally likely.
    """
    rng = np.random.default_rng(seed)
    cells = (rng.random((size, size)) < 0.5).astype(np.int8)
    if colours == 2:
        cells *= rng.integers(1, 3, size=(size, size), dtype=np.int8)
    return rle_of(cells, f"{rule}:T{size},{size}")


def rle_of(cells: np.ndarray, rule: str) -> str:
    """``cells`` (0, 1, 2) as RLE with the header's ``rule``: ``b``/``o`` when only colour 1
    occurs, else Golly's multistate ``.``/``A``/``B``."""
    height, width = cells.shape
    letters = "bo" if int(cells.max(initial=0)) <= 1 else ".AB"
    body: list[str] = []
    for row in cells:
        edges = np.flatnonzero(np.diff(row)) + 1
        starts = np.concatenate(([0], edges))
        stops = np.concatenate((edges, [width]))
        runs = []
        for a, b in zip(starts.tolist(), stops.tolist(), strict=True):
            value = int(row[a])
            if value == 0 and b == width:
                break
            count = b - a
            runs.append((str(count) if count > 1 else "") + letters[value])
        body.append("".join(runs))
    text = "$".join(body) + "!"
    wrapped = "\n".join(text[i:i + 70] for i in range(0, len(text), 70))
    return f"x = {width}, y = {height}, rule = {rule}\n{wrapped}\n"


def rle_population(text: str) -> int:
    """Live cells of an RLE (any state but ``b``/``.`` counts), header and comments skipped."""
    body = "".join(line for line in text.splitlines()
                   if line and not line.startswith(("#", "x ", "x=")))
    body = body.split("!", 1)[0]
    total = 0
    for count, state in re.findall(r"(\d*)([A-Za-z.])", body):
        if state not in "b.":
            total += int(count) if count else 1
    return total


def golly_rule_table(name: str) -> str:
    """A Golly ``.rule`` file of lifearena's two-colour rule ``name`` (Moore, permute).

    One transition line per (state, colour-1 count, colour-2 count) whose next state
    differs, written from the rule's own table, so Golly runs exactly lifearena's rule.
    """
    from lifearena.life.rules import COIN, Rule

    rule = Rule.from_string(name)
    if bool((rule.table == COIN).any()):
        raise Unavailable(f"rule {name!r} has a coin; Golly's rule tables are deterministic")
    golly_name = name.capitalize()
    lines = [f"@RULE {golly_name}", "", f"Written by lifearena from its rule {name!r}.", "",
             "@TABLE", "n_states:3", "neighborhood:Moore", "symmetries:permute"]
    table = rule.table
    for state in range(3):
        for n1 in range(9):
            for n2 in range(9 - n1):
                nxt = int(table[state, n1, n2])
                if nxt != state:
                    around = [1] * n1 + [2] * n2 + [0] * (8 - n1 - n2)
                    lines.append(",".join(str(v) for v in (state, *around, nxt)))
    return "\n".join(lines) + "\n"


# -- the table --------------------------------------------------------------------------------


@dataclass
class Row:
    """One line of the table: both sides' figures, their ratio, the target and verdict."""

    case: str
    ours: str
    golly: str
    ratio: str
    target: str
    met: str
    note: str = ""


def seconds(value: float) -> str:
    return f"{value:.3f} s" if value < 10 else f"{value:.1f} s"


def lifearena_flags(lifearena: list[str], runner: Runner) -> str:
    return runner.once([*lifearena, "life", "run", "--help"], timeout=120).stdout


class Bench:
    """The cases, sharing one runner, one work folder and the two programs."""

    def __init__(self, args: argparse.Namespace, work: Path) -> None:
        self.args = args
        self.work = work
        pin = ["taskset", "-c", "0"] if shutil.which("taskset") else []
        self.runner = Runner(args.wall, args.timeout, pin)
        if args.lifearena:
            self.lifearena = args.lifearena.split()
        else:
            beside = Path(sys.executable).with_name("lifearena")
            self.lifearena = [str(beside)] if beside.exists() else [sys.executable, "-m",
                                                                     "lifearena"]
        self.bgolly = args.bgolly
        # Wide enough that the run summary's rows never wrap (populations are read from it).
        os.environ["COLUMNS"] = "200"
        self.help = lifearena_flags(self.lifearena, self.runner)

    def file(self, name: str, text: str) -> Path:
        path = self.work / name
        path.write_text(text)
        return path

    def needs(self, *flags: str) -> None:
        missing = [f for f in flags if f not in self.help]
        if missing:
            raise Unavailable(f"not available: this lifearena has no {', '.join(missing)}")

    def result(self, pattern: Path, generations: int, side: str) -> Path:
        """Where one side writes ``pattern`` after ``generations`` (apart from the
        one-generation runs, which would overwrite the result otherwise)."""
        return self.work / f"{side}-{pattern.stem}-{generations}.rle"

    def ours(self, pattern: Path, generations: int, extra: Sequence[str] = (),
             output: bool = True) -> list[str]:
        command = [*self.lifearena, "life", "run", "--input", str(pattern),
                   "--generations", str(generations), *extra]
        if output:
            command += ["--output", str(self.result(pattern, generations, "out"))]
        return command

    def golly(self, pattern: Path, generations: int, algorithm: str,
              extra: Sequence[str] = (), output: bool = True) -> list[str]:
        if not self.bgolly:
            raise Unavailable("bgolly not installed")
        command = [self.bgolly, "-a", algorithm, "-m", str(generations), *extra]
        if output:
            command += ["-o", str(self.result(pattern, generations, "golly"))]
        return [*command, str(pattern)]

    def engine(self, command: Callable[[int], list[str]],
               generations: int) -> tuple[float, float, str]:
        """(whole-process time, engine time, stdout) of a run of ``generations``."""
        whole = self.runner.median(command(generations), self.args.repeats)
        one = self.runner.median(command(1), self.args.repeats)
        return whole.seconds, max(0.0, whole.seconds - one.seconds), whole.stdout

    def ours_population(self, stdout: str, pattern: Path | None,
                        generations: int = 0) -> int | None:
        if pattern is not None:
            out = self.result(pattern, generations, "out")
            if out.exists():
                return rle_population(out.read_text())
        found = re.findall(r"colour [12][^\n\d]*?[│|]\s*([\d,]+)", stdout)
        return sum(int(v.replace(",", "")) for v in found) if found else None

    def golly_population(self, pattern: Path, generations: int, stdout: str) -> int | None:
        out = self.result(pattern, generations, "golly")
        if out.exists():
            return rle_population(out.read_text())
        last = re.findall(r"^[\d,]+: ([\d,]+)$", stdout, flags=re.M)
        return int(last[-1].replace(",", "")) if last else None

    # -- cases --

    def gun(self) -> list[Row]:
        target = "< 1 s engine, population 178,957,021"
        pattern = self.file("gun.rle", GUN)
        engine = population = None
        try:
            self.needs("--algorithm", "--step-exponent")
            # The one-generation run (subtracted) still loads HashLife, with step 2**0.
            whole, engine, out = self.engine(
                lambda n: self.ours(pattern, n, ["--algorithm", "hashlife", "--step-exponent",
                                                 "30" if n > 1 else "0"], output=False),
                GUN_GENERATIONS)
            population = self.ours_population(out, None)
            ours = f"{seconds(engine)} engine ({seconds(whole)} whole), population " + (
                f"{population:,}" if population is not None else "not found in the output")
        except Unavailable as why:
            ours = str(why)
        g_engine = None
        try:
            g_whole, g_engine, _ = self.engine(
                lambda n: self.golly(pattern, n, "HashLife", ["-i", str(n)], output=False),
                GUN_GENERATIONS)
            golly = f"{seconds(g_engine)} engine ({seconds(g_whole)} whole)"
        except Unavailable as why:
            golly = str(why)
        ratio = f"{engine / g_engine:.1f}x Golly's time" if engine and g_engine else ""
        met = engine is not None and engine < 1 and population == GUN_POPULATION
        return [Row("Gosper gun to 2^30 (HashLife)", ours, golly, ratio, target,
                    "yes" if met else "no")]

    def acorn(self) -> list[Row]:
        target = "< 0.5 s engine"
        pattern = self.file("acorn.rle", ACORN)
        try:
            whole, engine, out = self.engine(lambda n: self.ours(pattern, n), 5206)
            population = self.ours_population(out, pattern, 5206)
        except Unavailable as why:
            return [Row("acorn to 5,206", str(why), "", "", target, "no")]
        try:
            g_whole, g_engine, _ = self.engine(
                lambda n: self.golly(pattern, n, "QuickLife"), 5206)
            golly = f"{seconds(g_engine)} engine ({seconds(g_whole)} whole)"
            ratio = f"{engine / g_engine:.0f}x Golly's time" if g_engine else "Golly ~0 s"
        except Unavailable as why:
            golly, ratio = str(why), ""
        note = "" if population == ACORN_POPULATION else f"population {population}, expected 633"
        return [Row("acorn to 5,206", f"{seconds(engine)} engine ({seconds(whole)} whole)",
                    golly, ratio, target, "yes" if engine < 0.5 and not note else "no", note)]

    def lidka(self) -> list[Row]:
        target = "whole process within 10x Golly QuickLife"
        pattern = self.file("lidka.rle", LIDKA)
        return [self.versus("Lidka to 29,055", pattern, 29055, "QuickLife", [], target, 1 / 10,
                            whole_process=True)]

    def soup(self, size: int) -> list[Row]:
        pattern = self.file(f"soup{size}.rle", soup_rle(size, "B3/S23", 1, seed=size))
        return [self.versus(f"{size}² Life soup, 1,000 gens, RLE in and out", pattern, 1000,
                            "QuickLife", [], "whole process faster than Golly QuickLife", 1.0,
                            whole_process=True)]

    def immigration(self) -> list[Row]:
        target = "engine >= 40x Golly RuleLoader"
        size = 1024
        try:
            rules = self.work / "rules"
            rules.mkdir(exist_ok=True)
            (rules / "Immigration.rule").write_text(golly_rule_table("immigration"))
        except Unavailable as why:
            return [Row("Immigration soup", str(why), "", "", target, "no")]
        pattern = self.file("immigration.rle", soup_rle(size, "Immigration", 2, seed=7))
        golly = ["-s", str(rules) + "/", "-r", f"Immigration:T{size},{size}"]
        return [self.versus(f"{size}² Immigration soup, 1,000 gens", pattern, 1000,
                            "RuleLoader", golly, target, 40.0, whole_process=False)]

    def startup(self) -> list[Row]:
        rows = []
        try:
            t = self.runner.median([*self.lifearena, "--help"], self.args.repeats).seconds
            rows.append(Row("start-up: lifearena --help", seconds(t), "", "", "< 0.5 s",
                            "yes" if t < 0.5 else "no"))
        except Unavailable as why:
            rows.append(Row("start-up: lifearena --help", str(why), "", "", "< 0.5 s", "no"))
        pattern = self.file("acorn.rle", ACORN)
        try:
            t = self.runner.median(self.ours(pattern, 1), self.args.repeats).seconds
            golly = ""
            if self.bgolly:
                g = self.runner.median(self.golly(pattern, 1, "QuickLife"), self.args.repeats)
                golly = seconds(g.seconds)
            rows.append(Row("start-up: one-generation run", seconds(t), golly, "", "< 0.5 s",
                            "yes" if t < 0.5 else "no"))
        except Unavailable as why:
            rows.append(Row("start-up: one-generation run", str(why), "", "", "< 0.5 s", "no"))
        return rows

    def versus(self, case: str, pattern: Path, generations: int, algorithm: str,
               golly_extra: list[str], target: str, floor: float, *,
               whole_process: bool) -> Row:
        """Both sides on one file; ratio = Golly's time / lifearena's (whole or engine)."""
        ours_figure = golly_figure = None
        ours_pop = golly_pop = None
        try:
            whole, engine, out = self.engine(lambda n: self.ours(pattern, n), generations)
            ours_pop = self.ours_population(out, pattern, generations)
            ours_figure = whole if whole_process else engine
            ours_text = (f"{seconds(whole)} whole" if whole_process
                         else f"{seconds(engine)} engine ({seconds(whole)} whole)")
        except Unavailable as why:
            ours_text = str(why)
        try:
            g_whole, g_engine, g_out = self.engine(
                lambda n: self.golly(pattern, n, algorithm, golly_extra), generations)
            golly_pop = self.golly_population(pattern, generations, g_out)
            golly_figure = g_whole if whole_process else g_engine
            golly_text = (f"{seconds(g_whole)} whole" if whole_process
                          else f"{seconds(g_engine)} engine ({seconds(g_whole)} whole)")
        except Unavailable as why:
            golly_text = str(why)
        if ours_figure is None or golly_figure is None:
            return Row(case, ours_text, golly_text, "", target, "no" if ours_figure is None
                       else "?")
        note = ("" if ours_pop == golly_pop
                else f"populations differ: lifearena {ours_pop}, Golly {golly_pop}")
        if ours_figure < RESOLUTION:
            # Under the run-to-run noise of the processes it is subtracted from: a bound only.
            ratio = golly_figure / RESOLUTION
            ratio_text = f"over {ratio:.0f}x as fast as Golly (lifearena under {RESOLUTION} s)"
        else:
            ratio = golly_figure / ours_figure
            ratio_text = (f"{ratio:.2f}x as fast as Golly" if ratio >= 1
                          else f"{1 / ratio:.0f}x Golly's time" if ratio > 0
                          else "Golly's time rounds to 0")
        return Row(case, ours_text, golly_text, ratio_text, target,
                   "yes" if ratio >= floor and not note else "no", note)


def table(rows: list[Row], markdown: bool) -> str:
    heads = ("case", "lifearena", "Golly", "ratio", "target", "met?")
    cells: list[tuple[str, ...]] = [
        (r.case, r.ours, r.golly, r.ratio, r.target, r.met + (f" ({r.note})" if r.note else ""))
        for r in rows]
    if markdown:
        lines = ["| " + " | ".join(heads) + " |", "|" + "---|" * len(heads)]
        lines += ["| " + " | ".join(c) + " |" for c in cells]
        return "\n".join(lines)
    # The terminal table cuts long cells (a refusal's message); the markdown keeps them whole.
    cells = [tuple(c if len(c) <= 60 else c[:57] + "..." for c in row) for row in cells]
    widths = [max(len(h), *(len(c[i]) for c in cells)) for i, h in enumerate(heads)]
    lines = ["  ".join(h.ljust(w) for h, w in zip(heads, widths, strict=True))]
    lines += ["  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)) for row in cells]
    return "\n".join(lines)


def describe(bench: Bench) -> str:
    version = ""
    if bench.bgolly:
        done = subprocess.run([bench.bgolly, "--help"], capture_output=True, text=True,
                              check=False)
        version = (done.stdout.splitlines() or ["?"])[0]
    measure = "wall-clock" if bench.args.wall else "CPU (user+system)"
    pinned = "taskset -c 0" if bench.runner.pin else "not pinned (no taskset)"
    return (f"{measure} seconds, median of {bench.args.repeats}, {pinned}; "
            f"lifearena: {' '.join(bench.lifearena)}; Golly: {version or 'not installed'}")


def main(argv: Sequence[str] | None = None) -> None:
    args = parse(argv)
    with tempfile.TemporaryDirectory(prefix="bench-golly-") as scratch:
        work = args.keep or Path(scratch)
        work.mkdir(parents=True, exist_ok=True)
        bench = Bench(args, work)
        print("#", describe(bench), flush=True)
        rows: list[Row] = []
        chosen = args.cases.split(",")
        runs: dict[str, Callable[[], list[Row]]] = {
            "gun": bench.gun, "acorn": bench.acorn, "lidka": bench.lidka,
            "soup2048": lambda: bench.soup(2048), "soup4096": lambda: bench.soup(4096),
            "immigration": bench.immigration, "startup": bench.startup}
        for case in CASES:
            if case in chosen:
                new = runs[case]()
                for row in new:  # messages name files by their own names, not the work folder
                    row.ours = row.ours.replace(f"{work}/", "")
                    row.golly = row.golly.replace(f"{work}/", "")
                for row in new:
                    print(f"{row.case}: {row.ours} | {row.golly} | {row.ratio} | {row.met}"
                          + (f" ({row.note})" if row.note else ""), flush=True)
                rows += new
        print()
        print(table(rows, markdown=False))
        if args.markdown:
            args.markdown.write_text(f"<!-- {describe(bench)} -->\n" + table(rows, True) + "\n")
            print(f"\nwrote {args.markdown}")


if __name__ == "__main__":
    main()
