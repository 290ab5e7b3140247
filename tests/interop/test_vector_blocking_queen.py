"""The blocking queen game's vector environment on the shared step loop: its compiled
opponents (greedy, perfect) play the agents' plies, opponent pools, a policy opponent whose
turn takes several plies, ``reset_mask`` and same-step auto-reset, each against the protocol
game played ply for ply."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium", reason="needs Gymnasium: pip install -e '.[interop]'")
pytest.importorskip("numba", reason="needs numba")

from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from lifearena.agents import make  # noqa: E402
from lifearena.core import State  # noqa: E402
from lifearena.interop.spaces import Encoding  # noqa: E402
from lifearena.interop.vector import make_vector_env  # noqa: E402

from ..games.test_blocking_queen_fast import greedy_choices  # noqa: E402
from .test_vector import SETTINGS, Mirror, choose_actions  # noqa: E402

GAME = "blocking_queen"
PARAMS = {"size": 8, "k": 3}


class AgentMirror(Mirror):
    """The protocol mirror that also checks every opponent ply is its agent's (perfect's
    exactly; greedy's among the moves it scores best, since it breaks ties at random)."""

    def opponent_moves(self, i: int, state: State) -> None:
        plies = self.env.history(i)[self.plies[i]:]
        if plies and not self.env.self_play:
            side = self.env.encoding.window.side
            trial = state.clone()
            for action in plies:
                seat = trial.current_player()
                if self.env.opponent == "perfect":
                    choice = self.agent.act(trial.view(seat), seat)
                    assert self.encoding.window.from_game(choice) == action
                else:
                    assert action in greedy_choices(trial, side)
                trial.apply_action(self.encoding.window.to_game(action))
        super().opponent_moves(i, state)


@pytest.mark.parametrize("opponent", ["greedy", "perfect"])
@SETTINGS
@given(data=st.data())
def test_compiled_opponents_play_as_the_agents(opponent: str, data: st.DataObject) -> None:
    params = data.draw(st.sampled_from([PARAMS, {"size": 6, "k": 1}, {"size": 9, "k": 2}]))
    env = make_vector_env(GAME, data.draw(st.integers(1, 3)), opponent=opponent,
                          player=data.draw(st.integers(0, 1)), params=params)
    seen, info = env.reset(seed=data.draw(st.integers(0, 2**32)))
    mirror = AgentMirror(env)
    mirror.check_reset(seen, info)
    for _ in range(data.draw(st.integers(1, 15))):
        actions = choose_actions(data, env)
        mirror.check_step(actions, env.step(actions))


def test_a_pool_of_two_compiled_opponents_plays_both_across_boards() -> None:
    env = make_vector_env(GAME, 24, opponent={"greedy": 1, "perfect": 1}, player=1,
                          params=PARAMS)
    assert env.pool == ("greedy", "perfect")
    perfect = make("perfect", game=GAME)
    _, info = env.reset(seed=4)
    assert set(info["opponent"].tolist()) == {0, 1}
    for _ in range(4):
        for i in range(env.num_envs):  # every opponent ply this episode is its agent's
            state = env.position(i, start=True)
            for action in env.history(i):
                if state.current_player() == 0 and env.pool[info["opponent"][i]] == "perfect":
                    expected = perfect.act(state.view(0), 0)
                    assert env.encoding.window.from_game(expected) == action
                elif state.current_player() == 0:
                    assert action in greedy_choices(state, env.encoding.window.side)
                state.apply_action(env.encoding.window.to_game(action))
        _, _, _, _, info = env.step(env.sample_actions())


def first_legal(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """A frozen 'policy': the first legal action of each board."""
    return masks.argmax(axis=1)


@pytest.mark.parametrize("player", [0, 1])
def test_a_policy_opponent_plays_its_whole_turn(player: int) -> None:
    env: Any = None
    encoding = Encoding(GAME, PARAMS)
    other = 1 - player
    calls = 0

    def policy(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """The first legal action, after checking it is shown the waiting boards from its
        own seat, as the protocol sees them."""
        nonlocal calls
        calls += 1
        boards = np.flatnonzero(env._waiting)
        assert len(boards) == len(observations) == len(masks)
        for row, i in enumerate(boards):
            state = env.position(i)
            assert state.current_player() == other
            np.testing.assert_array_equal(observations[row], encoding.planes(state, other))
            np.testing.assert_array_equal(masks[row], encoding.mask(state, other))
        return first_legal(observations, masks)

    def opponent_turn(state: State) -> None:
        while state.current_player() == other:
            mask = encoding.mask(state, other)
            state.apply_action(encoding.window.to_game(int(np.flatnonzero(mask)[0])))

    def start(i: int) -> State:
        state = env.position(i, start=True)
        opponent_turn(state)
        return state

    env = make_vector_env(GAME, 4, opponent="policy", opponent_policy=policy, player=player,
                          params=PARAMS)
    seen, _ = env.reset(seed=7)
    states = [start(i) for i in range(4)]
    ended = [state.is_terminal() for state in states]
    blocked_plies = 0
    for _ in range(30):
        actions = env.sample_actions()
        seen, rewards, terminated, _, _ = env.step(actions)
        for i, state in enumerate(states):
            if ended[i]:
                states[i] = state = start(i)
            else:
                state.apply_action(encoding.window.to_game(int(actions[i])))
                before = len(state.history())
                opponent_turn(state)
                blocked_plies += max(len(state.history()) - before - 1, 0)
            # a restarted board may end at once: the policy's first turn can win outright
            assert terminated[i] == state.is_terminal()
            assert rewards[i] == (state.returns()[player] if terminated[i] else 0)
            ended[i] = state.is_terminal()
            assert env.history(i) == [encoding.window.from_game(a) for a in state.history()]
            np.testing.assert_array_equal(seen[i], encoding.planes(state, player))
    assert calls > 0 and blocked_plies > 0  # turns of several plies were asked for


def test_reset_mask_restarts_only_the_masked_boards() -> None:
    env = make_vector_env(GAME, 4, opponent="greedy", params=PARAMS)
    env.reset(seed=1)
    for _ in range(3):
        env.step(env.sample_actions())
    before = [(env.history(i), env.position(i, start=True).setup()) for i in range(4)]
    seen_before = env.observations.copy()
    mask = np.array([True, False, True, False])
    seen, _ = env.reset(seed=[9, 9, 10, 10], options={"reset_mask": mask})
    fresh = make_vector_env(GAME, 2, opponent="greedy", params=PARAMS)
    expected, _ = fresh.reset(seed=[9, 10])
    np.testing.assert_array_equal(seen[mask], expected)
    for i, j in ((0, 0), (2, 1)):
        assert env.position(i, start=True).setup() == fresh.position(j, start=True).setup()
    for i in (1, 3):
        assert (env.history(i), env.position(i, start=True).setup()) == before[i]
        np.testing.assert_array_equal(seen[i], seen_before[i])


def test_snapshot_restore_and_step_boards_for_search() -> None:
    env = make_vector_env(GAME, 3, opponent="self", params=PARAMS)
    seen, _ = env.reset(seed=8)
    first = seen.copy()
    saved = env.snapshot()
    starts = [env.position(i).key() for i in range(3)]
    active = np.array([True, False, True])
    env.step_boards(env.sample_actions(), active)
    assert [env.position(i).key() == starts[i] for i in range(3)] == [False, True, False]
    env.restore(saved, np.array([True, False, False]))
    assert env.position(0).key() == starts[0] and env.history(0) == []
    np.testing.assert_array_equal(env.observations[0], first[0])
    env.restore(saved)
    np.testing.assert_array_equal(env.observations, first)
    np.testing.assert_array_equal(env.action_masks(), saved["_mask"])
    env.step_boards(env.sample_actions(), np.ones(3, bool))  # the buffers redraw from there
    for i in range(3):
        np.testing.assert_array_equal(env.observations[i],
                                      Encoding(GAME, PARAMS).planes(env.position(i),
                                                                    int(env.to_play[i])))
