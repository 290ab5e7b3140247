"""Every lesson step is solvable by the real rules: its stated solution meets its goals, some
other legal move does not (and is told so), and no step starts from a decided position."""

from __future__ import annotations

import pytest

from lifearena.core import SIMULTANEOUS
from lifearena.errors import IllegalMoveError
from lifearena.lessons import (
    Goal,
    Lesson,
    Step,
    UnknownLesson,
    attempt,
    lesson,
    solution_moves,
    start,
)

GAMES = ("war_of_life", "life_for_two", "losat", "p2life", "blocking_queen")
STEPS = [(game, number) for game in GAMES for number in range(1, len(lesson(game).steps) + 1)]


def _misses(game: str, step: Step) -> list[list[str]]:
    """The learner's legal turns (one move, or a queen move and its blocks) after which the
    step's goals are not met: every turn, found by playing each legal ply in turn."""
    found: list[list[str]] = []

    def extend(moves: list[str]) -> None:
        state = start(game, step) if not moves else attempt(game, step, moves).state
        for action in state.legal_actions(step.learner):
            played = [*moves, state.action_to_string(action, step.learner)]
            result = attempt(game, step, played)
            if result.more:
                extend(played)
            elif not result.met:
                found.append(played)

    extend([])
    return found


def test_every_game_has_a_lesson_of_three_to_six_steps() -> None:
    for game in GAMES:
        found = lesson(game)
        assert isinstance(found, Lesson) and found.game == game
        assert 3 <= len(found.steps) <= 6, game


@pytest.mark.parametrize(("game", "number"), STEPS)
def test_the_stated_solution_meets_the_goal(game: str, number: int) -> None:
    step = lesson(game).step(number)
    result = attempt(game, step, solution_moves(step))
    assert result.met and not result.more, (game, number)
    assert result.message == step.success


@pytest.mark.parametrize(("game", "number"), STEPS)
def test_a_wrong_move_is_told_so(game: str, number: int) -> None:
    step = lesson(game).step(number)
    wrong = _misses(game, step)
    assert wrong, f"{game} step {number}: every legal move meets the goal"
    result = attempt(game, step, wrong[0])
    assert not result.met and result.message == step.failure


@pytest.mark.parametrize(("game", "number"), STEPS)
def test_no_step_starts_decided_and_the_learner_is_to_move(game: str, number: int) -> None:
    step = lesson(game).step(number)
    state = start(game, step)
    assert not state.is_terminal()
    assert state.current_player() in (step.learner, SIMULTANEOUS)
    assert state.legal_actions(step.learner)
    assert step.title and step.text and step.task and step.hint and step.success


def test_an_illegal_move_is_refused_with_the_games_reason() -> None:
    step = lesson("war_of_life").step(1)
    with pytest.raises(IllegalMoveError, match="occupied"):
        attempt("war_of_life", step, "[3,3,3,4]")


def test_a_ply_after_the_turn_has_passed_is_refused() -> None:
    step = lesson("blocking_queen").step(1)
    with pytest.raises(IllegalMoveError, match="turn has passed"):
        attempt("blocking_queen", step, ["0,0", "0,0"])


def test_unknown_games_and_steps_are_named() -> None:
    with pytest.raises(UnknownLesson, match="no lesson for 'chess'"):
        lesson("chess")
    with pytest.raises(UnknownLesson, match="no lesson"):
        lesson("../etc")
    with pytest.raises(UnknownLesson, match=r"expected 1\.\.5"):
        lesson("war_of_life").step(6)


def test_a_goal_of_an_unknown_kind_is_refused() -> None:
    with pytest.raises(ValueError, match="goal kind 'glory'"):
        Goal("glory")  # type: ignore[arg-type]
