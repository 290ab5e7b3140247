"""Life for Two's compiled kernels (:mod:`lifearena.games.life_for_two.fast`) equal the
protocol path: legality, the turn, the generation and the ending rules equal the state's on
random play, and the compiled opponents pick what the protocol agents pick."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from life_for_two_streams import StreamGenerator  # tests/ is on sys.path (tests/conftest.py)
from lifearena.agents import make
from lifearena.agents.life_for_two import solve_matrix_game
from lifearena.games.life_for_two import NUM_ACTIONS, LifeForTwoState, Move, fast
from lifearena.games.life_for_two.batch import cell_masks, step_batch
from lifearena.life.kernels.splitmix import seeded_states

PARAMS = st.sampled_from([{}, {"max_turns": 3}, {"max_turns": 4, "limit_result": "population"},
                          {"max_turns": 2, "limit_result": "population"}])
boards = st.lists(st.sampled_from([0, 0, 0, 1, 2]), min_size=25, max_size=25).map(
    lambda cells: np.array(cells, dtype=np.int8).reshape(5, 5))


def bits(state: LifeForTwoState) -> tuple[np.uint64, np.uint64]:
    return fast.board_to_bits(state.board)


@settings(max_examples=100, deadline=None)
@given(boards)
def test_bits_round_trip_and_generation_equals_the_batch_step(board: np.ndarray) -> None:
    ones, twos = fast.board_to_bits(board)
    np.testing.assert_array_equal(fast.bits_to_board(ones, twos), board)
    after = fast.bits_to_board(*fast.generation(ones, twos))
    np.testing.assert_array_equal(after.reshape(-1), step_batch(board.reshape(1, -1))[0])


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), params=PARAMS)
def test_random_play_equals_the_protocol(seed: int, params: dict[str, Any]) -> None:
    """Whole games of random choices: the legal actions, each turn's masks and the ending
    code of every position equal the state's (its outcome comes from the same ending rule,
    so the outcome is checked against the masks' populations as well)."""
    rng = np.random.default_rng(seed)
    state = LifeForTwoState(**params)
    limit, population = params.get("max_turns") or 0, params.get("limit_result") == "population"
    while not state.is_terminal():
        ones, twos = bits(state)
        legal = state.legal_actions(0)
        assert fast.legal_actions(ones | twos, state.turn).tolist() == legal
        probe = rng.integers(-1, NUM_ACTIONS + 1, 40).tolist() + legal[:5]
        for action in probe:
            assert fast.is_legal(ones | twos, state.turn, action) == (action in legal)
        first, second = (int(a) for a in rng.choice(legal, 2))
        state.apply_actions([first, second])
        after = fast.play_turn(ones, twos, first, second)
        assert after == bits(state)
        code = fast.outcome_code(*after, state.turn, limit, population)
        winner = int(fast.OUTCOME_WINNERS[code])
        outcome = state.outcome()
        assert (winner >= 0) == (outcome is not None)
        if outcome is not None:
            assert winner == (2 if outcome.winner is None else outcome.winner)


# -- the compiled opponents against the protocol agents ------------------------------------------


def reached(seed: int, turns: int, params: dict[str, Any]) -> LifeForTwoState:
    """The position after up to ``turns`` turns of random play (the last one before the end
    when the game ends sooner)."""
    rng = np.random.default_rng(seed)
    state = LifeForTwoState(**params)
    for _ in range(turns):
        legal = state.legal_actions(0)
        after = state.clone()
        after.apply_actions([int(a) for a in rng.choice(legal, 2)])
        if after.is_terminal():
            break
        state = after
    return state


positions = st.builds(reached, st.integers(0, 2**32 - 1), st.integers(0, 12), PARAMS)


@settings(max_examples=30, deadline=None)
@given(state=positions, player=st.integers(0, 1), seed=st.integers(0, 2**32 - 1))
def test_compiled_greedy_equals_the_agent(state: LifeForTwoState, player: int,
                                          seed: int) -> None:
    """Move for move: the agent, drawing from the same stream as the compiled player (its
    sample of opponent triples, its tie-break), picks the same move."""
    stream = seeded_states(seed, 1)
    agent = make("greedy", game="life_for_two", seed=0)
    agent.rng = StreamGenerator(stream)
    expected = agent.act(state.view(player), player)
    ones, twos = bits(state)
    assert fast.greedy_choice(ones, twos, state.turn, player, stream.copy(), 0) == expected
    assert fast.opponent_choice(fast.GREEDY, ones, twos, state.turn, player, stream, 0) \
        == expected


@pytest.mark.parametrize("setup", [".*#*./#..../.#.../...../..... 5",
                                   "...../...../.##*./...../..... 2"])
def test_compiled_greedy_breaks_ties_as_the_agent(setup: str) -> None:
    """On positions with equally good moves, over several streams: the same move each time,
    and more than one of the tied moves played."""
    state = LifeForTwoState.from_setup(setup)
    ones, twos = bits(state)
    played = set()
    for seed in range(8):
        stream = seeded_states(seed, 1)
        agent = make("greedy", game="life_for_two", seed=0)
        agent.rng = StreamGenerator(stream)
        expected = agent.act(state.view(0), 0)
        assert fast.greedy_choice(ones, twos, state.turn, 0, stream, 0) == expected
        played.add(expected)
    assert len(played) > 1


def cell_masks_of(actions: np.ndarray) -> np.ndarray:
    return cell_masks([Move.from_action(int(a)).cells for a in actions])


def guarantee(strategy: np.ndarray, payoff: np.ndarray) -> float:
    """What a mixed strategy of the row player secures against every column."""
    return float((strategy @ payoff).min())


@settings(max_examples=8, deadline=None)
@given(state=positions, player=st.integers(0, 1), seed=st.integers(0, 2**32 - 1))
def test_compiled_nash_equals_the_agent(state: LifeForTwoState, player: int,
                                        seed: int) -> None:
    """The same candidates (the first turn's tie jitter drawn from the same stream), the
    same payoff matrix bit for bit, a strategy as good as the agent's (the same value,
    secured against every column), and where both strategies are the same (an optimum
    with several optimal strategies may give another), the same move."""
    stream = seeded_states(seed, 1)
    agent = make("nash", game="life_for_two", seed=0)
    rng = agent.rng = StreamGenerator(stream)
    expected = agent.act(state.view(player), player)
    assert agent.last_strategy is not None and rng.probabilities is not None
    ones, twos = bits(state)
    mine, theirs = fast.nash_candidates(ones, twos, state.turn, player, stream.copy(), 0,
                                        fast.NASH_CANDIDATES)
    assert mine.tolist() == agent.last_strategy[0]
    payoff = fast.nash_payoff(ones, twos, player, mine, theirs, fast.NASH_REPLIES,
                              fast.NASH_FOLLOW, fast.NASH_LOOKAHEAD, 1)
    np.testing.assert_array_equal(
        payoff, agent.payoff(state.view(player), player, cell_masks_of(mine),
                             cell_masks_of(theirs)))
    strategy, value = fast.solve_matrix_game(payoff)
    _, agents_value = solve_matrix_game(payoff)
    assert value == pytest.approx(agents_value, abs=1e-6)
    assert guarantee(strategy, payoff) >= agents_value - 1e-6
    assert strategy.min() >= 0 and strategy.sum() == pytest.approx(1.0)
    chosen = fast.nash_choice(ones, twos, state.turn, player, stream, 0)
    assert strategy[mine.tolist().index(chosen)] > 0
    if np.allclose(strategy, rng.probabilities, atol=1e-9):
        assert chosen == expected


@settings(max_examples=60, deadline=None)
@given(rows=st.integers(1, 8), cols=st.integers(1, 8), seed=st.integers(0, 2**32 - 1),
       levels=st.sampled_from([3, 1000]))
def test_compiled_matrix_game_has_the_linear_programs_value(rows: int, cols: int, seed: int,
                                                            levels: int) -> None:
    """The simplex method's strategy secures the game's value as scipy's solution of the same
    program finds it (few payoff levels: degenerate programs, where Bland's rule matters)."""
    payoff = np.random.default_rng(seed).integers(-levels, levels, (rows, cols)) / 4
    strategy, value = fast.solve_matrix_game(payoff)
    _, expected = solve_matrix_game(payoff)
    assert value == pytest.approx(expected, abs=1e-7)
    assert strategy.min() >= 0 and strategy.sum() == pytest.approx(1.0)
    assert guarantee(strategy, payoff) >= expected - 1e-7
