"""Agents for the p2life game (:mod:`lifearena.games.p2life`): random and greedy.

* ``random`` -- the generic random agent: uniform over the legal moves (pass, place on an
  empty cell, remove one's own).
* ``greedy`` -- one-step lookahead: for each legal move, assume the opponent passes, run the
  coming p2life generation (same seed and generation, so the very coins the game will flip)
  and score ``own tokens - opponent tokens`` afterwards; the best score wins, ties are broken
  at random. All candidate boards are stepped as one batch, so a move costs one engine call.
  With ``moves > 1`` per generation it scores as if the generation came next.

>>> from lifearena.agents import make
>>> from lifearena.games.p2life import new_game
>>> state = new_game(size=8, seed=1)
>>> agent = make("greedy", game="p2life", seed=0)
>>> state.action_to_string(agent.act(state.view(0), 0))
'+5,8'
"""

from __future__ import annotations

import numpy as np

from lifearena.agents.base import Agent, Limit
from lifearena.agents.registry import register_agent
from lifearena.core import Action, State
from lifearena.errors import BadParameterError, IllegalMoveError
from lifearena.games.p2life import P2LIFE, Move, P2Life, apply_moves
from lifearena.life.step import step


def score_moves(state: P2Life, player: int, actions: list[int]) -> np.ndarray:
    """``own - opponent`` population after the next generation for each of ``player``'s
    ``actions``, the opponent passing.

    >>> state = P2Life.from_setup("..../.ww./.w../.... 0:0", torus=False)
    >>> actions = [state.string_to_action(t) for t in ("pass", "+3,3", "-2,2")]
    >>> score_moves(state, 0, actions).tolist()  # the L becomes a block either way but one
    [4, 4, 0]
    """
    passing = Move("pass")
    boards = np.empty((len(actions), state.height, state.width), dtype=np.int8)
    for k, action in enumerate(actions):
        move = Move.from_action(action, state.height, state.width)
        pair = (move, passing) if player == 0 else (passing, move)
        boards[k] = apply_moves(state.board, pair)
    after = step(boards, P2LIFE, torus=state.params["torus"], seed=state.params["seed"],
                 generation=state.generation)
    own = np.count_nonzero(after == player + 1, axis=(1, 2))
    other = np.count_nonzero(after == 2 - player, axis=(1, 2))
    difference: np.ndarray = (own - other).astype(np.int64)
    return difference


class GreedyP2LifeAgent(Agent):
    """Maximises the token difference after the coming generation (see the module docstring)."""

    name = "greedy"

    def __init__(self, seed: int | None = 0) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, state: State, player: int, limit: Limit | None = None) -> Action:
        if not isinstance(state, P2Life):
            raise BadParameterError(f"the greedy p2life agent plays p2life, not "
                                    f"{state.info.name}")
        legal = state.legal_actions(player)
        if not legal:
            raise IllegalMoveError(f"player {player} has no legal action to choose from")
        scores = score_moves(state, player, legal)
        best = np.flatnonzero(scores == scores.max())
        return int(legal[int(best[self.rng.integers(len(best))])])


@register_agent("greedy", game="p2life")
def _make_greedy(game: str | None = None, seed: int | None = 0, **options: object) -> Agent:
    if options:
        raise BadParameterError(f"the greedy agent takes no options; got {sorted(options)}")
    return GreedyP2LifeAgent(seed=seed)
