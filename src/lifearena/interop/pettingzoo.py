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

from lifearena.core import SIMULTANEOUS, TERMINAL, Dynamics, State
from lifearena.errors import BadParameterError
from lifearena.interop.games import (
    board_picture,
    canonical_name,
    game_params,
    new_state,
    resolve_chance,
)

RENDER_MODES = ("ansi", "rgb_array")


class _Game:
    """What both kinds of environment share: the game, its start, spaces and pictures."""

    def __init__(self, game: str, params: Mapping[str, Any] | None,
                 render_mode: str | None, dynamics: Dynamics) -> None:
        self.game = canonical_name(game)
        self.params = game_params(self.game, params)
        self._draws_seed = "seed" in self.params and "seed" not in (params or {})
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise BadParameterError(f"render_mode {render_mode!r}; expected one of "
                                    f"{', '.join(RENDER_MODES)} or None")
        self.render_mode = render_mode
        self.state: State = new_state(self.game, self.params)
        info = self.state.info
        if info.dynamics is not dynamics:
            other = "parallel_env" if info.dynamics is Dynamics.SIMULTANEOUS else "env"
            raise BadParameterError(f"{self.game} is {info.dynamics.value}; expected a "
                                    f"{dynamics.value} game here (use {other}({self.game!r}))")
        self.possible_agents = list(info.player_names)
        shape = self.state.observation(0).shape
        n = info.num_distinct_actions
        space = spaces.Dict({
            "observation": spaces.Box(0, 1, shape, np.int8),
            "action_mask": spaces.Box(0, 1, (n,), np.int8),
        })
        self.observation_spaces = {a: space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self._rng = np.random.default_rng()

    def _start(self, seed: int | None) -> None:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        params = dict(self.params)
        if self._draws_seed:
            params["seed"] = int(self._rng.integers(2**31))
        self.state = new_state(self.game, params)
        resolve_chance(self.state, self._rng)

    def _observe(self, player: int, acting: bool) -> dict[str, np.ndarray]:
        mask = (self.state.legal_actions_mask(player) if acting
                else np.zeros(self.state.info.num_distinct_actions, np.int8))
        return {"observation": self.state.observation(player), "action_mask": mask}

    def _render(self) -> str | np.ndarray | None:
        if self.render_mode == "ansi":
            return str(self.state)
        if self.render_mode == "rgb_array":
            return board_picture(self.state)
        return None


class LifeArenaAECEnv(AECEnv):
    """A turn-based lifearena game as a PettingZoo AEC environment (see the module doc)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": list(RENDER_MODES), "is_parallelizable": False, "render_fps": 2}

    def __init__(self, game: str, *, params: Mapping[str, Any] | None = None,
                 render_mode: str | None = None) -> None:
        super().__init__()
        self._game = _Game(game, params, render_mode, Dynamics.SEQUENTIAL)
        self.metadata = {**type(self).metadata, "name": f"lifearena_{self._game.game}_v0"}
        self.render_mode = render_mode
        self.possible_agents = list(self._game.possible_agents)
        self.observation_spaces = self._game.observation_spaces
        self.action_spaces = self._game.action_spaces

    @property
    def game_state(self) -> State:
        """The lifearena state being played (for inspection; do not modify)."""
        return self._game.state

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        self._game._start(seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._settle(last=0)

    def _settle(self, last: int) -> None:
        """Select the agent to act, or end the game for everybody."""
        state = self._game.state
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
        player = self.possible_agents.index(agent)
        return self._game._observe(player, self._game.state.current_player() == player)

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise BadParameterError(f"{agent} must act; got no action")
        player = self.possible_agents.index(agent)
        self._cumulative_rewards[agent] = 0.0
        self._game.state.apply_action(int(action))
        resolve_chance(self._game.state, self._game._rng)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._settle(last=player)
        self._accumulate_rewards()

    def render(self) -> str | np.ndarray | None:
        return self._game._render()

    def close(self) -> None:
        pass


class LifeArenaParallelEnv(ParallelEnv):
    """A simultaneous lifearena game as a PettingZoo ``ParallelEnv`` (see the module doc)."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": list(RENDER_MODES), "render_fps": 2}

    def __init__(self, game: str, *, params: Mapping[str, Any] | None = None,
                 render_mode: str | None = None) -> None:
        self._game = _Game(game, params, render_mode, Dynamics.SIMULTANEOUS)
        self.metadata = {**type(self).metadata, "name": f"lifearena_{self._game.game}_v0"}
        self.render_mode = render_mode
        self.possible_agents = list(self._game.possible_agents)
        self.agents: list[str] = []
        self.observation_spaces = self._game.observation_spaces
        self.action_spaces = self._game.action_spaces

    @property
    def game_state(self) -> State:
        """The lifearena state being played (for inspection; do not modify)."""
        return self._game.state

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def _observations(self) -> dict[str, dict[str, np.ndarray]]:
        current = self._game.state.current_player()
        return {agent: self._game._observe(p, current in (SIMULTANEOUS, p))
                for p, agent in enumerate(self.possible_agents)}

    def reset(self, seed: int | None = None, options: dict | None = None
              ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        self._game._start(seed)
        self.agents = list(self.possible_agents)
        return self._observations(), {a: {} for a in self.agents}

    def step(self, actions: Mapping[str, int]) -> tuple[dict, dict, dict, dict, dict]:
        state = self._game.state
        current = state.current_player()
        if current == SIMULTANEOUS:
            missing = [a for a in self.agents if a not in actions]
            if missing:
                raise BadParameterError(f"no action for {', '.join(missing)}; expected one "
                                        "action per agent")
            state.apply_actions([int(actions[a]) for a in self.possible_agents])
        elif current != TERMINAL:  # a turn-based node inside a simultaneous game
            state.apply_action(int(actions[self.possible_agents[current]]))
        resolve_chance(state, self._game._rng)
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

    def render(self) -> str | np.ndarray | None:
        return self._game._render()

    def close(self) -> None:
        pass


def env(game: str, *, params: Mapping[str, Any] | None = None,
        render_mode: str | None = None) -> AECEnv:
    """An AEC environment for any lifearena game: turn-based games natively (with
    PettingZoo's order-enforcing wrapper), simultaneous ones through ``parallel_to_aec``."""
    if new_state(game, params).info.dynamics is Dynamics.SIMULTANEOUS:
        return parallel_to_aec(parallel_env(game, params=params, render_mode=render_mode))
    return wrappers.OrderEnforcingWrapper(
        LifeArenaAECEnv(game, params=params, render_mode=render_mode))


def parallel_env(game: str, *, params: Mapping[str, Any] | None = None,
                 render_mode: str | None = None) -> LifeArenaParallelEnv:
    """The ``ParallelEnv`` of a simultaneous lifearena game (Life for Two, p2life)."""
    return LifeArenaParallelEnv(game, params=params, render_mode=render_mode)
