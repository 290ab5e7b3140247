"""Hostile bots: each misbehaviour forfeits with its reason in the game's record, the run
goes on, memory stays bounded, and no process of the bot or of its children is left."""

from __future__ import annotations

import os
import sys
import textwrap
import time
import tracemalloc
from pathlib import Path

import psutil
import pytest

import toy_games as toys  # tests/toy_games.py, on the path through tests/conftest.py
from lifearena import agents
from lifearena.agents.bot import MAX_LINE, BotAgent
from lifearena.arena.referee import TimeControl, play_game
from lifearena.arena.storage import ResultsDB
from lifearena.arena.tournament import AgentSpec, TournamentConfig, iter_results, run_tournament
from lifearena.core import Record, Termination

# Each bot writes its pid (and its children's) to the file named by PIDFILE first, so the
# test can check afterwards that none of them is left.
HEADER = """\
import json, os, subprocess, sys, time
with open(os.environ["PIDFILE"], "a") as _f:
    _f.write(f"{os.getpid()}\\n")
def child():
    p = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    with open(os.environ["PIDFILE"], "a") as f:
        f.write(f"{p.pid}\\n")
def turns():
    for line in sys.stdin:
        msg = json.loads(line)
        if msg["type"] == "turn":
            yield msg
"""

BOTS = {
    "garbage": 'for m in turns(): print("not json at all", flush=True)',
    "hang": "for m in turns(): time.sleep(600)",
    "crash": 'for m in turns(): sys.stderr.write("boom\\n"); sys.exit(3)',
    "huge_line": ("for m in turns():\n"
                  "    sys.stdout.buffer.write(b'x' * 50_000_000 + b'\\n'); sys.stdout.flush()"),
    "illegal": 'for m in turns(): print(json.dumps({"id": 10**6}), flush=True)',
    "late": ('for m in turns():\n'
             '    time.sleep(1.0); print(json.dumps({"id": m["legal"][0]["id"]}), flush=True)'),
    "stderr_flood": "for m in turns():\n    while True: sys.stderr.write('y' * 65536)",
    "orphans": ('child(); child()\n'
                'for m in turns(): print(json.dumps({"id": m["legal"][0]["id"]}), flush=True)'),
    "orphans_crash": "child()\nfor m in turns(): sys.exit(1)",
}
# what the referee records (extra["forfeit"]) and a phrase of the detail
EXPECTED = {
    "garbage": ("illegal", "is not JSON"),
    "hang": ("timeout", "did not answer in time"),
    "crash": ("crash", "boom"),
    "huge_line": ("illegal", f"longer than {MAX_LINE} bytes"),
    "illegal": ("illegal", "not legal"),
    "late": ("timeout", "did not answer in time"),
    "stderr_flood": ("timeout", "did not answer in time"),
    "orphans_crash": ("crash", "exited before answering"),
    "wrapper": ("timeout", "did not answer in time"),
    "missing": ("crash", "could not start"),
}


def bot_command(tmp_path: Path, kind: str) -> list[str]:
    if kind == "missing":
        return ["/nonexistent/bot"]
    if kind == "wrapper":  # a shell script that runs python without exec
        inner = bot_command(tmp_path, "hang")
        script = tmp_path / "wrapper.sh"
        script.write_text(f"#!/bin/sh\n{' '.join(inner)}\necho done >&2\n")
        script.chmod(0o755)
        return [str(script)]
    path = tmp_path / f"{kind}_bot.py"
    path.write_text(HEADER + textwrap.dedent(BOTS[kind]) + "\n")
    return [sys.executable, str(path)]


def recorded_pids(pidfile: Path) -> list[int]:
    return [int(x) for x in pidfile.read_text().split()] if pidfile.exists() else []


def alive(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def leftovers(pids: list[int], wait: float = 3.0) -> list[int]:
    """Pids still running (after up to ``wait`` s for killed ones to go): those recorded,
    and any process in a recorded pid's session."""
    deadline = time.monotonic() + wait
    while True:
        found = _running(pids)
        if not found or time.monotonic() > deadline:
            return found
        time.sleep(0.05)


def _running(pids: list[int]) -> list[int]:
    sessions = set(pids)
    found = {p for p in pids if alive(p)}
    for proc in psutil.process_iter():
        try:
            if os.getsid(proc.pid) in sessions and alive(proc.pid):
                found.add(proc.pid)
        except (ProcessLookupError, PermissionError, psutil.NoSuchProcess):
            continue
    return sorted(found)


@pytest.fixture
def pidfile(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "pids.txt"
    monkeypatch.setenv("PIDFILE", str(path))
    return path


@pytest.mark.parametrize("kind", sorted(EXPECTED))
def test_a_hostile_bot_forfeits_and_leaves_nothing(tmp_path: Path, pidfile: Path, kind: str,
                                                  faults) -> None:
    faults.injected("hostile bot")
    bot = BotAgent(bot_command(tmp_path, kind), name=f"{kind}-bot")
    reason, words = EXPECTED[kind]
    # a bot that should time out gets half a second; the others get time to start and
    # misbehave even on a busy machine (a huge line is 50 MB to write), so that what they
    # are caught for is their fault, not the clock's
    per_move = 0.5 if reason == "timeout" else 10.0
    tracemalloc.start()
    try:
        result = play_game(toys.TicTacToe, [agents.make("random", seed=2), bot],
                           setup=".........",
                           time_control=TimeControl(per_move=per_move, grace=0.2))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert result.outcome.termination == Termination.FORFEIT
    assert result.outcome.winner == 0
    assert result.extra["forfeit"] == reason
    assert words in result.outcome.detail
    assert f"{kind}-bot" in result.outcome.detail  # named by its label
    # the reason is in the game's record, which replays
    record = Record.load(result.record.to_json())
    assert record.extra["forfeit"] == reason and words in record.result
    assert peak < 8 * MAX_LINE, f"memory peaked at {peak} bytes"
    assert leftovers(recorded_pids(pidfile)) == []
    faults.survived("hostile bot")


def test_a_bot_flooding_stderr_then_answering_plays_on(tmp_path: Path, pidfile: Path,
                                                       faults) -> None:
    """Twenty megabytes of logging are not a fault of the game: the bot plays, and only the
    tail of its stderr is kept."""
    faults.injected("hostile bot")
    path = tmp_path / "chatty.py"
    path.write_text(HEADER + textwrap.dedent("""
        for m in turns():
            sys.stderr.write("z" * 20_000_000)
            sys.stderr.flush()
            print(json.dumps({"id": m["legal"][0]["id"]}), flush=True)
        """))
    bot = BotAgent([sys.executable, str(path)], name="chatty")
    tracemalloc.start()
    try:
        result = play_game(toys.Nim, [agents.make("random", seed=0), bot], setup="5",
                           time_control=TimeControl(per_move=10.0))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert result.outcome.termination == Termination.WIN
    assert peak < 4 * MAX_LINE
    assert leftovers(recorded_pids(pidfile)) == []
    faults.survived("hostile bot")


def test_a_tournament_of_hostile_bots_goes_on(tmp_path: Path, pidfile: Path, faults) -> None:
    """Every game is played and stored; each bot's forfeits carry its label; no process is
    left behind."""
    kinds = ["garbage", "crash", "wrapper", "orphans_crash", "missing"]
    entrants = [AgentSpec("random", "random")] + [
        AgentSpec(kind, "bot", {"command": " ".join(bot_command(tmp_path, kind))})
        for kind in kinds]
    config = TournamentConfig("war_of_life", tuple(entrants), games=1, seats="one",
                              self_play=False, time_control=TimeControl(per_move=0.4))
    faults.injected("hostile bot", len(kinds))
    with ResultsDB(tmp_path / "results.sqlite") as db:
        report = run_tournament(config, db=db, workers=1)
        games = list(iter_results(db.get_run("tournament-war_of_life")))
    assert report.games == config.total_games() == len(games) == 15
    for _, result in games:
        assert result.forfeit, result.outcome  # every game has a bot in it, and bots fail
        loser = result.players[1 - result.winner] if result.winner is not None else None
        assert loser is None or loser in kinds
        assert "'bot'" not in result.outcome.detail
        assert loser is None or loser in result.outcome.detail
    wins = {row.agent: row.wins for row in report.ranking}
    assert wins["random"] == len(kinds)
    assert leftovers(recorded_pids(pidfile)) == []
    faults.survived("hostile bot", len(kinds))


def test_children_of_a_well_behaved_bot_do_not_outlive_it(tmp_path: Path, pidfile: Path,
                                                          faults) -> None:
    faults.injected("hostile bot")
    bot = BotAgent(bot_command(tmp_path, "orphans"), name="parent")
    result = play_game(toys.Nim, [agents.make("random", seed=0), bot], setup="6")
    assert result.outcome.termination == Termination.WIN
    pids = recorded_pids(pidfile)
    assert len(pids) == 3  # the bot and its two children
    assert leftovers(pids) == []
    faults.survived("hostile bot")


def test_the_cli_refuses_a_bot_that_does_not_exist(tmp_path: Path, capsys, faults) -> None:
    """``--bot "x=/nonexistent/bot"`` is refused before any game, one line and exit 2, as
    docs/bots.md says; no traceback, no file written."""
    from lifearena.cli import main

    out = tmp_path / "table.json"
    faults.injected("hostile bot")
    with pytest.raises(SystemExit) as done:
        main(["tournament", "war-of-life", "-n", "1", "-a", "random", "--workers", "1",
              "--no-self-play", "--bot", "x=/nonexistent/bot", "--export", str(out)])
    captured = capsys.readouterr()
    assert done.value.code == 2 and captured.out == ""
    assert captured.err.startswith("error: --bot x: program '/nonexistent/bot' does not exist")
    assert captured.err.count("\n") == 1 and not out.exists()
    faults.survived("hostile bot")


def test_a_bot_that_cannot_start_forfeits_in_a_tournament(tmp_path: Path, faults) -> None:
    """Past the command line's check (a program removed during the run, a library caller),
    a bot that cannot start forfeits every game and the report counts the forfeits."""
    faults.injected("hostile bot")
    config = TournamentConfig("war_of_life", (AgentSpec("random", "random"),
                                              AgentSpec("x", "bot",
                                                        {"command": "/nonexistent/bot"})),
                              games=1, self_play=False)
    report = run_tournament(config, workers=1)
    ranking = {row.agent: row for row in report.ranking}
    assert ranking["x"].losses == 2 and ranking["random"].wins == 2
    assert [(f.agent, f.games, dict(f.reasons)) for f in report.forfeits] == \
        [("x", 2, {"crash": 2})]
    assert "cannot start bot 'x'" in report.forfeits[0].detail
    faults.survived("hostile bot")
