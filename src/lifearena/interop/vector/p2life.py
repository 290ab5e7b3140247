"""p2life (moves between generations) as a compiled vector environment: ``num_envs`` square
boards stepped in one numba call, on the kernels of :mod:`lifearena.games.p2life.fast` (the
turn, the generation, the ending rules and the opponents are said there once; this module
holds the buffers and writes the observations and masks).

A board is a flat ``int8`` row of ``size²`` cells (0 empty, 1 white, 2 black), row-major.
The generation reads the engine's rule as data, ``Rule.named("p2life").table`` (next state by
own state and the counts of white and black neighbours), and a 3-vs-3 birth takes the colour
of :mod:`lifearena.life.coin`'s counter-based hash of ``(seed, generation, cell)``, the same
coin the protocol's step tosses; neighbours wrap round on a torus or stop at the edge, as
the ``torus`` parameter says.

Every episode has its own game seed (the coins), drawn like its soup from the environment's
compiled generator: the soup has the distribution of the game's
:func:`~lifearena.games.p2life.rules.symmetric_soup` (the first half of the cells live with
probability ``density``, a fair colour, the rest its point reflection with colours swapped),
not the same draws. ``params={"seed": s}`` starts every episode from ``new_game(seed=s)``
with its coins instead.

Both choices of a turn are applied together, as in the single environment: the learner's and
the opponent's (``opponent="random"``: uniform among pass, the empty cells to place on and
its own tokens to remove). ``opponent="self"`` plays the turn-based form, as Life for Two's
vector environment does: seat 0's choice waits unseen for seat 1's, then both apply and the
reward is seat 1's.

>>> env = P2LifeVectorEnv(2, params={"size": 6, "max_generations": 12})
>>> observation, info = env.reset(seed=0)
>>> observation.shape, info["action_mask"].shape
((2, 2, 6, 6), (2, 73))
>>> _ = env.step(env.sample_actions())
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np
from numba import njit

from lifearena.games.p2life import P2LifeState
from lifearena.games.p2life.fast import (
    GOES_ON,
    draw_soup,
    is_legal_compiled,
    outcome,
    play_turn,
    random_choice,
    winner_compiled,
)
from lifearena.games.p2life.rules import new_game
from lifearena.interop.vector.base import SELF, CompiledVectorEnv
from lifearena.life.kernels.neighbours import neighbour_table
from lifearena.life.kernels.splitmix import below


@njit(cache=True)
def _write(i: int, cells: np.ndarray, viewer: int, masked: bool, obs: np.ndarray,
           mask: np.ndarray) -> None:
    """Environment ``i``'s planes seen by ``viewer`` (``obs`` as ``(n, 2, cells)``) and its
    mask: pass, place on each empty cell, remove each of ``viewer``'s tokens."""
    n = cells.shape[0]
    own, other = viewer + 1, 2 - viewer
    mask[i, 0] = masked
    for cell in range(n):
        v = cells[cell]
        obs[i, 0, cell] = np.float32(v == own)
        obs[i, 1, cell] = np.float32(v == other)
        mask[i, 1 + cell] = masked and v == 0
        mask[i, 1 + n + cell] = masked and v == own


@njit(cache=True)
def _start(i: int, board: np.ndarray, generation: np.ndarray, moved: np.ndarray,
           seeds: np.ndarray, pending: np.ndarray, starts: np.ndarray, rng: np.ndarray,
           fixed: np.ndarray, fixed_seed: int, density: float, limit: int, learner: int,
           self_play: bool, obs: np.ndarray, mask: np.ndarray, to_play: np.ndarray) -> bool:
    cells = board[i]
    for _ in range(100):
        if fixed_seed >= 0:
            cells[:] = fixed
            seeds[i] = fixed_seed
        else:
            seeds[i] = below(rng, i, 1 << 31)
            draw_soup(cells, density, rng, i)
        starts[i, :] = cells
        generation[i], moved[i], pending[i] = 0, 0, -1
        if outcome(cells, 0, limit) == GOES_ON:
            viewer = 0 if self_play else learner
            to_play[i] = viewer
            _write(i, cells, viewer, True, obs, mask)
            return True
    return False


@njit(cache=True)
def _reset_all(board: np.ndarray, generation: np.ndarray, moved: np.ndarray,
               seeds: np.ndarray, pending: np.ndarray, starts: np.ndarray, rng: np.ndarray,
               fixed: np.ndarray, fixed_seed: int, density: float, limit: int, learner: int,
               self_play: bool, obs: np.ndarray, mask: np.ndarray, to_play: np.ndarray
               ) -> bool:
    for i in range(board.shape[0]):
        if not _start(i, board, generation, moved, seeds, pending, starts, rng, fixed,
                      fixed_seed, density, limit, learner, self_play, obs, mask, to_play):
            return False
    return True


@njit(cache=True)
def _step_all(actions: np.ndarray, board: np.ndarray, generation: np.ndarray,
              moved: np.ndarray, seeds: np.ndarray, pending: np.ndarray, starts: np.ndarray,
              ended: np.ndarray, forfeit: np.ndarray, rng: np.ndarray, fixed: np.ndarray,
              fixed_seed: int, density: float, limit: int, per_generation: int,
              neighbours: np.ndarray, scratch: np.ndarray, learner: int, self_play: bool,
              lose_illegal: bool, obs: np.ndarray, mask: np.ndarray, rewards: np.ndarray,
              terminated: np.ndarray, to_play: np.ndarray, opponent_actions: np.ndarray
              ) -> int:
    n_envs = board.shape[0]
    if not lose_illegal:  # refuse the whole step before changing anything
        for i in range(n_envs):
            if not ended[i] and not is_legal_compiled(board[i], to_play[i], actions[i]):
                return i
    for i in range(n_envs):
        rewards[i] = 0.0
        terminated[i] = False
        if ended[i]:
            ended[i] = False
            forfeit[i] = False
            if not _start(i, board, generation, moved, seeds, pending, starts, rng, fixed,
                          fixed_seed, density, limit, learner, self_play, obs, mask,
                          to_play):
                return -2
            continue
        cells = board[i]
        mover = to_play[i]
        action = actions[i]
        if not is_legal_compiled(cells, mover, action):
            forfeit[i] = True
            rewards[i] = -1.0
            terminated[i] = True
            ended[i] = True
            pending[i] = -1
            _write(i, cells, mover, False, obs, mask)
            continue
        if self_play and mover == 0:  # seat 0's choice waits, unseen, for seat 1's
            pending[i] = action
            to_play[i] = 1
            _write(i, cells, 1, True, obs, mask)
            continue
        if self_play:
            first, second = pending[i], action
            pending[i] = -1
        else:
            reply = random_choice(cells, 1 - mover, rng, i)
            opponent_actions[i] = reply
            first, second = (action, reply) if mover == 0 else (reply, action)
        moved[i], generation[i] = play_turn(cells, first, second, moved[i], generation[i],
                                            per_generation, scratch, neighbours,
                                            np.uint64(seeds[i]))
        result = winner_compiled(outcome(cells, generation[i], limit))
        if result >= 0:
            rewards[i] = 0.0 if result == 2 else (1.0 if result == mover else -1.0)
            terminated[i] = True
            ended[i] = True
            _write(i, cells, mover, False, obs, mask)
        else:
            viewer = 0 if self_play else mover
            to_play[i] = viewer
            _write(i, cells, viewer, True, obs, mask)
    return -1


class P2LifeVectorEnv(CompiledVectorEnv):
    """p2life, ``num_envs`` boards in one compiled step (see the module doc and
    :class:`~lifearena.interop.vector.base.CompiledVectorEnv` for the options)."""

    game: ClassVar[str] = "p2life"
    opponents: ClassVar[tuple[str, ...]] = ("random", SELF)

    def _allocate(self) -> None:
        n, p = self.num_envs, self.params
        self._size = size = int(p["size"])
        cells = size * size
        self._board = np.zeros((n, cells), np.int8)
        self._starts = np.zeros((n, cells), np.int8)
        self._generation = np.zeros(n, np.int64)
        self._moved = np.zeros(n, np.int64)
        self._seeds = np.zeros(n, np.int64)
        self._pending = np.full(n, -1, np.int64)
        self._neighbours = neighbour_table(size, size, bool(p["torus"]))
        self._scratch = np.zeros(cells + 1, np.int8)
        self._fixed = np.zeros(cells, np.int8)
        self._fixed_seed = -1
        if "seed" in self.user_params:
            self._fixed_seed = int(p["seed"])
            self._fixed[:] = new_game(size=size, density=float(p["density"]),
                                      seed=self._fixed_seed).board.reshape(-1)
        self._planes = self._obs.reshape(n, 2, cells)

    def _common(self) -> tuple[np.ndarray, int, float, int]:
        p = self.params
        return (self._fixed, self._fixed_seed, float(p["density"]), int(p["max_generations"]))

    def _reset_kernel(self) -> bool:
        return bool(_reset_all(self._board, self._generation, self._moved, self._seeds,
                               self._pending, self._starts, self._rng, *self._common(),
                               self.player, self.self_play, self._planes, self._mask,
                               self.to_play))

    def _step_kernel(self, actions: np.ndarray) -> int:
        bad = int(_step_all(actions, self._board, self._generation, self._moved, self._seeds,
                            self._pending, self._starts, self._ended, self._forfeit,
                            self._rng, *self._common(), int(self.params["moves"]),
                            self._neighbours, self._scratch, self.player, self.self_play,
                            self.illegal == "lose", self._planes, self._mask, self._rewards,
                            self._terminated, self.to_play, self.opponent_actions))
        if bad == -2:
            self._reset_failed()
        return bad

    def position(self, i: int, *, start: bool = False) -> P2LifeState:
        """Environment ``i``'s position now (a choice held back in self-play is not in it)
        with its episode's seed, or with ``start=True`` the start of its episode."""
        p = self.params
        cells = self._starts[i] if start else self._board[i]
        return P2LifeState(cells.reshape(self._size, self._size).copy(),
                           0 if start else int(self._generation[i]),
                           0 if start else int(self._moved[i]), seed=int(self._seeds[i]),
                           torus=bool(p["torus"]), max_generations=int(p["max_generations"]),
                           moves=int(p["moves"]))
