"""Density sweeps: seeds, resume after interruption, processes and Dask, cycle detection."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import numpy as np
import pytest

from lifearena.errors import BadParameterError
from lifearena.life.run import run_until_stable
from lifearena.studies.p2life_density import (
    Point,
    RunRow,
    SweepSpec,
    export,
    parse_size,
    run_seed,
    summarise,
    sweep,
)

SPEC = SweepSpec(rules=("p2life",), ps=(0.3, 0.8), sizes=((12, 12), (10, 14)),
                 boundaries=("torus", "bounded"), runs=3, master_seed=5, max_generations=2000)


def _key(rows: list[RunRow]) -> list[tuple]:
    # Everything but the wall-clock seconds.
    return [(r.rule, r.boundary, r.height, r.width, r.p, r.run, r.seed, r.generations,
             r.stopped, r.period, r.pop1, r.pop2) for r in rows]


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> list[RunRow]:
    return sweep(SPEC, tmp_path_factory.mktemp("ref") / "ref.sqlite", workers=1)


def test_reference_sweep_is_complete(reference: list[RunRow]) -> None:
    assert len(reference) == len(SPEC.tasks()) == 2 * 2 * 2 * 3
    assert all(r.stopped in ("stable", "periodic", "extinct") for r in reference)
    assert len({r.seed for r in reference}) == len(reference)


def test_resume_after_interruption(tmp_path: Path, reference: list[RunRow]) -> None:
    path = tmp_path / "sweep.sqlite"
    calls: list[int] = []

    def interrupt(done: int, total: int) -> None:
        calls.append(done)
        if done >= 5:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        sweep(SPEC, path, workers=1, chunk_size=5, progress=interrupt)
    with sqlite3.connect(path) as db:
        stored = db.execute("SELECT COUNT(*) FROM runs").fetchone()[0]
    assert stored == 5
    starts: list[int] = []
    rows = sweep(SPEC, path, workers=1, progress=lambda d, t: starts.append(d))
    assert starts[0] == 5  # the finished runs were not redone
    assert _key(rows) == _key(reference)


def test_results_do_not_depend_on_workers_or_chunks(tmp_path: Path,
                                                    reference: list[RunRow]) -> None:
    rows = sweep(SPEC, tmp_path / "par.sqlite", workers=2, chunk_size=2)
    assert _key(rows) == _key(reference)


def test_dask_local_cluster(tmp_path: Path, reference: list[RunRow]) -> None:
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  protocol="tcp", dashboard_address=":0") as cluster:
        assert cluster.scheduler_address.startswith("tcp://")
        rows = sweep(SPEC, tmp_path / "dask.sqlite", scheduler=cluster.scheduler_address,
                     chunk_size=3)
    assert _key(rows) == _key(reference)


def test_refuses_to_mix_master_seeds(tmp_path: Path) -> None:
    small = SweepSpec(ps=(0.5,), sizes=((8, 8),), boundaries=("torus",), runs=1,
                      max_generations=500)
    sweep(small, tmp_path / "s.sqlite", workers=1)
    other = SweepSpec(ps=(0.5,), sizes=((8, 8),), boundaries=("torus",), runs=1,
                      max_generations=500, master_seed=1)
    with pytest.raises(BadParameterError, match="master_seed"):
        sweep(other, tmp_path / "s.sqlite", workers=1)


def test_unusable_results_files_are_refused_and_left_alone(tmp_path: Path) -> None:
    small = SweepSpec(ps=(0.5,), sizes=((8, 8),), boundaries=("torus",), runs=1,
                      max_generations=50)
    text = tmp_path / "notes.txt"
    text.write_text("hello\n")
    with pytest.raises(BadParameterError, match="not a usable SQLite database"):
        sweep(small, text, workers=1)
    assert text.read_text() == "hello\n"
    with pytest.raises(BadParameterError, match="cannot open results file"):
        sweep(small, tmp_path / "missing-dir" / "r.sqlite", workers=1)
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as connection:
        connection.execute("CREATE TABLE games (id INTEGER)")
    with pytest.raises(BadParameterError, match="something else"):
        sweep(small, other, workers=1)
    with sqlite3.connect(other) as connection:
        tables = connection.execute("SELECT name FROM sqlite_master").fetchall()
    assert tables == [("games",)]


@pytest.mark.parametrize("address", ["bogus", "tcp://host", "foo://host:1", "tcp://h:port"])
def test_malformed_scheduler_address_is_refused_before_connecting(tmp_path: Path,
                                                                  address: str) -> None:
    small = SweepSpec(ps=(0.5,), sizes=((8, 8),), boundaries=("torus",), runs=1)
    with pytest.raises(BadParameterError, match="bad Dask scheduler address"):
        sweep(small, tmp_path / "r.sqlite", scheduler=address)
    assert not (tmp_path / "r.sqlite").exists()


def test_seeds_depend_on_coordinates_only() -> None:
    point = Point("p2life", "torus", 64, 64, 0.5)
    assert run_seed(3, point, 7) == run_seed(3, Point("p2life", "torus", 64, 64, 0.5), 7)
    others = {run_seed(3, point, 8), run_seed(4, point, 7),
              run_seed(3, Point("p2life", "bounded", 64, 64, 0.5), 7),
              run_seed(3, Point("p2life", "torus", 64, 64, 0.6), 7),
              run_seed(3, Point("life", "torus", 64, 64, 0.5), 7)}
    assert run_seed(3, point, 7) not in others and len(others) == 5


def test_summary_and_export(reference: list[RunRow]) -> None:
    summaries = summarise(reference)
    assert len(summaries) == 8 and all(s.runs == 3 for s in summaries)
    first = summaries[0]
    rows = [r for r in reference if (r.boundary, r.height, r.width, r.p)
            == (first.boundary, first.height, first.width, first.p)]
    assert first.density == pytest.approx(np.mean([r.density for r in rows]))
    assert first.density_se == pytest.approx(np.std([r.density for r in rows], ddof=1) / 3**0.5)
    csv_text = export(reference, "csv")
    assert len(csv_text.splitlines()) == len(reference) + 1
    assert '"ratio"' in export(summaries, "json")
    with pytest.raises(BadParameterError):
        export(reference, "xml")


def test_bad_specs() -> None:
    with pytest.raises(BadParameterError, match="boundary"):
        SweepSpec(boundaries=("sphere",))
    with pytest.raises(BadParameterError, match="out of range"):
        SweepSpec(ps=(1.5,))
    with pytest.raises(BadParameterError, match="lattice size"):
        parse_size("12by12")


# -- cycle detection, as the sweeps rely on it ---------------------------------------------


def _place(shape: tuple[int, int], cells: list[tuple[int, int]], colour: int = 1) -> np.ndarray:
    grid = np.zeros(shape, dtype=np.int8)
    for y, x in cells:
        grid[y, x] = colour
    return grid


@pytest.mark.parametrize(("name", "cells", "period"), [
    ("block", [(2, 2), (2, 3), (3, 2), (3, 3)], 1),
    ("blinker", [(3, 2), (3, 3), (3, 4)], 2),
    ("toad", [(3, 3), (3, 4), (3, 5), (4, 2), (4, 3), (4, 4)], 2),
    ("beacon", [(1, 1), (1, 2), (2, 1), (4, 4), (4, 3), (3, 4)], 2),
])
@pytest.mark.parametrize("rule", ["life", "p2life"])
def test_oscillators(name: str, cells: list[tuple[int, int]], period: int, rule: str) -> None:
    # One-colour patterns behave in p2life as in Life (no opposing neighbours); black ones
    # too, since p2life treats the colours alike (Life's births are colour 1).
    colour = 1 if rule == "life" else 2
    result = run_until_stable(_place((8, 8), cells, colour), rule, max_generations=50)
    assert result.period == period, name
    assert result.stopped == ("stable" if period == 1 else "periodic")
    assert result.cycle_start == 0


def test_glider_round_a_small_torus() -> None:
    glider = _place((8, 8), [(0, 1), (1, 2), (2, 0), (2, 1), (2, 2)])
    # It moves one cell diagonally every 4 generations: back home after 4 * 8.
    result = run_until_stable(glider, "p2life", torus=True, max_generations=100)
    assert (result.stopped, result.period, result.cycle_start) == ("periodic", 32, 0)
    bounded = run_until_stable(glider, "p2life", torus=False, max_generations=100)
    assert bounded.stopped == "stable" and bounded.populations == (4, 0)  # ends as a block
    capped = run_until_stable(glider, "life", torus=True, max_generations=20)
    assert capped.stopped == "cap" and capped.period is None
