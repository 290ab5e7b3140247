"""Gymnasium's env checker on every lifearena game, and the environment's contract."""

from __future__ import annotations

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

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


@pytest.mark.parametrize("player", [0, 1])
@pytest.mark.parametrize("game", sorted(CASES))
def test_check_env(game: str, player: int) -> None:
    params, opponent = CASES[game]
    env = gymnasium.make(f"lifearena/{game}-v0", opponent=opponent, params=params,
                         player=player, render_mode="ansi")
    check_env(env.unwrapped)


def _play_out(env: LifeArenaEnv, seed: int) -> tuple[list[int], float, dict]:
    observation, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    actions, reward, done = [], 0.0, False
    while not done:
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        actions.append(action)
        observation, reward, done, truncated, info = env.step(action)
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
    assert _play_out(env, seed=7) == first
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
    observation, _ = env.reset(seed=1)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert (reward, terminated) == (-1.0, True)
    assert info["illegal_action"].startswith("illegal move")
    with pytest.raises(BadParameterError, match="episode is over"):
        env.step(illegal)
    strict = LifeArenaEnv("war_of_life", illegal="raise")
    strict.reset(seed=1)
    with pytest.raises(IllegalMoveError, match="illegal move"):
        strict.step(illegal)
    simultaneous = LifeArenaEnv("life_for_two")
    simultaneous.reset(seed=1)
    _, _, _, _, info = simultaneous.step(0)  # a single cell on the three-piece turn
    assert "illegal move" in info["illegal_action"]


def test_bad_construction_raises_the_librarys_errors() -> None:
    with pytest.raises(BadParameterError, match="unknown game 'go'"):
        LifeArenaEnv("go")
    with pytest.raises(BadParameterError, match="player 2"):
        LifeArenaEnv("war_of_life", player=2)
    with pytest.raises(BadParameterError, match="render_mode 'human'"):
        LifeArenaEnv("war_of_life", render_mode="human")
    with pytest.raises(BadParameterError, match="unknown parameter 'size'"):
        LifeArenaEnv("war_of_life", params={"size": 3})


def test_rgb_array_render() -> None:
    env = LifeArenaEnv("blocking_queen", params={"size": 12}, render_mode="rgb_array")
    env.reset(seed=0)
    image = env.render()
    assert image.dtype == np.uint8 and image.shape == (256, 256, 3)
