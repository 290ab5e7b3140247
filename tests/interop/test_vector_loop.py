"""The vector environments' shared step loop (``interop/vector/base.py``) on War of Life:
opponent pools, the policy opponent, per-board seeds, ``reset_mask`` and both auto-reset
modes, each checked against the protocol game played move for move."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium", reason="needs Gymnasium: pip install -e '.[interop]'")
pytest.importorskip("numba", reason="needs numba")

from lifearena.agents import make  # noqa: E402
from lifearena.errors import BadParameterError  # noqa: E402
from lifearena.interop.spaces import Encoding  # noqa: E402
from lifearena.interop.vector import make_vector_env  # noqa: E402

GAME = "war_of_life"


def first_legal(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """A frozen 'policy': the first legal action of each board."""
    return masks.argmax(axis=1)


def test_pool_draws_per_board_and_plays_each_opponents_moves() -> None:
    env = make_vector_env(GAME, 64, opponent={"bloodlust": 1, "minimax": 3}, player=1)
    assert env.pool == ("bloodlust", "minimax")
    _, info = env.reset(seed=2)
    drawn = info["opponent"]
    assert set(drawn.tolist()) == {0, 1} and 30 < int(drawn.sum()) < 64
    agents = [make(name, game=GAME, seed=0) for name in env.pool]
    for i in range(env.num_envs):  # the opponent's first move is its agent's
        start = env.position(i, start=True)
        assert env.opponent_actions[i] == agents[drawn[i]].act(start.view(0), 0)
    again = make_vector_env(GAME, 64, opponent={"bloodlust": 1, "minimax": 3}, player=1)
    np.testing.assert_array_equal(again.reset(seed=2)[1]["opponent"], drawn)


def test_pool_with_self_play_boards() -> None:
    env = make_vector_env(GAME, 32, opponent=["self", "random"])
    _, info = env.reset(seed=0)
    selfish = info["opponent"] == 0
    assert selfish.any() and (~selfish).any()
    _, _, terminated, _, info = env.step(env.sample_actions())
    live = ~terminated
    # self-play boards show the side to move (red after blue's move), the others blue again
    assert (info["to_play"][selfish & live] == 1).all()
    assert (info["to_play"][~selfish & live] == 0).all()


@pytest.mark.parametrize("player", [0, 1])
def test_policy_opponent_equals_the_protocol(player: int) -> None:
    seen: list[tuple[np.ndarray, np.ndarray]] = []

    def policy(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        seen.append((observations.copy(), masks.copy()))
        return first_legal(observations, masks)

    env = make_vector_env(GAME, 3, opponent="policy", opponent_policy=policy, player=player)
    encoding = Encoding(GAME, env.params)
    other = 1 - player

    def start(i: int) -> Any:
        state = env.position(i, start=True)
        if player == 1:  # the policy's first move: its first legal action
            state.apply_action(int(np.flatnonzero(encoding.mask(state, 0))[0]))
        return state

    env.reset(seed=7)
    assert len(seen) == (1 if player == 1 else 0)
    states = [start(i) for i in range(3)]
    for _ in range(12):
        actions = env.sample_actions()
        ended_before = env._ended.copy()
        seen.clear()
        _, rewards, terminated, _, _ = env.step(actions)
        waited = [state for i, state in enumerate(states) if not ended_before[i]]
        for i, state in enumerate(states):
            if ended_before[i]:
                states[i] = start(i)
                continue
            state.apply_action(int(actions[i]))
            if not state.is_terminal():
                mask = encoding.mask(state, other).astype(bool)
                assert any(np.array_equal(row, mask) for _, rows in seen for row in rows)
                state.apply_action(int(np.flatnonzero(mask)[0]))
            assert terminated[i] == state.is_terminal()
            assert rewards[i] == (state.returns()[player] if state.is_terminal() else 0)
        assert waited or not seen
        for i, state in enumerate(states):
            np.testing.assert_array_equal(env.position(i).observation(0), state.observation(0))


def test_policy_opponent_sees_its_own_seat() -> None:
    calls: list[np.ndarray] = []

    def policy(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        calls.append(observations)
        return first_legal(observations, masks)

    env = make_vector_env(GAME, 2, opponent="policy", opponent_policy=policy, player=1)
    env.reset(seed=3)
    assert len(calls) == 1 and calls[0].shape == (2, 3, 8, 8)
    encoding = Encoding(GAME, env.params)
    for i in range(2):
        np.testing.assert_array_equal(calls[0][i],
                                      encoding.planes(env.position(i, start=True), 0))


def test_bad_policy_answers_are_refused() -> None:
    env = make_vector_env(GAME, 2, opponent="policy", player=1,
                          opponent_policy=lambda o, m: np.zeros(3, np.int64))
    with pytest.raises(BadParameterError, match="expected 2 integers"):
        env.reset(seed=0)
    env = make_vector_env(GAME, 2, opponent="policy", player=1,
                          opponent_policy=lambda o, m: (~m).argmax(axis=1))
    with pytest.raises(BadParameterError, match="illegal there"):
        env.reset(seed=0)


def test_seeds_are_per_board_whatever_the_batch() -> None:
    small = make_vector_env(GAME, 2, opponent="random")
    large = make_vector_env(GAME, 5, opponent="random")
    a, _ = small.reset(seed=40)
    b, _ = large.reset(seed=40)
    np.testing.assert_array_equal(a, b[:2])
    for _ in range(5):
        np.testing.assert_array_equal(small.sample_actions(), large.sample_actions()[:2])
    single = make_vector_env(GAME, 1)
    c, _ = single.reset(seed=44)
    np.testing.assert_array_equal(c[0], b[4])
    listed = make_vector_env(GAME, 2)
    d, _ = listed.reset(seed=[44, 40])
    np.testing.assert_array_equal(d, b[[4, 0]])


def test_reset_mask_restarts_only_the_masked_boards() -> None:
    env = make_vector_env(GAME, 4)
    env.reset(seed=1)
    for _ in range(3):
        env.step(env.sample_actions())
    before = [env.position(i).observation(0) for i in range(4)]
    mask = np.array([True, False, True, False])
    seen, _ = env.reset(seed=[9, 9, 10, 10], options={"reset_mask": mask})
    fresh = make_vector_env(GAME, 2)
    expected, _ = fresh.reset(seed=[9, 10])
    np.testing.assert_array_equal(seen[mask], expected)
    for i in (1, 3):
        np.testing.assert_array_equal(env.position(i).observation(0), before[i])
    with pytest.raises(BadParameterError, match="reset_mask of shape"):
        env.reset(options={"reset_mask": [1, 0]})


SAME_STEP_CASES = [("war_of_life", "minimax", {}),
                   ("life_for_two", "greedy", {"max_turns": 3}),
                   ("p2life", "greedy", {"size": 4, "max_generations": 3}),
                   ("losat", "greedy", {"width": 7, "length": 9, "max_moves": 12}),
                   ("blocking_queen", "perfect", {"size": 12})]
"""Every game with a compiled opponent and parameters whose games end within a few steps."""


@pytest.mark.parametrize(("game", "opponent", "params"), SAME_STEP_CASES)
def test_same_step_gives_the_final_and_the_next_first_observation(
        game: str, opponent: str, params: dict[str, Any]) -> None:
    env = make_vector_env(game, 1, opponent=opponent, params=params,
                          autoreset_mode="same_step")
    assert env.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.SAME_STEP
    twin = make_vector_env(game, 1, opponent=opponent, params=params)  # NEXT_STEP
    env.reset(seed=5)
    twin.reset(seed=5)
    ended = 0
    for _ in range(60):
        actions = env.sample_actions()
        twin_seen, twin_rewards, twin_terminated, _, _ = twin.step(actions)
        seen, rewards, terminated, _, info = env.step(actions)
        np.testing.assert_array_equal(rewards, twin_rewards)
        np.testing.assert_array_equal(terminated, twin_terminated)
        if terminated[0]:
            ended += 1
            assert info["_final_obs"][0] and info["_final_info"][0]
            np.testing.assert_array_equal(info["final_obs"][0], twin_seen[0])
            restarted, *_ = twin.step(np.zeros(1, np.int64))  # the twin's next episode
            np.testing.assert_array_equal(seen, restarted)
            np.testing.assert_array_equal(env.action_masks(), twin.action_masks())
            np.testing.assert_array_equal(env.position(0).observation(0),
                                          twin.position(0).observation(0))
            assert env.action_masks()[0].any()
        else:
            assert "final_obs" not in info
            np.testing.assert_array_equal(seen, twin_seen)
    assert ended >= 3


def test_masks_survive_gymnasium_wrappers() -> None:
    from gymnasium.wrappers.vector import RecordEpisodeStatistics

    env = RecordEpisodeStatistics(make_vector_env(GAME, 3))
    _, info = env.reset(seed=0)
    assert info["action_mask"].shape == (3, 512) and info["to_play"].tolist() == [0, 0, 0]
    _, _, _, _, info = env.step(env.unwrapped.sample_actions())
    assert info["action_mask"].any()


@pytest.mark.parametrize(("options", "message"), [
    ({"opponent": {"random": -1}}, "opponent weight random=-1"),
    ({"opponent": {"random": 0}}, "expected some weight > 0"),
    ({"opponent": []}, "expected a name, a list of names"),
    ({"opponent": "policy"}, "needs a callable"),
    ({"opponent": "random", "opponent_policy": first_legal}, "no \"policy\" opponent"),
    ({"autoreset_mode": "later"}, "autoreset_mode='later'"),
])
def test_bad_loop_options(options: dict[str, Any], message: str) -> None:
    with pytest.raises(BadParameterError, match=message):
        make_vector_env(GAME, 2, **options)


def test_bad_seeds() -> None:
    env = make_vector_env(GAME, 2)
    for seed, message in [(-1, "seed=-1"), ([1, 2, 3], "seed of shape"), (1.5, "seed of")]:
        with pytest.raises(BadParameterError, match=message):
            env.reset(seed=seed)  # type: ignore[arg-type]


def test_snapshot_restore_and_step_boards_for_search() -> None:
    env = make_vector_env(GAME, 3, opponent="self")
    seen, _ = env.reset(seed=8)
    saved = env.snapshot()
    first = seen.copy()
    actions = env.sample_actions()
    active = np.array([True, False, True])
    rewards, terminated = env.step_boards(actions, active)
    assert rewards[1] == 0 and not terminated.any()
    assert not np.array_equal(env.observations[0], first[0])  # board 0 moved: red's view
    np.testing.assert_array_equal(env.observations[1], first[1])  # board 1 did not
    assert env.to_play.tolist() == [1, 0, 1]
    env.restore(saved, np.array([True, False, False]))
    np.testing.assert_array_equal(env.observations[0], first[0])
    assert env.to_play.tolist() == [0, 0, 1]
    env.restore(saved)
    np.testing.assert_array_equal(env.observations, first)
    with pytest.raises(BadParameterError, match="needs opponent='self'"):
        make_vector_env(GAME, 1).step_boards([0], np.ones(1, bool))
    with pytest.raises(BadParameterError, match="expected a snapshot"):
        env.restore({"_obs": first})


def test_a_policy_that_wins_before_the_learner_moves_gets_another_start() -> None:
    # the queen game: a start in line with the corner is won by the first mover at once
    def corner_first(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        return np.where(masks[:, 0], 0, masks.argmax(axis=1))

    env = make_vector_env("blocking_queen", 64, opponent="policy", player=1,
                          opponent_policy=corner_first, params={"size": 6})
    _, info = env.reset(seed=0)
    # without another draw, the boards whose start the policy won at once would come back
    # finished, their masks empty
    assert info["action_mask"].any(axis=1).all() and not env._ended.any()
    assert not any(env.position(i).is_terminal() for i in range(64))
