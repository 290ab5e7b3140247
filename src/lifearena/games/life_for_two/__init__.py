"""Life for Two (Brian Wyvill, *BASIC Computer Games*, 1978): a 5x5 game of simultaneous,
hidden placement.

Modules:

* ``notation``: cells, moves, dense actions and positions;
* ``rules``: the state (the protocol of :mod:`lifearena.core`) and the game's parameters;
* ``presentation``: the text board, the page's display and what the board asks of a player;
* ``game``: the :class:`~lifearena.core.Game` with its parameters;
* ``batch``: many flat 25-cell boards at once;
* ``fast``: bitboards compiled with numba: the ending rules (said once, for the state too),
  the turn, and the compiled opponents of the vector environment;
* ``classic``: the 1978 program, line by line.

The names below are the game's public API, importable from the package.
"""

from lifearena.games.life_for_two.game import LifeForTwoGame
from lifearena.games.life_for_two.notation import (
    CELLS,
    FIRST_PIECES,
    NUM_ACTIONS,
    SIZE,
    SYMBOLS,
    TRIPLES,
    Move,
    cell_index,
    cell_text,
    format_position,
    parse_cell,
    parse_position,
)
from lifearena.games.life_for_two.presentation import LifeForTwoPresentation, format_board
from lifearena.games.life_for_two.rules import (
    IMMIGRATION,
    LIMIT_RESULTS,
    RULES,
    SPECS,
    TOURNAMENT_PARAMS,
    LifeForTwo,
    LifeForTwoState,
    new_game,
)

__all__ = [
    "CELLS",
    "FIRST_PIECES",
    "IMMIGRATION",
    "LIMIT_RESULTS",
    "NUM_ACTIONS",
    "RULES",
    "SIZE",
    "SPECS",
    "SYMBOLS",
    "TOURNAMENT_PARAMS",
    "TRIPLES",
    "LifeForTwo",
    "LifeForTwoGame",
    "LifeForTwoPresentation",
    "LifeForTwoState",
    "Move",
    "cell_index",
    "cell_text",
    "format_board",
    "format_position",
    "new_game",
    "parse_cell",
    "parse_position",
]
