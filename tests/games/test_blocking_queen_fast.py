"""The blocking queen game's compiled boards (games/blocking_queen/fast.py) against the protocol
state: the same rules on random play, position for position."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from lifearena.games.blocking_queen import (
    BLOCK_BASE,
    DONE,
    BlockingQueenState,
    fast,
    index_square,
    options,
)
from lifearena.games.blocking_queen.fast import (
    BLOCKING,
    LEFT,
    MOVER,
    OVER,
    PLIES,
    X,
    Y,
    new_board,
)

SETTINGS = settings(max_examples=40, deadline=None)


def window_action(action: int, side: int) -> int:
    """The compiled board's number (on a ``side x side`` corner) of a protocol action."""
    if action == DONE:
        return 2 * side * side
    base = side * side if action >= BLOCK_BASE else 0
    x, y = index_square(action - BLOCK_BASE if action >= BLOCK_BASE else action)
    return base + y * side + x


class Board:
    """One compiled board beside a protocol state, moved by the same actions."""

    def __init__(self, x: int, y: int, k: int, side: int) -> None:
        self.side, self.k = side, k
        self.s, self.blocked, self.blocks, self.history = new_board(side, k)
        fast.start(self.s, self.blocked, self.blocks, y * side + x, side)
        self.state = BlockingQueenState(x, y, k=k)

    def play(self, action: int) -> None:
        """Play the protocol ``action`` on both."""
        fast.apply(self.s, self.blocked, self.blocks, self.history, self.side, self.k,
                   window_action(action, self.side))
        self.state.apply_action(action)

    def legal(self) -> list[int]:
        """The compiled board's legal actions (none once the game is over)."""
        if self.s[OVER]:
            return []
        return [a for a in range(2 * self.side * self.side + 1)
                if fast.is_legal(self.s, self.blocked, self.side, a)]

    def check(self) -> None:
        """Both sides show the same position."""
        s, state = self.s, self.state
        assert (int(s[X]), int(s[Y])) == state.queen
        assert bool(s[BLOCKING]) == state.blocking and int(s[LEFT]) == state.blocks_left
        blocked = {(int(q) % self.side, int(q) // self.side) for q in np.flatnonzero(self.blocked)}
        assert blocked == state.blocked
        outcome = state.outcome()
        assert int(s[OVER]) == (0 if outcome is None else outcome.winner + 1)
        if outcome is None:
            assert int(s[MOVER]) == state.current_player()
        assert self.legal() == sorted(window_action(a, self.side) for a in state.legal_actions())
        assert int(s[PLIES]) == len(state.history())


@st.composite
def starts(draw: st.DrawFn) -> tuple[int, int, int, int]:
    """A corner side, a start square in it (the origin now and then) and a k."""
    side = draw(st.integers(2, 9), label="side")
    x, y = draw(st.integers(0, side - 1)), draw(st.integers(0, side - 1))
    return x, y, draw(st.integers(1, 5), label="k"), side


@SETTINGS
@given(start=starts(), data=st.data())
def test_compiled_rules_equal_the_protocol(start: tuple[int, int, int, int],
                                           data: st.DataObject) -> None:
    board = Board(*start)
    board.check()
    while not board.state.is_terminal():
        legal = board.state.legal_actions()
        board.play(data.draw(st.sampled_from(legal)))
        board.check()
    played = [window_action(a, board.side) for a in board.state.history()]
    assert board.history[:len(played)].tolist() == played


@given(x=st.integers(0, 127), y=st.integers(0, 127))
def test_the_enumeration_is_the_reach(x: int, y: int) -> None:
    squares = options(x, y)
    assert len(squares) == len(set(squares)) == fast.ways_out(x, y)
    assert all(fast.reaches(x, y, sx, sy) for sx, sy in squares)
    assert fast.cannot_move(x, y, 0) == ((x, y) == (0, 0))
