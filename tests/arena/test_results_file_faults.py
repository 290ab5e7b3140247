"""Results files under attack: files that are not ours are refused with one line and left
untouched; two writers on one file share it safely; the executor never starts more processes
than tasks and refuses a bad scheduler address."""

from __future__ import annotations

import hashlib
import sqlite3
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest

from lifearena.arena.executor import Executor
from lifearena.arena.storage import ResultsDB
from lifearena.arena.tournament import TournamentConfig, parse_agents, report, run_tournament
from lifearena.errors import BadParameterError
from lifearena.killtest import integrity
from lifearena.studies.p2life_density import Store, SweepSpec, sweep

HERE = str(Path(__file__).parent.parent)  # tests/, where toy_games.py lives


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def siblings(path: Path) -> set[str]:
    return {p.name for p in path.parent.iterdir()}


def small_tournament(path: Path) -> None:
    config = TournamentConfig("toy_nim", parse_agents("random,first"), games=6, fast=False)
    run_tournament(config, db=path)


def p2life_file(path: Path) -> Path:
    sweep(SweepSpec(ps=(0.5,), sizes=((8, 8),), runs=2, max_generations=50), path, workers=1)
    return path


def damaged_copies(tmp_path: Path) -> dict[str, Path]:
    good = tmp_path / "good.sqlite"
    small_tournament(good)
    with sqlite3.connect(good) as conn:  # fold the WAL in, so the bytes are the whole file
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = good.read_bytes()
    files = {
        "truncated-header": data[:60],
        "truncated-half": data[: len(data) // 2],
        "not-sqlite": b"P\x00\x01 this is an RLE file, not a database\n" * 50,
        "binary-noise": bytes(range(256)) * 40,
    }
    out = {}
    for name, content in files.items():
        path = tmp_path / f"{name}.sqlite"
        path.write_bytes(content)
        out[name] = path
    other = tmp_path / "other-program.sqlite"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE notes (text TEXT)")
    out["other-program"] = other
    out["p2life-results"] = p2life_file(tmp_path / "p2life.sqlite")
    return out


def test_a_file_that_is_not_a_results_database_is_refused_untouched(tmp_path: Path,
                                                                    faults) -> None:
    files = damaged_copies(tmp_path)
    for name, path in files.items():
        faults.injected("bad results file")
        before, names = digest(path), siblings(path)
        with pytest.raises(BadParameterError) as refused:
            small_tournament(path)
        message = str(refused.value)
        assert str(path) in message and "expected" in message, (name, message)
        assert "\n" not in message
        assert digest(path) == before, f"{name} was written to"
        assert siblings(path) == names, f"{name} left a journal behind"
        faults.survived("bad results file")


def test_a_tournament_file_is_refused_by_the_density_sweep(tmp_path: Path, faults) -> None:
    path = tmp_path / "tournament.sqlite"
    small_tournament(path)
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    faults.injected("bad results file")
    before = digest(path)
    with pytest.raises(BadParameterError, match="something else"):
        Store(path)
    assert digest(path) == before
    faults.survived("bad results file")


def test_the_cli_refuses_a_p2life_file_as_db_in_one_line(tmp_path: Path, faults) -> None:
    path = p2life_file(tmp_path / "p2.sqlite")
    faults.injected("bad results file")
    before = digest(path)
    done = subprocess.run([sys.executable, "-m", "lifearena", "tournament", "war-of-life",
                           "-n", "1", "--db", str(path)], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and str(path) in lines[0] and "Traceback" not in done.stderr
    assert digest(path) == before
    faults.survived("bad results file")


WRITER = """
import sys; sys.path.insert(0, {here!r}); import toy_games
from lifearena.arena.tournament import TournamentConfig, parse_agents, run_tournament
config = TournamentConfig("toy_nim", parse_agents("random,first,s=slow:delay=0.001"),
                          games=40, chunk=2, seed={seed}, fast=False)
run_tournament(config, db={db!r}, name={name!r}, workers=1)
"""


@pytest.mark.parametrize("same_run", [True, False], ids=["same-run", "two-runs"])
def test_two_writers_share_one_file(tmp_path: Path, same_run: bool, faults) -> None:
    """Two tournaments started at once on one file: both finish, nothing is lost or doubled,
    no 'database is locked', the file is intact."""
    path = tmp_path / "shared.sqlite"
    names = ["t", "t"] if same_run else ["a", "b"]
    faults.injected("second writer")
    procs = [subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(WRITER).format(here=HERE, seed=7, db=str(path),
                                                              name=name)],
        stderr=subprocess.PIPE, text=True) for name in names]
    errors = [p.communicate(timeout=120)[1] for p in procs]
    for proc, err in zip(procs, errors, strict=True):
        assert proc.returncode == 0, err
        assert "locked" not in err and "Traceback" not in err
    assert integrity(path) == "ok"
    config = TournamentConfig("toy_nim", parse_agents("random,first,s=slow:delay=0.001"),
                              games=40, chunk=2, seed=7, fast=False)
    with ResultsDB(":memory:") as db:
        calm = run_tournament(config, db=db)
    with ResultsDB(path) as db:
        for name in set(names):
            run = db.get_run(name)
            assert run.count_games() == config.total_games()
            assert report(run).ranking == calm.ranking
    faults.survived("second writer")


def test_openers_of_one_new_file_at_once_all_find_a_lifearena_file(tmp_path: Path) -> None:
    """Six openers of one new results file at once (threads: SQLite releases the interpreter
    lock, so their statements interleave as processes' do), forty times: each finds no
    schema or the whole one, and none takes the file for another program's (the mark and the
    tables were once read in two statements, with another opener's schema made between)."""
    errors: list[BaseException] = []

    def open_it(path: Path, start: threading.Barrier) -> None:
        start.wait()
        try:
            ResultsDB(path).close()
        except BaseException as error:  # collected and reported below
            errors.append(error)

    for trial in range(40):
        start = threading.Barrier(6)
        threads = [threading.Thread(target=open_it, args=(tmp_path / f"{trial}.sqlite", start))
                   for _ in range(6)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert not errors, errors[:3]


def test_a_writer_kept_waiting_too_long_gets_one_clear_line(tmp_path: Path, monkeypatch,
                                                           faults) -> None:
    from lifearena.arena import storage

    path = tmp_path / "held.sqlite"
    ResultsDB(path).close()
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another process holds the write lock
    monkeypatch.setattr(storage, "BUSY_TIMEOUT", 0.2)
    faults.injected("second writer")
    try:
        db = ResultsDB(path)
        db._conn.execute("PRAGMA busy_timeout=200")
        with pytest.raises(storage.ResultsFileBusy, match="held by another process"):
            db.open_run("x", "tournament", {})
        db.close()
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert integrity(path) == "ok"
    faults.survived("second writer")


def test_workers_never_outnumber_tasks() -> None:
    assert Executor(500, tasks=50).workers == 50
    assert Executor(500, tasks=0).workers == 1
    assert Executor(3, tasks=50).workers == 3
    with Executor(64, tasks=2) as executor:
        assert executor._pool is not None and len(executor._pool._processes) == 2
        assert sorted(executor.map(pow, [(2, 3), (3, 2)])) == [8, 9]


def test_a_bad_scheduler_address_is_one_line(capsys) -> None:
    from lifearena.cli import main

    with pytest.raises(BadParameterError, match="bad Dask scheduler address 'garbage'"):
        Executor(scheduler="garbage")
    with pytest.raises(SystemExit) as done:
        main(["tournament", "war-of-life", "-n", "1", "--scheduler", "garbage"])
    err = capsys.readouterr().err
    assert done.value.code == 2
    assert len(err.strip().splitlines()) == 1 and "garbage" in err and "Traceback" not in err


def test_an_unknown_agent_is_refused_before_any_game(tmp_path: Path) -> None:
    path = tmp_path / "never.sqlite"
    with pytest.raises(BadParameterError, match="unknown agent 'landgrab'"):
        run_tournament(TournamentConfig("war_of_life", parse_agents("random,landgrab")),
                       db=path)
    assert not path.exists()
