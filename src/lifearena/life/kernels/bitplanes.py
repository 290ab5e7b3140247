"""Bit planes: a two-colour grid packed 64 cells to a ``uint64`` word, one plane per colour.

The fast kernels (:mod:`lifearena.life.kernels.bitwise`, :mod:`lifearena.life.kernels.batch`)
work on this representation. A grid of ``height x width`` cells becomes two planes (colour 1
and colour 2) of shape ``(height + 2, words + 2)`` with ``words = ceil(width / 64)``: cell
``(y, x)`` is bit ``x % 64`` of word ``[y + 1, x // 64 + 1]``. The extra border of "ghost"
words and rows lets every kernel read the eight neighbours of a word without branches; on a
bounded grid the ghosts stay zero, on a torus :func:`fill_ghosts` copies the wrapped-around
cells into them before each step. Bits past ``width`` in the last word of a row (the tail) are
zero between steps, except that on a torus :func:`fill_ghosts` puts cell 0 of the row into the
first tail bit, which is the east neighbour of the last cell.

>>> import numpy as np
>>> cells = np.array([[0, 1, 2], [2, 0, 0]], dtype=np.int8)
>>> a, b = pack(cells)
>>> a.shape, int(a[1, 1]), int(b[1, 1]), int(b[2, 1])
((4, 3), 2, 4, 1)
>>> unpack(a, b, 2, 3).tolist() == cells.tolist()
True
"""

from __future__ import annotations

import numpy as np
from numba import njit

from lifearena.life.kernels.splitmix import mix

ONE = np.uint64(1)
ZERO = np.uint64(0)
ALL = np.uint64(0xFFFFFFFFFFFFFFFF)
S1 = np.uint64(1)
S63 = np.uint64(63)


def words_for(width: int) -> int:
    """How many 64-bit words hold one row of ``width`` cells.

    >>> words_for(64), words_for(65), words_for(1)
    (1, 2, 1)
    """
    return (width + 63) // 64


def tail_mask(width: int) -> np.uint64:
    """The bits of the last word of a row that hold real cells.

    >>> hex(int(tail_mask(3))), hex(int(tail_mask(128)))
    ('0x7', '0xffffffffffffffff')
    """
    rest = width % 64
    return ALL if rest == 0 else np.uint64((1 << rest) - 1)


@njit(cache=True)
def _pack(cells: np.ndarray, a: np.ndarray, b: np.ndarray) -> None:
    height, width = cells.shape
    for y in range(height):
        row = cells[y]
        for w in range((width + 63) // 64):
            start = w * 64
            stop = min(start + 64, width)
            wa = ZERO
            wb = ZERO
            for x in range(start, stop):
                v = row[x]
                bit = ONE << np.uint64(x - start)
                if v == 1:
                    wa |= bit
                elif v == 2:
                    wb |= bit
            a[y + 1, w + 1] = wa
            b[y + 1, w + 1] = wb


@njit(cache=True)
def _unpack(a: np.ndarray, b: np.ndarray, out: np.ndarray) -> None:
    height, width = out.shape
    for y in range(height):
        row = out[y]
        for w in range((width + 63) // 64):
            start = w * 64
            stop = min(start + 64, width)
            wa = a[y + 1, w + 1]
            wb = b[y + 1, w + 1]
            for x in range(start, stop):
                shift = np.uint64(x - start)
                row[x] = np.int8(((wa >> shift) & ONE) + (((wb >> shift) & ONE) << ONE))


def pack(cells: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The padded bit planes ``(colour 1, colour 2)`` of a 2-D int8 grid (ghosts zero)."""
    height, width = cells.shape
    shape = (height + 2, words_for(width) + 2)
    a = np.zeros(shape, dtype=np.uint64)
    b = np.zeros(shape, dtype=np.uint64)
    _pack(np.ascontiguousarray(cells, dtype=np.int8), a, b)
    return a, b


def unpack(a: np.ndarray, b: np.ndarray, height: int, width: int) -> np.ndarray:
    """The int8 grid held by the padded planes ``a`` and ``b`` (ghosts and tails ignored)."""
    out = np.empty((height, width), dtype=np.int8)
    _unpack(a, b, out)
    return out


@njit(cache=True)
def _fill_plane_ghosts(p: np.ndarray, height: int, width: int, torus: bool) -> None:
    nw = (width + 63) // 64
    rest = width % 64
    if not torus:
        # Ghosts of a bounded grid are zero already; only the tail needs clearing.
        if rest:
            mask = (ONE << np.uint64(rest)) - ONE
            for y in range(1, height + 1):
                p[y, nw] &= mask
        return
    for y in range(1, height + 1):
        last = p[y, nw]
        first_cell = p[y, 1] & ONE
        if rest:
            last_cell = (last >> np.uint64(rest - 1)) & ONE
            # The east neighbour of the last cell is the first tail bit: cell 0 again.
            last = (last & ((ONE << np.uint64(rest)) - ONE)) | (first_cell << np.uint64(rest))
            p[y, nw] = last
            p[y, nw + 1] = ZERO
        else:
            last_cell = last >> S63
            p[y, nw + 1] = first_cell
        p[y, 0] = last_cell << S63
    for w in range(nw + 2):
        p[0, w] = p[height, w]
        p[height + 1, w] = p[1, w]


@njit(cache=True)
def fill_ghosts(a: np.ndarray, b: np.ndarray, height: int, width: int, torus: bool) -> None:
    """Prepare the border of both planes for a step (wrap-around copies on a torus)."""
    _fill_plane_ghosts(a, height, width, torus)
    _fill_plane_ghosts(b, height, width, torus)


@njit(cache=True)
def _popcount(w: np.uint64) -> int:
    # SWAR popcount; LLVM turns this into the popcnt instruction.
    w = w - ((w >> S1) & np.uint64(0x5555555555555555))
    w = (w & np.uint64(0x3333333333333333)) + ((w >> np.uint64(2)) & np.uint64(0x3333333333333333))
    w = (w + (w >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return int((w * np.uint64(0x0101010101010101)) >> np.uint64(56))


@njit(cache=True)
def plane_population(p: np.ndarray, height: int, width: int) -> int:
    """The number of set cells of one padded plane (tail bits masked off)."""
    nw = (width + 63) // 64
    rest = width % 64
    mask = ALL if rest == 0 else (ONE << np.uint64(rest)) - ONE
    total = 0
    for y in range(1, height + 1):
        row = p[y]
        for w in range(1, nw):
            total += _popcount(row[w])
        total += _popcount(row[nw] & mask)
    return total


@njit(cache=True)
def edge_live(a: np.ndarray, b: np.ndarray, height: int, width: int) -> bool:
    """Whether a live cell lies on the grid's outer ring (its first or last row or column).

    While that ring is empty, one step of a bounded grid (or a torus: the ring is all that
    wraps) is exactly the step of the unbounded plane, since nothing outside can be born.
    Costs a pass over two rows and two columns, not the grid.
    """
    nw = (width + 63) // 64
    rest = width % 64
    mask = ALL if rest == 0 else (ONE << np.uint64(rest)) - ONE
    last = ONE << np.uint64((width - 1) % 64)
    for p in (a, b):
        for y in (1, height):
            for w in range(1, nw):
                if p[y, w]:
                    return True
            if p[y, nw] & mask:
                return True
        for y in range(1, height + 1):
            if (p[y, 1] & ONE) or (p[y, nw] & last):
                return True
    return False


@njit(cache=True)
def planes_digest(a: np.ndarray, b: np.ndarray, height: int,
                  width: int) -> tuple[np.uint64, np.uint64]:
    """Two 64-bit hashes of the cells held by the planes (tails and ghosts ignored).

    Each word is keyed by its position and passed through SplitMix64's finaliser (a
    bijection), and the results are summed: the terms are independent, so the loop
    vectorises and a run can afford to remember every configuration.
    """
    nw = (width + 63) // 64
    rest = width % 64
    mask = ALL if rest == 0 else (ONE << np.uint64(rest)) - ONE
    stride = nw + 2
    fa = a.reshape(-1)
    fb = b.reshape(-1)
    k1 = np.uint64(0x9E3779B97F4A7C15)
    k2 = np.uint64(0xC2B2AE3D27D4EB4F)
    h1 = ZERO
    h2 = ZERO
    for y in range(1, height + 1):
        fa[y * stride + nw] &= mask
        fb[y * stride + nw] &= mask
    for j in range(stride + 1, (height + 1) * stride - 1):
        if j % stride != 0 and j % stride != stride - 1:
            key = np.uint64(j) * k1
            h1 += mix(fa[j] ^ key) + mix(fb[j] ^ ~key) * k2
            h2 += mix(fa[j] + key * k2) * k1 + mix(fb[j] - key)
    return mix(h1 ^ np.uint64(height)), mix(h2 ^ np.uint64(width))
