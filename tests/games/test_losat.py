"""Losat rules: the inventor's examples, captures, wins, superko, passes, notation (the Move
value), bad input, the presentation (interaction, choices, reasons), perft counts against a
from-scratch generator, incremental bookkeeping, conformance."""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lifearena.core import (
    InteractionKind,
    MoveChoice,
    Record,
    Termination,
    presentation_of,
    replay,
)
from lifearena.errors import BadParameterError, IllegalMoveError, ParseError
from lifearena.games import losat
from lifearena.games.losat import Move
from lifearena.games.losat.geometry import Geometry
from lifearena.life.step import step
from lifearena.testing import check_game

PI = np.array([[1, 1, 1], [1, 0, 1], [1, 0, 1]], dtype=np.int8)


def moves(state: losat.LosatState) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


def lone_pi(colour: int, **params) -> losat.LosatState:
    board = np.zeros((13, 11), dtype=np.int8)
    board[5:8, 4:7] = colour * PI
    return losat.LosatState(board, 0, width=11, length=13, **params)


# -- the start and the rule examples ---------------------------------------------------------


def test_default_start_coordinates():
    state = losat.new_game()
    black = sorted(losat.point_name(int(p), 19, 19) for p in np.flatnonzero(state._board == 1))
    white = sorted(losat.point_name(int(p), 19, 19) for p in np.flatnonzero(state._board == 2))
    assert black == sorted(["J6", "K6", "L6", "J7", "L7", "J8", "L8"])
    assert white == sorted(["K12", "M12", "K13", "M13", "K14", "L14", "M14"])
    assert state.goal_rows() == (19 - 14, 19 - 6)
    assert state.current_player() == 0
    assert losat.new_game(first="w").current_player() == 1
    assert state.setup() == ("19/19/19/19/19/9www7/9w1w7/9w1w7/19/19/19/8b1b8/8b1b8/8bbb8/"
                             "19/19/19/19/19 b 0-0 0")


@pytest.mark.parametrize("colour", [1, 2])
def test_isolated_pi_heptomino_is_one_life_generation(colour):
    state = lone_pi(colour)
    texts = moves(state)
    removals = [m for m in texts if m.startswith("-")]
    additions = [m for m in texts if m.startswith("+")]
    assert len(removals) == 3 and len(additions) == 3 and len(texts) == 6
    assert all(m.startswith("+" + "bw"[colour - 1]) for m in additions)
    board = state.board
    nxt = step((board == colour).astype(np.int8), "life")
    changed = {losat.point_name(int(r) * 11 + int(c), 11, 13)
               for r, c in np.argwhere(nxt != (board == colour))}
    assert {m.lstrip("+-bw") for m in texts} == changed


def test_start_has_twelve_moves_six_per_heptomino():
    assert moves(losat.new_game()) == ["-L14", "-K12", "-M12", "-J8", "-L8", "-K6", "+bH7",
                                       "+bM7", "+bK5", "+wL15", "+wJ13", "+wN13"]


def test_own_colour_only_restricts_to_the_movers_stones():
    state = losat.new_game(own_colour_only=True)
    assert moves(state) == ["-J8", "-L8", "-K6", "+bH7", "+bM7", "+bK5"]
    state.apply_move_text("-J8")
    assert moves(state) == ["-L14", "-K12", "-M12", "+wL15", "+wJ13", "+wN13"]


def test_four_neighbour_counting():
    # a plus shape: its centre D3 has 4 own neighbours either way, so it is removable
    state = losat.from_setup("7/7/7/3b3/2bbb2/3b3/7", gap=0, neighbours=4)
    assert "-D3" in moves(state)
    # C4 touches C3, D3 and D4 when diagonals count (3: addable) but only C3 and D4 without
    assert "+bC4" in moves(losat.from_setup("7/7/7/3b3/2bbb2/3b3/7", gap=0))
    assert "+bC4" not in moves(state)


# -- captures --------------------------------------------------------------------------------

CAPTURE_SETUP = "5/5/1bbb1/2b2/1www1/5/5 w"  # C4 (black) has 3 white neighbours


def test_capture_turns_the_stone_and_scores_for_the_other_colour():
    state = losat.from_setup(CAPTURE_SETUP, gap=0)
    assert "xC4" in moves(state)
    # White moves; the capture is White's
    state.apply_move_text("xC4")
    assert state.board[3, 2] == 2 and state.captures() == (0, 1)
    # Black moving may capture too: a capture always counts for the colour that gains
    again = losat.from_setup(CAPTURE_SETUP.replace(" w", " b"), gap=0)
    again.apply_move_text("xC4")
    assert again.captures() == (0, 1) and again.board[3, 2] == 2


def test_capture_needs_exactly_three_unless_or_more():
    setup = "5/5/1bbb1/1bwb1/5/5/5 b"  # the white C4 has 5 black neighbours
    assert "xC4" not in moves(losat.from_setup(setup, gap=0))
    assert "xC4" in moves(losat.from_setup(setup, gap=0, capture_or_more=True))


# -- wins ------------------------------------------------------------------------------------


def test_goal_line_win():
    # 7 rows, gap 0: Black's goal line is row 7 (index 0), White's is row 2 (index 5)
    state = losat.from_setup("5/1bbb1/5/5/5/5/5 b", gap=0)
    state.apply_move_text("+bC7")
    outcome = state.outcome()
    assert outcome.termination == Termination.GOAL and outcome.winner == 0
    assert state.is_terminal() and state.legal_actions() == []
    with pytest.raises(IllegalMoveError, match="game is over"):
        state.apply_move_text("pass")


def test_goal_line_win_for_white_made_by_black():
    state = losat.from_setup("5/5/5/5/1www1/5/5 b", gap=0)
    state.apply_move_text("+wC2")
    assert state.outcome().winner == 1 and state.outcome().termination == Termination.GOAL


def test_own_back_line_is_no_win():
    # a white stone on Black's goal line (White's own back line) is fine
    state = losat.from_setup("5/1www1/5/5/5/5/5 w", gap=0)
    state.apply_move_text("+wC7")
    assert state.outcome() is None


def test_five_captures_win():
    state = losat.from_setup(CAPTURE_SETUP + " 0-4 0", gap=0)
    state.apply_move_text("xC4")
    outcome = state.outcome()
    assert outcome.termination == Termination.CAPTURES and outcome.winner == 1
    assert losat.from_setup(CAPTURE_SETUP + " 0-3 0", gap=0, captures_to_win=4) \
        .apply_move_text("xC4") is not None


def test_the_movers_capture_can_win_for_the_opponent():
    state = losat.from_setup(CAPTURE_SETUP.replace(" w", " b") + " 0-4 0", gap=0)
    state.apply_move_text("xC4")
    assert state.outcome().winner == 1


def test_mover_wins_when_both_are_satisfied():
    # one move helps one colour only, so both conditions hold at once only after a position
    # that was already decided; from_setup refuses those, the constructor does not check:
    # a black stone already stands on Black's goal line (row 7), and White's fifth capture
    # satisfies White too, so the mover wins, whoever it is
    board, _, _, _ = losat.parse_position("b4/5/1bbb1/2b2/1www1/5/5")
    white_moves = losat.LosatState(board, 1, (0, 4), gap=0, width=5, length=7)
    white_moves.apply_move_text("xC4")
    assert white_moves.outcome().winner == 1
    assert "mover" in white_moves.outcome().detail
    black_moves = losat.LosatState(board, 0, (0, 4), gap=0, width=5, length=7)
    black_moves.apply_move_text("xC4")
    assert black_moves.outcome().winner == 0


@pytest.mark.parametrize(("setup", "params", "message"), [
    # the report: 9 captures when 5 win; black made one move and won
    ("19/19/19/19/19/9www7/9w1w7/9w1w7/19/19/19/8b1b8/8b1b8/8bbb8/19/19/19/19/19 b 9-0 0", {},
     "b already has 9 captures and captures_to_win=5"),
    (CAPTURE_SETUP + " 0-5 0", {"gap": 0}, "w already has 5 captures and captures_to_win=5"),
    (CAPTURE_SETUP + " 0-3 0", {"gap": 0, "captures_to_win": 3}, "w already has 3 captures"),
    ("b4/5/1bbb1/2b2/1www1/5/5 w", {"gap": 0}, "a b stone already stands on b's goal line "
     "(row 7"),
    ("5/5/5/5/1www1/w4/5 b", {"gap": 0}, "a w stone already stands on w's goal line (row 2"),
])
def test_a_decided_position_is_refused(setup, params, message):
    with pytest.raises(ParseError, match=re.escape(message)):
        losat.from_setup(setup, **params)


def test_a_position_one_short_of_winning_is_accepted():
    state = losat.from_setup(CAPTURE_SETUP + " 0-4 0", gap=0)
    assert state.outcome() is None and state.captures() == (0, 4)
    assert losat.from_setup("5/5/5/5/1www1/5/5 b", gap=0).outcome() is None


# -- superko ---------------------------------------------------------------------------------


def test_superko_forbids_recreating_an_arrangement():
    state = losat.from_setup(CAPTURE_SETUP, gap=0)
    state.apply_move_text("xC4")  # C4 turns white; it now has 3 black neighbours
    capture_back = state.string_to_action("xC4")
    fresh = losat.LosatState(state.board, 0, state.captures(), 0, **state.params)
    assert capture_back in fresh.legal_actions()  # Life allows it (no superko memory)...
    assert capture_back not in state.legal_actions()  # ...superko does not
    with pytest.raises(IllegalMoveError, match="xC4"):
        state.apply_action(capture_back)
    state.apply_move_text("-B5")  # still illegal after another move: whoever is to move
    assert "xC4" not in moves(state)


def test_superko_memory_survives_clone_and_replay():
    state = losat.from_setup(CAPTURE_SETUP, gap=0)
    state.apply_move_text("xC4")
    twin = state.clone()
    twin.apply_move_text("-B5")
    assert state.seen_hashes() < twin.seen_hashes()
    again = replay(state.record())
    assert again.seen_hashes() == state.seen_hashes()
    assert "xC4" not in moves(again)


# -- passes ----------------------------------------------------------------------------------


def test_pass_only_without_moves_and_double_pass_draw():
    block = "6/6/6/2bb2/2bb2/6/6 w"
    state = losat.from_setup(block, gap=0, width=6)
    assert moves(state) == ["pass"]
    state.apply_move_text("pass")
    assert state.outcome() is None and state.position().endswith(" b 0-0 1")
    state.apply_move_text("pass")
    assert state.outcome().termination == Termination.PASSES and state.outcome().winner is None
    busy = losat.new_game()
    with pytest.raises(IllegalMoveError):
        busy.apply_move_text("pass")


def test_pass_then_move_resets_the_pass_count():
    # own-colour-only: Black (a block) cannot move, White (a blinker) can
    state = losat.from_setup("7/bb5/bb5/7/3www1/7/7 b", gap=0, own_colour_only=True)
    assert moves(state) == ["pass"]
    state.apply_move_text("pass")
    assert "pass" not in moves(state)
    state.apply_move_text("-D3")
    assert state.position().endswith(" 0")
    assert state.outcome() is None


def test_move_cap_is_a_draw():
    state = losat.new_game(max_moves=2)
    state.apply_move_text("-L14")
    state.apply_move_text("-J8")
    assert state.outcome().termination == Termination.EXHAUST
    assert state.info.max_game_length == 2


# -- notation and bad input ------------------------------------------------------------------


def test_move_notation_round_trip_and_shorthand():
    state = losat.new_game()
    assert state.string_to_action("+K5") == state.string_to_action("+bK5")
    assert state.string_to_action("+K5", player=1) == state.string_to_action("+wk5")
    assert state.action_to_string(state.string_to_action(" XK6 ")) == "xK6"
    assert state.string_to_action("PASS") == 4 * 361
    assert losat.parse_point("T19", 19, 19) == 18


@pytest.mark.parametrize(("text", "message"), [
    ("", "bad Losat move"),
    ("D4", "bad Losat move"),
    ("+bD", "bad Losat move"),
    ("*D4", "bad Losat move"),
    ("+bI4", "skip the letter I"),
    ("-U4", "off the board"),
    ("xD20", "rows are 1..19"),
    ("-D0", "rows are 1..19"),
    ("-bD4", "only additions name a colour"),
])
def test_malformed_moves(text, message):
    with pytest.raises(ParseError, match=message):
        losat.new_game().string_to_action(text)


def test_illegal_moves_are_rejected_and_change_nothing():
    state = losat.new_game()
    before = state.position()
    for text in ("-A1", "+bA1", "xK6", "-K13", "+wK9"):
        with pytest.raises(IllegalMoveError, match="illegal move"):
            state.apply_move_text(text)
    assert state.position() == before and state.history() == []
    with pytest.raises(ParseError, match="out of range"):
        state.action_to_string(10_000)


@pytest.mark.parametrize(("setup", "message"), [
    ("", "empty"),
    ("5/5/5/5/5/5/4", "different widths"),
    ("5/5/5/5/5/5/5 x", "side to move"),
    ("5/5/5/5/5/5/5 b 1:2", "captures"),
    ("5/5/5/5/5/5/5 b 0-0 2", "passes"),
    ("5/5/5/5/5/5/4q", "bad character 'q'"),
    ("5/5/5/5/5/5/0b4", "empty run"),
    ("5/5/5/5/5/5/5 b 0-0 0 extra", "at most 4"),
    # a huge count used to be expanded into a list first (MemoryError)
    ("99999999999999/5/5/5/5/5/5", "more than 25 points wide"),
    ("/".join(["5"] * 100), "100 rows"),
])
def test_malformed_positions(setup, message):
    with pytest.raises(ParseError, match=message):
        losat.from_setup(setup, gap=0)


@pytest.mark.parametrize(("params", "message"), [
    ({"width": 4}, "width=4"),
    ({"width": 26}, "width=26"),
    ({"length": 8}, "length=8"),
    ({"first": "x"}, "first="),
    ({"neighbours": 6}, "neighbours=6"),
    ({"offset": 20}, "off the"),
    ({"colour": 1}, "unknown losat parameter"),
    ({"own_colour_only": "yes"}, "true or false"),
    ({"max_moves": 0}, "max_moves=0"),
    ({"gap": 1000}, r"gap=1000; expected an integer 0\.\.93"),
])
def test_bad_parameters(params, message):
    with pytest.raises(BadParameterError, match=message):
        losat.new_game(**params)


def test_setup_size_must_match_parameters():
    with pytest.raises(BadParameterError, match="wide"):
        losat.from_setup("5/5/5/5/5/5/5", gap=0, width=7)


def test_position_round_trip_and_repr():
    state = losat.new_game(offset=-2, first="w")
    for text in ("-J14", "+bJ7"):
        state.apply_move_text(text)
    again = losat.from_setup(state.position(), **state.params)
    assert again.position() == state.position()
    assert eval(repr(state), {"losat": losat}).position() == state.position()
    assert "offset=-2" in repr(state)


def test_board_text_marks_last_move_goals_and_captures():
    state = losat.new_game()
    state.apply_move_text("+bK5")
    text = str(state)
    assert " 5 . . . . . . . . .(X). . . . . . . . .  5" in text.splitlines()
    assert "<- b goal" in text.splitlines()[6] and "<- w goal" in text.splitlines()[14]
    assert "captures b (X) 0/5, w (O) 0/5" in text and "last +bK5" in text
    assert text.splitlines()[0] == text.splitlines()[-2] == "   " + " ".join(losat.COLUMNS[:19])


def test_observation_planes():
    obs = losat.new_game().observation(1)
    assert obs.shape == (2, 19, 19) and obs.dtype == np.int8
    assert obs[0].sum() == obs[1].sum() == 7 and obs[0, 13, 8] == 1  # J6 is black


# -- the Move value ---------------------------------------------------------------------------


@st.composite
def positions(draw: st.DrawFn) -> losat.LosatState:
    """A position reached by random legal moves from the start, under random rules."""
    gap = draw(st.integers(0, 3))
    state = losat.new_game(
        width=draw(st.integers(5, 13)), length=draw(st.integers(gap + 6, 15)), gap=gap,
        own_colour_only=draw(st.booleans()), capture_or_more=draw(st.booleans()),
        neighbours=draw(st.sampled_from([8, 4])), first=draw(st.sampled_from(["b", "w"])))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    for _ in range(draw(st.integers(0, 60))):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state.apply_action(legal[int(rng.integers(len(legal)))])
    return state


@settings(max_examples=40, deadline=None)
@given(state=positions())
def test_every_legal_action_round_trips_through_move_and_text(state):
    width, length = state.params["width"], state.params["length"]
    player = state.current_player()
    for action in state.legal_actions():
        move = Move.from_action(action, width, length)
        text = str(move)
        assert text == state.action_to_string(action)
        again = Move.parse(text, mover=player, width=width, length=length)
        assert again == move and again.action(width, length) == action
        assert Move.parse(text) == move  # the text names the colour: no board or mover needed
        assert state.string_to_action(text) == action
        assert eval(repr(move), {"Move": Move}) == move


def test_every_action_of_a_small_board_is_a_move():
    width, length = 5, 7
    for action in range(4 * width * length + 1):
        move = Move.from_action(action, width, length)
        assert move.action(width, length) == action
        assert Move.parse(str(move), width=width, length=length) == move
    assert Move.from_action(4 * 35, 5, 7) == Move(losat.PASS)


def test_move_fields_and_constants():
    move = Move.parse("xK6")
    assert (move.kind, move.point, move.point_name) == (losat.CAPTURE, (9, 6), "K6")
    assert Move.parse("+bA1").kind == losat.ADD_BLACK and Move.parse("+wA1").kind == losat.ADD_WHITE
    assert Move.parse("-T19") == Move(losat.REMOVE, (18, 19))
    assert Move.parse("pass").point is None and Move.parse("pass").point_name is None
    assert Move.parse("+K5", mover=losat.WHITE) == Move.parse("+wK5")
    assert losat.new_game().action_to_string(Move.parse("+bK5").action(19, 19)) == "+bK5"


@pytest.mark.parametrize(("text", "named"), [
    ("", "''"),
    ("zz", "'zz'"),
    ("+bD", "'+bD'"),
    ("*D4", "'*D4'"),
    ("+bI4", "'i4'"),
    ("-U4", "'u4'"),
    ("xD20", "'d20'"),
    ("-D0", "'d0'"),
    ("-bD4", "'-bD4'"),
    ("xwK6", "'xwK6'"),
])
def test_move_parse_errors_name_the_bad_text(text, named):
    with pytest.raises(ParseError) as parse_error:
        Move.parse(text, mover=losat.BLACK, width=19, length=19)
    assert named in str(parse_error.value)
    # the state reads moves through Move: the same message
    with pytest.raises(ParseError) as state_error:
        losat.new_game().string_to_action(text)
    assert str(state_error.value) == str(parse_error.value)


def test_an_addition_without_colour_needs_the_mover():
    with pytest.raises(ParseError, match="'\\+D4': whose colour"):
        Move.parse("+D4")


def test_a_move_off_a_smaller_board_has_no_action():
    move = Move.parse("-T19")  # on the largest board
    with pytest.raises(ParseError, match="'T19' is off the board: columns are A..E"):
        move.action(5, 7)


@pytest.mark.parametrize(("kind", "point", "message"), [
    (7, (0, 1), "move kind 7"),
    (losat.REMOVE, None, "needs a point"),
    (losat.PASS, (0, 1), "a pass has no point"),
    (losat.CAPTURE, (25, 1), "expected"),
    (losat.ADD_BLACK, (0, 0), "row 1..99"),
])
def test_bad_moves_cannot_be_made(kind, point, message):
    with pytest.raises(BadParameterError, match=message):
        Move(kind, point)


# -- presentation: what a person sees and picks ----------------------------------------------


def shown(state: losat.LosatState) -> losat.LosatPresentation:
    presentation = presentation_of(state)
    assert isinstance(presentation, losat.LosatPresentation)
    return presentation


def test_the_state_keeps_no_presentation_of_its_own():
    for name in ("display", "action_cells", "explain_illegal", "_why_illegal", "move_prompt",
                 "legal_moves_text", "__str__", "move_kind"):
        assert name not in vars(losat.LosatState), name
    state = losat.new_game(width=9, length=13)
    assert str(state) == losat.render(state) == shown(state).text(state)


def test_interaction_at_the_start_and_after_the_end():
    state = losat.new_game()
    asked = shown(state).interaction(state, 0)
    assert asked.kind == InteractionKind.POINT_THEN_ACTION
    assert (asked.count, asked.can_pass) == (1, False) and "point" in asked.prompt
    waiting = shown(state).interaction(state, 1)
    assert waiting.kind == InteractionKind.WAIT and waiting.prompt == "black is to move"
    over = losat.from_setup("5/1bbb1/5/5/5/5/5 b", gap=0)
    over.apply_move_text("+bC7")
    for player in (0, 1):
        assert shown(over).interaction(over, player).kind == InteractionKind.WAIT
        assert shown(over).choices(over, player) == []


def test_a_player_with_no_change_is_offered_only_the_pass():
    state = losat.from_setup("6/6/6/2bb2/2bb2/6/6 w", gap=0, width=6)
    asked = shown(state).interaction(state, 1)
    assert asked.kind == InteractionKind.POINT_THEN_ACTION and asked.can_pass
    assert asked.prompt == "no change is possible: pass"
    assert shown(state).choices(state, 1) == [MoveChoice(4 * 42, "pass", (), "pass")]


LABELS = {losat.REMOVE: "remove", losat.ADD_BLACK: "add black", losat.ADD_WHITE: "add white",
          losat.CAPTURE: "capture"}


@pytest.mark.parametrize(("setup", "params"), [
    (None, {}),
    (CAPTURE_SETUP, {"gap": 0}),
    (CAPTURE_SETUP.replace(" w", " b"), {"gap": 0, "own_colour_only": True}),
    ("7/bb5/bb5/7/3www1/7/7 w", {"gap": 0, "capture_or_more": True}),
])
def test_choices_parse_back_and_sit_on_the_clicked_point(setup, params):
    state = losat.from_setup(setup, **params) if setup else losat.new_game(**params)
    player = state.current_player()
    length = state.params["length"]
    cells = state.board
    choices = shown(state).choices(state, player)
    assert [c.action for c in choices] == state.legal_actions()
    for choice in choices:
        assert state.string_to_action(choice.text, player) == choice.action
        move = Move.parse(choice.text)
        assert choice.label == LABELS[move.kind]
        assert move.point is not None
        col, number = move.point
        assert choice.cells == ((length - number, col),)  # row 0 is the top row
        occupied = bool(cells[length - number, col])
        assert occupied == (move.kind in (losat.REMOVE, losat.CAPTURE))
    # a click on a point offers exactly the moves there
    clicked = choices[0].cells[0]
    at_point = [c.text for c in choices if c.cells == (clicked,)]
    name = losat.point_name(clicked[0] * state.params["width"] + clicked[1],
                            state.params["width"], length)
    assert at_point and all(text.endswith(name) for text in at_point)
    assert shown(state).interaction(state, player).kind == InteractionKind.POINT_THEN_ACTION


def test_display_of_the_last_move_and_the_goals():
    state = losat.new_game(width=9, length=13)
    state.apply_move_text("-F11")
    shown_data = shown(state).display(state, None)
    assert shown_data["last_point"] == [2, 5] and shown_data["last_kind"] == "remove"
    assert shown_data["goal_rows"] == list(state.goal_rows())
    assert shown_data["grid"]["row_labels"][0] == "13" and shown_data["stones"] == [7, 6]
    assert shown_data["status"] == "move 2 of 400"
    assert shown(state).action_cells(state, state.string_to_action("+bE2")) == [(11, 4)]
    assert shown(state).action_cells(state, 4 * 9 * 13) == []


def test_legal_moves_text_groups_by_kind():
    state = losat.from_setup(CAPTURE_SETUP, gap=0)
    lines = shown(state).legal_moves_text(state).splitlines()
    assert [line.split()[0] for line in lines] == ["remove", "add", "capture"]
    assert lines[2] == "  capture  xC4"


@pytest.mark.parametrize(("text", "reason"), [
    ("-A1", "-A1: A1 is empty; there is no stone to change"),
    ("+bK6", "+bK6: K6 already holds a black stone"),
    ("-K13", "-K13: the stone on K13 has 3 neighbours of its colour; only a stone with fewer "
             "than 2 or more than 3 may go"),
    ("xK6", "xK6: a capture needs exactly 3 neighbours of the other colour; K6 has 0"),
    ("pass", "pass is legal only when no other move is"),
    ("-K6", "-K6 is legal"),
])
def test_explain_illegal_gives_lifes_reason(text, reason):
    state = losat.new_game()
    assert shown(state).explain_illegal(state, state.string_to_action(text)) == reason


def test_explain_illegal_owner_rule_turn_superko_and_range():
    own = losat.new_game(own_colour_only=True)
    assert shown(own).explain_illegal(own, own.string_to_action("+wL15")) == \
        "+wL15: with own_colour_only you add only black stones"
    assert shown(own).explain_illegal(own, own.string_to_action("-L14")) == \
        "-L14: with own_colour_only you remove only your own stones"
    assert shown(own).explain_illegal(own, 0, 1) == "it is not w's turn; b is to move"
    assert shown(own).explain_illegal(own, 10_000) == "action 10000 is out of range 0..1444"
    state = losat.from_setup(CAPTURE_SETUP, gap=0)
    state.apply_move_text("xC4")
    assert shown(state).explain_illegal(state, state.string_to_action("xC4")) == \
        "xC4 would repeat an earlier position (superko)"
    with pytest.raises(IllegalMoveError, match="superko"):
        state.read_move("xC4")


# -- perft against a from-scratch generator -------------------------------------------------


def slow_moves(board: np.ndarray, seen: set[bytes]) -> list[tuple[str, int, int, int]]:
    """Every legal change (kind, row, col, new value), recomputed from the bare board."""
    length, width = board.shape
    out = []
    for r in range(length):
        for c in range(width):
            n = [0, 0, 0]
            for dr in (-1, 0, 1):
                for dc in (-1, 0, 1):
                    rr, cc = r + dr, c + dc
                    if (dr or dc) and 0 <= rr < length and 0 <= cc < width:
                        n[board[rr, cc]] += 1
            v = int(board[r, c])
            changes = []
            if v == 0:
                changes += [("+", 1) for _ in [0] if n[1] == 3]
                changes += [("+", 2) for _ in [0] if n[2] == 3]
            else:
                if n[v] < 2 or n[v] > 3:
                    changes.append(("-", 0))
                if n[3 - v] == 3:
                    changes.append(("x", 3 - v))
            for kind, new in changes:
                after = board.copy()
                after[r, c] = new
                if after.tobytes() not in seen:
                    out.append((kind, r, c, new))
    return out


def slow_perft(board: np.ndarray, seen: set[bytes], depth: int) -> int:
    if depth == 0:
        return 1
    total = 0
    for _, r, c, new in slow_moves(board, seen) or [("pass", -1, -1, -1)]:
        after = board.copy()
        if r >= 0:
            after[r, c] = new
        total += slow_perft(after, seen | {after.tobytes()}, depth - 1)
    return total


def fast_perft(state: losat.LosatState, depth: int) -> int:
    if depth == 0:
        return 1
    total = 0
    for action in state.legal_actions():
        state._do(action)
        total += fast_perft(state, depth - 1)
        state._undo()
    return total


def test_perft_from_the_start_two_ways():
    state = losat.new_game()
    board = state.board
    counts = [fast_perft(state, d) for d in (1, 2, 3)]
    assert [slow_perft(board, {board.tobytes()}, d) for d in (1, 2, 3)] == counts
    assert counts == [12, 146, 1796]  # golden values: a change in the rules shows here
    assert state.position() == losat.new_game().position()  # make/unmake left it untouched


# -- incremental bookkeeping ------------------------------------------------------------------


def recomputed(state: losat.LosatState) -> tuple[np.ndarray, int]:
    board = state.board
    padded = np.pad(board, 1)
    counts = np.zeros((2, *board.shape), dtype=np.int16)
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if dr or dc:
                window = padded[1 + dr:1 + dr + board.shape[0], 1 + dc:1 + dc + board.shape[1]]
                counts[0] += window == 1
                counts[1] += window == 2
    table = Geometry.get(board.shape[1], board.shape[0], 8).zobrist
    h = 0
    for point in np.flatnonzero(board.reshape(-1)):
        h ^= table[board.reshape(-1)[point] - 1][point]
    return counts, h


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(1, 120))
def test_incremental_counts_match_recomputed(seed, plies):
    rng = np.random.default_rng(seed)
    state = losat.new_game()
    hashes = {state.zobrist_hash()}
    for _ in range(plies):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        action = legal[int(rng.integers(len(legal)))]
        snapshot = (state.position(), state.zobrist_hash(), state.seen_hashes())
        state._do(action)
        state._undo()
        assert (state.position(), state.zobrist_hash(), state.seen_hashes()) == snapshot
        state.apply_action(action)
        counts, h = recomputed(state)
        assert np.array_equal(state.neighbour_counts(), counts)
        assert state.zobrist_hash() == h
        hashes.add(h)
    assert state.seen_hashes() == hashes


# -- records and conformance -------------------------------------------------------------------


def test_record_round_trip():
    state = losat.new_game(captures_to_win=3)
    for text in ("-L14", "+bH7", "-M12"):
        state.apply_move_text(text)
    record = state.record(players=("ann", "bob"))
    assert record.params["captures_to_win"] == 3
    again = replay(Record.load(record.to_text()))
    assert again.position() == state.position() and again.history() == state.history()


def test_conformance_default():
    check_game(lambda seed: losat.new_game(), games=3, seed=1, check_every=7)


def test_conformance_variants():
    check_game(lambda seed: losat.new_game(width=9, length=11, gap=2, own_colour_only=True,
                                           neighbours=4, max_moves=60), games=2)
    check_game(lambda seed: losat.new_game(width=11, length=13, capture_or_more=True,
                                           first="w", max_moves=80), games=2, seed=5)


def test_each_choice_says_who_a_change_helps_and_who_wins_by_it() -> None:
    from lifearena.games.losat import LosatGame, format_position, parse_point
    from lifearena.games.losat.presentation import LosatPresentation

    board = losat.new_game(width=9, length=13).board.copy()
    for name, value in (("C8", 2), ("D8", 2), ("E8", 2), ("D7", 1)):
        point = parse_point(name, 9, 13)
        board[point // 9, point % 9] = value
    # White has 4 captures; Black to move: capturing Black's own D7 gives White its fifth
    state = LosatGame(width=9, length=13).state_from_setup(format_position(board, 0, (0, 4), 0))
    choices = {c.text: c for c in LosatPresentation().choices(state, 0)}
    assert choices["xD7"].label == "capture"
    assert choices["xD7"].detail == "White scores, 5th capture: White wins"
    assert choices["xD7"].to_dict()["detail"] == choices["xD7"].detail
    assert choices["-D7"].detail == "removes a Black stone"
    assert not any(c.detail for c in choices.values() if c.text.startswith("+"))


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), captures=st.integers(1, 3),
       max_moves=st.integers(4, 60))
def test_each_choices_detail_says_the_ending_that_playing_it_gives(
        seed: int, captures: int, max_moves: int) -> None:
    """The words of every legal move (found without playing it) name the winner, or a
    draw, exactly when playing the move ends the game so."""
    from lifearena.games.losat.presentation import LosatPresentation

    shown = LosatPresentation()
    names = [side.name for side in shown.look.sides]
    state = losat.new_game(width=7, length=7, gap=0, captures_to_win=captures,
                           max_moves=max_moves)
    rng = np.random.default_rng(seed)
    while state.outcome() is None:
        player = state.current_player()
        for choice in shown.choices(state, player):
            after = state.clone()
            after.apply_action(choice.action)
            outcome = after.outcome()
            said = choice.detail.rsplit(": ", 1)[-1]  # the words' ending, if they name one
            said = said if said == "drawn" or said.endswith(" wins") else ""
            if choice.text == "pass":
                continue
            if outcome is None:
                assert said == "", (choice.text, choice.detail)
            elif outcome.winner is None:
                assert said == "drawn", (choice.text, choice.detail, outcome)
            else:
                assert said == f"{names[outcome.winner]} wins", (choice.text, choice.detail)
            if choice.label == "capture":
                scorer = int(np.argmax(np.subtract(after.captures(), state.captures())))
                assert choice.detail.startswith(f"{names[scorer]} scores"), choice.detail
        legal = state.legal_actions(player)
        state.apply_action(legal[int(rng.integers(len(legal)))])
