"""p2life as a :class:`~lifearena.core.Game`: its parameters, its start, its presentation."""

from __future__ import annotations

from typing import Any, ClassVar

from lifearena.core import Game, Presentation, register_game
from lifearena.errors import BadParameterError
from lifearena.games.p2life.presentation import P2LifePresentation
from lifearena.games.p2life.rules import MAX_TURNS, SPECS, P2LifeState, new_game


@register_game
class P2LifeGame(Game):
    """p2life as a game with its parameters.

    >>> game = P2LifeGame(size=8, seed=2)
    >>> game.num_distinct_actions, game.observation_shape
    (129, (2, 8, 8))
    >>> game.new_initial_state(seed=5).params["seed"]
    5
    """

    info = P2LifeState.info
    specs = SPECS
    state_type = P2LifeState
    presentation: ClassVar[Presentation] = P2LifePresentation()

    def _check_together(self, values: dict[str, Any]) -> dict[str, Any]:
        if values["max_generations"] * values["moves"] > MAX_TURNS:
            raise BadParameterError(
                f"max_generations x moves = {values['max_generations'] * values['moves']} "
                f"turns; expected at most {MAX_TURNS}")
        return values

    def _initial_state(self, seed: int | None) -> P2LifeState:
        p = self._params
        return new_game(size=p["size"], density=p["density"],
                        seed=p["seed"] if seed is None else seed, torus=p["torus"],
                        moves=p["moves"], max_generations=p["max_generations"])

    @property
    def num_distinct_actions(self) -> int:
        return 2 * int(self._params["size"]) ** 2 + 1

    @property
    def observation_shape(self) -> tuple[int, ...]:
        return (2, self._params["size"], self._params["size"])
