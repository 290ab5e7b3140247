"""An exported planes network as an agent, with numpy alone: what ``policy:FILE.npz`` (a
file written by ``lifearena rl export``) and ``policy:ppo`` play.

The agent sees a position as the environment that trained the network did: the game's
observation planes of ``player`` cut to the network's window
(:mod:`lifearena.agents.windows`), the legal actions renumbered the same way, ``player`` as
the seat. It plays the best legal action (the first in action order on a tie), or with
``temperature=T`` samples the softmax of the legal logits divided by ``T`` from its seeded
generator. It plays exactly what :mod:`lifearena.rl.torch_agent` plays with the torch
checkpoint the file was exported from (the tests compare them).
"""

from __future__ import annotations

import numpy as np

from lifearena.agents.base import Agent, Limit
from lifearena.agents.planes_network import PlanesPolicy
from lifearena.agents.windows import window_from_spec
from lifearena.core import Action, State
from lifearena.errors import BadParameterError

ILLEGAL_LOGIT = -1e8


class PlanesNetworkAgent(Agent):
    """Plays a :class:`~lifearena.agents.planes_network.PlanesPolicy` (see the module doc)."""

    def __init__(self, policy: PlanesPolicy, *, seed: int | None = 0,
                 temperature: float = 0.0, name: str = "policy") -> None:
        if not temperature >= 0:
            raise BadParameterError(f"temperature={temperature!r}; expected a number >= 0")
        self.policy = policy
        self.window = window_from_spec(policy.window)
        config = policy.config
        self.shape = (config["planes"], config["height"], config["width"])
        self.temperature = float(temperature)
        self.name = name
        self._rng = np.random.default_rng(seed)

    def fits(self, state: State, player: int) -> bool:
        """Whether the network can play ``player`` in ``state`` as trained: the state's
        rule parameters are the network's and its planes and legal moves fit its window
        (a blocking queen outside the trained corner does not). A caller with another agent
        to fall back on asks this first (the web's levels do).

        >>> from lifearena import agents
        >>> from lifearena.games.p2life import new_game
        >>> bot = agents.make("policy:ppo", game="p2life")
        >>> bot.fits(new_game(size=12), 0), bot.fits(new_game(size=8), 0)
        (True, False)
        >>> bot.fits(new_game(size=12, max_generations=10), 0)   # other rules, same planes
        False
        """
        rules = {key: value for key, value in state.params.items() if key != "seed"}
        if any(key in self.policy.params and self.policy.params[key] != value
               for key, value in rules.items()):
            return False
        try:
            self.logits(state, player)
        except BadParameterError:
            return False
        return True

    def logits(self, state: State, player: int) -> tuple[np.ndarray, np.ndarray]:
        """The masked logits over the network's actions for ``player`` in ``state``, and
        the boolean mask."""
        planes = self.window.crop(state.observation(player)).astype(np.float32)
        if planes.shape != self.shape:
            raise BadParameterError(f"a {planes.shape} position; this {self.policy.game} "
                                    f"network plays {self.shape}")
        try:
            mask = self.window.mask(state.legal_actions(player)).astype(bool)
        except IndexError:
            raise BadParameterError(f"a legal move of this position lies outside the "
                                    f"{self.policy.game} network's board {self.shape[1:]}"
                                    ) from None
        if mask.shape != (self.policy.config["num_actions"],):
            raise BadParameterError(f"{mask.size} actions in this position; this "
                                    f"{self.policy.game} network plays "
                                    f"{self.policy.config['num_actions']}")
        raw = self.policy.logits(planes[None], np.array([player]), mask[None])[0]
        return np.where(mask, raw, ILLEGAL_LOGIT).astype(np.float64), mask

    def act(self, state: State, player: int, limit: Limit | None = None) -> Action:
        logits, mask = self.logits(state, player)
        if not mask.any():
            raise BadParameterError(f"player {player} has no legal move in this position")
        return int(self.window.to_game(pick(logits, mask, self.temperature, self._rng)))


def pick(logits: np.ndarray, mask: np.ndarray, temperature: float,
         rng: np.random.Generator) -> int:
    """The network's action: the best legal logit (the first on a tie) at ``temperature``
    0, else a draw from the softmax of the legal logits divided by ``temperature``.

    >>> pick(np.array([0.0, 2.0, 2.0, 9.0]), np.array([True, True, True, False]), 0.0,
    ...      np.random.default_rng(0))
    1
    """
    if temperature == 0.0:
        return int(np.argmax(np.where(mask, logits, -np.inf)))
    legal = np.flatnonzero(mask)
    scores = logits[legal] / temperature
    weights = np.exp(scores - scores.max())
    return int(legal[rng.choice(len(legal), p=weights / weights.sum())])
