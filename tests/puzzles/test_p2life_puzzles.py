"""p2life's puzzles: every shipped puzzle re-judged by enumerating both sides' moves and
every outcome of every coin with a p2life step written here from the rules (no package
search, no package kernel), the miner finding a planted win, and the coin-proof searcher
against the package's exhaustive search, which follows the game's own coin."""

from __future__ import annotations

from itertools import product

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from lifearena.core import Record
from lifearena.games.p2life import P2LifeState
from lifearena.games.p2life.notation import format_position
from lifearena.puzzles import load
from lifearena.puzzles import p2life as miner
from lifearena.puzzles.search import ExhaustiveSearch

BOTH = -1
"""A cell the coin decides."""


def counts(board: np.ndarray, torus: bool) -> tuple[np.ndarray, np.ndarray]:
    h, w = board.shape
    found = []
    for colour in (1, 2):
        live = (board == colour).astype(int)
        total = np.zeros((h, w), int)
        for dy, dx in product((-1, 0, 1), repeat=2):
            if dy == dx == 0:
                continue
            if torus:
                total += np.roll(live, (dy, dx), axis=(0, 1))
            else:
                shifted = np.zeros((h, w), int)
                ys, xs = slice(max(dy, 0), h + min(dy, 0)), slice(max(dx, 0), w + min(dx, 0))
                yt, xt = slice(max(-dy, 0), h + min(-dy, 0)), slice(max(-dx, 0), w + min(-dx, 0))
                shifted[ys, xs] = live[yt, xt]
                total += shifted
        found.append(total)
    return found[0], found[1]


def generation(board: np.ndarray, torus: bool) -> np.ndarray:
    """p2life from the rules' words: white is born with three white neighbours and not
    three black (black alike), a coin when both are three; a token lives on when it has 2
    or 3 more own neighbours than the other colour's, or 1 more with at least 2 own."""
    white, black = counts(board, torus)
    out = np.zeros_like(board)
    for y, x in np.ndindex(board.shape):
        w, b = int(white[y, x]), int(black[y, x])
        if board[y, x] == 0:
            out[y, x] = BOTH if (w, b) == (3, 3) else 1 if w == 3 else 2 if b == 3 else 0
        else:
            own, other = (w, b) if board[y, x] == 1 else (b, w)
            lives = own - other in (2, 3) or (own - other == 1 and own >= 2)
            out[y, x] = board[y, x] if lives else 0
    return out


def moves(board: np.ndarray, player: int) -> list[str]:
    h, w = board.shape
    cells = [(x + 1, y + 1) for y in range(h) for x in range(w)]
    return (["pass"] + [f"+{x},{y}" for x, y in cells if board[y - 1, x - 1] == 0]
            + [f"-{x},{y}" for x, y in cells if board[y - 1, x - 1] == player + 1])


def played(board: np.ndarray, solver: int, mine: str, theirs: str) -> np.ndarray:
    out = board.copy()
    for move, colour, other in ((mine, solver + 1, theirs), (theirs, 2 - solver, mine)):
        if move == "pass":
            continue
        x, y = map(int, move[1:].split(","))
        if move[0] == "-":
            out[y - 1, x - 1] = 0
        elif move != other:
            out[y - 1, x - 1] = colour
    return out


def coin_proof_wins(state: P2LifeState, solver: int) -> list[str]:
    """The solver's moves after which, whatever the opponent does and whatever every coin
    does, the generation leaves the opponent no token (and the solver some), or at the
    generation limit fewer tokens than the solver."""
    board = np.asarray(state.board)
    torus = bool(state.params["torus"])
    limit = state.generation + 1 >= state.params["max_generations"]
    found = []
    for mine in moves(board, solver):
        sure = True
        for theirs in moves(board, 1 - solver):
            after = generation(played(board, solver, mine, theirs), torus)
            coins = np.argwhere(after == BOTH)
            for colours in product((1, 2), repeat=len(coins)):
                final = after.copy()
                for (y, x), colour in zip(coins, colours, strict=True):
                    final[y, x] = colour
                own = int((final == solver + 1).sum())
                other = int((final == 2 - solver).sum())
                if not ((other == 0 < own) or (limit and own > other)):
                    sure = False
                    break
            if not sure:
                break
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
        mine = generation(board, torus)
        if state.is_terminal() or (mine == BOTH).any():
            continue
        state.apply_actions([0, 0])
        assert (np.asarray(state.board) == mine).all()
        checked += 1
    assert checked > 10


SHIPPED = load("p2life")


def test_puzzles_ship() -> None:
    assert len(SHIPPED) >= 50
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
    if not any((generation(played(board, solver, a, b), torus) == BOTH).any()
               for a in moves(board, solver) for b in moves(board, 1 - solver)):
        assert coin_proof == seeded
