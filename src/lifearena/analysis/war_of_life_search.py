"""War of Life's fixed-depth alpha-beta on bitboards, compiled: the analysis's search.

The same search as ``agents.make("alphabeta", game="war_of_life")`` at a fixed depth (the
protocol's iterative deepening stopped at ``depth``): minimax over the moves (a piece to an
empty neighbouring cell, then one Immigration generation) with War of Life's ending rules
(:func:`lifearena.games.war_of_life.fast.ending`), a finished game worth
``±(WIN - ply)`` to the side that won (0 for a draw, an exhausted game or a stalemate), and at
the horizon the land-grab value ``(own - other) / 64``. Children are searched best-looking
first (their land-grab value after the crank) so alpha-beta cuts early; the order changes
which of equal moves is reported first, never a value.

:func:`search` gives the value of the position for the side to move and its best move;
:func:`move_value` the value of one move searched to the same depth (the value the mover
keeps by playing it), so a played move's loss is exact at that depth. The tests check both
against a plain minimax on the protocol (:func:`reference_value`).

>>> from lifearena.games.war_of_life import from_prolog
>>> state = from_prolog("[[[1,1],[1,2],[2,1]],[[8,8]]]")
>>> value, best = search(state, 2)   # the lone red piece dies in the crank: a win at once
>>> value, state.action_to_string(best)
(999.0, '[1,1,2,2]')
"""

from __future__ import annotations

import numpy as np
from numba import njit

from lifearena.core import State
from lifearena.games.war_of_life import WarOfLifeState
from lifearena.games.war_of_life.fast import (
    BLUE_WINS,
    GOES_ON,
    RED_WINS,
    _ending_compiled,
    board_to_bits,
    children,
    has_move,
    popcount,
)

WIN = 1000.0
"""A won game at ply 0 (one less per ply: a quicker win scores more), as the protocol's
alpha-beta scores it."""
MAX_CHILDREN = 512
"""More moves than any War of Life position has (64 cells, 8 directions)."""

_ONE = np.uint64(1)
_INF = 1e9


@njit(cache=True)
def _end_value(own: np.uint64, other: np.uint64, player: int, played: int, ply: int) -> float:
    """The value for the side to move (``player``, pieces ``own``) of a finished position,
    or ``_INF`` when the game goes on."""
    blue, red = (own, other) if player == 0 else (other, own)
    code = _ending_compiled(popcount(blue), popcount(red), played, has_move(own, other))
    if code == GOES_ON:
        return _INF
    if code == BLUE_WINS:
        return (WIN - ply) if player == 0 else -(WIN - ply)
    if code == RED_WINS:
        return (WIN - ply) if player == 1 else -(WIN - ply)
    return 0.0


@njit(cache=True)
def _order(owns: np.ndarray, others: np.ndarray, n: int, keep: bool) -> np.ndarray:
    """The search order of ``n`` children: the mover's land-grab after the crank, best
    first (a stable sort: ties stay in tie order), or tie order when ``keep``."""
    if keep:
        return np.arange(n)
    keys = np.empty(n, dtype=np.int64)
    for i in range(n):
        keys[i] = popcount(others[i]) - popcount(owns[i])
    return np.argsort(keys, kind="mergesort")


@njit(cache=True)
def _negamax(own: np.uint64, other: np.uint64, player: int, played: int, depth: int,
             alpha: float, beta: float, ply: int) -> float:
    """The value of the position for the side to move, within (alpha, beta).

    Written with an explicit stack rather than recursion: numba's cache does not keep
    recursive functions safely, and a search compiled afresh in every process would cost
    seconds at each start."""
    levels = depth + 1
    pos_own = np.empty(levels, dtype=np.uint64)
    pos_other = np.empty(levels, dtype=np.uint64)
    actions = np.empty(MAX_CHILDREN, dtype=np.int64)
    owns = np.empty((levels, MAX_CHILDREN), dtype=np.uint64)
    others = np.empty((levels, MAX_CHILDREN), dtype=np.uint64)
    order = np.empty((levels, MAX_CHILDREN), dtype=np.int64)
    count = np.zeros(levels, dtype=np.int64)
    index = np.zeros(levels, dtype=np.int64)
    alphas = np.empty(levels)
    betas = np.empty(levels)
    bests = np.empty(levels)
    pos_own[0], pos_other[0], alphas[0], betas[0] = own, other, alpha, beta
    level = 0
    entering = True
    value = 0.0
    while True:
        if entering:
            mover = player if level % 2 == 0 else 1 - player
            end = _end_value(pos_own[level], pos_other[level], mover, played + level,
                             ply + level)
            if end != _INF:
                value = end
            elif level >= depth:
                value = (popcount(pos_own[level]) - popcount(pos_other[level])) / 64.0
            else:
                n = children(pos_own[level], pos_other[level], actions, owns[level],
                              others[level])
                order[level, :n] = _order(owns[level], others[level], n, depth - level < 2)
                count[level] = n
                index[level] = 0
                bests[level] = -_INF
                child = order[level, 0]
                pos_own[level + 1] = others[level, child]
                pos_other[level + 1] = owns[level, child]
                alphas[level + 1] = -betas[level]
                betas[level + 1] = -alphas[level]
                level += 1
                continue
        # ``value`` is the finished node's at ``level``: hand it to its parent
        if level == 0:
            return value
        parent = level - 1
        if -value > bests[parent]:
            bests[parent] = -value
        if bests[parent] > alphas[parent]:
            alphas[parent] = bests[parent]
        index[parent] += 1
        if alphas[parent] >= betas[parent] or index[parent] >= count[parent]:
            value = bests[parent]
            level = parent
            entering = False
            continue
        child = order[parent, index[parent]]
        pos_own[level] = others[parent, child]
        pos_other[level] = owns[parent, child]
        alphas[level] = -betas[parent]
        betas[level] = -alphas[parent]
        entering = True


@njit(cache=True)
def _root(own: np.uint64, other: np.uint64, player: int, played: int,
          depth: int) -> tuple[float, int]:
    """(value, best action) of a position that goes on; the first best in search order."""
    actions = np.empty(MAX_CHILDREN, dtype=np.int64)
    owns = np.empty(MAX_CHILDREN, dtype=np.uint64)
    others = np.empty(MAX_CHILDREN, dtype=np.uint64)
    n = children(own, other, actions, owns, others)
    order = _order(owns, others, n, False)
    alpha = -_INF
    best_action = -1
    for k in range(n):
        i = order[k]
        value = -_negamax(others[i], owns[i], 1 - player, played + 1, depth - 1, -_INF,
                          -alpha, 1)
        if value > alpha:
            alpha = value
            best_action = actions[i]
    return alpha, best_action


def _bits(state: WarOfLifeState) -> tuple[np.uint64, np.uint64, int, int]:
    """(mover's pieces, the other's, the mover, moves played since the game began: a setup's
    count included, which ``move_number`` (moves since this state's setup) leaves out)."""
    blue, red = board_to_bits(state.board)
    player = state.current_player()
    own, other = (blue, red) if player == 0 else (red, blue)
    return own, other, player, state.moves_played


def search(state: State, depth: int) -> tuple[float, int]:
    """(value for the side to move, best action) of a War of Life position that goes on,
    searched ``depth`` plies (``depth >= 1``)."""
    assert isinstance(state, WarOfLifeState) and not state.is_terminal()
    own, other, player, played = _bits(state)
    value, action = _root(own, other, player, played, depth)
    return float(value), int(action)


def move_value(state: State, action: int, depth: int) -> float:
    """The value for the side to move of playing the legal ``action`` in ``state``,
    searched ``depth`` plies in all (the move, then ``depth - 1`` more)."""
    assert isinstance(state, WarOfLifeState)
    child = state.clone()
    child.apply_action(action)
    if child.is_terminal():
        return float(child.returns()[state.current_player()]) * (WIN - 1)
    own, other, player, played = _bits(child)
    return -float(_negamax(own, other, player, played, depth - 1, -_INF, _INF, 1))


def reference_value(state: State, depth: int, ply: int = 0) -> float:
    """Plain minimax on the protocol, no pruning, no ordering, of a position that goes on:
    what the compiled search must equal (for the tests; slow)."""
    player = state.current_player()
    if depth <= 0:
        return float(state.evaluate(player))
    best = -_INF
    for action in state.legal_actions(player):
        child = state.clone()
        child.apply_action(action)
        if child.is_terminal():
            won = child.returns()[player]
            score = 0.0 if won == 0 else won * (WIN - ply - 1)
        else:
            score = -reference_value(child, depth - 1, ply + 1)
        best = max(best, score)
    return best
