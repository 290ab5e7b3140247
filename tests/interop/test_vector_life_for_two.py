"""Life for Two's compiled vector environment: its compiled opponents play inside the batch
what the protocol agents play, seat and stream included (the shared checks against the
protocol path are in ``test_vector.py``)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("gymnasium", reason="needs Gymnasium: pip install -e '.[interop]'")
pytest.importorskip("numba", reason="needs numba")

from hypothesis import given, settings
from hypothesis import strategies as st

from life_for_two_streams import StreamGenerator  # tests/ is on sys.path (tests/conftest.py)
from lifearena.agents import make
from lifearena.games.life_for_two import fast
from lifearena.games.life_for_two.fast import board_to_bits
from lifearena.interop.vector import make_vector_env

from .test_vector import SETTINGS, play_against_mirror


@pytest.mark.parametrize("opponent", ["greedy", "nash"])
@settings(SETTINGS, max_examples=6)  # nash: a few ms a board and turn
@given(data=st.data())
def test_vector_env_equals_the_protocol_against_compiled_opponents(
        opponent: str, data: st.DataObject) -> None:
    play_against_mirror(data, "life_for_two", opponent)


def expected_reply(opponent: str, env: Any, i: int, stream: np.ndarray) -> int:
    """What the opponent of board ``i`` plays from its position now, drawing from a copy of
    the board's stream: the protocol agent for ``greedy``; for ``nash``, whose linear
    program may settle on another optimal strategy than scipy's, the compiled player (the
    tests of ``tests/games/test_life_for_two_fast.py`` compare it with the agent)."""
    state, seat = env.position(i), 1 - env.player
    if opponent == "greedy":
        agent = make(opponent, game="life_for_two", seed=0)
        agent.rng = StreamGenerator(stream)
        return int(agent.act(state.view(seat), seat))
    ones, twos = board_to_bits(state.board)
    return int(fast.nash_choice(ones, twos, state.turn, seat, stream.copy(), 0))


@pytest.mark.parametrize(("opponent", "player"), [("greedy", 0), ("greedy", 1), ("nash", 1)])
def test_compiled_opponents_play_the_agents_moves(opponent: str, player: int) -> None:
    env = make_vector_env("life_for_two", 3, opponent=opponent, player=player,
                          params={"max_turns": 6})
    env.reset(seed=4)
    checked = 0
    for _ in range(8):
        streams = env._rng.copy()
        going = ~env._ended.copy()
        expected = {int(i): expected_reply(opponent, env, int(i), streams[i:i + 1])
                    for i in np.flatnonzero(going)}
        env.step(env.sample_actions())
        for i, reply in expected.items():
            assert env.opponent_actions[i] == reply
            checked += 1
    assert checked >= 12
