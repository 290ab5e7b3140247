"""Life for Two (Brian Wyvill, *BASIC Computer Games*, 1978): a 5x5 game of simultaneous,
hidden placement.

Modules:

* ``rules``: the state and its game (the protocol of :mod:`lifearena.core`);
* ``batch``: many flat 25-cell boards at once;
* ``classic``: the 1978 program, line by line.

The names below are the game's public API, importable from the package.
"""

from lifearena.games.life_for_two.rules import (
    CELLS,
    FIRST_PIECES,
    IMMIGRATION,
    LIMIT_RESULTS,
    NUM_ACTIONS,
    RULES,
    SIZE,
    SPECS,
    SYMBOLS,
    TOURNAMENT_PARAMS,
    TRIPLES,
    LifeForTwo,
    LifeForTwoGame,
    Move,
    cell_index,
    cell_text,
    format_board,
    format_position,
    new_game,
    parse_cell,
    parse_position,
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
    "Move",
    "cell_index",
    "cell_text",
    "format_board",
    "format_position",
    "new_game",
    "parse_cell",
    "parse_position",
]
