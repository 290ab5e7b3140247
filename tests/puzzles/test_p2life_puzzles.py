"""p2life's puzzles: every shipped puzzle re-judged by enumerating both sides' moves and
every outcome of every coin with a p2life step written here from the rules (no package
search, no package kernel), the miner finding a planted win, and the coin-proof searcher
against the package's exhaustive search, which follows the game's own coin."""

from __future__ import annotations

from itertools import product

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lifearena.core import Record
from lifearena.errors import BadParameterError
from lifearena.games.p2life import P2LifeState
from lifearena.games.p2life.notation import format_position
from lifearena.puzzles import load
from lifearena.puzzles import p2life as miner
from lifearena.puzzles.search import ExhaustiveSearch

BOTH = -1
"""A cell the coin decides."""


def counts(boards: np.ndarray, torus: bool) -> tuple[np.ndarray, np.ndarray]:
    """Each cell's white and black neighbours on a batch ``(n, h, w)``."""
    h, w = boards.shape[1:]
    found = []
    for colour in (1, 2):
        live = (boards == colour).astype(int)
        if torus:
            total = sum(np.roll(live, (dy, dx), axis=(1, 2))
                        for dy, dx in product((-1, 0, 1), repeat=2) if dy or dx)
        else:
            padded = np.pad(live, ((0, 0), (1, 1), (1, 1)))
            total = sum(padded[:, 1 + dy:1 + dy + h, 1 + dx:1 + dx + w]
                        for dy, dx in product((-1, 0, 1), repeat=2) if dy or dx)
        found.append(np.asarray(total))
    return found[0], found[1]


def generation(boards: np.ndarray, torus: bool) -> np.ndarray:
    """p2life from the rules' words, on a batch: white is born with three white neighbours
    and not three black (black alike), a coin (:data:`BOTH`) when both are three; a token
    lives on with 2 or 3 more own neighbours than the other colour's, or 1 more with at
    least 2 own."""
    white, black = counts(boards, torus)
    births = np.where((white == 3) & (black == 3), BOTH,
                      np.where(white == 3, 1, np.where(black == 3, 2, 0)))
    own = np.where(boards == 1, white, black)
    lead = own - np.where(boards == 1, black, white)
    lives = (lead == 2) | (lead == 3) | ((lead == 1) & (own >= 2))
    return np.where(boards == 0, births, np.where(lives, boards, 0))


def moves(board: np.ndarray, player: int) -> list[str]:
    h, w = board.shape
    cells = [(x + 1, y + 1) for y in range(h) for x in range(w)]
    return (["pass"] + [f"+{x},{y}" for x, y in cells if board[y - 1, x - 1] == 0]
            + [f"-{x},{y}" for x, y in cells if board[y - 1, x - 1] == player + 1])


def cell(move: str) -> tuple[int, int]:
    x, y = map(int, move[1:].split(","))
    return y - 1, x - 1


def played(board: np.ndarray, solver: int, mine: str, replies: list[str]) -> np.ndarray:
    """The boards after the solver's move and each of the opponent's ``replies`` (a cell
    both place on stays empty)."""
    base = board.copy()
    if mine != "pass":
        base[cell(mine)] = solver + 1 if mine[0] == "+" else 0
    out = np.repeat(base[None], len(replies), 0)
    for k, reply in enumerate(replies):
        if reply == "pass":
            continue
        clash = reply[0] == "+" and reply == mine
        out[k][cell(reply)] = 2 - solver if reply[0] == "+" and not clash else 0
    return out


def coin_proof_wins(state: P2LifeState, solver: int) -> list[str]:
    """The solver's moves after which, whatever the opponent does and whatever every coin
    does, the generation leaves the opponent no token (and the solver some), or at the
    generation limit fewer tokens than the solver."""
    board = np.asarray(state.board)
    torus = bool(state.params["torus"])
    limit = state.generation + 1 >= state.params["max_generations"]
    replies = moves(board, 1 - solver)
    found = []
    for mine in moves(board, solver):
        after = generation(played(board, solver, mine, replies), torus)
        own = (after == solver + 1).sum(axis=(1, 2))
        other = (after == 2 - solver).sum(axis=(1, 2))
        coins = (after == BOTH).sum(axis=(1, 2))
        # the outcome only counts tokens: every way the coins can split between the sides
        sure = all((other[k] + coins[k] - given == 0 < own[k] + given)
                   or (limit and own[k] + given > other[k] + coins[k] - given)
                   for k in range(len(replies)) for given in range(int(coins[k]) + 1))
        if sure:
            found.append(mine)
    return found


def test_the_reference_step_is_the_games_where_no_coin_falls() -> None:
    rng = np.random.default_rng(2)
    checked = 0
    for _ in range(30):
        board = ((rng.random((5, 6)) < 0.45) * rng.integers(1, 3, (5, 6))).astype(np.int8)
        torus = bool(rng.integers(2))
        state = P2LifeState(board, torus=torus)
        mine = generation(board[None], torus)[0]
        if state.is_terminal() or (mine == BOTH).any():
            continue
        state.apply_actions([0, 0])
        assert (np.asarray(state.board) == mine).all()
        checked += 1
    assert checked > 10


SHIPPED = load("p2life")


def test_puzzles_ship() -> None:
    assert len(SHIPPED) >= 500
    assert len({p.id for p in SHIPPED}) == len(SHIPPED)
    assert {p.theme for p in SHIPPED} <= set(miner.THEMES)


def test_every_shipped_puzzle_is_exactly_its_coin_proof_wins() -> None:
    for puzzle in SHIPPED:
        state = puzzle.position()
        assert isinstance(state, P2LifeState)
        assert list(puzzle.solutions) == coin_proof_wins(state, puzzle.solver), puzzle.id
        assert puzzle.line == puzzle.solutions[:1] and puzzle.depth == 1
        assert len(puzzle.solutions) <= miner.MAX_SOLUTIONS


MOTIFS = (("...../...../b...w/b...w/..b.. 0:0", 1, "+2,4"),
          ("...../...b./....b/wwb../..... 0:0", 1, "+4,3"))
"""Positions on a bounded 5x5 board before its only generation, with one coin-proof win."""


@settings(max_examples=12, deadline=None)
@given(st.sampled_from(MOTIFS), st.integers(0, 3), st.booleans(), st.booleans())
def test_mine_finds_a_planted_win(motif: tuple[str, int, str], turns: int, flip: bool,
                                  swap: bool) -> None:
    """A winning position turned, mirrored and its colours swapped at random: the rules
    treat the square's symmetries and the two colours alike, so the win moves with them."""
    setup, solver, answer = motif
    board = np.asarray(P2LifeState.from_setup(setup).board)
    x, y = map(int, answer[1:].split(","))
    marked = np.zeros_like(board)
    marked[y - 1, x - 1] = 1
    board, marked = np.rot90(board, turns), np.rot90(marked, turns)
    if flip:
        board, marked = np.fliplr(board), np.fliplr(marked)
    if swap:
        board, solver = np.array([0, 2, 1], np.int8)[board], 1 - solver
    (y, x), = np.argwhere(marked)
    params = {"seed": 1, "torus": False, "max_generations": 1, "moves": 1}
    record = Record("p2life", params, format_position(board, 0, 0), ["a", "b"], [])
    state = P2LifeState.from_setup(record.setup, **params)
    assert coin_proof_wins(state, solver) == [f"+{x + 1},{y + 1}"]
    found = [p.solutions for p in miner.mine(record) if p.solver == solver]
    assert found == [(f"+{x + 1},{y + 1}",)]


@st.composite
def small_positions(draw: st.DrawFn) -> tuple[P2LifeState, int]:
    h, w = draw(st.integers(3, 4)), draw(st.integers(3, 4))
    cells = draw(st.lists(st.sampled_from((0, 0, 1, 2)), min_size=h * w, max_size=h * w))
    board = np.array(cells, np.int8).reshape(h, w)
    state = P2LifeState(board, generation=0, seed=draw(st.integers(0, 5)),
                        torus=draw(st.booleans()), max_generations=draw(st.integers(1, 3)))
    return state, draw(st.integers(0, 1))


@settings(max_examples=25, deadline=None)
@given(small_positions())
def test_the_searcher_is_the_coin_proof_part_of_the_exhaustive_search(
        case: tuple[P2LifeState, int]) -> None:
    state, solver = case
    if state.is_terminal():
        return
    coin_proof = miner.SEARCHER.winning_moves(state, solver, 1)
    assert coin_proof == coin_proof_wins(state, solver)
    seeded = ExhaustiveSearch().winning_moves(state, solver, 1)
    assert set(coin_proof) <= set(seeded)
    board = np.asarray(state.board)
    torus = bool(state.params["torus"])
    replies = moves(board, 1 - solver)
    if not any((generation(played(board, solver, mine, replies), torus) == BOTH).any()
               for mine in moves(board, solver)):
        assert coin_proof == seeded


def test_the_defence_leaves_the_opponent_most_tokens() -> None:
    setup, solver, answer = MOTIFS[0]
    state = P2LifeState.from_setup(setup, seed=1, torus=False, max_generations=1)
    reply = miner.SEARCHER.defence(state, solver, 1)
    board = np.asarray(state.board)
    replies = moves(board, 1 - solver)
    after = generation(played(board, solver, answer, replies), False)
    theirs = ((after == 2 - solver) | (after == BOTH)).sum(axis=(1, 2))
    assert theirs[replies.index(reply)] == theirs.max()


def test_the_searcher_asks_for_a_seat() -> None:
    state = P2LifeState.from_setup(MOTIFS[0][0])
    with pytest.raises(BadParameterError, match="solver -2; expected the seat"):
        miner.SEARCHER.defence(state, state.current_player(), 1)
