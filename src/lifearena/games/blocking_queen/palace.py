"""Palace numbers of the blocking queen game (k-Blocking Wythoff Nim): the game's solution.

They live with the game (the perfect player of :mod:`lifearena.agents.blocking_queen` plays
by them); the study of their self-organised regions and pictures is
:mod:`lifearena.studies.palace_picture`.

A queen stands on square (x, y), x, y >= 0, and moves west, north or north-west any
distance; after moving, the mover may block up to k - 1 of the squares the opponent could
move to next. A square is a *palace* (a P-position: whoever moves the queen there wins) iff
fewer than k palaces are visible from it looking due north, due west and due north-west
(strictly closer to the origin). That count is the square's *palace number* n(x, y)
(Larsson, "Blocking Wythoff Nim", Electron. J. Combin. 18 (2011); Cook, Larsson and Neary,
"A cellular automaton for blocking queen games", Natural Computing 2016, arXiv 1506.01431).

Three independent ways to compute them:

* ``method="direct"``: the definition, counting palaces along the three lines (slow; the
  reference the others are tested against).
* ``method="dp"``: row by row with three counters per column in O(width) memory, with a
  numba row kernel (:mod:`lifearena.games.blocking_queen.palace_kernels`);
  :func:`palace_rows` streams rows of any length without holding the region.
* ``method="ca"``: the paper's fourth-order cellular automaton on the diamond space-time
  grid, in plain numpy (:func:`palace_numbers_ca`).

Arrays are indexed ``n[y, x]`` with y growing downward (south), as pictures are drawn.

>>> palace_numbers(1, 6, 4).tolist()
[[0, 1, 1, 1, 1, 1], [1, 1, 0, 1, 1, 1], [1, 0, 3, 2, 1, 1], [1, 1, 2, 1, 1, 0]]
>>> p_positions(1, 11)   # Wythoff's pairs
[(0, 0), (1, 2), (3, 5), (4, 7), (6, 10)]
>>> p_positions(2, 6)
[(0, 0), (0, 1), (1, 3), (2, 2), (2, 5)]
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Literal

import numpy as np

from lifearena.errors import BadParameterError
from lifearena.games.blocking_queen import palace_kernels as kernels

Method = Literal["dp", "ca", "direct"]
METHODS: tuple[str, ...] = ("dp", "ca", "direct")


def check_k(k: int) -> int:
    """Return k as an int, or raise BadParameterError unless it is an integer >= 1."""
    if isinstance(k, bool) or not isinstance(k, int | np.integer) or k < 1:
        raise BadParameterError(f"blocking parameter k={k!r}; expected an integer >= 1")
    return int(k)


def _check_size(name: str, value: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < 0:
        raise BadParameterError(f"{name}={value!r}; expected an integer >= 0")
    return int(value)


def palace_numbers(k: int, width: int, height: int, method: Method = "dp") -> np.ndarray:
    """Palace numbers of the squares 0 <= x < width, 0 <= y < height, as ``n[y, x]``.

    >>> n = palace_numbers(3, 40, 30)
    >>> bool((n == palace_numbers(3, 40, 30, method="ca")).all())
    True
    >>> n.dtype.name, n.shape
    ('int32', (30, 40))
    """
    k = check_k(k)
    width = _check_size("width", width)
    height = _check_size("height", height)
    if method == "dp":
        return palace_numbers_dp(k, width, height)
    if method == "ca":
        return palace_numbers_ca(k, width, height)
    if method == "direct":
        return palace_numbers_direct(k, width, height)
    raise BadParameterError(f"method={method!r}; expected one of {', '.join(METHODS)}")


def palace_numbers_direct(k: int, width: int, height: int) -> np.ndarray:
    """The definition, square by square: count the palaces along the three lines.

    >>> palace_numbers_direct(2, 4, 3).tolist()
    [[0, 1, 2, 2], [1, 3, 2, 1], [2, 2, 1, 3]]
    """
    n = np.zeros((height, width), np.int32)
    palace = np.zeros((height, width), bool)
    for y in range(height):
        for x in range(width):
            seen = sum(palace[j, x] for j in range(y))
            seen += sum(palace[y, i] for i in range(x))
            seen += sum(palace[y - t, x - t] for t in range(1, min(x, y) + 1))
            n[y, x] = seen
            palace[y, x] = seen < k
    return n


def _new_counters(k: int, width: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    dtype = kernels.counter_dtype(k)
    return np.zeros(width, dtype), np.zeros(width + 1, dtype), np.zeros(width, dtype)


def palace_numbers_dp(k: int, width: int, height: int) -> np.ndarray:
    """Row-by-row dynamic programme (numba kernel), the default method."""
    col, _, _ = _new_counters(k, width)
    dg = np.zeros(width + height, col.dtype)
    dest = np.zeros((height, width), col.dtype)
    if width and height:
        kernels.sparse_fill(k, 0, col, dg, dest)
    return dest.astype(np.int32, copy=False)


def palace_rows(k: int, width: int, height: int | None = None) -> Iterator[np.ndarray]:
    """Yield the rows y = 0, 1, ... of palace numbers (``height`` rows, or without end).

    Only the three counter arrays are kept between rows, so this streams regions of any
    height; each yielded row is a fresh int32 array of length ``width``.

    >>> rows = palace_rows(1, 8)
    >>> [next(rows).tolist() for _ in range(2)]
    [[0, 1, 1, 1, 1, 1, 1, 1], [1, 1, 0, 1, 1, 1, 1, 1]]
    """
    k = check_k(k)
    width = _check_size("width", width)
    if height is not None:
        height = _check_size("height", height)
    col, diag, out = _new_counters(k, width)
    y = 0
    while height is None or y < height:
        if width:
            kernels.advance_rows(k, col, diag, out, 1)
        yield out.astype(np.int32)
        y += 1


def palace_numbers_ca(k: int, width: int, height: int) -> np.ndarray:
    """Palace numbers through the fourth-order cellular automaton of Cook, Larsson and Neary.

    With s = n - k and [s < 0] meaning "is a palace", every square obeys

        s(x,y) = s(x-1,y) + s(x,y-1) - s(x-2,y-1) - s(x-1,y-2) + s(x-2,y-2)
                 + [s(x-1,y)<0] + [s(x,y-1)<0] - [s(x-1,y-1)<0]
                 - 2[s(x-2,y-1)<0] - 2[s(x-1,y-2)<0] + 3[s(x-2,y-2)<0],

    with s = k where x < 0 and y < 0, and s = 0 where exactly one coordinate is negative.
    The automaton runs in time t = x + y: generation t is the anti-diagonal x + y = t, held
    as an array over x (space x - y = 2x - t), and each cell reads its two parents
    (generation t - 1), its central grandparent (t - 2), that grandparent's parents (t - 3)
    and its central grandparent (t - 4). The rule itself never mentions k.

    >>> palace_numbers_ca(1, 4, 3).tolist()
    [[0, 1, 1, 1], [1, 1, 0, 1], [1, 0, 3, 2]]
    """
    n = np.zeros((height, width), np.int32)
    if width == 0 or height == 0:
        return n
    pad = 2
    xs = np.arange(-pad, width)  # generation arrays cover x = -2 .. width - 1

    def boundary(t: int) -> np.ndarray:
        ys = t - xs
        gen = np.zeros(xs.shape, np.int64)
        gen[(xs < 0) & (ys < 0)] = k
        return gen

    # gens[0] is generation t - 1, gens[3] is t - 4.
    gens = [boundary(-1), boundary(-2), boundary(-3), boundary(-4)]
    inside = slice(pad, None)  # x >= 0
    for t in range(width + height - 1):
        g1, g2, g3, g4 = gens
        west = g1[pad - 1:-1]      # (x-1, y)     generation t-1
        north = g1[inside]         # (x, y-1)     generation t-1
        nw = g2[pad - 1:-1]        # (x-1, y-1)   generation t-2
        wnw = g3[pad - 2:-2]       # (x-2, y-1)   generation t-3
        nnw = g3[pad - 1:-1]       # (x-1, y-2)   generation t-3
        nwnw = g4[pad - 2:-2]      # (x-2, y-2)   generation t-4
        s = (west + north - wnw - nnw + nwnw
             + (west < 0) + (north < 0) - (nw < 0)
             - 2 * (wnw < 0) - 2 * (nnw < 0) + 3 * (nwnw < 0))
        gen = boundary(t)
        ys = t - xs[inside]
        gen[inside] = np.where(ys >= 0, s, gen[inside])
        gens = [gen, g1, g2, g3]
        on_board = (ys >= 0) & (ys < height)
        n[ys[on_board], xs[inside][on_board]] = s[on_board] + k
    return n


def p_positions(k: int, limit: int) -> list[tuple[int, int]]:
    """The P-positions (palaces) (x, y) with x <= y < limit, sorted by x then y.

    The board is symmetric, so (y, x) is a P-position too.

    >>> p_positions(3, 6)
    [(0, 0), (0, 1), (0, 2), (1, 3), (1, 4), (2, 5)]
    """
    k = check_k(k)
    limit = _check_size("limit", limit)
    # row by row: the whole limit x limit table would need gigabytes for a limit of 50,000
    pairs: list[tuple[int, int]] = []
    for y, row in enumerate(palace_rows(k, limit, limit)):
        pairs.extend((int(x), y) for x in np.flatnonzero(row[:y + 1] < k))
    return sorted(pairs)


def in_hood(k: int, x: int, y: int) -> bool:
    """Whether (x, y) lies in the hood, the squares with x + y + min(x, y) < k.

    In the hood every square sees fewer than k squares along its three lines, so its palace
    number is at most k - 1 and every square there is a palace.

    >>> in_hood(10, 3, 3), in_hood(10, 3, 4)
    (True, False)
    """
    return x + y + min(x, y) < k
