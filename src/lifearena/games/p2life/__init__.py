"""p2life as a game: the players act between generations of Levene and Roussos's two-player
Life rule.

Modules:

* ``notation``: the players' symbols, the ``Move`` value object, positions;
* ``rules``: the state and the rules (the protocol of :mod:`lifearena.core`);
* ``presentation``: the text board, what a page draws, how a person picks a move, why a move
  is illegal;
* ``game``: the game with its parameters;
* ``fast``: the rules in numba's subset (the ending rules, legality and the turn said once,
  for the state and the compiled paths), the compiled generation and opponents.

The names below are the game's public API, importable from the package.
"""

from lifearena.games.p2life.game import P2LifeGame
from lifearena.games.p2life.notation import (
    MAX_SIDE,
    SYMBOLS,
    Move,
    format_position,
    parse_position,
)
from lifearena.games.p2life.presentation import P2LifePresentation, format_board
from lifearena.games.p2life.rules import (
    DEFAULTS,
    MAX_TURNS,
    P2LIFE,
    SPECS,
    P2Life,
    P2LifeState,
    apply_moves,
    new_game,
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
    "P2LifePresentation",
    "P2LifeState",
    "apply_moves",
    "format_board",
    "format_position",
    "new_game",
    "parse_position",
    "symmetric_soup",
]
