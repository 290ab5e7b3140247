"""War of Life's puzzles: wipe-outs in 1 and 2, mined from the coursework strategies' games.

A side whose pieces are all gone loses, unless both go in the same crank (a draw) or the
250th move has been played (an exhausted draw): see :func:`lifearena.games.war_of_life.fast.ending`.
So the solver wins exactly when its move and the crank after it leave the other side with no
pieces and itself with some, before move 250.

Themes (:data:`THEMES`):

* ``wipe-out-in-1`` — exactly one move wipes the other side out;
* ``wipe-out-in-2`` — no move wins at once, and exactly one move leaves the other side only
  replies after which the solver wipes it out (or that wipe itself out).

A position is a puzzle only when it has exactly one solution: a War of Life position where
two moves win is rarely a puzzle worth solving (a lone piece dying of isolation is won by
almost any move).

The search (:data:`SEARCHER`) runs on the compiled bitboards of
:mod:`lifearena.games.war_of_life.fast` (``crank_bits``); the tests check it against the plain
:class:`~lifearena.puzzles.search.ExhaustiveSearch`. Games to mine come from the compiled
strategies of :mod:`lifearena.agents.war_of_life_fast` (random, bloodlust, self-preservation,
land-grab, minimax, paired in every way).

>>> from lifearena.games.war_of_life import from_prolog
>>> state = from_prolog("[[[3,1],[3,8],[5,4]],[[1,4],[4,3]]]")
>>> SEARCHER.winning_moves(state, 0, 1)
['[5,4,5,3]']
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
from numba import njit

from lifearena.agents.war_of_life_fast import FastPlayer
from lifearena.core import Record, State
from lifearena.games.war_of_life import ACTION_TEXT, MAX_MOVES, WarOfLifeState, fast
from lifearena.games.war_of_life.fast import TARGET_OF, crank_bits, has_move
from lifearena.puzzles.generate import puzzle_id, rate
from lifearena.puzzles.model import Puzzle
from lifearena.puzzles.search import ExhaustiveSearch, main_line

THEMES: dict[str, str] = {
    "wipe-out-in-1": "One move, and the crank after it, leaves the other side no pieces.",
    "wipe-out-in-2": "One move leaves the other side only replies that lose all its pieces "
                     "to your next move.",
}
DEPTHS = {1: "wipe-out-in-1", 2: "wipe-out-in-2"}
"""The theme of a puzzle of each depth."""

_ONE = np.uint64(1)
_ZERO = np.uint64(0)
WIN, LOSS, DRAW, GOES_ON = 0, 1, 2, 3
"""What a move means for its mover (:func:`_verdict`)."""


@njit(cache=True)
def _moves(own: np.uint64, other: np.uint64, out: np.ndarray) -> int:
    """Writes the legal actions of the side with ``own`` pieces to ``out`` in ascending
    order (the protocol's order); returns how many."""
    empty = ~(own | other)
    n = 0
    rest = own
    while rest:
        cell = fast.lowest(rest)
        rest &= rest - _ONE
        for direction in range(8):
            target = TARGET_OF[cell * 8 + direction]
            if target >= 0 and (empty >> np.uint64(target)) & _ONE:
                out[n] = cell * 8 + direction
                n += 1
    return n


@njit(cache=True)
def _play(own: np.uint64, other: np.uint64, action: int) -> tuple[np.uint64, np.uint64]:
    """The mover's and the other side's pieces after ``action`` and its crank."""
    moved = (own ^ (_ONE << np.uint64(action // 8))) | (_ONE << np.uint64(TARGET_OF[action]))
    return crank_bits(moved, other)


@njit(cache=True)
def _verdict(own: np.uint64, other: np.uint64, played: int) -> int:
    """What a position after the mover's move (``own`` its pieces, ``played`` moves played
    counting it) means for the mover: the ending rules, in their order."""
    if own == _ZERO and other == _ZERO:
        return DRAW
    if played >= MAX_MOVES:
        return DRAW
    if other == _ZERO:
        return WIN
    if own == _ZERO:
        return LOSS
    if not has_move(other, own):
        return DRAW  # stalemate
    return GOES_ON


@njit(cache=True)
def _wins_at_once(own: np.uint64, other: np.uint64, played: int) -> bool:
    """Whether the side to move (``own``) has a move that wipes the other side out."""
    actions = np.empty(64 * 8, dtype=np.int64)
    n = _moves(own, other, actions)
    for i in range(n):
        mine, theirs = _play(own, other, actions[i])
        if _verdict(mine, theirs, played + 1) == WIN:
            return True
    return False


@njit(cache=True)
def _move_wins(own: np.uint64, other: np.uint64, played: int, action: int, depth: int
               ) -> bool:
    """Whether ``action`` wins within ``depth`` (1 or 2) of the mover's moves, this one
    included. (Written out for each depth, not recursively: numba's cache cannot load
    recursive functions.)"""
    mine, theirs = _play(own, other, action)
    verdict = _verdict(mine, theirs, played + 1)
    if verdict != GOES_ON or depth <= 1:
        return verdict == WIN
    replies = np.empty(64 * 8, dtype=np.int64)
    n = _moves(theirs, mine, replies)
    for i in range(n):
        t2, m2 = _play(theirs, mine, replies[i])
        after = _verdict(t2, m2, played + 2)
        if after == LOSS:
            continue  # the reply wipes out the side that made it
        if after != GOES_ON or not _wins_at_once(m2, t2, played + 2):
            return False
    return True


@njit(cache=True)
def _wins(own: np.uint64, other: np.uint64, played: int, depth: int) -> bool:
    """Whether the side to move (``own``) wipes the other out within ``depth`` (1 or 2) of
    its moves, whatever the other side replies."""
    actions = np.empty(64 * 8, dtype=np.int64)
    n = _moves(own, other, actions)
    for i in range(n):  # noqa: SIM110 (numba compiles no generators)
        if _move_wins(own, other, played, actions[i], depth):
            return True
    return False


@njit(cache=True)
def _winning(own: np.uint64, other: np.uint64, played: int, depth: int,
             out: np.ndarray) -> int:
    """Writes the mover's actions that win within ``depth`` to ``out``; returns how many."""
    actions = np.empty(64 * 8, dtype=np.int64)
    n = _moves(own, other, actions)
    found = 0
    for i in range(n):
        if _move_wins(own, other, played, actions[i], depth):
            out[found] = actions[i]
            found += 1
    return found


@njit(cache=True)
def _quickest(own: np.uint64, other: np.uint64, played: int, depth: int) -> int:
    """For the side to move (``own``): the fewest of its moves that win, up to ``depth``;
    ``depth + 1`` when none does (0 when the position is already won for it)."""
    for d in range(1, depth + 1):
        if _wins(own, other, played, d):
            return d
    return depth + 1


@njit(cache=True)
def _defence(theirs: np.uint64, mine: np.uint64, played: int, depth: int) -> int:
    """The other side's reply (it is to move, with pieces ``theirs``) that puts the solver's
    wipe-out off longest, the first such in action order; -1 without a move."""
    replies = np.empty(64 * 8, dtype=np.int64)
    n = _moves(theirs, mine, replies)
    best, best_delay = -1, -1
    for i in range(n):
        t2, m2 = _play(theirs, mine, replies[i])
        verdict = _verdict(t2, m2, played + 1)
        if verdict == LOSS:
            delay = 0
        elif verdict == GOES_ON:
            delay = _quickest(m2, t2, played + 1, depth)
        else:
            delay = depth + 1
        if delay > best_delay:
            best, best_delay = replies[i], delay
    return best


def _bits(state: WarOfLifeState) -> tuple[np.uint64, np.uint64, int]:
    blue, red = fast.board_to_bits(state.board)
    own, other = (blue, red) if state.to_move == 0 else (red, blue)
    return own, other, state.moves_played


class WarOfLifeSearch:
    """Forced wipe-outs on the compiled bitboards; anything else (another game, a solver not
    to move, a depth over 2) goes to the plain :class:`ExhaustiveSearch`."""

    max_depth = 2

    def __init__(self) -> None:
        self._plain = ExhaustiveSearch()
        self._out = np.empty(64 * 8, dtype=np.int64)

    def _handles(self, state: State, solver: int, depth: int) -> bool:
        return (isinstance(state, WarOfLifeState) and not state.is_terminal()
                and state.current_player() == solver and 1 <= depth <= self.max_depth)

    def winning_moves(self, state: State, solver: int, depth: int) -> list[str]:
        if not self._handles(state, solver, depth):
            return self._plain.winning_moves(state, solver, depth)
        assert isinstance(state, WarOfLifeState)
        own, other, played = _bits(state)
        n = _winning(own, other, played, depth, self._out)
        return [ACTION_TEXT[a] for a in self._out[:n].tolist()]

    def defence(self, state: State, solver: int, depth: int) -> str:
        other_side = 1 - solver
        if not (isinstance(state, WarOfLifeState) and not state.is_terminal()
                and state.current_player() == other_side and depth <= self.max_depth):
            return self._plain.defence(state, solver, depth)
        theirs, mine, played = _bits(state)
        best = _defence(theirs, mine, played, depth)
        if best < 0:
            raise ValueError("the other side has no move here")
        return ACTION_TEXT[best]


SEARCHER = WarOfLifeSearch()


def _decoys(own: np.uint64, other: np.uint64, played: int, solutions: set[int]) -> int:
    """The plausible moves that do not win: those leaving the other side at most one piece
    more than the fewest that any non-winning move leaves (what a bloodthirsty player looks
    at first)."""
    actions = np.empty(64 * 8, dtype=np.int64)
    n = _moves(own, other, actions)
    left = [int(_play(own, other, a)[1]).bit_count() for a in actions[:n].tolist()
            if a not in solutions]
    if not left:
        return 0
    fewest = min(left)
    return sum(1 for count in left if count <= fewest + 1)


def mine(record: Record) -> Iterator[Puzzle]:
    """Every position of ``record`` where the side to move wipes the other out in 1 or 2
    with exactly one move (and not sooner), as puzzles, in ply order; a position whose
    solution an earlier puzzle of the same game already had is left out (the same idea a
    move later)."""
    state = WarOfLifeState.from_setup(record.setup)
    out = np.empty(64 * 8, dtype=np.int64)
    ideas: set[tuple[int, int]] = set()
    for ply in range(len(record.moves) + 1):
        if ply:
            state.apply_move_text(record.moves[ply - 1])
        if state.is_terminal():
            break
        own, other, played = _bits(state)
        for depth in (1, 2):
            n = _winning(own, other, played, depth, out)
            if n == 0:
                continue
            if n == 1 and (state.to_move, int(out[0])) not in ideas:
                ideas.add((state.to_move, int(out[0])))
                solution = ACTION_TEXT[int(out[0])]
                legal = len(state.legal_actions())
                decoys = _decoys(own, other, played, {int(out[0])})
                yield Puzzle(puzzle_id(record, ply), "war_of_life", record, ply,
                             state.current_player(), (solution,),
                             main_line(SEARCHER, state, solution, depth)[0], DEPTHS[depth], depth,
                             rate(depth, legal, decoys))
            break  # a win in 1 makes every deeper win a longer way round


PAIRINGS = tuple((a, b) for a in fast.STRATEGIES for b in fast.STRATEGIES)
"""Every ordered pair of the compiled strategies (the random one twice against itself)."""


def agent_games(count: int, seed: int) -> Iterator[Record]:
    """``count`` games between the compiled coursework strategies: game ``i`` starts from
    ``new_game(seed=seed + i)``'s random position, with the ``i``-th pairing of
    :data:`PAIRINGS` (round and round), the random players seeded from ``seed``."""
    from lifearena.games.war_of_life import new_game

    players = {pair: FastPlayer(pair, (seed, seed + 1)) for pair in PAIRINGS}
    for i in range(count):
        pair = PAIRINGS[i % len(PAIRINGS)]
        start = new_game(seed=seed + i)
        ((moves, _outcome, _),) = players[pair].play([start.setup()])
        for move in moves:
            start.apply_move_text(move)
        yield start.record(list(pair))
