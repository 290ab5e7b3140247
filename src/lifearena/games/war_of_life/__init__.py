"""War of Life: the Imperial College coursework game (8x8, move a piece, then one
generation of the Immigration rule).

Modules:

* ``rules``: the state and its game (the protocol of :mod:`lifearena.core`);
* ``fast``: the compiled bitboard simulator (whole games, batched children).

The names below are the game's public API, importable from the package.
"""

from lifearena.games.war_of_life.rules import (
    ACTION_TEXT,
    BLUE,
    DIRECTIONS,
    EMPTY,
    IMMIGRATION,
    MAX_MOVES,
    NUM_ACTIONS,
    PIECES,
    RED,
    SIZE,
    SPECS,
    SYMBOLS,
    TARGETS,
    Crank,
    FastPlayer,
    Move,
    WarOfLifeGame,
    WarOfLifeState,
    apply_moves,
    board_to_prolog,
    crank,
    fast_play,
    from_prolog,
    legal_mask,
    new_game,
    play_all,
    prolog_to_board,
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
    "FastPlayer",
    "Move",
    "WarOfLifeGame",
    "WarOfLifeState",
    "apply_moves",
    "board_to_prolog",
    "crank",
    "fast_play",
    "from_prolog",
    "legal_mask",
    "new_game",
    "play_all",
    "prolog_to_board",
    "random_board",
]
