"""Agents of the blocking queen game: the perfect player never loses a won game and punishes
every error; greedy and random are there to be beaten."""

from __future__ import annotations

import numpy as np
import pytest

from lifearena.agents import available_agents, make
from lifearena.agents.blocking_queen import is_palace, palace_table
from lifearena.arena.referee import play_game
from lifearena.games.blocking_queen import BlockingQueen
from lifearena.games.blocking_queen.palace import palace_numbers

OPPONENTS = ("random", "greedy", "perfect")


def play(state: BlockingQueen, agents, watch: int | None = None) -> tuple[int, bool]:
    """Play to the end, agents seeing only their view. Returns the winner and whether
    player ``watch`` ever left the other side a palace to move to (an error)."""
    erred = False
    while not state.is_terminal():
        player = state.current_player()
        if watch is not None and player == watch and not state.blocking:
            legal = [state.action_to_string(a) for a in state.legal_actions()]
            if any(is_palace(state.k, tuple(map(int, m.split(",")))) for m in legal):
                erred = True
        state.apply_action(agents[player].act(state.view(player), player))
    return state.outcome().winner, erred


def starts(k: int, palace: bool, count: int, seed: int, size: int = 60) -> list[tuple[int, int]]:
    n = palace_numbers(k, size, size)
    rng = np.random.default_rng(seed)
    ys, xs = np.nonzero((n < k) if palace else (n >= k))
    picks = rng.choice(len(xs), size=min(count, len(xs)), replace=False)
    return [(int(xs[i]), int(ys[i])) for i in picks if (xs[i], ys[i]) != (0, 0)]


def test_registered() -> None:
    names = available_agents("blocking_queen")
    assert {"perfect", "greedy", "random"} <= set(names)


@pytest.mark.parametrize("k", [1, 2, 3, 5, 10])
def test_perfect_never_loses_from_a_non_palace_start(k: int) -> None:
    perfect = make("perfect", game="blocking_queen")
    games = 0
    for index, (x, y) in enumerate(starts(k, palace=False, count=20, seed=k)):
        for opponent in OPPONENTS:
            other = make(opponent, game="blocking_queen", seed=index)
            winner, _ = play(BlockingQueen(x, y, k=k), [perfect, other])
            assert winner == 0, (k, x, y, opponent)
            games += 1
    assert games >= 50


@pytest.mark.parametrize("k", [1, 2, 3, 5, 10])
def test_perfect_wins_from_a_palace_start_whenever_the_opponent_errs(k: int) -> None:
    """The perfect player moves second from a palace. It wins exactly when the opponent
    at some point leaves it a palace to move to (a move to a non-palace, or too few blocks)."""
    perfect = make("perfect", game="blocking_queen")
    outcomes = {True: 0, False: 0}
    for index, (x, y) in enumerate(starts(k, palace=True, count=20, seed=100 + k)):
        for opponent in OPPONENTS:
            other = make(opponent, game="blocking_queen", seed=index)
            winner, erred = play(BlockingQueen(x, y, k=k), [other, perfect], watch=1)
            assert (winner == 1) == erred, (k, x, y, opponent)
            outcomes[erred] += 1
    assert outcomes[True] > 0
    # With k = 1 a palace start sees no palace, so every first move errs; with k > 1 a palace
    # start still sees palaces (nothing is blocked yet) and the opponent can play right.
    assert outcomes[False] > 0 if k > 1 else outcomes[False] == 0


def test_perfect_moves_to_palaces_and_blocks_them() -> None:
    state = BlockingQueen.from_setup("20,33", k=3)
    perfect = make("perfect", game="blocking_queen")
    state.apply_action(perfect.act(state, 0))
    assert is_palace(3, state.queen)
    while state.current_player() == 0:
        state.apply_action(perfect.act(state, 0))
    reachable = [m for m in state.queen_moves() if is_palace(3, m)]
    assert reachable == []


def test_perfect_agrees_with_the_palace_table_at_every_square() -> None:
    table = palace_table(2)
    assert table.shape == (128, 128) and not table.flags.writeable
    assert np.array_equal(table, palace_numbers(2, 128, 128) < 2)


def test_greedy_beats_random_more_often_than_not() -> None:
    wins = 0
    for seed in range(40):
        state = BlockingQueen(*starts(2, palace=False, count=40, seed=7)[seed], k=2)
        greedy = make("greedy", game="blocking_queen", seed=seed)
        rand = make("random", game="blocking_queen", seed=seed)
        seats = [greedy, rand] if seed % 2 else [rand, greedy]
        winner, _ = play(state, seats)
        wins += seats[winner] is greedy
    assert wins > 24


def test_through_the_referee() -> None:
    agents = [make("perfect", game="blocking_queen"), make("greedy", game="blocking_queen")]
    result = play_game("blocking_queen", agents, setup="20,33", params={"k": 3})
    assert result.outcome.winner == 0
    assert result.record.moves[0] == "20,9"
