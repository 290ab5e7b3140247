"""Life for Two: rules, collisions, endings, notation, bad input, conformance and the
presentation (what the board asks, the choices a person picks)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lifearena.core import (
    SIMULTANEOUS,
    Interaction,
    InteractionKind,
    Record,
    Termination,
    load_game,
    presentation_of,
    replay,
)
from lifearena.errors import BadParameterError, IllegalMoveError, ParseError
from lifearena.games.life_for_two import (
    CELLS,
    NUM_ACTIONS,
    TRIPLES,
    LifeForTwo,
    LifeForTwoPresentation,
    LifeForTwoState,
    Move,
    format_board,
    new_game,
)
from lifearena.games.life_for_two.batch import step_batch
from lifearena.life.step import step
from lifearena.testing import check_game


def _play(state: LifeForTwo, first: str, second: str) -> None:
    state.apply_actions([state.string_to_action(first, 0), state.string_to_action(second, 1)])


def test_worked_example_of_the_instructions() -> None:
    # * at row 2 column 3; # at row 3 column 4 and row 4 column 3 -> a # born at row 3 col 3.
    state = LifeForTwo.from_setup("...../..*../...#./..#../..... 2")
    _play(state, "1,1", "1,5")  # two isolated pieces that die and bear nothing
    board = state.board
    assert board[2, 2] == 2, "a # is born at row 3, column 3"
    assert board[2, 3] == 2, "the # at row 3, column 4 survives (2 neighbours)"
    assert int(np.count_nonzero(board)) == 2
    assert state.outcome().winner == 1 and state.outcome().termination == Termination.WIN


def test_first_turn_three_pieces_each_then_one_generation() -> None:
    state = new_game()
    assert state.current_player() == SIMULTANEOUS and state.first_turn
    assert len(state.legal_actions(0)) == len(TRIPLES) == 2300
    _play(state, "1,1 2,1 1,2", "3,4 4,4 5,4")
    assert state.placed.tolist()[0][:2] == [1, 1] and state.placed[3, 2:].tolist() == [2, 2, 2]
    expected = np.array([[1, 1, 0, 0, 0], [1, 1, 0, 0, 0], [0, 0, 0, 2, 0], [0, 0, 0, 2, 0],
                         [0, 0, 0, 2, 0]])
    assert state.board.tolist() == expected.tolist()
    assert not state.first_turn and state.legal_actions(1) == np.flatnonzero(
        expected.reshape(-1) == 0).tolist()
    assert state.history_strings() == ["1,1 2,1 1,2 | 3,4 4,4 5,4"]


def test_collision_in_setup_leaves_the_cell_empty() -> None:
    state = new_game()
    _play(state, "2,2 3,2 2,3", "2,2 4,4 5,5")
    assert state.last_collisions == (6,)  # 2,2
    placed = state.placed
    assert placed[1, 1] == 0 and placed[1, 2] == 1 and placed[2, 1] == 1
    assert placed[3, 3] == 2 and placed[4, 4] == 2
    assert int(np.count_nonzero(placed)) == 4
    assert state.board.tolist() == step(placed, "immigration").tolist()


def test_collision_in_a_later_turn_places_neither_piece() -> None:
    state = LifeForTwo.from_setup("**.../**.../...#./...#./...#. 2")
    before = state.board.copy()
    _play(state, "3,2", "3,2")
    assert state.last_collisions == (7,)
    assert state.placed.tolist() == before.tolist()
    assert state.board.tolist() == step(before, "immigration").tolist()
    assert state.history_strings() == ["3,2 | 3,2"]


def test_draw_when_both_die_in_the_same_generation() -> None:
    state = new_game()
    _play(state, "1,1 3,1 5,1", "1,5 3,5 5,5")
    outcome = state.outcome()
    assert state.is_terminal() and outcome.is_draw and outcome.termination == Termination.DRAW
    assert state.returns() == (0.0, 0.0)
    assert state.legal_actions(0) == []


def test_player_one_wins_when_player_two_dies() -> None:
    state = new_game()
    _play(state, "1,1 2,1 1,2", "5,5 3,5 1,5")
    assert state.outcome().winner == 0 and state.returns() == (1.0, -1.0)
    assert str(state.outcome()) == "* wins (win)"


@pytest.mark.parametrize("text", ["6,1", "0,3", "3", "3;2", "a,b", "", "3,2,1"])
def test_bad_cell_text_is_a_parse_error(text: str) -> None:
    state = LifeForTwo.from_setup("**.../**.../...#./...#./...#. 2")
    before = (repr(state), state.history())
    with pytest.raises(ParseError) as error:
        state.read_move(text, 0)
    assert "expected" in str(error.value)
    assert (repr(state), state.history()) == before


def test_occupied_cell_and_wrong_count_rejected_with_a_reason() -> None:
    state = LifeForTwo.from_setup("**.../**.../...#./...#./...#. 2")
    before = (repr(state), state.history())
    with pytest.raises(IllegalMoveError, match=r"cell 4,3 is occupied by #"):
        state.read_move("4,3", 0)
    with pytest.raises(IllegalMoveError, match=r"places 1 cell; got 3"):
        state.read_move("3,1 3,2 3,3", 1)
    with pytest.raises(IllegalMoveError, match=r"player 2 \(#\): cell 1,1 is occupied by \*"):
        state.apply_actions([Move.from_text("3,1").action, Move.from_text("1,1").action])
    with pytest.raises(ParseError, match="distinct"):
        Move.from_text("1,1 1,1 2,2")
    assert (repr(state), state.history()) == before


def test_move_limit_draw_and_population() -> None:
    start = "**.../**.../....#/....#/....# 2"  # a block; a blinker at the edge shrinks
    for result, termination, winner in (("draw", Termination.EXHAUST, None),
                                        ("population", Termination.LIMIT, 0)):
        state = LifeForTwo.from_setup(start, max_turns=2, limit_result=result)
        _play(state, "1,5", "5,1")  # isolated, they die; the blocks stay
        assert state.outcome() is not None
        assert state.outcome().termination == termination and state.outcome().winner == winner
    unlimited = LifeForTwo.from_setup(start)
    _play(unlimited, "1,5", "5,1")
    assert unlimited.outcome() is None
    with pytest.raises(BadParameterError):
        new_game(max_turns=0)
    with pytest.raises(BadParameterError):
        new_game(limit_result="coin")


def test_position_notation_and_repr_round_trip() -> None:
    state = new_game(max_turns=50)
    _play(state, "1,1 2,1 1,2", "3,4 4,4 5,4")
    again = eval(repr(state), {"LifeForTwo": LifeForTwo})
    assert again.position() == state.position() == "**.../**.../...#./...#./...#. 2"
    assert again.params == state.params
    with pytest.raises(ParseError):
        LifeForTwo.from_setup("**.../**... 1")
    with pytest.raises(ParseError):
        LifeForTwo.from_setup("**x../**.../...../...../..... 1")


def test_record_replays_both_choices_of_each_turn() -> None:
    state = new_game(max_turns=20)
    _play(state, "1,1 2,1 1,2", "3,4 4,4 5,4")
    _play(state, "3,2", "3,2")
    _play(state, "5,1", "1,5")
    record = state.record(players=("alice", "bob"))
    assert record.moves == ["1,1 2,1 1,2 | 3,4 4,4 5,4", "3,2 | 3,2", "5,1 | 1,5"]
    again = replay(Record.from_text(record.to_text()))
    assert again.position() == state.position() and again.history() == state.history()
    assert load_game("life-for-two") is LifeForTwo


def test_actions_dense_and_notation_round_trip() -> None:
    for action in [0, 24, CELLS, CELLS + 1, NUM_ACTIONS - 1, 1000]:
        move = Move.from_action(action)
        assert move.action == action and Move.from_text(str(move)).action == action
    with pytest.raises(ParseError):
        Move.from_action(NUM_ACTIONS)


def test_first_turn_legal_actions_avoid_occupied_cells() -> None:
    state = LifeForTwo.from_setup("*..../...../...../...../....# 1")
    legal = state.legal_actions(0)
    assert len(legal) == 23 * 22 * 21 // 6
    assert all(0 not in Move.from_action(a).cells and 24 not in Move.from_action(a).cells
               for a in legal[:50] + legal[-50:])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 2), min_size=25, max_size=25))
def test_batched_step_equals_the_engine(cells: list[int]) -> None:
    board = np.array(cells, dtype=np.int8).reshape(5, 5)
    expected = step(board, "immigration", kernel="reference")
    assert step_batch(board.reshape(1, 25))[0].tolist() == expected.reshape(-1).tolist()


def test_conformance() -> None:
    check_game(lambda seed: new_game(max_turns=30), games=6, check_every=3)


def test_conformance_from_a_midgame_position() -> None:
    check_game(lambda seed: LifeForTwo.from_setup("**.../**.../...#./...#./...#. 2",
                                                  max_turns=20, limit_result="population"),
               games=4, seed=11)


# -- presentation: what the board asks and what a person picks ---------------------------------


def test_state_keeps_no_presentation_of_its_own() -> None:
    for name in ("display", "action_cells", "explain_illegal", "_why_illegal", "move_prompt",
                 "legal_moves_text", "__str__"):
        assert name not in vars(LifeForTwoState), name
    assert LifeForTwo is LifeForTwoState
    assert isinstance(new_game().game.presentation, LifeForTwoPresentation)


def test_text_is_the_numbered_board() -> None:
    state = LifeForTwo.from_setup("**.../**.../...#./...#./...#. 2")
    assert str(state) == presentation_of(state).text(state) == format_board(state.board)
    assert str(state).splitlines()[3] == "3  . . . # ."


@pytest.mark.parametrize(("setup", "count", "prompt", "asked"), [
    ("...../...../...../...../..... 1", 3, "choose 3 empty cells",
     "your 3 cells as x,y x,y x,y"),
    ("**.../**.../...#./...#./...#. 2", 1, "choose an empty cell", "your cell as x,y"),
])
def test_interaction_asks_for_the_cells_of_the_turn(setup: str, count: int, prompt: str,
                                                    asked: str) -> None:
    state = LifeForTwo.from_setup(setup)
    shown = presentation_of(state)
    for player in (0, 1):
        interaction = shown.interaction(state, player)
        assert interaction == Interaction(InteractionKind.CELLS, prompt, count=count)
        assert not interaction.can_pass
        assert shown.move_prompt(state, player) == asked
    assert shown.display(state, 0)["choose"] == count


def test_interaction_waits_when_the_game_is_over() -> None:
    state = new_game()
    _play(state, "1,1 3,1 5,1", "1,5 3,5 5,5")
    assert state.is_terminal()
    shown = presentation_of(state)
    assert [shown.interaction(state, p).kind for p in (0, 1)] == [InteractionKind.WAIT] * 2
    assert shown.choices(state, 0) == []
    assert shown.explain_illegal(state, 0, 0) == "the game is over; no move can be played"


@pytest.mark.parametrize("setup", ["**.../**.../...#./...#./...#. 2",
                                   "*.#*#/#*#*./.*.#*/*#*.#/#.*#* 1"])
def test_choices_parse_back_and_click_their_cells(setup: str) -> None:
    state = LifeForTwo.from_setup(setup)
    shown = presentation_of(state)
    board = state.board
    for player in (0, 1):
        choices = shown.choices(state, player)
        assert [c.action for c in choices] == state.legal_actions(player)
        for choice in choices:
            assert state.read_move(choice.text, player) == choice.action
            assert choice.label == "place"
            cells = Move.parse(choice.text).cells
            assert choice.cells == tuple(divmod(c, 5) for c in cells)
            assert len(choice.cells) == state.cells_to_choose
            assert all(board[row, col] == 0 for row, col in choice.cells)


def test_first_turn_offers_every_triple_of_empty_cells() -> None:
    state = new_game()
    choices = presentation_of(state).choices(state, 1)
    assert len(choices) == len(TRIPLES)
    first, last = choices[0], choices[-1]
    assert (first.text, first.cells) == ("1,1 2,1 3,1", ((0, 0), (0, 1), (0, 2)))
    assert (last.text, last.cells) == ("3,5 4,5 5,5", ((4, 2), (4, 3), (4, 4)))


def test_display_shows_the_last_turn_revealed_and_the_same_to_both() -> None:
    state = new_game()
    _play(state, "2,2 3,2 2,3", "2,2 4,4 5,5")
    shown = presentation_of(state)
    data = shown.display(state, None)
    assert data["collisions"] == [[1, 1]]
    assert data["last_moves"] == [[[1, 1], [1, 2], [2, 1]], [[1, 1], [3, 3], [4, 4]]]
    assert data["before"] == state.placed.tolist()
    assert data["status"] == "turn 2: each player chooses 1 cell" and data["choose"] == 1
    assert shown.display(state, 0) == shown.display(state, 1) == data
    assert shown.display(state.view(0), 0) == data


def test_explain_illegal_gives_the_precise_reason() -> None:
    state = LifeForTwo.from_setup("**.../**.../...#./...#./...#. 2")
    shown = presentation_of(state)
    assert shown.explain_illegal(state, Move.parse("4,3").action, 0) == (
        "cell 4,3 is occupied by #; choose an empty cell")
    assert shown.explain_illegal(state, Move.parse("3,1 3,2 3,3").action, 1) == (
        "turn 2 places 1 cell; got 3 (3,1 3,2 3,3)")
    assert "out of range" in shown.explain_illegal(state, NUM_ACTIONS, 0)
    assert shown.explain_illegal(state, Move.parse("3,1").action, 0) == "'3,1' is legal"
    with pytest.raises(IllegalMoveError, match=r"cell 1,1 is occupied by \*"):
        state.read_move("1,1", 1)
