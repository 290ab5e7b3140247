"""p2life (moves between generations) as a compiled vector environment: ``num_envs`` square
boards stepped in one numba call.

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
from lifearena.games.p2life.rules import new_game
from lifearena.interop.vector.base import SELF, CompiledVectorEnv
from lifearena.life.coin import GENERATION_MULTIPLIER, INDEX_MULTIPLIER
from lifearena.life.kernels.splitmix import below, next_double
from lifearena.life.rules import COIN, Rule

TABLE = Rule.named("p2life").table.astype(np.int8)
"""The engine's p2life rule: ``TABLE[state, white neighbours, black neighbours]``."""
_GEN_MUL = np.uint64(GENERATION_MULTIPLIER)
_INDEX_MUL = np.uint64(INDEX_MULTIPLIER)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_S30, _S27, _S31, _S63 = np.uint64(30), np.uint64(27), np.uint64(31), np.uint64(63)


def neighbour_table(size: int, torus: bool) -> np.ndarray:
    """``(size², 8)``: each cell's neighbours, ``size²`` (a cell that is always empty) where
    the bounded board ends.

    >>> neighbour_table(3, False)[0].tolist()
    [9, 9, 9, 9, 1, 9, 3, 4]
    """
    n = size * size
    table = np.full((n, 8), n, np.int64)
    for cell in range(n):
        y, x = divmod(cell, size)
        k = 0
        for dy in (-1, 0, 1):
            for dx in (-1, 0, 1):
                if dy == dx == 0:
                    continue
                ny, nx = y + dy, x + dx
                if torus:
                    table[cell, k] = (ny % size) * size + nx % size
                elif 0 <= ny < size and 0 <= nx < size:
                    table[cell, k] = ny * size + nx
                k += 1
    return table


@njit(cache=True)
def _mix(z: np.uint64) -> np.uint64:
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return z ^ (z >> _S31)


@njit(cache=True)
def _coin(seed: np.uint64, generation: int, index: int) -> int:
    """:func:`lifearena.life.coin.coin_colour`, compiled."""
    z = _mix(seed ^ (np.uint64(generation) * _GEN_MUL))
    z = _mix(z ^ (np.uint64(index) * _INDEX_MUL))
    return 1 + int(z >> _S63)


@njit(cache=True)
def _generation(cells: np.ndarray, scratch: np.ndarray, neighbours: np.ndarray,
                seed: np.uint64, generation: int) -> None:
    """One p2life generation of ``cells`` in place (``scratch``: ``n + 1`` cells, the last
    always empty)."""
    n = cells.shape[0]
    scratch[:n] = cells
    scratch[n] = 0
    for cell in range(n):
        white, black = 0, 0
        for k in range(8):
            v = scratch[neighbours[cell, k]]
            white += v & 1  # cells hold 0, 1 or 2
            black += v >> 1
        value = TABLE[scratch[cell], white, black]
        if value == COIN:
            value = _coin(seed, generation, cell)
        cells[cell] = value


@njit(cache=True)
def _is_legal(cells: np.ndarray, player: int, action: int) -> bool:
    n = cells.shape[0]
    if action == 0:
        return True
    if action < 0 or action > 2 * n:
        return False
    if action <= n:
        return cells[action - 1] == 0
    return cells[action - 1 - n] == player + 1


@njit(cache=True)
def _random_choice(cells: np.ndarray, player: int, rng: np.ndarray, i: int) -> int:
    n = cells.shape[0]
    count = 1
    for cell in range(n):
        if cells[cell] == 0 or cells[cell] == player + 1:
            count += 1
    k = below(rng, i, count)
    if k == 0:
        return 0
    k -= 1
    for cell in range(n):  # the places, in cell order, then the removals
        if cells[cell] == 0:
            if k == 0:
                return 1 + cell
            k -= 1
    for cell in range(n):
        if cells[cell] == player + 1:
            if k == 0:
                return 1 + n + cell
            k -= 1
    return 0


@njit(cache=True)
def _apply(cells: np.ndarray, first: int, second: int) -> None:
    """Both players' legal choices (seat 0's, seat 1's) on ``cells``, in place."""
    n = cells.shape[0]
    for player in range(2):
        action = first if player == 0 else second
        other = second if player == 0 else first
        if action == 0:
            continue
        if action > n:
            cells[action - 1 - n] = 0
        elif action != other:
            cells[action - 1] = player + 1


@njit(cache=True)
def _outcome(cells: np.ndarray, generation: int, limit: int) -> int:
    """-1 while the game goes on, else the winner (0 or 1) or 2 for a draw."""
    white, black = 0, 0
    for cell in range(cells.shape[0]):
        white += cells[cell] & 1
        black += cells[cell] >> 1
    if white == 0 and black == 0:
        return 2
    if black == 0:
        return 0
    if white == 0:
        return 1
    if generation >= limit:
        return 0 if white > black else 1 if black > white else 2
    return -1


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
    n = cells.shape[0]
    for _ in range(100):
        if fixed_seed >= 0:
            cells[:] = fixed
            seeds[i] = fixed_seed
        else:
            seeds[i] = below(rng, i, 1 << 31)
            for cell in range(n // 2):
                live = next_double(rng, i) < density
                colour = 1 + below(rng, i, 2)
                cells[cell] = colour if live else 0
                cells[n - 1 - cell] = (3 - colour) if live else 0
            if n % 2:
                cells[n // 2] = 0
        starts[i, :] = cells
        generation[i], moved[i], pending[i] = 0, 0, -1
        if _outcome(cells, 0, limit) < 0:
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
            if not ended[i] and not _is_legal(board[i], to_play[i], actions[i]):
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
        if not _is_legal(cells, mover, action):
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
            reply = _random_choice(cells, 1 - mover, rng, i)
            opponent_actions[i] = reply
            first, second = (action, reply) if mover == 0 else (reply, action)
        _apply(cells, first, second)
        moved[i] += 1
        if moved[i] == per_generation:
            _generation(cells, scratch, neighbours, np.uint64(seeds[i]), generation[i])
            generation[i] += 1
            moved[i] = 0
        result = _outcome(cells, generation[i], limit)
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
        self._neighbours = neighbour_table(size, bool(p["torus"]))
        self._scratch = np.zeros(cells + 1, np.int8)
        self._fixed = np.zeros(cells, np.int8)
        self._fixed_seed = -1
        if "seed" in self.user_params:
            self._fixed_seed = int(p["seed"])
            self._fixed[:] = new_game(size=size, density=float(p["density"]),
                                      seed=self._fixed_seed).board.reshape(-1)
        self._planes = self._obs.reshape(n, 2, cells)

    def _common(self) -> tuple[object, ...]:
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
