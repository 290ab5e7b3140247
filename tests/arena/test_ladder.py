"""The ladder: schedule, resume, ratings from played games, chart, the CLI command."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from lifearena.arena import ladder as lad
from lifearena.arena.executor import Executor
from lifearena.cli import main
from lifearena.errors import BadParameterError

ROOT = Path(__file__).resolve().parents[2]


def test_schedule_pairs_every_start_with_both_seatings() -> None:
    specs = lad.schedule("war_of_life", ["a", "b", "c"], games=2)
    assert len(specs) == 3 * 2 * 2
    keys = {s.key for s in specs}
    assert len(keys) == len(specs)
    for s in specs:
        assert f"war_of_life|{s.second}|{s.first}|{s.seed}" in keys


def test_entrant_parsing() -> None:
    e = lad.Entrant.parse("mcts:simulations=50,c=0.7")
    assert e.label == "mcts-s50-c0.7" and e.limit.simulations == 50 and e.options == {"c": 0.7}
    assert lad.Entrant.parse("land_grab").label == "land_grab"
    with pytest.raises(BadParameterError):
        lad.Entrant.parse("alphabeta:depth=1,c")
    # a segment without '=' belongs to the name: module:callable (lifearena.interop.agents)
    assert lad.Entrant.parse("alphabeta:depth").agent == "alphabeta:depth"
    with pytest.raises(BadParameterError):
        lad.Entrant.parse("x=")


def test_ladder_plays_rates_and_resumes(tmp_path: Path) -> None:
    entrants = [lad.Entrant("random", "random"), lad.Entrant("land_grab", "land_grab"),
                lad.Entrant.parse("ab=alphabeta:depth=1")]
    stored: dict = {}
    ladder = lad.run_ladder("war_of_life", entrants, 3, on_result=stored.__setitem__, max_moves=40,
                            samples=20)
    assert len(stored) == len(ladder.matches) == 18
    elo = ladder.ratings.elo
    assert elo["random"] == 0.0
    assert elo["ab"] > 0 and elo["land_grab"] > 0
    assert ladder.rows()[-1]["agent"] == "random"
    replayed = []
    again = lad.run_ladder("war_of_life", entrants, 3, done=stored, max_moves=40,
                           on_result=lambda k, r: replayed.append(k), samples=20)
    assert replayed == []  # every game came from the store
    assert again.ratings.elo == ladder.ratings.elo
    bigger = lad.run_ladder("war_of_life", entrants, 4, done=stored, max_moves=40,
                            on_result=lambda k, r: replayed.append(k), samples=20)
    assert len(replayed) == 6 and len(bigger.matches) == 24
    path = tmp_path / "ladder.png"
    lad.chart(ladder, str(path))
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_ladder_over_processes_matches_serial() -> None:
    entrants = [lad.Entrant("random", "random"), lad.Entrant("bloodlust", "bloodlust")]
    serial = lad.run_ladder("war_of_life", entrants, 2, samples=10)
    with Executor(workers=2) as executor:
        parallel = lad.run_ladder("war_of_life", entrants, 2, executor=executor, samples=10)
    assert serial.matches == parallel.matches


def test_bot_entrant_and_forfeits(tmp_path: Path) -> None:
    crash = tmp_path / "crash.py"
    crash.write_text("import sys\nsys.stdin.readline()\nsys.stdin.readline()\nsys.exit(1)\n")
    entrants = [lad.Entrant("random", "random"),
                lad.Entrant.bot("example", [sys.executable, str(ROOT / "examples/random_bot.py")],
                                per_move=5.0),
                lad.Entrant.bot("crasher", [sys.executable, str(crash)], per_move=5.0)]
    ladder = lad.run_ladder("war_of_life", entrants, 1, samples=10)
    assert ladder.forfeits.get("crasher") == 4
    assert "example" not in ladder.forfeits
    assert ladder.ratings.elo["crasher"] < ladder.ratings.elo["example"]


def test_cli_ladder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    png = tmp_path / "l.png"
    with pytest.raises(SystemExit) as exit_info:
        main(["ladder", "war-of-life", "-n", "2", "-a", "land_grab", "-a", "ab=alphabeta:depth=1",
              "--bot", f"rb={sys.executable} {ROOT / 'examples/random_bot.py'}",
              "--time", "5", "--chart", str(png), "--bootstrap", "10"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    assert "ladder" in out and "first player scores" in out and "rb" in out
    assert png.exists()
    with pytest.raises(SystemExit) as exit_info:
        main(["ladder", "war-of-life", "-n", "0"])
    assert exit_info.value.code == 2
    assert "--games 0: expected a whole number from 1" in capsys.readouterr().err


def test_cli_ladder_stores_and_resumes(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                       ) -> None:
    from lifearena.arena.storage import ResultsDB

    db = tmp_path / "ladder.db"
    args = ["ladder", "war-of-life", "-a", "land_grab", "-a", "bloodlust", "--db", str(db),
            "--bootstrap", "5"]
    with pytest.raises(SystemExit) as exit_info:
        main([*args, "-n", "2"])
    assert exit_info.value.code == 0
    run = ResultsDB(db).get_run("ladder-war_of_life")
    assert run.count_games() == 3 * 2 * 2
    # the plan is stored beside the config, for readers that show games done / total
    assert (run.config["games"], run.config["total"]) == (2, 3 * 2 * 2)
    with pytest.raises(SystemExit) as exit_info:
        main([*args, "-n", "3"])  # resumes: only the new starts are played
    assert exit_info.value.code == 0
    run = ResultsDB(db).get_run("ladder-war_of_life")
    assert run.count_games() == 3 * 3 * 2
    assert (run.config["games"], run.config["total"]) == (3, 3 * 3 * 2)
    capsys.readouterr()
