"""``lifearena tournament --bot``: bots from the command line play and forfeit cleanly."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from lifearena.cli import main

EXAMPLE_BOT = Path(__file__).resolve().parents[2] / "examples" / "random_bot.py"


def test_tournament_accepts_bots_and_records_forfeits(tmp_path, capsys):
    crasher = tmp_path / "crash.py"
    crasher.write_text("import sys\nsys.exit(3)\n")
    out = tmp_path / "table.json"
    with pytest.raises(SystemExit) as done:
        main(["tournament", "war-of-life", "-n", "1", "-a", "random", "--workers", "1",
              "--no-self-play", "--bot", f"good={sys.executable} {EXAMPLE_BOT}",
              "--bot", f"crash={sys.executable} {crasher}", "--export", str(out)])
    assert done.value.code == 0
    report = json.loads(out.read_text())
    text = json.dumps(report)
    assert '"good"' in text and '"crash"' in text
    ranking = {row["agent"]: row for row in report["ranking"]}
    assert ranking["crash"]["wins"] == 0 and ranking["crash"]["losses"] == 4
    assert [(f["agent"], f["games"]) for f in report["forfeits"]] == [("crash", 4)]
    assert list(report["forfeits"][0]["reasons"]) == ["crash"]
    printed = capsys.readouterr().out
    # the forfeits are shown, not only counted as losses
    assert "crash forfeited 4 games (crash 4)" in printed
    assert "good forfeited" not in printed


@pytest.mark.parametrize("command, words", [
    ("/nonexistent/bot", "program '/nonexistent/bot' does not exist"),
    ("no-such-program-anywhere --x", "is not a command on PATH"),
    (f"{sys.executable} /nonexistent/bot.py", "script '/nonexistent/bot.py' does not exist"),
])
def test_a_bot_that_cannot_start_is_refused_before_any_game(command, words, capsys):
    with pytest.raises(SystemExit) as done:
        main(["tournament", "war-of-life", "-n", "2", "--bot", f"mine={command}"])
    assert done.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--bot mine:" in err and words in err


def test_a_bot_file_that_is_not_executable_is_refused(tmp_path, capsys):
    script = tmp_path / "bot"
    script.write_text("#!/bin/sh\n")
    with pytest.raises(SystemExit) as done:
        main(["ladder", "war-of-life", "-n", "1", "--bot", f"mine={script}"])
    assert done.value.code == 2
    assert "is not executable" in capsys.readouterr().err


def test_a_bot_name_may_not_shadow_an_agent(capsys):
    with pytest.raises(SystemExit) as done:
        main(["tournament", "war-of-life", "-n", "1", "-a", "random",
              "--bot", f"random={sys.executable} {EXAMPLE_BOT}"])
    assert done.value.code == 2
    assert "the name 'random' is taken" in capsys.readouterr().err


LONG_LABEL = "ppo_trained_twenty_minutes_against_the_whole_pool_seed_0_" + "x" * 40
"""An agent label longer than a whole 80-column line."""


def test_the_tables_print_long_and_bracketed_agent_names_whole(capsys):
    with pytest.raises(SystemExit) as done:
        main(["tournament", "war-of-life", "-n", "1", "-w", "1", "--no-self-play",
              "-a", f"{LONG_LABEL}=random,[bold]b=bloodlust"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    # each name in both rows of the table, the ranking and the first-player table
    assert out.count(LONG_LABEL) == 4, out
    assert out.count("[bold]b") == 4, out
