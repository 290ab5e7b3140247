"""What a trained War of Life policy sees: one feature row per legal move, describing the
board *after* that move and its crank (the "afterstate"), from the mover's side.

A policy scores each row with a small network and plays the best (or samples a softmax over
the scores while training), so it never has to learn the crank itself: the rules are known,
the network learns which afterstates are good. The same compiled kernel feeds the trainer
(``examples/rl/train_ppo.py``, a batch of boards at once) and
:class:`~lifearena.agents.policy.PolicyAgent` (one board), so a policy plays exactly as it
was trained.

Feature set ``afterstate-v1`` (:data:`NUM_FEATURES` = 134 numbers a move):

* 64: the mover's pieces after the move and crank (1.0 or 0.0, cell ``8 * row + col``);
* 64: the opponent's pieces after them;
* the mover's and the opponent's piece counts after them, divided by 12;
* the same two counts after one more crank with no move (how stable the afterstate is),
  divided by 12;
* 1.0 when the opponent has no piece left and the mover has (a win), else 0.0;
* 1.0 when the mover has no piece left (a loss or a draw), else 0.0.

>>> import numpy as np
>>> from lifearena.games.war_of_life import new_game
>>> from lifearena.games.war_of_life.fast import board_to_bits
>>> blue, red = board_to_bits(new_game(seed=1).board)
>>> offsets, actions, rows = afterstates(np.array([blue]), np.array([red]))
>>> offsets.tolist(), rows.shape, rows.dtype
([0, 46], (46, 134), dtype('float32'))
>>> actions.tolist() == sorted(new_game(seed=1).legal_actions())
True
"""

from __future__ import annotations

import numpy as np
from numba import njit

from lifearena.games.war_of_life.fast import TARGET_OF, count_moves, crank_bits, popcount

FEATURE_SET = "afterstate-v1"
"""The name a policy file gives the features its network reads."""
NUM_FEATURES = 134
"""Numbers in one feature row."""

_ONE = np.uint64(1)


@njit(cache=True)
def _fill(own: np.ndarray, other: np.ndarray, offsets: np.ndarray, actions: np.ndarray,
          rows: np.ndarray) -> None:
    k = 0
    for i in range(own.shape[0]):
        mine, theirs = own[i], other[i]
        empty = ~(mine | theirs)
        for cell in range(64):
            if not (mine >> np.uint64(cell)) & _ONE:
                continue
            for d in range(8):
                action = cell * 8 + d
                target = TARGET_OF[action]
                if target < 0 or not (empty >> np.uint64(target)) & _ONE:
                    continue
                moved = (mine ^ (_ONE << np.uint64(cell))) | (_ONE << np.uint64(target))
                a, b = crank_bits(moved, theirs)
                a2, b2 = crank_bits(a, b)
                for c in range(64):
                    rows[k, c] = np.float32((a >> np.uint64(c)) & _ONE)
                    rows[k, 64 + c] = np.float32((b >> np.uint64(c)) & _ONE)
                na, nb = popcount(a), popcount(b)
                rows[k, 128] = na / 12.0
                rows[k, 129] = nb / 12.0
                rows[k, 130] = popcount(a2) / 12.0
                rows[k, 131] = popcount(b2) / 12.0
                rows[k, 132] = 1.0 if nb == 0 and na > 0 else 0.0
                rows[k, 133] = 1.0 if na == 0 else 0.0
                actions[k] = action
                k += 1
        offsets[i + 1] = k


@njit(cache=True)
def _count(own: np.ndarray, other: np.ndarray) -> int:
    total = 0
    for i in range(own.shape[0]):
        total += count_moves(own[i], other[i])
    return total


def afterstates(own: np.ndarray, other: np.ndarray) -> tuple[np.ndarray, np.ndarray,
                                                               np.ndarray]:
    """The feature rows of every legal move of each board ``i`` (the mover's pieces
    ``own[i]``, the opponent's ``other[i]``, as ``uint64`` masks): ``(offsets, actions,
    rows)``, board ``i``'s moves being ``actions[offsets[i]:offsets[i + 1]]`` (in the game's
    action numbers, ascending: the tie order) and their rows the same slice of ``rows``. A
    board whose mover has no legal move has an empty slice."""
    own = np.ascontiguousarray(own, dtype=np.uint64)
    other = np.ascontiguousarray(other, dtype=np.uint64)
    total = _count(own, other)
    offsets = np.zeros(own.shape[0] + 1, np.int64)
    actions = np.empty(total, np.int64)
    rows = np.empty((total, NUM_FEATURES), np.float32)
    _fill(own, other, offsets, actions, rows)
    return offsets, actions, rows


def planes_to_masks(planes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The (mover, opponent) ``uint64`` masks of a batch of observations from the vector
    environment (``(N, 3, 8, 8)`` planes or ``(N, 192)`` flat; plane 0 the viewer's pieces,
    plane 1 the other side's).

    >>> obs = np.zeros((1, 3, 8, 8), np.float32); obs[0, 0, 0, 1] = obs[0, 1, 7, 7] = 1
    >>> [int(m[0]) for m in planes_to_masks(obs)] == [2, 1 << 63]
    True
    """
    flat = np.asarray(planes).reshape(len(planes), -1)
    bits = np.packbits(flat[:, :128] > 0.5, axis=1, bitorder="little")
    words = np.ascontiguousarray(bits).view("<u8")
    return words[:, 0].astype(np.uint64), words[:, 1].astype(np.uint64)
