"""The versioned ids of :mod:`lifearena.rl.versions` as Gymnasium environments; importing this
module registers them.

Each ``lifearena/<...>-v1`` id makes the same environments as its game's ``-v0`` id
(:class:`lifearena.interop.gymnasium.LifeArenaEnv` and, through ``gymnasium.make_vec``, the
compiled vector environment of :mod:`lifearena.interop.vector`) with the spec's parameters,
observation encoding and default opponent. Everything else stays an option: the opponent, the
learner's seat, ``observation="flat"`` (the same numbers in one vector), ``mask_in_obs``,
``illegal``, ``render_mode``; ``params=`` is refused with one line naming the id.

>>> import gymnasium
>>> env = gymnasium.make("lifearena/losat-9x11-v1", opponent="greedy")
>>> env.observation_space.shape, env.action_space
((2, 11, 9), Discrete(397))
>>> envs = gymnasium.make_vec("lifearena/war_of_life-v1", num_envs=4,
...                           vectorization_mode="vector_entry_point")
>>> envs.observation_space.shape
(4, 3, 8, 8)
>>> gymnasium.make("lifearena/war_of_life-v1", params={"seed": 3})  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
lifearena.errors.BadParameterError: lifearena/war_of_life-v1 fixes every game parameter; ...
"""

from __future__ import annotations

from typing import Any

import gymnasium

from lifearena.interop.gymnasium import LifeArenaEnv
from lifearena.interop.vector import make_vector_env as make_game_vector_env
from lifearena.rl.versions import SPECS, refuse_params, spec


def _options(env_id: str, options: dict[str, Any]) -> dict[str, Any]:
    """The options of the ``-v0`` environment for ``env_id`` with ``options`` (``params``
    refused; the spec's observation and opponent unless given)."""
    refuse_params(env_id, options)
    fixed = spec(env_id)
    return {"observation": fixed.observation, "opponent": fixed.opponent, **options,
            "params": dict(fixed.params)}


def make_env(env_id: str, **options: Any) -> LifeArenaEnv:
    """The single environment of ``env_id`` (the entry point Gymnasium's registry uses)."""
    return LifeArenaEnv(spec(env_id).game, **_options(env_id, options))


def make_vector_env(env_id: str, num_envs: int = 1, **options: Any) -> Any:
    """The compiled vector environment of ``env_id`` with ``num_envs`` boards (the
    ``vector_entry_point`` Gymnasium's registry calls)."""
    return make_game_vector_env(spec(env_id).game, num_envs, **_options(env_id, options))


def register_envs() -> list[str]:
    """Register every ``-v1`` id with Gymnasium (once); the ids."""
    for fixed in SPECS:
        if fixed.id not in gymnasium.registry:
            gymnasium.register(id=fixed.id, entry_point=f"{__name__}:make_env",
                               kwargs={"env_id": fixed.id},
                               vector_entry_point=f"{__name__}:make_vector_env")
    return [fixed.id for fixed in SPECS]


register_envs()


def rollout_digest(env_id: str, *, episodes: int = 3, steps: int = 30, seed: int = 0) -> str:
    """The sha256 of what ``env_id``'s single environment shows over a seeded random rollout:
    ``episodes`` episodes (``reset(seed=seed + e)``), at most ``steps`` steps each, the
    learner at seat ``e % 2``, its actions drawn uniformly among the mask's legal ones from
    ``numpy.random.default_rng(seed)``; every observation (float32 bytes), mask, reward and
    ending enters the digest.

    The versioning's tripwire (``tests/interop/test_rl_envs.py`` stores one per id): a change
    of the rules, the starts, the encodings or the default opponent changes it.
    """
    import hashlib

    import numpy as np

    digest = hashlib.sha256(env_id.encode())
    rng = np.random.default_rng(seed)
    for episode in range(episodes):
        env = make_env(env_id, player=episode % 2)
        observation, info = env.reset(seed=seed + episode)
        for _ in range(steps):
            mask = info["action_mask"]
            digest.update(np.ascontiguousarray(observation, np.float32).tobytes())
            digest.update(np.ascontiguousarray(mask, np.int8).tobytes())
            legal = np.flatnonzero(mask)
            action = int(legal[rng.integers(len(legal))])
            observation, reward, terminated, truncated, info = env.step(action)
            digest.update(f"{action} {reward:+.1f} {terminated:d} {truncated:d};".encode())
            if terminated or truncated:
                digest.update(np.ascontiguousarray(observation, np.float32).tobytes())
                break
        env.close()
    return digest.hexdigest()
