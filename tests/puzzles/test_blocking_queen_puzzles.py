"""The blocking queen game's puzzles: every shipped puzzle checked by a plain game-tree search
to the end written here (its own reading of the rules, no palace numbers), the miner finding
a planted win, and the palace searcher agreeing with the package's exhaustive search."""

from __future__ import annotations

from functools import cache

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from lifearena.core import Record, replay
from lifearena.games.blocking_queen import BlockingQueenState
from lifearena.puzzles import blocking_queen as miner
from lifearena.puzzles import load
from lifearena.puzzles.search import ExhaustiveSearch, searcher

Square = tuple[int, int]
Node = tuple[int, Square, bool, int, frozenset[Square]]
"""(k, queen, blocking, blocks left, blocked squares): a position, seen by the side to act."""


def reach(queen: Square) -> list[Square]:
    """Every square a queen on ``queen`` moves to: west, north, north-west, any distance."""
    x, y = queen
    found = []
    for dx, dy in ((1, 0), (0, 1), (1, 1)):
        step = 1
        while x - step * dx >= 0 and y - step * dy >= 0:
            found.append((x - step * dx, y - step * dy))
            step += 1
    return found


def children(node: Node) -> list[tuple[str, bool, Node | None, bool]]:
    """``(move, is a queen move, next node or None at the end, same side acts next)`` for
    every action of the side to act."""
    k, queen, blocking, left, blocked = node
    out: list[tuple[str, bool, Node | None, bool]] = []
    if not blocking:
        for square in reach(queen):
            if square in blocked:
                continue
            text = f"{square[0]},{square[1]}"
            if square == (0, 0):
                out.append((text, True, None, True))
            elif k == 1:
                out.append((text, True, (k, square, False, 0, frozenset()), False))
            else:
                out.append((text, True, (k, square, True, k - 1, frozenset()), True))
        return out
    free = [s for s in reach(queen) if s not in blocked]
    for square in free:
        now = blocked | {square}
        text = f"#{square[0]},{square[1]}"
        if len(now) == len(reach(queen)) or len(free) == 1:
            out.append((text, False, None, True))  # the opponent has no square left
        elif left == 1:
            out.append((text, False, (k, queen, False, 0, now), False))
        else:
            out.append((text, False, (k, queen, True, left - 1, now), True))
    out.append(("-", False, (k, queen, False, 0, blocked), False))
    return out


@cache
def solve(node: Node) -> tuple[bool, int]:
    """Whether the side to act wins, and the winner's queen moves to the end with the winner
    hastening and the loser delaying."""
    wins: list[int] = []
    losses: list[int] = []
    for _, queen_move, after, same in children(node):
        if after is None:
            won, turns = same, 0
        else:
            child_won, turns = solve(after)
            won = child_won == same
        (wins if won else losses).append(turns + (queen_move and won))
    return (True, min(wins)) if wins else (False, max(losses))


def node_of(state: BlockingQueenState) -> Node:
    return (state.k, state.queen, state.blocking, state.blocks_left, state.blocked)


def winning_first_moves(state: BlockingQueenState) -> list[str]:
    node = node_of(state)
    found = []
    for text, _, after, same in children(node):
        if after is None:
            if same:
                found.append(text)
        elif solve(after)[0] == same:
            found.append(text)
    return found


def test_the_reference_reads_the_rules_as_the_game_does() -> None:
    for setup, moves in (("3,3", []), ("4,2", ["1,2"]), ("4,4", ["4,1", "#0,1"])):
        state = BlockingQueenState.from_moves(setup, moves, k=3)
        legal = sorted(state.action_to_string(a) for a in state.legal_actions())
        assert legal == sorted(text for text, *_ in children(node_of(state)))


SHIPPED = load("blocking_queen")


def test_at_least_500_puzzles_ship_on_boards_the_reference_solves() -> None:
    assert len(SHIPPED) >= 500
    assert len({p.id for p in SHIPPED}) == len(SHIPPED)
    assert all(max(p.position().queen) < 24 and p.position().k <= 3  # type: ignore[attr-defined]
               for p in SHIPPED)


def test_every_shipped_puzzle_has_exactly_its_solutions_depth_and_line() -> None:
    for puzzle in SHIPPED:
        state = puzzle.position()
        assert isinstance(state, BlockingQueenState)
        assert state.current_player() == puzzle.solver, puzzle.id
        assert list(puzzle.solutions) == winning_first_moves(state), puzzle.id
        assert puzzle.theme in miner.THEMES
        _, turns = solve(node_of(state))
        assert puzzle.depth == turns + state.blocking, puzzle.id
        played = state.clone()
        for text in puzzle.line:
            played.apply_move_text(text)
        assert puzzle.line[0] == puzzle.solutions[0]
        outcome = played.outcome()
        assert outcome is not None and outcome.winner == puzzle.solver, puzzle.id


def test_the_line_is_the_winners_quickest_and_the_losers_longest() -> None:
    for puzzle in SHIPPED[::5]:
        played = puzzle.position()
        assert isinstance(played, BlockingQueenState)
        for text in puzzle.line:
            scored = {}
            for move, queen_move, after, same in children(node_of(played)):
                won, turns = (same, 0) if after is None else solve(after)
                won = won == same if after is not None else won
                scored[move] = (won, turns + (queen_move and won))
            if any(won for won, _ in scored.values()):
                assert scored[text] == (True, min(t for w, t in scored.values() if w)), puzzle.id
            else:
                assert scored[text][1] == max(t for _, t in scored.values()), puzzle.id
            played.apply_move_text(text)


@st.composite
def planted(draw: st.DrawFn) -> tuple[Record, str]:
    """A game where player 0 moves the queen and blocks all but one of player 1's winning
    replies: player 1 then has exactly one winning move."""
    k = draw(st.integers(1, 3))
    x, y = draw(st.integers(1, 9)), draw(st.integers(1, 9))
    queen = draw(st.sampled_from(reach((x, y))))
    assume(queen != (0, 0))
    before = BlockingQueenState.from_moves(f"{x},{y}", [f"{queen[0]},{queen[1]}"], k=k)
    replies = winning_first_moves(BlockingQueenState(*queen, k=k))
    assume(1 <= len(replies) <= k)
    keep = draw(st.sampled_from(replies))
    moves = [f"{queen[0]},{queen[1]}"]
    for reply in replies:
        if reply != keep and not before.is_terminal() and before.blocking:
            moves.append("#" + reply)
            before.apply_move_text("#" + reply)
    if k > 1 and before.blocking:
        moves.append("-")
    return Record("blocking_queen", {"k": k}, f"{x},{y}", ["a", "b"], moves), keep


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(planted())
def test_mine_finds_a_planted_single_winning_move(case: tuple[Record, str]) -> None:
    record, keep = case
    found = {p.ply: p for p in miner.mine(record)}
    ply = len(record.moves)
    assert ply in found
    assert found[ply].solutions == (keep,)
    assert found[ply].solver == 1


@st.composite
def small_positions(draw: st.DrawFn) -> BlockingQueenState:
    k = draw(st.integers(1, 3))
    x, y = draw(st.integers(0, 3)), draw(st.integers(0, 3))
    assume((x, y) != (0, 0))
    state = BlockingQueenState(x, y, k=k)
    for _ in range(draw(st.integers(0, 4))):
        if state.is_terminal():
            break
        state.apply_action(draw(st.sampled_from(state.legal_actions())))
    return state


@settings(max_examples=40, deadline=None)
@given(small_positions())
def test_the_palace_searcher_agrees_with_the_exhaustive_search_to_the_end(
        state: BlockingQueenState) -> None:
    if state.is_terminal():
        return
    solver = state.current_player()
    to_end = state.k * (sum(state.queen) + 1)
    assert (searcher("blocking_queen").winning_moves(state, solver, 1)
            == ExhaustiveSearch().winning_moves(state, solver, to_end))


def test_every_block_phase_near_the_origin_agrees_with_the_exhaustive_search() -> None:
    """k = 3 after each first queen move from the 4x4 corner: no palace left to block, some
    left with blocks to spare (any block wins, ``-`` loses), as many as the blocks, more."""
    search = ExhaustiveSearch()
    for x in range(4):
        for y in range(4):
            for queen in reach((x, y)):
                if queen == (0, 0):
                    continue
                state = BlockingQueenState.from_moves(f"{x},{y}", [f"{queen[0]},{queen[1]}"], k=3)
                assert (miner.SEARCHER.winning_moves(state, 0, 1)
                        == search.winning_moves(state, 0, 3 * (x + y + 1))), state


def test_the_defence_holds_out_longest() -> None:
    state = replay(Record("blocking_queen", {"k": 2}, "9,9", ["a", "b"], ["2,2", "#0,0"]))
    assert isinstance(state, BlockingQueenState)
    reply = miner.SEARCHER.defence(state, 0, 1)
    holdouts = {move: solve(after)[1] for move, _, after, _ in children(node_of(state))
                if after is not None}
    assert holdouts[reply] == max(holdouts.values())
    with pytest.raises(ValueError, match="no move"):
        miner.SEARCHER.defence(state, 1, 1)
