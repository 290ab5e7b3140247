"""What the PettingZoo and Gymnasium environments show and take: spaces, observations, masks,
and the options every environment shares.

* ``observation="planes"`` (default): ``State.observation(player)`` as float32 planes
  ``(planes, height, width)`` with values in [0, 1], the layout a convolutional network
  wants. They are flags, not pixel intensities, so they are not typed as an image (uint8 in
  [0, 255]): Stable-Baselines3 leaves them unscaled, and its ``check_env`` warns about any
  three-dimensional box that is not such an image.
* ``observation="flat"``: the same values as one float32 vector, for multilayer
  perceptrons; Stable-Baselines3's ``check_env`` accepts it without a warning.
* ``mask_in_obs=False`` (default): the observation is the array alone and the legal-action
  mask travels beside it (``info["action_mask"]``, and ``action_masks()`` for
  sb3-contrib's MaskablePPO), so a network never takes the mask for an input.
  ``mask_in_obs=True``: PettingZoo's classic layout, a ``Dict`` of ``{"observation": ...,
  "action_mask": int8 vector}``.
* actions: ``Discrete(n)`` with ``n`` read off the game's parameters through its
  :class:`~lifearena.core.Game` object and :func:`~lifearena.agents.windows.window_of`.
  The space's ``sample()`` without a mask draws one of the acting agent's legal actions (so
  the random loops of PettingZoo's and Gymnasium's checkers play real games);
  ``sample(mask)`` works as usual.
* ``illegal="lose"`` (default) or ``"raise"``: what an action outside the mask does (see
  each environment).

>>> from lifearena.interop.games import new_state
>>> encoding = Encoding("p2life", {"size": 6})
>>> encoding.observation_space, encoding.num_actions
(Box(0.0, 1.0, (2, 6, 6), float32), 73)
>>> flat = Encoding("p2life", {"size": 6}, observation="flat", mask_in_obs=True)
>>> sorted(flat.observe(new_state("p2life", {"size": 6}), 0))
['action_mask', 'observation']
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
from gymnasium import spaces

from lifearena.agents.windows import window_of
from lifearena.core import SIMULTANEOUS, Game, State
from lifearena.errors import BadParameterError, IllegalMoveError
from lifearena.interop.games import game_object, refusal

OBSERVATIONS = ("planes", "flat")
"""The observation layouts (see the module doc)."""
ILLEGAL_POLICIES = ("lose", "raise")
"""What an illegal action does: forfeit the game (default) or raise ``IllegalMoveError``."""


def check_choice(name: str, value: Any, choices: tuple[str, ...]) -> str:
    """``value`` when it is one of ``choices``, else a :class:`BadParameterError`.

    >>> check_choice("illegal", "skip", ILLEGAL_POLICIES)
    Traceback (most recent call last):
    ...
    lifearena.errors.BadParameterError: illegal='skip'; expected one of lose, raise
    """
    if value not in choices:
        raise BadParameterError(f"{name}={value!r:.40}; expected one of {', '.join(choices)}")
    return str(value)


class LegalDiscrete(spaces.Discrete):
    """``Discrete(n)`` whose ``sample()`` without a mask draws among the legal actions that
    ``legal()`` gives now (an int8 mask); among all actions when none is legal, and in a
    copy of the space (it holds its environment weakly; copies and pickles leave it out).
    """

    def __init__(self, n: int, legal: Callable[[], np.ndarray] | None = None) -> None:
        super().__init__(n)
        self._legal = legal

    def sample(self, mask: Any = None, probability: Any = None) -> np.int64:
        if mask is None and probability is None and self._legal is not None:
            current = self._legal()
            if current.any():
                mask = current
        return super().sample(mask=mask, probability=probability)

    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, "_legal": None}


class Encoding:
    """The spaces and arrays of one game with its parameters for an environment, under the
    ``observation`` layout and ``mask_in_obs`` (see the module doc)."""

    def __init__(self, game: str, params: Mapping[str, Any] | None = None, *,
                 observation: str = "planes", mask_in_obs: bool = False) -> None:
        self.layout = check_choice("observation", observation, OBSERVATIONS)
        if not isinstance(mask_in_obs, bool):
            raise BadParameterError(f"mask_in_obs={mask_in_obs!r:.40}; expected True or False")
        self.mask_in_obs = mask_in_obs
        self.game: Game = game_object(game, params)
        self.window = window_of(self.game)
        self.num_actions = self.window.num_actions
        shape = self.window.shape if self.layout == "planes" else \
            (int(np.prod(self.window.shape)),)
        box = spaces.Box(0.0, 1.0, shape, np.float32)
        self.observation_space: spaces.Space = box if not mask_in_obs else spaces.Dict({
            "observation": box,
            "action_mask": spaces.Box(0, 1, (self.num_actions,), np.int8)})

    def action_space(self, legal: Callable[[], np.ndarray] | None = None) -> LegalDiscrete:
        """``Discrete(num_actions)`` sampling among ``legal()`` by default."""
        return LegalDiscrete(self.num_actions, legal)

    def planes(self, state: State, player: int) -> np.ndarray:
        """``player``'s observation as float32 in the chosen layout."""
        seen = self.window.crop(state.observation(player)).astype(np.float32)
        return seen if self.layout == "planes" else seen.reshape(-1)

    def mask(self, state: State, player: int) -> np.ndarray:
        """The int8 legal-action mask of ``player`` (all zeros when it is not to act)."""
        acting = state.current_player() in (SIMULTANEOUS, player)
        legal = state.legal_actions(player) if acting else []
        return self.window.mask(legal)

    def observe(self, state: State, player: int) -> Any:
        """What an environment shows ``player`` (the array, or the classic dict)."""
        seen = self.planes(state, player)
        if self.mask_in_obs:
            return {"observation": seen, "action_mask": self.mask(state, player)}
        return seen

    def to_game(self, state: State, player: int, action: Any) -> int:
        """The game's action for ``player``'s environment ``action``, checked: an
        :class:`IllegalMoveError` (the library's own message) unless it is legal now."""
        try:
            index = int(action)
        except (TypeError, ValueError):
            raise IllegalMoveError(f"action {action!r:.40}; expected an integer "
                                   f"0 <= action < {self.num_actions}") from None
        if not 0 <= index < self.num_actions:
            raise IllegalMoveError(f"action {index} is outside Discrete({self.num_actions}); "
                                   f"expected 0 <= action < {self.num_actions}")
        chosen = self.window.to_game(index)
        if self.mask(state, player)[index]:
            return chosen
        raise IllegalMoveError(refusal(state, player, chosen))


def legal_sampler(owner: Any, mask_of: Callable[[Any], np.ndarray]) -> Callable[[], np.ndarray]:
    """``mask_of(owner)`` through a weak reference, for :class:`LegalDiscrete` (a space must
    not keep its environment alive)."""
    ref = weakref.ref(owner)

    def legal() -> np.ndarray:
        target = ref()
        return mask_of(target) if target is not None else np.zeros(0, np.int8)

    return legal
