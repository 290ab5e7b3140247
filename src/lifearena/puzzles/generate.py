"""The puzzle generator, the same for every game: run a game's miner over source games, keep
each position once, stop at a target, and rate what it found.

A game's miner is the module ``lifearena.puzzles.<game>`` with:

* ``SEARCHER`` — its fast :class:`~lifearena.puzzles.search.Searcher` (it must agree with
  the plain :class:`~lifearena.puzzles.search.ExhaustiveSearch`);
* ``THEMES`` — ``{theme: one-line description}``;
* ``agent_games(count, seed)`` — agent-against-agent games to mine, the same for a seed;
* ``mine(record)`` — every verified puzzle among one game's positions, in ply order.

:func:`generate` runs ``mine`` over the sources in order and keeps a puzzle only if no
earlier puzzle had the same position (:func:`position_key`), so the same sources give the
same puzzles in the same order. :func:`rate` is the first rating of a puzzle (the formula is
in ``docs/puzzles.md``); :func:`puzzle_id` a puzzle's stable id. Miners call both.

>>> rate(depth=1, legal=16, decoys=0)
1120.0
>>> rate(depth=2, legal=16, decoys=3)
1590.0
>>> puzzle_id(Record("war_of_life", {}, "[[[1,1]],[[8,8]]]", [], []), 0)
'war_of_life-d86b5dce'
"""

from __future__ import annotations

import hashlib
import importlib
import math
import time
from collections.abc import Callable, Hashable, Iterable, Iterator
from dataclasses import dataclass, field
from types import ModuleType

from lifearena.core import PositionKey, Record, State
from lifearena.errors import BadParameterError
from lifearena.puzzles.model import Puzzle
from lifearena.puzzles.search import MINERS

RATING_BASE = 800.0
"""The rating of the easiest imaginable puzzle (a win in 1 with one legal move)."""
RATING_PER_DEPTH = 350.0
"""What each further move of the solver adds: seeing two moves ahead is much harder."""
RATING_PER_DOUBLING = 80.0
"""What each doubling of the solver's legal moves adds: more moves, more to look through."""
RATING_PER_DECOY = 40.0
"""What each plausible move that does not win adds (up to :data:`MAX_DECOYS` of them)."""
MAX_DECOYS = 10
RATING_RANGE = (600.0, 2800.0)
"""The ratings :func:`rate` clips to."""


def rate(depth: int, legal: int, decoys: int) -> float:
    """A puzzle's first rating (Glicko-2 scale, 1500 an average puzzle): a win in ``depth``
    of the solver's moves, with ``legal`` legal moves for the solver, of which ``decoys`` are
    plausible (they take material or look winning: each miner says what that means for its
    game) and yet do not win::

        800 + 350 (depth - 1) + 80 log2(legal) + 40 min(decoys, 10), within 600..2800

    rounded to a whole number. Players' results move it from there.
    """
    if depth < 1 or legal < 1 or decoys < 0:
        raise BadParameterError(f"rate(depth={depth}, legal={legal}, decoys={decoys}); "
                                "expected depth >= 1, legal >= 1, decoys >= 0")
    value = (RATING_BASE + RATING_PER_DEPTH * (depth - 1)
             + RATING_PER_DOUBLING * math.log2(legal)
             + RATING_PER_DECOY * min(decoys, MAX_DECOYS))
    low, high = RATING_RANGE
    return float(round(min(max(value, low), high)))


def puzzle_id(source: Record, ply: int) -> str:
    """The id of the puzzle at ``ply`` of ``source``: the game's name and a short hash of the
    game's setup, parameters and moves up to that ply (the same position of the same game
    gets the same id, whoever mines it)."""
    text = "\n".join([source.game, repr(sorted(source.params.items())), source.setup,
                      *source.moves[:ply]])
    return f"{source.game}-{hashlib.sha1(text.encode()).hexdigest()[:8]}"


def position_key(state: State) -> Hashable:
    """What makes two positions the same puzzle: the game's exact key where it has one
    (:class:`~lifearena.core.PositionKey`), else its setup string, text board and the side
    to move."""
    if isinstance(state, PositionKey):
        return (type(state).__name__, state.key())
    return (type(state).__name__, str(state), state.current_player())


def miner(game: str) -> ModuleType:
    """The miner module of ``game``; :class:`BadParameterError` naming the games that have
    one."""
    if game not in MINERS:
        raise BadParameterError(f"no puzzle miner for game {game!r}; expected one of "
                                f"{', '.join(MINERS)}")
    try:
        return importlib.import_module(f"lifearena.puzzles.{game}")
    except ModuleNotFoundError:
        raise BadParameterError(f"no puzzle miner for game {game!r} yet; expected one of "
                                f"{', '.join(available())}") from None


def available() -> list[str]:
    """The games whose miner module exists."""
    found = []
    for game in MINERS:
        try:
            importlib.import_module(f"lifearena.puzzles.{game}")
        except ModuleNotFoundError:
            continue
        found.append(game)
    return found


@dataclass
class Progress:
    """How far :func:`generate` has got: games mined, positions in them, puzzles kept,
    duplicates dropped, seconds spent."""

    games: int = 0
    positions: int = 0
    puzzles: int = 0
    duplicates: int = 0
    seconds: float = 0.0
    themes: dict[str, int] = field(default_factory=dict)

    @property
    def positions_per_second(self) -> float:
        """Positions examined a second (0 before any time has passed)."""
        return self.positions / self.seconds if self.seconds > 0 else 0.0


def generate(game: str, sources: Iterable[Record], *, target: int,
             progress: Callable[[Progress], None] | None = None,
             mine: Callable[[Record], Iterator[Puzzle]] | None = None,
             stats: Progress | None = None) -> list[Puzzle]:
    """Up to ``target`` puzzles of ``game`` mined from ``sources`` in order, each position
    once (the first puzzle of a position is kept), in the order found.

    ``mine`` is the miner's ``mine`` unless given (a benchmark passes another).
    ``progress`` is called after each source game with the running :class:`Progress`;
    ``stats``, when given, is that object (filled in as the work goes).
    """
    if target < 0:
        raise BadParameterError(f"target {target}; expected a number of puzzles >= 0")
    mine = mine or miner(game).mine
    state = stats if stats is not None else Progress()
    seen: set[Hashable] = set()
    kept: list[Puzzle] = []
    start = time.perf_counter()
    for record in sources:
        if len(kept) >= target:
            break
        if record.game != game:
            raise BadParameterError(f"a {record.game!r} game given to the {game!r} generator; "
                                    f"expected {game} games only")
        for puzzle in mine(record):
            key = position_key(puzzle.position())
            if key in seen:
                state.duplicates += 1
                continue
            seen.add(key)
            kept.append(puzzle)
            state.themes[puzzle.theme] = state.themes.get(puzzle.theme, 0) + 1
            if len(kept) >= target:
                break
        state.games += 1
        state.positions += len(record.moves) + 1
        state.puzzles = len(kept)
        state.seconds = time.perf_counter() - start
        if progress is not None:
            progress(state)
    state.seconds = time.perf_counter() - start
    return kept
