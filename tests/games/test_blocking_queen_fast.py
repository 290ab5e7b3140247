"""The blocking queen game's compiled boards and players (games/blocking_queen/fast.py) against
the protocol: the same rules on random play, position for position, and the same plies as
the greedy and perfect agents."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from lifearena.agents import make
from lifearena.agents.blocking_queen import GreedyAgent
from lifearena.games.blocking_queen import (
    BLOCK_BASE,
    DONE,
    BlockingQueenState,
    fast,
    index_square,
    options,
    turns,
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
from lifearena.games.blocking_queen.palace import palace_numbers
from lifearena.life.kernels.splitmix import seeded_states

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
    assert len(squares) == len(set(squares)) == turns.ways_out(x, y)
    assert all(turns.reaches(x, y, sx, sy) for sx, sy in squares)
    assert turns.cannot_move(x, y, 0) == ((x, y) == (0, 0))


def test_the_compiled_kernels_were_built_from_these_turn_rules() -> None:
    # numba's cache of fast.py's kernels does not see turns.py: the pin must follow it
    assert fast.turns_digest() == fast.TURNS_DIGEST, (
        "turns.py changed: set TURNS_DIGEST in games/blocking_queen/fast.py to "
        f"{fast.turns_digest()!r} (that renews the compiled kernels' cache)")


def test_playing_the_game_loads_no_compiler() -> None:
    code = ("import sys\n"
            "from lifearena.games.blocking_queen import BlockingQueenState\n"
            "state = BlockingQueenState(3, 4, k=2)\n"
            "state.apply_action(state.legal_actions()[0])\n"
            "print('numba' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, check=True)
    assert done.stdout.strip() == "False"


class TieDraws:
    """A stand-in for the greedy agent's generator that favours the ``low``-th queen move it
    scores: it draws 0.0 there and 0.999 everywhere else."""

    def __init__(self, low: int) -> None:
        self.low, self.calls = low, 0

    def random(self) -> float:
        value = 0.0 if self.calls == self.low else 0.999
        self.calls += 1
        return value


def greedy_choices(state: BlockingQueenState, side: int) -> set[int]:
    """Every ply the protocol greedy agent may pick here (as window actions): its pick under
    each tie-break that favours one of the legal moves (it draws once per legal queen move,
    in the order of the legal actions)."""
    player = state.current_player()
    agent = GreedyAgent()
    picks = set()
    for low in range(len(state.legal_actions())):
        agent.rng = TieDraws(low)  # type: ignore[assignment]
        picks.add(window_action(agent.act(state.view(player), player), side))
    return picks


@SETTINGS
@given(start=starts(), data=st.data(), seed=st.integers(0, 2**32))
def test_compiled_players_play_as_the_agents(start: tuple[int, int, int, int],
                                            data: st.DataObject, seed: int) -> None:
    board = Board(*start)
    side, k = board.side, board.k
    palaces = (palace_numbers(k, side, side) < k).ravel()
    perfect = make("perfect", game="blocking_queen")
    rng = seeded_states(seed, 1)
    while not board.state.is_terminal():
        state, player = board.state, board.state.current_player()
        expected = window_action(perfect.act(state.view(player), player), side)
        assert fast.perfect_ply(board.s, board.blocked, side, palaces) == expected
        assert fast.greedy_ply(board.s, board.blocked, side, k, rng, 0) in \
            greedy_choices(state, side)
        assert fast.choose(fast.PERFECT, board.s, board.blocked, side, k, palaces, rng, 0) \
            == expected
        board.play(data.draw(st.sampled_from(state.legal_actions())))


def test_compiled_greedy_draws_among_its_ties() -> None:
    board = Board(3, 5, k=1, side=8)  # (3, 1) and (1, 3) leave 5 ways out, the fewest
    ties = greedy_choices(board.state, 8)
    assert ties == {1 * 8 + 3, 3 * 8 + 1}
    rng = seeded_states(3, 1)
    picks = {int(fast.greedy_ply(board.s, board.blocked, 8, 1, rng, 0)) for _ in range(60)}
    assert picks == ties


def test_a_compiled_turn_is_the_agents_whole_turn() -> None:
    board = Board(9, 9, k=3, side=10)
    palaces = (palace_numbers(3, 10, 10) < 3).ravel()
    fast.play_turn(fast.PERFECT, board.s, board.blocked, board.blocks, board.history, 10, 3,
                   palaces, seeded_states(0, 1), 0)
    perfect = make("perfect", game="blocking_queen")
    plies = 0
    while board.state.current_player() == 0:
        action = perfect.act(board.state, 0)
        assert window_action(action, 10) == board.history[plies]
        board.state.apply_action(action)
        plies += 1
    board.check()
