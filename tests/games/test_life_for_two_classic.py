"""Classic mode: the issue's transcript of the 1978 program, character for character."""

from __future__ import annotations

import io

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lifearena.errors import ParseError
from lifearena.games.life_for_two.classic import classic_generation, play_classic
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
