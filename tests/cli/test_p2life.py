"""The ``lifearena p2life`` commands on tiny inputs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lifearena.cli import main


def _run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exit_info:
        main(args)
    captured = capsys.readouterr()
    return int(exit_info.value.code or 0), captured.out, captured.err


def test_meanfield(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = _run(["p2life", "meanfield", "--png", str(tmp_path / "m.png"),
                         "--sim-size", "32"], capsys)
    assert code == 0 and "0.218750" in out
    # one term per line, so a narrow terminal never wraps the polynomial mid-term
    assert ("rho(p) =\n    21 p^3\n  - 63 p^4\n  + 105/2 p^5\n  + 35 p^6\n  - 1505/16 p^7\n"
            "  + 1057/16 p^8\n  - 553/32 p^9\ncoefficients") in out
    assert "fixed points in [0, 1]: [0.0]\n" in out  # not wrapped before the list either
    assert (tmp_path / "m.png").read_bytes()[:4] == b"\x89PNG"


def test_density_export_and_resume(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    db, js = tmp_path / "d.sqlite", tmp_path / "d.json"
    args = ["p2life", "density", "--size", "12", "--p", "0.4", "--runs", "3",
            "--results", str(db), "--workers", "1", "--export", str(js), "--what", "runs"]
    code, out, _ = _run(args, capsys)
    assert code == 0 and "6/6" in out
    first = json.loads(js.read_text())
    assert len(first) == 6 and {r["boundary"] for r in first} == {"torus", "bounded"}
    code, out, _ = _run(args, capsys)
    assert json.loads(js.read_text()) == first


def test_ratio(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = _run(["p2life", "ratio", "--runs", "2", "--size", "16", "--workers", "1",
                         "--results", str(tmp_path / "r.sqlite"),
                         "--png", str(tmp_path / "r.png")], capsys)
    assert code == 0 and "ratio > 0.5" in out and (tmp_path / "r.png").exists()


def test_bad_options_exit_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    for args in (["p2life", "density", "--p", "x", "--results", str(tmp_path / "x.sqlite")],
                 ["p2life", "density", "--boundary", "sphere"],
                 ["p2life", "meanfield", "--rule", "nope"],
                 ["p2life", "play", "--white", "nobody"]):
        code, _, err = _run(args, capsys)
        assert code == 2 and err.startswith("error:"), args


def test_bad_export_format_refused_before_the_sweep(capsys: pytest.CaptureFixture[str],
                                                    tmp_path: Path) -> None:
    code, _, err = _run(["p2life", "density", "--p", "0.5", "--size", "8", "--runs", "1",
                         "--results", str(tmp_path / "r.sqlite"),
                         "--export", str(tmp_path / "out.xlsx")], capsys)
    assert code == 2 and "has the wrong file type; expected a name ending in .csv or .json" in err
    assert not (tmp_path / "r.sqlite").exists()


def test_play_agents(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    record = tmp_path / "game.txt"
    code, out, _ = _run(["p2life", "play", "--white", "greedy", "--black", "random",
                         "--size", "8", "--max-generations", "5", "--record", str(record)],
                        capsys)
    assert code == 0 and "after" in out
    assert '[Game "p2life"]' in record.read_text()


def test_play_human(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import io

    answers = ["+99,99", "nonsense", "pass"] + ["pass"] * 10
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(answers) + "\n"))
    code, out, _ = _run(["p2life", "play", "--black", "random", "--size", "6",
                         "--max-generations", "3"], capsys)
    assert code == 0 and "off the 6x6 board" in out and "bad move" in out


@pytest.mark.parametrize(("stdin", "code"), [("", 2), ("pass\n", 2), ("quit\n", 0)])
def test_play_end_of_input_or_quit_keeps_the_record(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path,
        stdin: str, code: int) -> None:
    import io

    # quitting abandons the game; the end of input is an error (one line, status 2); both
    # write the record of the game so far
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    record = tmp_path / "game.txt"
    got, out, err = _run(["p2life", "play", "--black", "random", "--size", "6",
                          "--record", str(record)], capsys)
    assert got == code
    if code:
        assert "standard input ended" in err and err.count("\n") == 1
    else:
        assert "game abandoned" in out and "unfinished after" in out
    assert '[Result "*"]' in record.read_text()


def test_report(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = _run(["p2life", "report", "--out", str(tmp_path), "--runs", "2",
                         "--sizes", "12,16", "--p", "0.5,1.0", "--workers", "1"], capsys)
    assert code == 0 and "wrote" in out
    text = (tmp_path / "p2life.md").read_text()
    for claim in ("approaches (torus)", "periodic over cutoff", "Life calibration",
                  "loser/winner ratio > 0.5", "lattice size barely matters"):
        assert claim in text
    assert "p in [0.5, 1.0], lattices 12x12, 16x16" in text
    for png in ("meanfield", "density", "ratio"):
        assert (tmp_path / "p2life" / f"{png}.png").read_bytes()[:4] == b"\x89PNG"


@pytest.mark.parametrize("name", ["game.txt", "game.json"])
def test_play_record_replays_move_by_move(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                          name: str) -> None:
    record = tmp_path / name
    code, played, _ = _run(["p2life", "play", "--white", "greedy", "--black", "random",
                            "--size", "8", "--max-generations", "4", "--seed", "3",
                            "--record", str(record)], capsys)
    assert code == 0 and record.read_text().startswith("{" if name.endswith("json") else "[")
    code, shown, _ = _run(["p2life", "play", "--replay", str(record)], capsys)
    assert code == 0 and shown.startswith("greedy vs random; start ")
    # the replay shows every generation, joint move and the end exactly as play did
    body = played[played.index("\ngeneration 0"):].replace(f"wrote {record}\n", "")
    assert body.count("w (greedy): ") >= 1 and shown.endswith(body)


def test_play_replay_refuses_a_bad_record(capsys: pytest.CaptureFixture[str],
                                          tmp_path: Path) -> None:
    record = tmp_path / "bad.txt"
    record.write_text('[Game "p2life"]\n[Params "{\\"torus\\": false}"]\n'
                      '[Setup "w.../..../..../...b 0:0"]\n\n1. +9,9 | pass\n')
    code, out, err = _run(["p2life", "play", "--replay", str(record)], capsys)
    assert code == 2 and "record move 1 '+9,9 | pass'" in err and out == ""
    record.write_text('[Game "losat"]\n[Setup "x"]\n')
    code, _, err = _run(["p2life", "play", "--replay", str(record)], capsys)
    assert code == 2 and "expected p2life" in err


@pytest.mark.parametrize("bad", [["--chunk", "0"], ["--scheduler", "nowhere"], "foreign"])
def test_density_error_found_while_setting_up_shows_no_empty_bar(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path,
        bad: list[str] | str) -> None:
    import io

    from rich.console import Console

    import lifearena.cli.p2life as p2life_cli

    screen = io.StringIO()
    monkeypatch.setattr(p2life_cli, "console",
                        Console(file=screen, force_terminal=True, color_system=None, width=100))
    results = tmp_path / "r.sqlite"
    if bad == "foreign":
        results.write_text("not a database")
        bad = []
    code, _, err = _run(["p2life", "density", "--size", "8", "--p", "0.5", "--runs", "1",
                         "--results", str(results), *bad], capsys)
    assert code == 2 and err.count("\n") == 1
    assert screen.getvalue() == ""  # was a 'runs 0/?' bar before the error line


def test_density_bar_counts_runs_on_a_terminal(monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str],
                                               tmp_path: Path) -> None:
    import io

    from rich.console import Console

    import lifearena.cli.p2life as p2life_cli

    screen = io.StringIO()
    monkeypatch.setattr(p2life_cli, "console",
                        Console(file=screen, force_terminal=True, color_system=None, width=100))
    code, _, _ = _run(["p2life", "density", "--size", "8", "--p", "0.5", "--runs", "2",
                       "--workers", "1", "--results", str(tmp_path / "r.sqlite")], capsys)
    assert code == 0 and "runs" in screen.getvalue() and "4/4" in screen.getvalue()
    assert "0/?" not in screen.getvalue()
