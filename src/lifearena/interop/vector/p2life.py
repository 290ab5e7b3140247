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

Every episode has its own game seed (the coins), drawn like its soup from the board's
compiled generator: the soup has the distribution of the game's
:func:`~lifearena.games.p2life.rules.symmetric_soup` (the first half of the cells live with
probability ``density``, a fair colour, the rest its point reflection with colours swapped),
not the same draws. ``params={"seed": s}`` starts every episode from ``new_game(seed=s)``
with its coins instead.

p2life is simultaneous: against an opponent, both choices of a turn are applied together, as
in the single environment. The compiled opponents (:attr:`P2LifeVectorEnv.opponents`) are
``random`` (uniform among pass, the empty cells to place on and its own tokens to remove)
and ``greedy`` (the move of ``agents.make("greedy", game="p2life")``: the best token
difference after the coming generation, ties drawn from the board's stream). A ``policy``
opponent chooses from its own seat's view, written for it at every turn, before the
learner's choice is applied. ``self`` plays the turn-based form, as Life for Two's vector
environment does: seat 0's choice waits unseen for seat 1's, then both apply and the reward
is seat 1's. Any of these can share a batch as a pool (see
:class:`~lifearena.interop.vector.base.CompiledVectorEnv`).

>>> env = P2LifeVectorEnv(2, opponent={"random": 1, "greedy": 1},
...                       params={"size": 6, "max_generations": 12})
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
    greedy_choice,
    is_legal_compiled,
    outcome,
    play_turn,
    random_choice,
    winner_compiled,
)
from lifearena.games.p2life.rules import new_game
from lifearena.interop.vector.base import POLICY_KIND, SELF_KIND, CompiledVectorEnv
from lifearena.life.kernels.neighbours import neighbour_table
from lifearena.life.kernels.splitmix import below

RANDOM, GREEDY = 0, 1
"""The compiled opponents' kinds (their index in :attr:`P2LifeVectorEnv.opponents`)."""


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


@njit(inline="always")
def _show(i: int, cells: np.ndarray, kind: int, learner: int, obs: np.ndarray,
          mask: np.ndarray, opp_obs: np.ndarray, opp_mask: np.ndarray,
          to_play: np.ndarray) -> None:
    """Board ``i`` at a decision point: the learner's view (in self-play seat 0's, whose
    choice comes first) and, for a policy opponent, its own seat's view."""
    viewer = 0 if kind == SELF_KIND else learner
    to_play[i] = viewer
    _write(i, cells, viewer, True, obs, mask)
    if kind == POLICY_KIND:
        _write(i, cells, 1 - learner, True, opp_obs, opp_mask)


@njit(cache=True)
def _start_all(which: np.ndarray, kinds: np.ndarray, board: np.ndarray,
               generation: np.ndarray, moved: np.ndarray, seeds: np.ndarray,
               pending: np.ndarray, starts: np.ndarray, rng: np.ndarray, fixed: np.ndarray,
               fixed_seed: int, density: float, limit: int, learner: int, obs: np.ndarray,
               mask: np.ndarray, opp_obs: np.ndarray, opp_mask: np.ndarray,
               to_play: np.ndarray) -> bool:
    """A new episode on every board ``which`` selects: a start where the game goes on (up
    to 100 draws), shown to the learner (and to a policy opponent)."""
    for i in range(board.shape[0]):
        if not which[i]:
            continue
        cells = board[i]
        started = False
        for _ in range(100):
            if fixed_seed >= 0:
                cells[:] = fixed
                seeds[i] = fixed_seed
            else:
                seeds[i] = below(rng, i, 1 << 31)
                draw_soup(cells, density, rng, i)
            if outcome(cells, 0, limit) == GOES_ON:
                started = True
                break
        if not started:
            return False
        starts[i, :] = cells
        generation[i], moved[i], pending[i] = 0, 0, -1
        _show(i, cells, kinds[i], learner, obs, mask, opp_obs, opp_mask, to_play)
    return True


@njit(cache=True)
def _step_all(actions: np.ndarray, active: np.ndarray, opp_actions: np.ndarray,
              kinds: np.ndarray, board: np.ndarray, generation: np.ndarray,
              moved: np.ndarray, seeds: np.ndarray, pending: np.ndarray, ended: np.ndarray,
              forfeit: np.ndarray, rng: np.ndarray, limit: int, per_generation: int,
              neighbours: np.ndarray, scratch: np.ndarray, after: np.ndarray,
              scores: np.ndarray, learner: int, lose_illegal: bool, obs: np.ndarray,
              mask: np.ndarray, opp_obs: np.ndarray, opp_mask: np.ndarray,
              rewards: np.ndarray, terminated: np.ndarray, to_play: np.ndarray,
              opponent_actions: np.ndarray) -> int:
    n_envs = board.shape[0]
    if not lose_illegal:  # refuse the whole step before changing anything
        for i in range(n_envs):
            if active[i] and not is_legal_compiled(board[i], to_play[i], actions[i]):
                return i
    for i in range(n_envs):
        if not active[i]:
            continue
        cells = board[i]
        mover = to_play[i]
        action = actions[i]
        kind = kinds[i]
        if not is_legal_compiled(cells, mover, action):
            forfeit[i] = True
            rewards[i] = -1.0
            terminated[i] = True
            ended[i] = True
            pending[i] = -1
            _write(i, cells, mover, False, obs, mask)
            continue
        if kind == SELF_KIND and mover == 0:  # seat 0's choice waits, unseen, for seat 1's
            pending[i] = action
            to_play[i] = 1
            _write(i, cells, 1, True, obs, mask)
            continue
        if kind == SELF_KIND:
            first, second = pending[i], action
            pending[i] = -1
        else:
            seat = 1 - mover
            if kind == POLICY_KIND:
                reply = opp_actions[i]
            elif kind == GREEDY:
                reply = greedy_choice(cells, seat, np.uint64(seeds[i]), generation[i],
                                      neighbours, scratch, after, scores, rng, i)
            else:
                reply = random_choice(cells, seat, rng, i)
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
            _show(i, cells, kind, learner, obs, mask, opp_obs, opp_mask, to_play)
    return -1


class P2LifeVectorEnv(CompiledVectorEnv):
    """p2life, ``num_envs`` boards in one compiled step (see the module doc and
    :class:`~lifearena.interop.vector.base.CompiledVectorEnv` for the options)."""

    game: ClassVar[str] = "p2life"
    opponents: ClassVar[tuple[str, ...]] = ("random", "greedy")
    """The compiled opponents, numbered :data:`RANDOM` and :data:`GREEDY`."""
    simultaneous: ClassVar[bool] = True
    board_arrays: ClassVar[tuple[str, ...]] = ("_board", "_starts", "_generation", "_moved",
                                               "_seeds", "_pending")

    def _allocate(self) -> None:
        n, p = self.num_envs, self.params
        self._size = size = int(p["size"])
        cells = size * size
        self._board = np.zeros((n, cells), np.int8)
        self._starts = np.zeros((n, cells), np.int8)
        """Each episode's start, before any move."""
        self._generation = np.zeros(n, np.int64)
        self._moved = np.zeros(n, np.int64)
        self._seeds = np.zeros(n, np.int64)
        """Each episode's game seed (its coins)."""
        self._pending = np.full(n, -1, np.int64)
        """Self-play: seat 0's choice waiting for seat 1's (-1 for none)."""
        self._neighbours = neighbour_table(size, size, bool(p["torus"]))
        # work space of the generation and of the greedy opponent (one board at a time)
        self._scratch = np.zeros(cells + 1, np.int8)
        self._after = np.zeros(cells, np.int8)
        self._scores = np.zeros(2 * cells + 1, np.int64)
        self._fixed = np.zeros(cells, np.int8)
        self._fixed_seed = -1
        if "seed" in self.user_params:
            self._fixed_seed = int(p["seed"])
            self._fixed[:] = new_game(size=size, density=float(p["density"]),
                                      seed=self._fixed_seed).board.reshape(-1)
        self._planes = self._obs.reshape(n, 2, cells)
        self._opp_planes = self._opp_obs.reshape(len(self._opp_obs), 2, cells)

    def _start_kernel(self, which: np.ndarray) -> bool:
        p = self.params
        return bool(_start_all(which, self._kinds, self._board, self._generation,
                               self._moved, self._seeds, self._pending, self._starts,
                               self._rng, self._fixed, self._fixed_seed,
                               float(p["density"]), int(p["max_generations"]), self.player,
                               self._planes, self._mask, self._opp_planes, self._opp_mask,
                               self.to_play))

    def _step_kernel(self, actions: np.ndarray, active: np.ndarray,
                     opp_actions: np.ndarray) -> int:
        p = self.params
        return int(_step_all(actions, active, opp_actions, self._kinds, self._board,
                             self._generation, self._moved, self._seeds, self._pending,
                             self._ended, self._forfeit, self._rng,
                             int(p["max_generations"]), int(p["moves"]), self._neighbours,
                             self._scratch, self._after, self._scores, self.player,
                             self.illegal == "lose", self._planes, self._mask,
                             self._opp_planes, self._opp_mask, self._rewards,
                             self._terminated, self.to_play, self.opponent_actions))

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
