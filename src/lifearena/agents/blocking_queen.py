"""Agents for the blocking queen game: a perfect player from palace numbers, and a greedy one.

``make("perfect", game="blocking_queen")`` plays by the palace numbers of
:mod:`lifearena.games.blocking_queen.palace` (a palace is a square such that whoever moves
the queen there wins):

* queen move: to a palace whenever one is reachable; otherwise (a lost position) the
  shortest step, which keeps the game long and gives the opponent most chances to err;
* blocks: every square the opponent could reach if that is all of them (an immediate win),
  else every palace the opponent could reach (after moving to a palace there are fewer than
  k of them), then stop.

``make("greedy", game="blocking_queen")`` knows no palaces, only one move ahead: it takes the
origin when it can, else moves where the opponent has the fewest squares to go (preferring
squares from which the origin cannot be reached), and blocks the opponent's squares nearest
the origin (the origin first).

>>> from lifearena.agents import make
>>> from lifearena.games.blocking_queen import BlockingQueen
>>> state = BlockingQueen.from_setup("20,33", k=3)
>>> state.action_to_string(make("perfect", game="blocking_queen").act(state, 0))
'20,9'
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from lifearena.agents.base import Agent, Limit
from lifearena.agents.registry import register_agent
from lifearena.core import Action, State
from lifearena.errors import BadParameterError, IllegalMoveError
from lifearena.games.blocking_queen import (
    BLOCK_BASE,
    DONE,
    SIDE,
    BlockingQueen,
    index_square,
    options,
    square_index,
)
from lifearena.games.blocking_queen.palace import palace_numbers


@lru_cache(maxsize=16)
def palace_table(k: int) -> np.ndarray:
    """Boolean ``[y, x]`` table of the palaces on the whole board for this k (cached)."""
    table = palace_numbers(k, SIDE, SIDE) < k
    table.setflags(write=False)
    return table


def is_palace(k: int, square: tuple[int, int]) -> bool:
    """Whether moving the queen to ``square`` wins with perfect play.

    >>> is_palace(1, (3, 5)), is_palace(1, (3, 4))
    (True, False)
    """
    x, y = square
    return bool(palace_table(k)[y, x])


def _as_game(state: State) -> BlockingQueen:
    if not isinstance(state, BlockingQueen):
        raise BadParameterError(f"this agent plays the blocking queen game; got "
                                f"{state.info.name!r}")
    return state


def _legal(state: State, player: int) -> list[Action]:
    legal = state.legal_actions(player)
    if not legal:
        raise IllegalMoveError(f"player {player} has no legal action to choose from")
    return legal


class PerfectAgent(Agent):
    """Moves to palaces and blocks the opponent's palaces (see the module docstring)."""

    name = "perfect"

    def act(self, state: State, player: int, limit: Limit | None = None) -> Action:
        game = _as_game(state)
        legal = _legal(state, player)
        k = game.k
        if not game.blocking:
            moves = [index_square(a) for a in legal]
            palaces = [s for s in moves if is_palace(k, s)]
            if palaces:
                # the palace nearest the origin: the quickest win
                return square_index(*min(palaces, key=lambda s: (s[0] + s[1], s)))
            return square_index(*max(moves, key=lambda s: (s[0] + s[1], s)))
        free = [index_square(a - BLOCK_BASE) for a in legal if a != DONE]
        if not free:
            return DONE
        if len(free) <= game.blocks_left:
            return BLOCK_BASE + square_index(*free[0])
        palaces = [s for s in free if is_palace(k, s)]
        if palaces:
            return BLOCK_BASE + square_index(*palaces[0])
        return DONE


class GreedyAgent(Agent):
    """One move ahead, no palace knowledge (see the module docstring)."""

    name = "greedy"

    def __init__(self, seed: int | None = 0) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, state: State, player: int, limit: Limit | None = None) -> Action:
        game = _as_game(state)
        legal = _legal(state, player)
        if not game.blocking:
            moves = [index_square(a) for a in legal]
            if (0, 0) in moves:
                return square_index(0, 0)
            blocks = game.k - 1

            def score(square: tuple[int, int]) -> tuple[int, int, float]:
                x, y = square
                reach = len(options(x, y))
                sees_origin = x == 0 or y == 0 or x == y
                # all options blockable: a win now; else avoid giving away the origin
                return (0 if reach <= blocks else 1, int(sees_origin and blocks == 0),
                        reach + float(self.rng.random()))

            return square_index(*min(moves, key=score))
        free = [index_square(a - BLOCK_BASE) for a in legal if a != DONE]
        if not free:
            return DONE
        nearest = min(free, key=lambda s: (len(options(*s)), s))
        return BLOCK_BASE + square_index(*nearest)


@register_agent("perfect", game="blocking_queen")
def _make_perfect(game: str | None = None, seed: int | None = 0, **options: object) -> Agent:
    return PerfectAgent()


@register_agent("greedy", game="blocking_queen")
def _make_greedy(game: str | None = None, seed: int | None = 0, **options: object) -> Agent:
    return GreedyAgent(seed=seed)
