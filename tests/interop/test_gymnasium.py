"""Gymnasium's env checker on every lifearena game, and the environment's contract."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium", reason="needs Gymnasium: pip install -e '.[interop]'")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from lifearena.agents.base import Limit  # noqa: E402
from lifearena.errors import BadParameterError, IllegalMoveError  # noqa: E402
from lifearena.interop.gymnasium import LifeArenaEnv  # noqa: E402

CASES = {
    "war_of_life": ({}, "bloodlust"),
    "life_for_two": ({"max_turns": 8}, "greedy"),
    "losat": ({"width": 9, "length": 11, "max_moves": 40}, "greedy"),
    "p2life": ({"size": 6, "max_generations": 12}, "greedy"),
    "blocking_queen": ({"size": 12}, "perfect"),
}


@pytest.mark.parametrize("player", [0, 1])
@pytest.mark.parametrize("game", sorted(CASES))
def test_check_env(game: str, player: int) -> None:
    params, opponent = CASES[game]
    env = gymnasium.make(f"lifearena/{game}-v0", opponent=opponent, params=params,
                         player=player, render_mode="ansi",
                         observation="flat" if player else "planes")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # the checker's note on all-zero planes
        check_env(env.unwrapped)


@pytest.mark.parametrize("game", sorted(CASES))
def test_action_masks_are_the_learners_legal_actions(game: str) -> None:
    params, opponent = CASES[game]
    env = gymnasium.make(f"lifearena/{game}-v0", opponent=opponent, params=params, player=1)
    rng = np.random.default_rng(0)
    for seed in range(3):
        _, info = env.reset(seed=seed)
        done = False
        while not done:
            masks = env.get_wrapper_attr("action_masks")()  # how sb3-contrib asks for them
            assert masks.dtype == bool and masks.shape == (env.action_space.n,)
            np.testing.assert_array_equal(masks, info["action_mask"].astype(bool))
            assert masks.sum() == len(env.unwrapped.game_state.legal_actions(1)) > 0
            sampled = int(env.action_space.sample())  # unmasked samples are legal too
            assert masks[sampled]
            _, _, done, _, info = env.step(int(rng.choice(np.flatnonzero(masks))))
        assert not env.get_wrapper_attr("action_masks")().any()


def test_observation_layouts() -> None:
    planes = LifeArenaEnv("p2life", params={"size": 6})
    observation, _ = planes.reset(seed=0)
    assert planes.observation_space == gymnasium.spaces.Box(0.0, 1.0, (2, 6, 6), np.float32)
    assert observation.dtype == np.float32 and observation in planes.observation_space
    np.testing.assert_array_equal(observation, planes.game_state.observation(0))
    flat = LifeArenaEnv("p2life", params={"size": 6}, observation="flat")
    seen, _ = flat.reset(seed=0)
    # one dimension: the layout Stable-Baselines3's check_env accepts without an image warning
    assert flat.observation_space.shape == (72,) and seen.shape == (72,)
    np.testing.assert_array_equal(seen, observation.reshape(-1))
    classic = LifeArenaEnv("p2life", params={"size": 6}, mask_in_obs=True)
    both, info = classic.reset(seed=0)
    assert set(classic.observation_space.spaces) == {"observation", "action_mask"}
    np.testing.assert_array_equal(both["action_mask"], info["action_mask"])


def test_spaces_follow_the_game_parameters() -> None:
    assert LifeArenaEnv("p2life", params={"size": 12}).action_space.n == 289
    queen = LifeArenaEnv("blocking_queen", params={"size": 12}, opponent="perfect")
    assert queen.action_space.n == 289 and queen.observation_space.shape == (4, 12, 12)
    losat = LifeArenaEnv("losat", params={"width": 9, "length": 11})
    assert losat.action_space.n == 4 * 9 * 11 + 1
    assert losat.observation_space.shape == (2, 11, 9)


def test_reset_never_hands_over_a_finished_game() -> None:
    for opponent, seed in (("random", 86), ("perfect", 2)):  # each ended the game at once
        env = LifeArenaEnv("blocking_queen", opponent=opponent, player=1)
        _, info = env.reset(seed=seed)
        assert not env.game_state.is_terminal() and info["action_mask"].any()
    # from (1, 1) the perfect first player always takes the queen home at once
    hopeless = LifeArenaEnv("blocking_queen", opponent="perfect", player=1,
                            params={"start": "square", "x": 1, "y": 1})
    with pytest.raises(BadParameterError, match="ended all of 100 games before the learner"):
        hopeless.reset(seed=0)


def _play_out(env: LifeArenaEnv, seed: int) -> tuple[list[int], float, dict]:
    _, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    actions, reward, done = [], 0.0, False
    while not done:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        actions.append(action)
        _, reward, done, truncated, info = env.step(action)
        assert not truncated
    return actions, reward, info


def test_an_episode_ends_with_the_learners_return() -> None:
    env = LifeArenaEnv("war_of_life", opponent="alphabeta", level="depth=1", player=1)
    _, reward, info = _play_out(env, seed=4)
    state = env.game_state
    assert state.is_terminal() and reward == state.returns()[1]
    assert info["outcome"] == str(state.outcome())
    assert state.move_number() == info["moves"]


def test_a_seed_replays_the_episode() -> None:
    env = LifeArenaEnv("life_for_two", opponent="greedy", params={"max_turns": 10})
    first = _play_out(env, seed=7)
    history = env.game_state.history()
    assert _play_out(env, seed=7)[:2] == first[:2]
    assert env.game_state.history() == history
    assert all(isinstance(item, tuple) for item in history)  # both choices applied together


def test_opponent_and_level_are_constructor_arguments() -> None:
    env = LifeArenaEnv("losat", opponent="alphabeta", level=Limit(depth=1),
                       params={"width": 9, "length": 11})
    assert env.level == Limit(depth=1) and env.opponent_name == "alphabeta"
    env.reset(seed=0)
    assert env.game_state.current_player() == 0  # the learner moves first
    with pytest.raises(BadParameterError, match="unknown agent 'nobody'"):
        LifeArenaEnv("losat", opponent="nobody")


def test_illegal_actions_forfeit_or_raise() -> None:
    env = LifeArenaEnv("war_of_life")
    _, info = env.reset(seed=1)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert (reward, terminated) == (-1.0, True)
    assert info["illegal_action"].startswith("illegal move")
    assert not env.action_masks().any() and env.game_state.history() == []
    with pytest.raises(BadParameterError, match="episode is over"):
        env.step(illegal)
    strict = LifeArenaEnv("war_of_life", illegal="raise")
    strict.reset(seed=1)
    with pytest.raises(IllegalMoveError, match="illegal move"):
        strict.step(illegal)
    assert strict.game_state.history() == [] and strict.action_masks().any()
    simultaneous = LifeArenaEnv("life_for_two")
    simultaneous.reset(seed=1)
    _, _, _, _, info = simultaneous.step(0)  # a single cell on the three-piece turn
    assert "illegal move" in info["illegal_action"]
    outside = LifeArenaEnv("p2life", params={"size": 6})
    outside.reset(seed=0)
    assert "outside Discrete(73)" in outside.step(73)[4]["illegal_action"]


def test_human_render_prints_every_step(capsys: pytest.CaptureFixture[str]) -> None:
    env = LifeArenaEnv("war_of_life", render_mode="human", opponent="bloodlust")
    _, info = env.reset(seed=0)
    env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert env.render() is None
    printed = capsys.readouterr().out
    assert printed.count(str(env.game_state)) == 2  # after the step, and render()


def test_bad_construction_raises_the_librarys_errors() -> None:
    with pytest.raises(BadParameterError, match="unknown game 'go'"):
        LifeArenaEnv("go")
    with pytest.raises(BadParameterError, match="player 2"):
        LifeArenaEnv("war_of_life", player=2)
    with pytest.raises(BadParameterError, match="render_mode 'text'"):
        LifeArenaEnv("war_of_life", render_mode="text")
    with pytest.raises(BadParameterError, match="unknown parameter 'size'"):
        LifeArenaEnv("war_of_life", params={"size": 3})
    with pytest.raises(BadParameterError, match="illegal='pass'"):
        LifeArenaEnv("war_of_life", illegal="pass")


def test_rgb_array_render() -> None:
    env = LifeArenaEnv("blocking_queen", params={"size": 12}, render_mode="rgb_array")
    env.reset(seed=0)
    image = env.render()
    assert image.dtype == np.uint8 and image.shape == (256, 256, 3)


def test_spaces_follow_the_parameters() -> None:
    from lifearena.core import get_game
    from lifearena.interop.games import new_state, spaces_of

    for size in (6, 12):
        state = new_state("p2life", {"size": size})
        observation, action = spaces_of(state)
        assert action.n == 2 * size * size + 1 == get_game("p2life", size=size).num_distinct_actions
        assert observation["observation"].shape == (2, size, size)
    state = new_state("losat", {"width": 9, "length": 11, "gap": 5})
    assert spaces_of(state)[1].n == get_game("losat", width=9, length=11,
                                             gap=5).num_distinct_actions
