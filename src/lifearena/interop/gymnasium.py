"""Every lifearena game as a single-agent Gymnasium environment against one of our agents.

:class:`LifeArenaEnv` seats the learner at ``player`` (0 or 1) and an opponent from
:func:`lifearena.agents.make` at the other seat: ``opponent`` names it (``"random"``,
``"greedy"``, ``"alphabeta"``...), ``level`` is its thinking limit (a
:class:`~lifearena.agents.base.Limit` or its text, ``"depth=2"``, ``"time=0.1"``) and
``opponent_options`` its keyword options. The opponent sees only ``State.view`` of its seat.

* observation and action spaces, ``observation="planes" | "flat"``, ``mask_in_obs`` and the
  legal-action mask as in every environment here (:mod:`lifearena.interop.spaces`): float32
  planes by default, the mask in ``info["action_mask"]`` and from :meth:`~LifeArenaEnv.action_masks`
  (what sb3-contrib's MaskablePPO calls), and in the observation only with ``mask_in_obs=True``.
* reward: the learner's return (+1 win, -1 loss, 0 draw) on the step that ends the game, 0
  before; ``terminated`` when the game ends; ``truncated`` never (every game has its own
  move limit where it needs one).
* ``reset(seed=...)`` seeds the random start (unless ``params`` fix ``seed``) and the
  opponent, so a seed replays the same episode for the same actions. ``reset`` never hands
  over a finished game: when the opponent, moving first, ends it before the learner's first
  move, the episode is drawn again (a new start where the start is random), up to 100 times,
  then :class:`~lifearena.errors.BadParameterError` says so.
* ``render_mode`` ``"human"`` (prints the board after every step), ``"ansi"`` (text) or
  ``"rgb_array"`` (a picture).

In a turn-based game the opponent moves between the learner's moves (and first, when the
learner sits second); in a simultaneous game both choices are applied together.

An illegal action (one the mask rules out) forfeits the game by default
(``illegal="lose"``): reward -1, ``terminated``, and ``info["illegal_action"]`` holds the
library's :class:`~lifearena.errors.IllegalMoveError` message. That is PettingZoo's classic
convention (``TerminateIllegalWrapper``) and the same default as the PettingZoo
environments. ``illegal="raise"`` raises the error instead and changes nothing.

Importing this module also registers ``lifearena/<game>-v0`` with Gymnasium:

>>> import gymnasium
>>> env = gymnasium.make("lifearena/war_of_life-v0", opponent="bloodlust")
>>> observation, info = env.reset(seed=1)
>>> observation.shape, observation.dtype, env.action_space
((3, 8, 8), dtype('float32'), Discrete(512))
>>> bool(env.unwrapped.action_masks().any())
True
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
    render,
    resolve_chance,
    start_episode,
)
from lifearena.interop.spaces import ILLEGAL_POLICIES, Encoding, check_choice, legal_sampler

RESET_TRIES = 100
"""How many starts ``reset`` tries before it gives up on one the learner can move in."""


class LifeArenaEnv(gymnasium.Env):
    """A lifearena game against one of our agents (see the module doc)."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": list(RENDER_MODES), "render_fps": 2}

    def __init__(self, game: str, *, opponent: str = "random",
                 level: Limit | str | None = None,
                 opponent_options: Mapping[str, Any] | None = None, player: int = 0,
                 params: Mapping[str, Any] | None = None,
                 render_mode: str | None = None, observation: str = "planes",
                 mask_in_obs: bool = False, illegal: str = "lose") -> None:
        self.game = canonical_name(game)
        self.illegal = check_choice("illegal", illegal, ILLEGAL_POLICIES)
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
        self.encoding = Encoding(self.game, self.params, observation=observation,
                                 mask_in_obs=mask_in_obs)
        self.game_state: State = self.encoding.game.new_initial_state()
        self.observation_space = self.encoding.observation_space
        self.action_space = self.encoding.action_space(
            legal_sampler(self, LifeArenaEnv.action_masks_int8))
        self._forfeited = False
        self._rng = np.random.default_rng()

    # -- Gymnasium API ------------------------------------------------------------------------

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[Any, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._rng = np.random.default_rng(seed)
            self.opponent = make(self.opponent_name, game=self.game,
                                 seed=int(self._rng.integers(2**31)), **self.opponent_options)
        else:
            self.opponent.reset()
        self._forfeited = False
        for _ in range(RESET_TRIES):
            self.game_state = start_episode(self.game, self.params, self._rng,
                                            draw_seed=self._draws_seed)
            self._opponent_turns()
            if not self.game_state.is_terminal():
                self._shown()
                return self._observation(), self._info()
            self.opponent.reset()
        raise BadParameterError(
            f"{self.game}: the opponent {self.opponent_name!r} ended all of {RESET_TRIES} "
            f"games before the learner's first move; expected a start where player "
            f"{self.player} gets to move (another start, seat or opponent)")

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        state = self.game_state
        if state.is_terminal() or self._forfeited:
            raise BadParameterError("the episode is over; call reset() before step()")
        try:
            chosen = self.encoding.to_game(state, self.player, action)
        except IllegalMoveError as error:
            if self.illegal == "raise":
                raise
            self._forfeited = True
            info = {**self._info(), "illegal_action": str(error)}
            self._shown()
            return self._observation(), state.info.min_utility, True, False, info
        if state.current_player() == SIMULTANEOUS:
            other = self._opponent_action()
            joint = [other, other]
            joint[self.player] = chosen
            state.apply_actions(joint)
        else:
            state.apply_action(chosen)
        resolve_chance(state, self._rng)
        self._opponent_turns()
        done = state.is_terminal()
        reward = float(state.returns()[self.player]) if done else 0.0
        self._shown()
        return self._observation(), reward, done, False, self._info()

    def render(self) -> str | np.ndarray | None:
        return render(self.game_state, self.render_mode)

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions now, as booleans over the action space (what
        sb3-contrib's MaskablePPO asks for); all false once the episode is over."""
        return self.action_masks_int8().astype(bool)

    def action_masks_int8(self) -> np.ndarray:
        """:meth:`action_masks` as the int8 vector of ``info["action_mask"]``."""
        if self._forfeited:
            return np.zeros(self.encoding.num_actions, np.int8)
        return self.encoding.mask(self.game_state, self.player)

    # -- helpers ------------------------------------------------------------------------------

    def _opponent_action(self) -> int:
        other = 1 - self.player
        return int(self.opponent.act(self.game_state.view(other), other, self.level))

    def _opponent_turns(self) -> None:
        """Let the opponent move until the learner must act or the game is over."""
        state = self.game_state
        while state.current_player() not in (TERMINAL, SIMULTANEOUS, self.player):
            state.apply_action(self._opponent_action())
            resolve_chance(state, self._rng)

    def _observation(self) -> Any:
        return self.encoding.observe(self.game_state, self.player)

    def _info(self) -> dict[str, Any]:
        outcome = None if self._forfeited else self.game_state.outcome()
        info: dict[str, Any] = {"moves": self.game_state.move_number(),
                                "action_mask": self.action_masks_int8()}
        if outcome is not None:
            info["outcome"] = str(outcome)
        return info

    def _shown(self) -> None:
        if self.render_mode == "human":
            render(self.game_state, "human")


def make_env(game: str, **kwargs: Any) -> LifeArenaEnv:
    """:class:`LifeArenaEnv` for ``game`` (the entry point Gymnasium's registry uses)."""
    return LifeArenaEnv(game, **kwargs)


def register_all() -> list[str]:
    """Register ``lifearena/<game>-v0`` for every game with Gymnasium; the ids. A game with a
    compiled vector environment (:mod:`lifearena.interop.vector`) gets it as the id's
    ``vector_entry_point``, so ``gymnasium.make_vec`` builds it."""
    from lifearena.interop.vector import VECTOR_GAMES

    ids = []
    for name in lifearena_games():
        env_id = f"lifearena/{name}-v0"
        if env_id not in gymnasium.registry:
            vector = "lifearena.interop.vector:make_vector_env" if name in VECTOR_GAMES \
                else None
            gymnasium.register(id=env_id, entry_point=make_env, kwargs={"game": name},
                               vector_entry_point=vector)
        ids.append(env_id)
    return ids


register_all()
