"""``lifearena war-of-life``: playing with typed moves, records, replay, test-strategy."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from lifearena.cli import main
from lifearena.cli import war_of_life as wol_cli
from lifearena.core import Record


def run_cli(capsys, monkeypatch, *argv: str, stdin: str = "") -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    with pytest.raises(SystemExit) as exit_info:
        main(list(argv))
    out, err = capsys.readouterr()
    return exit_info.value.code, out, err


def test_two_people_with_bad_input_refused_then_saved_and_replayed(tmp_path, capsys,
                                                                    monkeypatch):
    save = tmp_path / "game.txt"
    typed = "\n".join(["hello", "[1,8,1,6]", "[3,3,3,4]", "[6,5,6,4]", "help", "moves",
                       "1,8,1,7"]) + "\n"
    code, out, _ = run_cli(capsys, monkeypatch, "war-of-life", "play", "--position",
                           "[[[1,8],[4,4],[4,6]],[[6,5]]]", "--save", str(save), stdin=typed)
    assert code == 0
    assert "refused: bad move 'hello'" in out
    assert "refused: move [1,8,1,6] does not go to a neighbouring cell" in out
    assert "refused: [3,3,3,4]: 3,3 is empty" in out
    assert "refused: [6,5,6,4]: 6,5 is a red piece" in out
    assert "[1,8,1,7]" in out and "born: b[5,5]" in out
    assert "5 | . . . . B . . . |" in out and "4 | . . . x . x . . |" in out
    assert "result: blue (human) wins: red (human) has no pieces left after 1 moves" in out
    record = Record.from_text(save.read_text())
    assert record.players == ["human", "human"] and record.result.startswith("b wins")


def test_person_against_a_strategy_until_end_of_input(capsys, monkeypatch):
    # the end of input is an error (exit 2, one line), not a quietly abandoned game
    code, out, err = run_cli(capsys, monkeypatch, "war-of-life", "play", "--red", "minimax",
                             "--seed", "5", "--layout", "both", stdin="hint\n")
    assert code == 2 and err.count("\n") == 1 and "standard input ended" in err
    assert "minimax suggests [" in out and "game abandoned" not in out
    assert "  12345678" in out and " +--------+" in out  # the coursework layout


def test_two_strategies_save_json_and_replay(tmp_path, capsys, monkeypatch):
    save = tmp_path / "game.json"
    code, out, _ = run_cli(capsys, monkeypatch, "war-of-life", "play", "--blue", "land_grab",
                           "--red", "bloodlust", "--seed", "2", "--quiet", "--save", str(save))
    assert code == 0 and "result: " in out
    result = out.split("result: ")[1].splitlines()[0]
    code, again, _ = run_cli(capsys, monkeypatch, "war-of-life", "replay", str(save),
                             "--quiet")
    assert code == 0 and again.split("result: ")[1].splitlines()[0] == result
    code, again, _ = run_cli(capsys, monkeypatch, "war-of-life", "play", "--replay", str(save),
                             "--layout", "coursework")
    assert code == 0 and "move 1:" in again


@pytest.mark.parametrize(("argv", "message"), [
    (["play", "--blue", "genius"], "unknown player 'genius'"),
    (["play", "--position", "[[[1,9]],[]]"], "off the board"),
    (["play", "--layout", "fancy"], "--layout 'fancy'"),
    (["play", "--to-move", "r"], "--to-move needs --position"),
    (["test-strategy", "-n", "0", "random", "random"], "--games 0: expected a whole number "),
    (["test-strategy", "random", "human"], "unknown player 'human'"),
    (["test-strategy", "-n", "10000000000000", "random", "random"],
     "--games 10000000000000: expected a whole number from 1 to 1,000,000"),
])
def test_bad_options_are_one_line_errors(capsys, monkeypatch, argv, message):
    code, _, err = run_cli(capsys, monkeypatch, "war-of-life", *argv)
    assert code == 2 and message in err and err.count("\n") == 1


def test_replay_of_a_broken_record(tmp_path, capsys, monkeypatch):
    path = tmp_path / "bad.txt"
    path.write_text('[Game "war_of_life"]\n[Setup "[[[1,1]],[[8,8]]]"]\n\n1. [1,1,3,3]\n')
    code, _, err = run_cli(capsys, monkeypatch, "war-of-life", "replay", str(path))
    assert code == 2 and "move 1 '[1,1,3,3]'" in err


def test_test_strategy_prints_the_coursework_figures(capsys, monkeypatch):
    code, out, _ = run_cli(capsys, monkeypatch, "war-of-life", "test-strategy", "-n", "200",
                           "random", "random")
    assert code == 0
    for line in ("draws", "wins for player 1 (b, random)", "wins for player 2 (r, random)",
                 "longest (non-exhaustive) game:", "shortest game:",
                 "average game length (including exhaustives):", "average game time:",
                 "95% Wilson interval"):
        assert line in out
    code, slow, _ = run_cli(capsys, monkeypatch, "war-of-life", "test-strategy", "-n", "20",
                            "land_grab", "random", "--protocol")
    code2, fast, _ = run_cli(capsys, monkeypatch, "war-of-life", "test-strategy", "-n", "20",
                             "land_grab", "random")
    assert code == code2 == 0
    # the same games either way: the same table and lengths
    assert slow.split("average game time")[0] == fast.split("average game time")[0]


def test_test_strategy_counts_games_on_a_progress_bar_in_chunks(monkeypatch):
    monkeypatch.setattr(wol_cli, "CHUNK", 7)
    batches: list[int] = []
    play = wol_cli.FastPlayer.play

    def spy(self, setups):
        batches.append(len(setups))
        return play(self, setups)

    monkeypatch.setattr(wol_cli.FastPlayer, "play", spy)
    screen = io.StringIO()
    console = Console(file=screen, force_terminal=True, color_system=None, width=120)
    chunked = wol_cli.run_games("random", "land_grab", 30, 4, progress=True, console=console)
    assert batches == [7, 7, 7, 7, 2]
    assert "30/30 games" in screen.getvalue()  # the last, short chunk is counted too
    # chunks of 7 games play exactly the games of one batch
    whole = wol_cli.run_games("random", "land_grab", 30, 4)
    assert [(n, o) for n, o, _ in chunked] == [(n, o) for n, o, _ in whole]


def test_quiet_play_prints_each_move_line_once(capsys, monkeypatch):
    code, out, _ = run_cli(capsys, monkeypatch, "war-of-life", "play", "--blue", "land_grab",
                           "--red", "bloodlust", "--seed", "2", "--quiet")
    assert code == 0
    moves = [line for line in out.splitlines() if " played [" in line]
    assert len(moves) == int(out.split(" after ")[-1].split()[0])  # one line per move
    assert len(moves) == len(set(moves)) and out.count(moves[-1]) == 1
    assert out.index(moves[-1]) < out.index("  +-----------------+")  # then the board
