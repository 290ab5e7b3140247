"""The War of Life coursework strategies: random, bloodlust, self_preservation, land_grab,
minimax.

Each looks at every legal move (a piece to an empty neighbouring cell) followed by the crank
(one Immigration generation, run by the engine on a batch of boards):

* ``random``: uniform over the legal moves; it draws one double ``u`` from
  ``numpy.random.default_rng(seed)`` per move and plays the ``int(u * n)``-th of the ``n``
  legal moves in tie order.
* ``bloodlust``: fewest opponent pieces after the crank.
* ``self_preservation``: most own pieces after the crank.
* ``land_grab``: largest own - opponent after the crank.
* ``minimax``: two plies. For each of my moves (+ crank), the opponent's reply (+ crank) that
  minimises my land-grab value; the move with the largest such value. If the opponent has no
  pieces or no reply after my move, the value is the land-grab value right after my crank.

Ties: the first best move in the coursework's enumeration order (my pieces by ascending
(row, column), then the directions ``(-1,-1), (-1,0), (-1,+1), (0,-1), (0,+1), (+1,-1),
(+1,0), (+1,+1)``), which is the order of the sorted legal actions. With ``ties="random"``
a tie is broken uniformly at random (one double from the agent's generator per tied choice).

The strategies with no options also play whole games compiled
(:mod:`lifearena.agents.war_of_life_fast`), registered here as the game's fast path.

>>> from lifearena import agents
>>> from lifearena.games import war_of_life
>>> state = war_of_life.from_prolog("[[[1,1],[1,2],[1,3]],[[8,8]]]")
>>> bot = agents.make("self_preservation", game="war_of_life")
>>> state.action_to_string(bot.act(state, 0))
'[1,1,2,2]'
"""

from __future__ import annotations

from typing import Any

import numpy as np

from lifearena.agents.base import Agent, Limit
from lifearena.agents.registry import register_agent, register_fast_path
from lifearena.agents.war_of_life_fast import compiled_player
from lifearena.core import Action, State
from lifearena.errors import BadParameterError, IllegalMoveError
from lifearena.games import war_of_life as wol

STRATEGIES = ("random", "bloodlust", "self_preservation", "land_grab", "minimax")
TIES = ("first", "random")


def _counts(boards: np.ndarray, player: int) -> tuple[np.ndarray, np.ndarray]:
    """(own pieces, opponent pieces) on each board of a batch, for ``player``."""
    flat = boards.reshape(len(boards), wol.SIZE * wol.SIZE)
    return (np.count_nonzero(flat == player + 1, axis=1),
            np.count_nonzero(flat == 2 - player, axis=1))


def _moves_and_boards(board: np.ndarray, player: int) -> tuple[np.ndarray, np.ndarray]:
    """``player``'s legal actions in tie order, and the board after each (move + crank)."""
    mask = wol.legal_mask(board[None], player)[0]
    cells, directions = np.nonzero(mask)
    actions = cells * 8 + directions
    if not len(actions):
        return actions, np.empty((0, wol.SIZE, wol.SIZE), dtype=np.int8)
    moved = wol.apply_moves(np.broadcast_to(board, (len(actions), wol.SIZE, wol.SIZE)),
                            player, actions)
    return actions, wol.crank(moved)


def minimax_values(board: np.ndarray, player: int) -> tuple[np.ndarray, np.ndarray]:
    """``player``'s legal actions and the two-ply minimax value of each (see the module)."""
    actions, after = _moves_and_boards(board, player)
    own, other = _counts(after, player)
    values = own - other
    if not len(actions):
        return actions, values
    replies = wol.legal_mask(after, 1 - player)
    owners, cells, directions = np.nonzero(replies)
    if len(owners):
        moved = wol.apply_moves(after[owners], 1 - player, cells * 8 + directions)
        own2, other2 = _counts(wol.crank(moved), player)
        worst = np.full(len(actions), np.iinfo(np.int64).max)
        np.minimum.at(worst, owners, own2 - other2)
        has_reply = np.bincount(owners, minlength=len(actions)) > 0
        values = np.where(has_reply, worst, values)
    return actions, values


class StrategyAgent(Agent):
    """One of the coursework strategies (see the module docstring)."""

    def __init__(self, strategy: str, seed: int | None = 0, ties: str = "first") -> None:
        if strategy not in STRATEGIES:
            raise BadParameterError(f"unknown War of Life strategy {strategy!r}; expected one "
                                    f"of {', '.join(STRATEGIES)}")
        if ties not in TIES:
            raise BadParameterError(f"ties={ties!r}; expected 'first' or 'random'")
        self.name = strategy
        self.ties = ties
        self.seed = seed
        self.rng = np.random.default_rng(seed)

    def values(self, state: State, player: int) -> tuple[np.ndarray, np.ndarray]:
        """The legal actions of ``player`` (tie order) and the strategy's value of each."""
        board = state.board  # type: ignore[attr-defined]
        if self.name == "minimax":
            return minimax_values(board, player)
        actions, after = _moves_and_boards(board, player)
        own, other = _counts(after, player)
        if self.name == "bloodlust":
            return actions, -other
        if self.name == "self_preservation":
            return actions, own
        return actions, own - other

    def act(self, state: State, player: int, limit: Limit | None = None) -> Action:
        if not isinstance(state, wol.WarOfLifeState):
            raise BadParameterError(f"the {self.name} strategy plays War of Life; got a "
                                    f"{type(state).__name__}")
        if self.name == "random":
            legal = state.legal_actions(player)
            if not legal:
                raise IllegalMoveError(f"player {player} has no legal move")
            return int(legal[int(self.rng.random() * len(legal))])
        actions, values = self.values(state, player)
        if not len(actions):
            raise IllegalMoveError(f"player {player} has no legal move")
        best = np.flatnonzero(values == values.max())
        if self.ties == "random" and len(best) > 1:
            return int(actions[best[int(self.rng.random() * len(best))]])
        return int(actions[best[0]])

    def __repr__(self) -> str:
        return f"make({self.name!r}, game='war_of_life', seed={self.seed!r}, ties={self.ties!r})"


def _factory(strategy: str) -> Any:
    def make(game: str | None = None, seed: int | None = 0, ties: str = "first",
             **options: object) -> Agent:
        if options:
            raise BadParameterError(f"the {strategy} strategy takes only ties=first|random; "
                                    f"got {', '.join(options)}")
        return StrategyAgent(strategy, seed=seed, ties=ties)

    make.__doc__ = f"The War of Life {strategy} strategy."
    return make


for _name in STRATEGIES:
    register_agent(_name, game="war_of_life")(_factory(_name))
register_fast_path("war_of_life")(compiled_player)
