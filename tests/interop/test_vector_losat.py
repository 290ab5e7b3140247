"""Losat's compiled vector environment beyond the shared checks of
``tests/interop/test_vector.py``: its compiled ``greedy`` opponent, opponent pools, the
policy opponent, ``reset_mask`` and same-step auto-reset, each against the protocol game."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium",
                                reason="needs Gymnasium: pip install -e '.[interop]'")

from lifearena.agents import make  # noqa: E402
from lifearena.errors import BadParameterError  # noqa: E402
from lifearena.games.losat import LosatState  # noqa: E402
from lifearena.interop.vector import make_vector_env  # noqa: E402

GAME = "losat"
PARAMS = {"width": 9, "length": 11, "max_moves": 40}


def first_legal(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """A frozen 'policy': the first legal action of each board."""
    return masks.argmax(axis=1)


def replay(env: Any, i: int) -> LosatState:
    """Board ``i``'s episode replayed on the protocol state from its history."""
    state = env.position(i, start=True)
    for action in env.history(i):
        state.apply_action(action)
    return state


@pytest.mark.parametrize("player", [0, 1])
def test_greedy_opponent_plays_the_agents_choices(player: int) -> None:
    """Every move of the compiled ``greedy`` is among the protocol agent's equally good
    moves on the same position (the two draw among them from different streams)."""
    env = make_vector_env(GAME, 3, opponent="greedy", player=player, params=PARAMS)
    env.reset(seed=7)
    agent = make("greedy", game=GAME, seed=0)
    checked = 0
    for _ in range(12):
        ended = env._ended.copy()
        for i in np.flatnonzero(~ended):  # the episode before this step, replayed
            state = env.position(i, start=True)
            for action in env.history(i):
                if state.current_player() != player:
                    assert action in agent.choices(state, 1 - player)  # type: ignore[attr-defined]
                    checked += 1
                state.apply_action(action)
        env.step(env.sample_actions())
    assert checked > 12


def test_pool_of_two_compiled_opponents_gives_both_kinds() -> None:
    """A pool of ``random`` and ``greedy`` draws both across the boards, each board's
    opponent plays as its kind (greedy's replies among the agent's choices), and the draw
    is the same whatever the batch."""
    env = make_vector_env(GAME, 24, opponent={"random": 1, "greedy": 1}, params=PARAMS)
    assert env.pool == ("random", "greedy")
    _, info = env.reset(seed=3)
    drawn = info["opponent"]
    assert set(drawn.tolist()) == {0, 1}
    agent = make("greedy", game=GAME, seed=0)
    off_greedy = 0
    for _ in range(6):
        env.step(env.sample_actions())
        for i in range(env.num_envs):
            state = env.position(i, start=True)
            for action in env.history(i):
                if state.current_player() == 1:
                    chosen = action in agent.choices(state, 1)  # type: ignore[attr-defined]
                    assert chosen or drawn[i] == 0  # greedy boards: always its choice
                    off_greedy += not chosen
                state.apply_action(action)
    assert off_greedy > 0  # the random boards strayed from greedy's choices
    small = make_vector_env(GAME, 5, opponent={"random": 1, "greedy": 1}, params=PARAMS)
    np.testing.assert_array_equal(small.reset(seed=3)[1]["opponent"], drawn[:5])


@pytest.mark.parametrize("player", [0, 1])
def test_policy_opponent_equals_the_protocol_with_first_legal_replies(player: int) -> None:
    """A policy callback choosing each board's first legal action plays the protocol game
    in which the opponent always plays its first legal action: the same positions,
    rewards and ends, and the callback sees the opponent's own mask."""
    seen: list[np.ndarray] = []

    def policy(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        seen.append(masks.copy())
        return first_legal(observations, masks)

    params = {"width": 7, "length": 9, "max_moves": 16}
    env = make_vector_env(GAME, 3, opponent="policy", opponent_policy=policy, player=player,
                          params=params)
    other = 1 - player

    def start(i: int) -> LosatState:
        state = env.position(i, start=True)
        if state.current_player() == other:  # the policy's first move
            state.apply_action(min(state.legal_actions()))
        return state

    env.reset(seed=7)
    assert len(seen) == (1 if player == 1 else 0)
    states = [start(i) for i in range(3)]
    ends = 0
    for _ in range(30):
        actions = env.sample_actions()
        ended_before = env._ended.copy()
        seen.clear()
        _, rewards, terminated, _, info = env.step(actions)
        for i, state in enumerate(states):
            if ended_before[i]:
                states[i] = start(i)
                continue
            state.apply_action(int(actions[i]))
            if not state.is_terminal():
                legal = state.legal_actions()
                mask = np.zeros(env.num_actions, bool)
                mask[legal] = True
                assert any(np.array_equal(row, mask) for rows in seen for row in rows)
                state.apply_action(min(legal))
            assert terminated[i] == state.is_terminal()
            assert rewards[i] == (state.returns()[player] if state.is_terminal() else 0)
            ends += bool(terminated[i])
            assert info["to_play"][i] == player
        for i, state in enumerate(states):
            assert replay(env, i).history() == state.history()
            np.testing.assert_array_equal(env.position(i).board, state.board)
            if not env._ended[i]:
                np.testing.assert_array_equal(np.flatnonzero(env.action_masks()[i]),
                                              state.legal_actions())
    assert ends >= 2


def test_a_policy_waits_with_its_view_and_the_learners_mask_empty() -> None:
    """While a policy opponent is to move, its callback gets the planes and its mask (the
    learner's mask is empty then); an illegal answer is refused with the board named."""
    calls: list[tuple[np.ndarray, np.ndarray, bool]] = []

    def policy(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        calls.append((observations.copy(), masks.copy(), bool(env.action_masks().any())))
        return first_legal(observations, masks)

    env = make_vector_env(GAME, 2, opponent="policy", opponent_policy=policy, player=1,
                          params=PARAMS)
    env.reset(seed=0)
    observations, masks, learner_may_move = calls[0]
    start = env.position(0, start=True)
    assert observations.shape == (2, 2, 11, 9) and not learner_may_move
    np.testing.assert_array_equal(observations[0], start.observation(0))
    assert np.flatnonzero(masks[0]).tolist() == start.legal_actions()
    assert env.action_masks().any(axis=1).all()  # after the replies: the learner's turn
    env.step(env.sample_actions())
    assert len(calls) == 2 and not calls[1][2]
    bad = make_vector_env(GAME, 2, opponent="policy", player=1, params=PARAMS,
                          opponent_policy=lambda o, m: (~m).argmax(axis=1))
    with pytest.raises(BadParameterError, match="on board 0, which is illegal there"):
        bad.reset(seed=0)


def test_reset_mask_restarts_only_the_masked_boards() -> None:
    env = make_vector_env(GAME, 4, opponent="greedy", params=PARAMS)
    env.reset(seed=1)
    for _ in range(4):
        env.step(env.sample_actions())
    before = [env.history(i) for i in range(4)]
    assert all(before)
    mask = np.array([True, False, True, False])
    seen, _ = env.reset(seed=[9, 9, 10, 10], options={"reset_mask": mask})
    fresh = make_vector_env(GAME, 2, opponent="greedy", params=PARAMS)
    expected, _ = fresh.reset(seed=[9, 10])
    np.testing.assert_array_equal(seen[mask], expected)
    assert env.history(0) == env.history(2) == []
    for i in (1, 3):
        assert env.history(i) == before[i]
    for _ in range(3):  # the restarted boards go on as the fresh ones do
        actions = fresh.sample_actions()
        both = env.sample_actions()
        both[mask] = actions
        np.testing.assert_array_equal(env.step(both)[0][mask], fresh.step(actions)[0])


def test_snapshot_restore_and_step_boards_for_search() -> None:
    """A search's moves on chosen boards, then the boards put back: positions, superko
    memory and masks as they were."""
    env = make_vector_env(GAME, 3, opponent="self", params=PARAMS)
    env.reset(seed=8)
    env.step(env.sample_actions())
    saved = env.snapshot()
    masks, histories = env.action_masks(), [env.history(i) for i in range(3)]
    active = np.array([True, False, True])
    for _ in range(3):
        env.step_boards(env.sample_actions(), active)
    assert env.history(1) == histories[1] and len(env.history(0)) == len(histories[0]) + 3
    env.restore(saved, np.array([True, False, False]))
    assert env.history(0) == histories[0] and env.history(2) != histories[2]
    env.restore(saved)
    np.testing.assert_array_equal(env.action_masks(), masks)
    for i in range(3):
        assert env.history(i) == histories[i]
        state = replay(env, i)
        np.testing.assert_array_equal(np.flatnonzero(masks[i]), state.legal_actions())
