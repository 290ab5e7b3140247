"""The command line with Prolog strategies: ``--prolog FILE:PREDICATE`` in ``war-of-life
play`` and ``test-strategy``, ``NAME=prolog:FILE:PREDICATE`` in ``tournament`` and
``ladder``, and the one-line errors."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from lifearena.agents.prolog import SWIPL_PACKAGE
from lifearena.cli import main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "prolog" / "strategies.pl"
needs_swipl = pytest.mark.skipif(shutil.which("swipl") is None,
                                 reason=f"swipl not installed (Debian package {SWIPL_PACKAGE})")


def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exit_info:
        main(list(argv))
    out, err = capsys.readouterr()
    return exit_info.value.code, out, err


def without_names(line: str) -> str:
    return re.sub(r" \([^)]*\)", "", line)


def moves_of(out: str) -> list[str]:
    return [line.split()[2] for line in out.splitlines() if " played " in line]


@needs_swipl
def test_play_with_prolog_plays_as_the_python_strategy(capsys) -> None:
    code, out, _ = run_cli(capsys, "war-of-life", "play", "--prolog",
                           f"{EXAMPLES}:bloodlust", "--blue", "prolog", "--red",
                           f"prolog:{EXAMPLES}:land_grab", "--seed", "4", "--quiet")
    assert code == 0
    code, reference, _ = run_cli(capsys, "war-of-life", "play", "--blue", "bloodlust",
                                 "--red", "land_grab", "--seed", "4", "--quiet")
    assert moves_of(out) and moves_of(out) == moves_of(reference)
    # the same result, the players named as given (a Prolog player by its FILE:PREDICATE)
    assert without_names(out.splitlines()[-1]) == without_names(reference.splitlines()[-1])


@needs_swipl
def test_play_reports_a_forfeit(capsys, tmp_path) -> None:
    file = tmp_path / "bad.pl"
    file.write_text("s(_, _, _, _) :- fail.\n")
    record = tmp_path / "game.json"
    code, out, _ = run_cli(capsys, "war-of-life", "play", "--prolog", f"{file}:s", "--blue",
                           "prolog", "--red", "random", "--quiet", "--save", str(record))
    assert code == 0
    assert "b (prolog:" in out and "forfeits: " in out and "prolog strategy 'bad:s':" in out
    assert "failed" in out
    # as docs/prolog.md says: the other side wins, and the result says why
    result = out.splitlines()[-2]  # the last line says where the record went
    assert result.startswith("result: red (random) wins: blue (prolog:") and "forfeits (" in result
    assert result.endswith("after 0 moves") and "unfinished" not in out
    # the saved record keeps the result and the reason, as a tournament's does
    saved = json.loads(record.read_text())
    assert saved["result"].startswith("r wins (forfeit, ") and saved["extra"]["forfeit"] == "crash"
    code, shown, _ = run_cli(capsys, "war-of-life", "replay", str(record), "--quiet")
    assert code == 0 and shown.splitlines()[-1] == result


@needs_swipl
@pytest.mark.parametrize("command", ["play", "test-strategy"])
def test_a_missing_predicate_is_refused_before_play(command, capsys) -> None:
    argv = (["war-of-life", "play", "--blue", "prolog", "--red", "random"] if command == "play"
            else ["war-of-life", "test-strategy", "prolog", "random", "-n", "2"])
    code, out, err = run_cli(capsys, *argv, "--prolog", f"{EXAMPLES}:nosuch")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "does not define nosuch/4" in err


@needs_swipl
def test_test_strategy_with_prolog(capsys) -> None:
    code, out, _ = run_cli(capsys, "war-of-life", "test-strategy", "--prolog",
                           f"{EXAMPLES}:land_grab", "prolog", "bloodlust", "-n", "4")
    assert code == 0
    _, reference, _ = run_cli(capsys, "war-of-life", "test-strategy", "land_grab",
                              "bloodlust", "-n", "4", "--protocol")
    keep = ("draws", "shortest", "longest", "average game length")
    assert [line for line in out.splitlines() if line.startswith(keep)] == \
        [line for line in reference.splitlines() if line.startswith(keep)]


@needs_swipl
def test_tournament_and_ladder_take_prolog_entrants(capsys, tmp_path) -> None:
    code, out, _ = run_cli(capsys, "tournament", "war-of-life", "-n", "2", "-w", "1",
                           "--no-self-play", "-a",
                           f"mine=prolog:{EXAMPLES}:bloodlust,land_grab",
                           "--db", str(tmp_path / "t.sqlite"))
    assert code == 0 and "mine" in out
    code, out, _ = run_cli(capsys, "ladder", "war-of-life", "-n", "1", "-a",
                           f"mine=prolog:{EXAMPLES}:land_grab", "-a", "random",
                           "--db", str(tmp_path / "l.sqlite"))
    assert code == 0 and "mine" in out


@needs_swipl
@pytest.mark.parametrize("command", ["tournament", "ladder"])
def test_a_tournament_refuses_a_prolog_entrant_that_does_not_load(command, capsys,
                                                                   tmp_path) -> None:
    db = tmp_path / "results.sqlite"
    code, out, err = run_cli(capsys, command, "war-of-life", "-n", "2", "-a", "random", "-a",
                             f"mine=prolog:{EXAMPLES}:nosuch", "--db", str(db))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "'mine'" in err and "does not define nosuch/4" in err, err
    assert not db.exists()  # refused before the results file was made


def test_prolog_player_without_a_file_is_one_line(capsys) -> None:
    code, _, err = run_cli(capsys, "war-of-life", "play", "--blue", "prolog")
    assert code == 2
    assert err.strip() == "error: player 'prolog' needs --prolog FILE:PREDICATE"


def test_missing_swipl_is_one_line_naming_the_package(capsys, monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("LIFEARENA_SWIPL", str(tmp_path / "no-swipl"))
    code, _, err = run_cli(capsys, "war-of-life", "test-strategy", "--prolog",
                           f"{EXAMPLES}:bloodlust", "prolog", "random", "-n", "1")
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and SWIPL_PACKAGE in err
