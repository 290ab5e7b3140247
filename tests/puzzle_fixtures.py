"""Puzzles made for the tests, their answers computed here by the plain exhaustive search
(never copied from a miner): blocking queen positions (k = 1, Wythoff's game), which are
searched in milliseconds. :func:`write_folder` writes them as a puzzles folder a test server
is pointed at (``Settings.puzzles_dir``)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from lifearena.core import Record, replay
from lifearena.puzzles.model import Puzzle, write
from lifearena.puzzles.round import main_line
from lifearena.puzzles.search import ExhaustiveSearch

QUEEN_POSITIONS = (("2,3", 1300.0), ("4,6", 1700.0), ("5,7", 1500.0), ("6,9", 1550.0))
"""Queen squares (x,y) to move from, with each puzzle's shipped rating."""


@cache
def queen_puzzle(square: str, rating: float, *, web_game: str | None = None) -> Puzzle:
    """The puzzle of the queen on ``square`` with the first player to move: the fewest
    moves that win, every first move that wins in that many, the main line."""
    extra = {} if web_game is None else {"web_game": web_game}
    source = Record("blocking_queen", {"k": 1}, square, ["alice", "bob"], [], extra=extra)
    state = replay(source)
    search = ExhaustiveSearch()
    depth = next(d for d in range(1, 6) if search.winning_moves(state, 0, d))
    solutions = tuple(search.winning_moves(state, 0, depth))
    draft = Puzzle(f"bq-{square.replace(',', '-')}", "blocking_queen", source, 0, 0,
                   solutions, (), f"wythoff-in-{depth}", depth, rating)
    line = tuple(main_line(draft, search))
    return Puzzle(draft.id, draft.game, source, 0, 0, solutions, line, draft.theme, depth,
                  rating)


def queen_puzzles() -> list[Puzzle]:
    """Every queen puzzle of :data:`QUEEN_POSITIONS`."""
    return [queen_puzzle(square, rating) for square, rating in QUEEN_POSITIONS]


def write_folder(folder: Path, puzzles: list[Puzzle] | None = None) -> Path:
    """``folder`` holding ``puzzles`` (the queen puzzles by default), one file per game."""
    folder.mkdir(parents=True, exist_ok=True)
    chosen = queen_puzzles() if puzzles is None else puzzles
    for game in sorted({p.game for p in chosen}):
        write([p for p in chosen if p.game == game], folder / f"{game}.jsonl.gz")
    return folder


WAR_POSITION = "[[[6,4],[1,5],[3,4],[3,7]],[[7,5],[8,6],[4,7]]]"
"""A War of Life position (Blue to move) that Blue wins in one move, two ways."""


@cache
def war_puzzle() -> Puzzle:
    """The War of Life puzzle of :data:`WAR_POSITION`, answered by the plain search."""
    source = Record("war_of_life", {}, WAR_POSITION, ["alice", "bob"], [])
    state = replay(source)
    solutions = tuple(ExhaustiveSearch().winning_moves(state, 0, 1))
    draft = Puzzle("wol-demo", "war_of_life", source, 0, 0, solutions, (), "wipe-out-in-1", 1,
                   1450.0)
    return Puzzle(draft.id, draft.game, source, 0, 0, solutions,
                  tuple(main_line(draft, ExhaustiveSearch())), draft.theme, 1, 1450.0)
