"""A person's attempt at a puzzle, judged move by move (:mod:`lifearena.puzzles.round`):
right, solved and wrong; any winning move accepted; earlier moves checked, never trusted;
a simultaneous game's placement judged with the defence's placement played beside it."""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from lifearena.core import Record, State
from lifearena.errors import IllegalMoveError, ParseError
from lifearena.puzzles.model import Puzzle
from lifearena.puzzles.round import MEMO, RIGHT, SOLVED, WRONG, judge, main_line
from lifearena.puzzles.search import ExhaustiveSearch
from puzzle_fixtures import queen_puzzle


def test_right_then_solved_with_the_defence_played_between() -> None:
    puzzle = queen_puzzle("4,6", 1700.0)
    first = judge(puzzle, [], "3,5")
    assert (first.verdict, first.reply, first.moves, first.depth_left) == (
        RIGHT, "3,1", ["3,5", "3,1"], 2)
    assert first.shown.setup() == first.after.setup()  # same start; the positions differ:
    assert first.shown.move_number() == 1 and first.after.move_number() == 2
    second = judge(puzzle, first.moves, "2,1")
    last = judge(puzzle, second.moves, "0,0")
    assert last.verdict == SOLVED and last.over and last.after.outcome().winner == 0


def test_every_winning_move_is_right_not_only_the_listed_solutions() -> None:
    puzzle = queen_puzzle("2,3", 1300.0)
    narrowed = Puzzle(puzzle.id + "-one", puzzle.game, puzzle.source, 0, 0, ("2,1",),
                      puzzle.line, puzzle.theme, puzzle.depth, puzzle.rating)
    assert judge(narrowed, [], "1,2").verdict == RIGHT  # a winning move the list lacks


def test_a_wrong_move_gives_the_winning_ones_and_the_line_shows_the_way() -> None:
    puzzle = queen_puzzle("4,6", 1700.0)
    wrong = judge(puzzle, [], "2,6")
    assert wrong.verdict == WRONG and wrong.winning == ["3,5"] and wrong.reply is None
    assert wrong.moves == [] and wrong.shown.move_number() == 1  # the wrong move shown
    assert main_line(puzzle) == ["3,5", "3,1", "2,1", "1,0", "0,0"]


@pytest.mark.parametrize(("played", "why"), [
    (["2,6", "0,6"], "not a winning move"),
    (["3,5", "0,5"], "not what this puzzle played"),
    (["3,5", "3,1", "2,1", "1,0", "0,0"], "the puzzle is solved"),
    (["3,5", "3,1", "2,1", "1,0", "0,0", "0,0"], "was over"),
    (["3,5 | 3,1"], "expected .x,y."),
])
def test_earlier_moves_are_checked(played: list[str], why: str) -> None:
    with pytest.raises(ParseError, match=why):
        judge(queen_puzzle("4,6", 1700.0), played, "0,0")


def test_an_illegal_or_unreadable_move_is_neither_right_nor_wrong() -> None:
    puzzle = queen_puzzle("4,6", 1700.0)
    with pytest.raises(IllegalMoveError, match="moves only"):
        judge(puzzle, [], "5,5")
    with pytest.raises(ParseError):
        judge(puzzle, [], "left")


class Stub:
    """A searcher of one Life for Two position whose answers were checked by hand: the
    placement ``5,1`` wins (the block lives, the lone ``#`` dies), and ``#`` defends at
    ``5,5``. It counts its searches."""

    def __init__(self) -> None:
        self.searches = 0

    def winning_moves(self, state: State, solver: int, depth: int) -> list[str]:
        self.searches += 1
        return ["5,1"]

    def defence(self, state: State, solver: int, depth: int) -> str:
        self.searches += 1
        return "5,5"


LIFE_FOR_TWO = Puzzle("l42-demo", "life_for_two",
                      Record("life_for_two", {"max_turns": None, "limit_result": "draw"},
                             "...../.**../.**../...../#.... 2", ["a", "b"], []),
                      0, 0, ("5,1",), ("5,1",), "wipe-out-in-1", 1, 1500.0)


def test_a_placement_is_judged_with_the_defence_placed_beside_it() -> None:
    MEMO.clear()
    judged = judge(LIFE_FOR_TWO, [], "5,1", Stub())
    assert judged.verdict == SOLVED and judged.reply == "5,5"
    assert judged.moves == ["5,1 | 5,5"]
    assert judged.after.outcome().winner == 0
    wrong = judge(LIFE_FOR_TWO, [], "4,5", Stub())
    assert wrong.verdict == WRONG and wrong.winning == ["5,1"]


def test_a_placement_for_the_second_seat_is_written_second() -> None:
    MEMO.clear()
    mirrored = Puzzle("l42-demo-b", "life_for_two",
                      Record("life_for_two", {"max_turns": None, "limit_result": "draw"},
                             "...../.##../.##../...../*.... 2", ["a", "b"], []),
                      0, 1, ("5,1",), ("5,1",), "wipe-out-in-1", 1, 1500.0)
    judged = judge(mirrored, [], "5,1", Stub())
    assert judged.verdict == SOLVED and judged.moves == ["5,5 | 5,1"]


def test_the_searches_of_an_attempt_are_remembered() -> None:
    MEMO.clear()
    stub = Stub()
    judge(LIFE_FOR_TWO, [], "5,1", stub)
    searched = stub.searches
    judge(LIFE_FOR_TWO, [], "5,1", stub)
    assert searched == 2 and stub.searches == searched


def test_the_queen_puzzles_agree_with_the_exhaustive_search() -> None:
    # the fixtures' answers are the plain search's; a changed search must change them here
    puzzle = queen_puzzle("5,7", 1500.0)
    state = puzzle.position()
    assert tuple(ExhaustiveSearch().winning_moves(state, 0, puzzle.depth)) == puzzle.solutions
    assert not ExhaustiveSearch().winning_moves(state, 0, puzzle.depth - 1)


@given(st.integers(1, 5), st.integers(1, 7), st.data())
@settings(max_examples=25, deadline=None)
def test_a_first_move_is_right_exactly_when_the_plain_search_says_it_wins(
        x: int, y: int, data: st.DataObject) -> None:
    source = Record("blocking_queen", {"k": 1}, f"{x},{y}", ["", ""], [])
    state = Puzzle("bq-any", "blocking_queen", source, 0, 0, (), (), "", 1, 1500.0).position()
    search = ExhaustiveSearch()
    depth = next((d for d in range(1, 5) if search.winning_moves(state, 0, d)), None)
    assume(depth is not None)
    puzzle = Puzzle(f"bq-any-{x}-{y}", "blocking_queen", source, 0, 0, (), (), "", depth,
                    1500.0)
    legal = [state.action_to_string(a, 0) for a in state.legal_actions(0)]
    move = data.draw(st.sampled_from(legal))
    judged = judge(puzzle, [], move, search)
    wins = move in search.winning_moves(state, 0, depth)
    assert (judged.verdict != WRONG) == wins
    assert (judged.verdict == SOLVED) == (wins and move == "0,0")


def test_a_turn_of_several_actions_is_one_turn_on_both_sides() -> None:
    # k = 2: a turn is a queen move and a block; the miner's puzzle after White's move
    from lifearena.puzzles.blocking_queen import mine

    record = Record("blocking_queen", {"k": 2}, "3,3", ["a", "b"], ["3,1", "-"])
    puzzle = next(p for p in mine(record) if p.ply == 1)
    assert (puzzle.solutions, puzzle.depth) == (("#0,1",), 2)
    first = judge(puzzle, [], "#0,1")
    assert first.verdict == RIGHT and first.reply == "2,0 #1,0"  # the reply's move and block
    assert first.moves == ["#0,1", "2,0", "#1,0"] and first.depth_left == 1
    assert judge(puzzle, first.moves, "0,0").verdict == SOLVED
    assert main_line(puzzle) == list(puzzle.line)
