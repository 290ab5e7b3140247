"""Life for Two's puzzles: every shipped puzzle re-judged by enumerating both sides'
placements with an Immigration step written here from the rules (no package search, no
package kernel), the miner finding a planted sure win, and the batched searcher agreeing
with the package's exhaustive search."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from lifearena.core import Record, replay
from lifearena.errors import BadParameterError
from lifearena.games.life_for_two import LifeForTwoState, format_position, parse_cell
from lifearena.puzzles import life_for_two as miner
from lifearena.puzzles import load
from lifearena.puzzles.search import ExhaustiveSearch

SIZE = 5


def generation(boards: np.ndarray) -> np.ndarray:
    """Immigration on a batch ``(n, 5, 5)``: a piece with 2 or 3 neighbours of any colour
    lives on, an empty cell with exactly 3 is born with the colour most of them have."""
    # one sum counts both colours: a piece of colour 1 adds 1, of colour 2 adds 16
    weights = np.array([0, 1, 16], np.int16)[boards]
    padded = np.pad(weights, ((0, 0), (1, 1), (1, 1)))
    both = sum(padded[:, 1 + dy:1 + dy + SIZE, 1 + dx:1 + dx + SIZE]
               for dy in (-1, 0, 1) for dx in (-1, 0, 1) if dy or dx)
    ones, twos = both & 15, both >> 4
    total = ones + twos
    born = np.where(ones >= 2, 1, 2)
    return np.where(boards > 0, np.where((total == 2) | (total == 3), boards, 0),
                    np.where(total == 3, born, 0)).astype(np.int8)


def placements(board: np.ndarray, solver: int) -> tuple[list[int], np.ndarray]:
    """The empty cells, and every joint placement on them, solver's i and opponent's j at
    ``[i, j]`` (a cell both choose stays empty), after the generation."""
    empty = np.flatnonzero(board.reshape(-1) == 0)
    cells = [int(c) for c in empty]
    out = np.repeat(board.reshape(1, 1, -1), len(cells), 0).repeat(len(cells), 1)
    mine, theirs = np.meshgrid(np.arange(len(cells)), np.arange(len(cells)), indexing="ij")
    apart = mine != theirs
    out[mine[apart], theirs[apart], empty[mine[apart]]] = solver + 1
    out[mine[apart], theirs[apart], empty[theirs[apart]]] = 2 - solver
    after = generation(out.reshape(-1, SIZE, SIZE)).reshape(len(cells), len(cells), -1)
    return cells, after


def judged(after: np.ndarray, solver: int, turn: int, max_turns: int | None,
           limit_result: str) -> tuple[np.ndarray, np.ndarray]:
    """(the solver has won, the game is over) for boards after turn ``turn``."""
    own = (after == solver + 1).sum(-1)
    other = (after == 2 - solver).sum(-1)
    over = (own == 0) | (other == 0)
    won = (other == 0) & (own > 0)
    if max_turns is not None and turn >= max_turns:
        over = np.ones_like(over)
        if limit_result == "population":
            won = won | ((own > other) & (own > 0) & (other > 0))
    return won, over


def sure_wins(board: np.ndarray, solver: int, turn: int, max_turns: int | None,
              limit_result: str, depth: int) -> list[int]:
    """The cells whose placement wins within ``depth`` turns whatever the opponent places."""
    cells, after = placements(board, solver)
    won, over = judged(after, solver, turn, max_turns, limit_result)
    found = []
    for i, cell in enumerate(cells):
        if depth == 1:
            if won[i].all():
                found.append(cell)
            continue
        if (over[i] & ~won[i]).any():
            continue
        if all(won[i, j] or sure_wins(after[i, j].reshape(SIZE, SIZE), solver, turn + 1,
                                      max_turns, limit_result, depth - 1)
               for j in range(len(cells))):
            found.append(cell)
    return found


def cell_text(cell: int) -> str:
    return f"{cell % SIZE + 1},{cell // SIZE + 1}"


def test_the_reference_step_is_the_games() -> None:
    rng = np.random.default_rng(4)
    for _ in range(20):
        board = (rng.random((SIZE, SIZE)) < 0.4) * rng.integers(1, 3, (SIZE, SIZE))
        state = LifeForTwoState(board.astype(np.int8), turn=2)
        if state.is_terminal():
            continue
        empty = np.flatnonzero(board.reshape(-1) == 0)
        mine, theirs = int(empty[0]), int(empty[-1])
        cells, after = placements(board, 0)
        state.apply_actions([mine, theirs])
        expected = after[cells.index(mine), cells.index(theirs)].reshape(SIZE, SIZE)
        assert (np.asarray(state.board) == expected).all()


SHIPPED = load("life_for_two")


def test_at_least_500_puzzles_ship() -> None:
    assert len(SHIPPED) >= 500
    assert len({p.id for p in SHIPPED}) == len(SHIPPED)
    assert {p.theme for p in SHIPPED} <= set(miner.THEMES)


def test_every_shipped_puzzle_is_exactly_its_sure_wins_and_its_line_wins() -> None:
    for puzzle in SHIPPED:
        state = puzzle.position()
        assert isinstance(state, LifeForTwoState) and not state.first_turn
        rules = (state.params["max_turns"], state.params["limit_result"])
        board = np.asarray(state.board)
        solutions = [cell_text(c) for c in sure_wins(board, puzzle.solver, state.turn, *rules,
                                                      puzzle.depth)]
        assert list(puzzle.solutions) == solutions, puzzle.id
        if puzzle.depth == 2:
            assert not sure_wins(board, puzzle.solver, state.turn, *rules, 1), puzzle.id
        assert len(puzzle.line) == puzzle.depth and puzzle.line[0] == puzzle.solutions[0]
        if puzzle.depth == 2:
            child, turn = revealed(board, puzzle.solver, parse_cell(puzzle.line[0]),
                                   state.turn, *rules), state.turn + 1
            assert parse_cell(puzzle.line[1]) in sure_wins(child, puzzle.solver, turn, *rules,
                                                           1), puzzle.id


def revealed(board: np.ndarray, solver: int, cell: int, turn: int, max_turns: int | None,
             limit_result: str) -> np.ndarray:
    """The board after the solver places on ``cell`` and the opponent replies as a page
    reveals: the reply that delays the loss longest, then leaves the opponent most pieces,
    then the solver fewest (the first such cell)."""
    cells, after = placements(board, solver)
    row = after[cells.index(cell)]
    _, over = judged(row, solver, turn, max_turns, limit_result)
    keys = [(not over[j], int((row[j] == 2 - solver).sum()), -int((row[j] == solver + 1).sum()))
            for j in range(len(cells))]
    chosen: np.ndarray = row[max(range(len(keys)), key=keys.__getitem__)]
    return chosen.reshape(SIZE, SIZE)


@st.composite
def last_turns(draw: st.DrawFn) -> tuple[np.ndarray, int, int]:
    """A sparse board on the last turn of a game decided by population, and a seat."""
    cells = draw(st.lists(st.tuples(st.integers(0, SIZE * SIZE - 1), st.integers(1, 2)),
                          min_size=2, max_size=7, unique_by=lambda c: c[0]))
    board = np.zeros(SIZE * SIZE, np.int8)
    for cell, colour in cells:
        board[cell] = colour
    assume((board == 1).any() and (board == 2).any())
    turn = draw(st.integers(2, 6))
    return board.reshape(SIZE, SIZE), turn, draw(st.integers(0, 1))


MOTIFS = (("...../...../..*.*/...../...#. 3", 0, "4,3"),
          ("..#*./...#./.*.../...../..... 3", 1, "5,2"),
          ("*..../...*#/*...#/...../..... 3", 1, "5,1"))
"""Last turns (of a game of 3 turns decided by population) with one sure win each."""


@settings(max_examples=15, deadline=None)
@given(st.sampled_from(MOTIFS), st.integers(0, 3), st.booleans(), st.booleans())
def test_mine_finds_a_planted_sure_win(motif: tuple[str, int, str], turns: int, flip: bool,
                                       swap: bool) -> None:
    """A last turn with one sure win, turned, mirrored and its colours swapped at random:
    the square's symmetries and the colours' keep the rules, so the win moves with them."""
    setup, solver, answer = motif
    board = np.asarray(LifeForTwoState.from_setup(setup).board)
    marked = np.zeros((SIZE, SIZE), np.int8)
    marked.reshape(-1)[parse_cell(answer)] = 1
    board, marked = np.rot90(board, turns), np.rot90(marked, turns)
    if flip:
        board, marked = np.fliplr(board), np.fliplr(marked)
    if swap:
        board, solver = np.array([0, 2, 1], np.int8)[board], 1 - solver
    win = int(np.flatnonzero(marked.reshape(-1))[0])
    assert sure_wins(board, solver, 3, 3, "population", 1) == [win]
    record = Record("life_for_two", {"max_turns": 3, "limit_result": "population"},
                    format_position(board, 3), ["a", "b"], [])
    found = [p.solutions for p in miner.mine(record) if p.solver == solver]
    assert found == [(cell_text(win),)]


@settings(max_examples=15, deadline=None)
@given(last_turns(), st.booleans())
def test_the_searcher_agrees_with_the_exhaustive_search(case: tuple[np.ndarray, int, int],
                                                        at_the_limit: bool) -> None:
    board, turn, solver = case
    state = LifeForTwoState(board, turn=turn, max_turns=turn if at_the_limit else None,
                            limit_result="population")
    assume(not state.is_terminal())
    assert (miner.SEARCHER.winning_moves(state, solver, 1)
            == ExhaustiveSearch().winning_moves(state, solver, 1))


def test_a_win_in_2_agrees_with_the_exhaustive_search_and_its_reply_is_revealed() -> None:
    puzzle = next(p for p in SHIPPED if p.depth == 2)
    state = puzzle.position()
    assert isinstance(state, LifeForTwoState)
    assert list(puzzle.solutions) == ExhaustiveSearch().winning_moves(state, puzzle.solver, 2)
    reply = miner.SEARCHER.defence(state, puzzle.solver, 2)
    pair = [state.string_to_action(puzzle.line[0]), state.string_to_action(reply)]
    state.apply_actions(pair if puzzle.solver == 0 else pair[::-1])
    before = puzzle.position()
    assert isinstance(before, LifeForTwoState)
    expected = revealed(np.asarray(before.board), puzzle.solver,
                        parse_cell(puzzle.line[0]), state.turn - 1,
                        state.params["max_turns"], state.params["limit_result"])
    assert (np.asarray(state.board) == expected).all()


def test_the_defence_leaves_the_opponent_most_pieces() -> None:
    record = Record("life_for_two", {"max_turns": 3, "limit_result": "population"},
                    "...../...../..*.*/...../...#. 3", ["a", "b"], [])
    state = replay(record)
    assert isinstance(state, LifeForTwoState)
    reply = miner.SEARCHER.defence(state, 0, 1)
    cells, after = placements(np.asarray(state.board), 0)
    row = after[cells.index(parse_cell("4,3"))]
    assert (row[cells.index(parse_cell(reply))] == 2).sum() == (row == 2).sum(-1).max()


def test_the_searcher_asks_for_a_seat() -> None:
    state = LifeForTwoState.from_setup("...../...../..*.*/...../...#. 3")
    with pytest.raises(BadParameterError, match="solver -2; expected the seat"):
        miner.SEARCHER.winning_moves(state, state.current_player(), 1)
