"""The queen game's analysis against the game tree itself and the palace numbers.

A brute-force search over the protocol (memoised on the state's key) decides every position
of random games from small starts; the analysis must agree on who wins and, in a won
position, on exactly which moves keep the win. In the queen phase the winner is also read
straight off ``palace.py``'s numbers: a palace in reach.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import pytest

from lifearena.analysis import judge
from lifearena.analysis.queen import winning_moves
from lifearena.core import State
from lifearena.games.blocking_queen import SIDE, BlockingQueen, options
from lifearena.games.blocking_queen.palace import palace_numbers


def brute_force_wins(state: State) -> bool:
    """Whether the side acting in ``state`` (one that goes on) wins, by searching the
    whole game tree."""
    table: dict[object, bool] = {}

    def wins(node: State) -> bool:
        key = node.key()  # type: ignore[attr-defined]
        if key in table:
            return table[key]
        mover = node.current_player()
        result = False
        for action in node.legal_actions():
            child = node.clone()
            child.apply_action(action)
            if child.is_terminal():
                good = child.returns()[mover] > 0
            elif child.current_player() == mover:
                good = wins(child)
            else:
                good = not wins(child)
            if good:
                result = True
                break
        table[key] = result
        return result

    return wins(state)


@lru_cache(maxsize=8)
def palaces(k: int) -> np.ndarray:
    return palace_numbers(k, SIDE, SIDE) < k


def random_game(seed: int, k: int) -> list[State]:
    rng = np.random.default_rng(seed)
    state = BlockingQueen(int(rng.integers(1, 7)), int(rng.integers(1, 7)), k=k)
    seen = [state.clone()]
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply_action(legal[int(rng.integers(len(legal)))])
        if not state.is_terminal():
            seen.append(state.clone())
    return seen


@pytest.mark.parametrize("k", [1, 2, 3])
@pytest.mark.parametrize("seed", range(4))
def test_every_position_of_random_games_matches_the_game_tree(seed: int, k: int) -> None:
    for state in random_game(seed, k):
        verdict = judge(state)
        mover = state.current_player()
        solved = brute_force_wins(state)
        assert verdict.exact
        assert (verdict.value_for(mover) > 0) == solved, state
        if not state.blocking:  # the palace numbers say it directly
            in_reach = [s for s in options(*state.queen) if s not in state.blocked]
            assert solved == any(palaces(k)[y, x] for x, y in in_reach)
        if solved:
            keeps = set()
            for action in state.legal_actions():
                child = state.clone()
                child.apply_action(action)
                if child.is_terminal():
                    good = child.returns()[mover] > 0
                elif child.current_player() == mover:
                    good = brute_force_wins(child)
                else:
                    good = not brute_force_wins(child)
                if good:
                    keeps.add(state.action_to_string(action, mover))
            assert set(verdict.sides[0].best) == keeps
            assert set(winning_moves(state)) == {state.string_to_action(t) for t in keeps}


def test_a_move_that_throws_the_win_away_is_a_blunder_and_a_winning_one_is_not() -> None:
    state = BlockingQueen.from_setup("2,2", k=1)
    bad = judge(state, [state.string_to_action("1,1")]).sides[0]
    good = judge(state, [state.string_to_action("0,0")]).sides[0]
    assert (bad.loss, bad.mark) == (2.0, "blunder")
    assert (good.loss, good.mark) == (0.0, None)
