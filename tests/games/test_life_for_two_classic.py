"""Classic mode: the issue's transcript of the 1978 program, character for character; the
program as a state (its legal answers, records, presentation) and at a terminal, byte for
byte as the program first written (``tests/classic_reference.py``)."""

from __future__ import annotations

import io

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from classic_reference import reference_play
from lifearena.core import (
    Dynamics,
    InteractionKind,
    Record,
    get_game,
    presentation_of,
    replay,
)
from lifearena.errors import IllegalMoveError, ParseError
from lifearena.games.life_for_two import LifeForTwoGame
from lifearena.games.life_for_two.classic import (
    CLASSIC_SETUP,
    ClassicState,
    RedoFromStart,
    classic_generation,
    play_classic,
)
from lifearena.life.step import step

PROMPT = "X,Y\nXXXXXX\n$$$$$$\n&&&&&&\n? "


def _prompts(*answers: str) -> str:
    return "".join(f"{PROMPT}{a}\n" for a in answers)


TITLE = (
    " " * 32 + "LIFE2\n"
    + " " * 14 + "CREATIVE COMPUTING  MORRISTOWN, NEW JERSEY\n"
    + "\n\n\n"
    + " " * 9 + "U.B. LIFE GAME\n"
)

# The complete transcript of the issue (its "(...)" abbreviations written out).
ISSUE_TRANSCRIPT = (
    TITLE
    + "\nPLAYER 1  - 3 LIVE PIECES.\n" + _prompts("1,1", "2,1", "1,2")
    + "\nPLAYER 2  - 3 LIVE PIECES.\n" + _prompts("3,4", "4,4", "5,4")
    + "\n"
    " 0  1  2  3  4  5  0 \n"
    " 1  *  *           1 \n"
    " 2  *              2 \n"
    " 3                 3 \n"
    " 4        #  #  #  4 \n"
    " 5                 5 \n"
    " 0  1  2  3  4  5  0 \n"
    "\n"
    " 0  1  2  3  4  5  0 \n"
    " 1  *  *           1 \n"
    " 2  *  *           2 \n"
    " 3           #     3 \n"
    " 4           #     4 \n"
    " 5           #     5 \n"
    " 0  1  2  3  4  5  0 \n"
    "\n"
    "PLAYER 1 X,Y\n"
    "XXXXXX\n"
    "$$$$$$\n"
    "&&&&&&\n"
    "? 3,2\n"
    "\n"
    "\n"
    "PLAYER 2 X,Y\n"
    "XXXXXX\n"
    "$$$$$$\n"
    "&&&&&&\n"
    "? 3,2\n"
    "SAME COORD.  SET TO 0\n"
    "\n"
    "\n"
    " 0  1  2  3  4  5  0 \n"
    " 1  *  *           1 \n"
    " 2  *  *           2 \n"
    " 3                 3 \n"
    " 4                 4 \n"
    " 5                 5 \n"
    " 0  1  2  3  4  5  0 \n"
    "PLAYER 1 IS THE WINNER\n"
)

ISSUE_INPUT = "1,1\n2,1\n1,2\n3,4\n4,4\n5,4\n3,2\n3,2\n"


def _run(answers: str, echo: bool = True, *, partial: bool = False
         ) -> tuple[str, int | str | None]:
    """The transcript and the winner; with ``partial`` a game may stop for lack of input."""
    out = io.StringIO()
    try:
        winner: int | str | None = play_classic(io.StringIO(answers), out, echo=echo)
    except ParseError:
        if not partial:
            raise
        winner = "unfinished"
    return out.getvalue(), winner


def test_issue_transcript_exactly() -> None:
    text, winner = _run(ISSUE_INPUT)
    assert text == ISSUE_TRANSCRIPT
    assert winner == 0


def test_without_echo_the_answers_are_what_the_terminal_adds() -> None:
    text, _ = _run(ISSUE_INPUT, echo=False)
    parts = text.split("? ")
    answers = ISSUE_INPUT.splitlines()
    assert len(parts) == len(answers) + 1
    rebuilt = parts[0] + "".join(f"? {a}\n{p}" for a, p in zip(answers, parts[1:], strict=True))
    assert rebuilt == ISSUE_TRANSCRIPT


def test_illegal_coords_are_asked_again_without_player_line() -> None:
    # 6,1 is off the board, 0,3 too, 1,1 is taken by player 1 in setup (the unfairness).
    text, _ = _run("1,1\n2,1\n1,2\n6,1\n0,3\n1,1\n3,4\n4,4\n5,4\n3,2\n3,2\n")
    setup2 = text.split("PLAYER 2  - 3 LIVE PIECES.\n")[1].split("\n\n")[0]
    assert setup2 == (_prompts("6,1") + "ILLEGAL COORDS. RETYPE\n"
                      + _prompts("0,3") + "ILLEGAL COORDS. RETYPE\n"
                      + _prompts("1,1") + "ILLEGAL COORDS. RETYPE\n"
                      + _prompts("3,4", "4,4", "5,4")).rstrip("\n")
    assert text.endswith("PLAYER 1 IS THE WINNER\n")


def test_later_turn_rejects_occupied_and_retypes_without_player_line() -> None:
    text, _ = _run(ISSUE_INPUT.replace("3,2\n3,2\n", "1,1\n3,2\n3,2\n"))
    assert ("PLAYER 1 X,Y\nXXXXXX\n$$$$$$\n&&&&&&\n? 1,1\nILLEGAL COORDS. RETYPE\n"
            "X,Y\nXXXXXX\n$$$$$$\n&&&&&&\n? 3,2\n\n\nPLAYER 2 X,Y") in text


def test_malformed_answer_redo_from_start() -> None:
    text, _ = _run(ISSUE_INPUT.replace("3,2\n3,2\n", "three\n3,2\n3,2\n"))
    assert "? three\n?REDO FROM START\n? 3,2\n\n\nPLAYER 2 X,Y" in text


def _boards(text: str) -> list[np.ndarray]:
    """Every board printed in a classic transcript, as 0/1/2 arrays."""
    boards = []
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if line == " 0  1  2  3  4  5  0 " and i + 6 < len(lines) and lines[i + 6] == line:
            rows = lines[i + 1 : i + 6]
            boards.append(np.array([[" *#".index(row[3 * k + 4]) for k in range(5)]
                                    for row in rows], dtype=np.int8))
    return boards


GEN1 = np.array([[1, 1, 0, 0, 0], [1, 1, 0, 0, 0], [0, 0, 0, 2, 0], [0, 0, 0, 2, 0],
                 [0, 0, 0, 2, 0]], dtype=np.int8)


def test_boards_of_the_issue_game() -> None:
    boards = _boards(ISSUE_TRANSCRIPT)
    assert len(boards) == 3
    assert np.array_equal(step(boards[0], "immigration"), GEN1)
    assert np.array_equal(boards[1], GEN1)
    bugged = GEN1.copy()
    bugged[2, 3] = 0  # the SAME COORD bug cleared x=4, y=3 (right of and below 3,2)
    assert np.array_equal(boards[2], step(bugged, "immigration"))


def test_same_coord_bug_on_an_empty_cell_changes_nothing() -> None:
    # Both type 2,3; the bug clears 3,4, which is empty: the plain generation follows.
    text, _ = _run(ISSUE_INPUT.replace("3,2\n3,2\n", "2,3\n2,3\n"), partial=True)
    assert "SAME COORD.  SET TO 0\n\n\n 0  1  2  3  4  5  0 " in text
    assert np.array_equal(_boards(text)[2], step(GEN1, "immigration"))


def test_same_coord_bug_at_the_edge_touches_only_the_border() -> None:
    # Both type 5,5: the bug writes to the never-printed border N(6, 6); no error.
    text, _ = _run(ISSUE_INPUT.replace("3,2\n3,2\n", "5,5\n5,5\n"), partial=True)
    assert np.array_equal(_boards(text)[2], step(GEN1, "immigration"))


def test_distinct_later_choices_are_placed_then_evolve() -> None:
    text, _ = _run(ISSUE_INPUT.replace("3,2\n3,2\n", "5,1\n1,5\n"), partial=True)
    placed = GEN1.copy()
    placed[0, 4] = 1  # player 1 at x=5, y=1
    placed[4, 0] = 2  # player 2 at x=1, y=5
    assert "? 1,5\n\n\n 0  1  2  3  4  5  0 " in text
    assert np.array_equal(_boards(text)[2], step(placed, "immigration"))


def test_a_draw() -> None:
    # Two lone triples far apart that die: every piece isolated.
    text, winner = _run("1,1\n3,1\n5,1\n1,5\n3,5\n5,5\n")
    assert winner is None
    assert text.endswith(" 0  1  2  3  4  5  0 \nA DRAW\n")


def test_player_2_wins() -> None:
    text, winner = _run("1,1\n3,1\n5,1\n1,4\n2,4\n1,5\n")
    assert winner == 1
    assert text.endswith(" 0  1  2  3  4  5  0 \nPLAYER 2 IS THE WINNER\n")


def test_input_ending_early_is_an_error() -> None:
    with pytest.raises(ParseError, match="input ended"):
        _run("1,1\n2,1\n")


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(0, 2), min_size=25, max_size=25))
def test_original_arithmetic_equals_immigration(cells: list[int]) -> None:
    board = np.array(cells, dtype=np.int8).reshape(5, 5)
    expected = step(board, "immigration", kernel="reference")
    assert classic_generation(board.tolist()) == expected.tolist()


# -- the program as a state -------------------------------------------------------------------

_LINES = st.one_of(
    st.builds(lambda x, y: f"{x},{y}", st.integers(1, 5), st.integers(1, 5)),
    st.builds(lambda x, y: f"{x},{y}", st.integers(-2, 8), st.integers(-2, 8)),
    st.sampled_from(["", "three", "3;2", " 3 , 2 ", "+1,+2", "1,1,1", "3,", "0,0"]),
)


def _terminal(play, lines: list[str], echo: bool) -> tuple[str, object]:
    out = io.StringIO()
    try:
        result: object = play([f"{line}\n" for line in lines], out, echo=echo)
    except ParseError as error:
        result = str(error)
    return out.getvalue(), result


@settings(max_examples=300, deadline=None)
@given(st.lists(_LINES, max_size=120), st.booleans())
def test_the_terminal_prints_what_the_program_first_written_printed(lines: list[str],
                                                                    echo: bool) -> None:
    # whatever is typed, refused lines and early ends included, byte for byte
    assert _terminal(play_classic, lines, echo) == _terminal(reference_play, lines, echo)


def _random_game(draw: st.DrawFn, most: int = 200) -> ClassicState:
    state = ClassicState()
    for _ in range(most):
        if state.is_terminal():
            break
        state.apply_action(draw(st.sampled_from(state.legal_actions())))
    return state


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_random_legal_answers_give_the_terminals_transcript(data: st.DataObject) -> None:
    state = _random_game(data.draw)
    answers = state.history_strings()
    text, result = _terminal(play_classic, answers, echo=True)
    if state.is_terminal():
        assert state.transcript == text and result == state.outcome().winner
    else:  # the terminal ran out of input at the program's next ? (and ended the line)
        assert text == state.transcript + "\n" and "input ended" in str(result)
    assert str(state) == state.transcript
    assert _terminal(reference_play, answers, echo=True) == (text, result)


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_legal_answers_are_exactly_those_the_program_takes(data: st.DataObject) -> None:
    state = _random_game(data.draw, data.draw(st.integers(0, 40)))
    if state.is_terminal():
        return
    answers = state.history_strings()
    before = len(_terminal(reference_play, answers, echo=True)[0]) - 1  # the "\n" of the end
    for action in range(25):
        text = state.action_to_string(action)
        after = _terminal(reference_play, [*answers, text], echo=True)[0][before:]
        taken = not after.startswith(f"{text}\nILLEGAL COORDS. RETYPE")
        assert (action in state.legal_actions()) == taken, (answers, text)


def test_whose_answer_the_program_waits_for() -> None:
    state = ClassicState()
    players = []
    for answer in ISSUE_INPUT.split():
        players.append(state.current_player())
        state.apply_move_text(answer)
    assert players == [0, 0, 0, 1, 1, 1, 0, 1]
    assert state.is_terminal() and state.asking is None
    assert state.outcome().winner == 0 and state.returns() == (1.0, -1.0)
    assert state.transcript == ISSUE_TRANSCRIPT


def test_player_2_may_type_player_1s_cell_only_after_the_setup() -> None:
    state = ClassicState.from_answers(["1,1", "2,1", "1,2"])
    assert state.string_to_action("1,1") not in state.legal_actions()  # the unfairness
    later = ClassicState.from_answers(ISSUE_INPUT.split()[:7])
    assert later.pending == later.string_to_action("3,2")
    assert later.string_to_action("3,2") in later.legal_actions()  # then the SAME COORD bug
    assert later.observation(1)[2].sum() == 1 and later.observation(1).shape == (4, 5, 5)


def test_refused_answers_say_what_the_program_says_and_change_nothing() -> None:
    state = ClassicState.from_answers(["1,1"])
    before = state.transcript
    with pytest.raises(RedoFromStart, match=r"^\?REDO FROM START$"):
        state.read_move("three")
    with pytest.raises(ParseError, match="^ILLEGAL COORDS. RETYPE$"):
        state.read_move("6,1")
    with pytest.raises(ParseError, match="^ILLEGAL COORDS. RETYPE$"):
        state.read_move("1" * 5000 + ",1")
    with pytest.raises(IllegalMoveError, match="^ILLEGAL COORDS. RETYPE$"):
        state.read_move("1,1")
    assert state.transcript == before and state.move_number() == 1


def test_the_program_is_life_for_two_with_classic_rules() -> None:
    game = get_game("life_for_two", rules="classic")
    state = game.new_initial_state()
    assert isinstance(state, ClassicState) and state.game == game
    assert ClassicState().game == game and state.setup() == CLASSIC_SETUP
    assert state.info.name == "life_for_two" and state.info.dynamics is Dynamics.SEQUENTIAL
    assert state.info.rules_version == LifeForTwoGame.info.rules_version
    assert type(presentation_of(state)).__name__ == "ClassicPresentation"
    assert type(presentation_of(LifeForTwoGame().new_initial_state())).__name__ != \
        "ClassicPresentation"


@settings(max_examples=30, deadline=None)
@given(st.data())
def test_records_replay(data: st.DataObject) -> None:
    state = _random_game(data.draw)
    record = state.record(["alice", "bob"])
    assert (record.game, record.params, record.setup) == ("life_for_two", {}, CLASSIC_SETUP)
    for text in (record.to_json(), record.to_text()):
        replayed = replay(Record.load(text))
        assert isinstance(replayed, ClassicState)
        assert replayed.transcript == state.transcript
        assert replayed.outcome() == state.outcome()
    assert eval(repr(state)).transcript == state.transcript


def test_a_record_of_other_setups_or_parameters_is_refused() -> None:
    with pytest.raises(ParseError, match="expected 'classic'"):
        ClassicState.from_setup("...../...../...../...../..... 1")
    with pytest.raises(ValueError, match="no parameters"):
        ClassicState.from_setup(CLASSIC_SETUP, max_turns=3)


# -- its presentation ---------------------------------------------------------------------------


def test_the_page_gets_the_transcript_as_a_terminal_and_an_answer_box() -> None:
    state = ClassicState.from_answers(["1,1", "2,1", "1,2"])
    shown = presentation_of(state)
    assert shown.display(state, None) == {"text": state.transcript, "terminal": True}
    assert shown.display(state, 0) == shown.display(state, None)  # nothing is hidden
    asked = shown.interaction(state, 1)
    assert asked.kind is InteractionKind.ANSWER and "x,y" in asked.prompt
    assert shown.interaction(state, 0).kind is InteractionKind.WAIT
    choices = shown.choices(state, 1)
    assert len(choices) == 22  # player 1's three setup pieces are taken
    for choice in choices:
        assert state.string_to_action(choice.text) == choice.action
        assert choice.cells == () and choice.label == "answer"
    assert shown.explain_illegal(state, state.string_to_action("1,1")) == "ILLEGAL COORDS. RETYPE"
    assert "not 1's turn" in shown.explain_illegal(state, 5, 0)
    ended = ClassicState.from_answers(ISSUE_INPUT.split())
    assert shown.interaction(ended, 0).kind is InteractionKind.WAIT
    assert shown.explain_illegal(ended, 5) == "the game is over; no move can be played"
