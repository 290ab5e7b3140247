"""War of Life on bitboards, compiled with numba: the kernels of the compiled whole games
(which :mod:`lifearena.agents.war_of_life_fast` plays for the coursework strategies by name).

A position is two ``uint64`` masks, one per colour, bit ``(row - 1) * 8 + (column - 1)``.
:func:`crank_bits` runs one Immigration generation with bit-sliced counters (a saturating
0..4 counter of all neighbours, and a "two or more" flag of the first colour's, which
decides the colour of a birth since a birth has exactly three parents). :func:`play` plays a
whole game between two of the five coursework strategies, move for move as the protocol path
(:class:`~lifearena.games.war_of_life.WarOfLifeState` with the agents of
:mod:`lifearena.agents.war_of_life`) plays it; the tests check both agree.

War of Life's ending rules are said here once, in :func:`ending`: :func:`play` calls it
compiled, the state calls it as Python, and the state's batched children call its numpy ufunc
:func:`endings`.

The random strategy draws one double ``u`` from its generator per move and plays the
``int(u * n)``-th of its ``n`` legal moves (in the strategies' enumeration order), exactly as
the protocol path's random agent; :class:`RandomStream` pre-draws those doubles in blocks so
the compiled code can read them.

Apart from the ending rules, this module works on masks, arrays and setup strings only: it
knows neither the state class nor the agents' names.

>>> import numpy as np
>>> board = np.zeros((8, 8), dtype=np.int8); board[0, 0] = board[0, 1] = 1; board[1, 0] = 2
>>> blue, red = board_to_bits(board)
>>> bits_to_board(*crank_bits(blue, red))[:2, :3].tolist()
[[1, 1, 0], [2, 1, 0]]
"""

from __future__ import annotations

import json

import numpy as np
from numba import njit
from numpy.typing import ArrayLike

from lifearena.core import Outcome, Termination
from lifearena.games.war_of_life.notation import SYMBOLS

STRATEGIES = ("random", "bloodlust", "self_preservation", "land_grab", "minimax")
"""The strategies the compiled simulator plays, by kind number (their index here)."""
RANDOM, BLOODLUST, SELF_PRESERVATION, LAND_GRAB, MINIMAX = range(5)


# -- the ending rules, said once ----------------------------------------------------------------
#
# They live in this module because :func:`play` calls them compiled: numba's cache of ``play``
# holds the code of what it calls and is renewed only when this file changes.

MAX_MOVES = 250
"""Moves after which the game is an exhausted draw."""

DRAW, EXHAUST, BLUE_WINS, RED_WINS, STALEMATE, GOES_ON = range(6)
"""The ending codes: how a position ends the game, or :data:`GOES_ON` when it does not."""

OUTCOMES: tuple[Outcome | None, ...] = (
    Outcome(Termination.DRAW, None, None),
    Outcome(Termination.EXHAUST, None, None),
    Outcome(Termination.WIN, 0, SYMBOLS[0]),
    Outcome(Termination.WIN, 1, SYMBOLS[1]),
    Outcome(Termination.STALEMATE, None, None),
    None,
)
"""``OUTCOMES[code]``: the outcome an ending code means (``None`` for :data:`GOES_ON`)."""


def ending(blues: int, reds: int, played: int, has_move: bool) -> int:
    """The ending code of a position with ``blues`` blue and ``reds`` red pieces, ``played``
    moves played, and ``has_move`` whether the player to move has a legal move: War of Life's
    ending rules, the one definition that the state (on Python numbers, as it is), its batched
    children (:func:`endings`) and :func:`play` (compiled) all use.

    Before each move, in this order: no pieces at all -> draw; :data:`MAX_MOVES` moves played
    -> exhaust (even if the last crank wiped out a side); no blue pieces -> red wins; no red
    pieces -> blue wins; the player to move has pieces but no legal move -> stalemate.

    >>> ending(0, 0, 250, False) == DRAW, ending(3, 0, 250, True) == EXHAUST
    (True, True)
    >>> OUTCOMES[ending(0, 2, 10, True)]
    Outcome(termination=<Termination.WIN: 'win'>, winner=1, winner_symbol='r', detail='')
    """
    if blues == 0 and reds == 0:
        return DRAW
    if played >= MAX_MOVES:
        return EXHAUST
    if blues == 0:
        return RED_WINS
    if reds == 0:
        return BLUE_WINS
    if not has_move:
        return STALEMATE
    return GOES_ON


_ending_compiled = njit(cache=True)(ending)
_ending_ufunc = np.frompyfunc(ending, 4, 1)


def endings(blues: ArrayLike, reds: ArrayLike, played: ArrayLike, has_move: ArrayLike
            ) -> np.ndarray:
    """:func:`ending` of many positions at once (a numpy ufunc of it: the arguments broadcast
    as numpy does), as int8 codes.

    >>> endings(np.array([0, 2, 2]), np.array([0, 0, 2]), 10, np.array([True, True, False]))
    array([0, 2, 4], dtype=int8)
    """
    return np.asarray(_ending_ufunc(blues, reds, played, has_move), dtype=np.int8)


# -- bitboards --------------------------------------------------------------------------------


_ONE = np.uint64(1)
_ZERO = np.uint64(0)
_S1, _S7, _S8, _S9 = np.uint64(1), np.uint64(7), np.uint64(8), np.uint64(9)
_NOT_COL1 = np.uint64(0xFEFEFEFEFEFEFEFE)  # every cell but column 1
_NOT_COL8 = np.uint64(0x7F7F7F7F7F7F7F7F)  # every cell but column 8
_M1 = np.uint64(0x5555555555555555)
_M2 = np.uint64(0x3333333333333333)
_M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_H01 = np.uint64(0x0101010101010101)
_S2, _S4, _S56 = np.uint64(2), np.uint64(4), np.uint64(56)


def _neighbour_masks() -> np.ndarray:
    masks = np.zeros(64, dtype=np.uint64)
    for cell in range(64):
        row, col = divmod(cell, 8)
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                if (dr or dc) and 0 <= row + dr < 8 and 0 <= col + dc < 8:
                    masks[cell] |= np.uint64(1) << np.uint64((row + dr) * 8 + col + dc)
    return masks


NEIGHBOURS = _neighbour_masks()
"""``NEIGHBOURS[cell]``: the mask of the cell's (up to 8) neighbours on the board."""
# Target minus source cell is -9, -8, -7, -1, 1, 7, 8, 9 for the directions in the
# coursework's order, so ascending target cells are the tie order; this maps back.
DIRECTION_OF = np.full(19, -1, dtype=np.int64)
for _d, _delta in enumerate((-9, -8, -7, -1, 1, 7, 8, 9)):
    DIRECTION_OF[_delta + 9] = _d
TARGET_OF = np.array([8 * (a // 8 // 8 + dr) + a // 8 % 8 + dc
                      if 0 <= a // 8 // 8 + dr < 8 and 0 <= a // 8 % 8 + dc < 8 else -1
                      for a in range(512)
                      for dr, dc in [((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1),
                                      (1, 0), (1, 1))[a % 8]]], dtype=np.int64)


@njit(cache=True)
def popcount(x: np.uint64) -> int:
    """The number of set bits of ``x``."""
    x = x - ((x >> _ONE) & _M1)
    x = (x & _M2) + ((x >> _S2) & _M2)
    x = (x + (x >> _S4)) & _M4
    return np.int64((x * _H01) >> _S56)  # type: ignore[return-value]  # an int to numba


@njit(cache=True)
def lowest(x: np.uint64) -> int:
    """The index of the lowest set bit of ``x`` (``x`` not 0)."""
    return popcount((x & (~x + _ONE)) - _ONE)


_lowest = lowest


@njit(cache=True)
def crank_bits(first: np.uint64, second: np.uint64) -> tuple[np.uint64, np.uint64]:
    """One Immigration generation on the bounded 8x8 board; returns the two new masks.

    The rule is colour-symmetric, so ``crank_bits(red, blue)`` is ``crank_bits(blue, red)``
    with the results swapped.
    """
    live = first | second
    s0 = _ZERO  # bit 0 of the neighbour count
    s1 = _ZERO  # bit 1
    s2 = _ZERO  # set once the count reaches 4
    ones = _ZERO  # at least one neighbour of the first colour
    twos = _ZERO  # at least two
    for k in range(8):
        if k == 0:
            n, f = (live << _S9) & _NOT_COL1, (first << _S9) & _NOT_COL1
        elif k == 1:
            n, f = live << _S8, first << _S8
        elif k == 2:
            n, f = (live << _S7) & _NOT_COL8, (first << _S7) & _NOT_COL8
        elif k == 3:
            n, f = (live << _S1) & _NOT_COL1, (first << _S1) & _NOT_COL1
        elif k == 4:
            n, f = (live >> _S1) & _NOT_COL8, (first >> _S1) & _NOT_COL8
        elif k == 5:
            n, f = (live >> _S7) & _NOT_COL1, (first >> _S7) & _NOT_COL1
        elif k == 6:
            n, f = live >> _S8, first >> _S8
        else:
            n, f = (live >> _S9) & _NOT_COL8, (first >> _S9) & _NOT_COL8
        carry0 = s0 & n
        s0 ^= n
        carry1 = s1 & carry0
        s1 ^= carry0
        s2 |= carry1
        twos |= ones & f
        ones |= f
    two_or_three = s1 & ~s2
    survive = live & two_or_three
    birth = ~live & two_or_three & s0
    return (first & survive) | (birth & twos), (second & survive) | (birth & ~twos)


@njit(cache=True)
def count_moves(own: np.uint64, other: np.uint64) -> int:
    """How many legal moves the side with pieces ``own`` has."""
    empty = ~(own | other)
    total = 0
    rest = own
    while rest:
        cell = _lowest(rest)
        rest &= rest - _ONE
        total += popcount(NEIGHBOURS[cell] & empty)
    return total


@njit(cache=True)
def has_move(own: np.uint64, other: np.uint64) -> bool:
    """Whether the side with pieces ``own`` has a legal move: an empty cell next to one of
    its pieces."""
    near = (((own << _S9) & _NOT_COL1) | (own << _S8) | ((own << _S7) & _NOT_COL8)
            | ((own << _S1) & _NOT_COL1) | ((own >> _S1) & _NOT_COL8)
            | ((own >> _S7) & _NOT_COL1) | (own >> _S8) | ((own >> _S9) & _NOT_COL8))
    return bool((near & ~(own | other)) != _ZERO)


@njit(cache=True)
def nth_move(own: np.uint64, other: np.uint64, index: int) -> int:
    """The ``index``-th legal move (0-based, tie order) as an action, or -1 past the end."""
    empty = ~(own | other)
    rest = own
    while rest:
        cell = _lowest(rest)
        rest &= rest - _ONE
        targets = NEIGHBOURS[cell] & empty
        count = popcount(targets)
        if index < count:
            for _ in range(index):
                targets &= targets - _ONE
            return cell * 8 + DIRECTION_OF[_lowest(targets) - cell + 9]  # type: ignore[no-any-return]
        index -= count
    return -1


@njit(cache=True)
def children(own: np.uint64, other: np.uint64, actions: np.ndarray, owns: np.ndarray,
              others: np.ndarray) -> int:
    """Fill the arrays with every move of the side to move (tie order) and the position
    after it and its crank (the mover's pieces, the other's); return how many."""
    empty = ~(own | other)
    count = 0
    rest = own
    while rest:
        cell = _lowest(rest)
        rest &= rest - _ONE
        from_bit = _ONE << np.uint64(cell)
        targets = NEIGHBOURS[cell] & empty
        while targets:
            target = _lowest(targets)
            targets &= targets - _ONE
            mine, theirs = crank_bits((own ^ from_bit) | (_ONE << np.uint64(target)), other)
            actions[count] = cell * 8 + DIRECTION_OF[target - cell + 9]
            owns[count] = mine
            others[count] = theirs
            count += 1
    return count


@njit(cache=True)
def _worst_reply(mine: np.uint64, theirs: np.uint64, floor: int) -> int:
    # The opponent's reply minimising my land-grab value; stops as soon as that value is
    # <= floor (the caller's best so far), since such a move can no longer be chosen.
    empty = ~(mine | theirs)
    worst = 1000
    found = False
    rest = theirs
    while rest:
        cell = _lowest(rest)
        rest &= rest - _ONE
        from_bit = _ONE << np.uint64(cell)
        targets = NEIGHBOURS[cell] & empty
        while targets:
            target = _lowest(targets)
            targets &= targets - _ONE
            found = True
            t2, m2 = crank_bits((theirs ^ from_bit) | (_ONE << np.uint64(target)), mine)
            value = popcount(m2) - popcount(t2)
            if value < worst:
                worst = value
                if worst <= floor:
                    return worst
    if not found:
        return popcount(mine) - popcount(theirs)
    return worst


@njit(cache=True)
def choose(kind: int, own: np.uint64, other: np.uint64) -> int:
    """The move (action) a deterministic strategy ``kind`` picks, first best in tie order;
    -1 when there is no legal move. Not for :data:`RANDOM`."""
    empty = ~(own | other)
    best = -1000
    best_action = -1
    rest = own
    while rest:
        cell = _lowest(rest)
        rest &= rest - _ONE
        from_bit = _ONE << np.uint64(cell)
        targets = NEIGHBOURS[cell] & empty
        while targets:
            target = _lowest(targets)
            targets &= targets - _ONE
            mine, theirs = crank_bits((own ^ from_bit) | (_ONE << np.uint64(target)), other)
            if kind == BLOODLUST:
                value = -popcount(theirs)
            elif kind == SELF_PRESERVATION:
                value = popcount(mine)
            elif kind == LAND_GRAB:
                value = popcount(mine) - popcount(theirs)
            elif theirs == _ZERO:
                value = popcount(mine)
            else:
                value = _worst_reply(mine, theirs, best)
            if value > best:
                best = value
                best_action = cell * 8 + DIRECTION_OF[target - cell + 9]
    return best_action


@njit(cache=True)
def play(blue: np.uint64, red: np.uint64, to_move: int, played: int, kind0: int, kind1: int,
         pool0: np.ndarray, cursor0: int, pool1: np.ndarray, cursor1: int,
         moves: np.ndarray) -> tuple[int, int, int, int]:
    """Play one game to the end. Writes the actions to ``moves``; returns (number of moves,
    ending code (:func:`ending`), doubles used from ``pool0``, doubles used from ``pool1``)."""
    count = 0
    used0 = 0
    used1 = 0
    player = to_move
    total = played
    while True:
        if player == 0:
            own, other, kind = blue, red, kind0
        else:
            own, other, kind = red, blue, kind1
        code = _ending_compiled(popcount(blue), popcount(red), total, has_move(own, other))
        if code != GOES_ON:
            return count, code, used0, used1
        if kind == RANDOM:
            n = count_moves(own, other)
            if player == 0:
                u = pool0[cursor0 + used0]
                used0 += 1
            else:
                u = pool1[cursor1 + used1]
                used1 += 1
            action = nth_move(own, other, int(u * n))
        else:
            action = choose(kind, own, other)
        cell = action // 8
        moved = (own ^ (_ONE << np.uint64(cell))) | (_ONE << np.uint64(TARGET_OF[action]))
        own, other = crank_bits(moved, other)
        if player == 0:
            blue, red = own, other
        else:
            red, blue = own, other
        moves[count] = action
        count += 1
        total += 1
        player = 1 - player


class RandomStream:
    """The doubles a random agent seeded with ``seed`` draws, pre-drawn in blocks: the
    generator ``numpy.random.default_rng(seed)`` gives the same stream whether drawn one at a
    time or many at once.

    >>> stream = RandomStream(5); stream.ensure(3)
    >>> float(stream.pool[0]) == float(np.random.default_rng(5).random())
    True
    """

    def __init__(self, seed: int | None, block: int = 4096) -> None:
        self.rng = np.random.default_rng(seed)
        self.block = block
        self.pool = np.empty(0, dtype=np.float64)
        self.cursor = 0

    def ensure(self, needed: int) -> None:
        """Make sure ``needed`` unread doubles are in :attr:`pool` from :attr:`cursor` on."""
        if len(self.pool) - self.cursor < needed:
            fresh = self.rng.random(max(self.block, needed))
            self.pool = np.concatenate([self.pool[self.cursor:], fresh])
            self.cursor = 0


def board_to_bits(board: np.ndarray) -> tuple[np.uint64, np.uint64]:
    """The (blue, red) masks of an ``(8, 8)`` board of 0/1/2."""
    flat = np.asarray(board).reshape(64)
    weights = np.uint64(1) << np.arange(64, dtype=np.uint64)
    return (np.bitwise_or.reduce(weights[flat == 1], initial=np.uint64(0)),
            np.bitwise_or.reduce(weights[flat == 2], initial=np.uint64(0)))


def bits_to_board(blue: np.uint64, red: np.uint64) -> np.ndarray:
    """The ``(8, 8)`` int8 board of two masks."""
    index = np.arange(64, dtype=np.uint64)
    b = (np.uint64(blue) >> index) & np.uint64(1)
    r = (np.uint64(red) >> index) & np.uint64(1)
    return (b + 2 * r).astype(np.int8).reshape(8, 8)


def parse_setup(setup: str) -> tuple[np.uint64, np.uint64, int, int] | None:
    """(blue, red, side to move, moves played) of a well-formed setup string, quickly;
    ``None`` for anything unusual, which the caller sends through
    :meth:`WarOfLifeState.from_setup <lifearena.games.war_of_life.WarOfLifeState.from_setup>`
    for its checks and precise error messages.

    >>> blue, red, to_move, played = parse_setup("[[[1,1]],[[8,8]]] r 3")
    >>> int(blue), int(red) == 1 << 63, to_move, played
    (1, True, 1, 3)
    >>> parse_setup("[[[9,9]],[]]") is None
    True
    """
    head, bracket, tail = setup.rpartition("]")
    words = tail.split()
    to_move = 0
    played = 0
    try:
        data = json.loads(head + bracket)
        if words and words[0] in ("b", "r"):
            to_move = "br".index(words.pop(0))
        if words:
            played = int(words.pop(0))
        blue = red = 0
        for colour, cells in enumerate(data):
            mask = 0
            for row, col in cells:
                if not (1 <= row <= 8 and 1 <= col <= 8) or type(row) is not int \
                        or type(col) is not int:
                    return None
                mask |= 1 << ((row - 1) * 8 + col - 1)
            if colour == 0:
                blue = mask
            else:
                red = mask
        if len(data) != 2 or words or blue & red or not 0 <= played <= MAX_MOVES \
                or sum(map(len, data)) != (blue | red).bit_count():
            return None
    except (ValueError, TypeError, json.JSONDecodeError):
        return None
    return np.uint64(blue), np.uint64(red), to_move, played
