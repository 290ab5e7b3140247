"""The blocking queen game's turn rules, said once, as plain functions on numbers: how many
squares a queen reaches and which, what follows a queen move, when the block phase ends, when
the player to move has lost.

The protocol state (:class:`~lifearena.games.blocking_queen.BlockingQueenState`) calls them
as Python; :mod:`lifearena.games.blocking_queen.fast` registers them with numba and compiles
them into its board kernels, so they are written in numba's subset. This module imports
nothing, numba least of all: playing the game needs no compiler.

Editing this file? numba's cache of the kernels that compile these functions watches
``fast.py`` only, so a change here must come with a new ``TURNS_DIGEST`` in ``fast.py``
(the tests say when the two differ).
"""

from __future__ import annotations

MOVER_WINS, BLOCKS, TURN_ENDS = range(3)
"""What follows a queen move (:func:`after_queen_move`)."""


def ways_out(x: int, y: int) -> int:
    """How many squares a queen on ``(x, y)`` reaches on an empty board (west, north and
    north-west): 0 on the origin only.

    >>> ways_out(1, 2), ways_out(0, 0), ways_out(3, 0)
    (4, 0, 3)
    """
    return x + y + min(x, y)


def option(x: int, y: int, j: int) -> tuple[int, int]:
    """The ``j``-th square (``0 <= j < ways_out(x, y)``) a queen on ``(x, y)`` reaches, in
    the order of :func:`~lifearena.games.blocking_queen.options`: west, north, north-west,
    each nearest first.

    >>> [option(1, 2, j) for j in range(ways_out(1, 2))]
    [(0, 2), (1, 1), (1, 0), (0, 1)]
    """
    if j < x:
        return x - 1 - j, y
    j -= x
    if j < y:
        return x, y - 1 - j
    j -= y
    return x - 1 - j, y - 1 - j


def reaches(x: int, y: int, sx: int, sy: int) -> bool:
    """Whether a queen on ``(x, y)`` reaches ``(sx, sy)`` on an empty board.

    >>> reaches(1, 2, 0, 1), reaches(1, 2, 0, 0), reaches(1, 2, 1, 2)
    (True, False, False)
    """
    dx, dy = x - sx, y - sy
    return dx >= 0 and dy >= 0 and dx + dy > 0 and (dx == 0 or dy == 0 or dx == dy)


def after_queen_move(x: int, y: int, k: int) -> int:
    """What follows the queen's move to ``(x, y)`` under the rule ``k``: :data:`MOVER_WINS`
    (the origin: the opponent cannot move it), :data:`BLOCKS` (the mover blocks next, when
    ``k > 1``) or :data:`TURN_ENDS` (k = 1, classical Wythoff Nim).

    >>> after_queen_move(0, 0, 3) == MOVER_WINS, after_queen_move(2, 0, 3) == BLOCKS
    (True, True)
    """
    if x == 0 and y == 0:
        return MOVER_WINS
    return BLOCKS if k > 1 else TURN_ENDS


def cannot_move(x: int, y: int, blocked: int) -> bool:
    """Whether the player to move a queen on ``(x, y)`` cannot (and so has lost), with
    ``blocked`` of the squares it reaches blocked: it is on the origin, or every square it
    reaches is blocked.

    >>> cannot_move(0, 0, 0), cannot_move(1, 1, 2), cannot_move(1, 1, 3)
    (True, False, True)
    """
    return blocked == ways_out(x, y)


def block_ends_turn(blocks_left: int, blocked: int, x: int, y: int) -> bool:
    """Whether the block phase is over after a block, with ``blocks_left`` blocks left to the
    mover and ``blocked`` squares blocked around the queen on ``(x, y)``: k - 1 blocks made,
    or nothing left for the opponent to reach (the opponent has then lost).

    >>> block_ends_turn(1, 2, 1, 1), block_ends_turn(0, 1, 1, 1), block_ends_turn(2, 3, 1, 1)
    (False, True, True)
    """
    return blocks_left == 0 or cannot_move(x, y, blocked)
