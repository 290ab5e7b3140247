"""Stable-Baselines3's ``VecEnv`` over a compiled vector environment: the whole batch is one
SB3 environment object, stepped in one compiled call, so sb3-contrib's ``MaskablePPO`` (and
every SB3 algorithm for discrete actions) trains on it directly at batch speed, without a
``DummyVecEnv`` of single environments.

SB3 resets finished environments in the step that ends them and hands the last observation
over in ``infos[i]["terminal_observation"]``: the wrapped environment runs Gymnasium's
``SAME_STEP`` auto-reset, whose ``final_obs`` is that observation. ``action_masks()`` (and
``env_method("action_masks")``, which sb3-contrib calls) give the masks of the positions
just returned, so a mask is never empty. Seeds follow SB3: ``seed(s)`` gives board ``i``
the seed ``s + i`` at the next ``reset()``, the vector environment's own convention.

>>> from lifearena.interop.sb3 import LifeArenaVecEnv
>>> env = LifeArenaVecEnv("war_of_life", 4, opponent="bloodlust")
>>> env.seed(0)
[0, 1, 2, 3]
>>> env.reset().shape, env.action_masks().shape
((4, 3, 8, 8), (4, 512))
>>> observations, rewards, dones, infos = env.step(env.venv.sample_actions())
>>> rewards.dtype, len(infos)
(dtype('float32'), 4)

Needs ``pip install -e ".[rl]"`` (stable-baselines3, sb3-contrib).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

try:
    from stable_baselines3.common.vec_env import VecEnv
except ImportError as error:  # pragma: no cover - depends on the installed extras
    raise ImportError('lifearena.interop.sb3 needs Stable-Baselines3: '
                      'pip install -e ".[rl]"') from error

from lifearena.errors import BadParameterError
from lifearena.interop.vector import make_vector_env
from lifearena.interop.vector.base import CompiledVectorEnv


class LifeArenaVecEnv(VecEnv):
    """``num_envs`` boards of ``game`` as one SB3 ``VecEnv`` (see the module doc); the
    options are the compiled vector environment's (:mod:`lifearena.interop.vector.base`)
    but ``autoreset_mode``, which SB3 fixes to same-step, and ``copy``."""

    def __init__(self, game: str, num_envs: int = 1, **options: Any) -> None:
        for fixed in ("autoreset_mode", "copy"):
            if fixed in options:
                raise BadParameterError(f"{fixed}={options[fixed]!r:.40}; SB3's VecEnv fixes "
                                        f"it (same-step auto-reset, copied buffers)")
        self.venv: CompiledVectorEnv = make_vector_env(game, num_envs,
                                                       autoreset_mode="same_step", **options)
        super().__init__(num_envs, self.venv.single_observation_space,
                         self.venv.single_action_space)
        self._actions = np.zeros(num_envs, np.int64)
        self._started = False

    # -- SB3's VecEnv API -------------------------------------------------------------------------

    def reset(self) -> Any:
        """Start every board (with the seeds of the last :meth:`seed` call, if any)."""
        seeds = None if any(s is None for s in self._seeds) else [int(s) for s in self._seeds]
        observations, _ = self.venv.reset(seed=seeds)
        self.reset_infos = [{} for _ in range(self.num_envs)]
        self._reset_seeds()
        self._reset_options()
        self._started = True
        return observations

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions)

    def step_wait(self) -> tuple[Any, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        if not self._started:
            raise BadParameterError("call reset() before step()")
        observations, rewards, terminated, truncated, info = self.venv.step(
            self._actions.reshape(self.num_envs).astype(np.int64, copy=False))
        dones = terminated | truncated
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        if dones.any():
            final = info["final_obs"]
            for i in np.flatnonzero(dones):
                infos[i]["terminal_observation"] = final[i]
                infos[i]["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
        if "illegal_action" in info:
            for i in np.flatnonzero(info["illegal_action"]):
                infos[i]["illegal_action"] = True
        return observations, rewards.astype(np.float32), dones, infos

    def action_masks(self) -> np.ndarray:
        """The ``(num_envs, num_actions)`` masks of the positions just returned."""
        return self.venv.action_masks()

    def close(self) -> None:
        """Nothing to release: the boards are arrays in this process."""

    def seed(self, seed: int | None = None) -> Sequence[int | None]:
        return super().seed(seed)

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        """The wrapped environment's attribute, once per board asked for (SB3's
        convention); ``action_masks`` answers per board."""
        if attr_name == "action_masks":
            return [self.action_masks] * len(self._indices(indices))
        return [getattr(self.venv, attr_name)] * len(self._indices(indices))

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        raise BadParameterError(f"set_attr({attr_name!r}): the boards share one environment; "
                                f"expected its options at construction")

    def env_method(self, method_name: str, *method_args: Any, indices: Any = None,
                   **method_kwargs: Any) -> list[Any]:
        """Call a method of the boards: ``action_masks`` gives each board's row, other
        methods the wrapped environment's answer once per board."""
        boards = self._indices(indices)
        if method_name == "action_masks":
            masks = self.venv.action_masks()
            return [masks[i] for i in boards]
        result = getattr(self.venv, method_name)(*method_args, **method_kwargs)
        return [result] * len(boards)

    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
        return [False] * len(self._indices(indices))

    def _indices(self, indices: Any) -> list[int]:
        return list(self._get_indices(indices)) if indices is None or \
            isinstance(indices, int | Iterable) else [int(indices)]
