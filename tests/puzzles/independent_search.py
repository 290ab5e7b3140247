"""Exhaustive searches written for the tests alone, sharing no code with the package's
searches (neither ``ExhaustiveSearch`` nor a miner's ``SEARCHER``), so that the shipped
puzzles are judged by something that did not make them.

* :func:`winning_first_moves` — plain recursion over :mod:`lifearena.core`'s State
  protocol (clone, ``apply_action``, ``outcome``), for any game. Where a state offers make
  and unmake (:class:`~lifearena.core.Undo`) it plays moves with ``push``/``pop`` instead of
  cloning, which is the same search, faster. ``last_moves`` may narrow the solver's last
  move to the moves that can possibly win at once (a test states why for its game).
* :func:`war_of_life_winning_moves` — War of Life on two 64-bit masks, with the move
  generation and ending rules written here from the rules' docstring, and only the crank
  borrowed from the game (its compiled kernel, checked against the engine by the game's own
  tests): fast enough to check hundreds of wins in 2 in seconds.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

import numpy as np

from lifearena.core import State, Undo
from lifearena.games.war_of_life.fast import crank_bits

LastMoves = Callable[[State, int, Sequence[int]], Sequence[int]]


class _Player:
    """Plays a move on a state and takes it back: push and pop where the game has them,
    else a clone per child."""

    def __init__(self, state: State) -> None:
        self.undo = isinstance(state, Undo)

    def children(self, state: State, actions: Sequence[int]) -> Iterator[State]:
        for action in actions:
            if self.undo:
                state.push(action)  # type: ignore[attr-defined]
                try:
                    yield state
                finally:
                    state.pop()  # type: ignore[attr-defined]
            else:
                child = state.clone()
                child.apply_action(action)
                yield child


def _forced_win(state: State, solver: int, depth: int, play: _Player,
                last_moves: LastMoves | None) -> bool:
    if state.is_terminal():
        outcome = state.outcome()
        return outcome is not None and outcome.winner == solver
    if depth == 0:
        return False
    mover = state.current_player()
    actions = state.legal_actions(mover)
    if mover != solver:
        return all(_forced_win(child, solver, depth, play, last_moves)
                   for child in play.children(state, actions))
    if depth == 1 and last_moves is not None:
        actions = list(last_moves(state, solver, actions))
    return any(_forced_win(child, solver, depth - 1, play, last_moves)
               for child in play.children(state, actions))


def winning_first_moves(state: State, solver: int, depth: int,
                        last_moves: LastMoves | None = None) -> list[str]:
    """The solver's moves (it is to move) that win within ``depth`` of its moves whatever
    the other side does, in legal order."""
    work = state.clone()
    play = _Player(work)
    actions = work.legal_actions(solver)
    texts = [work.action_to_string(a, solver) for a in actions]
    won = [_forced_win(child, solver, depth - 1, play, last_moves)
           for child in play.children(work, actions)]
    return [text for text, ok in zip(texts, won, strict=True) if ok]


# -- War of Life on masks ------------------------------------------------------------------------

_STEPS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))
_MOVES = [[(f"[{r + 1},{c + 1},{r + dr + 1},{c + dc + 1}]", 1 << (8 * r + c),
            1 << (8 * (r + dr) + c + dc))
           for dr, dc in _STEPS if 0 <= r + dr < 8 and 0 <= c + dc < 8]
          for r in range(8) for c in range(8)]
"""For each cell, its moves in the order of the game's actions: (text, from bit, to bit)."""
WIN, LOSS, DRAW = "win", "loss", "draw"


_AROUND = [sum(target for _, _, target in moves) for moves in _MOVES]
"""For each cell, the mask of its neighbours on the board."""


def _cells(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _moves(own: int, other: int) -> Iterator[tuple[str, int, int]]:
    taken = own | other
    for cell in _cells(own):
        if _AROUND[cell] & ~taken:
            for text, source, target in _MOVES[cell]:
                if not taken & target:
                    yield text, source, target


def _can_move(own: int, other: int) -> bool:
    free = ~(own | other)
    return any(_AROUND[cell] & free for cell in _cells(own))


def _crank(mover: int, other: int) -> tuple[int, int]:
    a, b = crank_bits(np.uint64(mover), np.uint64(other))
    return int(a), int(b)


def _verdict(mover: int, other: int, played: int) -> str | None:
    """After a move and its crank, with ``played`` moves played: what the game's ending
    means for the side that moved (``None``: it goes on). The rules' order: no pieces at
    all is a draw; 250 moves an exhausted draw; a side without pieces loses; the side to
    move with pieces and no move is stalemated (a draw)."""
    if not mover and not other:
        return DRAW
    if played >= 250:
        return DRAW
    if not other:
        return WIN
    if not mover:
        return LOSS
    if not _can_move(other, mover):
        return DRAW
    return None


def _wins(own: int, other: int, played: int, depth: int) -> bool:
    return any(_move_wins(own, other, played, source, target, depth)
               for _, source, target in _moves(own, other))


def _move_wins(own: int, other: int, played: int, source: int, target: int,
               depth: int) -> bool:
    mine, theirs = _crank(own ^ source | target, other)
    verdict = _verdict(mine, theirs, played + 1)
    if verdict is not None or depth == 1:
        return verdict == WIN
    for _, rsource, rtarget in _moves(theirs, mine):
        theirs2, mine2 = _crank(theirs ^ rsource | rtarget, mine)
        verdict = _verdict(theirs2, mine2, played + 2)
        if verdict == LOSS:
            continue
        if verdict is not None or not _wins(mine2, theirs2, played + 2, depth - 1):
            return False
    return True


def war_of_life_winning_moves(board: np.ndarray, to_move: int, played: int,
                              depth: int) -> list[str]:
    """The moves of the side to move (0 blue, 1 red) on an ``(8, 8)`` board of 0/1/2 that
    wipe the other side out within ``depth`` of its moves, in the game's action order."""
    flat = np.asarray(board).reshape(64)
    blue = sum(1 << i for i in range(64) if flat[i] == 1)
    red = sum(1 << i for i in range(64) if flat[i] == 2)
    own, other = (blue, red) if to_move == 0 else (red, blue)
    return [text for text, source, target in _moves(own, other)
            if _move_wins(own, other, played, source, target, depth)]
