"""The one terminal play loop: the end of input on every ``play`` command, quitting, the
game-side hooks it relies on, and simultaneous turns."""

from __future__ import annotations

import io
import os
import platform
import select
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import psutil
import pytest

import toy_games
from lifearena.cli import main
from lifearena.cli.terminal_play import InputEnded, Seat, TerminalPlay
from lifearena.core import State, presentation_of
from lifearena.errors import IllegalMoveError
from lifearena.games import losat
from lifearena.games.blocking_queen import BlockingQueen
from lifearena.games.life_for_two import LifeForTwo
from lifearena.games.p2life import new_game as new_p2life
from lifearena.games.war_of_life import from_prolog
from signals import ctrl_c_reaches_children  # tests/signals.py

# every play command a person can sit at, with options that keep the game short (two people
# at Life for Two read without echo: a real process covers them below)
PLAY_COMMANDS = {
    "war-of-life": ["war-of-life", "play", "--red", "random"],
    "losat": ["losat", "play", "--white", "random"],
    "queen": ["queen", "play", "--second", "random"],
    "p2life": ["p2life", "play", "--black", "random", "--size", "6"],
    "life-for-two": ["life-for-two", "play", "--player2", "random"],
    "life-for-two --classic": ["life-for-two", "play", "--classic"],
}


@pytest.mark.parametrize("argv", PLAY_COMMANDS.values(), ids=PLAY_COMMANDS.keys())
def test_empty_standard_input_exits_2_with_one_line(argv, capsys, monkeypatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    err = capsys.readouterr().err
    assert exit_info.value.code == 2
    assert err.count("\n") == 1 and err.startswith("error: ") and "input ended" in err


def test_closed_standard_input_exits_2_with_one_line(capsys, monkeypatch) -> None:
    closed = io.StringIO("")
    closed.close()
    monkeypatch.setattr("sys.stdin", closed)
    with pytest.raises(SystemExit) as exit_info:
        main(PLAY_COMMANDS["losat"])
    err = capsys.readouterr().err
    assert exit_info.value.code == 2 and err.count("\n") == 1 and "input ended" in err


def test_ctrl_d_for_player_1_does_not_prompt_player_2() -> None:
    # a real process with no terminal (its own session) and standard input at its end: the
    # hidden two-person prompt must not fall back to getpass's warnings on stderr
    env = {**os.environ, "PYTHONWARNINGS": "default"}
    done = subprocess.run([sys.executable, "-m", "lifearena", "life-for-two", "play"],
                          stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          timeout=120, start_new_session=True, env=env)
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert "Player 1 (*)" in done.stdout and "Player 2" not in done.stdout + done.stderr


STARTUP = 300.0
"""Seconds a play command may take to show its first prompt on a busy machine."""


def _read_until(fd: int, until: bytes, deadline: float) -> bytes:
    """Read the pipe ``fd`` until ``until`` arrives, the pipe closes, or the deadline."""
    read = b""
    while until not in read and time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.1)
        if ready:
            chunk = os.read(fd, 4096)
            if not chunk:
                break
            read += chunk
    return read


READ_CALL = {"x86_64": "0", "aarch64": "63"}
"""The number of the ``read`` system call on the machines /proc/PID/syscall is read on."""


def _reading_standard_input(pid: int) -> bool:
    """Whether process ``pid`` is asleep reading its standard input (file descriptor 0), as
    it is once ``input()`` waits: a signal that lands after the prompt is written but before
    the read begins is only seen when the read returns."""
    if psutil.Process(pid).status() != psutil.STATUS_SLEEPING:
        return False
    try:  # Linux: the system call the main thread is in, then its arguments
        call = Path(f"/proc/{pid}/syscall").read_text().split()
    except OSError:
        return True  # elsewhere, asleep after the prompt is as near as can be seen
    number = READ_CALL.get(platform.machine(), call[0])
    return len(call) > 1 and call[0] == number and call[1] == "0x0"


def _wait_for(condition: Callable[[], bool], deadline: float) -> bool:
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


@pytest.mark.timeout(STARTUP + 120)
def test_ctrl_c_at_the_prompt_says_interrupted_and_keeps_the_game(tmp_path) -> None:
    # Ctrl-C while a person is to move is not the end of input: "interrupted", status 130,
    # and the game so far saved (the prompt library reports both the same way)
    record = tmp_path / "game.json"
    with ctrl_c_reaches_children():
        proc = subprocess.Popen([sys.executable, "-m", "lifearena", "queen", "play", "--second",
                                 "random", "--save", str(record)],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, start_new_session=True)
    with proc:
        assert proc.stdout is not None and proc.stderr is not None
        try:
            # the prompt, with standard input open, and the process waiting there for a line
            shown = _read_until(proc.stdout.fileno(), b"> ", time.monotonic() + STARTUP)
            assert b"> " in shown, (shown[-2000:], proc.poll())
            assert _wait_for(lambda: _reading_standard_input(proc.pid),
                             time.monotonic() + 60), \
                f"prompted, but not waiting for input ({psutil.Process(proc.pid).status()})"
            proc.send_signal(signal.SIGINT)
            # standard input stays open until the process has gone, as a keyboard does (the end
            # of input is another way out, which must not be the one taken); what it prints
            # after the prompt fits in the pipes
            proc.wait(60)
            err = proc.stderr.read().decode()
        finally:
            proc.kill()
    assert proc.returncode == 130, err
    assert err.strip().splitlines()[-1] == "interrupted" and "Traceback" not in err
    assert record.exists() and '"game": "blocking_queen"' in record.read_text()


class Typed:
    """Stands in for the keyboard: the lines to type, then the end of input."""

    def __init__(self, *lines: str) -> None:
        self.lines = list(lines)
        self.prompts: list[tuple[str, bool]] = []

    def __call__(self, prompt: str, hidden: bool) -> str:
        self.prompts.append((prompt, hidden))
        if not self.lines:
            raise EOFError
        return self.lines.pop(0)


def _play(state: State, seats: list[Seat], typed: Typed, **options) -> tuple[State, list[str]]:
    shown: list[str] = []
    play = TerminalPlay(state, seats, read=typed, **options)
    play.display.echo = shown.append
    return play.run(), shown


def test_quit_abandons_and_saves_the_game_so_far(tmp_path) -> None:
    path = tmp_path / "nim.txt"
    typed = Typed("take3", "quit")
    final, shown = _play(toy_games.Nim(9), [Seat("human"), Seat("human")], typed, save=path)
    assert final.history() == [2] and "game abandoned" in shown
    assert "result: unfinished" in shown and path.read_text().rstrip().endswith("1. take3")


def test_refusals_use_the_game_reason_and_ask_again() -> None:
    typed = Typed("take9", "moves", "help", "take2", "take3")
    final, shown = _play(toy_games.Nim(5), [Seat("human"), Seat("human")], typed)
    assert "refused: bad nim move 'take9'; expected take1..take3" in shown
    assert "take1 take2 take3" in shown  # 'moves'
    assert any(line.startswith("type a move (a move in the game's notation)") for line in shown)
    assert final.is_terminal() and final.history() == [1, 2]


def test_end_of_input_saves_then_raises(tmp_path) -> None:
    path = tmp_path / "nim.json"
    with pytest.raises(InputEnded, match=r"waiting for player 1 \(human\)'s move"):
        _play(toy_games.Nim(9), [Seat("human"), Seat("human")], Typed("take1", "take1"),
              save=path)
    assert '"moves": ["take1", "take1"]' in path.read_text()


def test_simultaneous_people_are_hidden_only_with_hidden_information() -> None:
    typed = Typed("H", "T")
    final, _ = _play(toy_games.Pennies(), [Seat("human"), Seat("human")], typed)
    assert final.history() == [(0, 1)] and [h for _, h in typed.prompts] == [False, False]
    typed = Typed("quit")
    state = LifeForTwo()
    final, shown = _play(state, [Seat("human"), Seat("human")], typed)
    assert typed.prompts == [("* to move (your 3 cells as x,y x,y x,y)", True)]
    assert "game abandoned" in shown  # player 2 is not asked once player 1 has quit


def test_chance_nodes_are_drawn_from_the_seed() -> None:
    first = _play(toy_games.PenniesRounds(rounds=2), [Seat("first", toy_games.FirstAgent())] * 2,
                  Typed(), seed=3)[0]
    again = _play(toy_games.PenniesRounds(rounds=2), [Seat("first", toy_games.FirstAgent())] * 2,
                  Typed(), seed=3)[0]
    assert first.history() == again.history() and first.is_terminal()


@pytest.mark.parametrize(("state", "text", "reason"), [
    (from_prolog("[[[1,1]],[[8,8]]]"), "[8,8,7,7]", "[8,8,7,7]: 8,8 is a red piece"),
    (losat.new_game(), "+bA1", "+bA1: an added black stone needs exactly 3 black "
                                "neighbours; A1 has 0"),
    (BlockingQueen.from_setup("20,33", k=3), "21,33", "moves only west, north or north-west"),
    (new_p2life(size=6, seed=1), "-1,1", "holds no w token; remove only your own"),
    (LifeForTwo(), "3,3", "turn 1 places 3 cells; got 1"),
])
def test_every_game_explains_an_illegal_move(state: State, text: str, reason: str) -> None:
    player = 0
    with pytest.raises(IllegalMoveError) as error:
        state.read_move(text, player)
    assert reason in str(error.value)
    assert state.move_help and presentation_of(state).legal_moves_text(state, player)


SUPERKO_GAME = [
    "-C6", "-D2", "+wF7", "-D8", "+wD6", "+bF3", "-C2", "-C8", "+bF4", "+bF2", "+wF8", "-E7",
    "-F3", "-C3", "+bD4", "+bD5", "-E3", "+bC5", "-E2", "-D4", "+bF3", "+bE5", "+bG3", "-C7",
    "-D5", "-F3", "+bE3", "+wD7", "-C5", "+bD3", "-F4", "+bE2", "-D3", "+bD5", "-C4", "-G3",
    "+bD3", "+bD2", "-E4", "-D5", "-E5", "+bE1", "-D2", "+bF3", "+bF1", "+bG2", "-E2", "+bE4",
    "+bD2", "+bD4", "-D3", "+bG1", "-F1", "+bF4", "+bE5", "-F2", "+bF5", "+bG3", "+bF1", "-E3",
    "-D2", "-E1", "+bD5", "-F4", "xE6",
]


def test_losat_names_superko() -> None:
    # found by random play on a small board: Life's rules allow xE6 here, superko does not
    state = losat.new_game(width=7, length=9, gap=1, offset=0)
    for text in SUPERKO_GAME:
        state.apply_move_text(text)
    assert "superko" in presentation_of(state).explain_illegal(state, state.string_to_action("xE6"))


def test_the_end_of_a_game_names_the_sides_as_the_game_declares_them() -> None:
    from dataclasses import replace

    from lifearena.cli.outcome_text import describe_outcome
    from lifearena.core import Outcome, Termination

    info = replace(toy_games.Nim.info, side_names=("north", "south"))
    assert describe_outcome(Outcome(Termination.WIN, 1, "b"), info, ["first", "crash"]) == (
        "south (crash) wins: north (first) has no pieces left")
    # a game that declares no names says player 1 and player 2
    assert describe_outcome(Outcome(Termination.WIN, 0, "a"), toy_games.Nim.info) == (
        "player 1 wins: player 2 has no pieces left")


@pytest.mark.parametrize(("argv", "game", "commands"), [
    (PLAY_COMMANDS["war-of-life"], "war_of_life", "moves, help, board, hint, coursework, quit"),
    (PLAY_COMMANDS["losat"], "losat", "moves, help, board, hint, quit"),
])
def test_a_person_is_told_the_game_notation_and_the_loop_commands(argv, game, commands, capsys,
                                                                  monkeypatch) -> None:
    from lifearena.core import load_game

    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    out = capsys.readouterr().out
    assert exit_info.value.code == 0
    assert f"moves: {load_game(game).move_help}; commands: {commands}\n" in out


@pytest.mark.parametrize(("agent", "reason", "detail"), [
    (toy_games.CrashAgent(), "crash", "crash crashed: RuntimeError: boom"),
    (toy_games.IllegalAgent(), "illegal", "illegal played an illegal move 'take100'"),
])
def test_an_agent_that_crashes_or_moves_illegally_forfeits_as_in_the_arena(
        agent, reason, detail, tmp_path) -> None:
    from lifearena.core import Record, Termination

    path = tmp_path / "nim.json"
    typed = Typed("take1")
    final, shown = _play(toy_games.Nim(9), [Seat("human"), Seat(agent.name, agent)], typed,
                         save=path)
    assert final.history() == [0]
    record = Record.load(path.read_text())
    assert record.extra["forfeit"] == reason and detail in record.result
    assert record.result.startswith("a wins (forfeit, ")
    assert any(line.startswith("result: ") and "forfeits" in line for line in shown)
    assert Termination.FORFEIT.value in record.result
