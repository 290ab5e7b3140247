"""Life for Two (the written rules) as a compiled vector environment: ``num_envs`` 5x5 boards
stepped in one numba call, on the kernels of :mod:`lifearena.games.life_for_two.fast` (the
bitboards, the turn, the ending rules and the opponents, said once there); this module
holds the buffers and writes the observations and masks. Every episode starts from the
empty board, turn 1.

Both choices of a turn are applied together, as in the single environment: the learner's
action and the opponent's, chosen from the position before the turn. Each board's opponent
(one name, or a pool drawn per board at every episode start: see
:class:`~lifearena.interop.vector.base.CompiledVectorEnv`) is one of the compiled players of
:mod:`lifearena.games.life_for_two.fast`, played inside the batch and drawing from the
board's own stream: ``"random"`` (uniform among the legal choices), ``"greedy"`` and
``"nash"`` (what ``agents.make(name, game="life_for_two")`` picks; ``nash`` solves a matrix
game of up to 25x25 at every turn, about 5 ms a board); or ``"policy"``, the
``opponent_policy`` callback, asked once per step before the turn (``simultaneous`` is true)
with its own seat's view of the boards it plays, which the kernels keep written at every
decision point; or ``"self"``, the game in its turn-based form (as OpenSpiel's
``python_life_for_two_turn_based``): one step takes seat 0's choice, which no observation
shows, the next takes seat 1's and applies both; the reward on that second step is seat 1's,
and an illegal choice forfeits the seat that made it. ``rules="classic"`` (the 1978 program
at one screen) has no vector environment.

>>> env = LifeForTwoVectorEnv(2, opponent={"greedy": 1, "random": 1},
...                           params={"max_turns": 8})
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
    BIT_OF,
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
from lifearena.interop.vector.base import POLICY_KIND, SELF_KIND, CompiledVectorEnv

_ZERO = np.uint64(0)
_ONE = np.uint64(1)


@njit(cache=True)
def _write(i: int, ones: np.uint64, twos: np.uint64, turn: int, viewer: int, masked: bool,
           obs: np.ndarray, mask: np.ndarray, marked: np.ndarray) -> None:
    """Environment ``i``'s planes seen by ``viewer`` (``obs`` as ``(n, 3, 25)``) and its mask.
    ``marked[i]`` says whether the first-turn part of the mask row may hold a true entry, so
    that later turns write only the 25 cell entries."""
    own, other = (ones, twos) if viewer == 0 else (twos, ones)
    flag = np.float32(1.0) if turn == 1 else np.float32(0.0)
    occupied = ones | twos
    for cell in range(CELLS):
        shift = np.uint64(BIT_OF[cell])
        obs[i, 0, cell] = np.float32((own >> shift) & _ONE)
        obs[i, 1, cell] = np.float32((other >> shift) & _ONE)
        obs[i, 2, cell] = flag
    if masked and turn == 1:
        if occupied == _ZERO:  # every episode's start: all 2300 triples, as one fill
            mask[i, CELLS:] = True
        else:
            for k in range(NUM_TRIPLES):
                mask[i, CELLS + k] = (TRIPLE_MASKS[k] & occupied) == 0
        marked[i] = True
    elif marked[i]:
        mask[i, CELLS:] = False
        marked[i] = False
    later = masked and turn != 1
    for cell in range(CELLS):
        mask[i, cell] = later and (CELL_BITS[cell] & occupied) == 0


@njit(cache=True)
def _start_all(which: np.ndarray, ones: np.ndarray, twos: np.ndarray, turn: np.ndarray,
               pending: np.ndarray, learner: int, kinds: np.ndarray, obs: np.ndarray,
               mask: np.ndarray, marked: np.ndarray, to_play: np.ndarray,
               opp_obs: np.ndarray, opp_mask: np.ndarray, opp_marked: np.ndarray) -> bool:
    """Start the boards ``which`` selects on the empty board, turn 1: the learner's view (in
    self-play seat 0's), and a policy opponent's view of its own seat."""
    for i in range(ones.shape[0]):
        if not which[i]:
            continue
        ones[i], twos[i], turn[i], pending[i] = _ZERO, _ZERO, 1, -1
        viewer = 0 if kinds[i] == SELF_KIND else learner
        to_play[i] = viewer
        _write(i, _ZERO, _ZERO, 1, viewer, True, obs, mask, marked)
        if kinds[i] == POLICY_KIND:
            _write(i, _ZERO, _ZERO, 1, 1 - learner, True, opp_obs, opp_mask, opp_marked)
    return True


@njit(cache=True)
def _step_all(actions: np.ndarray, active: np.ndarray, opp_actions: np.ndarray,
              ones: np.ndarray, twos: np.ndarray, turn: np.ndarray, pending: np.ndarray,
              ended: np.ndarray, forfeit: np.ndarray, rng: np.ndarray, learner: int,
              kinds: np.ndarray, limit: int, population: bool, lose_illegal: bool,
              obs: np.ndarray, mask: np.ndarray, marked: np.ndarray, rewards: np.ndarray,
              terminated: np.ndarray, to_play: np.ndarray, opponent_actions: np.ndarray,
              opp_obs: np.ndarray, opp_mask: np.ndarray, opp_marked: np.ndarray) -> int:
    """One turn on each active board: the learner's choice (in self-play the mover's, seat
    0's held back for seat 1's) and the opponent's (compiled, or the policy's
    ``opp_actions``) applied together; -1, or with ``illegal="raise"`` the first board
    whose action is illegal (nothing changed then)."""
    n = ones.shape[0]
    if not lose_illegal:  # refuse the whole step before changing anything
        for i in range(n):
            if active[i] and not is_legal(ones[i] | twos[i], turn[i], actions[i]):
                return i
    for i in range(n):
        if not active[i]:
            continue
        a, b, t = ones[i], twos[i], turn[i]
        kind = kinds[i]
        self_play = kind == SELF_KIND
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
            if kind == POLICY_KIND:
                reply = opp_actions[i]
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
            continue
        viewer = 0 if self_play else mover
        to_play[i] = viewer
        _write(i, a, b, t, viewer, True, obs, mask, marked)
        if kind == POLICY_KIND:
            _write(i, a, b, t, 1 - mover, True, opp_obs, opp_mask, opp_marked)
    return -1


class LifeForTwoVectorEnv(CompiledVectorEnv):
    """Life for Two, ``num_envs`` boards in one compiled step (see the module doc and
    :class:`~lifearena.interop.vector.base.CompiledVectorEnv` for the options)."""

    game: ClassVar[str] = "life_for_two"
    opponents: ClassVar[tuple[str, ...]] = OPPONENTS
    """The compiled opponents: ``random``, ``greedy`` and ``nash``, numbered as
    :data:`~lifearena.games.life_for_two.fast.OPPONENTS` numbers them."""
    simultaneous: ClassVar[bool] = True

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
        """Whether the first-turn part of each mask row holds a true entry (a later turn
        then clears it; otherwise only the 25 cell entries are written)."""
        self._opp_marked = np.zeros(len(self._opp_mask), np.bool_)
        """The same for the policy opponent's mask rows."""
        self._limit = int(self.params["max_turns"] or 0)
        self._population = self.params["limit_result"] == "population"
        self._planes = self._obs.reshape(n, 3, CELLS)
        self._opp_planes = self._opp_obs.reshape(len(self._opp_obs), 3, CELLS)

    def _start_kernel(self, which: np.ndarray) -> bool:
        return bool(_start_all(which, self._ones, self._twos, self._turn, self._pending,
                               self.player, self._kinds, self._planes, self._mask,
                               self._marked, self.to_play, self._opp_planes, self._opp_mask,
                               self._opp_marked))

    def _step_kernel(self, actions: np.ndarray, active: np.ndarray,
                     opp_actions: np.ndarray) -> int:
        if self.uses_policy:
            self._check_policy(active & (self._kinds == POLICY_KIND), opp_actions)
        return int(_step_all(actions, active, opp_actions, self._ones, self._twos,
                             self._turn, self._pending, self._ended, self._forfeit,
                             self._rng, self.player, self._kinds, self._limit,
                             self._population, self.illegal == "lose", self._planes,
                             self._mask, self._marked, self._rewards, self._terminated,
                             self.to_play, self.opponent_actions, self._opp_planes,
                             self._opp_mask, self._opp_marked))

    def _check_policy(self, boards: np.ndarray, opp_actions: np.ndarray) -> None:
        """Refuse, before anything changes, a policy choice its mask does not allow."""
        chosen = opp_actions[boards]
        inside = (chosen >= 0) & (chosen < self.num_actions)
        allowed = inside.copy()
        allowed[inside] = self._opp_mask[boards][inside, chosen[inside]]
        if not allowed.all():
            bad = int(np.flatnonzero(boards)[np.argmin(allowed)])
            raise BadParameterError(
                f"opponent_policy chose action {int(opp_actions[bad])} on board {bad}, which "
                f"is illegal there; expected an action its mask allows")

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
