"""The blocking queen game (k-Blocking Wythoff Nim) as a compiled vector environment:
``num_envs`` queens stepped in one numba call, in the single environment's ``side x side``
window (:mod:`lifearena.agents.windows`): move to ``(x, y)`` is ``y * side + x``, block it
``side² + y * side + x``, stop blocking ``2 * side²``. The rules and the opponents are the
game's compiled boards and players (:mod:`lifearena.games.blocking_queen.fast`); this module
holds the buffers and writes the observations and masks.

Each step is one ply of the learner (a queen move, a block or the stop), as in the single
environment; when the learner's turn ends, the opponent plays its whole turn (queen move and
blocks) inside the same step. Compiled opponents (:attr:`BlockingQueenVectorEnv.opponents`):
``random`` (uniform among the legal actions at each ply, from the board's stream),
``greedy`` and ``perfect``, which play the plies ``agents.make(name, game="blocking_queen")``
plays (greedy breaks its ties from the board's stream); besides them ``self`` (self-play:
the observation shows the side to act), ``policy`` and pools of these
(:mod:`lifearena.interop.vector.base`). A policy opponent's turn is several plies: its board
waits for it, and the callback is asked again, until its turn ends (``history(i)`` lists
every ply). A random start draws the queen's square uniformly in ``0 <= x, y < size`` but
the origin, the distribution of :func:`~lifearena.games.blocking_queen.new_game`;
``params={"seed": s}`` or ``start="square"`` fix it. (When a compiled opponent moving first
ends the game before the learner's first move, the board draws another start; a policy
opponent that does so ends the episode as it starts, and a reset leaves that board for the
next step to start anew.)

A queen only moves toward the origin and blocks lie on the squares it can reach, so a step
redraws only the queen's three lines in the observation and the mask (not the whole
``4 x side x side`` planes): the buffers are the environment's own, to be read, not written
(with ``copy=False``, what ``step`` hands out is those buffers).

>>> env = BlockingQueenVectorEnv(2, params={"size": 12})
>>> observation, info = env.reset(seed=0)
>>> observation.shape, info["action_mask"].shape
((2, 4, 12, 12), (2, 289))
>>> _ = env.step(env.sample_actions())

A pool of two compiled opponents, drawn per board, moving first (each a queen move and a
block):

>>> env = BlockingQueenVectorEnv(4, opponent={"greedy": 1, "perfect": 1}, player=1,
...                              params={"size": 12})
>>> _, info = env.reset(seed=1)
>>> env.pool, info["opponent"].tolist(), [len(env.history(i)) for i in range(4)]
(('greedy', 'perfect'), [0, 1, 1, 0], [2, 2, 2, 2])
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np
from numba import njit

from lifearena.games.blocking_queen import BlockingQueenState
from lifearena.games.blocking_queen.fast import (
    BLOCKING,
    COLUMNS,
    MOVER,
    NBLOCKED,
    OVER,
    PLAYERS,
    PLIES,
    X,
    Y,
    apply,
    is_legal,
    most_blocks,
    most_plies,
    play_turn,
    random_start,
    start,
)
from lifearena.games.blocking_queen.palace import palace_numbers
from lifearena.games.blocking_queen.rules import new_game
from lifearena.games.blocking_queen.turns import option, ways_out
from lifearena.interop.vector.base import POLICY_KIND, CompiledVectorEnv


@njit(cache=True)
def _fill(plane: np.ndarray, value: np.float32) -> None:
    if plane[0] != value:
        plane[:] = value


@njit(cache=True)
def _draw(s: np.ndarray, blocks: np.ndarray, side: int, viewer: int, forfeited: bool,
          drawn: np.ndarray, i: int, obs: np.ndarray, mask: np.ndarray) -> None:
    """One environment's planes (``obs`` as ``(4, side²)``) and mask seen by ``viewer``,
    redrawing only the lines of the queen they showed before (``drawn[i]``, -1: redraw
    all)."""
    cells = side * side
    old = drawn[i]
    if old < 0:
        obs[:, :] = 0
        mask[:] = False
    else:
        ox, oy = old % side, old // side
        obs[0, old] = 0
        for j in range(ways_out(ox, oy)):
            sx, sy = option(ox, oy, j)
            square = sy * side + sx
            obs[1, square] = 0
            mask[square] = False
            mask[cells + square] = False
        mask[2 * cells] = False
    x, y = s[X], s[Y]
    here = y * side + x
    drawn[i] = here
    obs[0, here] = 1
    for j in range(s[NBLOCKED]):
        obs[1, blocks[j]] = 1
    over = s[OVER] != 0
    _fill(obs[2], np.float32(1.0) if s[BLOCKING] else np.float32(0.0))
    _fill(obs[3], np.float32(1.0) if not over and s[MOVER] == viewer else np.float32(0.0))
    if over or forfeited or s[MOVER] != viewer:
        return
    base = cells if s[BLOCKING] else 0
    for j in range(ways_out(x, y)):
        sx, sy = option(x, y, j)
        square = sy * side + sx
        if not obs[1, square]:
            mask[base + square] = True
    if s[BLOCKING]:
        mask[2 * cells] = True


@njit(cache=True)
def _judge(i: int, s: np.ndarray, blocks: np.ndarray, side: int, seat: int,
           drawn: np.ndarray, obs: np.ndarray, mask: np.ndarray, rewards: np.ndarray,
           terminated: np.ndarray, ended: np.ndarray, to_play: np.ndarray) -> None:
    """Board ``i`` after ``seat``'s turn (the learner's, or in self-play the mover's) and any
    reply: its reward for ``seat`` if the game is over, and the view of the side to act (of
    ``seat`` once it is over) written."""
    if s[OVER]:
        rewards[i] = 1.0 if s[OVER] - 1 == seat else -1.0
        terminated[i] = True
        ended[i] = True
        to_play[i] = seat
        _draw(s, blocks, side, seat, False, drawn, i, obs[i], mask[i])
    else:
        to_play[i] = s[MOVER]
        _draw(s, blocks, side, s[MOVER], False, drawn, i, obs[i], mask[i])


@njit(cache=True)
def _wait(i: int, s: np.ndarray, blocks: np.ndarray, side: int, learner: int,
          waiting: np.ndarray, drawn: np.ndarray, obs: np.ndarray, mask: np.ndarray,
          opp_drawn: np.ndarray, opp_obs: np.ndarray, opp_mask: np.ndarray,
          to_play: np.ndarray) -> None:
    """Board ``i`` waits for its policy opponent (the side to act): the opponent's view
    written, and the learner's, which has no legal action until the opponent's turn ends."""
    waiting[i] = True
    _draw(s, blocks, side, s[MOVER], False, opp_drawn, i, opp_obs[i], opp_mask[i])
    to_play[i] = learner
    _draw(s, blocks, side, learner, False, drawn, i, obs[i], mask[i])


@njit(cache=True)
def _start_all(which: np.ndarray, state: np.ndarray, blocked: np.ndarray, blocks: np.ndarray,
               starts: np.ndarray, history: np.ndarray, rng: np.ndarray, fixed: int,
               size: int, side: int, k: int, learner: int, kinds: np.ndarray,
               palaces: np.ndarray, drawn: np.ndarray, obs: np.ndarray, mask: np.ndarray,
               to_play: np.ndarray, waiting: np.ndarray, opp_drawn: np.ndarray,
               opp_obs: np.ndarray, opp_mask: np.ndarray) -> bool:
    """Start the boards ``which`` selects (a fresh start, then the opponent's first turn
    when the learner sits second), each drawing again while its game is over before the
    learner moves; a policy opponent moving first leaves its board waiting for it."""
    for i in range(state.shape[0]):
        if not which[i]:
            continue
        s, kind = state[i], kinds[i]
        started = False
        for _ in range(100):
            square = fixed if fixed >= 0 else random_start(size, side, rng, i)
            starts[i] = square
            start(s, blocked[i], blocks[i], square, side)
            if s[OVER] == 0 and learner == 1 and kind == POLICY_KIND:
                _wait(i, s, blocks[i], side, learner, waiting, drawn, obs, mask, opp_drawn,
                      opp_obs, opp_mask, to_play)
                started = True
                break
            if learner == 1 and kind >= 0:
                play_turn(kind, s, blocked[i], blocks[i], history[i], side, k, palaces, rng,
                          i)
            if s[OVER] == 0:
                to_play[i] = s[MOVER]
                _draw(s, blocks[i], side, s[MOVER], False, drawn, i, obs[i], mask[i])
                started = True
                break
        if not started:
            return False
    return True


@njit(cache=True)
def _step_all(actions: np.ndarray, active: np.ndarray, state: np.ndarray, blocked: np.ndarray,
              blocks: np.ndarray, history: np.ndarray, ended: np.ndarray, forfeit: np.ndarray,
              rng: np.ndarray, side: int, k: int, learner: int, kinds: np.ndarray,
              palaces: np.ndarray, lose_illegal: bool, drawn: np.ndarray, obs: np.ndarray,
              mask: np.ndarray, rewards: np.ndarray, terminated: np.ndarray,
              to_play: np.ndarray, waiting: np.ndarray, opp_drawn: np.ndarray,
              opp_obs: np.ndarray, opp_mask: np.ndarray) -> int:
    n = state.shape[0]
    if not lose_illegal:  # refuse the whole step before changing anything
        for i in range(n):
            if active[i] and not is_legal(state[i], blocked[i], side, actions[i]):
                return i
    for i in range(n):
        if not active[i]:
            continue
        s, kind = state[i], kinds[i]
        mover = s[MOVER]
        if not is_legal(s, blocked[i], side, actions[i]):
            forfeit[i] = True
            rewards[i] = -1.0
            terminated[i] = True
            ended[i] = True
            to_play[i] = mover
            _draw(s, blocks[i], side, mover, True, drawn, i, obs[i], mask[i])
            continue
        apply(s, blocked[i], blocks[i], history[i], side, k, actions[i])
        if s[OVER] == 0 and s[MOVER] != mover:  # the learner's turn is over
            if kind == POLICY_KIND:
                _wait(i, s, blocks[i], side, learner, waiting, drawn, obs, mask, opp_drawn,
                      opp_obs, opp_mask, to_play)
                continue
            if kind >= 0:
                play_turn(kind, s, blocked[i], blocks[i], history[i], side, k, palaces, rng,
                          i)
        _judge(i, s, blocks[i], side, mover, drawn, obs, mask, rewards, terminated, ended,
               to_play)
    return -1


@njit(cache=True)
def _reply_all(replies: np.ndarray, waiting: np.ndarray, state: np.ndarray,
               blocked: np.ndarray, blocks: np.ndarray, history: np.ndarray, side: int,
               k: int, learner: int, drawn: np.ndarray, obs: np.ndarray, mask: np.ndarray,
               rewards: np.ndarray, terminated: np.ndarray, ended: np.ndarray,
               to_play: np.ndarray, pending: np.ndarray, opp_drawn: np.ndarray,
               opp_obs: np.ndarray, opp_mask: np.ndarray) -> int:
    n = state.shape[0]
    for i in range(n):  # refuse the whole call before changing anything
        if waiting[i] and not is_legal(state[i], blocked[i], side, replies[i]):
            return i
    for i in range(n):
        if not waiting[i]:
            continue
        s = state[i]
        apply(s, blocked[i], blocks[i], history[i], side, k, replies[i])
        if s[OVER] == 0 and s[MOVER] != learner:  # its turn goes on: it blocks, or stops
            _draw(s, blocks[i], side, s[MOVER], False, opp_drawn, i, opp_obs[i], opp_mask[i])
            continue
        pending[i] = False
        _judge(i, s, blocks[i], side, learner, drawn, obs, mask, rewards, terminated, ended,
               to_play)
    return -1


class BlockingQueenVectorEnv(CompiledVectorEnv):
    """The blocking queen game, ``num_envs`` queens in one compiled step (see the module
    doc and :class:`~lifearena.interop.vector.base.CompiledVectorEnv` for the options)."""

    game: ClassVar[str] = "blocking_queen"
    opponents: ClassVar[tuple[str, ...]] = PLAYERS
    """The compiled opponents, ``random``, ``greedy`` and ``perfect``, numbered as
    :data:`~lifearena.games.blocking_queen.fast.PLAYERS` numbers them."""
    board_arrays: ClassVar[tuple[str, ...]] = ("_state", "_drawn", "_opp_drawn", "_blocked",
                                               "_blocks", "_starts", "_history")

    def _allocate(self) -> None:
        n, p = self.num_envs, self.params
        self._side = side = self.encoding.window.shape[-1]
        self._k = k = int(p["k"])
        self._size = int(p["size"])
        self._state = np.zeros((n, COLUMNS), np.int64)
        self._drawn = np.full(n, -1, np.int64)
        """The queen square each board's buffers show (-1: redraw them all)."""
        self._opp_drawn = np.full(n, -1, np.int64)
        """The same for the policy opponent's buffers."""
        self._blocked = np.zeros((n, side * side), np.bool_)
        self._blocks = np.zeros((n, most_blocks(side, k)), np.int64)
        self._starts = np.zeros(n, np.int64)
        self._history = np.zeros((n, most_plies(side, k)), np.int64)
        self._palaces = np.zeros(0, np.bool_)
        """The corner's palaces, one boolean per square (the perfect player reads them)."""
        if "perfect" in self.pool:
            self._palaces = (palace_numbers(k, side, side) < k).ravel()
        self._fixed = -1
        if p["start"] == "square":
            self._fixed = int(p["y"]) * side + int(p["x"])
        elif "seed" in self.user_params:
            x, y = new_game(seed=int(p["seed"]), k=k, size=self._size).start
            self._fixed = y * side + x
        self._planes = self._obs.reshape(n, 4, side * side)
        self._opp_planes = self._opp_obs.reshape(len(self._opp_obs), 4, side * side)

    def _start_kernel(self, which: np.ndarray) -> bool:
        return bool(_start_all(which, self._state, self._blocked, self._blocks, self._starts,
                               self._history, self._rng, self._fixed, self._size, self._side,
                               self._k, self.player, self._kinds, self._palaces, self._drawn,
                               self._planes, self._mask, self.to_play, self._waiting,
                               self._opp_drawn, self._opp_planes, self._opp_mask))

    def _step_kernel(self, actions: np.ndarray, active: np.ndarray,
                     opp_actions: np.ndarray) -> int:
        return int(_step_all(actions, active, self._state, self._blocked, self._blocks,
                             self._history, self._ended, self._forfeit, self._rng, self._side,
                             self._k, self.player, self._kinds, self._palaces,
                             self.illegal == "lose", self._drawn, self._planes, self._mask,
                             self._rewards, self._terminated, self.to_play, self._waiting,
                             self._opp_drawn, self._opp_planes, self._opp_mask))

    def _reply_kernel(self, opp_actions: np.ndarray, waiting: np.ndarray) -> int:
        return int(_reply_all(opp_actions, waiting, self._state, self._blocked, self._blocks,
                              self._history, self._side, self._k, self.player, self._drawn,
                              self._planes, self._mask, self._rewards, self._terminated,
                              self._ended, self.to_play, self._waiting, self._opp_drawn,
                              self._opp_planes, self._opp_mask))

    def history(self, i: int) -> list[int]:
        """Environment ``i``'s plies this episode, both sides', as window actions."""
        plies: list[int] = self._history[i, :self._state[i, PLIES]].tolist()
        return plies

    def position(self, i: int, *, start: bool = False) -> BlockingQueenState:
        """Environment ``i``'s position now (its start replayed with :meth:`history`), or
        with ``start=True`` the start of its episode."""
        square = int(self._starts[i])
        state = BlockingQueenState(square % self._side, square // self._side, k=self._k)
        if not start:
            for action in self.history(i):
                state.apply_action(self.encoding.window.to_game(action))
        return state
