"""The referee on the tiny games of conftest.py: normal games, chance, simultaneous nodes,
replayable records, forfeits (crash, illegal action, timeout), views and hooks."""

from __future__ import annotations

import pytest

from lifearena.agents import Agent, Limit, make
from lifearena.arena.referee import (
    AgentTimeout,
    GameResult,
    TimeControl,
    initial_state,
    play_game,
)
from lifearena.core import Record, State, Termination, replay
from lifearena.errors import BadParameterError
from lifearena.testing import check_game
from toy_games import CrashAgent, FirstAgent, IllegalAgent, Nim, PenniesRounds, SlowAgent


def test_tiny_games_conform() -> None:
    check_game(lambda seed: Nim.new_game(seed), games=5)
    check_game(lambda seed: PenniesRounds(rounds=3), games=5)


def test_nim_first_vs_first_is_exact() -> None:
    # both take one stone: a pile of 7 ends after 7 moves, the first player takes the last
    result = play_game("toy_nim", [FirstAgent(), FirstAgent()], setup="7")
    assert result.moves == ["take1"] * 7
    assert result.length == 7
    assert result.outcome.termination == Termination.WIN
    assert result.winner == 0
    assert result.players == ["first", "first"]
    assert len(result.seconds) == 2 and all(s >= 0 for s in result.seconds)
    assert replay(result.record).outcome() == result.outcome


def test_random_start_from_seed_is_deterministic() -> None:
    a = play_game("toy_nim", [make("random", seed=1), make("random", seed=2)], seed=5)
    b = play_game("toy_nim", [make("random", seed=1), make("random", seed=2)], seed=5)
    assert a.setup == b.setup == initial_state("toy_nim", seed=5).setup()
    assert a.moves == b.moves and a.outcome == b.outcome


def test_simultaneous_with_chance_replays_and_seed_drives_chance() -> None:
    agents = [make("random", seed=3), make("random", seed=4)]
    result = play_game("toy_pennies_rounds", agents, seed=11, params={"rounds": 5})
    # 5 chance outcomes and 5 joint moves; length counts only the joint moves
    assert len(result.moves) == 10 and result.length == 5
    assert sum(" | " in m for m in result.moves) == 5
    again = replay(Record.load(result.record.to_text()))
    assert again.is_terminal() and again.outcome() == result.outcome
    matchers = {tuple(play_game("toy_pennies_rounds", [FirstAgent(), FirstAgent()], seed=s,
                                params={"rounds": 5}).moves[::2]) for s in range(6)}
    assert len(matchers) > 1, "different seeds must give different chance outcomes"


def test_crash_forfeits_and_other_side_wins() -> None:
    result = play_game("toy_nim", [FirstAgent(), CrashAgent()], setup="9")
    assert result.outcome.termination == Termination.FORFEIT
    assert result.winner == 0 and result.forfeit
    assert "crash" in result.outcome.detail and "boom" in result.outcome.detail
    assert result.moves == ["take1"]  # the crash came at the second move
    assert result.record.extra["forfeit"] == "crash"


def test_illegal_action_forfeits() -> None:
    result = play_game("toy_nim", [IllegalAgent(), FirstAgent()], setup="9")
    assert result.outcome.termination == Termination.FORFEIT
    assert result.winner == 1
    assert "illegal" in result.outcome.detail and result.moves == []


def test_timeout_forfeits_under_time_control() -> None:
    tc = TimeControl(per_move=0.01)
    result = play_game("toy_nim", [FirstAgent(), SlowAgent(0.05)], setup="9", time_control=tc)
    assert result.outcome.termination == Termination.FORFEIT and result.winner == 0
    assert "took" in result.outcome.detail
    # with enough time, the same game finishes normally
    relaxed = play_game("toy_nim", [FirstAgent(), SlowAgent(0.001)], setup="3",
                        time_control=TimeControl(per_move=5.0))
    assert relaxed.outcome.termination == Termination.WIN


def test_total_time_runs_out() -> None:
    tc = TimeControl(total=0.03)
    result = play_game("toy_nim", [SlowAgent(0.012), FirstAgent()], setup="15",
                       time_control=tc)
    assert result.outcome.termination == Termination.FORFEIT and result.winner == 1


def test_adapter_timeout_exception_and_both_sides_failing() -> None:
    class Late(Agent):
        def act(self, state: State, player: int, limit: Limit | None = None) -> int:
            raise AgentTimeout("no answer in 1 s")

    result = play_game("toy_nim", [Late(), FirstAgent()], setup="5")
    assert result.winner == 1 and result.record.extra["forfeit"] == "timeout"
    both = play_game("toy_pennies_rounds", [CrashAgent(), IllegalAgent()], seed=0)
    assert both.outcome.termination == Termination.FORFEIT and both.winner is None


def test_agents_see_views_limits_and_hooks() -> None:
    seen: list = []

    class Spy(FirstAgent):
        def start_game(self, view, player, time_control) -> None:
            seen.append(("start", player, time_control))

        def act(self, state, player, limit=None):
            seen.append(("act", limit))
            return super().act(state, player, limit)

        def end_game(self, result: GameResult) -> None:
            seen.append(("end", result.winner))

    play_game("toy_nim", [Spy(), FirstAgent()], setup="2", limits=[Limit(depth=3), None],
              time_control=TimeControl(per_move=2.0))
    assert seen[0][:2] == ("start", 0)
    act_limit = seen[1][1]
    assert act_limit.depth == 3 and 0 < act_limit.time <= 2.0
    assert seen[-1] == ("end", 1)


def test_result_round_trips_through_dict() -> None:
    result = play_game("toy_pennies_rounds", [make("random", seed=1), FirstAgent()], seed=2)
    assert GameResult.from_dict(result.to_dict()) == result


def test_bad_input() -> None:
    with pytest.raises(BadParameterError, match="needs 2 agents"):
        play_game("toy_nim", [FirstAgent()], setup="3")
    with pytest.raises(BadParameterError, match="must be positive"):
        TimeControl(per_move=0)
    with pytest.raises(BadParameterError, match="unknown game"):
        play_game("no_such_game", [FirstAgent(), FirstAgent()])


def test_max_moves_stops_as_limit_draw() -> None:
    result = play_game("toy_nim", [FirstAgent(), FirstAgent()], setup="9", max_moves=3)
    assert result.outcome.termination == Termination.LIMIT and result.winner is None
    assert result.length == 3
