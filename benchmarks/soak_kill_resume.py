"""Soak: SIGKILL real runs many times at random moments and check they lose nothing.

The long variant of ``tests/arena/test_kill_resume.py``. Each scenario runs the real
``lifearena`` command line (a War of Life tournament over two worker processes, a p2life
density sweep) or, for the ladder, a small ``python -c`` driver, kills it ``--kills`` times
in the middle of its work (each kill after new results were stored, plus a random moment),
resumes it, and then checks:

* the results file passes ``PRAGMA integrity_check``;
* it holds every game/run exactly once, and the same ones (moves, outcomes) as an
  uninterrupted run with the same seed;
* no worker process outlived the parent it lost.

It prints one line per scenario and a last line ``faults: N injected, N survived``; the exit
status is 1 if any fault was not survived. A run that finishes before all its kills were
made reports the kills it got. Bounded: ``--kills`` per scenario (default 10) and
``--timeout`` seconds per scenario (default 300).

    .venv/bin/python benchmarks/soak_kill_resume.py
    .venv/bin/python benchmarks/soak_kill_resume.py --kills 25 --seed 7
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import textwrap
import time
from collections.abc import Callable
from pathlib import Path

from lifearena.arena import ladder as lad
from lifearena.arena.storage import ResultsDB
from lifearena.arena.tournament import TournamentConfig, parse_agents, run_tournament
from lifearena.killtest import integrity, run_with_kills
from lifearena.studies.p2life_density import Store, SweepSpec, sweep

LIFEARENA = [sys.executable, "-m", "lifearena"]


def games_of(db: ResultsDB, name: str) -> dict:
    return {k: (r.players, r.moves, r.outcome, r.length) for k, r in db.get_run(name).games()}


def tournament(folder: Path, kills: int, seed: int, timeout: float) -> tuple[int, list[str]]:
    agents, games = "random,bloodlust,land_grab,self_preservation", 30
    path = folder / "tournament.sqlite"
    argv = [*LIFEARENA, "tournament", "war-of-life", "--agents", agents, "-n", str(games),
            "--chunk", "2", "--no-fast", "--workers", "2", "--seed", str(seed), "--db", str(path)]
    report = run_with_kills(argv, db=path, count_sql="SELECT COUNT(*) FROM games", kills=kills,
                            seed=seed, jitter=0.5, timeout=timeout)
    config = TournamentConfig("war_of_life", parse_agents(agents), games=games, chunk=2,
                              seed=seed, fast=False)
    problems = [] if report.survived else [f"workers left alive: {report.leftover}"]
    if (check := integrity(path)) != "ok":
        problems.append(f"integrity_check: {check}")
    with ResultsDB(path) as db, ResultsDB(":memory:") as calm_db:
        run_tournament(config, db=calm_db)
        name = f"tournament-{config.game}"
        if db.get_run(name).count_games() != config.total_games():
            problems.append("games lost or doubled")
        if games_of(db, name) != games_of(calm_db, name):
            problems.append("stored games differ from an uninterrupted run")
    return report.kills, problems


def ladder(folder: Path, kills: int, seed: int, timeout: float) -> tuple[int, list[str]]:
    entrants_text = ["random", "bloodlust", "greedy=land_grab", "ab=alphabeta:depth=1"]
    games = 12
    path = folder / "ladder.sqlite"
    code = textwrap.dedent(f"""
        from lifearena.arena import ladder as lad
        from lifearena.arena.executor import Executor
        from lifearena.arena.storage import ResultsDB
        entrants = [lad.Entrant.parse(a) for a in {entrants_text!r}]
        run = ResultsDB({str(path)!r}).open_run("ladder", "ladder", {{}})
        with Executor(2) as ex:
            lad.run_ladder("war_of_life", entrants, {games}, store=run, executor=ex)
    """)
    report = run_with_kills([sys.executable, "-c", code], db=path,
                            count_sql="SELECT COUNT(*) FROM games", kills=kills, seed=seed,
                            jitter=0.3, timeout=timeout)
    entrants = [lad.Entrant.parse(a) for a in entrants_text]
    problems = [] if report.survived else [f"workers left alive: {report.leftover}"]
    if (check := integrity(path)) != "ok":
        problems.append(f"integrity_check: {check}")
    with ResultsDB(path) as db, ResultsDB(":memory:") as calm_db:
        if db.get_run("ladder").status != "done":
            problems.append("finished ladder not marked done")
        resumed = lad.run_ladder("war_of_life", entrants, games, store=db.get_run("ladder"))
        calm = lad.run_ladder("war_of_life", entrants, games,
                              store=calm_db.open_run("ladder", "ladder", {}))
        if resumed.new_games or resumed.rows() != calm.rows():
            problems.append("ladder differs from an uninterrupted run")
        if games_of(db, "ladder") != games_of(calm_db, "ladder"):
            problems.append("stored games differ from an uninterrupted run")
    return report.kills, problems


def density(folder: Path, kills: int, seed: int, timeout: float) -> tuple[int, list[str]]:
    path = folder / "density.sqlite"
    argv = [*LIFEARENA, "p2life", "density", "--p", "0.3,0.5", "--size", "48",
            "--runs", "200", "--seed", str(seed), "--max-generations", "1500",
            "--results", str(path), "--workers", "2", "--chunk", "2"]
    report = run_with_kills(argv, db=path, count_sql="SELECT COUNT(*) FROM runs", kills=kills,
                            seed=seed, jitter=0.2, timeout=timeout)
    spec = SweepSpec(ps=(0.3, 0.5), sizes=((48, 48),), runs=200, master_seed=seed,
                     max_generations=1500)
    problems = [] if report.survived else [f"workers left alive: {report.leftover}"]
    if (check := integrity(path)) != "ok":
        problems.append(f"integrity_check: {check}")
    with Store(path) as store:
        killed = store.rows(spec.points())
    calm = sweep(spec, folder / "calm.sqlite", workers=2)

    def strip(rows: list) -> list:
        return [tuple(v for k, v in vars(r).items() if k != "seconds") for r in rows]

    if strip(killed) != strip(calm):
        problems.append("runs differ from an uninterrupted sweep")
    return report.kills, problems


SCENARIOS: dict[str, Callable[[Path, int, int, float], tuple[int, list[str]]]] = {
    "tournament (CLI)": tournament, "ladder": ladder, "p2life density (CLI)": density}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=10, help="SIGKILLs per scenario")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds per scenario")
    parser.add_argument("--only", choices=[n.split()[0] for n in SCENARIOS],
                        help="run one scenario")
    args = parser.parse_args()
    injected = survived = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name, scenario in SCENARIOS.items():
            if args.only and name.split()[0] != args.only:
                continue
            folder = Path(tmp) / name.split()[0]
            folder.mkdir()
            started = time.perf_counter()
            kills, problems = scenario(folder, args.kills, args.seed, args.timeout)
            injected += kills
            survived += 0 if problems else kills
            verdict = "survived" if not problems else "FAILED: " + "; ".join(problems)
            print(f"{name}: {kills} SIGKILLs, {verdict} "
                  f"({time.perf_counter() - started:.1f} s)", flush=True)
    print(f"faults: {injected} injected, {survived} survived")
    return 0 if survived == injected else 1


if __name__ == "__main__":
    sys.exit(main())
