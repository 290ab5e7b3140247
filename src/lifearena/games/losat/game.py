"""The Losat game with its parameters (the maker of :class:`~lifearena.games.losat.LosatState`
positions), registered under the name ``losat``.

>>> game = LosatGame(width=9, length=11, gap=5)
>>> game.observation_shape, game.num_distinct_actions
((2, 11, 9), 397)
>>> type(game.presentation).__name__
'LosatPresentation'
"""

from __future__ import annotations

from typing import Any, ClassVar

from lifearena.core import Game, Presentation, register_game
from lifearena.games.losat.presentation import LosatPresentation
from lifearena.games.losat.rules import SPECS, LosatState, check_together, new_game


@register_game
class LosatGame(Game):
    """Losat with its parameters: ``LosatGame(width=9).new_initial_state()`` is the two
    heptominoes on a 9-wide board.

    >>> LosatGame(width=9, length=11, gap=5).observation_shape
    (2, 11, 9)
    """

    info = LosatState.info
    specs = SPECS
    state_type = LosatState
    presentation: ClassVar[Presentation] = LosatPresentation()

    def _check_together(self, values: dict[str, Any]) -> dict[str, Any]:
        return check_together(values)

    def _initial_state(self, seed: int | None) -> LosatState:
        return new_game(**self._params)

    @property
    def num_distinct_actions(self) -> int:
        return 4 * int(self._params["width"]) * int(self._params["length"]) + 1

    @property
    def observation_shape(self) -> tuple[int, ...]:
        return (2, self._params["length"], self._params["width"])

    @property
    def max_game_length(self) -> int:
        return int(self._params["max_moves"])
