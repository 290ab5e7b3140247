"""p2life's vector environment on the shared step loop: the compiled greedy opponent, opponent
pools, a frozen policy as the opponent of a simultaneous game, ``reset_mask`` and same-step
auto-reset, each checked against the protocol game played move for move."""

from __future__ import annotations

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium", reason="needs Gymnasium: pip install -e '.[interop]'")
pytest.importorskip("numba", reason="needs numba")

from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from lifearena.agents.p2life import score_moves  # noqa: E402
from lifearena.errors import BadParameterError  # noqa: E402
from lifearena.games.p2life import P2LifeState  # noqa: E402
from lifearena.interop.spaces import Encoding  # noqa: E402
from lifearena.interop.vector import make_vector_env  # noqa: E402

from .test_vector import SETTINGS, play_against_mirror  # noqa: E402

GAME = "p2life"
SMALL = {"size": 5, "max_generations": 6}


def last_legal(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """A frozen 'policy': each board's last legal action (its first is always the pass)."""
    return masks.shape[1] - 1 - masks[:, ::-1].argmax(axis=1)


def greedy_best(state: P2LifeState, seat: int) -> set[int]:
    """The moves the protocol's greedy agent chooses among for ``seat``."""
    legal = state.legal_actions(seat)
    scores = score_moves(state, seat, legal)
    return {a for a, s in zip(legal, scores, strict=True) if s == scores.max()}


@pytest.mark.parametrize("opponent", ["greedy"])
@SETTINGS
@given(data=st.data())
def test_greedy_opponent_equals_the_protocol(opponent: str, data: st.DataObject) -> None:
    play_against_mirror(data, GAME, opponent)


@pytest.mark.parametrize("player", [0, 1])
def test_pool_of_random_and_greedy_plays_each_opponents_moves(player: int) -> None:
    env = make_vector_env(GAME, 16, opponent={"random": 1, "greedy": 1}, player=player,
                          params=SMALL)
    assert env.pool == ("random", "greedy")
    _, info = env.reset(seed=4)
    kinds = info["opponent"]
    assert set(kinds.tolist()) == {0, 1}
    seat = 1 - player
    for _ in range(12):
        before = [env.position(i) for i in range(16)]
        restarting = env._ended.copy()
        actions = env.sample_actions()
        _, rewards, terminated, _, info = env.step(actions)
        for i, state in enumerate(before):
            if restarting[i]:
                continue
            reply = int(env.opponent_actions[i])
            if kinds[i] == 1:
                assert reply in greedy_best(state, seat)
            else:
                assert reply in state.legal_actions(seat)
            joint = [reply, reply]
            joint[player] = int(actions[i])
            state.apply_actions(joint)
            np.testing.assert_array_equal(env.position(i).board, state.board)
            assert terminated[i] == state.is_terminal()
            assert rewards[i] == (state.returns()[player] if state.is_terminal() else 0)
        kinds = info["opponent"]  # boards that restarted drew again


@pytest.mark.parametrize("player", [0, 1])
def test_policy_opponent_equals_the_protocol(player: int) -> None:
    """A policy that always plays its last legal action against the protocol game in which
    the opponent does the same; the policy sees its own seat's view of the boards it plays
    (half the pool; the random boards never reach it)."""
    asked: list[tuple[np.ndarray, np.ndarray]] = []

    def policy(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        asked.append((observations.copy(), masks.copy()))
        return last_legal(observations, masks)

    env = make_vector_env(GAME, 6, opponent=["policy", "random"], opponent_policy=policy,
                          player=player, params=SMALL)
    encoding = Encoding(GAME, env.params)
    seat = 1 - player
    _, info = env.reset(seed=3)
    assert not asked  # a simultaneous game: nobody moves before the learner
    states = [env.position(i, start=True) for i in range(6)]
    played = 0
    for _ in range(15):
        restarting = env._ended.copy()
        policy_boards = (info["opponent"] == 0) & ~restarting
        actions = env.sample_actions()
        asked.clear()
        _, rewards, terminated, _, info = env.step(actions)
        if policy_boards.any():
            (observations, masks), = asked
            expected = [s for i, s in enumerate(states) if policy_boards[i]]
            np.testing.assert_array_equal(
                observations, np.stack([encoding.planes(s, seat) for s in expected]))
            np.testing.assert_array_equal(
                masks, np.stack([encoding.mask(s, seat) for s in expected]).astype(bool))
        else:
            assert not asked
        for i, state in enumerate(states):
            if restarting[i]:
                states[i] = env.position(i, start=True)
                continue
            reply = int(env.opponent_actions[i])
            if policy_boards[i]:
                assert reply == state.legal_actions(seat)[-1]
                played += 1
            joint = [reply, reply]
            joint[player] = int(actions[i])
            state.apply_actions(joint)
            np.testing.assert_array_equal(env.position(i).board, state.board)
            assert terminated[i] == state.is_terminal()
            assert rewards[i] == (state.returns()[player] if state.is_terminal() else 0)
    assert played > 10


def test_an_illegal_policy_action_is_refused_and_changes_nothing() -> None:
    env = make_vector_env(GAME, 2, opponent="policy", params=SMALL,
                          opponent_policy=lambda o, m: (~m).argmax(axis=1))
    env.reset(seed=0)
    before = [env.position(i).board.copy() for i in range(2)]
    occupied = int(np.flatnonzero(before[0].reshape(-1))[0]) + 1  # placing on a token
    with pytest.raises(BadParameterError, match=f"opponent_policy chose action {occupied} "
                                                f"on board 0, which is illegal there"):
        env.step(env.sample_actions())
    for i in range(2):
        np.testing.assert_array_equal(env.position(i).board, before[i])
    outside = make_vector_env(GAME, 1, opponent="policy", params=SMALL,
                              opponent_policy=lambda o, m: np.full(len(m), 10**6))
    outside.reset(seed=0)
    with pytest.raises(BadParameterError, match="chose action 1000000 on board 0"):
        outside.step(outside.sample_actions())


def test_self_play_boards_in_a_pool_wait_for_seat_one() -> None:
    env = make_vector_env(GAME, 12, opponent=["self", "greedy"], params=SMALL)
    _, info = env.reset(seed=1)
    selfish = info["opponent"] == 0
    assert selfish.any() and (~selfish).any()
    before = [env.position(i).board.copy() for i in range(12)]
    _, _, terminated, _, info = env.step(env.sample_actions())
    assert (info["to_play"][selfish] == 1).all() and not terminated[selfish].any()
    for i in np.flatnonzero(selfish):  # seat 0's choice is held back, unseen
        np.testing.assert_array_equal(env.position(i).board, before[i])
    assert (info["to_play"][~selfish] == 0).all()
    assert (env.opponent_actions[selfish] == -1).all()
    assert (env.opponent_actions[~selfish] >= 0).all()


def test_seeds_and_reset_mask_are_per_board() -> None:
    env = make_vector_env(GAME, 4, opponent="greedy", params=SMALL)
    seen, _ = env.reset(seed=1)
    single = make_vector_env(GAME, 1, opponent="greedy", params=SMALL)
    np.testing.assert_array_equal(single.reset(seed=4)[0][0], seen[3])  # board 3: seed 1 + 3
    for _ in range(3):
        env.step(env.sample_actions())
    before = [env.position(i) for i in range(4)]
    mask = np.array([True, False, True, False])
    seen, _ = env.reset(seed=[9, 9, 10, 10], options={"reset_mask": mask})
    fresh = make_vector_env(GAME, 2, opponent="greedy", params=SMALL)
    expected, _ = fresh.reset(seed=[9, 10])
    np.testing.assert_array_equal(seen[mask], expected)
    for i in (0, 2):
        assert env.position(i).generation == 0
    for i in (1, 3):
        now = env.position(i)
        np.testing.assert_array_equal(now.board, before[i].board)
        assert now.generation == before[i].generation


def test_snapshot_and_restore() -> None:
    env = make_vector_env(GAME, 3, opponent="self", params=SMALL)
    seen, _ = env.reset(seed=8)
    saved = env.snapshot()
    first = seen.copy()
    for _ in range(4):
        env.step_boards(env.sample_actions(), np.array([True, False, True]))
    env.restore(saved)
    np.testing.assert_array_equal(env.observations, first)
    np.testing.assert_array_equal(env.position(0).board, env.position(0, start=True).board)
