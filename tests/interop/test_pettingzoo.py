"""PettingZoo's own API tests on every lifearena game, and the environments' contract."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="needs PettingZoo: pip install -e '.[interop]'")

from pettingzoo.test import api_test, parallel_api_test

from lifearena.core import replay
from lifearena.errors import BadParameterError, IllegalMoveError
from lifearena.interop.pettingzoo import (
    LifeArenaAECEnv,
    LifeArenaParallelEnv,
    env,
    parallel_env,
)

TURN_BASED = {"war_of_life": None, "losat": {"width": 9, "length": 11, "max_moves": 40},
              "blocking_queen": {"size": 12}}
SIMULTANEOUS = {"life_for_two": {"max_turns": 8}, "p2life": {"size": 6, "max_generations": 12}}
MODES = ("ansi", "rgb_array")

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("game", sorted(TURN_BASED))
def test_aec_api_test(game: str, mode: str) -> None:
    api_test(LifeArenaAECEnv(game, params=TURN_BASED[game], render_mode=mode), num_cycles=100)
    api_test(env(game, params=TURN_BASED[game], render_mode=mode), num_cycles=100)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("game", sorted(SIMULTANEOUS))
def test_parallel_api_test(game: str, mode: str) -> None:
    parallel_api_test(parallel_env(game, params=SIMULTANEOUS[game], render_mode=mode),
                      num_cycles=100)
    api_test(env(game, params=SIMULTANEOUS[game], render_mode=mode), num_cycles=100)


def test_aec_rollout_ends_with_the_games_returns() -> None:
    aec = LifeArenaAECEnv("war_of_life", render_mode="ansi")
    aec.reset(seed=3)
    rng = np.random.default_rng(0)
    totals = dict.fromkeys(aec.possible_agents, 0.0)
    for agent in aec.agent_iter():
        observation, reward, termination, truncation, _ = aec.last()
        totals[agent] += reward
        if termination or truncation:
            action = None
        else:
            assert observation["action_mask"].sum() == len(aec.game_state.legal_actions())
            action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        aec.step(action)
    outcome = aec.game_state.outcome()
    assert outcome is not None
    assert replay(aec.game_state.record()).history() == aec.game_state.history()
    assert tuple(totals.values()) == aec.game_state.returns()


def test_parallel_rollout_and_masks() -> None:
    par = parallel_env("life_for_two", params={"max_turns": 6})
    observations, _ = par.reset(seed=0)
    assert observations["player_0"]["observation"].shape == (3, 5, 5)
    first = observations["player_0"]["action_mask"]
    assert first.sum() == 2300 and first[:25].sum() == 0  # three pieces on the first turn
    rng = np.random.default_rng(1)
    rewards: dict[str, float] = {}
    while par.agents:
        actions = {a: int(rng.choice(np.flatnonzero(observations[a]["action_mask"])))
                   for a in par.agents}
        observations, rewards, _, _, infos = par.step(actions)
    assert tuple(rewards.values()) == par.game_state.returns()
    assert "outcome" in infos["player_0"]


def test_reset_seed_picks_the_start() -> None:
    aec = LifeArenaAECEnv("war_of_life")
    starts = []
    for seed in (5, 5, 6):
        aec.reset(seed=seed)
        starts.append(aec.game_state.setup())
    assert starts[0] == starts[1] != starts[2]
    fixed = LifeArenaAECEnv("war_of_life", params={"seed": 9})
    fixed.reset(seed=1)
    setup = fixed.game_state.setup()
    fixed.reset(seed=2)
    assert fixed.game_state.setup() == setup


def test_render_modes() -> None:
    text = LifeArenaAECEnv("war_of_life", render_mode="ansi")
    text.reset(seed=1)
    assert text.render() == str(text.game_state)
    picture = parallel_env("p2life", params={"size": 8}, render_mode="rgb_array")
    picture.reset(seed=1)
    image = picture.render()
    assert image.dtype == np.uint8 and image.ndim == 3 and image.shape[2] == 3
    with pytest.raises(BadParameterError, match="render_mode 'human'"):
        LifeArenaAECEnv("war_of_life", render_mode="human")


def test_bad_use_raises_the_librarys_errors() -> None:
    aec = LifeArenaAECEnv("war_of_life")
    aec.reset(seed=1)
    illegal = int(np.flatnonzero(aec.observe("player_0")["action_mask"] == 0)[0])
    with pytest.raises(IllegalMoveError, match="illegal move"):
        aec.step(illegal)
    with pytest.raises(BadParameterError, match="unknown game 'go'"):
        env("go")
    with pytest.raises(BadParameterError, match="life_for_two is simultaneous"):
        LifeArenaAECEnv("life_for_two")
    with pytest.raises(BadParameterError, match="war_of_life is sequential"):
        LifeArenaParallelEnv("war_of_life")
    par = parallel_env("life_for_two")
    par.reset(seed=0)
    with pytest.raises(BadParameterError, match="no action for player_1"):
        par.step({"player_0": 30})
    with pytest.raises(IllegalMoveError, match="illegal move"):
        par.step({"player_0": 3, "player_1": 30})
