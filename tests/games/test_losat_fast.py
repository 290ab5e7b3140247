"""Losat's compiled rules (:mod:`lifearena.games.losat.fast`) against the protocol state,
and the compiled ``greedy`` against the protocol agent, on positions reached by random play.

A compiled position is played beside a protocol state from the start, move for move: at
every position both must offer the same legal moves, and after every move hold the same
board, neighbour counts, hash, captures and ending."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lifearena.agents import make
from lifearena.core import Termination
from lifearena.games import losat
from lifearena.games.losat import fast
from lifearena.games.losat.geometry import Geometry

SETTINGS = settings(max_examples=12, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
PARAMS: list[dict[str, Any]] = [
    {"width": 9, "length": 11, "max_moves": 40},
    {"width": 7, "length": 9, "max_moves": 30, "captures_to_win": 1, "first": "w",
     "own_colour_only": True},
    {"width": 7, "length": 9, "max_moves": 30, "neighbours": 4, "gap": 1,
     "capture_or_more": True},
    {"width": 7, "length": 8, "gap": 2, "max_moves": 40, "captures_to_win": 2},
]


class Compiled:
    """One compiled position (the arrays a vector environment keeps for a board), from the
    start of ``state``'s game."""

    def __init__(self, state: losat.LosatState) -> None:
        p = state.params
        self.geo = Geometry.get(p["width"], p["length"], p["neighbours"])
        n = self.geo.size
        self.board = state.board.reshape(-1).copy()
        self.counts = state.neighbour_counts().reshape(2, n).copy()
        self.hash = np.uint64(state.zobrist_hash())
        self.s = np.zeros(fast.COLUMNS, np.int64)
        self.s[fast.TO_MOVE] = state.current_player()
        self.s[fast.STAMP] = 1
        goals = state.goal_rows()
        rows = state.board
        for colour in (0, 1):
            self.s[fast.ON_GOAL + colour] = np.count_nonzero(rows[goals[colour]] == colour + 1)
        self.rules = np.array([p["width"], p["captures_to_win"], p["max_moves"],
                               p["own_colour_only"], p["capture_or_more"], *goals,
                               p["length"]], np.int64)
        slots = fast.superko_slots(p["max_moves"])
        self.keys = np.zeros(slots, np.uint64)
        self.stamps = np.zeros(slots, np.int64)
        fast.remember(self.keys, self.stamps, 1, self.hash)
        self.out = np.zeros(4 * n, np.int64)
        self.hashes = np.zeros(4 * n, np.uint64)

    def legal(self) -> list[int]:
        count = fast.legal_moves(self.board, self.counts, self.geo.zobrist_table, self.hash,
                                 self.keys, self.stamps, self.s, self.rules,
                                 int(self.s[fast.TO_MOVE]), self.out, self.hashes)
        self.s[fast.HAS_MOVE] = count > 0
        return self.out[:count].tolist() or [4 * self.geo.size]

    def is_legal(self, action: int) -> bool:
        return bool(fast.is_legal(self.board, self.counts, self.geo.zobrist_table, self.hash,
                                  self.keys, self.stamps, self.s, self.rules, action))

    def play(self, action: int) -> None:
        self.hash = np.uint64(fast.play(self.board, self.counts, self.geo.adjacent_table,
                              self.geo.degree, self.geo.zobrist_table, self.hash, self.s,
                              self.rules, self.keys, self.stamps, action))

    def greedy(self) -> list[int]:
        count = fast.greedy_choices(self.board, self.counts, self.geo.adjacent_table,
                                    self.geo.degree, self.geo.zobrist_table, self.hash,
                                    self.s, self.rules, self.keys, self.stamps, self.out,
                                    self.hashes)
        return self.out[:count].tolist()


def check_same(compiled: Compiled, state: losat.LosatState) -> None:
    """The compiled position holds what the protocol state holds."""
    s = compiled.s
    np.testing.assert_array_equal(compiled.board, state.board.reshape(-1))
    np.testing.assert_array_equal(compiled.counts, state.neighbour_counts().reshape(2, -1))
    assert int(compiled.hash) == state.zobrist_hash()
    assert (int(s[fast.CAPTURES]), int(s[fast.CAPTURES + 1])) == state.captures()
    assert s[fast.PLY] == state.plies()
    outcome, code = state.outcome(), int(s[fast.ENDING])
    if outcome is None:
        assert code == fast.GOES_ON and s[fast.TO_MOVE] == state.current_player()
        return
    assert fast.winner(code) == (-1 if outcome.winner is None else outcome.winner)
    termination = {fast.PASSES_DRAW: Termination.PASSES, fast.EXHAUST: Termination.EXHAUST}
    if code & fast.WON:
        expected = Termination.CAPTURES if code & fast.BY_CAPTURES else Termination.GOAL
    else:
        expected = termination[code]
    assert outcome.termination == expected


def play_along(data: st.DataObject, greedy: bool) -> None:
    params = data.draw(st.sampled_from(PARAMS), label="params")
    state = losat.new_game(**params)
    compiled = Compiled(state)
    agent = make("greedy", game="losat", seed=0)
    check_same(compiled, state)
    while not state.is_terminal():
        legal = state.legal_actions()
        assert compiled.legal() == legal
        if greedy:
            player = state.current_player()
            assert compiled.greedy() == agent.choices(state, player)  # type: ignore[attr-defined]
        illegal = data.draw(st.integers(-1, 4 * compiled.geo.size + 1), label="probe")
        assert compiled.is_legal(illegal) == (illegal in legal)
        action = legal[data.draw(st.integers(0, len(legal) - 1), label="move")]
        assert compiled.is_legal(action)
        state.apply_action(action)
        compiled.play(action)
        check_same(compiled, state)


@SETTINGS
@given(data=st.data())
def test_compiled_rules_equal_the_protocol(data: st.DataObject) -> None:
    play_along(data, greedy=False)


@SETTINGS
@given(data=st.data())
def test_compiled_greedy_chooses_among_the_agents_moves(data: st.DataObject) -> None:
    play_along(data, greedy=True)


def test_greedy_move_draws_only_among_its_choices() -> None:
    state = losat.new_game(width=7, length=9, max_moves=30, offset=0)
    compiled = Compiled(state)
    rng = np.random.SeedSequence(3).generate_state(1, np.uint64)
    choices = compiled.greedy()
    assert len(choices) > 1  # heptominoes face to face: mirror moves tie
    drawn = {fast.greedy_move(compiled.board, compiled.counts, compiled.geo.adjacent_table,
                              compiled.geo.degree, compiled.geo.zobrist_table, compiled.hash,
                              compiled.s, compiled.rules, compiled.keys, compiled.stamps, rng,
                              0, compiled.out, compiled.hashes) for _ in range(50)}
    assert drawn == set(choices)


@pytest.mark.parametrize(("on_goal", "captures", "mover", "termination", "won", "both"), [
    ((1, 0), (0, 0), 0, Termination.GOAL, 0, False),
    ((0, 0), (0, 5), 0, Termination.CAPTURES, 1, False),
    ((1, 0), (0, 5), 1, Termination.CAPTURES, 1, True),
    ((1, 1), (0, 0), 0, Termination.GOAL, 0, True),
])
def test_ending_codes_say_who_won_and_how(on_goal: tuple[int, int],
                                          captures: tuple[int, int], mover: int,
                                          termination: Termination, won: int,
                                          both: bool) -> None:
    code = fast.ending(*on_goal, *captures, 5, 0, 10, 400, mover)
    assert fast.winner(code) == won
    assert bool(code & fast.BOTH) == both
    by_captures = termination == Termination.CAPTURES
    assert bool(code & fast.BY_CAPTURES) == by_captures


def test_superko_as_the_protocol() -> None:
    """White adds C6, Black captures C4: White's capture back would recreate the position
    after C6 (not the start), which superko forbids, in both."""
    state = losat.from_setup("5/5/1bbb1/2b2/1www1/5/5 w", gap=0)
    compiled = Compiled(state)
    for move in ("+bC6", "xC4"):
        action = state.string_to_action(move)
        state.apply_action(action)
        compiled.play(action)
        check_same(compiled, state)
    back = state.string_to_action("xC4")
    fresh = losat.LosatState(state.board, 1, state.captures(), 0, **state.params)
    assert back in fresh.legal_actions()  # Life allows it
    assert compiled.legal() == state.legal_actions()
    assert back not in compiled.legal() and not compiled.is_legal(back)
