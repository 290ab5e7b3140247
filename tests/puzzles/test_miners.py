"""The War of Life and Losat miners: their fast searchers agree with the plain exhaustive
search on random small positions, a forced win planted in a random position is mined, and
the generator keeps each position once, stops at its target and repeats itself."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st
from independent_search import war_of_life_winning_moves, winning_first_moves

from lifearena.core import Record
from lifearena.errors import BadParameterError, ParseError
from lifearena.games.losat import LosatState
from lifearena.games.losat.notation import format_position
from lifearena.games.war_of_life import WarOfLifeState
from lifearena.puzzles import losat, war_of_life
from lifearena.puzzles.generate import generate, miner, position_key, rate
from lifearena.puzzles.search import ExhaustiveSearch

PLAIN = ExhaustiveSearch()
SLOW = settings(max_examples=40, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


def _war_of_life(blue: list[int], red: list[int], to_move: int, played: int
                 ) -> WarOfLifeState:
    board = np.zeros(64, dtype=np.int8)
    board[blue] = 1
    board[[c for c in red if c not in blue]] = 2
    return WarOfLifeState(board.reshape(8, 8), to_move, played)


cells = st.lists(st.integers(0, 63), min_size=1, max_size=4, unique=True)


@SLOW
@given(cells, cells, st.integers(0, 1), st.sampled_from([0, 17, 248, 249]))
def test_war_of_life_searcher_agrees_with_the_plain_search(blue, red, to_move, played):
    state = _war_of_life(blue, red, to_move, played)
    assume(not state.is_terminal())
    for depth in (1, 2):
        assert (war_of_life.SEARCHER.winning_moves(state, to_move, depth)
                == PLAIN.winning_moves(state, to_move, depth))
    replies = state.clone()
    replies.apply_action(state.legal_actions()[0])
    if not replies.is_terminal() and PLAIN.wins(replies, to_move, 1):
        # the longest defence delays the win as long as the plain search's does
        ours = war_of_life.SEARCHER.defence(replies, to_move, 1)
        assert ours == PLAIN.defence(replies, to_move, 1)


def _losat(board: np.ndarray, side: int, captures: tuple[int, int]) -> LosatState | None:
    try:
        return LosatState.from_setup(format_position(board, side, captures, 0), gap=0)
    except (ParseError, BadParameterError):
        return None  # a position already decided


boards = st.lists(st.sampled_from([0, 0, 0, 1, 2]), min_size=30, max_size=30).map(
    lambda values: np.array(values, dtype=np.int8).reshape(6, 5))


@SLOW
@given(boards, st.integers(0, 1), st.tuples(st.integers(0, 4), st.integers(0, 4)))
def test_losat_searcher_agrees_with_the_plain_search(board, side, captures):
    state = _losat(board, side, captures)
    assume(state is not None and not state.is_terminal())
    assert state is not None
    for depth in (1, 2):
        assert (losat.SEARCHER.winning_moves(state, side, depth)
                == PLAIN.winning_moves(state, side, depth))


def _mined_at_start(module, state, players=("a", "b")):  # type: ignore[no-untyped-def]
    record = state.record(list(players))
    return [p for p in module.mine(record) if p.ply == 0]


@st.composite
def crowded(draw: st.DrawFn) -> tuple[list[int], list[int]]:
    """3 to 8 blue pieces and 1 to 3 red ones in one 4x4 box of the board: the red pieces'
    fate hangs on blue's move (a third of such positions have a wipe-out with one answer)."""
    top, left = draw(st.integers(0, 4)), draw(st.integers(0, 4))
    box = draw(st.permutations(range(16)))
    blue, red = draw(st.integers(3, 8)), draw(st.integers(1, 3))
    cells = [(top + i // 4) * 8 + left + i % 4 for i in box[:blue + red]]
    return cells[:blue], cells[blue:]


@SLOW
@given(crowded())
def test_a_planted_wipe_out_is_mined(pieces):
    # the opponent reduced to a few pieces crowded by blue's: blue's move and the crank may
    # leave it none
    blue, red = pieces
    state = _war_of_life(blue, red, 0, 10)
    assume(not state.is_terminal())
    in_one = war_of_life_winning_moves(state.board, 0, 10, 1)
    in_two = [] if in_one else war_of_life_winning_moves(state.board, 0, 10, 2)
    assume(in_one or in_two)
    mined = _mined_at_start(war_of_life, state)
    wins = in_one or in_two
    event("one winning move" if len(wins) == 1 else "several")
    if len(wins) == 1:
        (puzzle,) = mined
        assert puzzle.solutions == tuple(wins) and puzzle.depth == (1 if in_one else 2)
        assert puzzle.theme == f"wipe-out-in-{puzzle.depth}"
    else:
        assert mined == []  # several winning moves: no puzzle


def test_a_planted_wipe_out_with_one_answer_is_mined() -> None:
    state = WarOfLifeState.from_setup("[[[3,1],[3,8],[5,4]],[[1,4],[4,3]]]")
    (puzzle,) = _mined_at_start(war_of_life, state)
    assert puzzle.solutions == ("[5,4,5,3]",) and puzzle.line == ("[5,4,5,3]",)


@SLOW
@given(st.integers(0, 2), st.lists(st.sampled_from([0, 0, 0, 1, 2]), min_size=20,
                                   max_size=20),
       st.tuples(st.integers(0, 3), st.integers(0, 3)))
def test_a_planted_goal_line_win_is_mined(column, rest, captures):
    # three black stones under black's goal line (row index 0): a black stone added on the
    # goal line above the middle one has exactly three black neighbours and wins
    board = np.zeros((8, 5), dtype=np.int8)
    board[1, column:column + 3] = 1
    board[3:7] = np.array(rest, dtype=np.int8).reshape(4, 5)
    try:
        state = LosatState.from_setup(format_position(board, 0, captures, 0), length=8,
                                      width=5, gap=2)
    except (ParseError, BadParameterError):
        assume(False)
        return
    assume(not state.is_terminal())
    planted = state.action_to_string(
        state.string_to_action(f"+b{'ABCDE'[column + 1]}8", 0), 0)
    wins = winning_first_moves(state, 0, 1)
    assert planted in wins
    mined = _mined_at_start(losat, state)
    event("one winning move" if len(wins) == 1 else "several")
    if len(wins) == 1:
        (puzzle,) = mined
        assert puzzle.solutions == (planted,) and puzzle.theme == "goal-line-in-1"
    else:
        assert mined == []


def test_generate_keeps_each_position_once_stops_at_the_target_and_repeats() -> None:
    games = list(war_of_life.agent_games(40, 3))
    first = generate("war_of_life", games, target=1000)
    assert first == generate("war_of_life", games, target=1000)
    assert len(first) > 5
    doubled = generate("war_of_life", games + games, target=1000)
    assert doubled == first
    keys = [position_key(p.position()) for p in first]
    assert len(set(keys)) == len(keys)
    assert generate("war_of_life", games, target=5) == first[:5]
    seen = []
    generate("war_of_life", games, target=1000, progress=lambda p: seen.append(p.games))
    assert seen == list(range(1, len(games) + 1))


def test_agent_games_repeat_from_their_seed() -> None:
    assert list(war_of_life.agent_games(6, 9)) == list(war_of_life.agent_games(6, 9))
    assert list(war_of_life.agent_games(6, 9)) != list(war_of_life.agent_games(6, 10))
    one = list(losat.agent_games(1, 4))
    assert one == list(losat.agent_games(1, 4)) and one[0].game == "losat"


def test_generate_refuses_what_it_cannot_mine() -> None:
    with pytest.raises(BadParameterError, match="no puzzle miner for game 'chess'"):
        miner("chess")
    record = Record("losat", {}, "x", ["a", "b"], [])
    with pytest.raises(BadParameterError, match="a 'losat' game given"):
        generate("war_of_life", [record], target=3)


def test_rating_grows_with_depth_moves_and_decoys() -> None:
    assert rate(1, 8, 0) < rate(1, 32, 0) < rate(1, 32, 4) < rate(2, 32, 4)
    assert rate(1, 1, 0) == 800.0 and rate(3, 10**9, 100) == 2800.0
    with pytest.raises(BadParameterError, match="expected depth >= 1"):
        rate(0, 5, 0)
