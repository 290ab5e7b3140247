"""Compiled row kernels for palace numbers of the blocking queen game (numba).

The dynamic programme walks the board row by row, north to south, keeping three counters:
``col[x]`` palaces above (x, y) in column x, a diagonal counter of palaces north-west of
(x, y), and one running counter ``r`` of palaces to the west in the current row. The palace
number is their sum; the square is a palace when that is below k. Only O(width) memory is
held, so rows can be streamed for as long as wanted. Two kernels:

* the **scan kernel** (:func:`advance_rows`, :func:`fill_rows`) keeps the diagonal counters
  per column, ``diag[x]``, shifting them one column east each row, and walks every square;
  the only loop-carried dependency is ``r`` (the test ``r < k - col[x] - diag[x]`` compares
  r against a value computed without it). About 1 ns per square. It needs no bound on the
  number of rows, so :func:`lifearena.games.blocking_queen.palace.palace_rows` streams with it.
* the **sparse kernel** (:func:`sparse_row` and the folds built on it) keeps one counter
  per diagonal x - y instead, so nothing shifts, and exploits that a row holds at most k
  palaces, clustered: three vectorised passes, and a square-by-square walk only through the
  chunks of 64 squares that hold a palace. About 0.2 ns per square far from the origin; it
  needs the number of rows up front (the diagonal array has width + height entries).

The counters use the dtype of the arrays passed in: every row, column and diagonal holds at
most k palaces (the (k+1)-th one would see k of them), so palace numbers stay below 3k and
int16 suffices for k <= 10,000, which halves the memory traffic of int32.

>>> import numpy as np
>>> col = np.zeros(5, np.int32); diag = np.zeros(6, np.int32); out = np.zeros(5, np.int32)
>>> advance_rows(1, col, diag, out, 1)
>>> out.tolist()   # row y = 0 for k = 1: only the origin is a palace
[0, 1, 1, 1, 1]
>>> advance_rows(1, col, diag, out, 2)
>>> out.tolist()   # row y = 2 for k = 1: (1, 2) is a palace (Wythoff pair (1, 2))
[1, 0, 3, 2, 1]
>>> col = np.zeros(5, np.int32); dg = np.zeros(5 + 3, np.int32)
>>> sparse_advance(1, 0, col, dg, out, 3)
>>> out.tolist()   # the same row from the sparse kernel
[1, 0, 3, 2, 1]
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def _row(  # pragma: no cover - compiled
    k: int, col: np.ndarray, diag: np.ndarray, out: np.ndarray
) -> None:
    """Compute one row into ``out`` (palace numbers) and update the counters in place.

    ``diag`` has one more entry than ``col``; ``diag[0]`` is always 0 (nothing lies
    north-west of column 0) and ``diag[x + 1]`` receives the count for the next row.
    """
    width = col.shape[0]
    r = 0
    carry = diag[0]
    for x in range(width):
        d = carry
        carry = diag[x + 1]
        c = col[x]
        room = k - c - d
        out[x] = c + d + r
        p = 1 if r < room else 0
        r += p
        col[x] = c + p
        diag[x + 1] = d + p


@njit(cache=True)
def advance_rows(  # pragma: no cover - compiled
    k: int, col: np.ndarray, diag: np.ndarray, out: np.ndarray, nrows: int
) -> None:
    """Advance the counters by ``nrows`` rows; ``out`` holds the last row's palace numbers."""
    for _ in range(nrows):
        _row(k, col, diag, out)


@njit(cache=True)
def fill_rows(  # pragma: no cover - compiled
    k: int, col: np.ndarray, diag: np.ndarray, dest: np.ndarray
) -> None:
    """Compute ``dest.shape[0]`` consecutive rows into ``dest`` (rows x width)."""
    for y in range(dest.shape[0]):
        _row(k, col, diag, dest[y])


CHUNK = 64
"""Squares per chunk of the sparse row kernel."""


@njit(cache=True)
def sparse_row(  # pragma: no cover - compiled
    k: int, y: int, col: np.ndarray, dg: np.ndarray, out: np.ndarray
) -> None:
    """Compute row ``y`` into ``out`` with the diagonal counters indexed by diagonal.

    ``dg[x - y + h]`` counts the palaces on the diagonal through (x, y) above row y, where
    ``h = dg.shape[0] - col.shape[0]`` bounds the rows, so ``dg`` never shifts. Between two
    palaces of a row the row count r is constant, and a square is a palace iff
    ``col[x] + dg[...] < k - r``. So the row goes in three passes that vectorise:

    1. ``out[x] = col[x] + dg[...]`` for the whole row;
    2. chunk by chunk, count the squares below ``k - r``; only chunks that hold a palace are
       walked square by square (rows hold at most k palaces, which cluster, so few are);
       there ``out`` gets ``n - r0`` with r0 the row count at the chunk's start;
    3. add each chunk's r0 to its squares: ``out`` is now the palace numbers.
    """
    # Index through views starting at 0: with an index that might be negative numba checks
    # for wrap-around on every access, and those checks keep the loops from vectorising.
    w = col.shape[0]
    base = dg.shape[0] - w - y
    d = dg[base:base + w]
    for i in range(w):
        out[i] = col[i] + d[i]
    r = 0
    for lo in range(0, w, CHUNK):
        seg = out[lo:lo + CHUNK]
        room = k - r
        below = 0
        for i in range(seg.shape[0]):
            below += seg[i] < room
        if below:
            r0 = r
            cseg = col[lo:lo + CHUNK]
            dseg = d[lo:lo + CHUNK]
            for i in range(seg.shape[0]):
                v = seg[i]
                seg[i] = v + r - r0
                if v + r < k:
                    r += 1
                    cseg[i] += 1
                    dseg[i] += 1
            for i in range(seg.shape[0]):
                seg[i] += r0
        elif r:
            for i in range(seg.shape[0]):
                seg[i] += r


@njit(cache=True)
def sparse_fill(  # pragma: no cover - compiled
    k: int, y0: int, col: np.ndarray, dg: np.ndarray, dest: np.ndarray
) -> None:
    """Rows ``y0 .. y0 + dest.shape[0] - 1`` into ``dest`` with :func:`sparse_row`."""
    for i in range(dest.shape[0]):
        sparse_row(k, y0 + i, col, dg, dest[i])


@njit(cache=True)
def sparse_advance(  # pragma: no cover - compiled
    k: int, y0: int, col: np.ndarray, dg: np.ndarray, out: np.ndarray, nrows: int
) -> None:
    """Rows ``y0 .. y0 + nrows - 1`` without keeping them (``out`` holds the last)."""
    for i in range(nrows):
        sparse_row(k, y0 + i, col, dg, out)


@njit(cache=True)
def fold_rows_sum(  # pragma: no cover - compiled
    k: int, y0: int, col: np.ndarray, dg: np.ndarray, out: np.ndarray, nrows: int, x0: int,
    sat: int, sums: np.ndarray
) -> None:
    """Rows ``y0 ..`` (``nrows`` of them), adding ``clip(n - k, -sat, sat)`` of each window
    square to ``sums[i]`` (window column ``x0 + i``): a straight loop, which vectorises."""
    w = sums.shape[0]
    view = out[x0:x0 + w]
    for j in range(nrows):
        sparse_row(k, y0 + j, col, dg, out)
        for i in range(w):
            v = view[i] - k
            sums[i] += min(max(v, -sat), sat)


@njit(cache=True)
def fold_rows_hist(  # pragma: no cover - compiled
    k: int, y0: int, col: np.ndarray, dg: np.ndarray, out: np.ndarray, nrows: int, x0: int,
    sat: int, hist: np.ndarray
) -> None:
    """Rows ``y0 ..`` (``nrows`` of them), counting in ``hist[i, v + sat]`` how often window
    column ``x0 + i`` showed ``v = clip(n - k, -sat, sat)``. Consecutive squares hit
    different rows of ``hist``, so the increments do not wait on one another."""
    w = hist.shape[0]
    view = out[x0:x0 + w]
    for j in range(nrows):
        sparse_row(k, y0 + j, col, dg, out)
        for i in range(w):
            v = view[i] - k
            hist[i, min(max(v, -sat), sat) + sat] += 1


@njit(cache=True)
def reduce_blocks(  # pragma: no cover - compiled
    per_column: np.ndarray, block: int, dest: np.ndarray
) -> None:
    """Sum ``per_column`` (columns first) over runs of ``block`` columns into ``dest``."""
    for i in range(per_column.shape[0]):
        dest[i // block] += per_column[i]


def counter_dtype(k: int) -> type[np.signedinteger]:
    """The narrowest signed integer type that holds every palace number for this k.

    >>> counter_dtype(1000).__name__, counter_dtype(20000).__name__
    ('int16', 'int32')
    """
    if 3 * k + 3 < np.iinfo(np.int16).max:
        return np.int16
    if 3 * k + 3 < np.iinfo(np.int32).max:
        return np.int32
    return np.int64
