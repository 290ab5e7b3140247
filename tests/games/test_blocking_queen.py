"""The blocking queen game on the protocol: rules, notation, presentation, conformance, and a
solver check that the game tree agrees with the palace numbers."""

from __future__ import annotations

import pytest

from lifearena.core import (
    TERMINAL,
    InteractionKind,
    Termination,
    load_game,
    presentation_of,
    replay,
)
from lifearena.errors import BadParameterError, IllegalMoveError, ParseError
from lifearena.games.blocking_queen import (
    DONE,
    BlockingQueen,
    BlockingQueenPresentation,
    BlockingQueenState,
    Move,
    new_game,
    options,
)
from lifearena.games.blocking_queen.palace import palace_numbers
from lifearena.testing import check_game


@pytest.mark.parametrize("k", [1, 3])
def test_conformance(k: int) -> None:
    finals = check_game(lambda seed: new_game(seed=seed, k=k, size=10), games=5, seed=k)
    assert all(state.outcome().termination is Termination.NO_MOVES for state in finals)


def test_registered_and_replayable() -> None:
    assert load_game("blocking-queen") is BlockingQueenState is BlockingQueen
    state = BlockingQueen.from_moves("9,7", ["9,3", "#0,3", "#6,3", "2,3"], k=3)
    again = replay(state.record())
    assert again.key() == state.key() and str(again) == str(state)
    assert eval(repr(state), {"BlockingQueen": BlockingQueen}).key() == state.key()


def test_a_turn_is_a_move_then_up_to_k_minus_1_blocks() -> None:
    state = BlockingQueen.from_setup("6,6", k=3)
    state.apply_move_text("6,2")
    assert state.current_player() == 0 and state.blocking
    assert state.legal_actions()[-1] == DONE
    state.apply_move_text("#3,2")
    state.apply_move_text("4,0")       # a bare square in the block phase is a block
    assert state.current_player() == 1 and not state.blocking   # k - 1 = 2 blocks used
    assert state.blocked == {(3, 2), (4, 0)}
    moves = {state.action_to_string(a) for a in state.legal_actions()}
    assert moves == {f"{x},{y}" for x, y in options(6, 2)} - {"3,2", "4,0"}
    with pytest.raises(IllegalMoveError, match="blocked"):
        state.apply_move_text("3,2")
    state.apply_move_text("2,2")       # over no pawn; blocks are forgotten now
    assert state.blocked == frozenset()
    state.apply_move_text("-")         # stop blocking early
    assert state.current_player() == 0 and state.blocked == frozenset()


def test_k1_has_no_block_phase() -> None:
    state = BlockingQueen.from_setup("3,5", k=1)
    state.apply_move_text("3,2")
    assert state.current_player() == 1 and not state.blocking


def test_reaching_the_origin_wins() -> None:
    state = BlockingQueen.from_setup("0,5", k=2)
    state.apply_move_text("0,0")
    assert state.is_terminal() and state.outcome().winner == 0
    assert state.returns() == (1.0, -1.0)


def test_blocking_every_option_wins_at_once() -> None:
    state = BlockingQueen.from_setup("1,3", k=5)
    state.apply_move_text("1,1")   # the opponent could go to 0,1, 1,0 or 0,0
    for square in ("#0,0", "#1,0"):
        state.apply_move_text(square)
        assert state.current_player() == 0
    state.apply_move_text("#0,1")  # 3 of the 4 blocks: nothing left to reach, the turn ends
    assert state.current_player() == TERMINAL
    outcome = state.outcome()
    assert outcome.winner == 0 and "blocked" in outcome.detail


def test_start_on_origin_is_lost_for_the_first_player() -> None:
    state = BlockingQueen.from_setup("0,0", k=2)
    assert state.is_terminal() and state.outcome().winner == 1


@pytest.mark.parametrize(
    ("text", "error", "message"),
    [
        ("5,9", IllegalMoveError, "north-west"),
        ("#2,2", IllegalMoveError, "queen must move first"),
        ("7;3", ParseError, "'7;3'"),
        ("200,3", ParseError, "off the board"),
    ],
)
def test_bad_moves_are_explained(text: str, error: type, message: str) -> None:
    state = BlockingQueen.from_setup("7,7", k=2)
    with pytest.raises(error, match=message):
        state.apply_move_text(text)
    assert state.history() == []


def test_bad_parameters() -> None:
    with pytest.raises(BadParameterError, match="k=0"):
        BlockingQueen(3, 3, k=0)
    with pytest.raises(BadParameterError, match="start square 300,3"):
        BlockingQueen(300, 3)


def test_moves_read_and_write_the_notation() -> None:
    assert [str(Move.parse(t)) for t in ("20,9", " #4, 9", "-")] == ["20,9", "#4,9", "-"]
    assert Move.parse("4,9", blocking=True) == Move("block", 4, 9)
    for action in (0, 130, DONE - 1, DONE):
        assert Move.from_action(action).action == action
    assert eval(repr(Move.parse("#4,9"))) == Move("block", 4, 9)
    with pytest.raises(BadParameterError, match="off the board"):
        Move("move", 128, 0)


def test_the_presentation_is_the_games() -> None:
    state = BlockingQueenState.from_moves("9,7", ["9,3", "#0,3", "#6,3"], k=3)
    shown = presentation_of(state)
    assert isinstance(shown, BlockingQueenPresentation)
    assert str(state) == shown.text(state) == "queen 9,3, k=3, 2 to move, blocked #0,3 #6,3"
    for name in ("display", "action_cells", "explain_illegal", "_why_illegal", "move_prompt",
                 "__str__"):
        assert name not in vars(BlockingQueenState), name


def _check_choices(state: BlockingQueenState, player: int) -> list[str]:
    """Each choice parses back to its action in the phase, names the square a click picks
    (``(y, x)``), and is labelled by its kind; returns the labels."""
    shown = presentation_of(state)
    choices = shown.choices(state, player)
    assert [c.action for c in choices] == state.legal_actions(player)
    for choice in choices:
        assert state.string_to_action(choice.text, player) == choice.action
        move = Move.from_action(choice.action)
        if move.kind == "stop":
            assert (choice.text, choice.cells, choice.label) == ("-", (), "stop blocking")
        else:
            assert choice.cells == ((move.y, move.x),)
            assert choice.label == {"move": "move", "block": "block"}[move.kind]
            assert move.square in options(*state.queen)
    # one choice per square: a click names one move
    squares = [c.cells for c in choices if c.cells]
    assert len(squares) == len(set(squares))
    return [c.label for c in choices]


def test_interaction_and_choices_of_a_turn() -> None:
    state = BlockingQueenState.from_setup("6,6", k=3)
    shown = presentation_of(state)
    asked = shown.interaction(state, 0)
    assert (asked.kind, asked.count, asked.can_pass) == (InteractionKind.SQUARE_THEN_BLOCKS, 1,
                                                         False)
    assert asked.prompt == "move the queen west, north or north-west"
    assert shown.interaction(state, 1).kind is InteractionKind.WAIT
    assert shown.choices(state, 1) == []
    assert set(_check_choices(state, 0)) == {"move"}
    assert shown.move_prompt(state, 0) == "move the queen 'x,y'"

    state.apply_move_text("6,2")
    asked = shown.interaction(state, 0)
    assert (asked.kind, asked.count, asked.can_pass) == (InteractionKind.SQUARE_THEN_BLOCKS, 1,
                                                         True)
    assert asked.prompt == "block a shaded square, or stop (2 blocks left)"
    labels = _check_choices(state, 0)
    assert labels[-1] == "stop blocking" and set(labels[:-1]) == {"block"}
    assert shown.move_prompt(state, 0) == "block '#x,y' or '-' to stop"

    state.apply_move_text("#3,2")
    assert shown.interaction(state, 0).prompt.endswith("(1 block left)")
    state.apply_move_text("-")
    assert shown.interaction(state, 0).kind is InteractionKind.WAIT
    assert shown.interaction(state, 1).prompt == "move the queen west, north or north-west"
    assert set(_check_choices(state, 1)) == {"move"}
    assert ((2, 3),) not in [c.cells for c in shown.choices(state, 1)]  # 3,2 is blocked


def test_choices_on_the_largest_board_and_at_the_end() -> None:
    state = BlockingQueenState(127, 127, k=2)
    shown = presentation_of(state)
    assert len(_check_choices(state, 0)) == 3 * 127
    state.apply_move_text("0,0")
    assert state.is_terminal()
    assert shown.interaction(state, 0).kind is InteractionKind.WAIT
    assert shown.interaction(state, 1).kind is InteractionKind.WAIT
    assert shown.explain_illegal(state, 0, 1) == "the game is over; no move can be played"


def test_illegal_moves_are_explained_in_each_phase() -> None:
    state = BlockingQueenState.from_setup("5,5", k=2)
    shown = presentation_of(state)
    assert shown.explain_illegal(state, DONE + 1) == "action 32769 is out of range 0..32768"
    assert shown.explain_illegal(state, state.string_to_action("#1,1")) == (
        "#1,1 is a block, but the queen must move first")
    state.apply_move_text("5,2")
    assert shown.explain_illegal(state, state.string_to_action("#5,3")) == (
        "#5,3: the queen on 5,2 cannot reach 5,3; block only squares it could move to")
    assert shown.explain_illegal(state, Move("move", 4, 2).action) == (
        "4,2 moves the queen, but 1 is blocking now; block a square '#x,y' or stop with '-'")
    with pytest.raises(IllegalMoveError, match="^#5,3: the queen on 5,2"):
        state.read_move("5,3")


def _solve(k: int):
    """Exhaustive negamax over the real game tree (through the protocol), memoised:
    ``to_act_wins(state)`` says whether the player to act wins with best play."""
    table: dict[tuple, bool] = {}

    def to_act_wins(state: BlockingQueen) -> bool:
        if state.is_terminal():
            return False  # only the start on the origin: the first player cannot move
        key = state.key()
        if key in table:
            return table[key]
        me = state.current_player()
        result = False
        for action in state.legal_actions():
            child = state.clone()
            child.apply_action(action, check=False)
            if child.is_terminal():
                result = child.outcome().winner == me
            elif child.current_player() == me:
                result = to_act_wins(child)
            else:
                result = not to_act_wins(child)
            if result:
                break
        table[key] = result
        return result

    return to_act_wins


@pytest.mark.parametrize("k", [1, 2, 3])
def test_game_tree_agrees_with_palace_numbers(k: int) -> None:
    """From a start with nothing blocked the first player wins iff some palace is visible
    (n >= 1); after a queen move the mover wins iff the square is a palace (n < k)."""
    size = 6 if k < 3 else 5
    n = palace_numbers(k, size, size)
    to_act_wins = _solve(k)
    for y in range(size):
        for x in range(size):
            start = BlockingQueen(x, y, k=k)
            assert to_act_wins(start) == (n[y, x] >= 1), (x, y)
            if (x, y) != (0, 0):
                # put the queen on (x, y) by a move from one square south
                state = BlockingQueen(x, y + 1, k=k)
                state.apply_move_text(f"{x},{y}")
                if state.is_terminal():
                    continue
                # player 0 just moved; with k > 1 they are still to act (blocking)
                mover_won = (to_act_wins(state) if state.current_player() == 0
                             else not to_act_wins(state))
                assert mover_won == (n[y, x] < k), (x, y)
