"""``lifearena life-for-two play``: people, agents, classic mode, records and replay."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from classic_reference import reference_play
from lifearena.cli import app, main
from lifearena.cli.outcome_text import describe_outcome
from lifearena.core import Record, replay
from lifearena.games.life_for_two.classic import play_classic

ISSUE_INPUT = "1,1\n2,1\n1,2\n3,4\n4,4\n5,4\n3,2\n3,2\n"


def _invoke(args: list[str], text: str = "") -> str:
    result = CliRunner().invoke(app, ["life-for-two", "play", *args], input=text)
    assert result.exit_code == 0, (result.output, result.exception)
    return result.output


def test_classic_reads_stdin_and_prints_the_full_transcript() -> None:
    out = _invoke(["--classic"], ISSUE_INPUT)
    expected = io.StringIO()
    play_classic(io.StringIO(ISSUE_INPUT), expected, echo=True)
    assert out == expected.getvalue()
    first = io.StringIO()  # the program as first written, before it was a game state
    reference_play(io.StringIO(ISSUE_INPUT), first, echo=True)
    assert out == first.getvalue()
    assert out.endswith("? 3,2\nSAME COORD.  SET TO 0\n\n\n 0  1  2  3  4  5  0 \n"
                        " 1  *  *           1 \n 2  *  *           2 \n 3                 3 \n"
                        " 4                 4 \n 5                 5 \n 0  1  2  3  4  5  0 \n"
                        "PLAYER 1 IS THE WINNER\n")


def test_classic_answers_refused_lines_as_the_program_did() -> None:
    typed = "1,1\nthree\n1,1\n0,9\n2,1\n1,2\n3,4\n4,4\n5,4\n3,2\n1,1\n3,2\n"
    out = _invoke(["--classic"], typed)
    first = io.StringIO()
    reference_play(io.StringIO(typed), first, echo=True)
    assert out == first.getvalue()
    assert "? three\n?REDO FROM START\n? 1,1\nILLEGAL COORDS. RETYPE\nX,Y\n" in out


def test_two_people_hidden_input_bad_choices_asked_again(tmp_path: Path) -> None:
    record_path = tmp_path / "game.txt"
    out = _invoke(["--save", str(record_path)],
                  "1,1 2,1\n1,1 2,1 1,2\n9,9 3,5 1,5\n5,5 3,5 1,5\n")
    assert "refused: a move is 1 cell or 3 cells; got 2" in out
    assert "refused: cell 9,9 is off the board" in out
    assert "1,1 2,1 1,2" not in out.split("Turn 1")[0], "choices are not echoed"
    assert "Turn 1: * chose 1,1 2,1 1,2, # chose 1,5 3,5 5,5" in out
    assert out.rstrip().splitlines()[-2] == ("result: player * (human) wins: player # (human) "
                                             "has no pieces left")
    record = Record.load(record_path.read_text())
    assert record.moves == ["1,1 2,1 1,2 | 1,5 3,5 5,5"] and record.players == ["human"] * 2


@pytest.mark.parametrize(("text", "turns", "code"), [("", 0, 2), ("quit\n", 0, 0),
                                                    ("3,3\n", 1, 2)])
def test_end_of_input_or_quit_keeps_the_record(tmp_path: Path, text: str, turns: int,
                                               code: int, capsys, monkeypatch) -> None:
    # quitting abandons the game (status 0); the end of input is an error (status 2, one
    # line); both save the game so far. Two still-life blocks keep the game going
    path = tmp_path / "game.txt"
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    with pytest.raises(SystemExit) as exit_info:
        main(["life-for-two", "play", "--player2", "random", "--save", str(path), "--setup",
              "**.../**.../...../...##/...## 2"])
    out, err = capsys.readouterr()
    assert exit_info.value.code == code
    if code == 0:
        assert "game abandoned" in out and out.rstrip().splitlines()[-2] == "result: unfinished"
    else:
        assert "standard input ended" in err and err.count("\n") == 1
    record = Record.load(path.read_text())
    assert len(record.moves) == turns and replay(record).outcome() is None


def test_person_against_agent_occupied_cell_refused() -> None:
    # * holds a block; # has a blinker; the person (player 2) first types an occupied cell.
    out = _invoke(["--player1", "greedy", "--setup", "**.../**.../...#./...#./...#. 2",
                   "--max-turns", "2"], "1,1\n3,1\n5,1\n")
    assert "refused: cell 1,1 is occupied by *; choose an empty cell" in out
    assert "result:" in out


def test_refusals_are_on_standard_output_as_in_the_other_games(capsys, monkeypatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("9,9\n1,1\n"))
    with pytest.raises(SystemExit):
        main(["life-for-two", "play", "--player1", "greedy", "--max-turns", "1"])
    out, err = capsys.readouterr()
    assert "refused: cell 9,9 is off the board" in out and "refused" not in err


def test_two_agents_save_json_and_replay(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    out = _invoke(["--player1", "nash", "--player2", "random", "--seed", "3",
                   "--max-turns", "40", "--save", str(path)])
    assert "after the generation" in out and "result:" in out
    data = json.loads(path.read_text())
    assert data["players"] == ["nash", "random"] and data["params"]["max_turns"] == 40
    state = replay(Record.load(path.read_text()))
    shown = _invoke(["--replay", str(path)])
    assert shown.startswith("nash vs random\nstart:\n")
    assert shown.rstrip().endswith(
        f"result: {describe_outcome(state.outcome(), 'life_for_two', ['nash', 'random'])}")
    assert shown.count("\nTurn ") == len(data["moves"])


def test_bad_options_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    for args in (["--player1", "nobody", "--player2", "random"],
                 ["--limit-result", "coin"],
                 ["--max-turns", "-1"],
                 ["--setup", "xyz"]):
        with pytest.raises(SystemExit) as stop:
            main(["life-for-two", "play", *args])
        assert stop.value.code == 2
        err = capsys.readouterr().err
        assert err.startswith("error: ") and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(("options", "named"), [
    (["--player1", "random"], "--player1 random"),
    (["--player2", "nash", "--seed", "3"], "--player2 nash, --seed 3"),
    (["--max-turns", "5"], "--max-turns 5"),
    (["--setup", "...../...../...../...../..... 0"], "--setup"),
])
def test_classic_refuses_options_it_would_ignore(capsys, monkeypatch, tmp_path, options,
                                                 named) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", io.StringIO(ISSUE_INPUT))
    with pytest.raises(SystemExit) as exit_info:
        main(["life-for-two", "play", "--classic", *options])
    out, err = capsys.readouterr()
    assert exit_info.value.code == 2 and out == "" and err.count("\n") == 1
    assert "--classic runs the 1978 two-person program" in err and named in err
    assert list(tmp_path.iterdir()) == []


def test_classic_saves_a_record_that_replays(capsys, monkeypatch, tmp_path) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", io.StringIO(ISSUE_INPUT))
    with pytest.raises(SystemExit) as stop:
        main(["life-for-two", "play", "--classic", "--save", "game.json"])
    out, err = capsys.readouterr()
    assert stop.value.code == 0, err
    record = Record.read(tmp_path / "game.json")
    assert record.setup == "classic" and record.players == ["player 1", "player 2"]
    assert f"saved {len(record.moves)} moves to game.json" in err
    final = replay(record)
    assert final.is_terminal() and str(final) in out
