"""Life for Two's compiled vector environment: its compiled opponents play inside the batch
what the protocol agents play, seat and stream included; opponent pools, the policy
opponent, per-board seeds, ``reset_mask`` and same-step auto-reset, each against the
protocol game (the shared checks against the protocol path are in ``test_vector.py``)."""

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
from lifearena.errors import BadParameterError
from lifearena.games.life_for_two import fast
from lifearena.games.life_for_two.fast import board_to_bits
from lifearena.interop.spaces import Encoding
from lifearena.interop.vector import make_vector_env

from .test_vector import SETTINGS, play_against_mirror


@pytest.mark.parametrize("opponent", ["greedy", "nash"])
@settings(SETTINGS, max_examples=6)  # nash: a few ms a board and turn
@given(data=st.data())
def test_vector_env_equals_the_protocol_against_compiled_opponents(
        opponent: str, data: st.DataObject) -> None:
    play_against_mirror(data, GAME, opponent)


GAME = "life_for_two"


def expected_reply(opponent: str, env: Any, i: int, stream: np.ndarray) -> int:
    """What the opponent of board ``i`` plays from its position now, drawing from a copy of
    the board's stream: the protocol agent for ``greedy``; the compiled players for
    ``random`` and for ``nash``, whose linear program may settle on another optimal
    strategy than scipy's (``tests/games/test_life_for_two_fast.py`` compares it with the
    agent)."""
    state, seat = env.position(i), 1 - env.player
    if opponent == "greedy":
        agent = make(opponent, game=GAME, seed=0)
        agent.rng = StreamGenerator(stream)
        return int(agent.act(state.view(seat), seat))
    ones, twos = board_to_bits(state.board)
    if opponent == "random":
        return int(fast.random_choice(ones | twos, state.turn, stream.copy(), 0))
    return int(fast.nash_choice(ones, twos, state.turn, seat, stream.copy(), 0))


def step_checking_replies(env: Any) -> tuple[Any, ...]:
    """One step of random legal actions, checking every board's opponent reply against
    :func:`expected_reply` for that board's opponent this episode."""
    streams = env._rng.copy()
    expected = {int(i): expected_reply(env.opponents[env._kinds[i]], env, int(i),
                                       streams[i:i + 1])
                for i in np.flatnonzero(~env._ended)}
    result = env.step(env.sample_actions())
    for i, reply in expected.items():
        assert env.opponent_actions[i] == reply
    return tuple(result)


@pytest.mark.parametrize(("opponent", "player"), [("greedy", 0), ("greedy", 1), ("nash", 1)])
def test_compiled_opponents_play_the_agents_moves(opponent: str, player: int) -> None:
    env = make_vector_env(GAME, 3, opponent=opponent, player=player,
                          params={"max_turns": 6})
    env.reset(seed=4)
    for _ in range(8):
        step_checking_replies(env)
    assert (env.opponent_actions >= 0).any()


def test_pool_of_two_compiled_opponents_plays_both_across_boards() -> None:
    env = make_vector_env(GAME, 16, opponent={"greedy": 1, "random": 1}, player=1,
                          params={"max_turns": 3})
    _, info = env.reset(seed=2)
    assert env.pool == ("greedy", "random")
    assert set(info["opponent"].tolist()) == {0, 1}
    kinds = set()
    for _ in range(7):  # across restarts, each board's opponent draws afresh
        kinds |= {(i, int(k)) for i, k in enumerate(env._kinds)}
        step_checking_replies(env)
    assert any((i, fast.GREEDY) in kinds and (i, fast.RANDOM) in kinds for i in range(16))
    again = make_vector_env(GAME, 16, opponent={"greedy": 1, "random": 1}, player=1)
    np.testing.assert_array_equal(again.reset(seed=2)[1]["opponent"], info["opponent"])


def first_legal(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """A frozen 'policy': the first legal action of each board."""
    return masks.argmax(axis=1)


@pytest.mark.parametrize("player", [0, 1])
def test_policy_opponent_equals_the_protocol_game_of_first_legal_replies(player: int) -> None:
    """The callback, asked once per step with the view of its own seat on the boards
    playing, picks its first legal action: the protocol game where that seat always does
    so gives the same observations, rewards and ends."""
    calls: list[tuple[np.ndarray, np.ndarray]] = []

    def policy(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        calls.append((observations.copy(), masks.copy()))
        return first_legal(observations, masks)

    env = make_vector_env(GAME, 3, opponent="policy", opponent_policy=policy, player=player,
                          params={"max_turns": 4})
    encoding = Encoding(GAME, env.params)
    seat = 1 - player
    env.reset(seed=7)
    assert not calls  # both seats choose at once: the policy is asked in the step
    states = [env.position(i, start=True) for i in range(3)]
    ended = [False] * 3
    finished = 0
    for _ in range(12):
        actions = env.sample_actions()
        calls.clear()
        seen, rewards, terminated, _, _ = env.step(actions)
        playing = [i for i in range(3) if not ended[i]]
        assert len(calls) == (1 if playing else 0)
        for k, i in enumerate(playing):
            state = states[i]
            observations, masks = calls[0]
            np.testing.assert_array_equal(observations[k], encoding.planes(state, seat))
            np.testing.assert_array_equal(masks[k], encoding.mask(state, seat).astype(bool))
            reply = int(np.flatnonzero(encoding.mask(state, seat))[0])
            assert env.opponent_actions[i] == reply
            joint = [reply, reply]
            joint[player] = int(actions[i])
            state.apply_actions(joint)
            assert terminated[i] == state.is_terminal()
            assert rewards[i] == (state.returns()[player] if state.is_terminal() else 0)
            np.testing.assert_array_equal(seen[i], encoding.planes(state, player))
        for i in range(3):
            if ended[i]:  # restarted by this step (NEXT_STEP)
                states[i] = env.position(i, start=True)
                np.testing.assert_array_equal(seen[i], encoding.planes(states[i], player))
        finished += int(terminated.sum())
        ended = terminated.tolist()
    assert finished >= 3


def test_illegal_policy_choice_is_refused_before_anything_changes() -> None:
    env = make_vector_env(GAME, 2, opponent="policy",
                          opponent_policy=lambda o, m: (~m).argmax(axis=1))
    env.reset(seed=0)
    before = env.observations.copy()
    with pytest.raises(BadParameterError, match="board 0, which is illegal there"):
        env.step(env.sample_actions())
    np.testing.assert_array_equal(env.observations, before)
    assert env.position(0).turn == 1


def test_seeds_are_per_board_whatever_the_batch() -> None:
    small = make_vector_env(GAME, 2, opponent="greedy", params={"max_turns": 3})
    large = make_vector_env(GAME, 5, opponent="greedy", params={"max_turns": 3})
    small.reset(seed=40)
    large.reset(seed=40)
    for _ in range(6):
        actions = large.sample_actions()
        np.testing.assert_array_equal(small.sample_actions(), actions[:2])
        a = small.step(actions[:2])
        b = large.step(actions)
        np.testing.assert_array_equal(a[0], b[0][:2])
        np.testing.assert_array_equal(a[1], b[1][:2])
        np.testing.assert_array_equal(small.opponent_actions, large.opponent_actions[:2])


def test_reset_mask_restarts_only_the_masked_boards() -> None:
    env = make_vector_env(GAME, 4, params={"max_turns": 20})
    env.reset(seed=5)  # four games still on after three turns
    for _ in range(3):
        env.step(env.sample_actions())
    before = [(env.position(i).position(), env.action_masks()[i]) for i in range(4)]
    assert all(position.endswith(" 4") for position, _ in before)
    mask = np.array([True, False, True, False])
    seen, info = env.reset(seed=[9, 9, 10, 10], options={"reset_mask": mask})
    fresh = make_vector_env(GAME, 2, params={"max_turns": 20})
    expected, expected_info = fresh.reset(seed=[9, 10])
    np.testing.assert_array_equal(seen[mask], expected)
    np.testing.assert_array_equal(info["action_mask"][mask], expected_info["action_mask"])
    for i in (1, 3):
        assert env.position(i).position() == before[i][0]
        np.testing.assert_array_equal(env.action_masks()[i], before[i][1])
    for _ in range(2):  # the restarted boards play on as the fresh ones
        actions, full = fresh.sample_actions(), env.sample_actions()
        np.testing.assert_array_equal(full[mask], actions)
        np.testing.assert_array_equal(env.step(full)[0][mask], fresh.step(actions)[0])
        np.testing.assert_array_equal(env.opponent_actions[mask], fresh.opponent_actions)
