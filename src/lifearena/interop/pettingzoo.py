"""Every lifearena game as a PettingZoo environment.

* :class:`LifeArenaAECEnv` — the turn-based games (War of Life, Losat, the blocking queen
  game) as AEC environments: one agent acts per ``step``.
* :class:`LifeArenaParallelEnv` — the simultaneous games (Life for Two, p2life) as
  ``ParallelEnv``: both agents act in one ``step``. A turn-based game can be played this way
  too: only the mover's action counts.
* :func:`env` gives an AEC environment for any game (a simultaneous one through PettingZoo's
  ``parallel_to_aec``); :func:`parallel_env` the parallel one.

As PettingZoo's classic environments do: agents ``player_0`` and ``player_1``; rewards are
the game's returns (+1, -1, or 0 for a draw) when it ends. The options, the same in every
environment of :mod:`lifearena.interop` (see :mod:`lifearena.interop.spaces`):

* ``params``: the game's parameters (:mod:`lifearena.interop.games`); they size the spaces.
* ``observation="planes" | "flat"`` and ``mask_in_obs=False``: the observation is float32
  planes (or one flat vector); the legal-action mask is ``info["action_mask"]`` (int8, all
  zeros for an agent who is not to act), and inside the observation (PettingZoo's classic
  ``{"observation", "action_mask"}`` dict) with ``mask_in_obs=True``.
* ``illegal="lose"`` (default): an action the mask rules out forfeits the game: the mover's
  reward is -1, the other side's +1 (both -1 when both forfeit at once), every agent is
  terminated and the mover's ``info["illegal_action"]`` holds the library's
  :class:`~lifearena.errors.IllegalMoveError` message; ``game_state`` stays where the action
  was refused. ``illegal="raise"`` raises that error and changes nothing.
* ``render_mode``: ``"human"`` prints the board after every step, ``"ansi"`` returns it as
  text, ``"rgb_array"`` as a picture; fixed at construction.
* ``max_cycles``: truncate the episode once each agent has acted that many times (a
  parallel step is one cycle; ``None``, the default: the game's own limits end it).

``reset(seed=...)`` seeds the random start: a game whose start depends on a ``seed``
parameter draws it from the environment's generator unless ``params`` fix it.

>>> aec = env("war_of_life", render_mode="ansi")
>>> aec.reset(seed=1)
>>> aec.agent_selection, aec.observe("player_0").shape
('player_0', (3, 8, 8))
>>> int(aec.infos["player_0"]["action_mask"].sum()) == len(aec.unwrapped.game_state.legal_actions())
True
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
from lifearena.errors import BadParameterError, IllegalMoveError
from lifearena.interop.games import (
    RENDER_MODES,
    canonical_name,
    check_render_mode,
    game_params,
    render,
    resolve_chance,
    start_episode,
)
from lifearena.interop.spaces import ILLEGAL_POLICIES, Encoding, check_choice, legal_sampler


def check_max_cycles(max_cycles: Any) -> int | None:
    """``max_cycles`` when it is ``None`` or a positive integer.

    >>> check_max_cycles(0)
    Traceback (most recent call last):
    ...
    lifearena.errors.BadParameterError: max_cycles=0; expected a positive integer or None
    """
    if max_cycles is None:
        return None
    if isinstance(max_cycles, bool) or not isinstance(max_cycles, int | np.integer) \
            or max_cycles < 1:
        raise BadParameterError(f"max_cycles={max_cycles!r:.40}; expected a positive integer "
                                "or None")
    return int(max_cycles)


class _LifeArenaEnv:
    """What both kinds of environment share: the game, its options, start, spaces and
    pictures; ``game_state`` is the lifearena state being played (for inspection; do not
    modify)."""

    metadata: ClassVar[dict[str, Any]]
    possible_agents: list[str]

    def _setup(self, game: str, dynamics: Dynamics | None, options: dict[str, Any]) -> None:
        self.game = canonical_name(game)
        params = options["params"]
        self.params = game_params(self.game, params)
        self._draws_seed = "seed" in self.params and "seed" not in (params or {})
        self.render_mode = check_render_mode(options["render_mode"])
        self.illegal = check_choice("illegal", options["illegal"], ILLEGAL_POLICIES)
        self.max_cycles = check_max_cycles(options["max_cycles"])
        self.encoding = Encoding(self.game, self.params, observation=options["observation"],
                                 mask_in_obs=options["mask_in_obs"])
        self.game_state: State = self.encoding.game.new_initial_state()
        info = self.game_state.info
        if dynamics is not None and info.dynamics is not dynamics:
            other = "parallel_env" if info.dynamics is Dynamics.SIMULTANEOUS else "env"
            raise BadParameterError(f"{self.game} is {info.dynamics.value}; expected a "
                                    f"{dynamics.value} game here (use {other}({self.game!r}))")
        self.metadata = {**type(self).metadata, "name": f"lifearena_{self.game}_v0"}
        self.possible_agents = list(info.player_names)
        self.observation_spaces = dict.fromkeys(self.possible_agents,
                                                self.encoding.observation_space)
        self.action_spaces = {
            agent: self.encoding.action_space(
                legal_sampler(self, lambda env, p=p: env._mask(p)))
            for p, agent in enumerate(self.possible_agents)}
        self._forfeited = False
        self._rng = np.random.default_rng()

    def _start(self, seed: int | None) -> None:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.game_state = start_episode(self.game, self.params, self._rng,
                                        draw_seed=self._draws_seed)
        self._forfeited = False

    def _mask(self, player: int) -> np.ndarray:
        if self._forfeited:
            return np.zeros(self.encoding.num_actions, np.int8)
        return self.encoding.mask(self.game_state, player)

    def _info(self, player: int) -> dict[str, Any]:
        info: dict[str, Any] = {"action_mask": self._mask(player)}
        outcome = None if self._forfeited else self.game_state.outcome()
        if outcome is not None:
            info["outcome"] = str(outcome)
        return info

    def _forfeit_rewards(self, offenders: list[int]) -> list[float]:
        info = self.game_state.info
        return [info.min_utility if p in offenders
                else info.max_utility if len(offenders) < len(self.possible_agents) else 0.0
                for p in range(len(self.possible_agents))]

    def _shown(self) -> None:
        if self.render_mode == "human":
            render(self.game_state, "human")

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def render(self) -> str | np.ndarray | None:
        return render(self.game_state, self.render_mode)

    def close(self) -> None:
        pass


def _options(params: Mapping[str, Any] | None, render_mode: str | None, observation: str,
             mask_in_obs: bool, illegal: str, max_cycles: int | None) -> dict[str, Any]:
    return {"params": params, "render_mode": render_mode, "observation": observation,
            "mask_in_obs": mask_in_obs, "illegal": illegal, "max_cycles": max_cycles}


class LifeArenaAECEnv(_LifeArenaEnv, AECEnv):
    """A turn-based lifearena game as a PettingZoo AEC environment (see the module doc)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": list(RENDER_MODES), "is_parallelizable": False, "render_fps": 2}

    def __init__(self, game: str, *, params: Mapping[str, Any] | None = None,
                 render_mode: str | None = None, observation: str = "planes",
                 mask_in_obs: bool = False, illegal: str = "lose",
                 max_cycles: int | None = None) -> None:
        super().__init__()
        self._setup(game, Dynamics.SEQUENTIAL, _options(params, render_mode, observation,
                                                         mask_in_obs, illegal, max_cycles))

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        self._start(seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self._acted = dict.fromkeys(self.agents, 0)
        self._settle(last=0)
        self._shown()

    def _settle(self, last: int, notes: Mapping[str, dict[str, Any]] | None = None) -> None:
        """Select the agent to act, or end the game for everybody (the game is over, the
        mover forfeited, or each agent has acted ``max_cycles`` times); ``notes`` are added
        to the agents' infos."""
        state = self.game_state
        player = state.current_player()
        ended = self._forfeited or player == TERMINAL
        if ended:
            if not self._forfeited:
                self.rewards = dict(zip(self.agents, state.returns(), strict=True))
            self.terminations = dict.fromkeys(self.agents, True)
        elif self.max_cycles is not None and \
                self._acted[self.possible_agents[player]] >= self.max_cycles:
            self.truncations = dict.fromkeys(self.agents, True)
            ended = True
        self.infos = {agent: {**self._info(p), **(notes or {}).get(agent, {})}
                      for p, agent in enumerate(self.agents)}
        # once over, the dead agents step out in turn, starting with the one after the mover
        self.agent_selection = self.possible_agents[
            (last + 1) % len(self.possible_agents) if ended else player]

    def observe(self, agent: str) -> Any:
        return self.encoding.observe(self.game_state, self.possible_agents.index(agent))

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise BadParameterError(f"{agent} must act; got no action")
        player = self.possible_agents.index(agent)
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        notes = {}
        try:
            chosen = self.encoding.to_game(self.game_state, player, action)
        except IllegalMoveError as error:
            if self.illegal == "raise":
                raise
            self._forfeited = True
            self.rewards = dict(zip(self.agents, self._forfeit_rewards([player]), strict=True))
            notes[agent] = {"illegal_action": str(error)}
        else:
            self._acted[agent] += 1
            self.game_state.apply_action(chosen)
            resolve_chance(self.game_state, self._rng)
        self._settle(last=player, notes=notes)
        self._accumulate_rewards()
        self._shown()


class LifeArenaParallelEnv(_LifeArenaEnv, ParallelEnv):
    """A lifearena game as a PettingZoo ``ParallelEnv`` (see the module doc): every agent
    sends an action at every step; at a turn-based node only the mover's counts (the
    other's mask is all zeros, and what it sends is ignored)."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": list(RENDER_MODES), "render_fps": 2}

    def __init__(self, game: str, *, params: Mapping[str, Any] | None = None,
                 render_mode: str | None = None, observation: str = "planes",
                 mask_in_obs: bool = False, illegal: str = "lose",
                 max_cycles: int | None = None) -> None:
        self._setup(game, None, _options(params, render_mode, observation, mask_in_obs,
                                         illegal, max_cycles))
        self.agents: list[str] = []
        self._cycles = 0

    def _observations(self) -> dict[str, Any]:
        return {agent: self.encoding.observe(self.game_state, p)
                for p, agent in enumerate(self.possible_agents)}

    def reset(self, seed: int | None = None, options: dict | None = None
              ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        self._start(seed)
        self.agents = list(self.possible_agents)
        self._cycles = 0
        self._shown()
        return self._observations(), {a: self._info(p) for p, a in enumerate(self.agents)}

    def _chosen(self, actions: Mapping[str, Any]) -> tuple[list[int], dict[int, str]]:
        """The game's actions of the agents who act now, and the refusals by player."""
        state = self.game_state
        current = state.current_player()
        acting = range(len(self.possible_agents)) if current == SIMULTANEOUS else \
            [current] if current != TERMINAL else []
        missing = [self.possible_agents[p] for p in acting if self.possible_agents[p]
                   not in actions]
        if missing:
            raise BadParameterError(f"no action for {', '.join(missing)}; expected one "
                                    "action per agent")
        chosen, refused = [], {}
        for p in acting:
            try:
                chosen.append(self.encoding.to_game(state, p, actions[self.possible_agents[p]]))
            except IllegalMoveError as error:
                if self.illegal == "raise":
                    raise
                refused[p] = str(error)
        return chosen, refused

    def step(self, actions: Mapping[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        if not self.agents:
            raise BadParameterError("the episode is over; call reset() before step()")
        state = self.game_state
        chosen, refused = self._chosen(actions)
        if refused:
            self._forfeited = True
            returns = self._forfeit_rewards(list(refused))
        else:
            if state.current_player() == SIMULTANEOUS:
                state.apply_actions(chosen)
            elif chosen:  # a turn-based node inside a simultaneous game
                state.apply_action(chosen[0])
            resolve_chance(state, self._rng)
            self._cycles += 1
            returns = list(state.returns()) if state.is_terminal() else \
                [0.0] * len(self.possible_agents)
        done = self._forfeited or state.is_terminal()
        cut = not done and self.max_cycles is not None and self._cycles >= self.max_cycles
        infos = {a: self._info(p) for p, a in enumerate(self.possible_agents)}
        for p, message in refused.items():
            infos[self.possible_agents[p]]["illegal_action"] = message
        observations = self._observations()
        rewards = dict(zip(self.possible_agents, returns, strict=True))
        terminations = dict.fromkeys(self.possible_agents, done)
        truncations = dict.fromkeys(self.possible_agents, cut)
        if done or cut:
            self.agents = []
        self._shown()
        return observations, rewards, terminations, truncations, infos


def env(game: str, *, params: Mapping[str, Any] | None = None,
        render_mode: str | None = None, **options: Any) -> AECEnv:
    """An AEC environment for any lifearena game: turn-based games natively (with
    PettingZoo's order-enforcing wrapper), simultaneous ones through ``parallel_to_aec``;
    ``options`` are the environments' (``observation``, ``mask_in_obs``, ``illegal``,
    ``max_cycles``)."""
    if load_game(game).info.dynamics is Dynamics.SIMULTANEOUS:
        return parallel_to_aec(parallel_env(game, params=params, render_mode=render_mode,
                                            **options))
    return wrappers.OrderEnforcingWrapper(
        LifeArenaAECEnv(game, params=params, render_mode=render_mode, **options))


def parallel_env(game: str, *, params: Mapping[str, Any] | None = None,
                 render_mode: str | None = None, **options: Any) -> LifeArenaParallelEnv:
    """The ``ParallelEnv`` of any lifearena game: the natural form of the simultaneous ones
    (Life for Two, p2life); in a turn-based game only the mover's action counts."""
    return LifeArenaParallelEnv(game, params=params, render_mode=render_mode, **options)
