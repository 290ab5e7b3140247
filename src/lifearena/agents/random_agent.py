"""The uniformly random agent, for any game.

>>> from lifearena.agents import make
>>> make("random", game="war_of_life", seed=3).name
'random'
"""

from __future__ import annotations

import numpy as np

from lifearena.agents.base import Agent, Limit
from lifearena.agents.registry import register_agent
from lifearena.core import Action, State
from lifearena.errors import BadParameterError, IllegalMoveError


class RandomAgent(Agent):
    """Picks uniformly among the legal actions, from its own seeded generator."""

    name = "random"

    def __init__(self, seed: int | None = 0) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, state: State, player: int, limit: Limit | None = None) -> Action:
        legal = state.legal_actions(player)
        if not legal:
            raise IllegalMoveError(f"player {player} has no legal action to choose from")
        return int(legal[int(self.rng.integers(len(legal)))])


@register_agent("random")
def _make_random(game: str | None = None, seed: int | None = 0, **options: object) -> Agent:
    if options:
        raise BadParameterError(f"the random agent takes no options; got {sorted(options)}")
    return RandomAgent(seed=seed)
