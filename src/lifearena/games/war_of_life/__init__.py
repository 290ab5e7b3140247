"""War of Life: the Imperial College coursework game (8x8, move a piece, then one
generation of the Immigration rule).

Modules:

* ``notation``: coordinates, the ``Move`` value object, actions and the Prolog positions;
* ``rules``: the state (the protocol of :mod:`lifearena.core`) and the board's operations;
* ``presentation``: the text boards, what pages draw, how a person picks a move;
* ``game``: the game (its parameters) with its presentation;
* ``fast``: the ending rules, said once (``fast.ending``) for the state, its batched children
  and the compiled bitboard simulator of whole games between the coursework strategies (which
  :mod:`lifearena.agents.war_of_life_fast` plays by name).

The names below are the game's public API, importable from the package.
"""

from lifearena.games.war_of_life.fast import MAX_MOVES
from lifearena.games.war_of_life.game import SPECS, WarOfLifeGame
from lifearena.games.war_of_life.notation import (
    ACTION_TEXT,
    BLUE,
    DIRECTIONS,
    EMPTY,
    NUM_ACTIONS,
    RED,
    SIZE,
    SYMBOLS,
    TARGETS,
    Move,
    board_to_prolog,
    prolog_to_board,
)
from lifearena.games.war_of_life.presentation import WarOfLifePresentation
from lifearena.games.war_of_life.rules import (
    IMMIGRATION,
    PIECES,
    Crank,
    WarOfLifeState,
    apply_moves,
    crank,
    from_prolog,
    legal_mask,
    new_game,
    play_all,
    random_board,
)

__all__ = [
    "ACTION_TEXT",
    "BLUE",
    "DIRECTIONS",
    "EMPTY",
    "IMMIGRATION",
    "MAX_MOVES",
    "NUM_ACTIONS",
    "PIECES",
    "RED",
    "SIZE",
    "SPECS",
    "SYMBOLS",
    "TARGETS",
    "Crank",
    "Move",
    "WarOfLifeGame",
    "WarOfLifePresentation",
    "WarOfLifeState",
    "apply_moves",
    "board_to_prolog",
    "crank",
    "from_prolog",
    "legal_mask",
    "new_game",
    "play_all",
    "prolog_to_board",
    "random_board",
]
