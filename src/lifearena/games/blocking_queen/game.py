"""The blocking queen game as a :class:`~lifearena.core.Game`: k, a random or chosen start,
its presentation."""

from __future__ import annotations

from typing import Any, ClassVar

from lifearena.core import Game, Presentation, register_game
from lifearena.errors import BadParameterError
from lifearena.games.blocking_queen.presentation import BlockingQueenPresentation
from lifearena.games.blocking_queen.rules import SPECS, BlockingQueenState, new_game


@register_game
class BlockingQueenGame(Game):
    """The blocking queen game with its parameters: k, and a random or chosen start.

    >>> BlockingQueenGame(k=3, start="square", x=4, y=6).new_initial_state().setup()
    '4,6'
    >>> BlockingQueenGame(start="square", x=0, y=0)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    lifearena.errors.BadParameterError: blocking_queen start 0,0: the queen must start off ...
    """

    info = BlockingQueenState.info
    specs = SPECS
    state_type = BlockingQueenState
    presentation: ClassVar[Presentation] = BlockingQueenPresentation()

    def _check_together(self, values: dict[str, Any]) -> dict[str, Any]:
        if values["start"] == "square" and (values["x"], values["y"]) == (0, 0):
            raise BadParameterError("blocking_queen start 0,0: the queen must start off the "
                                    "origin")
        return values

    def _initial_state(self, seed: int | None) -> BlockingQueenState:
        p = self._params
        if p["start"] == "square":
            return BlockingQueenState(p["x"], p["y"], k=p["k"])
        return new_game(seed=p["seed"] if seed is None else seed, k=p["k"], size=p["size"])
