"""The blocking queen game compiled with numba: its rules on one board held in arrays, and the
players that run inside a batch (random, greedy, perfect), for the vector environment
(:mod:`lifearena.interop.vector.blocking_queen`) and anything else that plays many games.

The game's turn rules are said once, in :mod:`lifearena.games.blocking_queen.turns` (plain
functions on numbers, in numba's subset, which the protocol state calls as Python): this
module registers them with numba and compiles them into the board kernels below, and keeps
the plain game free of numba (importing the state compiles nothing).

**A board** is four arrays: ``s`` (int64, :data:`COLUMNS` entries: the queen's square, the side
to act, whether it is blocking, blocks it may still make, how many squares are blocked, the
winner plus one once the game is over (else 0), plies played), ``blocked`` (bool, one per
square), ``blocks`` (the blocked squares, in the order they were blocked) and ``history``
(every ply's action). Squares and actions are numbered on a ``side x side`` corner of the
board: square ``(x, y)`` is ``y * side + x``; the queen move to it is that number, its block
``side² + y * side + x``, stopping the blocks ``2 * side²``. With ``side = SIDE`` (128) these
are the game's own dense actions; a smaller side is the vector environment's window (a queen
only moves toward the origin, so a game that starts in the corner stays there).

**The players** pick one ply of the side to act (:func:`choose`, by kind number
:data:`RANDOM`, :data:`GREEDY`, :data:`PERFECT`): ``random`` uniformly among the legal actions
(the stop included), from the board's SplitMix64 stream; ``greedy`` and ``perfect`` the ply
``agents.make(name, game="blocking_queen")`` picks on the same position. The protocol greedy
player breaks ties between equally good queen moves with its own generator; the compiled one
draws uniformly among them from the board's stream (one draw, only when there is a tie).
``perfect`` reads the palaces of the corner, ``palace_numbers(k, side, side) < k`` flattened.

>>> import numpy as np
>>> s, blocked, blocks, history = new_board(side=8, k=3)
>>> start(s, blocked, blocks, 7 * 8 + 5, 8)     # the queen on (5, 7)
>>> apply(s, blocked, blocks, history, 8, 3, 2 * 8 + 5)   # player 1 moves it to (5, 2)
>>> int(s[MOVER]), int(s[BLOCKING]), int(s[LEFT])  # ... and blocks now: two squares at most
(0, 1, 2)
>>> apply(s, blocked, blocks, history, 8, 3, 64 + 2 * 8 + 0)  # block (0, 2)
>>> apply(s, blocked, blocks, history, 8, 3, 128)              # stop: player 2 moves
>>> int(s[MOVER]), bool(is_legal(s, blocked, 8, 2 * 8 + 0)), bool(is_legal(s, blocked, 8, 3))
(1, False, True)
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
from numba import njit
from numba.extending import register_jitable

from lifearena.games.blocking_queen import turns
from lifearena.games.blocking_queen.turns import (
    BLOCKS,
    MOVER_WINS,
    after_queen_move,
    block_ends_turn,
    cannot_move,
    option,
    reaches,
    ways_out,
)
from lifearena.life.kernels.splitmix import below

# -- the rules -------------------------------------------------------------------------------
#
# The turn rules are turns.py's plain functions (the protocol state's too), registered here
# with numba: called from a kernel they are compiled into it. numba's cache of a kernel
# watches this file only, not turns.py: TURNS_DIGEST pins turns.py's text, so that a change
# there comes with a change here, which renews the cache (a test checks the pin).

TURNS_DIGEST = "9ff57cc87da5727575443e8bab8701322e29487864493e0bef323223798dbfdd"
"""The SHA-256 of ``turns.py`` the cached kernels were compiled with."""

for _rule in (ways_out, option, reaches, after_queen_move, cannot_move, block_ends_turn):
    register_jitable(_rule)


def turns_digest() -> str:
    """The SHA-256 of ``turns.py`` as it is now, its line ends as ``\\n`` (what
    :data:`TURNS_DIGEST` must say)."""
    text = Path(turns.__file__).read_bytes().replace(b"\r\n", b"\n")
    return hashlib.sha256(text).hexdigest()


# -- one board in arrays ----------------------------------------------------------------------

X, Y, MOVER, BLOCKING, LEFT, NBLOCKED, OVER, PLIES = range(8)
"""Entries of a board's state ``s`` (see the module doc)."""
COLUMNS = 8


def most_blocks(side: int, k: int) -> int:
    """The most squares blocked at once on a ``side x side`` corner under the rule ``k``
    (the length ``blocks`` needs, at least 1)."""
    return max(min(k - 1, 3 * (side - 1)), 1)


def most_plies(side: int, k: int) -> int:
    """The most plies of a game inside a ``side x side`` corner (the length ``history``
    needs): a turn brings x + y down by at least 1 and has at most ``k`` plies plus the
    stop."""
    return 2 * (side - 1) * (2 + most_blocks(side, k)) + 2


def new_board(side: int, k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The arrays of one board (``s``, ``blocked``, ``blocks``, ``history``), to be set by
    :func:`start`."""
    return (np.zeros(COLUMNS, np.int64), np.zeros(side * side, np.bool_),
            np.zeros(most_blocks(side, k), np.int64), np.zeros(most_plies(side, k), np.int64))


@njit(cache=True)
def start(s: np.ndarray, blocked: np.ndarray, blocks: np.ndarray, square: int, side: int
          ) -> None:
    """Set the board to the queen on ``square``, player 0 to move, nothing blocked."""
    for j in range(s[NBLOCKED]):
        blocked[blocks[j]] = False
    x, y = square % side, square // side
    s[X], s[Y] = x, y
    s[MOVER], s[BLOCKING], s[LEFT], s[NBLOCKED], s[PLIES] = 0, 0, 0, 0, 0
    s[OVER] = 2 if cannot_move(x, y, 0) else 0  # a queen on the origin: the first player lost


@njit(cache=True)
def random_start(size: int, side: int, rng: np.ndarray, i: int) -> int:
    """A start square uniform among ``0 <= x, y < size`` but the origin, drawn from stream
    ``i`` (the distribution of :func:`~lifearena.games.blocking_queen.new_game`)."""
    while True:
        x, y = below(rng, i, size), below(rng, i, size)
        if x or y:
            return y * side + x


@njit(cache=True)
def is_legal(s: np.ndarray, blocked: np.ndarray, side: int, action: int) -> bool:
    """Whether the side to act may play ``action`` (the game not over)."""
    cells = side * side
    if s[BLOCKING]:
        if action == 2 * cells:
            return True
        square = action - cells
    else:
        square = action
    if square < 0 or square >= cells:
        return False
    return not blocked[square] and reaches(s[X], s[Y], square % side, square // side)


@njit(cache=True)
def _end_turn(s: np.ndarray) -> None:
    s[BLOCKING] = 0
    s[LEFT] = 0
    s[MOVER] = 1 - s[MOVER]
    if cannot_move(s[X], s[Y], s[NBLOCKED]):
        s[OVER] = (1 - s[MOVER]) + 1


@njit(cache=True)
def apply(s: np.ndarray, blocked: np.ndarray, blocks: np.ndarray, history: np.ndarray,
          side: int, k: int, action: int) -> None:
    """Play the side to act's legal ``action``, as the protocol state plays it."""
    cells = side * side
    history[s[PLIES]] = action
    s[PLIES] += 1
    if not s[BLOCKING]:
        for j in range(s[NBLOCKED]):  # blocks last for one queen move
            blocked[blocks[j]] = False
        s[NBLOCKED] = 0
        x, y = action % side, action // side
        s[X], s[Y] = x, y
        then = after_queen_move(x, y, k)
        if then == MOVER_WINS:
            s[OVER] = s[MOVER] + 1
        elif then == BLOCKS:
            s[BLOCKING] = 1
            s[LEFT] = k - 1
        else:
            _end_turn(s)
        return
    if action == 2 * cells:
        _end_turn(s)
        return
    square = action - cells
    blocked[square] = True
    blocks[s[NBLOCKED]] = square
    s[NBLOCKED] += 1
    s[LEFT] -= 1
    if block_ends_turn(s[LEFT], s[NBLOCKED], s[X], s[Y]):
        _end_turn(s)


# -- the players --------------------------------------------------------------------------------

PLAYERS = ("random", "greedy", "perfect")
"""The compiled players, by kind number (their index here)."""
RANDOM, GREEDY, PERFECT = range(3)


@njit(cache=True)
def random_ply(s: np.ndarray, blocked: np.ndarray, side: int, rng: np.ndarray, i: int
               ) -> int:
    """A legal action of the side to act, uniform among them (the stop included), drawn from
    stream ``i``."""
    x, y = s[X], s[Y]
    total = ways_out(x, y)
    free = total - s[NBLOCKED]
    base = side * side if s[BLOCKING] else 0
    choice = below(rng, i, free + (1 if s[BLOCKING] else 0))
    if choice == free:
        return 2 * side * side
    for j in range(total):
        sx, sy = option(x, y, j)
        if not blocked[sy * side + sx]:
            if choice == 0:
                return base + sy * side + sx
            choice -= 1
    return -1


@njit(cache=True)
def _greedy_rank(sx: int, sy: int, k: int) -> int:
    """The greedy player's score of the queen move to ``(sx, sy)``, lower is better: first
    whether the opponent has more squares than the mover can block, then (with k = 1) whether
    the origin is in the opponent's reach, then how many squares the opponent has."""
    reach = ways_out(sx, sy)
    over = 0 if reach <= k - 1 else 1
    sees_origin = 1 if (sx == 0 or sy == 0 or sx == sy) and k == 1 else 0
    return (2 * over + sees_origin) * 1024 + reach  # reach < 3 * 128 < 1024


@njit(cache=True)
def greedy_ply(s: np.ndarray, blocked: np.ndarray, side: int, k: int, rng: np.ndarray,
               i: int) -> int:
    """The ply :class:`~lifearena.agents.blocking_queen.GreedyAgent` picks: the queen move
    with the lowest score (the origin when it can: nothing scores lower), a tie drawn
    uniformly from stream ``i``; a block on the opponent's square with the fewest ways out,
    the lowest ``(x, y)`` among equals (it never stops early)."""
    x, y = s[X], s[Y]
    total = ways_out(x, y)
    if not s[BLOCKING]:
        best, ties = 1 << 30, 0
        for j in range(total):
            sx, sy = option(x, y, j)
            if not blocked[sy * side + sx]:
                rank = _greedy_rank(sx, sy, k)
                if rank < best:
                    best, ties = rank, 1
                elif rank == best:
                    ties += 1
        pick = below(rng, i, ties) if ties > 1 else 0
        for j in range(total):
            sx, sy = option(x, y, j)
            if not blocked[sy * side + sx] and _greedy_rank(sx, sy, k) == best:
                if pick == 0:
                    return sy * side + sx
                pick -= 1
        return -1
    chosen, fewest, cx, cy = -1, 1 << 30, 0, 0
    for j in range(total):
        sx, sy = option(x, y, j)
        square = sy * side + sx
        if not blocked[square]:
            reach = ways_out(sx, sy)
            if reach < fewest or (reach == fewest and (sx < cx or (sx == cx and sy < cy))):
                chosen, fewest, cx, cy = square, reach, sx, sy
    return 2 * side * side if chosen < 0 else side * side + chosen


@njit(cache=True)
def perfect_ply(s: np.ndarray, blocked: np.ndarray, side: int, palaces: np.ndarray) -> int:
    """The ply :class:`~lifearena.agents.blocking_queen.PerfectAgent` picks: the queen move to
    the reachable palace nearest the origin (lowest ``(x + y, x, y)``), else the shortest step
    (highest ``(x + y, x, y)``); then, if the mover can block every square the opponent could
    reach, the first of them (by action number), else the first palace among them, else the
    stop. ``palaces``: the corner's palaces, one boolean per square."""
    x, y = s[X], s[Y]
    total = ways_out(x, y)
    if not s[BLOCKING]:
        found, best, bx, by = False, -1, 0, 0
        for j in range(total):
            sx, sy = option(x, y, j)
            square = sy * side + sx
            if blocked[square]:
                continue
            palace = palaces[square]
            if palace and not found:  # the first palace beats any other square
                found, best, bx, by = True, square, sx, sy
                continue
            if palace != found:
                continue
            d, bd = sx + sy, bx + by
            if best < 0 or (found and (d < bd or (d == bd and sx < bx))) or \
                    (not found and (d > bd or (d == bd and sx > bx))):
                best, bx, by = square, sx, sy
        return best
    free, first, first_palace = 0, -1, -1
    for j in range(total):
        sx, sy = option(x, y, j)
        square = sy * side + sx
        if not blocked[square]:
            free += 1
            if first < 0 or square < first:
                first = square
            if palaces[square] and (first_palace < 0 or square < first_palace):
                first_palace = square
    if free == 0:
        return 2 * side * side
    if free <= s[LEFT]:
        return side * side + first
    if first_palace >= 0:
        return side * side + first_palace
    return 2 * side * side


@njit(cache=True)
def choose(kind: int, s: np.ndarray, blocked: np.ndarray, side: int, k: int,
           palaces: np.ndarray, rng: np.ndarray, i: int) -> int:
    """The ply player ``kind`` (:data:`PLAYERS`) picks for the side to act."""
    if kind == GREEDY:
        return greedy_ply(s, blocked, side, k, rng, i)
    if kind == PERFECT:
        return perfect_ply(s, blocked, side, palaces)
    return random_ply(s, blocked, side, rng, i)


@njit(cache=True)
def play_turn(kind: int, s: np.ndarray, blocked: np.ndarray, blocks: np.ndarray,
              history: np.ndarray, side: int, k: int, palaces: np.ndarray, rng: np.ndarray,
              i: int) -> None:
    """Player ``kind`` plays the whole turn of the side to act (its queen move, its blocks and
    its stop), or nothing if the game is over."""
    seat = s[MOVER]
    while s[OVER] == 0 and s[MOVER] == seat:
        apply(s, blocked, blocks, history, side, k,
              choose(kind, s, blocked, side, k, palaces, rng, i))
