"""Killed runs lose nothing: a tournament, a ladder and a p2life density sweep, each SIGKILLed
several times in the middle of its work and resumed, end with exactly the results of an
uninterrupted run with the same seed — no game lost, none counted twice, the file intact —
and no worker process outlives a kill.

The long variant is ``benchmarks/soak_kill_resume.py``.
"""

from __future__ import annotations

import sqlite3
import sys
import textwrap
from pathlib import Path

import pytest

from lifearena.arena import ladder as lad
from lifearena.arena.storage import ResultsDB
from lifearena.arena.tournament import TournamentConfig, parse_agents, report, run_tournament
from lifearena.killtest import integrity, run_with_kills
from lifearena.studies.p2life_density import RunRow, Store, SweepSpec, sweep

KILLS = 3

# the tiny test games need no compiled kernel, so each restart is quick; slow agents make a
# run last long enough to be killed in the middle (benchmarks/soak_kill_resume.py uses War of
# Life and the real command line)
HERE = str(Path(__file__).parent.parent)  # tests/, where toy_games.py lives
TOURNAMENT = dict(game="toy_nim", agents="random,first,s=slow:delay=0.002", games=30,
                  chunk=3, seed=11, fast=False)


def tournament_config() -> TournamentConfig:
    t = TOURNAMENT
    return TournamentConfig(t["game"], parse_agents(t["agents"]), games=t["games"],
                            chunk=t["chunk"], seed=t["seed"], fast=t["fast"])


def driver(code: str) -> list[str]:
    return [sys.executable, "-c", textwrap.dedent(code)]


def game_facts(db: ResultsDB, name: str) -> dict:
    """Everything about each stored game but its timings."""
    return {key: (r.players, r.moves, r.outcome, r.length, r.setup, r.seed)
            for key, r in db.get_run(name).games()}


def table_without_times(rows) -> list[dict]:
    return [{k: v for k, v in row.as_dict().items() if k != "avg_time"} for row in rows]


def test_a_killed_tournament_resumes_to_the_uninterrupted_table(tmp_path: Path, faults) -> None:
    path = tmp_path / "results.sqlite"
    code = f"""
        import sys; sys.path.insert(0, {HERE!r}); import toy_games
        from lifearena.arena.tournament import TournamentConfig, parse_agents, run_tournament
        t = {TOURNAMENT!r}
        config = TournamentConfig(t["game"], parse_agents(t["agents"]), games=t["games"],
                                  chunk=t["chunk"], seed=t["seed"], fast=t["fast"])
        run_tournament(config, db={str(path)!r}, workers=2)
    """
    faults.injected("sigkill", KILLS)
    done = run_with_kills(driver(code), db=path, count_sql="SELECT COUNT(*) FROM games",
                          kills=KILLS, seed=1, jitter=0.2)
    assert done.kills == KILLS and done.survived, done  # no worker outlived its parent
    assert done.workers_seen >= KILLS  # there were workers to outlive it

    config = tournament_config()
    assert integrity(path) == "ok"
    with ResultsDB(path) as db:
        run = db.get_run(f"tournament-{config.game}")
        assert run.status == "done"
        assert run.count_games() == config.total_games()  # none lost, none twice
        killed_games = game_facts(db, run.name)
        killed = report(run)
    with ResultsDB(":memory:") as db:
        calm = run_tournament(config, db=db, workers=1)
        calm_games = game_facts(db, run.name)
    assert killed_games == calm_games
    assert table_without_times(killed.table) == table_without_times(calm.table)
    assert killed.ranking == calm.ranking
    faults.survived("sigkill", KILLS)


LADDER = ["random", "first", "s=slow:delay=0.003", "ab=alphabeta:depth=2"]
LADDER_GAMES = 12


def test_a_killed_ladder_resumes_to_the_uninterrupted_ladder(tmp_path: Path, faults) -> None:
    path = tmp_path / "ladder.sqlite"
    code = f"""
        import sys; sys.path.insert(0, {HERE!r}); import toy_games
        from lifearena.arena import ladder as lad
        from lifearena.arena.storage import ResultsDB
        entrants = [lad.Entrant.parse(a) for a in {LADDER!r}]
        run = ResultsDB({str(path)!r}).open_run("ladder", "ladder", {{"entrants": {LADDER!r}}})
        lad.run_ladder("toy_nim", entrants, {LADDER_GAMES}, store=run, samples=50)
    """
    faults.injected("sigkill", KILLS)
    done = run_with_kills(driver(code), db=path, count_sql="SELECT COUNT(*) FROM games",
                          kills=KILLS, seed=2, jitter=0.1)
    assert done.kills == KILLS and done.survived

    entrants = [lad.Entrant.parse(a) for a in LADDER]
    assert integrity(path) == "ok"
    with ResultsDB(path) as db:
        run = db.get_run("ladder")
        assert run.status == "done"  # a finished ladder is not left 'running'
        total = len(lad.schedule("toy_nim", [e.label for e in entrants], LADDER_GAMES))
        assert run.count_games() == total
        resumed = lad.run_ladder("toy_nim", entrants, LADDER_GAMES, store=run, samples=50)
        killed_games = game_facts(db, "ladder")
    assert (resumed.new_games, resumed.stored_games) == (0, total)
    with ResultsDB(":memory:") as db:
        run = db.open_run("ladder", "ladder", {})
        calm = lad.run_ladder("toy_nim", entrants, LADDER_GAMES, store=run, samples=50)
        assert (calm.new_games, calm.stored_games) == (total, 0)
        calm_games = game_facts(db, "ladder")
    assert killed_games == calm_games
    assert resumed.rows() == calm.rows()
    faults.survived("sigkill", KILLS)


SWEEP = dict(rules=("p2life",), ps=(0.3, 0.5), sizes=((64, 64),), boundaries=("torus",),
             runs=40, max_generations=1500, master_seed=3)
RUN_DELAY = 0.02  # seconds added to each run of the killed sweep


def without_seconds(rows: list[RunRow]) -> list[tuple]:
    return [tuple(v for k, v in vars(r).items() if k != "seconds") for r in rows]


def test_a_killed_density_sweep_resumes_to_the_uninterrupted_runs(tmp_path: Path,
                                                                  faults) -> None:
    path = tmp_path / "density.sqlite"
    # each run also sleeps a moment, so that a machine with warm kernels does not finish the
    # whole sweep before the kills land (the forked workers inherit the slowed run_task)
    code = f"""
        import time
        from lifearena.studies import p2life_density as density
        fast_run = density.run_task
        def slow_run(task, colours=2):
            time.sleep({RUN_DELAY})
            return fast_run(task, colours)
        density.run_task = slow_run
        density.sweep(density.SweepSpec(**{SWEEP!r}), {str(path)!r}, workers=2, chunk_size=2)
    """
    faults.injected("sigkill", KILLS)
    done = run_with_kills(driver(code), db=path, count_sql="SELECT COUNT(*) FROM runs",
                          kills=KILLS, seed=3, jitter=0.05)
    assert done.kills == KILLS and done.survived

    spec = SweepSpec(**SWEEP)
    assert integrity(path) == "ok"
    with Store(path) as store:
        killed = store.rows(spec.points())
    assert len(killed) == len(spec.tasks())
    calm = sweep(spec, tmp_path / "calm.sqlite", workers=1)
    assert without_seconds(killed) == without_seconds(calm)
    faults.survived("sigkill", KILLS)


def test_integrity_check_sees_a_damaged_file(tmp_path: Path) -> None:
    """The check the tests above rely on can fail."""
    path = tmp_path / "x.sqlite"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE t (x TEXT)")
        conn.executemany("INSERT INTO t VALUES (?)", [("y" * 500,)] * 200)
        conn.execute("CREATE INDEX ix ON t (x)")
    data = bytearray(path.read_bytes())
    data[4096 * 3 + 200: 4096 * 3 + 600] = b"\xff" * 400  # scribble over a page
    path.write_bytes(bytes(data))
    try:
        result = integrity(path)
    except sqlite3.DatabaseError:
        result = "malformed"
    assert result != "ok"


def test_the_resume_line_counts_new_and_stored_games_apart(tmp_path: Path, capsys) -> None:
    from lifearena.cli import main

    argv = ["tournament", "toy_nim", "-n", "2", "-a", "random,first", "--workers", "1",
            "--db", str(tmp_path / "t.sqlite")]
    outputs = []
    for _ in range(2):
        with pytest.raises(SystemExit) as done:
            main(argv)
        assert done.value.code == 0
        outputs.append(" ".join(capsys.readouterr().out.split()))
    total = TournamentConfig("toy_nim", parse_agents("random,first"), games=2).total_games()
    assert f"{total} new games in" in outputs[0] and "already stored" not in outputs[0]
    assert "0 new games in" in outputs[1] and f"{total} already stored" in outputs[1]
    with ResultsDB(tmp_path / "t.sqlite") as db:
        assert db.get_run("tournament-toy_nim").status == "done"
