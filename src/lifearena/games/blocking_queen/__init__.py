"""The blocking queen game (k-Blocking Wythoff Nim): a queen moves towards the origin, then its
mover blocks up to k - 1 of the squares the opponent could move it to.

Modules:

* ``rules``: the state and its game (the protocol of :mod:`lifearena.core`);
* ``palace``: palace numbers, the game's solution;
* ``palace_kernels``: their numba row kernels.

The names below are the game's public API, importable from the package.
"""

from lifearena.games.blocking_queen.rules import (
    BLOCK_BASE,
    DONE,
    MAX_K,
    NUM_ACTIONS,
    SIDE,
    SPECS,
    SQUARES,
    SYMBOLS,
    BlockingQueen,
    BlockingQueenGame,
    check_k,
    index_square,
    new_game,
    options,
    parse_square,
    square_index,
)

__all__ = [
    "BLOCK_BASE",
    "DONE",
    "MAX_K",
    "NUM_ACTIONS",
    "SIDE",
    "SPECS",
    "SQUARES",
    "SYMBOLS",
    "BlockingQueen",
    "BlockingQueenGame",
    "check_k",
    "index_square",
    "new_game",
    "options",
    "parse_square",
    "square_index",
]
