"""Every lifearena game as a single-agent Gymnasium environment against one of our agents.

:class:`LifeArenaEnv` seats the learner at ``player`` (0 or 1) and an opponent from
:func:`lifearena.agents.make` at the other seat: ``opponent`` names it (``"random"``,
``"greedy"``, ``"alphabeta"``...), ``level`` is its thinking limit (a
:class:`~lifearena.agents.base.Limit` or its text, ``"depth=2"``, ``"time=0.1"``) and
``opponent_options`` its keyword options. The opponent sees only ``State.view`` of its seat.

* observation: ``{"observation": int8 planes (planes, height, width), "action_mask": int8
  vector over all actions}`` from the learner's seat; action: ``Discrete(num_actions)``.
* reward: the learner's return (+1 win, -1 loss, 0 draw) on the step that ends the game, 0
  before (when the opponent, moving first, ends the game at once, ``reset`` returns an empty
  mask and the next ``step``, whatever its action, reports the end); ``terminated`` when
  the game ends; ``truncated`` never (every game has its own move limit where it needs one).
* ``reset(seed=...)`` seeds the random start (unless ``params`` fix ``seed``) and the
  opponent, so a seed replays the same episode for the same actions.
* ``render_mode`` ``"ansi"`` (text) or ``"rgb_array"`` (a picture).

In a turn-based game the opponent moves between the learner's moves (and first, when the
learner sits second); in a simultaneous game both choices are applied together.

An illegal action (one the mask rules out) forfeits the game by default
(``illegal="lose"``): reward -1, ``terminated``, and ``info["illegal_action"]`` holds the
library's :class:`~lifearena.errors.IllegalMoveError` message. That is PettingZoo's classic
convention (``TerminateIllegalWrapper``) and what ``check_env`` needs, since it steps with
unmasked samples. ``illegal="raise"`` raises the error instead.

Importing this module also registers ``lifearena/<game>-v0`` with Gymnasium:

>>> import gymnasium
>>> env = gymnasium.make("lifearena/war_of_life-v0", opponent="bloodlust")
>>> observation, info = env.reset(seed=1)
>>> observation["observation"].shape, env.action_space
((3, 8, 8), Discrete(512))
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import gymnasium
import numpy as np

from lifearena.agents.base import Agent, Limit
from lifearena.agents.registry import make
from lifearena.core import SIMULTANEOUS, TERMINAL, State
from lifearena.errors import BadParameterError, IllegalMoveError
from lifearena.interop.games import (
    RENDER_MODES,
    canonical_name,
    check_render_mode,
    game_params,
    lifearena_games,
    new_state,
    observe,
    render,
    resolve_chance,
    spaces_of,
    start_episode,
)

ILLEGAL_POLICIES = ("lose", "raise")


class LifeArenaEnv(gymnasium.Env):
    """A lifearena game against one of our agents (see the module doc)."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": list(RENDER_MODES), "render_fps": 2}

    def __init__(self, game: str, *, opponent: str = "random",
                 level: Limit | str | None = None,
                 opponent_options: Mapping[str, Any] | None = None, player: int = 0,
                 params: Mapping[str, Any] | None = None,
                 render_mode: str | None = None, illegal: str = "lose") -> None:
        self.game = canonical_name(game)
        if illegal not in ILLEGAL_POLICIES:
            raise BadParameterError(f"illegal={illegal!r}; expected one of "
                                    f"{', '.join(ILLEGAL_POLICIES)}")
        self.illegal = illegal
        self._forfeited: str | None = None
        self._pending_end = False
        self.params = game_params(self.game, params)
        self._draws_seed = "seed" in self.params and "seed" not in (params or {})
        self.render_mode = check_render_mode(render_mode)
        if player not in (0, 1):
            raise BadParameterError(f"player {player!r}; expected 0 or 1 (the learner's seat)")
        self.player = player
        self.opponent_name = opponent
        self.opponent_options = dict(opponent_options or {})
        self.level = Limit.from_text(level) if isinstance(level, str) else level
        self.opponent: Agent = make(opponent, game=self.game, seed=0, **self.opponent_options)
        self.game_state: State = new_state(self.game, self.params)
        self.observation_space, self.action_space = spaces_of(self.game_state, player)
        self._rng = np.random.default_rng()

    # -- Gymnasium API ------------------------------------------------------------------------

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._rng = np.random.default_rng(seed)
            self.opponent = make(self.opponent_name, game=self.game,
                                 seed=int(self._rng.integers(2**31)), **self.opponent_options)
        else:
            self.opponent.reset()
        self.game_state = start_episode(self.game, self.params, self._rng,
                                        draw_seed=self._draws_seed)
        self._forfeited = None
        self._opponent_turns()
        self._pending_end = self.game_state.is_terminal()
        return self._observation(), self._info()

    def step(self, action: int) -> tuple[dict[str, np.ndarray], float, bool, bool,
                                         dict[str, Any]]:
        state = self.game_state
        if self._pending_end:  # the opponent ended the game before the learner's first move
            self._pending_end = False
            return self._observation(), float(state.returns()[self.player]), True, False, \
                self._info()
        if state.is_terminal() or self._forfeited:
            raise BadParameterError("the episode is over; call reset() before step()")
        if self.illegal == "lose" and int(action) not in state.legal_actions(self.player):
            self._forfeited = self._illegal_message(int(action))
            info = {**self._info(), "illegal_action": self._forfeited}
            return self._observation(), state.info.min_utility, True, False, info
        if state.current_player() == SIMULTANEOUS:
            other = self._opponent_action()
            joint = [other, other]
            joint[self.player] = int(action)
            state.apply_actions(joint)
        else:
            state.apply_action(int(action))
        resolve_chance(state, self._rng)
        self._opponent_turns()
        done = state.is_terminal()
        reward = float(state.returns()[self.player]) if done else 0.0
        return self._observation(), reward, done, False, self._info()

    def render(self) -> str | np.ndarray | None:
        return render(self.game_state, self.render_mode)

    # -- helpers ------------------------------------------------------------------------------

    def _illegal_message(self, action: int) -> str:
        """The library's own message for an illegal ``action`` (played on a copy)."""
        trial = self.game_state.clone()
        try:
            if trial.current_player() == SIMULTANEOUS:
                joint = [trial.legal_actions(p)[0] for p in range(trial.info.num_players)]
                joint[self.player] = action
                trial.apply_actions(joint)
            else:
                trial.apply_action(action)
        except IllegalMoveError as error:
            return str(error)
        raise AssertionError(f"action {action} was expected to be illegal")  # pragma: no cover

    def _opponent_action(self) -> int:
        other = 1 - self.player
        return int(self.opponent.act(self.game_state.view(other), other, self.level))

    def _opponent_turns(self) -> None:
        """Let the opponent move until the learner must act or the game is over."""
        state = self.game_state
        while state.current_player() not in (TERMINAL, SIMULTANEOUS, self.player):
            state.apply_action(self._opponent_action())
            resolve_chance(state, self._rng)

    def _observation(self) -> dict[str, np.ndarray]:
        return observe(self.game_state, self.player)

    def _info(self) -> dict[str, Any]:
        outcome = self.game_state.outcome()
        info: dict[str, Any] = {"moves": self.game_state.move_number()}
        if outcome is not None:
            info["outcome"] = str(outcome)
        return info


def make_env(game: str, **kwargs: Any) -> LifeArenaEnv:
    """:class:`LifeArenaEnv` for ``game`` (the entry point Gymnasium's registry uses)."""
    return LifeArenaEnv(game, **kwargs)


def register_all() -> list[str]:
    """Register ``lifearena/<game>-v0`` for every game with Gymnasium; the ids."""
    ids = []
    for name in lifearena_games():
        env_id = f"lifearena/{name}-v0"
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point=make_env, kwargs={"game": name})
        ids.append(env_id)
    return ids


register_all()
