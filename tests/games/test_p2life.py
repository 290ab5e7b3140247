"""The p2life game: conformance, rules on worked positions, agents."""

from __future__ import annotations

import numpy as np
import pytest

from lifearena.agents import make
from lifearena.core import Record, Termination, load_game, replay
from lifearena.errors import BadParameterError, IllegalMoveError, ParseError
from lifearena.games.p2life import Move, P2Life, new_game, symmetric_soup
from lifearena.life.step import step
from lifearena.testing import check_game


def test_conformance() -> None:
    check_game(lambda seed: new_game(size=6, density=0.4, seed=seed, max_generations=12),
               games=6)
    check_game(lambda seed: new_game(size=(5, 7), seed=seed, torus=False, moves=2,
                                     max_generations=5), games=4, seed=100)


def test_registered() -> None:
    assert load_game("p2life") is P2Life


def test_collision_removal_and_generation() -> None:
    state = P2Life.from_setup("....../.ww.../.w..../....../....bb/....bb 0:0", torus=False)
    # Both place on 3,3: it stays empty, and the white L still becomes a block by birth.
    state.apply_actions([state.string_to_action("+3,3"), state.string_to_action("+3,3")])
    assert state.board[2, 2] == 1 and state.populations() == (4, 4)
    assert state.last_moves == (Move.from_text("+3,3"), Move.from_text("+3,3"))
    assert state.generation == 1


def test_moves_per_generation() -> None:
    state = P2Life.from_setup("w..../...../...../...../....b 0:0", torus=False, moves=2)
    state.apply_actions([state.string_to_action("+2,1"), state.string_to_action("pass")])
    assert state.generation == 0 and state.moved == 1 and state.board[0, 1] == 1
    assert state.position() == "ww.../...../...../...../....b 0:1"
    state.apply_actions([state.string_to_action("+1,2"), state.string_to_action("+4,5")])
    # White L of 3 -> block; black pair dies: white wins.
    assert state.outcome().winner == 0 and state.outcome().termination == Termination.WIN


def test_generation_cap_decides_by_population() -> None:
    state = P2Life.from_setup("ww..../ww..../....../....../....b./...... 0:0", torus=False,
                              max_generations=1)
    state.apply_actions([0, 0])
    outcome = state.outcome()
    assert outcome.termination == Termination.WIN and outcome.winner == 0  # the lone b dies
    state = P2Life.from_setup("ww..../ww..../....../....../....bb/....bb 0:0", torus=False,
                              max_generations=1)
    state.apply_actions([0, 0])
    assert state.outcome().termination == Termination.LIMIT and state.outcome().winner is None


def test_coins_come_from_the_seed() -> None:
    # A cell with three white and three black neighbours: the coin decides its colour.
    setup = "www/.../bbb 0:0"
    colours = set()
    for seed in range(12):
        state = P2Life.from_setup(setup, seed=seed, max_generations=5)
        state.apply_actions([0, 0])
        expected = step(np.array([[1, 1, 1], [0, 0, 0], [2, 2, 2]], np.int8), "p2life",
                        torus=True, seed=seed, generation=0)
        assert np.array_equal(state.board, expected)
        colours.add(int(state.board[1, 1]))
    assert colours == {1, 2}


def test_illegal_moves_and_notation() -> None:
    state = P2Life.from_setup("wb./... 0:0")
    with pytest.raises(IllegalMoveError, match="occupied by b"):
        state.apply_actions([state.string_to_action("+2,1"), 0])
    with pytest.raises(IllegalMoveError, match="no w token"):
        state.apply_actions([state.string_to_action("-2,1"), 0])
    with pytest.raises(ParseError, match="off the 2x3 board"):
        state.string_to_action("+4,1")
    with pytest.raises(ParseError, match="bad move"):
        Move.from_text("3,3")
    with pytest.raises(ParseError, match="bad p2life position"):
        P2Life.from_setup("wbx/... 0:0")
    with pytest.raises(BadParameterError, match="moves"):
        new_game(moves=0)
    assert repr(state) == "P2Life.from_setup('wb./... 0:0', seed=0, torus=True, " \
                          "max_generations=64, moves=1)"
    assert eval(repr(state)).position() == state.position()


def test_symmetric_start_is_fair() -> None:
    soup = symmetric_soup(9, 9, 0.5, seed=4)
    white, black = np.count_nonzero(soup == 1), np.count_nonzero(soup == 2)
    assert white == black > 0 and soup[4, 4] == 0


def _play(white: str, black: str, seed: int) -> int | None:
    state = new_game(size=10, seed=seed, max_generations=30)
    agents = [make(white, game="p2life", seed=seed), make(black, game="p2life", seed=seed + 1)]
    while not state.is_terminal():
        state.apply_actions([agents[p].act(state.view(p), p) for p in (0, 1)])
    again = replay(Record.load(state.record().to_text()))
    assert again.position() == state.position()
    return state.outcome().winner


def test_greedy_beats_random() -> None:
    results = [_play("greedy", "random", s) for s in range(4)]
    results += [1 - w if w is not None else None for w in
                (_play("random", "greedy", s) for s in range(4, 8))]
    assert results.count(0) >= 6, results
