"""Forced wins by exhaustive search over the game protocol: which first moves win within
``depth`` of the solver's moves whatever the other side does, and the defence that resists
longest. Every game's puzzles are judged by a :class:`Searcher`; :class:`ExhaustiveSearch`
works for any game from :mod:`lifearena.core` alone (slow but plain), and a game's miner may
register a faster one that must agree with it.

``depth`` counts the solver's moves: a win in 1 is a move after which the game is won; a
win in 2 a move after which every reply leaves a win in 1. At a chance node every outcome
must win; at a simultaneous node the solver's action must win against every action of the
other side (Life for Two's "wins whatever the opponent places").

>>> from lifearena.core import Record, replay
>>> state = replay(Record("blocking_queen", {"k": 1}, "1,1", ["", ""], []))
>>> search = ExhaustiveSearch()
>>> search.winning_moves(state, state.current_player(), 1)
['0,0']
"""

from __future__ import annotations

import importlib
from typing import Protocol

from lifearena.core import CHANCE, SIMULTANEOUS, Action, State


class Searcher(Protocol):
    """How a puzzle's moves are judged and answered for one game."""

    def winning_moves(self, state: State, solver: int, depth: int) -> list[str]:
        """The solver's moves (in the game's notation) that win by force within ``depth`` of
        the solver's moves, in the order of ``legal_actions``."""
        ...

    def defence(self, state: State, solver: int, depth: int) -> str:
        """The other side's reply (its move, or its own action of a simultaneous turn) that
        delays the solver's win longest, where the solver wins within ``depth``."""
        ...


def _child(state: State, action: Action) -> State:
    after = state.clone()
    after.apply_action(action)
    return after


def _joint(state: State, solver: int, mine: Action, theirs: Action) -> State:
    after = state.clone()
    after.apply_actions((mine, theirs) if solver == 0 else (theirs, mine))
    return after


class ExhaustiveSearch:
    """The plain AND-OR search over :mod:`lifearena.core`'s protocol (any game)."""

    def wins(self, state: State, solver: int, depth: int) -> bool:
        """Whether ``solver`` wins by force within ``depth`` of its moves from ``state``."""
        if state.is_terminal():
            return state.outcome().winner == solver  # type: ignore[union-attr]
        current = state.current_player()
        if current == CHANCE:
            return all(self.wins(_child(state, a), solver, depth)
                       for a, _ in state.chance_outcomes())
        if current == SIMULTANEOUS:
            if depth == 0:
                return False
            theirs = state.legal_actions(1 - solver)
            return any(all(self.wins(_joint(state, solver, mine, other), solver, depth - 1)
                           for other in theirs)
                       for mine in state.legal_actions(solver))
        if current == solver:
            return depth > 0 and any(self.wins(_child(state, a), solver, depth - 1)
                                     for a in state.legal_actions(solver))
        # The other side to move with none of the solver's moves left: not won yet (a win in
        # 1 is a move after which the game *is* won; a reply that loses by itself is the
        # solver's win in 2).
        return depth > 0 and all(self.wins(_child(state, a), solver, depth)
                                 for a in state.legal_actions(current))

    def winning_moves(self, state: State, solver: int, depth: int) -> list[str]:
        if state.is_terminal() or depth <= 0:
            return []
        found = []
        simultaneous = state.current_player() == SIMULTANEOUS
        for mine in state.legal_actions(solver):
            if simultaneous:
                won = all(self.wins(_joint(state, solver, mine, other), solver, depth - 1)
                          for other in state.legal_actions(1 - solver))
            else:
                won = self.wins(_child(state, mine), solver, depth - 1)
            if won:
                found.append(state.action_to_string(mine, solver))
        return found

    def defence(self, state: State, solver: int, depth: int) -> str:
        other = 1 - solver
        replies = state.legal_actions(other)
        if not replies:
            raise ValueError("the other side has no move here")

        def quickest(reply: Action) -> int:
            after = _child(state, reply)
            return next((d for d in range(depth + 1) if self.wins(after, solver, d)),
                        depth + 1)

        best = max(replies, key=quickest) if state.current_player() == other else replies[0]
        return state.action_to_string(best, other)


def main_line(search: Searcher, state: State, first: str,
              depth: int) -> tuple[tuple[str, ...], State]:
    """A puzzle's main line from ``state`` (a game of turns): ``first``, then the defence that
    resists longest, the solver's quickest win, and so on within ``depth`` of the solver's
    moves; with the position it ends in.

    >>> from lifearena.core import Record, replay
    >>> start = replay(Record("blocking_queen", {"k": 1}, "1,1", ["", ""], []))
    >>> line, end = main_line(ExhaustiveSearch(), start, "0,0", 1)
    >>> line, end.is_terminal()
    (('0,0',), True)
    """
    line = [first]
    after = state.clone()
    after.apply_move_text(first)
    solver = state.current_player()
    remaining = depth - 1
    while not after.is_terminal() and remaining > 0:
        reply = search.defence(after, solver, remaining)
        line.append(reply)
        after.apply_move_text(reply)
        if after.is_terminal():
            break
        for d in range(1, remaining + 1):
            moves = search.winning_moves(after, solver, d)
            if moves:
                line.append(moves[0])
                after.apply_move_text(moves[0])
                remaining = d - 1
                break
    return tuple(line), after


MINERS = ("war_of_life", "losat", "blocking_queen", "life_for_two", "p2life")
"""The games with a miner module ``lifearena.puzzles.<game>``."""


def searcher(game: str) -> Searcher:
    """The searcher that judges ``game``'s puzzles: the miner module's ``SEARCHER`` when it
    has one, else the plain :class:`ExhaustiveSearch`."""
    if game in MINERS:
        try:
            module = importlib.import_module(f"lifearena.puzzles.{game}")
        except ModuleNotFoundError:
            return ExhaustiveSearch()
        found: Searcher | None = getattr(module, "SEARCHER", None)
        if found is not None:
            return found
    return ExhaustiveSearch()
