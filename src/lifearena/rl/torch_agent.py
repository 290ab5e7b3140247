"""A torch checkpoint as an agent: what ``policy:FILE.pt`` builds, for every game.

The agent sees a position as the environment that trained the network did: it encodes
``state`` with the same :class:`lifearena.interop.spaces.Encoding` (the observation planes
of ``player``, the legal-action mask over the environment's action numbering), runs the
network with ``player`` as the seat, and plays the best legal action (the first in action
order on a tie), or with ``temperature=T`` samples the softmax of the legal logits divided
by ``T`` from its seeded generator. The network's action is turned back into the game's
(the blocking queen's window renumbers them).

>>> from lifearena import agents
>>> agents.make("policy:missing.pt", game="losat")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
lifearena.errors.BadParameterError: checkpoint 'missing.pt' does not exist; expected a .pt ...
"""

from __future__ import annotations

import os

import numpy as np
import torch

from lifearena.agents.base import Agent, Limit
from lifearena.agents.planes_agent import pick
from lifearena.core import Action, State
from lifearena.errors import BadParameterError
from lifearena.interop.games import canonical_name
from lifearena.interop.spaces import Encoding
from lifearena.rl.checkpoint import Checkpoint, load_checkpoint
from lifearena.rl.network import masked_logits


class TorchPolicyAgent(Agent):
    """Plays a loaded :class:`~lifearena.rl.checkpoint.Checkpoint` (see the module doc)."""

    def __init__(self, checkpoint: Checkpoint, *, seed: int | None = 0,
                 temperature: float = 0.0, name: str = "policy") -> None:
        if not temperature >= 0:
            raise BadParameterError(f"temperature={temperature!r}; expected a number >= 0")
        self.checkpoint = checkpoint
        self.network = checkpoint.network
        self.encoding = Encoding(checkpoint.game, checkpoint.params, observation="planes")
        config = self.network.config
        expected = (config.planes, config.height, config.width)
        if tuple(self.encoding.window.shape) != expected \
                or self.encoding.num_actions != config.num_actions:
            raise BadParameterError(
                f"checkpoint of {checkpoint.game}: its network reads {expected} planes and "
                f"{config.num_actions} actions, but the game with its parameters has "
                f"{tuple(self.encoding.window.shape)} and {self.encoding.num_actions}")
        self.temperature = float(temperature)
        self.name = name
        self._rng = np.random.default_rng(seed)

    def logits(self, state: State, player: int) -> tuple[np.ndarray, np.ndarray]:
        """The network's masked logits over the environment's actions for ``player`` in
        ``state``, and the boolean mask."""
        planes = self.encoding.planes(state, player)
        if planes.shape != tuple(self.encoding.window.shape):
            raise BadParameterError(f"a {planes.shape} position; this {self.checkpoint.game} "
                                    f"checkpoint plays {tuple(self.encoding.window.shape)}")
        try:
            mask = self.encoding.mask(state, player).astype(bool)
        except IndexError:
            raise BadParameterError(f"a legal move of this position lies outside the "
                                    f"{self.checkpoint.game} checkpoint's board "
                                    f"{tuple(self.encoding.window.shape)[1:]}") from None
        with torch.no_grad():
            legal = torch.from_numpy(mask[None])
            logits, _ = self.network(torch.from_numpy(planes[None]),
                                     torch.tensor([player], dtype=torch.long), legal)
            chosen = masked_logits(logits, legal)[0]
        return chosen.numpy().astype(np.float64), mask

    def act(self, state: State, player: int, limit: Limit | None = None) -> Action:
        logits, mask = self.logits(state, player)
        if not mask.any():
            raise BadParameterError(f"player {player} has no legal move in this position")
        return int(self.encoding.window.to_game(
            pick(logits, mask, self.temperature, self._rng)))


def make_torch_agent(path: str, game: str | None = None, seed: int | None = 0,
                     temperature: float = 0.0) -> TorchPolicyAgent:
    """The agent of ``policy:FILE.pt``; refuses a checkpoint of another game than ``game``."""
    checkpoint = load_checkpoint(path)
    if game is not None and canonical_name(game) != canonical_name(checkpoint.game):
        raise BadParameterError(f"checkpoint {path!r} plays {checkpoint.game}, not "
                                f"{canonical_name(game)}")
    return TorchPolicyAgent(checkpoint, seed=seed, temperature=float(temperature),
                            name=f"policy:{os.path.basename(path)}")
