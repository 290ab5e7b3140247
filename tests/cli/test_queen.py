"""``lifearena queen``: pictures and P-position lists from the command line."""

from __future__ import annotations

import pytest

from lifearena.cli import main


def run(capsys, *argv: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exit_info:
        main(list(argv))
    captured = capsys.readouterr()
    return exit_info.value.code, captured.out, captured.err


def test_positions_plain_lists_larsson_k3(capsys) -> None:
    code, out, _ = run(capsys, "queen", "positions", "-k", "3", "--max", "9", "--plain")
    assert code == 0
    assert out.split() == ["0,0", "0,1", "0,2", "1,3", "1,4", "2,5", "2,6", "3,7", "3,8"]


def test_positions_table(capsys) -> None:
    code, out, _ = run(capsys, "queen", "positions", "-k", "1", "--max", "11")
    assert code == 0
    assert "6" in out and "10" in out and "P-positions" in out


def test_picture_writes_png(tmp_path, capsys) -> None:
    target = tmp_path / "palace.png"
    code, out, _ = run(capsys, "queen", "picture", "-k", "50", "--size", "300", "--pixels",
                       "100", "--downsample", "mode", "--out", str(target))
    assert code == 0 and target.stat().st_size > 1000
    assert "block 3" in out


def test_picture_window(tmp_path, capsys) -> None:
    target = tmp_path / "zoom.png"
    code, out, _ = run(capsys, "queen", "picture", "-k", "50", "--window", "20,30,40,10",
                       "--no-colorbar", "--out", str(target))
    assert code == 0 and "40x10 pixels" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["queen", "picture", "-k", "0"], "-k 0: expected a whole number from 1"),
        (["queen", "picture", "--window", "1,2"], "'1,2'"),
        (["queen", "picture", "--size", "0"], "--size 0: expected"),
        (["queen", "positions", "--max", "-3"], "--max -3: expected"),
    ],
)
def test_bad_options_give_one_line_and_exit_2(capsys, tmp_path, argv, message) -> None:
    code, _, err = run(capsys, *argv, *(["--out", str(tmp_path / "x.png")]
                                        if argv[1] == "picture" else []))
    assert code == 2
    assert message in err and err.count("\n") == 1


def test_play_between_agents(capsys) -> None:
    code, out, _ = run(capsys, "queen", "play", "-k", "3", "--from", "20,33", "--first",
                       "perfect", "--second", "greedy", "--hints")
    assert code == 0
    assert "player 1 (perfect): 20,9  (n = 2, a palace)" in out
    assert "player 1 (perfect) wins: player 2 (greedy) cannot move" in out


def test_play_as_a_person(capsys, monkeypatch) -> None:
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("9,9\n?\n20,9\n#4,9\n#19,9\n"))
    code, out, err = run(capsys, "queen", "play", "-k", "3", "--from", "20,33",
                         "--second", "perfect")
    assert "moves only west, north or north-west" in out      # 9,9 explained, asked again
    assert "legal: " in out and "player 1 (you): #19,9" in out
    # input ran out: one line on stderr and status 2, as in every play command
    assert code == 2 and "standard input ended" in err and err.count("\n") == 1


def test_play_quit(capsys, monkeypatch) -> None:
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    code, out, _ = run(capsys, "queen", "play", "--first", "human", "--second", "perfect")
    assert code == 0 and "game abandoned" in out and "moves: \n" in out + "\n"


def test_positions_max_too_large_is_refused_without_computing(capsys) -> None:
    # --max 10**11 used to allocate a 10**11-square table (MemoryError traceback)
    code, _, err = run(capsys, "queen", "positions", "--max", str(10**11))
    assert code == 2 and "--max 100000000000: expected a whole number from" in err


def test_picture_refuses_an_unknown_file_type_before_computing(capsys, tmp_path) -> None:
    code, _, err = run(capsys, "queen", "picture", "-k", "3", "--size", "20",
                       "-o", str(tmp_path / "p.txt"))
    assert code == 2 and "wrong file type" in err and ".png" in err
    assert err.count("\n") == 1 and not (tmp_path / "p.txt").exists()


def test_play_rejects_a_bad_start(capsys) -> None:
    code, _, err = run(capsys, "queen", "play", "--from", "300,3", "--first", "random")
    assert code == 2 and "off the board" in err


@pytest.mark.parametrize("name", ["game.txt", "game.json"])
def test_play_save_then_replay_move_by_move(capsys, tmp_path, name) -> None:
    save = tmp_path / name
    code, out, _ = run(capsys, "queen", "play", "-k", "3", "--from", "20,33", "--first",
                       "perfect", "--second", "greedy", "--save", str(save))
    assert code == 0 and f"saved 9 moves to {save}" in out
    code, shown, _ = run(capsys, "queen", "play", "--replay", str(save), "--hints")
    assert code == 0
    lines = shown.splitlines()
    assert lines[0] == ("blocking queen game, k = 3, queen on 20,33: player 1 = perfect, "
                        "player 2 = greedy")
    assert "1. player 1 (perfect): 20,9  (n = 2, a palace)" in lines
    assert "   queen 20,9, k=3, 2 to move, blocked #4,9 #19,9" in lines
    assert lines[-1] == ("player 1 (perfect) wins: player 2 (greedy) cannot move (every square "
                         "it reaches is blocked)")


def test_play_replay_refuses_an_illegal_record(capsys, tmp_path) -> None:
    path = tmp_path / "bad.txt"
    path.write_text('[Game "blocking_queen"]\n[Params "{\\"k\\": 2}"]\n[Setup "5,5"]\n\n'
                    "1. 6,6\n")
    code, out, err = run(capsys, "queen", "play", "--replay", str(path))
    assert code == 2 and "record move 1 '6,6'" in err and out == ""


@pytest.mark.parametrize(("argv", "message"), [
    (["--size", "10000000000"], "--size 10000000000: expected a whole number from 1 to "
     "1,000,000"),
    (["--window", "0,0,5,4000000000", "--pixels", "100"], "--window 0,0,5,4000000000 is "
     "5 x 4,000,000,000 squares; expected at most 1,000,000 a side"),
    (["--block", "5000000"], "--block 5000000: expected a whole number from"),
    (["--block", "900000", "--saturation", "5000"], "--saturation 5000: expected"),
    (["--pixels", "0"], "--pixels 0: expected a whole number from 1 to"),
    (["--saturation", "0"], "--saturation 0: expected a whole number from 1 to"),
])
def test_picture_too_large_names_the_options_given(capsys, tmp_path, argv, message) -> None:
    # the library's message named 'block=5000000', which the user never set
    code, _, err = run(capsys, "queen", "picture", "-k", "10", *argv,
                       "--out", str(tmp_path / "p.png"))
    assert code == 2 and message in err and "block=" not in err and err.count("\n") == 1
