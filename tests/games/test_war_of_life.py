"""War of Life rules, notation and positions on hand-worked examples, and the conformance check."""

from __future__ import annotations

import numpy as np
import pytest

from lifearena import agents
from lifearena.core import (
    TERMINAL,
    InteractionKind,
    Outcome,
    Record,
    Termination,
    load_game,
    presentation_of,
    replay,
)
from lifearena.errors import BadParameterError, IllegalMoveError, ParseError
from lifearena.games import war_of_life as wol
from lifearena.testing import check_game


def play(state: wol.WarOfLifeState, *moves: str) -> wol.WarOfLifeState:
    for move in moves:
        state.apply_move_text(move)
    return state


# -- the crank -------------------------------------------------------------------------------


def test_birth_takes_the_majority_colour_blue():
    # (5,5) has blue (4,4), (4,6) and red (6,5) around it: born blue; everything else dies.
    state = wol.from_prolog("[[[1,8],[4,4],[4,6]],[[6,5]]]")
    play(state, "[1,8,1,7]")
    assert state.to_prolog() == "[[[5,5]],[]]"
    assert state.last_crank.births == ((5, 5, "b"),)
    assert state.last_crank.deaths == ((1, 7, "b"), (4, 4, "b"), (4, 6, "b"), (6, 5, "r"))
    assert state.outcome() == Outcome(Termination.WIN, 0, "b")


def test_birth_takes_the_majority_colour_red():
    state = wol.from_prolog("[[[1,8],[6,5]],[[4,4],[4,6]]]")
    play(state, "1,8,1,7")
    assert state.to_prolog() == "[[],[[5,5]]]"
    assert state.outcome() == Outcome(Termination.WIN, 1, "r")
    assert str(state.outcome()) == "r wins (win)"


def test_survivors_keep_their_colour_and_crowding_kills():
    # A mixed-colour block is stable; the lone mover dies of loneliness.
    state = wol.from_prolog("[[[1,1],[2,2],[8,1]],[[1,2],[2,1]]]")
    play(state, "[8,1,8,2]")
    assert state.to_prolog() == "[[[1,1],[2,2]],[[1,2],[2,1]]]"
    assert state.last_crank.deaths == ((8, 2, "b"),)
    # A plus sign: the centre has 4 neighbours and dies of crowding, each arm has 3 and
    # survives in its colour, each diagonal gap sees 3 pieces and is born (b,b,b or b,b,r: blue).
    state = wol.from_prolog("[[[3,4],[4,3],[4,4],[5,4],[8,8]],[[4,5]]]")
    play(state, "[8,8,8,7]")
    assert state.to_prolog() == "[[[3,3],[3,4],[3,5],[4,3],[5,3],[5,4],[5,5]],[[4,5]]]"
    assert state.last_crank.deaths == ((4, 4, "b"), (8, 7, "b"))
    assert state.last_crank.births == ((3, 3, "b"), (3, 5, "b"), (5, 3, "b"), (5, 5, "b"))


def test_engine_crank_agrees_with_the_hand_worked_blinker():
    board = wol.prolog_to_board("[[[4,3],[4,4]],[[4,5]]]")
    after = wol.crank(board)
    # vertical blinker: (3,4) parents b,b,r -> b; (5,4) the same; the middle survives in blue
    assert wol.board_to_prolog(after) == "[[[3,4],[4,4],[5,4]],[]]"


# -- termination, in the order of the rules ----------------------------------------------------


def test_both_colours_dying_in_one_crank_is_a_draw():
    state = play(wol.from_prolog("[[[1,4],[2,3]],[[8,8]]]"), "[2,3,1,3]")
    assert state.to_prolog() == "[[],[]]"
    assert state.outcome() == Outcome(Termination.DRAW, None, None)
    assert state.is_terminal() and state.returns() == (0.0, 0.0)
    assert state.moves_played == 1


def test_the_250th_crank_wiping_out_a_side_is_still_an_exhausted_draw():
    state = wol.from_prolog("[[[1,8],[4,4],[4,6]],[[6,5]]]", moves_played=249)
    play(state, "[1,8,1,7]")
    assert state.to_prolog() == "[[[5,5]],[]]"  # red is gone...
    assert state.moves_played == 250
    assert state.outcome() == Outcome(Termination.EXHAUST, None, None)  # ...but it is exhaust
    # one move earlier the same crank is a win
    state = wol.from_prolog("[[[1,8],[4,4],[4,6]],[[6,5]]]", moves_played=248)
    assert play(state, "[1,8,1,7]").outcome() == Outcome(Termination.WIN, 0, "b")


def test_no_pieces_at_all_comes_before_exhaustion():
    state = wol.from_prolog("[[],[]]", moves_played=250)
    assert state.outcome().termination is Termination.DRAW


def test_a_side_without_pieces_loses_whoever_is_to_move():
    assert wol.from_prolog("[[],[[1,1]]]").outcome() == Outcome(Termination.WIN, 1, "r")
    assert wol.from_prolog("[[[1,1]],[]]", to_move="r").outcome() == Outcome(
        Termination.WIN, 0, "b")


def test_stalemate_when_the_player_to_move_cannot_move():
    # blue's only piece sits in the corner, its three neighbours taken by red
    state = wol.from_prolog("[[[1,1]],[[1,2],[2,1],[2,2]]]")
    assert state.outcome() == Outcome(Termination.STALEMATE, None, None)
    assert state.current_player() == TERMINAL and state.legal_actions() == []
    assert state.moves_played == 0
    with pytest.raises(IllegalMoveError, match="game is over"):
        state.apply_action(0)


def test_stalemate_reached_after_a_move():
    # red's corner piece is locked in a stable block of blue; blue's far piece moves and dies
    state = wol.from_prolog("[[[1,1],[7,7],[7,8],[8,7]],[[8,8]]]")
    play(state, "[1,1,1,2]")
    assert state.to_prolog() == "[[[7,7],[7,8],[8,7]],[[8,8]]]"
    assert state.outcome().termination is Termination.STALEMATE
    assert state.moves_played == 1


def test_exhaust_before_stalemate_and_the_move_limit():
    state = wol.from_prolog("[[[1,1]],[[1,2],[2,1],[2,2]]]", moves_played=250)
    assert state.outcome().termination is Termination.EXHAUST
    with pytest.raises(BadParameterError):
        wol.from_prolog("[[[1,1]],[[8,8]]]", moves_played=251)


def test_moves_alternate_and_are_counted():
    state = wol.new_game(seed=7)
    assert state.current_player() == 0 and state.moves_played == 0
    state.apply_action(state.legal_actions()[0])
    assert state.moves_played == 1
    if not state.is_terminal():
        assert state.current_player() == 1


def test_illegal_moves_are_refused_without_changing_the_state():
    state = wol.from_prolog("[[[1,1],[1,2]],[[8,8]]]")
    before = state.to_prolog()
    for text, match in (("[1,1,1,2]", "illegal move"),  # target occupied
                        ("[8,8,8,7]", "illegal move"),  # red's piece, blue to move
                        ("[3,3,3,4]", "illegal move")):  # no piece there
        with pytest.raises(IllegalMoveError, match=match):
            state.apply_move_text(text)
    assert state.to_prolog() == before and state.moves_played == 0


# -- notation -----------------------------------------------------------------------------------


def test_move_notations():
    state = wol.new_game(seed=1)
    action = wol.Move(7, 1, 7, 2).action
    for text in ("[7,1,7,2]", "7,1,7,2", " [7, 1, 7, 2] ", "7172", "71-72", "71 72"):
        assert state.string_to_action(text) == action
    assert state.action_to_string(action) == "[7,1,7,2]"
    assert repr(wol.Move.from_text("7172")) == "Move(7, 1, 7, 2)"


def test_every_action_round_trips_and_off_board_actions_have_no_notation():
    state = wol.new_game(seed=1)
    on_board = [a for a in range(wol.NUM_ACTIONS) if wol.TARGETS[a] >= 0]
    assert len(on_board) == 420  # 4 corners x 3 + 24 edges x 5 + 36 inner x 8
    for action in on_board:
        assert state.string_to_action(state.action_to_string(action)) == action
    with pytest.raises(ParseError, match="not a move on the board"):
        state.action_to_string(0)  # (1,1) up-left


@pytest.mark.parametrize("text", ["", "[1,1,2]", "[a,1,2,2]", "[0,1,1,1]", "[1,9,1,8]",
                                  "11-2", "[1,1,2,2,3]", "[10,1,9,1]"])
def test_bad_move_text_is_a_parse_error(text):
    with pytest.raises(ParseError, match="move"):
        wol.Move.from_text(text)


def test_a_move_that_is_not_one_step_is_refused():
    with pytest.raises(IllegalMoveError, match="neighbouring cell"):
        wol.Move.from_text("[1,1,3,3]")
    with pytest.raises(IllegalMoveError, match="neighbouring cell"):
        wol.Move.from_text("[4,4,4,4]")


# -- positions ----------------------------------------------------------------------------------


def test_prolog_form_round_trips_and_sorts():
    state = wol.from_prolog("[[[5,7],[3,4]],[[8,8]]].")
    assert state.to_prolog() == "[[[3,4],[5,7]],[[8,8]]]"
    assert state.pieces(0) == [(3, 4), (5, 7)] and state.pieces(1) == [(8, 8)]
    for seed in range(20):
        board = wol.random_board(seed)
        assert np.array_equal(wol.prolog_to_board(wol.board_to_prolog(board)), board)
    assert wol.from_prolog(" [ [ [1, 1] ] , [ ] ] ").to_prolog() == "[[[1,1]],[]]"


@pytest.mark.parametrize(("text", "reason"), [
    ("hello", "expected the Prolog form"),
    ("[[[1,1]]]", "not two lists"),
    ("[[[1,1]],[[1,1]]]", "listed twice"),
    ("[[[1,1],[1,1]],[]]", "listed twice"),
    ("[[[0,1]],[]]", "off the board"),
    ("[[[1,9]],[]]", "off the board"),
    ("[[[1,1,1]],[]]", "not a cell"),
    ("[[[1,1.5]],[]]", "not a cell"),
    ("[[[true,1]],[]]", "not a cell"),
    ("[[1,1],[]]", "not a cell"),
])
def test_bad_positions_are_parse_errors_naming_the_problem(text, reason):
    with pytest.raises(ParseError, match=reason) as error:
        wol.from_prolog(text)
    assert repr(text)[1:-1] in str(error.value) or text in str(error.value)


def test_setup_strings_carry_side_to_move_and_moves_played():
    state = wol.from_prolog("[[[1,1]],[[8,8]]]", to_move="r", moves_played=249)
    assert state.setup() == "[[[1,1]],[[8,8]]] r 249"
    again = wol.WarOfLifeState.from_setup(state.setup())
    assert again.current_player() == 1 and again.moves_played == 249
    assert wol.WarOfLifeState.from_setup("[[[1,1]],[[8,8]]] r").setup() == "[[[1,1]],[[8,8]]] r"
    assert wol.new_game(seed=3).setup() == wol.new_game(seed=3).to_prolog()
    for bad in ("[[[1,1]],[[8,8]]] x", "[[[1,1]],[[8,8]]] b 300", "nothing"):
        with pytest.raises(ParseError, match="setup"):
            wol.WarOfLifeState.from_setup(bad)
    with pytest.raises(BadParameterError, match="no parameters"):
        wol.WarOfLifeState.from_setup("[[],[]]", size=9)


def test_random_start_follows_the_stated_draw():
    for seed in (0, 7, 123):
        rng = np.random.default_rng(seed)
        blue = rng.choice(64, size=12, replace=False)
        red = rng.choice(np.setdiff1d(np.arange(64), blue), size=12, replace=False)
        board = wol.new_game(seed=seed).board.reshape(-1)
        assert set(np.flatnonzero(board == 1)) == set(blue.tolist())
        assert set(np.flatnonzero(board == 2)) == set(red.tolist())
    assert wol.new_game(seed=1).to_prolog() != wol.new_game(seed=2).to_prolog()
    with pytest.raises(BadParameterError, match="seed"):
        wol.new_game(seed=-1)


def test_boards_drawn_in_both_layouts():
    state = wol.from_prolog("[[[1,2],[3,4]],[[8,8]]]")
    shown = presentation_of(state)
    assert isinstance(shown, wol.WarOfLifePresentation)
    assert shown.board_text(state, "coursework").splitlines() == [
        "  12345678", " +--------+", "1| b      |", "2|        |", "3|   b    |",
        "4|        |", "5|        |", "6|        |", "7|        |", "8|       r|", " +--------+"]
    clear = str(state).splitlines()
    assert clear[0] == "    1 2 3 4 5 6 7 8"
    assert clear[2] == "1 | . b . . . . . . |"
    assert clear[-1] == "b 2, r 1, 0 moves played, b to move"
    with pytest.raises(BadParameterError):
        shown.board_text(state, "fancy")


def test_repr_pastes_back():
    state = wol.from_prolog("[[[1,1]],[[8,8]]]", to_move="r", moves_played=4)
    again = eval(repr(state), {"war_of_life": wol})
    assert again.setup() == state.setup()


def test_observation_planes():
    state = wol.from_prolog("[[[1,2]],[[8,8],[8,7]]]")
    obs0, obs1 = state.observation(0), state.observation(1)
    assert obs0.shape == (3, 8, 8) and obs0.dtype == np.int8
    assert obs0[0, 0, 1] == 1 and obs0[1].sum() == 2 and obs0[2].all()
    assert obs1[0].sum() == 2 and obs1[1, 0, 1] == 1 and not obs1[2].any()


# -- protocol -----------------------------------------------------------------------------------


def test_conformance():
    check_game(lambda seed: wol.new_game(seed=seed), games=6, check_every=3)
    check_game(lambda seed: wol.from_prolog("[[[1,1],[2,2],[3,3]],[[8,8],[7,7],[6,6]]]",
                                            moves_played=245), games=3)


def test_load_game_and_record_replay():
    assert load_game("war-of-life") is wol.WarOfLifeState
    state = wol.new_game(seed=4)
    wol.play_all([state], [agents.make("land_grab", game="war_of_life")] * 2)
    record = state.record(players=("land_grab", "land_grab"))
    again = replay(Record.from_text(record.to_text()))
    assert again.to_prolog() == state.to_prolog() and again.outcome() == state.outcome()
    assert record.moves[0].startswith("[")


def test_public_api_of_the_issue():
    state = wol.from_prolog("[[[1,4],[2,3]],[[8,8]]]")
    assert state.current_player() == 0 and state.moves_played == 0
    state = wol.new_game(seed=7)
    bot = agents.make("minimax", game="war_of_life", seed=1)
    action = bot.act(state, state.current_player())
    text = state.action_to_string(action)
    assert text.startswith("[") and wol.Move.from_text(text).action == action
    state.apply_action(action)
    assert isinstance(state.is_terminal(), bool)
    assert state.outcome() is None or state.outcome().termination in Termination
    assert wol.from_prolog(state.to_prolog()).to_prolog() == state.to_prolog()


# -- presentation -------------------------------------------------------------------------------


def test_interaction_asks_for_a_piece_then_its_target_of_the_player_to_move_only():
    state = wol.from_prolog("[[[1,1],[1,2]],[[8,8]]]")
    shown = presentation_of(state)
    asked = shown.interaction(state, 0)
    assert (asked.kind, asked.count, asked.can_pass) == (InteractionKind.PIECE_THEN_TARGET, 1,
                                                         False)
    assert asked.prompt == "move one of your pieces to an empty neighbouring cell"
    assert shown.interaction(state, 1).kind is InteractionKind.WAIT  # not red's turn
    over = wol.from_prolog("[[[1,1]],[[1,2],[2,1],[2,2]]]")  # stalemate: the game is over
    assert over.is_terminal()
    assert {shown.interaction(over, p).kind for p in (0, 1)} == {InteractionKind.WAIT}
    assert shown.choices(over, 0) == []


@pytest.mark.parametrize("setup", ["[[[1,1],[1,2]],[[8,8]]]", "[[[4,4]],[[1,1],[8,8]]] r",
                                   wol.new_game(seed=5).setup()])
def test_choices_are_the_legal_moves_as_a_click_picks_them(setup):
    state = wol.WarOfLifeState.from_setup(setup)
    shown = presentation_of(state)
    player = state.current_player()
    choices = shown.choices(state, player)
    assert [c.action for c in choices] == state.legal_actions()
    board = state.board
    for choice in choices:
        assert state.string_to_action(choice.text) == choice.action
        assert wol.Move.parse(choice.text).action == choice.action
        assert choice.label == "move"
        (r1, c1), (r2, c2) = choice.cells  # the piece, then the empty cell it goes to
        assert board[r1, c1] == player + 1 and board[r2, c2] == wol.EMPTY
        move = wol.Move.from_action(choice.action)
        assert (r1, c1, r2, c2) == (move.r1 - 1, move.c1 - 1, move.r2 - 1, move.c2 - 1)
    assert shown.choices(state, 1 - player) == []


def test_explain_illegal_names_the_reason():
    state = wol.from_prolog("[[[1,1],[1,2]],[[8,8]]]")
    shown = presentation_of(state)
    explain = shown.explain_illegal
    assert explain(state, wol.Move(1, 1, 1, 2).action) == (
        "[1,1,1,2]: the target 1,2 is occupied; move to an empty neighbouring cell")
    assert explain(state, wol.Move(8, 8, 8, 7).action) == (
        "[8,8,8,7]: 8,8 is a red piece; move one of your own pieces")
    assert explain(state, wol.Move(3, 3, 3, 4).action) == (
        "[3,3,3,4]: 3,3 is empty; move one of your own pieces")
    assert explain(state, 0) == "a piece on 1,1 cannot leave the board"
    assert explain(state, 9999) == "action 9999 is out of range 0..511"
    assert explain(state, wol.Move(8, 8, 8, 7).action, 1) == "it is not r's turn; b is to move"
    assert explain(state, wol.Move(1, 2, 1, 3).action) == "[1,2,1,3] is legal"
    over = wol.from_prolog("[[],[]]")
    assert explain(over, 0) == "the game is over; no move can be played"
    with pytest.raises(IllegalMoveError, match="target 1,2 is occupied"):
        state.read_move("[1,1,1,2]")


def test_display_shows_the_crank_and_the_cells_of_a_move():
    state = wol.from_prolog("[[[1,4],[2,3]],[[8,8]]]")
    shown = presentation_of(state)
    first = shown.display(state, None)
    assert first["before"] is None and first["last_move"] == [] and first["counts"] == [2, 1]
    assert first["status"] == "move 1 of 250"
    play(state, "2,3,1,3")
    data = shown.display(state, 0)
    assert data["counts"] == [0, 0] and data["status"] == "move 2 of 250"
    assert data["before"][0][2:4] == [1, 1] and data["before"][7][7] == 2
    assert data["deaths"] == [[0, 2], [0, 3], [7, 7]] and data["last_move"] == [[1, 2], [0, 2]]
    assert shown.action_cells(state, wol.Move(2, 3, 1, 3).action) == [(1, 2), (0, 2)]
    assert shown.action_cells(state, 0) == []  # off the board


def test_the_state_keeps_no_presentation_of_its_own():
    for name in ("display", "action_cells", "explain_illegal", "board_text", "status",
                 "move_prompt", "legal_moves_text", "__str__"):
        assert name not in vars(wol.WarOfLifeState), name
