"""Puzzles of the blocking queen game: the one move, or the one block, that wins.

The game is solved by its palace numbers (:mod:`lifearena.games.blocking_queen.palace`): a
*palace* is a square where whoever moves the queen there wins, because fewer than k palaces
are in reach from it and the mover blocks them all. So here **"wins" means "reaches a
position lost for the opponent by the palace numbers"**, however many turns the rest of the
game then takes (it can be long, and a turn is several plies: a queen move and up to k - 1
blocks). :data:`SEARCHER` answers exactly that from the palace numbers, for any ``depth`` of
at least 1; the plain :class:`~lifearena.puzzles.search.ExhaustiveSearch` agrees with it when
its depth reaches the end of the game (small boards, tested).

A puzzle is a position of a real game where **exactly one** action of the side to act wins:

* ``winning-move``: the one queen move to a palace;
* ``winning-block``: the queen stands on a palace, one block is left and one palace is in
  the opponent's reach: block it;
* ``last-move``: the one winning action ends the game at once (the queen to the origin, or
  the block of the opponent's last square).

A puzzle's ``depth`` is the number of the solver's turns to the end with perfect play, the
winner hastening and the loser delaying (:func:`turns_to_end`; the current turn counts);
``line`` is that play to the end, every ply of both sides. Its first rating
(:func:`lifearena.puzzles.generate.rate`) counts at most :data:`RATED_TURNS` turns (past
those one knows the palaces or not) and, as decoys, the wrong actions onto squares whose
palace number is exactly k, the near-palaces where one of the opponent's palaces stays
unblocked.

>>> from lifearena.core import Record
>>> record = Record("blocking_queen", {"k": 2}, "3,3", ["a", "b"], ["3,1", "-"])
>>> for puzzle in mine(record):
...     print(puzzle.ply, puzzle.solutions, puzzle.theme, puzzle.depth, puzzle.line)
1 ('#0,1',) winning-block 2 ('#0,1', '2,0', '#1,0', '0,0')
2 ('0,1',) winning-move 1 ('0,1', '#0,0')
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

import numpy as np

from lifearena.agents import make
from lifearena.arena.referee import play_game
from lifearena.core import Action, Record, State, replay_positions
from lifearena.errors import BadParameterError
from lifearena.games.blocking_queen import (
    BLOCK_BASE,
    DONE,
    SIDE,
    BlockingQueenState,
    index_square,
    options,
    square_index,
)
from lifearena.games.blocking_queen.palace import palace_numbers
from lifearena.puzzles.generate import puzzle_id, rate
from lifearena.puzzles.model import Puzzle

Square = tuple[int, int]

THEMES: dict[str, str] = {
    "winning-move": "Move the queen to the one square that wins: the only palace in reach.",
    "winning-block": "One block left and one palace in the opponent's reach: block it.",
    "last-move": "One move ends the game now: the queen to the origin, or the block of the "
                 "opponent's last square.",
}

RATED_TURNS = 2
"""The most turns a queen puzzle's rating counts."""

GAME_PLAN: tuple[tuple[int, int, float], ...] = ((1, 24, 0.2), (2, 18, 0.45), (3, 12, 0.35))
"""``(k, start region, share of the games)`` of :func:`agent_games`: small boards, so that
an exhaustive search to the end checks every puzzle in the tests."""

PAIRINGS: tuple[tuple[str, str], ...] = (
    ("perfect", "random"), ("random", "perfect"), ("greedy", "random"),
    ("random", "greedy"), ("perfect", "greedy"), ("greedy", "perfect"),
    ("random", "random"), ("greedy", "greedy"))
"""The agents of :func:`agent_games` (seat 0, seat 1): the perfect player loses only from a
lost start, so it meets weaker players that hand it winning positions and take them back."""


# -- the palace numbers, and how long a won game lasts --------------------------------------

@cache
def _numbers(k: int) -> np.ndarray:
    table = palace_numbers(k, SIDE, SIDE)
    table.setflags(write=False)
    return table


def palace_number(k: int, square: Square) -> int:
    """How many palaces a queen on ``square`` sees (``n[y, x]``)."""
    return int(_numbers(k)[square[1], square[0]])


def is_palace(k: int, square: Square) -> bool:
    """Whether moving the queen to ``square`` wins (its palace number is below k).

    >>> [s for s in options(3, 4) if is_palace(1, s)]
    [(1, 2)]
    """
    return palace_number(k, square) < k


@cache
def after_palace(k: int, square: Square) -> int:
    """The winner's turns still to come after moving the queen to the palace ``square`` and
    blocking well: every palace in reach, then the loser's longest holdouts (0 when the
    turn's blocks leave the loser no move, or the queen is on the origin)."""
    return _after_blocks(k, square, set(), k - 1)


def _after_blocks(k: int, square: Square, blocked: set[Square], budget: int) -> int:
    free = [s for s in options(*square) if s not in blocked]
    palaces = sum(1 for s in free if is_palace(k, s))
    holdouts = sorted((holdout(k, s) for s in free if not is_palace(k, s)), reverse=True)
    spare = budget - palaces
    if spare < 0:
        raise BadParameterError(f"queen on {square[0]},{square[1]}: {palaces} palaces in the "
                                f"opponent's reach and {budget} blocks; not a won position")
    return holdouts[spare] if len(holdouts) > spare else 0


@cache
def holdout(k: int, square: Square) -> int:
    """The winner's turns to the end after the loser moved the queen to ``square`` (not a
    palace) and blocked the k - 1 palaces in reach that win quickest: 1 + the k-th smallest
    :func:`after_palace` among the palaces in reach."""
    quickest = sorted(after_palace(k, s) for s in options(*square) if is_palace(k, s))
    return 1 + quickest[k - 1]


# -- one position ----------------------------------------------------------------------------

def _as_queen(state: State) -> BlockingQueenState:
    if not isinstance(state, BlockingQueenState):
        raise BadParameterError(f"a blocking queen position expected; got {state.info.name!r}")
    return state


def _square(action: Action) -> Square | None:
    if action == DONE:
        return None
    return index_square(action - BLOCK_BASE if action >= BLOCK_BASE else action)


def _reach(state: BlockingQueenState) -> tuple[list[Square], list[Square]]:
    """The squares the opponent of the blocking mover could reach: palaces, and the rest."""
    free = [s for s in options(*state.queen) if s not in state.blocked]
    return ([s for s in free if is_palace(state.k, s)],
            [s for s in free if not is_palace(state.k, s)])


def winning_actions(state: State) -> list[Action]:
    """The actions of the side to act that reach a position lost for the opponent (in
    ``legal_actions`` order; none at the end or in a lost position)."""
    game = _as_queen(state)
    if game.is_terminal():
        return []
    legal = game.legal_actions()
    if not game.blocking:
        return [a for a in legal if is_palace(game.k, index_square(a))]
    palaces, _ = _reach(game)
    left = game.blocks_left
    if len(palaces) > left:
        return []
    if not palaces:
        return legal
    if len(palaces) < left:
        return [a for a in legal if a != DONE]
    return [a for a in legal if _square(a) in palaces]


def turns_to_end(state: State) -> int:
    """The turns of the side to act until it has won, with perfect play on both sides (the
    current turn counts; :class:`BadParameterError` in a lost position)."""
    game = _as_queen(state)
    if not game.blocking:
        palaces = [s for s in game.queen_moves() if is_palace(game.k, s)]
        if not palaces:
            raise BadParameterError(f"{game!r} is lost for the side to move")
        return 1 + min(after_palace(game.k, s) for s in palaces)
    return 1 + _after_blocks(game.k, game.queen, set(game.blocked), game.blocks_left)


def best_action(state: State) -> Action:
    """The winner's quickest action: the palace that ends soonest; then blocks of every
    palace in the opponent's reach, then of its longest holdouts."""
    game = _as_queen(state)
    legal = game.legal_actions()
    if not game.blocking:
        wins = winning_actions(game)
        return min(wins, key=lambda a: after_palace(game.k, index_square(a)))
    palaces, others = _reach(game)
    if palaces:
        return BLOCK_BASE + square_index(*palaces[0])
    if others:
        longest = max(others, key=lambda s: holdout(game.k, s))
        return BLOCK_BASE + square_index(*longest)
    return legal[-1]


def longest_defence(state: State) -> Action:
    """The loser's longest resistance: the queen to the square that holds out longest; then
    blocks of the palaces in the winner's reach that would end the game soonest, then ``-``."""
    game = _as_queen(state)
    legal = game.legal_actions()
    if not game.blocking:
        return max(legal, key=lambda a: holdout(game.k, index_square(a)))
    palaces, _ = _reach(game)
    if not palaces:
        return DONE
    return BLOCK_BASE + square_index(*min(palaces, key=lambda s: after_palace(game.k, s)))


class PalaceSearch:
    """The :class:`~lifearena.puzzles.search.Searcher` of the queen game, exact from the
    palace numbers: "wins" is "reaches a position lost for the opponent", whatever
    ``depth`` (at least 1) says (see the module docstring)."""

    def winning_moves(self, state: State, solver: int, depth: int) -> list[str]:
        if depth <= 0 or state.is_terminal() or state.current_player() != solver:
            return []
        return [state.action_to_string(a) for a in winning_actions(state)]

    def defence(self, state: State, solver: int, depth: int) -> str:
        if state.is_terminal() or state.current_player() != 1 - solver:
            raise ValueError("the other side has no move here")
        if winning_actions(state):
            # not lost for the other side: no defence to choose, the first reply is shown
            return state.action_to_string(state.legal_actions()[0])
        return state.action_to_string(longest_defence(state))


SEARCHER = PalaceSearch()


# -- mining ----------------------------------------------------------------------------------

def main_line(state: State, first: Action) -> list[str]:
    """``first``, then both sides' perfect play (:func:`best_action`,
    :func:`longest_defence`) to the end of the game, in notation."""
    game = _as_queen(state).clone()
    solver = game.current_player()
    line = []
    action = first
    while True:
        line.append(game.action_to_string(action))
        game.apply_action(action)
        if game.is_terminal():
            return line
        action = best_action(game) if game.current_player() == solver else longest_defence(game)


def _theme(state: BlockingQueenState, action: Action) -> str:
    after = state.clone()
    after.apply_action(action)
    if after.is_terminal():
        return "last-move"
    return "winning-block" if state.blocking else "winning-move"


def _decoys(state: BlockingQueenState, winner: Action) -> int:
    near = 0
    for action in state.legal_actions():
        square = _square(action)
        if action != winner and square is not None and palace_number(state.k, square) == state.k:
            near += 1
    return near


def puzzle_at(record: Record, ply: int, state: State) -> Puzzle | None:
    """The puzzle of ``record``'s position after ``ply`` moves (``state``), if exactly one
    action of the side to act wins there."""
    game = _as_queen(state)
    wins = winning_actions(game)
    if len(wins) != 1:
        return None
    action = wins[0]
    depth = turns_to_end(game)
    legal = len(game.legal_actions())
    return Puzzle(puzzle_id(record, ply), "blocking_queen", record, ply, game.current_player(),
                  (game.action_to_string(action),), tuple(main_line(game, action)),
                  _theme(game, action), depth,
                  rate(min(depth, RATED_TURNS), legal, _decoys(game, action)))


def mine(record: Record) -> Iterator[Puzzle]:
    """Every position of ``record`` where exactly one action wins, as puzzles, in ply
    order."""
    if record.game != "blocking_queen":
        raise BadParameterError(f"a {record.game!r} game given to the blocking_queen miner; "
                                "expected blocking_queen games")
    for ply, state in enumerate(replay_positions(record)):
        if state.is_terminal():
            break
        puzzle = puzzle_at(record, ply, state)
        if puzzle is not None:
            yield puzzle


def agent_games(count: int, seed: int) -> Iterator[Record]:
    """``count`` games between the queen game's agents (:data:`PAIRINGS`) with k and the
    start region drawn from :data:`GAME_PLAN`; game ``i`` depends only on ``(seed, i)``."""
    weights = np.array([share for _, _, share in GAME_PLAN])
    for index in range(count):
        rng = np.random.default_rng([seed, index])
        k, size, _ = GAME_PLAN[int(rng.choice(len(GAME_PLAN), p=weights / weights.sum()))]
        x, y = 0, 0
        while (x, y) == (0, 0):
            x, y = (int(v) for v in rng.integers(0, size, 2))
        names = PAIRINGS[int(rng.integers(len(PAIRINGS)))]
        seeds = rng.integers(0, 2**31, 2)
        agents = [make(name, game="blocking_queen", seed=int(s))
                  for name, s in zip(names, seeds, strict=True)]
        result = play_game("blocking_queen", agents, setup=f"{x},{y}", params={"k": k},
                           names=list(names))
        yield result.record
