"""Life for Two's last turns solved exactly, checked by an independent brute force.

The test plays every pair of placements on the rules, builds the first side's results, and
solves the column player's linear programme itself (scipy, written here, not the agent's
solver): the analysis's value must be that game's value, and its mixed strategies must each
guarantee it against every reply.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy.optimize import linprog

from lifearena.analysis import judge
from lifearena.analysis.life_for_two import is_last_turn
from lifearena.games.life_for_two import LifeForTwo

LAST_TURNS = [
    # the turn limit: whatever both play, the game ends on the population count
    ("**.../**.../...../...##/...## 3", {"max_turns": 3, "limit_result": "population"}),
    ("*.*../.*.../...../..#../.#.#. 5", {"max_turns": 5, "limit_result": "population"}),
    ("**.../*..../...../...../....# 2", {"max_turns": 2, "limit_result": "draw"}),
]


def brute_force(state: LifeForTwo) -> tuple[list[int], list[int], np.ndarray]:
    rows, cols = state.legal_actions(0), state.legal_actions(1)
    results = np.empty((len(rows), len(cols)))
    for i, a in enumerate(rows):
        for j, b in enumerate(cols):
            child = state.clone()
            child.apply_actions([a, b])
            assert child.is_terminal()
            results[i, j] = child.returns()[0]
    return rows, cols, results


def column_value(results: np.ndarray) -> float:
    """min over the second side's mixed strategies y of max over rows of (A y)."""
    rows, cols = results.shape
    c = np.zeros(cols + 1)
    c[-1] = 1.0  # minimise w with A y <= w
    bound = np.hstack([results, -np.ones((rows, 1))])
    equal = np.hstack([np.ones((1, cols)), np.zeros((1, 1))])
    solved = linprog(c, A_ub=bound, b_ub=np.zeros(rows), A_eq=equal, b_eq=[1.0],
                     bounds=[(0, None)] * cols + [(None, None)], method="highs")
    assert solved.success
    return float(solved.x[-1])


@pytest.mark.parametrize(("setup", "params"), LAST_TURNS)
def test_a_last_turn_is_solved_exactly(setup: str, params: dict[str, object]) -> None:
    state = LifeForTwo.from_setup(setup, **params)
    rows, cols, results = brute_force(state)
    assert is_last_turn(state, (rows, cols))
    verdict = judge(state)
    assert verdict.exact
    assert verdict.value == pytest.approx(column_value(results), abs=1e-6)
    first = dict(verdict.sides[0].strategy or [])
    second = dict(verdict.sides[1].strategy or [])
    x = np.array([first.get(state.action_to_string(a, 0), 0.0) for a in rows])
    y = np.array([second.get(state.action_to_string(b, 1), 0.0) for b in cols])
    assert x.sum() == pytest.approx(1.0, abs=1e-3) and y.sum() == pytest.approx(1.0, abs=1e-3)
    assert (x @ results).min() >= verdict.value - 1e-3  # x holds the value against any reply
    assert (results @ y).max() <= verdict.value + 1e-3  # y holds every row to it


def test_a_played_choice_loses_what_it_gives_up_against_the_best_reply() -> None:
    state = LifeForTwo.from_setup(*LAST_TURNS[0][:1], **LAST_TURNS[0][1])  # type: ignore[arg-type]
    rows, cols, results = brute_force(state)
    verdict = judge(state)
    y = dict(verdict.sides[1].strategy or [])
    column = np.array([y.get(state.action_to_string(b, 1), 0.0) for b in cols])
    worth = results @ column
    worst = int(np.argmin(worth))
    played = judge(state, [rows[worst], cols[0]]).sides[0]
    assert played.loss == pytest.approx(max(0.0, verdict.value - worth[worst]), abs=1e-3)


def test_an_ordinary_turn_gives_a_mixed_strategy_on_the_model() -> None:
    state = LifeForTwo.from_setup("...../.**../.*#../..##./..... 2")
    verdict = judge(state, [state.string_to_action("1,1"), state.string_to_action("5,5")])
    assert not verdict.exact
    for side in verdict.sides:
        assert side.strategy and sum(p for _, p in side.strategy) == pytest.approx(1.0)
        assert side.best == [side.strategy[0][0]]
        assert side.loss is not None and side.loss >= 0
