"""The SQLite results file: games stored as they finish, resume after an interruption without
replaying or losing games, clear errors for a mismatched configuration or a foreign file."""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest

from lifearena.arena.referee import play_game
from lifearena.arena.storage import GameKey, ResultsDB
from lifearena.arena.tournament import TournamentConfig, parse_agents, run_tournament
from lifearena.errors import BadParameterError
from toy_games import FirstAgent


class Stop(Exception):
    pass


def _config(games: int = 6) -> TournamentConfig:
    return TournamentConfig("toy_nim", parse_agents("random,first"), games=games, seed=3,
                            chunk=2)


def _untimed(table: list) -> list:
    return [replace(row, avg_time=0.0) for row in table]


def test_games_round_trip(tmp_path: Path) -> None:
    db = ResultsDB(tmp_path / "r.sqlite")
    run = db.open_run("t", "tournament", {"x": 1})
    result = play_game("toy_nim", [FirstAgent(), FirstAgent()], setup="5")
    assert run.add_games([(GameKey("first|first", 0, 0), result)]) == 1
    assert run.add_games([(GameKey("first|first", 0, 0), result)]) == 0  # stored once
    assert run.done_games() == {GameKey("first|first", 0, 0)}
    [(key, again)] = list(run.games())
    assert again == result and key.pairing == "first|first"
    summary = run.summaries()[0]
    assert summary["winner"] == 0 and summary["length"] == 5 and summary["termination"] == "win"
    db.close()
    # the file is in WAL mode and reopens with the same content
    with ResultsDB(tmp_path / "r.sqlite") as reopened:
        assert reopened.get_run("t").count_games() == 1
        assert [r.name for r in reopened.runs()] == ["t"]
        mode = reopened._conn.execute("PRAGMA journal_mode").fetchone()[0]
        assert mode == "wal"


def test_interrupted_tournament_resumes_without_replaying(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite"
    config = _config()
    whole = run_tournament(config)  # in memory, uninterrupted: the reference
    calls: list[int] = []

    def stop_after_three_blocks(new: int, total: int) -> None:
        calls.append(new)
        if len(calls) == 4:  # the first call reports the games already done
            raise Stop

    with pytest.raises(Stop):
        run_tournament(config, db=path, progress=stop_after_three_blocks)
    with ResultsDB(path) as db:
        run = db.get_run("tournament-toy_nim")
        assert run.count_games() == 6 and run.status == "interrupted"
        first_rows = {(s["pairing"], s["game_index"], s["seat"]): s for s in run.summaries()}

    played: list[int] = []
    resumed = run_tournament(config, db=path, progress=lambda new, total: played.append(new))
    assert played[0] == 6 and sum(played[1:]) == config.total_games() - 6
    assert resumed.games == config.total_games() == 24
    assert _untimed(resumed.table) == _untimed(whole.table)
    with ResultsDB(path) as db:
        run = db.get_run("tournament-toy_nim")
        assert run.status == "done"
        rows = {(s["pairing"], s["game_index"], s["seat"]): s for s in run.summaries()}
    for key, row in first_rows.items():  # the games stored before the stop were kept as is
        assert rows[key] == row
    again: list[int] = []
    run_tournament(config, db=path, progress=lambda new, total: again.append(new))
    assert again == [24]  # nothing left to play


def test_mismatched_configuration_is_refused_and_file_untouched(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite"
    run_tournament(_config(games=2), db=path)
    before = path.read_bytes()
    with pytest.raises(BadParameterError, match=r"games: 2 stored, 4 given"):
        run_tournament(_config(games=4), db=path)
    with ResultsDB(path) as db:
        assert db.get_run("tournament-toy_nim").count_games() == 8
    assert path.read_bytes() == before
    # a fresh start, or another run name, is allowed
    assert run_tournament(_config(games=4), db=path, name="bigger").games == 16
    assert run_tournament(_config(games=4), db=path, fresh=True).games == 16


def test_a_plan_is_stored_replaced_and_never_compared(tmp_path: Path) -> None:
    path = tmp_path / "l.sqlite"
    with ResultsDB(path) as db:
        # a run stored before plans were kept resumes with one
        db.open_run("ladder", "ladder", {"game": "losat"})
        run = db.open_run("ladder", "ladder", {"game": "losat"}, plan={"total": 12})
        assert run.config == {"game": "losat", "total": 12}
        # a bigger plan is the same run, and the stored plan is the latest
        db.open_run("ladder", "ladder", {"game": "losat"}, plan={"total": 18})
        assert db.get_run("ladder").config == {"game": "losat", "total": 18}
        # the config is still compared
        with pytest.raises(BadParameterError, match="game: \"losat\" stored, \"queen\""):
            db.open_run("ladder", "ladder", {"game": "queen"}, plan={"total": 18})
        with pytest.raises(BadParameterError, match="plan keys game are also in the config"):
            db.open_run("other", "ladder", {"game": "losat"}, plan={"game": "queen"})


def test_foreign_files_are_refused(tmp_path: Path) -> None:
    text = tmp_path / "notes.sqlite"
    text.write_text("hello, this is not a database at all" * 10)
    with pytest.raises(BadParameterError, match="not a usable results database"):
        ResultsDB(text)
    assert text.read_text().startswith("hello")
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE t (x)")
    with pytest.raises(BadParameterError, match="another program"):
        ResultsDB(other)
    with pytest.raises(BadParameterError, match="is a directory"):
        ResultsDB(tmp_path)


def test_generic_task_table(tmp_path: Path) -> None:
    with ResultsDB(tmp_path / "s.sqlite") as db:
        run = db.open_run("sweep", "density", {"sizes": [8, 16]})
        assert run.add_tasks([("8", [0.1, 0.2]), ("16", {"d": 0.3})]) == 2
        assert run.add_tasks([("8", "ignored")]) == 0
        assert run.done_tasks() == {"8", "16"}
        assert run.task_results() == {"16": {"d": 0.3}, "8": [0.1, 0.2]}
        with pytest.raises(BadParameterError, match="kind: density stored, tournament given"):
            db.open_run("sweep", "tournament", {"sizes": [8, 16]})
        with pytest.raises(BadParameterError, match="no run 'nope'"):
            db.get_run("nope")
