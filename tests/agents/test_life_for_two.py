"""Life for Two agents: legality, determinism, the matrix-game solver, sensible choices."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lifearena import agents
from lifearena.agents.life_for_two import (
    GreedyAgent,
    NashAgent,
    _reply_values,
    scores,
    solve_matrix_game,
)
from lifearena.arena.referee import play_game
from lifearena.errors import BadParameterError
from lifearena.games.life_for_two import LifeForTwo, Move, new_game

PARAMS = {"max_turns": 30, "limit_result": "population"}


def test_registered_for_the_game() -> None:
    names = agents.available_agents("life_for_two")
    assert {"random", "greedy", "nash"} <= set(names)
    assert isinstance(agents.make("nash", game="life_for_two", seed=2), NashAgent)
    assert isinstance(agents.make("greedy", game="life_for_two", seed=2), GreedyAgent)


def test_agents_play_legal_moves_and_are_deterministic_given_seeds() -> None:
    for pair in (("nash", "greedy"), ("greedy", "random")):
        results = []
        for _ in range(2):
            bots = [agents.make(name, game="life_for_two", seed=7 + i)
                    for i, name in enumerate(pair)]
            results.append(play_game("life_for_two", bots, params=PARAMS, seed=0))
        assert results[0].moves == results[1].moves
        assert results[0].outcome.termination.value != "forfeit"


def test_first_turn_moves_are_triples_of_empty_cells() -> None:
    state = LifeForTwo.from_setup("*..../...../...../...../....# 1")
    for name in ("nash", "greedy"):
        action = agents.make(name, game="life_for_two", seed=1).act(state.view(0), 0)
        cells = Move.from_action(action).cells
        assert len(cells) == 3 and 0 not in cells and 24 not in cells


def test_greedy_takes_the_winning_cell() -> None:
    # * has a block, # a lone piece at 4,4. Against # playing 5,5 (both # pieces then die)
    # the greedy * must not spoil its block: its choice wins at once.
    state = LifeForTwo.from_setup("**.../**.../...../...#./..... 2")
    bot = GreedyAgent(seed=0)
    action = bot.act(state.view(0), 0)
    after = state.clone()
    after.apply_actions([action, Move.from_text("5,5").action])
    assert after.outcome() is not None and after.outcome().winner == 0


def test_nash_mixes_on_a_symmetric_position() -> None:
    bot = NashAgent(seed=0)
    bot.act(new_game().view(0), 0)
    _, strategy = bot.last_strategy
    assert abs(strategy.sum() - 1) < 1e-9 and (strategy >= 0).all()
    assert np.count_nonzero(strategy > 1e-6) >= 2, "a collision-prone first turn needs a mix"


def test_scores_signs() -> None:
    boards = np.zeros((3, 25), dtype=np.int8)
    boards[0, :3] = 1
    boards[1, :2] = 2
    boards[1, 5] = 1
    assert scores(boards, 0).tolist() == [100.0, -1.0, 0.0]


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 6), st.integers(1, 6), st.integers(0, 10_000))
def test_matrix_game_solution_is_an_equilibrium(rows: int, cols: int, seed: int) -> None:
    payoff = np.random.default_rng(seed).integers(-5, 6, (rows, cols)).astype(float)
    x, value = solve_matrix_game(payoff)
    y, column_value = solve_matrix_game(-payoff.T)
    assert abs(value + column_value) < 1e-6, "minimax theorem: both values agree"
    assert (x @ payoff >= value - 1e-6).all(), "x guarantees the value against any column"
    assert (payoff @ y <= value + 1e-6).all(), "y holds the row player to the value"


def test_reply_values_see_a_win_next_turn() -> None:
    # * has a block and # a lone piece that dies in the generation whatever # places
    # beside it out of reach of the block: the next-turn estimate is a wipe-out for *.
    board = np.array(LifeForTwo.from_setup("**.../**.../...../...../....# 2").board,
                     dtype=np.int8).reshape(1, -1)
    value = _reply_values(board, 0, 10, 1.0)
    assert value[0] > 0
    assert _reply_values(board, 1, 10, 1.0)[0] == -value[0]


def test_nash_rejects_negative_replies() -> None:
    with pytest.raises(BadParameterError):
        NashAgent(replies=-1)
