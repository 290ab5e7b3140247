"""War of Life's game: its parameters (all of the start) and the maker of its states.

>>> WarOfLifeGame(start="prolog", position="[[[1,1]],[[8,8]]]").new_initial_state()
war_of_life.from_prolog('[[[1,1]],[[8,8]]]')
>>> WarOfLifeGame().new_initial_state(seed=7).setup() == new_game(seed=7).setup()
True
"""

from __future__ import annotations

from typing import ClassVar

from lifearena.caps import MAX_SEED
from lifearena.core import Game, Presentation, register_game
from lifearena.games.war_of_life.presentation import WarOfLifePresentation
from lifearena.games.war_of_life.rules import WarOfLifeState, new_game
from lifearena.params import ParamSpec

SPECS: tuple[ParamSpec, ...] = (
    ParamSpec("start", "choice", "random", choices=("random", "prolog"), start=True,
              label="Start", help="12 random pieces each, or a position you type"),
    ParamSpec("seed", "int", 0, low=0, high=MAX_SEED, start=True, label="Seed",
              help="empty: a new start each game; the same seed gives the same start",
              shown_when=("start", "random"), served_default=1, drawn=True),
    ParamSpec("position", "text", "[[[2,2],[2,3],[3,2]],[[6,6],[6,7],[7,6]]]", max_length=2000,
              start=True, label="Prolog position", shown_when=("start", "prolog"),
              help="[[blue [row,col] cells],[red cells]], rows 1..8 from the top"),
)
"""War of Life's parameters, all of the start: the rules have none."""


@register_game
class WarOfLifeGame(Game):
    """War of Life: a random start from a seed, or a position in the coursework's Prolog form."""

    info = WarOfLifeState.info
    specs = SPECS
    state_type = WarOfLifeState
    presentation: ClassVar[Presentation] = WarOfLifePresentation()

    def _initial_state(self, seed: int | None) -> WarOfLifeState:
        if self._params["start"] == "prolog":
            return WarOfLifeState.from_setup(self._params["position"])
        return new_game(seed=self._params["seed"] if seed is None else seed)
