"""Every shipped War of Life and Losat puzzle, re-judged by the tests' own exhaustive search
(``independent_search.py``): its solutions are exactly the solver's moves that win within
its depth, none wins sooner, and its line plays out to the solver's win."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import pytest
from independent_search import war_of_life_winning_moves, winning_first_moves

from lifearena.core import State
from lifearena.games.losat import LosatState
from lifearena.games.war_of_life import WarOfLifeState
from lifearena.puzzles import load, losat, war_of_life
from lifearena.puzzles.generate import RATING_RANGE
from lifearena.puzzles.model import Puzzle, shipped_path

MINED = {"war_of_life": war_of_life, "losat": losat}


def _line_problem(puzzle: Puzzle, state: State) -> str | None:
    """What is wrong with the puzzle's line, or ``None``: a solution first, the solver's
    moves every other move, legal all along, ending in the solver's win."""
    if not puzzle.line or puzzle.line[0] not in puzzle.solutions:
        return f"line {puzzle.line} does not start with a solution"
    after = state.clone()
    for move in puzzle.line:
        if after.is_terminal():
            return f"line {puzzle.line} goes on after the end"
        after.apply_move_text(move)
    outcome = after.outcome()
    if outcome is None or outcome.winner != puzzle.solver:
        return f"line {puzzle.line} ends in {outcome}"
    if len(puzzle.line) > 2 * puzzle.depth - 1:
        return f"line {puzzle.line} is longer than a win in {puzzle.depth}"
    return None


def _problems(puzzles: Sequence[Puzzle], judge) -> list[str]:  # type: ignore[no-untyped-def]
    problems = []
    for puzzle in puzzles:
        state = puzzle.position()
        if state.current_player() != puzzle.solver:
            problems.append(f"{puzzle.id}: the solver is not to move")
            continue
        found = judge(state, puzzle.solver, puzzle.depth)
        sooner = judge(state, puzzle.solver, puzzle.depth - 1) if puzzle.depth > 1 else []
        if found != list(puzzle.solutions):
            problems.append(f"{puzzle.id}: wins {found}, not {list(puzzle.solutions)}")
        elif sooner:
            problems.append(f"{puzzle.id}: won sooner by {sooner}")
        elif (problem := _line_problem(puzzle, state)) is not None:
            problems.append(f"{puzzle.id}: {problem}")
    return problems


def _war_of_life_judge(state: State, solver: int, depth: int) -> list[str]:
    assert isinstance(state, WarOfLifeState)
    return war_of_life_winning_moves(state.board, solver, state.moves_played, depth)


def _losat_last_moves(state: State, solver: int, actions: Sequence[int]) -> list[int]:
    """The solver's last move can win only by making a stone of its colour: adding one, or
    capturing (a removal makes none, and a stone of the other colour wins nothing for the
    solver). So only additions of its colour and captures are tried there."""
    own = "+" + "bw"[solver]
    return [a for a in actions
            if state.action_to_string(a, solver).startswith((own, "x"))]


def _losat_judge(state: State, solver: int, depth: int) -> list[str]:
    assert isinstance(state, LosatState)
    return winning_first_moves(state, solver, depth, _losat_last_moves)


def test_every_war_of_life_puzzle_is_exactly_its_solutions() -> None:
    puzzles = load("war_of_life")
    assert len(puzzles) >= 500
    assert not _problems(puzzles, _war_of_life_judge)


def test_war_of_life_mask_search_agrees_with_the_plain_protocol_search() -> None:
    # the tests' fast War of Life search is itself checked against plain recursion over the
    # State protocol, on a spread of the shipped puzzles (every 50th)
    puzzles = load("war_of_life")[::50]
    for puzzle in puzzles:
        state = puzzle.position()
        assert (winning_first_moves(state, puzzle.solver, puzzle.depth)
                == _war_of_life_judge(state, puzzle.solver, puzzle.depth)), puzzle.id


def test_every_losat_puzzle_is_exactly_its_solutions() -> None:
    puzzles = load("losat")
    assert len(puzzles) >= 500
    assert not _problems(puzzles, _losat_judge)


def test_losat_pruned_search_agrees_with_the_unpruned_one() -> None:
    for puzzle in load("losat")[::100]:
        state = puzzle.position()
        assert (winning_first_moves(state, puzzle.solver, puzzle.depth)
                == _losat_judge(state, puzzle.solver, puzzle.depth)), puzzle.id


@pytest.mark.parametrize("game", sorted(MINED))
def test_shipped_files_are_small_and_well_formed(game: str) -> None:
    puzzles = load(game)
    assert shipped_path(game).stat().st_size < 300_000
    assert len({p.id for p in puzzles}) == len(puzzles)
    assert len({(p.source.setup, tuple(p.source.moves[:p.ply])) for p in puzzles}) \
        == len(puzzles)
    low, high = RATING_RANGE
    for puzzle in puzzles:
        assert puzzle.game == game and puzzle.theme in MINED[game].THEMES
        assert len(puzzle.solutions) == 1
        assert low <= puzzle.rating <= high
        assert puzzle.theme.endswith(f"-in-{puzzle.depth}")


@pytest.mark.parametrize("game", sorted(MINED))
def test_the_checks_catch_a_wrong_puzzle(game: str) -> None:
    judge = {"war_of_life": _war_of_life_judge, "losat": _losat_judge}[game]
    good = next(p for p in load(game) if p.depth == 2)
    state = good.position()
    other = next(state.action_to_string(a, good.solver)
                 for a in state.legal_actions(good.solver)
                 if state.action_to_string(a, good.solver) not in good.solutions)
    wrong = [replace(good, solutions=(other,)),
             replace(good, solutions=(*good.solutions, other)),
             replace(good, depth=3),
             replace(good, line=good.line[:1]),
             replace(good, solver=1 - good.solver)]
    assert not _problems([good], judge)
    assert all(_problems([puzzle], judge) for puzzle in wrong)
