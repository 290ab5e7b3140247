"""The blocking queen game (k-Blocking Wythoff Nim) as a compiled vector environment:
``num_envs`` queens stepped in one numba call, in the single environment's ``side x side``
window (:mod:`lifearena.interop.windows`): move to ``(x, y)`` is ``y * side + x``, block it
``side² + y * side + x``, stop blocking ``2 * side²``.

Each step is one ply of the learner (a queen move, a block or the stop), as in the single
environment; when the learner's turn ends, the opponent plays its whole turn (queen move and
blocks) inside the same step. Opponents: ``random`` (uniform among the legal actions at each
ply, from the environment's compiled generator) and ``self`` (self-play: the observation
shows the side to act). A random start draws the queen's square uniformly in
``0 <= x, y < size`` but the origin, the distribution of
:func:`~lifearena.games.blocking_queen.new_game`; ``params={"seed": s}`` or
``start="square"`` fix it.

A queen only moves toward the origin and blocks lie on the squares it can reach, so a step
redraws only the queen's three lines in the observation and the mask (not the whole
``4 x side x side`` planes): the buffers are the environment's own, to be read, not written
(with ``copy=False``, what ``step`` hands out is those buffers).

>>> env = BlockingQueenVectorEnv(2, params={"size": 12})
>>> observation, info = env.reset(seed=0)
>>> observation.shape, info["action_mask"].shape
((2, 4, 12, 12), (2, 289))
>>> _ = env.step(env.sample_actions())
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np
from numba import njit

from lifearena.games.blocking_queen import BlockingQueenState
from lifearena.games.blocking_queen.rules import new_game
from lifearena.interop.vector.base import SELF, CompiledVectorEnv
from lifearena.life.kernels.splitmix import below

_X, _Y, _MOVER, _BLOCKING, _LEFT, _NBLOCKED, _OVER, _DRAWN, _PLIES = range(9)
"""Columns of the kernels' ``(n, 9)`` int64 state: the queen's square, the side to act,
whether it is blocking, blocks it may still make, how many squares are blocked, the winner
plus one once the game is over (else 0), the queen square the buffers show (-1: redraw all),
plies recorded this episode."""


@njit(cache=True)
def _options(x: int, y: int) -> int:
    return x + y + min(x, y)


@njit(cache=True)
def _option(x: int, y: int, k: int) -> tuple[int, int]:
    """The ``k``-th square a queen on ``(x, y)`` reaches (west, then north, then
    north-west)."""
    if k < x:
        return x - 1 - k, y
    k -= x
    if k < y:
        return x, y - 1 - k
    k -= y
    return x - 1 - k, y - 1 - k


@njit(cache=True)
def _reaches(x: int, y: int, sx: int, sy: int) -> bool:
    dx, dy = x - sx, y - sy
    return dx >= 0 and dy >= 0 and dx + dy > 0 and (dx == 0 or dy == 0 or dx == dy)


@njit(cache=True)
def _is_legal(s: np.ndarray, blocked: np.ndarray, side: int, action: int) -> bool:
    cells = side * side
    if s[_BLOCKING]:
        if action == 2 * cells:
            return True
        square = action - cells
        if square < 0 or square >= cells:
            return False
    else:
        square = action
        if square < 0 or square >= cells:
            return False
    return not blocked[square] and _reaches(s[_X], s[_Y], square % side, square // side)


@njit(cache=True)
def _apply(s: np.ndarray, blocked: np.ndarray, blocks: np.ndarray, side: int, k: int,
           action: int, history: np.ndarray) -> None:
    """The ply ``action`` (legal) of the side to act, as the protocol's state plays it."""
    cells = side * side
    history[s[_PLIES]] = action
    s[_PLIES] += 1
    if not s[_BLOCKING]:
        for j in range(s[_NBLOCKED]):  # blocks last for one queen move
            blocked[blocks[j]] = False
        s[_NBLOCKED] = 0
        s[_X], s[_Y] = action % side, action // side
        if s[_X] == 0 and s[_Y] == 0:
            s[_OVER] = s[_MOVER] + 1
        elif k > 1:
            s[_BLOCKING] = 1
            s[_LEFT] = k - 1
        else:
            _end_turn(s)
        return
    if action == 2 * cells:
        _end_turn(s)
        return
    square = action - cells
    blocked[square] = True
    blocks[s[_NBLOCKED]] = square
    s[_NBLOCKED] += 1
    s[_LEFT] -= 1
    if s[_LEFT] == 0 or s[_NBLOCKED] == _options(s[_X], s[_Y]):
        _end_turn(s)


@njit(cache=True)
def _end_turn(s: np.ndarray) -> None:
    s[_BLOCKING] = 0
    s[_LEFT] = 0
    s[_MOVER] = 1 - s[_MOVER]
    if s[_NBLOCKED] == _options(s[_X], s[_Y]):  # every square it reaches is blocked
        s[_OVER] = (1 - s[_MOVER]) + 1


@njit(cache=True)
def _random_ply(s: np.ndarray, blocked: np.ndarray, side: int, rng: np.ndarray, i: int
                ) -> int:
    """A legal action of the side to act, uniform among them."""
    x, y = s[_X], s[_Y]
    total = _options(x, y)
    free = total - s[_NBLOCKED]
    base = side * side if s[_BLOCKING] else 0
    choice = below(rng, i, free + (1 if s[_BLOCKING] else 0))
    if choice == free:
        return 2 * side * side
    for j in range(total):
        sx, sy = _option(x, y, j)
        if not blocked[sy * side + sx]:
            if choice == 0:
                return base + sy * side + sx
            choice -= 1
    return -1


@njit(cache=True)
def _fill(plane: np.ndarray, value: np.float32) -> None:
    if plane[0] != value:
        plane[:] = value


@njit(cache=True)
def _draw(s: np.ndarray, blocks: np.ndarray, side: int, viewer: int, forfeited: bool,
          obs: np.ndarray, mask: np.ndarray) -> None:
    """One environment's planes (``obs`` as ``(4, side²)``) and mask seen by ``viewer``,
    redrawing only the lines of the queen they showed before."""
    cells = side * side
    old = s[_DRAWN]
    if old < 0:
        obs[:, :] = 0
        mask[:] = False
    else:
        ox, oy = old % side, old // side
        obs[0, old] = 0
        for j in range(_options(ox, oy)):
            sx, sy = _option(ox, oy, j)
            square = sy * side + sx
            obs[1, square] = 0
            mask[square] = False
            mask[cells + square] = False
        mask[2 * cells] = False
    x, y = s[_X], s[_Y]
    here = y * side + x
    s[_DRAWN] = here
    obs[0, here] = 1
    for j in range(s[_NBLOCKED]):
        obs[1, blocks[j]] = 1
    over = s[_OVER] != 0
    _fill(obs[2], np.float32(1.0) if s[_BLOCKING] else np.float32(0.0))
    _fill(obs[3], np.float32(1.0) if not over and s[_MOVER] == viewer else np.float32(0.0))
    if over or forfeited or s[_MOVER] != viewer:
        return
    base = cells if s[_BLOCKING] else 0
    for j in range(_options(x, y)):
        sx, sy = _option(x, y, j)
        square = sy * side + sx
        if not obs[1, square]:
            mask[base + square] = True
    if s[_BLOCKING]:
        mask[2 * cells] = True


@njit(cache=True)
def _opponent_turns(s: np.ndarray, blocked: np.ndarray, blocks: np.ndarray, side: int,
                    k: int, seat: int, rng: np.ndarray, i: int, history: np.ndarray) -> None:
    while s[_OVER] == 0 and s[_MOVER] == seat:
        _apply(s, blocked, blocks, side, k, _random_ply(s, blocked, side, rng, i), history)


@njit(cache=True)
def _start(i: int, state: np.ndarray, blocked: np.ndarray, blocks: np.ndarray,
           starts: np.ndarray, history: np.ndarray, rng: np.ndarray, fixed: int, size: int,
           side: int, k: int, learner: int, self_play: bool, obs: np.ndarray,
           mask: np.ndarray) -> bool:
    s = state[i]
    for _ in range(100):
        for j in range(s[_NBLOCKED]):
            blocked[i, blocks[i, j]] = False
        square = fixed
        while square < 0:
            x, y = below(rng, i, size), below(rng, i, size)
            if x or y:
                square = y * side + x
        starts[i] = square
        s[_X], s[_Y] = square % side, square // side
        s[_MOVER], s[_BLOCKING], s[_LEFT], s[_NBLOCKED], s[_PLIES] = 0, 0, 0, 0, 0
        s[_OVER] = 2 if square == 0 else 0  # a queen on the origin: the first player lost
        if not self_play:
            _opponent_turns(s, blocked[i], blocks[i], side, k, 1 - learner, rng, i,
                            history[i])
        if s[_OVER] == 0:
            _draw(s, blocks[i], side, s[_MOVER], False, obs[i], mask[i])
            return True
    return False


@njit(cache=True)
def _reset_all(state: np.ndarray, blocked: np.ndarray, blocks: np.ndarray,
               starts: np.ndarray, history: np.ndarray, rng: np.ndarray, fixed: int,
               size: int, side: int, k: int, learner: int, self_play: bool, obs: np.ndarray,
               mask: np.ndarray) -> bool:
    for i in range(state.shape[0]):
        if not _start(i, state, blocked, blocks, starts, history, rng, fixed, size, side, k,
                      learner, self_play, obs, mask):
            return False
    return True


@njit(cache=True)
def _step_all(actions: np.ndarray, state: np.ndarray, blocked: np.ndarray,
              blocks: np.ndarray, starts: np.ndarray, history: np.ndarray, ended: np.ndarray,
              forfeit: np.ndarray, rng: np.ndarray, fixed: int, size: int, side: int, k: int,
              learner: int, self_play: bool, lose_illegal: bool, obs: np.ndarray,
              mask: np.ndarray, rewards: np.ndarray, terminated: np.ndarray,
              to_play: np.ndarray) -> int:
    n = state.shape[0]
    if not lose_illegal:  # refuse the whole step before changing anything
        for i in range(n):
            if not ended[i] and not _is_legal(state[i], blocked[i], side, actions[i]):
                return i
    for i in range(n):
        rewards[i] = 0.0
        terminated[i] = False
        s = state[i]
        if ended[i]:
            ended[i] = False
            forfeit[i] = False
            if not _start(i, state, blocked, blocks, starts, history, rng, fixed, size, side,
                          k, learner, self_play, obs, mask):
                return -2
            to_play[i] = s[_MOVER]
            continue
        mover = s[_MOVER]
        if not _is_legal(s, blocked[i], side, actions[i]):
            forfeit[i] = True
            rewards[i] = -1.0
            terminated[i] = True
            ended[i] = True
            _draw(s, blocks[i], side, mover, True, obs[i], mask[i])
            continue
        _apply(s, blocked[i], blocks[i], side, k, actions[i], history[i])
        if not self_play:
            _opponent_turns(s, blocked[i], blocks[i], side, k, 1 - learner, rng, i,
                            history[i])
        if s[_OVER]:
            rewards[i] = 1.0 if s[_OVER] - 1 == mover else -1.0
            terminated[i] = True
            ended[i] = True
            to_play[i] = mover
            _draw(s, blocks[i], side, mover, False, obs[i], mask[i])
        else:
            to_play[i] = s[_MOVER]
            _draw(s, blocks[i], side, s[_MOVER], False, obs[i], mask[i])
    return -1


class BlockingQueenVectorEnv(CompiledVectorEnv):
    """The blocking queen game, ``num_envs`` queens in one compiled step (see the module
    doc and :class:`~lifearena.interop.vector.base.CompiledVectorEnv` for the options)."""

    game: ClassVar[str] = "blocking_queen"
    opponents: ClassVar[tuple[str, ...]] = ("random", SELF)

    def _allocate(self) -> None:
        n, p = self.num_envs, self.params
        self._side = side = self.encoding.window.shape[-1]
        self._k = k = int(p["k"])
        self._size = int(p["size"])
        self._state = np.zeros((n, 9), np.int64)
        self._state[:, _DRAWN] = -1
        self._blocked = np.zeros((n, side * side), np.bool_)
        most_blocks = min(k - 1, 3 * (side - 1))
        self._blocks = np.zeros((n, max(most_blocks, 1)), np.int64)
        self._starts = np.zeros(n, np.int64)
        # a turn brings x + y down by at least 1 and has at most 2 + most_blocks plies
        self._history = np.zeros((n, 2 * (side - 1) * (2 + most_blocks) + 2), np.int64)
        self._fixed = -1
        if p["start"] == "square":
            self._fixed = int(p["y"]) * side + int(p["x"])
        elif "seed" in self.user_params:
            x, y = new_game(seed=int(p["seed"]), k=k, size=self._size).start
            self._fixed = y * side + x
        self._planes = self._obs.reshape(n, 4, side * side)

    def _reset_kernel(self) -> bool:
        self._state[:, _DRAWN] = -1
        ok = bool(_reset_all(self._state, self._blocked, self._blocks, self._starts,
                             self._history, self._rng, self._fixed, self._size, self._side,
                             self._k, self.player, self.self_play, self._planes, self._mask))
        self.to_play[:] = self._state[:, _MOVER]
        return ok

    def _step_kernel(self, actions: np.ndarray) -> int:
        bad = int(_step_all(actions, self._state, self._blocked, self._blocks, self._starts,
                            self._history, self._ended, self._forfeit, self._rng, self._fixed,
                            self._size, self._side, self._k, self.player, self.self_play,
                            self.illegal == "lose", self._planes, self._mask, self._rewards,
                            self._terminated, self.to_play))
        if bad == -2:
            self._reset_failed()
        return bad

    def history(self, i: int) -> list[int]:
        """Environment ``i``'s plies this episode, both sides', as window actions."""
        return self._history[i, :self._state[i, _PLIES]].tolist()

    def position(self, i: int, *, start: bool = False) -> BlockingQueenState:
        """Environment ``i``'s position now (its start replayed with :meth:`history`), or
        with ``start=True`` the start of its episode."""
        square = int(self._starts[i])
        state = BlockingQueenState(square % self._side, square // self._side, k=self._k)
        if not start:
            for action in self.history(i):
                state.apply_action(self.encoding.window.to_game(action))
        return state
