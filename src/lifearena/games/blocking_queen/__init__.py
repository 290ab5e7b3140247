"""The blocking queen game (k-Blocking Wythoff Nim): a queen moves towards the origin, then its
mover blocks up to k - 1 of the squares the opponent could move it to.

Modules:

* ``notation``: squares, the dense actions, the ``Move`` value object;
* ``rules``: the state and the rules (the protocol of :mod:`lifearena.core`);
* ``presentation``: the text line, what a page draws, how a person picks a move, why a move
  is illegal;
* ``game``: the game with its parameters;
* ``turns``: the turn rules said once, plain functions for the state and the compiled boards;
* ``fast``: the compiled boards and players (random, greedy, perfect) of the vector
  environment (numba);
* ``palace``: palace numbers, the game's solution;
* ``palace_kernels``: their numba row kernels.

The names below are the game's public API, importable from the package.
"""

from lifearena.games.blocking_queen.game import BlockingQueenGame
from lifearena.games.blocking_queen.notation import (
    BLOCK_BASE,
    DONE,
    NUM_ACTIONS,
    SIDE,
    SQUARES,
    SYMBOLS,
    Move,
    index_square,
    parse_square,
    square_index,
)
from lifearena.games.blocking_queen.presentation import BlockingQueenPresentation
from lifearena.games.blocking_queen.rules import (
    MAX_K,
    SPECS,
    BlockingQueen,
    BlockingQueenState,
    check_k,
    new_game,
    options,
    reaches,
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
    "BlockingQueenPresentation",
    "BlockingQueenState",
    "Move",
    "check_k",
    "index_square",
    "new_game",
    "options",
    "parse_square",
    "reaches",
    "square_index",
]
