"""What every compiled vector environment shares: options, spaces, buffers, seeding, the
opponent pool, the policy opponent, auto-reset and the Gymnasium ``VectorEnv`` API around a
game's compiled kernels: the one batched step loop every game's environment runs.

A game module subclasses :class:`CompiledVectorEnv` and fills its hooks with compiled calls
over the whole batch: :meth:`~CompiledVectorEnv._allocate` (its per-board state arrays),
:meth:`~CompiledVectorEnv._start_kernel` (start the boards a mask selects),
:meth:`~CompiledVectorEnv._step_kernel` (the learner's move on the active boards, then the
compiled opponent's reply), :meth:`~CompiledVectorEnv._reply_kernel` (a policy opponent's
moves, chosen in Python) and :meth:`~CompiledVectorEnv.position` (board ``i``'s position as
a protocol :class:`~lifearena.core.State`, for tests and error messages). The kernels write
the observations, masks, rewards and flags into the preallocated arrays this class owns; no
Python loop runs over the boards in a step. The rules themselves live in the game's package
(``games/<game>/fast.py``); a vector module only writes observations and masks.

**Opponents.** ``opponent`` is a name, a sequence of names (equal weights) or a mapping of
names to weights: a **pool**, from which every board draws its opponent afresh at each
episode start, from a stream of its own. Names: the game's compiled opponents
(:attr:`~CompiledVectorEnv.opponents`, played inside the compiled step), ``"self"``
(self-play: the learner moves for both seats) and ``"policy"``: a frozen policy, the callable
``opponent_policy(observations, masks) -> actions`` given the observations (from the
opponent's seat, in the environment's layout) and the boolean masks of the boards waiting
for it, called once per ply for all of them. ``info["opponent"]`` gives each board's
opponent as an index into :attr:`~CompiledVectorEnv.pool`.

**Seeds.** ``reset(seed=s)`` gives board ``i`` the seed ``s + i`` (as Gymnasium's
synchronous vector environments do); ``reset(seed=[s0, s1, ...])`` one seed per board. A
board's start, its opponents' draws, its pool draws and :meth:`sample_actions` come from
streams of its own derived from its seed alone, so board ``i`` plays the same games whatever
``num_envs`` is. ``reset(options={"reset_mask": m})`` starts only the boards where ``m`` is
true (with their seeds, if given) and leaves the others as they are.

**Auto-reset**, Gymnasium 1.x's modes (``autoreset_mode``): ``"next_step"`` (the default,
``AutoresetMode.NEXT_STEP``): the step that ends an episode returns its final observation
with ``terminated`` set; the next ``step`` ignores that board's action, starts a new episode
and returns its first observation with reward 0. ``"same_step"``
(``AutoresetMode.SAME_STEP``): the step that ends an episode starts the next one at once and
returns its first observation, the final one in ``info["final_obs"]`` (an object array,
``None`` for the boards that did not end; ``info["_final_obs"]`` marks them) with
``info["final_info"]``; every action is used.

``info`` always holds ``"action_mask"`` (int8 rows) and ``"to_play"`` (the seat each
observation is seen from), so that Gymnasium's vector wrappers, which do not forward
:meth:`~CompiledVectorEnv.action_masks`, keep them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space
from numba import njit

from lifearena.core import State
from lifearena.errors import BadParameterError, IllegalMoveError
from lifearena.interop.games import canonical_name, game_params, refusal
from lifearena.interop.spaces import ILLEGAL_POLICIES, Encoding, check_choice
from lifearena.life.kernels.splitmix import mix, next_double, sample_legal

SELF = "self"
"""The opponent name for self-play: the learner moves for both seats."""
POLICY = "policy"
"""The opponent name for a frozen policy given as ``opponent_policy``."""
SELF_KIND = -1
"""A board's opponent kind in self-play (compiled opponents are ``>= 0``)."""
POLICY_KIND = -2
"""A board's opponent kind when the ``opponent_policy`` callback plays its other seat."""
MAX_ENVS = 1 << 20
"""The largest batch a vector environment accepts."""
AUTORESET_MODES = {"next_step": AutoresetMode.NEXT_STEP, "same_step": AutoresetMode.SAME_STEP}
"""The auto-reset modes offered, by name (Gymnasium's ``AutoresetMode`` values work too)."""
MAX_REPLIES = 100_000
"""Policy plies a single call may ask for before the environment gives up (a game whose
turn never ends)."""
_GAME_STREAM, _SAMPLE_STREAM, _POOL_STREAM = 1, 2, 3
PolicyCallback = Callable[[np.ndarray, np.ndarray], Any]
"""``opponent_policy(observations, masks) -> actions``: one action per board given."""


@njit(cache=True)
def _seed_streams(seeds: np.ndarray, which: np.ndarray, game: np.ndarray,
                  sample: np.ndarray, pool: np.ndarray) -> None:
    """Board ``i``'s three stream words from its seed alone (for the boards ``which``
    selects): SplitMix64's finaliser over the seed and the stream's number, twice."""
    for i in range(seeds.shape[0]):
        if which[i]:
            s = mix(np.uint64(seeds[i]) ^ np.uint64(0x6A09E667F3BCC909))
            game[i] = mix(s + np.uint64(_GAME_STREAM))
            sample[i] = mix(s + np.uint64(_SAMPLE_STREAM))
            pool[i] = mix(s + np.uint64(_POOL_STREAM))


@njit(cache=True)
def _draw_kinds(which: np.ndarray, pool: np.ndarray, cumulative: np.ndarray,
                kinds_of: np.ndarray, kinds: np.ndarray) -> None:
    """Each selected board's opponent for its next episode, drawn from the pool's
    ``cumulative`` weights (ending at 1) with the board's pool stream."""
    last = cumulative.shape[0] - 1
    for i in range(which.shape[0]):
        if which[i]:
            u = next_double(pool, i)
            k = 0
            while k < last and u >= cumulative[k]:
                k += 1
            kinds[i] = kinds_of[k]


class LegalMultiDiscrete(spaces.MultiDiscrete):
    """The batch's action space, ``MultiDiscrete([A] * N)``, whose ``sample()`` without a mask
    draws a legal action for every environment (compiled, from the environment's seeded
    sampling streams), as the single environments' spaces do; ``sample(mask)`` works as usual.
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


def opponent_pool(spec: Any, names: Sequence[str]) -> dict[str, float]:
    """The pool an ``opponent`` option names: ``{name: weight}``, weights summing to 1.

    >>> opponent_pool("random", ("random", "greedy"))
    {'random': 1.0}
    >>> opponent_pool({"random": 1, "greedy": 3}, ("random", "greedy"))
    {'random': 0.25, 'greedy': 0.75}
    >>> opponent_pool(["random", "self"], ("random",))
    {'random': 0.5, 'self': 0.5}
    """
    offered = (*names, SELF, POLICY)
    if isinstance(spec, str):
        spec = {spec: 1.0}
    elif isinstance(spec, Sequence) and not isinstance(spec, bytes) and spec:
        spec = {name: 1.0 for name in spec}
    if not isinstance(spec, Mapping) or not spec:
        raise BadParameterError(f"opponent={spec!r:.60}; expected a name, a list of names or "
                                f"a mapping of names to weights, among {', '.join(offered)}")
    pool: dict[str, float] = {}
    for name, weight in spec.items():
        name = check_choice("opponent", name, offered)
        if isinstance(weight, bool) or not isinstance(weight, int | float | np.number) \
                or not np.isfinite(weight) or weight < 0:
            raise BadParameterError(f"opponent weight {name}={weight!r:.40}; expected a "
                                    f"finite number >= 0")
        pool[name] = pool.get(name, 0.0) + float(weight)
    total = sum(pool.values())
    if total <= 0:
        raise BadParameterError(f"opponent weights {spec!r:.60}; expected some weight > 0")
    return {name: weight / total for name, weight in pool.items() if weight > 0}


class CompiledVectorEnv(VectorEnv):
    """``num_envs`` boards of one game stepped by compiled kernels (see the module doc).

    Options, as the single environment's (:class:`lifearena.interop.gymnasium.LifeArenaEnv`):
    ``opponent`` (a name among :attr:`opponents`, ``"self"``, ``"policy"``, or a pool of
    them), ``opponent_policy`` (the callback a ``"policy"`` opponent calls), ``player`` (the
    learner's seat, 0 or 1; ignored in self-play), ``params`` (the game's parameters),
    ``observation`` (``"planes"`` or ``"flat"``), ``mask_in_obs``, ``illegal`` (``"lose"``
    or ``"raise"``), ``autoreset_mode`` (``"next_step"`` or ``"same_step"``); and ``copy``
    (default ``True``): whether ``reset`` and ``step`` hand out copies of the observation
    and mask buffers, or the buffers themselves (faster; the next call overwrites them).
    """

    metadata: ClassVar[dict[str, Any]] = {"autoreset_mode": AutoresetMode.NEXT_STEP,
                                          "render_modes": []}
    game: ClassVar[str] = ""
    """The game's registered name."""
    opponents: ClassVar[tuple[str, ...]] = ("random",)
    """The compiled opponents, by name (a board's kind is its index here); ``"self"`` and
    ``"policy"`` are offered besides."""
    simultaneous: ClassVar[bool] = False
    """Whether both seats choose at once (the policy opponent is then asked before the
    learner's move is applied, on the same position)."""
    board_arrays: ClassVar[tuple[str, ...]] = ()
    """The game's per-board state arrays (attribute names, first axis the board): what
    :meth:`snapshot` copies besides the shared ones. Empty: snapshots not offered."""
    _SHARED_ARRAYS: ClassVar[tuple[str, ...]] = (
        "_obs", "_mask", "_opp_obs", "_opp_mask", "_waiting", "_rewards", "_terminated",
        "_truncated", "_ended", "_forfeit", "_kinds", "to_play", "opponent_actions", "_rng",
        "_sample_rng", "_pool_rng")

    def __init__(self, num_envs: int = 1, *, opponent: Any = "random", player: int = 0,
                 params: Mapping[str, Any] | None = None, observation: str = "planes",
                 mask_in_obs: bool = False, illegal: str = "lose", copy: bool = True,
                 autoreset_mode: Any = "next_step",
                 opponent_policy: PolicyCallback | None = None,
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
        self.pool_weights = opponent_pool(opponent, self.opponents)
        self.pool = tuple(self.pool_weights)
        """The pool's names; ``info["opponent"]`` indexes this."""
        self.opponent: str = self.pool[0] if len(self.pool) == 1 else "pool"
        kinds_of = [SELF_KIND if name == SELF else POLICY_KIND if name == POLICY
                    else self.opponents.index(name) for name in self.pool]
        self._kinds_of = np.array(kinds_of, np.int8)
        self._pool_index = np.zeros(len(self.opponents) + 2, np.int8)
        """A kind's index in :attr:`pool` (``SELF_KIND`` and ``POLICY_KIND`` from the end)."""
        self._pool_index[self._kinds_of] = np.arange(len(self._kinds_of))
        self._cumulative = np.cumsum(list(self.pool_weights.values()))
        self._cumulative[-1] = 1.0
        self.self_play = self.pool == (SELF,)
        self.uses_policy = POLICY in self.pool
        if self.uses_policy and not callable(opponent_policy):
            raise BadParameterError(f"opponent_policy={opponent_policy!r:.40}; the "
                                    f"\"policy\" opponent needs a callable "
                                    f"(observations, masks) -> actions")
        if opponent_policy is not None and not self.uses_policy:
            raise BadParameterError("opponent_policy given but no \"policy\" opponent in "
                                    f"opponent={opponent!r:.60}")
        self.opponent_policy = opponent_policy
        if player not in (0, 1) or isinstance(player, bool):
            raise BadParameterError(f"player {player!r}; expected 0 or 1 (the learner's seat)")
        self.player = int(player)
        self.illegal = check_choice("illegal", illegal, ILLEGAL_POLICIES)
        if not isinstance(copy, bool):
            raise BadParameterError(f"copy={copy!r:.40}; expected True or False")
        self.copy = copy
        modes = {**AUTORESET_MODES, **{m: m for m in AUTORESET_MODES.values()}}
        if not isinstance(autoreset_mode, str | AutoresetMode) or autoreset_mode not in modes:
            raise BadParameterError(f"autoreset_mode={autoreset_mode!r:.40}; expected one of "
                                    f"{', '.join(AUTORESET_MODES)}")
        self.autoreset_mode = modes[autoreset_mode]
        self.metadata = {**type(self).metadata, "autoreset_mode": self.autoreset_mode}
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
        rows = n if self.uses_policy else 1
        self._opp_obs = np.zeros((rows, *shape), np.float32)
        """The view of the seat a policy opponent plays, on the boards waiting for it."""
        self._opp_mask = np.zeros((rows, self.num_actions), np.bool_)
        self._waiting = np.zeros(n, np.bool_)
        """Boards whose policy opponent is to play (alternating games)."""
        self._opp_actions = np.full(n, -1, np.int64)
        self._rewards = np.zeros(n, np.float64)
        self._terminated = np.zeros(n, np.bool_)
        self._truncated = np.zeros(n, np.bool_)
        self._ended = np.zeros(n, np.bool_)
        """Episodes that ended on the last step: the next step starts them anew."""
        self._forfeit = np.zeros(n, np.bool_)
        """Environments whose learner (or mover, in self-play) forfeited by an illegal action
        on the last step."""
        self._kinds = np.full(n, self._kinds_of[0], np.int8)
        """Each board's opponent this episode: an index into :attr:`opponents`,
        :data:`SELF_KIND` or :data:`POLICY_KIND`."""
        self.to_play = np.zeros(n, np.int8)
        """The seat whose view each observation shows: the learner's, or in self-play the
        side to move (at the end of an episode, the side that made the last move)."""
        self.opponent_actions = np.full(n, -1, np.int64)
        """The opponent's move in each environment during the last call (-1 for none)."""
        self._rng = np.zeros(n, np.uint64)
        self._sample_rng = np.zeros(n, np.uint64)
        self._pool_rng = np.zeros(n, np.uint64)
        self._seed_boards(None, np.ones(n, np.bool_))
        self._started = False
        self._allocate()

    # -- hooks for the game modules --------------------------------------------------------------

    def _allocate(self) -> None:
        """Allocate the game's per-board state arrays."""
        raise NotImplementedError

    def _start_kernel(self, which: np.ndarray) -> bool:
        """Start a new episode on every board ``which`` selects (the compiled call): draw its
        start from its stream; when the learner sits second, play a compiled opponent's first
        move, or leave a policy opponent's board waiting with that seat's view written; write
        the learner's observation, mask and ``to_play``. ``False`` if some board found no
        start the learner can move in after 100 draws."""
        raise NotImplementedError

    def _step_kernel(self, actions: np.ndarray, active: np.ndarray,
                     opp_actions: np.ndarray) -> int:
        """Step the boards ``active`` selects with their actions (and, in a simultaneous
        game, a policy opponent's ``opp_actions``): -1, or with ``illegal="raise"`` the first
        board whose action is illegal, in which case nothing changed."""
        raise NotImplementedError

    def _reply_kernel(self, opp_actions: np.ndarray, waiting: np.ndarray) -> int:
        """Play the policy opponent's ``opp_actions`` on the boards ``waiting`` selects: -1,
        or the first board whose action is illegal (nothing changed then)."""
        raise NotImplementedError

    def position(self, i: int, *, start: bool = False) -> State:
        """Environment ``i``'s position now, as the protocol's state; with ``start=True``
        the start of its episode, before any move (the opponent's first one included)."""
        raise NotImplementedError

    # -- Gymnasium API ----------------------------------------------------------------------------

    def reset(self, *, seed: int | Sequence[int] | None = None,
              options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        """Start every board, or with ``options={"reset_mask": m}`` the boards ``m``
        selects; ``seed`` (an integer: board ``i`` takes ``seed + i``; or one per board)
        makes their games, opponents and :meth:`sample_actions` reproducible."""
        which = np.ones(self.num_envs, np.bool_)
        options = dict(options or {})
        if "reset_mask" in options:
            which = self._reset_mask(options.pop("reset_mask"))
        if options:
            raise BadParameterError(f"reset options {sorted(options)!r:.60}; expected only "
                                    f"'reset_mask'")
        if not self._started and not which.all():
            raise BadParameterError("reset_mask before the first reset(); call reset() "
                                    "without it first")
        if seed is not None:
            self._seed_boards(seed, which)
        self.opponent_actions[which] = -1
        self._rewards[:] = 0.0
        self._terminated[:] = False
        self._truncated[:] = False
        self._start(which)
        self._started = True
        return self._observation(), self._info()

    def step(self, actions: Any) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray,
                                          dict[str, Any]]:
        """Step every board with its action (see the module doc for auto-reset)."""
        if not self._started:
            raise BadParameterError("call reset() before step()")
        chosen = self._actions(actions)
        self.opponent_actions[:] = -1
        self._rewards[:] = 0.0
        self._terminated[:] = False
        self._truncated[:] = False
        restart = self._ended.copy()
        active = ~restart
        self._opp_actions[:] = -1
        if self.simultaneous and self.uses_policy:
            self._ask_policy(active & (self._kinds == POLICY_KIND))
        bad = self._step_kernel(chosen, active, self._opp_actions)
        if bad >= 0:
            raise IllegalMoveError(f"environment {bad}: {self._refusal(bad, int(chosen[bad]))}")
        self._play_replies()
        info: dict[str, Any] = {}
        if self.autoreset_mode == AutoresetMode.SAME_STEP:
            done = self._ended.copy()
            if done.any():
                info = self._final(done)
                self._start(done)
        elif restart.any():
            self._start(restart)
        rewards, terminated, truncated = self._rewards, self._terminated, self._truncated
        if self.copy:
            rewards, terminated, truncated = rewards.copy(), terminated.copy(), truncated.copy()
        return self._observation(), rewards, terminated, truncated, {**self._info(), **info}

    def action_masks(self) -> np.ndarray:
        """The ``(num_envs, num_actions)`` boolean mask of each environment's legal actions
        now (all false where the episode just ended); what sb3-contrib's MaskablePPO asks
        for."""
        return self._mask.copy()

    def sample_actions(self) -> np.ndarray:
        """A uniformly random legal action for every environment (0 where none is legal),
        drawn compiled from each board's seeded sampling stream."""
        out = np.zeros(self.num_envs, np.int64)
        sample_legal(self._mask, self._sample_rng, out)
        return out

    # -- search: copying, setting and stepping chosen boards ------------------------------------

    def snapshot(self) -> dict[str, np.ndarray]:
        """A copy of every board's state (positions, buffers, streams): what a search
        returns to with :meth:`restore` after trying moves on the batch itself."""
        if not self.board_arrays:
            raise BadParameterError(f"{self.game}: snapshots are not offered by this vector "
                                    f"environment yet")
        return {name: getattr(self, name).copy()
                for name in (*self._SHARED_ARRAYS, *self.board_arrays)}

    def restore(self, snapshot: Mapping[str, np.ndarray],
                boards: np.ndarray | None = None) -> None:
        """Put back the boards ``boards`` selects (every board when ``None``) as they were in
        ``snapshot`` (from :meth:`snapshot` of an environment of the same batch size)."""
        if set(snapshot) != {*self._SHARED_ARRAYS, *self.board_arrays}:
            raise BadParameterError("restore: expected a snapshot of this environment")
        for name, saved in snapshot.items():
            target = getattr(self, name)
            if saved.shape != target.shape:
                raise BadParameterError(f"restore: {name} of shape {saved.shape}; expected "
                                        f"{target.shape} (a snapshot of this batch size)")
            if boards is None or len(target) != self.num_envs:
                target[...] = saved
            else:
                target[boards] = saved[boards]

    def step_boards(self, actions: Any, active: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Self-play search: play ``actions`` on the boards ``active`` selects, nothing else
        (no auto-reset, no opponent); ``(rewards, terminated)`` of the movers. The
        observations and masks (:attr:`observations`, :meth:`action_masks`) are then those
        of the side to move."""
        if not self.self_play:
            raise BadParameterError("step_boards needs opponent='self' (a search plays both "
                                    "seats)")
        chosen = self._actions(actions)
        active = np.ascontiguousarray(active, dtype=np.bool_)
        self._rewards[active] = 0.0
        self._terminated[active] = False
        bad = self._step_kernel(chosen, active, self._opp_actions)
        if bad >= 0:
            raise IllegalMoveError(f"environment {bad}: {self._refusal(bad, int(chosen[bad]))}")
        return self._rewards.copy(), self._terminated.copy()

    @property
    def observations(self) -> np.ndarray:
        """The observation buffer (planes), to be read, not written."""
        return self._obs

    # -- the step loop's parts -------------------------------------------------------------------

    def _start(self, which: np.ndarray) -> None:
        """New episodes on the boards ``which`` selects: their opponents drawn from the pool,
        the game's start, and the policy opponent's first plies where it moves first."""
        if len(self.pool) > 1:
            _draw_kinds(which, self._pool_rng, self._cumulative, self._kinds_of, self._kinds)
        for _ in range(100):
            self._ended[which] = False
            self._forfeit[which] = False
            self._waiting[which] = False
            if not self._start_kernel(which):
                self._reset_failed()
            self._play_replies()
            # a policy opponent moving first may end a game before the learner's first
            # move (the compiled ones draw another start themselves): draw again
            which = which & self._ended
            if not which.any():
                return
            self._rewards[which] = 0.0
            self._terminated[which] = False
        self._reset_failed()

    def _ask_policy(self, boards: np.ndarray) -> None:
        """The policy opponent's actions on ``boards``, into ``_opp_actions``."""
        if not boards.any():
            return
        assert self.opponent_policy is not None
        observations = self._opp_obs[boards]
        if self.encoding.layout != "planes":
            observations = observations.reshape(len(observations), -1)
        masks = self._opp_mask[boards]
        try:
            chosen = np.asarray(self.opponent_policy(observations, masks))
        except (TypeError, ValueError) as error:
            raise BadParameterError(f"opponent_policy failed: {error}") from error
        if chosen.shape != (len(masks),) or chosen.dtype.kind not in "iu":
            raise BadParameterError(f"opponent_policy returned shape {chosen.shape} and dtype "
                                    f"{chosen.dtype}; expected {len(masks)} integers, one per "
                                    f"board given")
        inside = (chosen >= 0) & (chosen < self.num_actions)
        legal = inside.copy()
        legal[inside] = masks[np.flatnonzero(inside), chosen[inside]]
        if not legal.all():  # refused before anything changes
            k = int(np.argmin(legal))
            raise BadParameterError(
                f"opponent_policy chose action {int(chosen[k])} on board "
                f"{int(np.flatnonzero(boards)[k])}, which is illegal there; expected an "
                f"action its mask allows")
        self._opp_actions[boards] = chosen
        self.opponent_actions[boards] = chosen

    def _play_replies(self) -> None:
        """Alternating games: ask the policy opponent for the boards waiting for it and play
        its moves, until none waits (a turn may take several plies)."""
        for _ in range(MAX_REPLIES):
            if self.simultaneous or not self._waiting.any():
                return
            waiting = self._waiting.copy()
            self._opp_actions[:] = -1
            self._ask_policy(waiting)
            bad = self._reply_kernel(self._opp_actions, waiting)
            if bad >= 0:
                raise BadParameterError(
                    f"opponent_policy chose action {int(self._opp_actions[bad])} on board "
                    f"{bad}, which is illegal there; expected an action its mask allows")
        raise BadParameterError(f"the policy opponent was asked {MAX_REPLIES} times in one "
                                f"call; expected its turns to end")

    def _final(self, done: np.ndarray) -> dict[str, Any]:
        """Gymnasium's SAME_STEP keys for the boards that just ended, before they restart."""
        seen = self._observation(copy=True)
        final_obs = np.full(self.num_envs, None, dtype=object)
        for i in np.flatnonzero(done):
            final_obs[i] = {key: value[i] for key, value in seen.items()} \
                if isinstance(seen, dict) else seen[i]
        final_info: dict[str, Any] = {"to_play": self.to_play.copy(), "_to_play": done.copy()}
        if self._forfeit.any():
            final_info["illegal_action"] = self._forfeit.copy()
            final_info["_illegal_action"] = self._forfeit.copy()
        return {"final_obs": final_obs, "_final_obs": done.copy(), "final_info": final_info,
                "_final_info": done.copy()}

    # -- helpers ------------------------------------------------------------------------------

    def _seed_boards(self, seed: Any, which: np.ndarray) -> None:
        n = self.num_envs
        if seed is None:
            base = int(np.random.SeedSequence().generate_state(1, np.uint64)[0]) >> 1
            seeds = base + np.arange(n, dtype=np.int64)
        elif isinstance(seed, int | np.integer) and not isinstance(seed, bool):
            if not 0 <= seed < 2**62:
                raise BadParameterError(f"seed={seed!r:.40}; expected an integer 0..2**62 - 1 "
                                        f"(board i takes seed + i) or one per board")
            seeds = int(seed) + np.arange(n, dtype=np.int64)
        else:
            try:
                seeds = np.asarray(seed)
            except (TypeError, ValueError):
                seeds = np.asarray(None)
            if seeds.shape != (n,) or seeds.dtype.kind not in "iu" or (seeds < 0).any() \
                    or (seeds >= 2**62).any():
                raise BadParameterError(f"seed of shape {seeds.shape} and dtype "
                                        f"{seeds.dtype}; expected an integer or {n} integers "
                                        f"0..2**62 - 1, one per board")
            seeds = seeds.astype(np.int64)
        _seed_streams(seeds, which, self._rng, self._sample_rng, self._pool_rng)

    def _reset_mask(self, mask: Any) -> np.ndarray:
        try:
            which = np.asarray(mask)
        except (TypeError, ValueError):
            which = np.asarray(None)
        if which.shape != (self.num_envs,) or which.dtype != np.bool_:
            raise BadParameterError(f"reset_mask of shape {which.shape} and dtype "
                                    f"{which.dtype}; expected {self.num_envs} booleans, one "
                                    f"per board")
        return np.ascontiguousarray(which)

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

    def _observation(self, copy: bool | None = None) -> Any:
        copy = self.copy if copy is None else copy
        seen = self._obs if self.encoding.layout == "planes" else self._flat
        if copy:
            seen = seen.copy()
        if self.encoding.mask_in_obs:
            mask = self._mask_int8.copy() if copy else self._mask_int8
            return {"observation": seen, "action_mask": mask}
        return seen

    def _info(self) -> dict[str, Any]:
        info: dict[str, Any] = {
            "action_mask": self._mask_int8.copy() if self.copy else self._mask_int8,
            "to_play": self.to_play.copy()}
        info["opponent"] = self._pool_index[self._kinds]
        if self._forfeit.any():
            info["illegal_action"] = self._forfeit.copy()
            info["_illegal_action"] = self._forfeit.copy()
        return info
