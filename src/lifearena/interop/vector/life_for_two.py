"""Life for Two (the written rules) as a compiled vector environment: ``num_envs`` 5x5 boards
stepped in one numba call, on the kernels of :mod:`lifearena.games.life_for_two.fast` (the
bitboards, the turn, the ending rules and the opponents, said once there); this module
holds the buffers and writes the observations and masks. Every episode starts from the
empty board, turn 1.

Both choices of a turn are applied together, as in the single environment: the learner's
action and the opponent's, chosen compiled inside the batch from the position before the
turn, drawing from the environment's own stream: ``opponent="random"`` (uniform among the
legal choices), ``"greedy"`` and ``"nash"`` (what ``agents.make(name, game="life_for_two")``
picks: see :mod:`lifearena.games.life_for_two.fast`; ``nash`` solves a matrix game of up to
25x25 at every turn, about 5 ms a board). ``opponent="self"`` plays the game in its
turn-based form (as OpenSpiel's ``python_life_for_two_turn_based``): one step takes seat 0's
choice, which no observation shows, the next takes seat 1's and applies both; the reward on
that second step is seat 1's, and an illegal choice forfeits the seat that made it.
``rules="classic"`` (the 1978 program at one screen) has no vector environment.

>>> env = LifeForTwoVectorEnv(2, params={"max_turns": 8})
>>> observation, info = env.reset(seed=0)
>>> observation.shape, int(info["action_mask"][0].sum())   # turn 1: any 3 of the 25 cells
((2, 3, 5, 5), 2300)
>>> observation, reward, terminated, truncated, info = env.step(env.sample_actions())
>>> int(info["action_mask"][0].sum()) <= 25
True
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np
from numba import njit

from lifearena.errors import BadParameterError
from lifearena.games.life_for_two import LifeForTwoState
from lifearena.games.life_for_two.fast import (
    CELL_BITS,
    NUM_TRIPLES,
    OPPONENTS,
    OUTCOME_WINNERS,
    TRIPLE_MASKS,
    bits_to_board,
    is_legal,
    opponent_choice,
    outcome_code,
    play_turn,
)
from lifearena.games.life_for_two.notation import CELLS
from lifearena.interop.vector.base import SELF, CompiledVectorEnv

_ZERO = np.uint64(0)


@njit(cache=True)
def _write(i: int, ones: np.uint64, twos: np.uint64, turn: int, viewer: int, masked: bool,
           obs: np.ndarray, mask: np.ndarray, marked: np.ndarray) -> None:
    """Environment ``i``'s planes seen by ``viewer`` (``obs`` as ``(n, 3, 25)``) and its mask.
    ``marked[i]`` says whether the first-turn part of the mask row holds any true entry, so
    that later turns write only the 25 cell entries."""
    own, other = (ones, twos) if viewer == 0 else (twos, ones)
    flag = np.float32(1.0) if turn == 1 else np.float32(0.0)
    occupied = ones | twos
    for cell in range(CELLS):
        bit = CELL_BITS[cell]
        obs[i, 0, cell] = np.float32(1.0) if own & bit else np.float32(0.0)
        obs[i, 1, cell] = np.float32(1.0) if other & bit else np.float32(0.0)
        obs[i, 2, cell] = flag
    first = masked and turn == 1
    if first or marked[i]:
        for k in range(NUM_TRIPLES):
            mask[i, CELLS + k] = first and (TRIPLE_MASKS[k] & occupied) == 0
        marked[i] = first
    later = masked and turn != 1
    for cell in range(CELLS):
        mask[i, cell] = later and (CELL_BITS[cell] & occupied) == 0


@njit(cache=True)
def _start(i: int, ones: np.ndarray, twos: np.ndarray, turn: np.ndarray,
           pending: np.ndarray, learner: int, self_play: bool, obs: np.ndarray,
           mask: np.ndarray, marked: np.ndarray, to_play: np.ndarray) -> None:
    ones[i], twos[i], turn[i], pending[i] = _ZERO, _ZERO, 1, -1
    viewer = 0 if self_play else learner
    to_play[i] = viewer
    _write(i, _ZERO, _ZERO, 1, viewer, True, obs, mask, marked)


@njit(cache=True)
def _reset_all(ones: np.ndarray, twos: np.ndarray, turn: np.ndarray, pending: np.ndarray,
               learner: int, self_play: bool, obs: np.ndarray, mask: np.ndarray,
               marked: np.ndarray, to_play: np.ndarray) -> bool:
    for i in range(ones.shape[0]):
        _start(i, ones, twos, turn, pending, learner, self_play, obs, mask, marked, to_play)
    return True


@njit(cache=True)
def _step_all(actions: np.ndarray, ones: np.ndarray, twos: np.ndarray, turn: np.ndarray,
              pending: np.ndarray, ended: np.ndarray, forfeit: np.ndarray, rng: np.ndarray,
              learner: int, self_play: bool, kind: int, limit: int, population: bool,
              lose_illegal: bool, obs: np.ndarray, mask: np.ndarray, marked: np.ndarray,
              rewards: np.ndarray, terminated: np.ndarray, to_play: np.ndarray,
              opponent_actions: np.ndarray) -> int:
    n = ones.shape[0]
    if not lose_illegal:  # refuse the whole step before changing anything
        for i in range(n):
            if not ended[i] and not is_legal(ones[i] | twos[i], turn[i], actions[i]):
                return i
    for i in range(n):
        rewards[i] = 0.0
        terminated[i] = False
        if ended[i]:
            ended[i] = False
            forfeit[i] = False
            _start(i, ones, twos, turn, pending, learner, self_play, obs, mask, marked,
                   to_play)
            continue
        a, b, t = ones[i], twos[i], turn[i]
        mover = to_play[i]
        action = actions[i]
        if not is_legal(a | b, t, action):
            forfeit[i] = True
            rewards[i] = -1.0
            terminated[i] = True
            ended[i] = True
            pending[i] = -1
            _write(i, a, b, t, mover, False, obs, mask, marked)
            continue
        if self_play and mover == 0:  # seat 0's choice waits, unseen, for seat 1's
            pending[i] = action
            to_play[i] = 1
            _write(i, a, b, t, 1, True, obs, mask, marked)
            continue
        if self_play:
            first, second = pending[i], action
            pending[i] = -1
        else:
            reply = opponent_choice(kind, a, b, t, 1 - mover, rng, i)
            opponent_actions[i] = reply
            first, second = (action, reply) if mover == 0 else (reply, action)
        a, b = play_turn(a, b, first, second)
        t += 1
        ones[i], twos[i], turn[i] = a, b, t
        result = OUTCOME_WINNERS[outcome_code(a, b, t, limit, population)]
        if result >= 0:
            rewards[i] = 0.0 if result == 2 else (1.0 if result == mover else -1.0)
            terminated[i] = True
            ended[i] = True
            _write(i, a, b, t, mover, False, obs, mask, marked)
        else:
            viewer = 0 if self_play else mover
            to_play[i] = viewer
            _write(i, a, b, t, viewer, True, obs, mask, marked)
    return -1


class LifeForTwoVectorEnv(CompiledVectorEnv):
    """Life for Two, ``num_envs`` boards in one compiled step (see the module doc and
    :class:`~lifearena.interop.vector.base.CompiledVectorEnv` for the options)."""

    game: ClassVar[str] = "life_for_two"
    opponents: ClassVar[tuple[str, ...]] = (*OPPONENTS, SELF)

    def _allocate(self) -> None:
        if self.params["rules"] != "instructed":
            raise BadParameterError(f"rules={self.params['rules']!r}; the vector environment "
                                    f"plays the written rules only (expected 'instructed')")
        n = self.num_envs
        self._ones = np.zeros(n, np.uint64)
        self._twos = np.zeros(n, np.uint64)
        self._turn = np.zeros(n, np.int32)
        self._pending = np.full(n, -1, np.int64)
        self._marked = np.zeros(n, np.bool_)
        self._limit = int(self.params["max_turns"] or 0)
        self._population = self.params["limit_result"] == "population"
        self._planes = self._obs.reshape(n, 3, CELLS)

    def _reset_kernel(self) -> bool:
        self._marked[:] = True  # the buffers' first-turn entries are unknown: rewrite them
        return bool(_reset_all(self._ones, self._twos, self._turn, self._pending, self.player,
                               self.self_play, self._planes, self._mask, self._marked,
                               self.to_play))

    def _step_kernel(self, actions: np.ndarray) -> int:
        return int(_step_all(actions, self._ones, self._twos, self._turn, self._pending,
                             self._ended, self._forfeit, self._rng, self.player,
                             self.self_play, self.opponent_kind, self._limit, self._population,
                             self.illegal == "lose", self._planes, self._mask, self._marked,
                             self._rewards, self._terminated, self.to_play,
                             self.opponent_actions))

    def position(self, i: int, *, start: bool = False) -> LifeForTwoState:
        """Environment ``i``'s position now (a choice held back in self-play is not in
        it), or with ``start=True`` the start of its episode, the empty board."""
        board = bits_to_board(_ZERO, _ZERO) if start else \
            bits_to_board(self._ones[i], self._twos[i])
        return LifeForTwoState(board, 1 if start else int(self._turn[i]),
                               max_turns=self._limit or None,
                               limit_result=str(self.params["limit_result"]))

    @property
    def pending(self) -> np.ndarray:
        """In self-play, seat 0's choice each environment holds back for seat 1's (-1 for
        none); a copy."""
        return self._pending.copy()
