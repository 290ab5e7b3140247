"""``lifearena puzzles``: generate (from agent games and from a server's store), show and
check, and bad input refused in one line with exit status 2."""

from __future__ import annotations

import gzip
import json
from dataclasses import replace
from pathlib import Path

import pytest

from lifearena.cli import main
from lifearena.puzzles import load, war_of_life
from lifearena.puzzles.model import read, write


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exit_info:
        main(list(argv))
    out, err = capsys.readouterr()
    return int(exit_info.value.code or 0), out, err


@pytest.fixture(scope="module")
def few(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Six War of Life puzzles from the shipped ones, in a file of their own."""
    path = tmp_path_factory.mktemp("puzzles") / "few.jsonl.gz"
    write(load("war_of_life")[:6], path)
    return path


def test_generate_writes_the_puzzles_and_a_summary(tmp_path, capsys):
    out_file = tmp_path / "wol.jsonl.gz"
    code, out, _ = run_cli(capsys, "puzzles", "generate", "war-of-life", "--games", "40",
                           "--seed", "3", "--target", "7", "--out", str(out_file))
    assert code == 0
    puzzles = list(read(out_file))
    assert len(puzzles) == 7 and all(p.game == "war_of_life" for p in puzzles)
    assert "7 puzzles written" in out and "wipe-out-in-" in out and "positions/s" in out


def test_generate_mines_the_servers_finished_games(tmp_path, capsys):
    from lifearena.web.store import GameRow, Store

    records = list(war_of_life.agent_games(30, 5))
    database = tmp_path / "games.sqlite"
    store = Store(database)
    for i, record in enumerate(records):
        store.insert(GameRow(f"g{i}", "war_of_life", record.params, record.setup,
                             {"kind": "hotseat"}, ["t", "t"]))
        store.save_progress(f"g{i}", record.moves, {}, record.outcome)
    # a finished game whose moves no longer replay is passed over, not a failure
    store.insert(GameRow("bad", "war_of_life", {}, records[0].setup, {"kind": "hotseat"},
                         ["t", "t"]))
    store.save_progress("bad", ["[9,9,9,8]"], {}, records[0].outcome)
    store.close()
    out_file = tmp_path / "served.jsonl.gz"
    code, out, _ = run_cli(capsys, "puzzles", "generate", "war-of-life", "--games", "0",
                           "--db", str(database), "--out", str(out_file))
    assert code == 0 and "puzzles written" in out
    puzzles = list(read(out_file))
    assert puzzles and all(p.source.extra["server_game"].startswith("g") for p in puzzles)
    assert [p.source.moves for p in puzzles] == \
        [records[int(p.source.extra["server_game"][1:])].moves for p in puzzles]


def test_show_draws_the_position_and_on_request_the_solution(few, capsys):
    puzzle = list(read(few))[1]
    code, out, _ = run_cli(capsys, "puzzles", "show", "war-of-life", "2", "--file", str(few))
    assert code == 0
    assert puzzle.theme in out and "to move" in out and "1 2 3 4 5 6 7 8" in out
    assert puzzle.solutions[0] not in out
    code, out, _ = run_cli(capsys, "puzzles", "show", "war-of-life", "2", "--file", str(few),
                           "--solution")
    assert code == 0 and f"solution: {puzzle.solutions[0]}" in out


def test_check_passes_good_puzzles_and_names_a_wrong_one(few, tmp_path, capsys):
    code, out, _ = run_cli(capsys, "puzzles", "check", "war-of-life", "--file", str(few))
    assert code == 0 and "all 6 war_of_life puzzles verified" in out
    puzzles = list(read(few))
    bad = replace(puzzles[2], solutions=("[1,1,1,2]",))
    wrong_file = tmp_path / "wrong.jsonl.gz"
    write([*puzzles[:2], bad, *puzzles[3:]], wrong_file)
    code, out, _ = run_cli(capsys, "puzzles", "check", "war-of-life", "--file",
                           str(wrong_file))
    assert code == 1
    assert f"{bad.id}: the winning moves are" in out and "1 of 6" in out


@pytest.mark.parametrize("argv, expected", [
    (["generate", "chess"], "no puzzle miner for game 'chess'"),
    (["show", "checkers"], "no puzzle miner for game 'checkers'"),
    (["show", "war-of-life", "0"], "puzzle 0; expected 1..500"),
    (["show", "losat", "501"], "puzzle 501; expected 1..500"),
    (["check", "war-of-life", "--file", "missing.jsonl.gz"], "is not a file"),
    (["generate", "war-of-life", "--db", "missing.sqlite"], "--db 'missing.sqlite' is not a "
     "file"),
    (["generate", "war-of-life", "--db", "postgresql://nobody@127.0.0.1:1/games"],
     "cannot be read"),
    (["generate", "war-of-life", "--db", "README.md"], "is not a lifearena games database"),
    (["generate", "war-of-life", "--out", "no/such/folder/x.gz"], "expected a file path in "
     "an existing folder"),
    (["generate", "war-of-life", "--games", "-1"], "--games"),
    (["generate", "war-of-life", "--target", "0"], "--target"),
])
def test_bad_input_is_one_line_and_exit_2(argv, expected, capsys):
    code, out, err = run_cli(capsys, "puzzles", *argv)
    assert code == 2, (out, err)
    assert expected in err and len(err.strip().splitlines()) == 1, err


def test_a_file_that_is_not_puzzles_is_refused(tmp_path, capsys):
    text = tmp_path / "notes.jsonl.gz"
    text.write_text("hello")
    code, _, err = run_cli(capsys, "puzzles", "show", "war-of-life", "--file", str(text))
    assert code == 2 and "does not read as puzzles" in err
    other = tmp_path / "losat.jsonl.gz"
    write(load("losat")[:2], other)
    code, _, err = run_cli(capsys, "puzzles", "check", "war-of-life", "--file", str(other))
    assert code == 2 and "holds puzzles of another game" in err
    broken = tmp_path / "broken.jsonl.gz"
    with gzip.open(broken, "wt") as lines:
        lines.write(json.dumps({"id": "x"}) + "\n")
    code, _, err = run_cli(capsys, "puzzles", "show", "war-of-life", "--file", str(broken))
    assert code == 2 and "bad or missing field" in err and len(err.strip().splitlines()) == 1
