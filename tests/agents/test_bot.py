"""The bot protocol: a well-behaved bot, and bots that time out, crash, print garbage or play
illegal moves (each forfeits, recorded as such by the referee)."""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

import pytest

import toy_games as toys
from lifearena import agents
from lifearena.agents.base import Limit
from lifearena.agents.bot import (
    BotAgent,
    BotCrashed,
    BotGarbage,
    BotIllegalMove,
    BotTimeout,
    parse_bot_spec,
)
from lifearena.arena.referee import TimeControl, play_game
from lifearena.core import Termination
from lifearena.errors import BadParameterError

ROOT = Path(__file__).resolve().parents[2]



HEADER = "import json, sys, time\n"
BOTS = {
    "good": """
        log = open(sys.argv[1], "w") if len(sys.argv) > 1 else None
        for line in sys.stdin:
            msg = json.loads(line)
            if log:
                log.write(line)
                log.flush()
            if msg["type"] == "turn":
                print(json.dumps({"move": msg["legal"][0]["move"]}), flush=True)
        """,
    "by_id": """
        for line in sys.stdin:
            msg = json.loads(line)
            if msg["type"] == "turn":
                print(json.dumps({"id": msg["legal"][-1]["id"]}), flush=True)
        """,
    "slow": """
        for line in sys.stdin:
            msg = json.loads(line)
            if msg["type"] == "turn":
                time.sleep(5)
                print(json.dumps({"id": msg["legal"][0]["id"]}), flush=True)
        """,
    "crash": """
        for line in sys.stdin:
            msg = json.loads(line)
            if msg["type"] == "turn":
                sys.stderr.write("oops, something broke\\n")
                sys.exit(3)
        """,
    "garbage": """
        for line in sys.stdin:
            msg = json.loads(line)
            if msg["type"] == "turn":
                print("I resign, sort of", flush=True)
        """,
    "badmove": """
        for line in sys.stdin:
            msg = json.loads(line)
            if msg["type"] == "turn":
                print(json.dumps({"move": "take9"}), flush=True)
        """,
    "illegal": """
        for line in sys.stdin:
            msg = json.loads(line)
            if msg["type"] == "turn":
                taken = {m["id"] for m in msg["legal"]}
                bad = next(i for i in range(9) if i not in taken)
                print(json.dumps({"id": bad}), flush=True)
        """,
}


def bot_command(tmp_path: Path, kind: str, *args: str) -> list[str]:
    path = tmp_path / f"{kind}_bot.py"
    path.write_text(HEADER + textwrap.dedent(BOTS[kind]))
    return [sys.executable, str(path), *args]


def test_well_behaved_bot_plays_a_whole_game(tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    bot = BotAgent(bot_command(tmp_path, "good", str(log)), name="first")
    result = play_game(toys.TicTacToe, [bot, agents.make("random", seed=1)],
                       setup=".........", time_control=TimeControl(per_move=5.0))
    assert result.outcome.termination != Termination.FORFEIT
    messages = [json.loads(line) for line in log.read_text().splitlines()]
    assert messages[0]["type"] == "start"
    assert messages[0]["seat"] == 0 and messages[0]["game"] == "toy_tictactoe"
    assert messages[0]["time_control"]["per_move"] == 5.0
    turns = [m for m in messages if m["type"] == "turn"]
    assert turns and all(m["legal"] for m in turns)
    assert turns[0]["time_left"] == pytest.approx(5.0)
    assert turns[0]["board"] == "........."
    assert turns[1]["history"][:1] == ["0"]  # its own first move, in notation
    assert messages[-1]["type"] == "end" and messages[-1]["result"] == str(result.outcome)
    assert bot._proc is None  # the process was stopped after the game


def test_bot_may_answer_by_id_and_play_second(tmp_path: Path) -> None:
    bot = BotAgent(bot_command(tmp_path, "by_id"))
    result = play_game(toys.Nim, [agents.make("random", seed=0), bot], setup="9")
    assert result.outcome.termination == Termination.WIN
    assert all(m == "take3" for m in result.moves[1::2][:-1])


@pytest.mark.parametrize("kind,reason,words", [
    ("slow", "timeout", "in time"),
    ("crash", "crash", "oops, something broke"),
    ("garbage", "illegal", "garbage"),
    ("badmove", "illegal", "garbage"),
    ("illegal", "illegal", "not legal"),
])
def test_misbehaving_bots_forfeit(tmp_path: Path, kind: str, reason: str, words: str) -> None:
    bot = BotAgent(bot_command(tmp_path, kind), name=kind)
    result = play_game(toys.TicTacToe, [agents.make("random", seed=2), bot], setup=".........",
                       time_control=TimeControl(per_move=0.4, grace=0.5))
    assert result.outcome.termination == Termination.FORFEIT
    assert result.outcome.winner == 0
    assert result.extra["forfeit"] == reason
    assert words in result.outcome.detail
    assert bot._proc is None


def test_errors_raised_directly(tmp_path: Path) -> None:
    state = toys.TicTacToe()
    cases = [("slow", BotTimeout), ("crash", BotCrashed), ("garbage", BotGarbage),
             ("illegal", BotIllegalMove)]
    state.apply_action(4)  # so that the 'illegal' bot has an occupied cell to choose
    for kind, error in cases:
        bot = BotAgent(bot_command(tmp_path, kind))
        with pytest.raises(error):
            bot.act(state, 1, Limit(time=0.3))
        bot.close()
    with pytest.raises(BotCrashed):
        BotAgent(["/nonexistent/program"]).act(state, 1)


def test_the_example_bot_plays(tmp_path: Path) -> None:
    command = [sys.executable, str(ROOT / "examples" / "random_bot.py")]
    result = play_game(toys.TicTacToe, [BotAgent(command), BotAgent(command)],
                       setup=".........", time_control=TimeControl(per_move=5.0))
    assert result.outcome.termination != Termination.FORFEIT


def test_spec_parsing_and_registry() -> None:
    assert parse_bot_spec("a=python3 -u b.py") == ("a", ["python3", "-u", "b.py"])
    assert parse_bot_spec("./mybot --fast")[0] == "mybot"
    with pytest.raises(BadParameterError):
        parse_bot_spec("x=")
    bot = agents.make("bot", command="python3 x.py", per_move=0.5)
    assert isinstance(bot, BotAgent) and bot.time_control.per_move == 0.5
    with pytest.raises(BadParameterError):
        agents.make("bot")
