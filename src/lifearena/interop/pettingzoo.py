"""Every lifearena game as a PettingZoo environment.

* :class:`LifeArenaAECEnv` — the turn-based games (War of Life, Losat, the blocking queen
  game) as AEC environments: one agent acts per ``step``.
* :class:`LifeArenaParallelEnv` — the simultaneous games (Life for Two, p2life) as
  ``ParallelEnv``: both agents act in one ``step``.
* :func:`env` gives an AEC environment for any game (a simultaneous one through PettingZoo's
  ``parallel_to_aec``); :func:`parallel_env` the parallel one of a simultaneous game.

As PettingZoo's classic environments do: agents ``player_0`` and ``player_1``; each
observation is a dict ``{"observation": int8 planes (planes, height, width) from
State.observation, "action_mask": int8 vector over all actions}`` (the mask is all zeros for
an agent who is not to act); rewards are the game's returns (+1, -1, or 0 for a draw) when
it ends; ``render_mode`` is ``"ansi"`` (the board as text) or ``"rgb_array"`` (a picture),
fixed at construction. ``reset(seed=...)`` seeds the random start: a game whose start
depends on a ``seed`` parameter draws it from the environment's generator unless ``params``
fix it. An illegal action raises the library's :class:`~lifearena.errors.IllegalMoveError`.

>>> aec = env("war_of_life", render_mode="ansi")
>>> aec.reset(seed=1)
>>> aec.agent_selection, aec.observe("player_0")["observation"].shape
('player_0', (3, 8, 8))
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.conversions import parallel_to_aec

from lifearena.core import SIMULTANEOUS, TERMINAL, Dynamics, State, load_game
from lifearena.errors import BadParameterError
from lifearena.interop.games import (
    RENDER_MODES,
    canonical_name,
    check_render_mode,
    game_params,
    new_state,
    observe,
    render,
    resolve_chance,
    spaces_of,
    start_episode,
)


class _LifeArenaEnv:
    """What both kinds of environment share: the game, its start, spaces and pictures;
    ``game_state`` is the lifearena state being played (for inspection; do not modify)."""

    metadata: ClassVar[dict[str, Any]]

    def _setup(self, game: str, params: Mapping[str, Any] | None, render_mode: str | None,
               dynamics: Dynamics) -> None:
        self.game = canonical_name(game)
        self.params = game_params(self.game, params)
        self._draws_seed = "seed" in self.params and "seed" not in (params or {})
        self.render_mode = check_render_mode(render_mode)
        self.game_state: State = new_state(self.game, self.params)
        info = self.game_state.info
        if info.dynamics is not dynamics:
            other = "parallel_env" if info.dynamics is Dynamics.SIMULTANEOUS else "env"
            raise BadParameterError(f"{self.game} is {info.dynamics.value}; expected a "
                                    f"{dynamics.value} game here (use {other}({self.game!r}))")
        self.metadata = {**type(self).metadata, "name": f"lifearena_{self.game}_v0"}
        self.possible_agents = list(info.player_names)
        observation_space, action_space = spaces_of(self.game_state)
        self.observation_spaces = dict.fromkeys(self.possible_agents, observation_space)
        self.action_spaces = dict.fromkeys(self.possible_agents, action_space)
        self._rng = np.random.default_rng()

    def _start(self, seed: int | None) -> None:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.game_state = start_episode(self.game, self.params, self._rng,
                                        draw_seed=self._draws_seed)

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def render(self) -> str | np.ndarray | None:
        return render(self.game_state, self.render_mode)

    def close(self) -> None:
        pass


class LifeArenaAECEnv(_LifeArenaEnv, AECEnv):
    """A turn-based lifearena game as a PettingZoo AEC environment (see the module doc)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": list(RENDER_MODES), "is_parallelizable": False, "render_fps": 2}

    def __init__(self, game: str, *, params: Mapping[str, Any] | None = None,
                 render_mode: str | None = None) -> None:
        super().__init__()
        self._setup(game, params, render_mode, Dynamics.SEQUENTIAL)

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        self._start(seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._settle(last=0)

    def _settle(self, last: int) -> None:
        """Select the agent to act, or end the game for everybody."""
        state = self.game_state
        player = state.current_player()
        if player == TERMINAL:
            for agent, value in zip(self.agents, state.returns(), strict=True):
                self.rewards[agent] = value
                self.terminations[agent] = True
                self.infos[agent] = {"outcome": str(state.outcome())}
            # the dead agents step out in turn, starting with the one after the last mover
            self.agent_selection = self.possible_agents[(last + 1) % len(self.possible_agents)]
        else:
            self.agent_selection = self.possible_agents[player]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        return observe(self.game_state, self.possible_agents.index(agent))

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise BadParameterError(f"{agent} must act; got no action")
        player = self.possible_agents.index(agent)
        self._cumulative_rewards[agent] = 0.0
        self.game_state.apply_action(int(action))
        resolve_chance(self.game_state, self._rng)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._settle(last=player)
        self._accumulate_rewards()


class LifeArenaParallelEnv(_LifeArenaEnv, ParallelEnv):
    """A simultaneous lifearena game as a PettingZoo ``ParallelEnv`` (see the module doc)."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": list(RENDER_MODES), "render_fps": 2}

    def __init__(self, game: str, *, params: Mapping[str, Any] | None = None,
                 render_mode: str | None = None) -> None:
        self._setup(game, params, render_mode, Dynamics.SIMULTANEOUS)
        self.agents: list[str] = []

    def _observations(self) -> dict[str, dict[str, np.ndarray]]:
        return {agent: observe(self.game_state, p) for p, agent in enumerate(self.possible_agents)}

    def reset(self, seed: int | None = None, options: dict | None = None
              ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        self._start(seed)
        self.agents = list(self.possible_agents)
        return self._observations(), {a: {} for a in self.agents}

    def step(self, actions: Mapping[str, int]) -> tuple[dict, dict, dict, dict, dict]:
        state = self.game_state
        current = state.current_player()
        if current == SIMULTANEOUS:
            missing = [a for a in self.agents if a not in actions]
            if missing:
                raise BadParameterError(f"no action for {', '.join(missing)}; expected one "
                                        "action per agent")
            state.apply_actions([int(actions[a]) for a in self.possible_agents])
        elif current != TERMINAL:  # a turn-based node inside a simultaneous game
            state.apply_action(int(actions[self.possible_agents[current]]))
        resolve_chance(state, self._rng)
        observations = self._observations()
        done = state.is_terminal()
        returns = state.returns() if done else (0.0,) * len(self.possible_agents)
        rewards = dict(zip(self.possible_agents, returns, strict=True))
        terminations = dict.fromkeys(self.possible_agents, done)
        truncations = dict.fromkeys(self.possible_agents, False)
        infos: dict[str, dict[str, Any]] = {
            a: ({"outcome": str(state.outcome())} if done else {}) for a in self.possible_agents}
        if done:
            self.agents = []
        return observations, rewards, terminations, truncations, infos


def env(game: str, *, params: Mapping[str, Any] | None = None,
        render_mode: str | None = None) -> AECEnv:
    """An AEC environment for any lifearena game: turn-based games natively (with
    PettingZoo's order-enforcing wrapper), simultaneous ones through ``parallel_to_aec``."""
    if load_game(game).info.dynamics is Dynamics.SIMULTANEOUS:
        return parallel_to_aec(parallel_env(game, params=params, render_mode=render_mode))
    return wrappers.OrderEnforcingWrapper(
        LifeArenaAECEnv(game, params=params, render_mode=render_mode))


def parallel_env(game: str, *, params: Mapping[str, Any] | None = None,
                 render_mode: str | None = None) -> LifeArenaParallelEnv:
    """The ``ParallelEnv`` of a simultaneous lifearena game (Life for Two, p2life)."""
    return LifeArenaParallelEnv(game, params=params, render_mode=render_mode)
