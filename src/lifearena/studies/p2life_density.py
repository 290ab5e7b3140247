"""Asymptotic-density experiments of p2life (and any rule): sweeps that survive interruption.

A sweep runs random soups (:func:`lifearena.life.grid.random_grid`, the initial configuration
of Levene and Roussos, 2003) until they are stable or periodic
(:func:`lifearena.life.run.run_until_stable`, with a cap on generations) at every *point*
``(rule, boundary, height, width, p)`` of a grid of parameters, ``runs`` times per point.

* **Seeds.** Run ``k`` at a point gets the seed :func:`run_seed` derives from the master
  seed and the point's coordinates, used both for the soup and for the coin of 3/3 births;
  so a result never depends on which worker ran it or in what order.
* **Storage.** Every finished run is written at once to a SQLite file (one row per run, keyed
  by point and run number). Starting the same sweep again skips the runs already stored, so an
  interrupted sweep resumes where it stopped and loses nothing that had finished.
* **Parallelism.** Runs are grouped into chunks (a few runs of one point) and handed to the
  arena's :class:`~lifearena.arena.executor.Executor`: all cores by default, one process with
  ``workers=1``, a Dask cluster given its scheduler address.
* **Results.** :func:`summarise` gives per-point means and standard errors of the final
  density, the loser/winner ratio and how often the cap was hit; :func:`export` writes runs
  or summaries as CSV or JSON.

>>> spec = SweepSpec(rules=("p2life",), ps=(0.5,), sizes=((16, 16),), boundaries=("torus",),
...                  runs=2, max_generations=500)
>>> len(spec.tasks())
2
>>> run_seed(1, Point("p2life", "torus", 16, 16, 0.5), 0) == run_seed(1, spec.points()[0], 0)
True
"""

from __future__ import annotations

import csv
import io
import json
import math
import sqlite3
import time
import zlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from lifearena.arena.executor import Executor, check_scheduler
from lifearena.errors import BadParameterError
from lifearena.life.grid import random_grid
from lifearena.life.rules import as_rule
from lifearena.life.run import run_until_stable

BOUNDARIES = ("torus", "bounded")
"""``torus``: periodic boundaries; ``bounded``: the paper's cutoff lattice (outside is empty)."""

DEFAULT_PS = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)
RATIO_PS = (0.25, 0.5, 0.75, 1.0)
"""The initial densities of the paper's loser/winner-ratio histogram (100 runs each)."""


@dataclass(frozen=True, order=True)
class Point:
    """One point of a sweep: a rule, a boundary, a lattice size and an initial density."""

    rule: str
    boundary: str
    height: int
    width: int
    p: float

    @property
    def torus(self) -> bool:
        return self.boundary == "torus"

    @property
    def size(self) -> str:
        return f"{self.height}x{self.width}"


@dataclass(frozen=True)
class Task:
    """One run to do: a point, the run number there, its seed and the generation cap."""

    point: Point
    run: int
    seed: int
    max_generations: int


@dataclass(frozen=True)
class RunRow:
    """One finished run, as stored (a row of the ``runs`` table)."""

    rule: str
    boundary: str
    height: int
    width: int
    p: float
    run: int
    seed: int
    max_generations: int
    generations: int
    stopped: str
    period: int | None
    pop1: int
    pop2: int
    seconds: float

    @property
    def density(self) -> float:
        return (self.pop1 + self.pop2) / (self.height * self.width)

    @property
    def ratio(self) -> float | None:
        """Smaller over larger population at the end; ``None`` when both are extinct."""
        high = max(self.pop1, self.pop2)
        return None if high == 0 else min(self.pop1, self.pop2) / high

    @property
    def capped(self) -> bool:
        return self.stopped == "cap"


def _p_key(p: float) -> float:
    return round(float(p), 6)


@dataclass(frozen=True)
class SweepSpec:
    """What to run: every combination of ``rules x boundaries x sizes x ps``, ``runs`` each.

    ``colours`` is the colour model of the soup (2: the p2life soup; 1: one colour, for the
    Life calibration).
    """

    rules: tuple[str, ...] = ("p2life",)
    ps: tuple[float, ...] = DEFAULT_PS
    sizes: tuple[tuple[int, int], ...] = ((256, 256),)
    boundaries: tuple[str, ...] = BOUNDARIES
    runs: int = 100
    master_seed: int = 0
    max_generations: int = 20_000
    colours: int = 2
    extra: dict[str, str] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        if self.runs < 1:
            raise BadParameterError(f"runs {self.runs} is too small; expected at least 1")
        if self.max_generations < 1:
            raise BadParameterError(
                f"max generations {self.max_generations} is too small; expected at least 1")
        for p in self.ps:
            if not 0.0 <= p <= 1.0:
                raise BadParameterError(f"density p = {p} is out of range; expected 0 <= p <= 1")
        for boundary in self.boundaries:
            if boundary not in BOUNDARIES:
                raise BadParameterError(
                    f"unknown boundary {boundary!r}; expected one of {', '.join(BOUNDARIES)}")
        for height, width in self.sizes:
            if height < 3 or width < 3:
                raise BadParameterError(
                    f"lattice {height}x{width} is too small; expected at least 3x3")
        if self.colours not in (1, 2):
            raise BadParameterError(f"colours {self.colours} is not allowed; expected 1 or 2")
        for rule in self.rules:
            as_rule(rule)  # raises RuleError for unknown names

    def points(self) -> list[Point]:
        return [
            Point(rule, boundary, height, width, _p_key(p))
            for rule in self.rules
            for boundary in self.boundaries
            for height, width in self.sizes
            for p in self.ps
        ]

    def tasks(self) -> list[Task]:
        return [
            Task(point, run, run_seed(self.master_seed, point, run, self.colours),
                 self.max_generations)
            for point in self.points()
            for run in range(self.runs)
        ]


def parse_size(text: str) -> tuple[int, int]:
    """``"256"`` or ``"128x64"`` (width x height, as everywhere in lifearena) as
    ``(height, width)``.

    >>> parse_size("256"), parse_size("128x64")
    ((256, 256), (64, 128))
    """
    parts = text.lower().split("x")
    try:
        numbers = [int(part) for part in parts]
    except ValueError:
        raise BadParameterError(f"bad lattice size {text!r}; expected N or WxH like 128x64") \
            from None
    if len(numbers) == 1:
        return numbers[0], numbers[0]
    if len(numbers) == 2:
        return numbers[1], numbers[0]
    raise BadParameterError(f"bad lattice size {text!r}; expected N or WxH like 128x64")


def run_seed(master_seed: int, point: Point, run: int, colours: int = 2) -> int:
    """The seed of run ``run`` at ``point``: a SeedSequence of the master seed with the
    point's coordinates as spawn key, so it depends on nothing but these.

    >>> run_seed(0, Point("p2life", "torus", 64, 64, 0.5), 3)
    7955965699035297627
    """
    key = (
        zlib.crc32(as_rule(point.rule).table.tobytes()),
        BOUNDARIES.index(point.boundary),
        point.height,
        point.width,
        round(point.p * 1_000_000),
        run,
        colours,
    )
    sequence = np.random.SeedSequence(int(master_seed) & ((1 << 128) - 1), spawn_key=key)
    return int(sequence.generate_state(1, np.uint64)[0]) & ((1 << 63) - 1)


def run_task(task: Task, colours: int = 2) -> RunRow:
    """Do one run: a soup from the task's seed, stepped until stable, periodic or capped."""
    point = task.point
    start = time.perf_counter()
    cells = random_grid(point.height, point.width, density=point.p, seed=task.seed,
                        colours=colours)
    result = run_until_stable(cells, point.rule, torus=point.torus, seed=task.seed,
                              max_generations=task.max_generations)
    pop1, pop2 = result.populations
    return RunRow(point.rule, point.boundary, point.height, point.width, point.p, task.run,
                  task.seed, task.max_generations, result.generation, result.stopped,
                  result.period, pop1, pop2, time.perf_counter() - start)


def run_chunk(tasks: Sequence[Task], colours: int = 2) -> list[RunRow]:
    """Do several runs in one worker call (fewer round trips than one run per call)."""
    return [run_task(task, colours) for task in tasks]


# -- storage ------------------------------------------------------------------------------------

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS runs (
    rule TEXT NOT NULL, boundary TEXT NOT NULL, height INTEGER NOT NULL, width INTEGER NOT NULL,
    p REAL NOT NULL, run INTEGER NOT NULL, seed INTEGER NOT NULL,
    max_generations INTEGER NOT NULL, generations INTEGER NOT NULL, stopped TEXT NOT NULL,
    period INTEGER, pop1 INTEGER NOT NULL, pop2 INTEGER NOT NULL, seconds REAL NOT NULL,
    PRIMARY KEY (rule, boundary, height, width, p, run)
);
"""
_COLUMNS = [f for f in RunRow.__dataclass_fields__]
APPLICATION_ID = 0x50324C44  # "P2LD": marks a file as a p2life density results file
BUSY_TIMEOUT = 30.0
"""Seconds a writer waits for another writer of the same file."""


class Store:
    """The SQLite file of a sweep: one row per finished run, committed as it arrives.

    The master seed, the colour model and the cap of the first sweep are kept in a ``meta``
    table; a later sweep with different values is refused rather than mixed in.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        if self.path.is_dir():
            raise BadParameterError(f"results file '{self.path}' is a directory; expected a "
                                    "p2life results file or a new path")
        try:
            # a busy timeout: a second sweep on the same file waits for the first's commits
            self.connection = sqlite3.connect(str(self.path), timeout=BUSY_TIMEOUT)
        except sqlite3.Error as error:
            raise BadParameterError(f"cannot open results file '{self.path}' ({error}); "
                                    "expected a writable path") from None
        try:
            self._prepare()
        except sqlite3.Error as error:
            self.connection.close()
            raise BadParameterError(f"results file '{self.path}' is not a usable SQLite "
                                    f"database ({error}); expected a p2life results file or a "
                                    "new path") from None
        except BadParameterError:
            self.connection.close()
            raise

    def _prepare(self) -> None:
        """Check the file is ours (or new) before writing anything, then create the tables."""
        conn = self.connection
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        tables = {name for (name,) in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
        columns = ({row[1] for row in conn.execute("PRAGMA table_info(runs)")}
                   if "runs" in tables else set())
        # another program's database (a tournament's results, say) is left untouched
        if app_id not in (0, APPLICATION_ID) or (
                tables and not ({"meta", "runs"} <= tables and set(_COLUMNS) <= columns)):
            listed = ", ".join(sorted(tables)) or "none"
            raise BadParameterError(
                f"results file '{self.path}' is a SQLite database of something else "
                f"(tables {listed}); expected a p2life results file or a new path")
        if tables:
            check = [row[0] for row in conn.execute("PRAGMA quick_check")]
            if check != ["ok"]:
                raise BadParameterError(f"results file '{self.path}' is damaged "
                                        f"({'; '.join(check[:3])}); expected an intact p2life "
                                        "results file")
        conn.execute(f"PRAGMA application_id={APPLICATION_ID}")
        conn.executescript(_SCHEMA)
        conn.commit()

    def check_meta(self, spec: SweepSpec) -> None:
        wanted = {"master_seed": str(spec.master_seed), "colours": str(spec.colours),
                  "max_generations": str(spec.max_generations)}
        stored = dict(self.connection.execute("SELECT key, value FROM meta"))
        for key, value in wanted.items():
            if key in stored and stored[key] != value:
                raise BadParameterError(
                    f"{self.path} holds runs with {key} = {stored[key]}; this sweep asks for "
                    f"{value}. Use another results file or the same {key}")
        with self.connection:
            self.connection.executemany("INSERT OR IGNORE INTO meta VALUES (?, ?)",
                                        wanted.items())

    def done(self) -> set[tuple]:
        rows = self.connection.execute(
            "SELECT rule, boundary, height, width, p, run FROM runs")
        return {(r, b, h, w, _p_key(p), k) for r, b, h, w, p, k in rows}

    def add(self, rows: Iterable[RunRow]) -> None:
        marks = ", ".join("?" for _ in _COLUMNS)
        with self.connection:
            self.connection.executemany(
                f"INSERT OR REPLACE INTO runs ({', '.join(_COLUMNS)}) VALUES ({marks})",
                [tuple(getattr(r, c) for c in _COLUMNS) for r in rows])

    def rows(self, points: Iterable[Point] | None = None) -> list[RunRow]:
        """Stored runs (of ``points`` only, if given), sorted by point and run."""
        found = [RunRow(*row) for row in self.connection.execute(
            f"SELECT {', '.join(_COLUMNS)} FROM runs ORDER BY rule, boundary, height, width, "
            "p, run")]
        if points is None:
            return found
        wanted = {(pt.rule, pt.boundary, pt.height, pt.width, _p_key(pt.p)) for pt in points}
        return [r for r in found if (r.rule, r.boundary, r.height, r.width, _p_key(r.p))
                in wanted]

    def close(self) -> None:
        self.connection.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# -- running ------------------------------------------------------------------------------------

Progress = Callable[[int, int], None]
"""``progress(done, total)``: called once before any run and after every finished chunk."""


def sweep(
    spec: SweepSpec,
    path: str | Path,
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    chunk_size: int = 4,
    progress: Progress | None = None,
) -> list[RunRow]:
    """Run every task of ``spec`` not yet stored in the SQLite file ``path``; return all the
    runs of the spec's points (old and new), sorted.

    ``workers`` is the number of local processes (default: every core; 1 runs in this
    process); ``scheduler`` a Dask scheduler address such as ``tcp://10.0.0.1:8786``.
    """
    if chunk_size < 1:
        raise BadParameterError(f"chunk size {chunk_size} is too small; expected at least 1")
    if scheduler is not None:
        check_scheduler(scheduler)
    with Store(path) as store:
        store.check_meta(spec)
        done = store.done()
        tasks = spec.tasks()
        todo = [t for t in tasks
                if (t.point.rule, t.point.boundary, t.point.height, t.point.width,
                    _p_key(t.point.p), t.run) not in done]
        total, finished = len(tasks), len(tasks) - len(todo)
        if progress:
            progress(finished, total)
        chunks = [todo[i:i + chunk_size] for i in range(0, len(todo), chunk_size)]
        if chunks:
            with Executor(1 if len(chunks) == 1 and not scheduler else workers,
                          scheduler=scheduler, tasks=len(chunks)) as executor:
                for _, rows in executor.run((run_chunk, (chunk, spec.colours))
                                            for chunk in chunks):
                    store.add(rows)
                    finished += len(rows)
                    if progress:
                        progress(finished, total)
        return store.rows(spec.points())


# -- results ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Summary:
    """Per-point statistics over the stored runs."""

    rule: str
    boundary: str
    height: int
    width: int
    p: float
    runs: int
    density: float
    density_se: float
    capped: int
    generations: float
    ratio: float | None
    ratio_above_half: float | None


def _mean_se(values: Sequence[float]) -> tuple[float, float]:
    n = len(values)
    if n == 0:
        return math.nan, math.nan
    mean = sum(values) / n
    if n == 1:
        return mean, math.nan
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, math.sqrt(var / n)


def summarise(rows: Iterable[RunRow]) -> list[Summary]:
    """Mean final density (and its standard error), caps, mean generations, loser/winner
    ratio per point.

    >>> row = RunRow("p2life", "torus", 4, 4, 0.5, 0, 1, 10, 3, "stable", 1, 2, 1, 0.0)
    >>> s = summarise([row, row])[0]
    >>> s.density, s.density_se, s.ratio
    (0.1875, 0.0, 0.5)
    """
    groups: dict[tuple, list[RunRow]] = {}
    for row in rows:
        key = (row.rule, row.boundary, row.height, row.width, _p_key(row.p))
        groups.setdefault(key, []).append(row)
    out = []
    for key in sorted(groups):
        group = groups[key]
        mean, se = _mean_se([r.density for r in group])
        ratios = [r.ratio for r in group if r.ratio is not None]
        out.append(Summary(
            *key, runs=len(group), density=mean, density_se=se,
            capped=sum(r.capped for r in group),
            generations=sum(r.generations for r in group) / len(group),
            ratio=sum(ratios) / len(ratios) if ratios else None,
            ratio_above_half=(sum(x > 0.5 for x in ratios) / len(ratios)) if ratios else None,
        ))
    return out


def _records(items: Sequence[RunRow] | Sequence[Summary]) -> list[dict[str, object]]:
    records = []
    for item in items:
        record = asdict(item)
        if isinstance(item, RunRow):
            record["density"] = item.density
            record["ratio"] = item.ratio
        records.append(record)
    return records


def export(items: Sequence[RunRow] | Sequence[Summary], fmt: str) -> str:
    """``items`` (runs or summaries) as ``"csv"`` or ``"json"`` text.

    >>> row = RunRow("p2life", "torus", 4, 4, 0.5, 0, 1, 10, 3, "stable", 1, 2, 1, 0.0)
    >>> export([row], "csv").splitlines()[0].split(",")[:3]
    ['rule', 'boundary', 'height']
    """
    records = _records(items)
    if fmt == "json":
        return json.dumps(records, indent=1)
    if fmt == "csv":
        buffer = io.StringIO()
        if records:
            writer = csv.DictWriter(buffer, fieldnames=list(records[0]), lineterminator="\n")
            writer.writeheader()
            writer.writerows(records)
        return buffer.getvalue()
    raise BadParameterError(f"unknown export format {fmt!r}; expected csv or json")
