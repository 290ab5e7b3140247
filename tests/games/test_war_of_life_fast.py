"""The bitboard fast path equals the protocol path: the crank, the moves, the endings, whole
games."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from lifearena import agents
from lifearena.agents.war_of_life_fast import fast_play
from lifearena.core import Outcome, Termination
from lifearena.errors import ParseError
from lifearena.games import war_of_life as wol
from lifearena.games.war_of_life import fast
from lifearena.life.step import step

STRATEGIES = fast.STRATEGIES

boards = st.lists(st.integers(0, 2), min_size=64, max_size=64).map(
    lambda cells: np.array(cells, dtype=np.int8).reshape(8, 8))
sparse_boards = st.lists(st.sampled_from([0, 0, 0, 0, 1, 2]), min_size=64, max_size=64).map(
    lambda cells: np.array(cells, dtype=np.int8).reshape(8, 8))


@settings(max_examples=300, deadline=None)
@given(st.one_of(boards, sparse_boards))
def test_bitboard_crank_equals_the_engine_immigration_rule(board):
    blue, red = fast.board_to_bits(board)
    assert np.array_equal(fast.bits_to_board(blue, red), board)
    after = fast.bits_to_board(*fast.crank_bits(blue, red))
    assert np.array_equal(after, wol.crank(board))
    assert np.array_equal(after, step(board, "immigration", kernel="reference"))
    # the rule is colour-symmetric
    new_red, new_blue = fast.crank_bits(red, blue)
    assert np.array_equal(fast.bits_to_board(new_blue, new_red), wol.crank(board))


@settings(max_examples=150, deadline=None)
@given(st.one_of(boards, sparse_boards), st.integers(0, 1))
def test_move_generation_equals_the_state(board, player):
    state = wol.WarOfLifeState(board, to_move=player)
    legal = state._legal_actions(player)
    own, other = fast.board_to_bits(board)[:: 1 if player == 0 else -1]
    assert fast.count_moves(own, other) == len(legal)
    assert [fast.nth_move(own, other, i) for i in range(len(legal))] == legal
    assert fast.nth_move(own, other, len(legal)) == -1
    cells, directions = np.nonzero(wol.legal_mask(board[None], player)[0])
    assert (cells * 8 + directions).tolist() == legal


@settings(max_examples=150, deadline=None)
@given(st.one_of(boards, sparse_boards), st.integers(0, 1))
def test_has_move_equals_the_move_count(board, player):
    own, other = fast.board_to_bits(board)[:: 1 if player == 0 else -1]
    assert fast.has_move(own, other) == (fast.count_moves(own, other) > 0)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 64), st.integers(0, 64), st.integers(0, 250), st.booleans())
def test_ending_rules_in_their_order(blues, reds, played, has_move):
    code = fast.ending(blues, reds, played, has_move)
    expected = (fast.DRAW if blues == reds == 0 else fast.EXHAUST if played >= 250
                else fast.RED_WINS if blues == 0 else fast.BLUE_WINS if reds == 0
                else fast.GOES_ON if has_move else fast.STALEMATE)
    assert code == expected
    assert fast.endings(np.array([blues]), np.array([reds]), played,
                        np.array([has_move])).tolist() == [code]


POOL = np.random.default_rng(0).random(250)
"""Enough draws for the random strategies of any game."""


def ending_of_compiled_game(state):
    """The outcome the compiled path gives ``state`` before any move (None: it plays on)."""
    blue, red = fast.board_to_bits(state.board)
    moves = np.empty(250, dtype=np.int16)
    n, code, _, _ = fast.play(blue, red, state.to_move, state.moves_played, fast.RANDOM,
                              fast.RANDOM, POOL, 0, POOL, 0, moves)
    return fast.OUTCOMES[code] if n == 0 else None


@settings(max_examples=200, deadline=None)
@given(st.one_of(boards, sparse_boards), st.integers(0, 1), st.sampled_from([0, 120, 248, 249]))
@example(wol.prolog_to_board("[[[1,1]],[[1,2],[2,1],[2,2]]]"), 0, 0)  # blue stalemated
@example(wol.prolog_to_board("[[[1,2],[2,1],[2,2],[8,8]],[[1,1]]]"), 0, 0)  # (8,8) moved: red stuck
@example(wol.prolog_to_board("[[[1,1],[1,2]],[[8,8]]]"), 0, 249)  # every child exhausts
def test_protocol_children_and_compiled_path_agree_on_endings(board, to_move, played):
    # the position itself: the protocol's outcome is the compiled path's (no move played)
    state = wol.WarOfLifeState(board, to_move, played)
    assert ending_of_compiled_game(state) == state.outcome()
    if state.is_terminal():
        return
    # every child: the batched children end where the protocol's and the compiled path's
    # games end, with the protocol's returns for either player
    children = [state.evaluate_children(player) for player in (0, 1)]
    for i, action in enumerate(state.legal_actions()):
        child = state.clone()
        child.apply_action(action)
        assert ending_of_compiled_game(child) == child.outcome()
        for player, (actions, values, terminal) in enumerate(children):
            assert actions[i] == action and terminal[i] == child.is_terminal()
            if terminal[i]:
                assert values[i] == child.returns()[player]


def protocol_games(setups, names, seeds):
    players = [agents.make(n, game="war_of_life", seed=s) for n, s in zip(names, seeds,
                                                                         strict=True)]
    finals = wol.play_all([wol.WarOfLifeState.from_setup(s) for s in setups], players)
    return [(f.history_strings(), f.outcome()) for f in finals]


def fast_games(setups, names, seeds):
    return [(moves, outcome) for moves, outcome, _ in fast_play(setups, names, seeds)]


@pytest.mark.parametrize("first", STRATEGIES)
def test_fast_path_plays_the_protocol_games_for_every_pairing(first):
    setups = [wol.new_game(seed=s).setup() for s in range(100, 112)]
    for second in STRATEGIES:
        seeds = (len(first), 7 * len(second))
        assert fast_games(setups, (first, second), seeds) == \
            protocol_games(setups, (first, second), seeds), (first, second)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(STRATEGIES[:4]), st.sampled_from(STRATEGIES), sparse_boards,
       st.integers(0, 1), st.sampled_from([0, 200, 246, 249]), st.integers(0, 2**32))
def test_fast_path_from_any_position(first, second, board, to_move, played, seed):
    setup = wol.WarOfLifeState(board, to_move, played).setup()
    names = (first, second) if seed % 2 else (second, first)
    assert fast_games([setup], names, (seed, seed + 1)) == \
        protocol_games([setup], names, (seed, seed + 1))


def test_random_agents_continue_their_stream_across_games():
    setups = [wol.new_game(seed=s).setup() for s in range(30)]
    together = fast_games(setups, ("random", "random"), (3, 4))
    assert together == protocol_games(setups, ("random", "random"), (3, 4))
    # the same games one by one with fresh agents differ after the first
    alone = [fast_games([s], ("random", "random"), (3, 4))[0] for s in setups]
    assert alone[0] == together[0] and alone != together


def test_fast_play_contract():
    setups = [wol.new_game(seed=s).setup() for s in range(5)]
    results = fast_play(setups, ("land_grab", "minimax"), (0, 0))
    assert len(results) == 5
    for moves, outcome, seconds in results:
        assert isinstance(outcome, Outcome) and seconds >= 0
        assert all(isinstance(m, str) and m.startswith("[") for m in moves)
    assert fast_play(setups, ("land_grab", "mcts"), (0, 0)) is None
    assert fast_play(setups, ("Land-Grab", "MINIMAX"), (0, 0))[0][0] == results[0][0]
    assert fast_play([], ("random", "random"), (0, 0)) == []
    with pytest.raises(ParseError, match="off the board"):
        fast_play(["[[[9,9]],[]]"], ("random", "random"), (0, 0))


def test_parse_setup_matches_the_state():
    for setup in ("[[[1,1],[2,2]],[[8,8]]]", "[[[1,1]],[[8,8]]] r 249", "[[],[]] b 3",
                  " [[[3,4],[5,7]],[[8,8]]] "):
        state = wol.WarOfLifeState.from_setup(setup)
        blue, red, to_move, played = fast.parse_setup(setup)
        assert np.array_equal(fast.bits_to_board(blue, red), state.board)
        assert (to_move, played) == (state.to_move, state.moves_played)
    for bad in ("[[[1,1]],[[1,1]]]", "[[[1,1],[1,1]],[]]", "[[[1,1]],[]] x", "[[[1,0]],[]]"):
        assert fast.parse_setup(bad) is None  # left to the state class, which explains
        with pytest.raises(ParseError):
            wol.WarOfLifeState.from_setup(bad)


# A regression transcript (made by this implementation, checked only against itself and the
# protocol path: the coursework's own transcripts are not available to us).
SEED_7 = ("[[[1,4],[2,6],[3,2],[3,3],[5,1],[5,2],[5,6],[6,5],[7,2],[7,3],[7,8],[8,8]],"
          "[[2,4],[2,5],[4,1],[4,2],[4,4],[4,6],[4,8],[5,5],[7,4],[7,6],[8,4],[8,6]]]")
MINIMAX_BLOODLUST_7 = ["[7,3,6,4]", "[2,5,3,4]", "[5,2,5,3]", "[6,4,5,5]", "[7,1,6,2]",
                       "[3,7,2,6]", "[6,2,5,3]", "[4,7,3,6]", "[6,3,5,4]", "[4,7,3,6]",
                       "[7,3,7,2]", "[5,7,6,6]", "[6,2,5,3]", "[4,7,4,6]", "[2,3,2,2]",
                       "[6,7,6,8]"]


def test_playthrough_from_seed_7():
    assert wol.new_game(seed=7).setup() == SEED_7
    expected = (MINIMAX_BLOODLUST_7, Outcome(Termination.WIN, 0, "b"))
    assert fast_games([SEED_7], ("minimax", "bloodlust"), (0, 0)) == [expected]
    assert protocol_games([SEED_7], ("minimax", "bloodlust"), (0, 0)) == [expected]
