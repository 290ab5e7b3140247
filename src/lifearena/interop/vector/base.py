"""What every compiled vector environment shares: options, spaces, buffers, seeding, the
auto-reset bookkeeping and the Gymnasium ``VectorEnv`` API around a game's compiled kernels.

A game module subclasses :class:`CompiledVectorEnv` and fills four hooks:
:meth:`~CompiledVectorEnv._allocate` (its per-environment state arrays),
:meth:`~CompiledVectorEnv._reset_kernel` (start every environment),
:meth:`~CompiledVectorEnv._step_kernel` (one compiled call stepping the whole batch) and
:meth:`~CompiledVectorEnv.position` (environment ``i``'s position as a protocol
:class:`~lifearena.core.State`, for tests and for error messages). The kernels write the
observations, masks, rewards and flags into the preallocated arrays this class owns; no
Python loop runs over the environments in a step.

Auto-reset follows Gymnasium 1.x's ``AutoresetMode.NEXT_STEP`` (declared in ``metadata``):
the step that ends an episode returns its final observation with ``terminated`` set; the
next ``step`` ignores that environment's action, starts a new episode and returns its first
observation with reward 0.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from lifearena.core import State
from lifearena.errors import BadParameterError, IllegalMoveError
from lifearena.interop.games import canonical_name, game_params, refusal
from lifearena.interop.spaces import ILLEGAL_POLICIES, Encoding, check_choice
from lifearena.life.kernels.splitmix import sample_legal, seeded_states

SELF = "self"
"""The opponent name for self-play: the learner moves for both seats."""
MAX_ENVS = 1 << 20
"""The largest batch a vector environment accepts."""


class LegalMultiDiscrete(spaces.MultiDiscrete):
    """The batch's action space, ``MultiDiscrete([A] * N)``, whose ``sample()`` without a mask
    draws a legal action for every environment (compiled, from the environment's seeded
    sampling stream), as the single environments' spaces do; ``sample(mask)`` works as usual.
    """

    def __init__(self, nvec: np.ndarray, env: CompiledVectorEnv | None = None) -> None:
        super().__init__(nvec)
        self._env = env

    def sample(self, mask: Any = None, probability: Any = None) -> np.ndarray:
        if mask is None and probability is None and self._env is not None:
            return self._env.sample_actions()
        return super().sample(mask=mask, probability=probability)

    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, "_env": None}


class CompiledVectorEnv(VectorEnv):
    """``num_envs`` boards of one game stepped by compiled kernels (see the module doc).

    Options, as the single environment's (:class:`lifearena.interop.gymnasium.LifeArenaEnv`):
    ``opponent`` (one of :attr:`opponents`; ``"self"`` for self-play), ``player`` (the
    learner's seat, 0 or 1; ignored in self-play), ``params`` (the game's parameters),
    ``observation`` (``"planes"`` or ``"flat"``), ``mask_in_obs``, ``illegal`` (``"lose"``
    or ``"raise"``); and ``copy`` (default ``True``): whether ``reset`` and ``step`` hand
    out copies of the observation and mask buffers, or the buffers themselves (faster; the
    next call overwrites them).
    """

    metadata: ClassVar[dict[str, Any]] = {"autoreset_mode": AutoresetMode.NEXT_STEP,
                                          "render_modes": []}
    game: ClassVar[str] = ""
    """The game's registered name."""
    opponents: ClassVar[tuple[str, ...]] = ("random", SELF)
    """The opponents the kernels play, by name (``opponent_kind`` is the index here)."""

    def __init__(self, num_envs: int = 1, *, opponent: str = "random", player: int = 0,
                 params: Mapping[str, Any] | None = None, observation: str = "planes",
                 mask_in_obs: bool = False, illegal: str = "lose", copy: bool = True,
                 render_mode: str | None = None, game: str | None = None) -> None:
        if game is not None and canonical_name(game) != self.game:
            raise BadParameterError(f"game {game!r}; this vector environment plays {self.game}")
        if isinstance(num_envs, bool) or not isinstance(num_envs, int | np.integer) \
                or not 1 <= num_envs <= MAX_ENVS:
            raise BadParameterError(f"num_envs={num_envs!r:.40}; expected an integer "
                                    f"1..{MAX_ENVS}")
        if render_mode is not None:
            raise BadParameterError(f"render_mode {render_mode!r}; the vector environments "
                                    f"render nothing (expected None; position(i) gives a "
                                    f"board to render)")
        self.opponent = check_choice("opponent", opponent, self.opponents)
        self.opponent_kind = self.opponents.index(self.opponent)
        self.self_play = self.opponent == SELF
        if player not in (0, 1) or isinstance(player, bool):
            raise BadParameterError(f"player {player!r}; expected 0 or 1 (the learner's seat)")
        self.player = int(player)
        self.illegal = check_choice("illegal", illegal, ILLEGAL_POLICIES)
        if not isinstance(copy, bool):
            raise BadParameterError(f"copy={copy!r:.40}; expected True or False")
        self.copy = copy
        self.render_mode = None
        self.num_envs = n = int(num_envs)
        self.user_params = dict(params or {})
        self.params = game_params(self.game, params)
        self.encoding = Encoding(self.game, self.params, observation=observation,
                                 mask_in_obs=mask_in_obs)
        self.num_actions = self.encoding.num_actions
        self.single_observation_space = self.encoding.observation_space
        self.single_action_space = self.encoding.action_space()
        self.observation_space = batch_space(self.single_observation_space, n)
        self.action_space = LegalMultiDiscrete(np.full(n, self.num_actions, np.int64), self)
        shape = self.encoding.window.shape
        self._obs = np.zeros((n, *shape), np.float32)
        self._flat = self._obs.reshape(n, -1)
        self._mask = np.zeros((n, self.num_actions), np.bool_)
        self._mask_int8 = self._mask.view(np.int8)
        self._rewards = np.zeros(n, np.float64)
        self._terminated = np.zeros(n, np.bool_)
        self._truncated = np.zeros(n, np.bool_)
        self._ended = np.zeros(n, np.bool_)
        """Episodes that ended on the last step: the next step starts them anew."""
        self._forfeit = np.zeros(n, np.bool_)
        """Environments whose learner (or mover, in self-play) forfeited by an illegal action
        on the last step."""
        self.to_play = np.zeros(n, np.int8)
        """The seat whose view each observation shows: the learner's, or in self-play the
        side to move (at the end of an episode, the side that made the last move)."""
        self.opponent_actions = np.full(n, -1, np.int64)
        """The opponent's move in each environment during the last call (-1 for none)."""
        self._rng = seeded_states(None, n)
        self._sample_rng = seeded_states(None, n)
        self._started = False
        self._allocate()

    # -- hooks for the game modules --------------------------------------------------------------

    def _allocate(self) -> None:
        """Allocate the game's per-environment state arrays."""
        raise NotImplementedError

    def _reset_kernel(self) -> bool:
        """Start every environment (the compiled call); ``False`` if some environment found
        no start the learner can move in."""
        raise NotImplementedError

    def _step_kernel(self, actions: np.ndarray) -> int:
        """Step every environment (the compiled call); -1, or with ``illegal="raise"`` the
        first environment whose action is illegal, in which case nothing changed."""
        raise NotImplementedError

    def position(self, i: int, *, start: bool = False) -> State:
        """Environment ``i``'s position now, as the protocol's state; with ``start=True``
        the start of its episode, before any move (the opponent's first one included)."""
        raise NotImplementedError

    # -- Gymnasium API ----------------------------------------------------------------------------

    def reset(self, *, seed: int | list[int] | None = None,
              options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        """Start every environment; ``seed`` (an integer) makes the whole batch, its opponents
        and :meth:`sample_actions` reproducible."""
        if options:
            raise BadParameterError(f"reset options {sorted(options)!r:.60}; the vector "
                                    f"environments take none")
        if seed is not None:
            if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0:
                raise BadParameterError(f"seed={seed!r:.40}; expected a non-negative integer "
                                        f"(one seed for the whole batch)")
            streams = seeded_states(int(seed), 2 * self.num_envs)
            self._rng[:] = streams[:self.num_envs]
            self._sample_rng[:] = streams[self.num_envs:]
        self._ended[:] = False
        self._forfeit[:] = False
        self.opponent_actions[:] = -1
        if not self._reset_kernel():
            self._reset_failed()
        self._started = True
        return self._observation(), self._info()

    def step(self, actions: Any) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray,
                                          dict[str, Any]]:
        """Step every environment with its action (see the module doc for auto-reset)."""
        if not self._started:
            raise BadParameterError("call reset() before step()")
        chosen = self._actions(actions)
        self.opponent_actions[:] = -1
        bad = self._step_kernel(chosen)
        if bad >= 0:
            raise IllegalMoveError(f"environment {bad}: {self._refusal(bad, int(chosen[bad]))}")
        rewards, terminated, truncated = self._rewards, self._terminated, self._truncated
        if self.copy:
            rewards, terminated, truncated = rewards.copy(), terminated.copy(), truncated.copy()
        return self._observation(), rewards, terminated, truncated, self._info()

    def action_masks(self) -> np.ndarray:
        """The ``(num_envs, num_actions)`` boolean mask of each environment's legal actions
        now (all false where the episode just ended); what sb3-contrib's MaskablePPO asks
        for."""
        return self._mask.copy()

    def sample_actions(self) -> np.ndarray:
        """A uniformly random legal action for every environment (0 where none is legal),
        drawn compiled from the batch's seeded sampling streams."""
        out = np.zeros(self.num_envs, np.int64)
        sample_legal(self._mask, self._sample_rng, out)
        return out

    # -- helpers ------------------------------------------------------------------------------

    def _reset_failed(self) -> None:
        self._started = False
        raise BadParameterError(
            f"{self.game}: the opponent {self.opponent!r} ended 100 games in a row before "
            f"the learner's first move; expected a start where player {self.player} gets "
            f"to move (another start, seat or opponent)")

    def _actions(self, actions: Any) -> np.ndarray:
        try:
            chosen = np.asarray(actions)
        except (TypeError, ValueError):
            chosen = np.asarray(None)
        if chosen.shape != (self.num_envs,) or chosen.dtype.kind not in "iu":
            raise BadParameterError(f"actions of shape {chosen.shape} and dtype {chosen.dtype}; "
                                    f"expected {self.num_envs} integers, one per environment")
        return np.ascontiguousarray(chosen, dtype=np.int64)

    def _refusal(self, i: int, action: int) -> str:
        if not 0 <= action < self.num_actions:
            return (f"action {action} is outside Discrete({self.num_actions}); expected "
                    f"0 <= action < {self.num_actions}")
        state = self.position(i)
        seat = int(self.to_play[i])
        return refusal(state, seat, self.encoding.window.to_game(action))

    def _observation(self) -> Any:
        seen = self._obs if self.encoding.layout == "planes" else self._flat
        if self.copy:
            seen = seen.copy()
        if self.encoding.mask_in_obs:
            mask = self._mask_int8.copy() if self.copy else self._mask_int8
            return {"observation": seen, "action_mask": mask}
        return seen

    def _info(self) -> dict[str, Any]:
        info: dict[str, Any] = {
            "action_mask": self._mask_int8.copy() if self.copy else self._mask_int8}
        if self._forfeit.any():
            info["illegal_action"] = self._forfeit.copy()
            info["_illegal_action"] = self._forfeit.copy()
        return info
