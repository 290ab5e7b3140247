"""The p2life game: conformance, rules on worked positions, presentation, agents."""

from __future__ import annotations

import numpy as np
import pytest

from lifearena.agents import make
from lifearena.core import (
    SIMULTANEOUS,
    InteractionKind,
    Record,
    Termination,
    load_game,
    presentation_of,
    replay,
)
from lifearena.errors import BadParameterError, IllegalMoveError, ParseError
from lifearena.games.p2life import (
    Move,
    P2Life,
    P2LifePresentation,
    P2LifeState,
    new_game,
    symmetric_soup,
)
from lifearena.life.step import step
from lifearena.testing import check_game


def test_conformance() -> None:
    check_game(lambda seed: new_game(size=6, density=0.4, seed=seed, max_generations=12),
               games=6)
    check_game(lambda seed: new_game(size=(5, 7), seed=seed, torus=False, moves=2,
                                     max_generations=5), games=4, seed=100)


def test_registered() -> None:
    assert load_game("p2life") is P2LifeState is P2Life


def test_collision_removal_and_generation() -> None:
    state = P2Life.from_setup("....../.ww.../.w..../....../....bb/....bb 0:0", torus=False)
    # Both place on 3,3: it stays empty, and the white L still becomes a block by birth.
    state.apply_actions([state.string_to_action("+3,3"), state.string_to_action("+3,3")])
    assert state.board[2, 2] == 1 and state.populations() == (4, 4)
    assert state.last_moves == (Move.parse("+3,3"), Move.from_text("+3,3"))
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
        Move.parse("3,3")
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


def test_the_presentation_is_the_games() -> None:
    state = P2LifeState.from_setup("wb./... 0:0")
    shown = presentation_of(state)
    assert isinstance(shown, P2LifePresentation)
    assert str(state) == shown.text(state) == "   1 2 3\n1  w b .\n2  . . ."
    for name in ("display", "action_cells", "explain_illegal", "_why_illegal", "__str__"):
        assert name not in vars(P2LifeState), name


@pytest.mark.parametrize("setup", ["wb./... 0:0", "ww.b/.bw./..b. 3:0", "w.b/b.w 1:1"])
def test_interaction_and_choices(setup: str) -> None:
    state = P2LifeState.from_setup(setup, moves=2)
    shown = presentation_of(state)
    assert state.current_player() == SIMULTANEOUS
    for player in (0, 1):
        asked = shown.interaction(state, player)
        assert (asked.kind, asked.count, asked.can_pass) == (InteractionKind.CELL_OR_PASS, 1,
                                                             True)
        assert asked.prompt == "place a token, remove one of yours, or pass"
        choices = shown.choices(state, player)
        assert [c.action for c in choices] == state.legal_actions(player)
        clicked = {}
        for choice in choices:
            assert state.string_to_action(choice.text, player) == choice.action
            assert list(choice.cells) == shown.action_cells(state, choice.action)
            if choice.label == "pass":
                assert choice.text == "pass" and choice.cells == ()
                continue
            (row, col), = choice.cells
            # a click on a cell picks the one move there: place on '.', remove one's own
            assert choice.text[1:] == f"{col + 1},{row + 1}"
            value = int(state.board[row, col])
            assert (choice.label, choice.text[0]) == (
                ("place", "+") if value == 0 else ("remove", "-"))
            assert value in (0, player + 1)
            assert (row, col) not in clicked
            clicked[(row, col)] = choice
        assert len(clicked) == np.count_nonzero(state.board == 0) + np.count_nonzero(
            state.board == player + 1)
        assert {c.label for c in choices} <= {"pass", "place", "remove"}


def test_nothing_to_do_once_the_game_is_over() -> None:
    state = P2LifeState.from_setup("w../..b 0:0")
    state.apply_actions([0, 0])  # lone tokens die: both sides are gone
    shown = presentation_of(state)
    assert state.is_terminal()
    for player in (0, 1):
        assert shown.interaction(state, player).kind is InteractionKind.WAIT
        assert shown.choices(state, player) == []
    assert shown.explain_illegal(state, 0, 0) == "the game is over; no move can be played"


def test_illegal_moves_are_explained_for_each_player() -> None:
    state = P2LifeState.from_setup("wb./... 0:0")
    shown = presentation_of(state)
    place_on_b, remove_w = state.string_to_action("+2,1"), state.string_to_action("-1,1")
    assert shown.explain_illegal(state, place_on_b, 0) == (
        "cell 2,1 is occupied by b; place on '.'")
    assert shown.explain_illegal(state, remove_w, 1) == (
        "cell 1,1 holds no b token; remove only your own")
    assert shown.explain_illegal(state, 99, 0) == "action 99 out of range; expected 0..12"
    with pytest.raises(IllegalMoveError, match="^cell 1,1 holds no b token"):
        state.read_move("-1,1", 1)
    assert state.read_move("-1,1", 0) == remove_w


def test_display_marks_the_last_moves_and_the_board_before_the_generation() -> None:
    state = P2LifeState.from_setup("....../.ww.../.w..../....../....bb/....bb 0:0",
                                   torus=False)
    shown = presentation_of(state)
    assert shown.display(state)["before"] is None
    state.apply_actions([state.string_to_action("+3,3"), state.string_to_action("-6,6")])
    data = shown.display(state)
    assert data["last_moves"] == [[[2, 2]], [[5, 5]]]
    assert data["before"][2][2] == 1 and data["before"][5][5] == 0
    assert data["counts"] == [4, 4] and data["status"] == "generation 2 of 64"


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
