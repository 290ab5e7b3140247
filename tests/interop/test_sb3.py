"""Stable-Baselines3's VecEnv over the compiled vector environments
(``lifearena.interop.sb3``): SB3's contract (same-step resets with the terminal observation,
seeds, masks per board) and sb3-contrib's MaskablePPO training on it directly."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("gymnasium", reason="needs Gymnasium: pip install -e '.[interop]'")
pytest.importorskip("sb3_contrib", reason="needs sb3-contrib: pip install -e '.[rl]'")

from lifearena.errors import BadParameterError
from lifearena.interop.sb3 import LifeArenaVecEnv
from lifearena.interop.vector import VECTOR_GAMES, make_vector_env

SMALL = {"war_of_life": {}, "life_for_two": {"max_turns": 6},
         "p2life": {"size": 6, "max_generations": 8}, "blocking_queen": {"size": 8},
         "losat": {"width": 7, "length": 9, "max_moves": 20}}


def test_terminal_observation_and_the_next_episode() -> None:
    env = LifeArenaVecEnv("war_of_life", 4, opponent="minimax")
    twin = make_vector_env("war_of_life", 4, opponent="minimax")
    env.seed(3)
    np.testing.assert_array_equal(env.reset(), twin.reset(seed=3)[0])
    finished = 0
    for _ in range(40):
        actions = env.venv.sample_actions()
        twin_seen, twin_rewards, twin_terminated, _, _ = twin.step(actions)
        _, rewards, dones, infos = env.step(actions)
        np.testing.assert_array_equal(rewards, twin_rewards.astype(np.float32))
        np.testing.assert_array_equal(dones, twin_terminated)
        for i in range(4):
            if dones[i]:
                finished += 1
                np.testing.assert_array_equal(infos[i]["terminal_observation"], twin_seen[i])
                assert infos[i]["TimeLimit.truncated"] is False
                assert env.action_masks()[i].any()  # the next episode's first position
            else:
                assert "terminal_observation" not in infos[i]
        if dones.any():
            return  # the twin (next-step reset) would now start its episodes a step later
    assert finished  # pragma: no cover


def test_masks_for_sb3_contrib() -> None:
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported

    env = LifeArenaVecEnv("war_of_life", 3)
    env.reset()
    assert is_masking_supported(env)
    np.testing.assert_array_equal(get_action_masks(env), env.venv.action_masks())
    assert env.get_attr("num_actions", [0, 2]) == [512, 512]
    assert env.env_is_wrapped(object) == [False] * 3
    with pytest.raises(BadParameterError, match="SB3's VecEnv fixes it"):
        LifeArenaVecEnv("war_of_life", 2, autoreset_mode="next_step")


@pytest.mark.parametrize("game", sorted(VECTOR_GAMES))
def test_maskable_ppo_trains_on_every_game(game: str) -> None:
    from sb3_contrib import MaskablePPO

    env = LifeArenaVecEnv(game, 4, params=SMALL[game], observation="flat")
    model = MaskablePPO("MlpPolicy", env, n_steps=16, batch_size=32, n_epochs=1, seed=0,
                        policy_kwargs={"net_arch": [16]}, device="cpu")
    model.learn(total_timesteps=64)
    assert model.num_timesteps >= 64
    observations = env.reset()
    actions, _ = model.predict(observations, action_masks=env.action_masks())
    assert env.action_masks()[np.arange(4), actions].all()
