"""p2life as a game: the players act between generations of Levene and Roussos's two-player
Life rule.

Modules:

* ``rules``: the state and its game (the protocol of :mod:`lifearena.core`).

The names below are the game's public API, importable from the package.
"""

from lifearena.games.p2life.rules import (
    DEFAULTS,
    MAX_SIDE,
    MAX_TURNS,
    P2LIFE,
    SPECS,
    SYMBOLS,
    Move,
    P2Life,
    P2LifeGame,
    apply_moves,
    format_board,
    format_position,
    new_game,
    parse_position,
    symmetric_soup,
)

__all__ = [
    "DEFAULTS",
    "MAX_SIDE",
    "MAX_TURNS",
    "P2LIFE",
    "SPECS",
    "SYMBOLS",
    "Move",
    "P2Life",
    "P2LifeGame",
    "apply_moves",
    "format_board",
    "format_position",
    "new_game",
    "parse_position",
    "symmetric_soup",
]
