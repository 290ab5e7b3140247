"""``lifearena analyse RECORD``: the moves judged, the graph, the summaries, --json, standard
input, a progress bar for long records, and bad files refused in one line."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from lifearena.cli import main
from lifearena.cli.analyse import PROGRESS_FROM, eval_graph
from lifearena.core import Record

QUEEN = Record("blocking_queen", {"k": 1}, "2,2", ["ann", "bob"], ["1,1", "0,0"])


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exit_info:
        main(list(argv))
    out, err = capsys.readouterr()
    return int(exit_info.value.code or 0), out, err


def test_the_moves_marks_graph_and_summaries(capsys: pytest.CaptureFixture[str],
                                             tmp_path: Path) -> None:
    path = QUEEN.save(tmp_path / "game.txt")
    code, out, err = run_cli(capsys, "analyse", str(path))
    assert code == 0, err
    assert "1,1 ??" in out and "exact (palace numbers)" in out
    assert "first side" in out and "second side" in out
    assert "ann: 1 move, 0 inaccuracies, 0 mistakes, 1 blunders, average loss 2.000" in out


def test_json_from_standard_input(capsys: pytest.CaptureFixture[str],
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(QUEEN.to_json()))
    code, out, _ = run_cli(capsys, "analyse", "-", "--json")
    assert code == 0
    data = json.loads(out)
    assert [p["sides"][0]["symbol"] for p in data["plies"]] == ["??", ""]
    assert data["summary"][0]["blunders"] == 1


def test_a_long_record_shows_progress_on_stderr(capsys: pytest.CaptureFixture[str],
                                                tmp_path: Path) -> None:
    moves = []
    x = y = 40
    while x > 0 and len(moves) < PROGRESS_FROM + 2:  # the queen walks west one step a move
        x -= 1
        moves.append(f"{x},{y}")
    path = Record("blocking_queen", {"k": 1}, "40,40", ["a", "b"], moves).save(
        tmp_path / "long.json")
    code, out, err = run_cli(capsys, "analyse", str(path), "--json")
    assert code == 0 and "analysing" in err
    assert len(json.loads(out)["plies"]) == len(moves)


@pytest.mark.parametrize(("content", "said"), [
    ('{"game": ', "not valid JSON"),
    ("", "empty"),
    (Record("blocking_queen", {"k": 1}, "2,2", [], ["9,9"]).to_json(), "record move 1"),
    (Record("chess", {}, "x", [], []).to_json(), "no analysis of game 'chess'"),
])
def test_bad_records_are_one_line_and_exit_2(capsys: pytest.CaptureFixture[str],
                                             monkeypatch: pytest.MonkeyPatch,
                                             content: str, said: str) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(content))
    code, out, err = run_cli(capsys, "analyse", "-")
    assert code == 2 and out == ""
    assert said in err and err.count("\n") == 1


def test_a_missing_file_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(capsys, "analyse", "/nonexistent/game.json")
    assert code == 2 and err.count("\n") == 1


def test_the_graph_draws_each_sides_advantage_on_its_own_line() -> None:
    top, bottom = eval_graph([1.0, 0.0, -1.0])
    assert (top, bottom) == ("█▁ ", " ▁█")
    assert len(eval_graph([0.5] * 500, width=40)[0]) == 40
