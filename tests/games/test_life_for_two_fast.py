"""Life for Two's compiled kernels (:mod:`lifearena.games.life_for_two.fast`) equal the
protocol state on random play: legality, the turn, the generation and the ending rules."""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from lifearena.games.life_for_two import NUM_ACTIONS, LifeForTwoState
from lifearena.games.life_for_two import fast
from lifearena.games.life_for_two.batch import step_batch

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
