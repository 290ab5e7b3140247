"""War of Life's analysis: the compiled search equals a plain minimax, and a planted blunder
is marked as one."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lifearena.analysis import analyse, judge
from lifearena.analysis.war_of_life_search import move_value, reference_value, search
from lifearena.core import Record
from lifearena.games.war_of_life import from_prolog

PLANTED = "[[[1,4],[2,2],[4,7],[5,8]],[[4,6],[6,7],[8,4]]]"
"""Blue to move; [4,7,4,8] wipes red out at once, no other move does."""


def test_the_planted_position_has_one_winning_move() -> None:
    state = from_prolog(PLANTED)
    winners = []
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        if child.is_terminal() and child.returns()[0] > 0:
            winners.append(state.action_to_string(action))
    assert winners == ["[4,7,4,8]"]


def test_missing_the_win_at_once_is_a_blunder_and_taking_it_is_best() -> None:
    state = from_prolog(PLANTED)
    record = Record("war_of_life", {}, state.setup(), ["a", "b"], ["[2,2,3,3]"])
    ply = analyse(record).plies[0]
    side = ply.sides[0]
    assert ply.eval == 1.0 and ply.exact
    assert side.best == ["[4,7,4,8]"]
    assert side.mark == "blunder" and side.loss is not None and side.loss >= 0.3
    taken = judge(state, [state.string_to_action("[4,7,4,8]")]).sides[0]
    assert taken.loss == 0.0 and taken.mark is None


cells = st.lists(st.integers(0, 63), min_size=2, max_size=9, unique=True)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cells=cells, split=st.integers(1, 8), red_to_move=st.booleans(),
       depth=st.integers(1, 2),
       played=st.one_of(st.integers(0, 20), st.integers(246, 249)))
def test_the_compiled_search_equals_a_plain_minimax(cells: list[int], split: int,
                                                    red_to_move: bool, depth: int,
                                                    played: int) -> None:
    # near move 250 the horizon reaches the exhaustion draw
    split = min(split, len(cells) - 1)
    blue = [[c // 8 + 1, c % 8 + 1] for c in cells[:split]]
    red = [[c // 8 + 1, c % 8 + 1] for c in cells[split:]]
    text = str([blue, red]).replace(" ", "")
    state = from_prolog(text, to_move="r" if red_to_move else "b", moves_played=played)
    if state.is_terminal():
        return
    value, best = search(state, depth)
    assert value == pytest.approx(reference_value(state, depth))
    assert best in state.legal_actions()
    assert move_value(state, best, depth) == pytest.approx(value)
    values = [move_value(state, a, depth) for a in state.legal_actions()]
    assert max(values) == pytest.approx(value)


def test_a_deeper_search_on_a_real_position_equals_the_plain_minimax() -> None:
    state = from_prolog("[[[3,3],[3,4],[4,3],[6,6]],[[5,5],[5,6],[6,5]]]")
    assert search(state, 3)[0] == pytest.approx(reference_value(state, 3))
    assert np.isfinite(search(state, 5)[0])
