"""``lifearena losat play``: agent games, person input (refusals, moves, hints), save/replay."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from lifearena.cli import main
from lifearena.cli.losat import app
from lifearena.core import Record

runner = CliRunner()


def test_agent_vs_agent_saves_a_record_that_replays(tmp_path):
    path = tmp_path / "game.json"
    result = runner.invoke(app, ["play", "--black", "greedy", "--white", "random",
                                 "--max-moves", "12", "--quiet", "--save", str(path)])
    assert result.exit_code == 0, result.output
    assert "result: draw: the move limit was reached (12 moves played)" in result.output
    record = Record.load(path.read_text())
    assert record.players == ["greedy", "random"] and len(record.moves) == 12
    shown = runner.invoke(app, ["play", "--replay", str(path)])
    assert shown.exit_code == 0, shown.output
    assert f"12. {record.moves[-1]}" in shown.output
    assert "greedy vs random: draw: the move limit was reached" in shown.output


def test_person_input_is_checked_and_asked_again(tmp_path):
    path = tmp_path / "game.txt"
    keys = "zz\n+bI4\n-A1\nmoves\nhint\nboard\n-K6\n-L14\nquit\n"
    result = runner.invoke(app, ["play", "--save", str(path)], input=keys)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "refused: bad Losat move 'zz'" in out
    assert "skip the letter I" in out
    assert "refused: -A1: A1 is empty" in out
    assert "add      +bH7 +bM7 +bK5 +wL15 +wJ13 +wN13" in out
    assert "hint: " in out
    assert "1. b -K6" in out and "2. w -L14" in out
    assert "game abandoned" in out
    assert Record.load(path.read_text()).moves == ["-K6", "-L14"]


def test_setup_and_variant_options():
    result = runner.invoke(app, ["play", "--setup", "5/1bbb1/5/5/5/5/5 b", "--gap", "0",
                                 "--width", "5", "--length", "7"], input="+bC7\n")
    assert result.exit_code == 0, result.output
    assert "result: black (human) wins: a stone reached the goal line" in result.output


def test_setup_gives_the_board_size_without_width_and_length():
    # a 5x9 position used to be refused as 'width=19' although no --width was given
    result = runner.invoke(app, ["play", "--setup", "5/5/5/5/5/5/5/5/5 b", "--black", "random",
                                 "--white", "random", "--quiet"])
    assert result.exit_code == 0, result.output
    assert "   A B C D E\n" in result.output
    assert "result: draw: two passes in a row" in result.output


@pytest.mark.parametrize(("args", "message"), [
    (["--width", "30"], "--width 30: expected a whole number from"),
    (["--neighbours", "6"], "neighbours=6"),
    (["--black", "nobody"], "unknown agent 'nobody'"),
    (["--limit", "speed=3"], "bad limit"),
    (["--setup", "5/5/x"], "bad character 'x'"),
    (["--setup", "99999999999999/19/19"], "more than 25 points wide"),
    (["--width", "0"], "--width 0: expected a whole number from"),
    (["--black", "random", "--white", "random", "--setup",
      "19/19/19/19/19/9www7/9w1w7/9w1w7/19/19/19/8b1b8/8b1b8/8bbb8/19/19/19/19/19 b 9-0 0"],
     "b already has 9 captures and captures_to_win=5"),
])
def test_bad_options_exit_2_with_one_line(args, message, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["losat", "play", *args])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_replay_of_a_corrupt_record(tmp_path, capsys):
    path = tmp_path / "bad.txt"
    record = Record("losat", {}, "19/19/19/19/19/9www7/9w1w7/9w1w7/19/19/19/8b1b8/8b1b8/8bbb8/"
                    "19/19/19/19/19 b 0-0 0", ["a", "b"], ["-K6", "-K6"])
    path.write_text(record.to_text())
    with pytest.raises(SystemExit) as exit_info:
        main(["losat", "play", "--replay", str(path)])
    assert exit_info.value.code == 2
    assert "move 2 '-K6'" in capsys.readouterr().err


def test_board_row_numbers_and_goal_markers_line_up():
    result = runner.invoke(app, ["play", "--black", "random", "--white", "random",
                                 "--max-moves", "4"])
    assert result.exit_code == 0, result.output
    rows = [line for line in result.output.splitlines()
            if line[:2].strip().isdigit() and "captures" not in line]
    assert len(rows) == 5 * 19  # the start and the board after each of the 4 moves
    ends = {len(line.split("<-")[0].rstrip()) for line in rows}
    assert ends == {2 + 2 * 19 + 1 + 2}  # every right-hand number ends in the same column
    markers = {line.index("<-") for line in rows if "<-" in line}
    assert len(markers) == 1  # ... and both goal markers start in the same column
    assert any(line.startswith(" 6 ") and line.endswith("  6   <- w goal") for line in rows)
    assert any(line.endswith(" 14   <- b goal") for line in rows)
