"""Life for Two as a :class:`~lifearena.core.Game`: its parameters and its start.

>>> LifeForTwoGame().new_initial_state().position()
'...../...../...../...../..... 1'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from lifearena.core import Game, Presentation, State, register_game
from lifearena.games.life_for_two.classic import CLASSIC_SETUP, ClassicState
from lifearena.games.life_for_two.presentation import LifeForTwoPresentation
from lifearena.games.life_for_two.rules import (
    SPECS,
    TOURNAMENT_PARAMS,
    LifeForTwo,
    LifeForTwoState,
)


@register_game
class LifeForTwoGame(Game):
    """Life for Two with its parameters: the instructed rules from the empty board, or
    (``rules="classic"``) the 1978 program.

    >>> LifeForTwoGame(max_turns=20).new_initial_state().params
    {'max_turns': 20, 'limit_result': 'draw'}
    >>> LifeForTwoGame(rules="classic").new_initial_state()  # the 1978 program
    ClassicState.from_answers([])
    """

    info = LifeForTwoState.info
    specs = SPECS
    state_type = LifeForTwoState
    presentation: ClassVar[Presentation] = LifeForTwoPresentation()
    tournament_params: ClassVar[Mapping[str, Any]] = TOURNAMENT_PARAMS

    def _initial_state(self, seed: int | None) -> State:
        if self._params["rules"] == "classic":
            return ClassicState()
        return LifeForTwo(**self.rule_params)

    def state_from_setup(self, setup: str) -> State:
        """A state at ``setup``; ``classic`` is the 1978 program's start, whatever the rules
        parameter (a record keeps the rules' parameters only: its setup names the program)."""
        if setup.strip() == CLASSIC_SETUP:
            return self.with_params(rules="classic").new_initial_state()
        return super().state_from_setup(setup)

    @property
    def num_distinct_actions(self) -> int:
        if self._params["rules"] == "classic":
            return ClassicState.info.num_distinct_actions
        return self.info.num_distinct_actions

    @property
    def max_game_length(self) -> int:
        turns = self._params["max_turns"]
        return self.info.max_game_length if turns is None else int(turns)
