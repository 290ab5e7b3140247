"""End to end on War of Life: ``lifearena tournament war-of-life`` with a temporary database,
resume, exports, and the compiled fast path giving the referee's games exactly."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from lifearena.arena.storage import ResultsDB
from lifearena.arena.tournament import TournamentConfig, parse_agents, run_tournament
from lifearena.cli import main
from lifearena.core import replay


def _cli(args: list[str]) -> int:
    with pytest.raises(SystemExit) as exit_info:
        main(args)
    return exit_info.value.code


def test_cli_tournament_with_db_resume_and_exports(tmp_path: Path, capsys) -> None:
    db = tmp_path / "wol.sqlite"
    md, js = tmp_path / "t.md", tmp_path / "t.json"
    args = ["tournament", "war-of-life", "--games", "4", "--db", str(db), "--workers", "1",
            "--seed", "5"]
    assert _cli([*args, "--export", str(md), "--export", str(js)]) == 0
    out = capsys.readouterr().out
    assert "minimax" in out and "First-player advantage" in out and "100 games" in out
    data = json.loads(js.read_text())
    assert len(data["table"]) == 25 and sum(r["games"] for r in data["table"]) == 100
    assert [a["label"] for a in data["config"]["agents"]] == [
        "random", "bloodlust", "self_preservation", "land_grab", "minimax"]
    assert md.read_text().count("\n| minimax | ") == 5 + 1  # 5 table rows, 1 first-player row
    with ResultsDB(db) as results:
        run = results.get_run("tournament-war_of_life")
        assert run.count_games() == 100 and run.status == "done"
        _, game = next(run.games())
        final = replay(game.record)  # every stored record replays to its result
        assert final.is_terminal() and final.outcome().winner == game.winner
    # the same command again resumes: nothing is played, the same table comes out
    assert _cli(args) == 0
    assert "100 games" in capsys.readouterr().out
    # another configuration on the same file is refused with one line, exit 2
    assert _cli([*args[:3], "8", *args[4:]]) == 2
    assert "games: 4 stored, 8 given" in capsys.readouterr().err


def test_cli_bad_options(tmp_path: Path, capsys) -> None:
    assert _cli(["tournament", "war-of-life", "--agents", "random,nobody", "-n", "1",
                 "-w", "1"]) == 2
    assert "unknown agent 'nobody'" in capsys.readouterr().err
    assert _cli(["tournament", "war-of-life", "-n", "1", "--export", "t.xlsx"]) == 2
    assert "expected a name ending in .md or .markdown or .csv or .json" in capsys.readouterr().err
    assert _cli(["tournament", "no-such-game", "-n", "1"]) == 2
    assert _cli(["tournament", "war-of-life", "-n", "1", "-p", "size=9"]) == 2
    assert "unknown war_of_life parameter(s) size" in capsys.readouterr().err


def test_fast_path_equals_referee() -> None:
    config = TournamentConfig("war_of_life", parse_agents("random,bloodlust,minimax"),
                              games=6, seed=11, chunk=3)
    fast = run_tournament(config)
    slow = run_tournament(replace(config, fast=False))
    with ResultsDB(":memory:") as db:
        run_tournament(config, db=db)
        assert all(g.extra.get("fast_path") for _, g in db.get_run(
            "tournament-war_of_life").games())
    untimed = [replace(r, avg_time=0.0) for r in fast.table]
    assert untimed == [replace(r, avg_time=0.0) for r in slow.table]
