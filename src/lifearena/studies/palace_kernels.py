"""Compiled row kernels for palace numbers of the blocking queen game (numba).

The dynamic programme walks the board row by row, north to south, keeping three counters
per column: ``col[x]`` palaces above (x, y) in column x, ``diag[x]`` palaces on the
north-west diagonal of (x, y), and one running counter ``r`` of palaces to the west in the
current row. The palace number is ``col[x] + diag[x] + r``; the square is a palace when that
is below k. Only O(width) memory is held, so rows can be streamed for as long as wanted.

The counters use the dtype of the arrays passed in: every row, column and diagonal holds at
most k palaces (the (k+1)-th one would see k of them), so palace numbers stay below 3k and
int16 suffices for k <= 10,000, which halves the memory traffic of int32.

The inner loop is arranged so that the only loop-carried dependency is ``r``: the test
``r < k - col[x] - diag[x]`` compares r against a value computed independently of r, so each
square costs one compare and one add on the critical path.

>>> import numpy as np
>>> col = np.zeros(5, np.int32); diag = np.zeros(6, np.int32); out = np.zeros(5, np.int32)
>>> advance_rows(1, col, diag, out, 1)
>>> out.tolist()   # row y = 0 for k = 1: only the origin is a palace
[0, 1, 1, 1, 1]
>>> advance_rows(1, col, diag, out, 2)
>>> out.tolist()   # row y = 2 for k = 1: (1, 2) is a palace (Wythoff pair (1, 2))
[1, 0, 3, 2, 1]
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def _row(k, col, diag, out):  # pragma: no cover - compiled
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
def advance_rows(k, col, diag, out, nrows):  # pragma: no cover - compiled
    """Advance the counters by ``nrows`` rows; ``out`` holds the last row's palace numbers."""
    for _ in range(nrows):
        _row(k, col, diag, out)


@njit(cache=True)
def fill_rows(k, col, diag, dest):  # pragma: no cover - compiled
    """Compute ``dest.shape[0]`` consecutive rows into ``dest`` (rows x width)."""
    for y in range(dest.shape[0]):
        _row(k, col, diag, dest[y])


@njit(cache=True)
def fold_rows_sum(k, col, diag, out, nrows, x0, sat, sums):  # pragma: no cover - compiled
    """Advance ``nrows`` rows, adding ``clip(n - k, -sat, sat)`` of each window square to
    ``sums[i]`` (window column ``x0 + i``). A straight loop over the row, which vectorises."""
    w = sums.shape[0]
    for _ in range(nrows):
        _row(k, col, diag, out)
        for i in range(w):
            v = out[x0 + i] - k
            sums[i] += min(max(v, -sat), sat)


@njit(cache=True)
def fold_rows_hist(k, col, diag, out, nrows, x0, sat, hist):  # pragma: no cover - compiled
    """Advance ``nrows`` rows, counting in ``hist[i, v + sat]`` how often window column
    ``x0 + i`` showed the value ``v = clip(n - k, -sat, sat)``. Consecutive squares hit
    different rows of ``hist``, so the increments do not wait on one another."""
    w = hist.shape[0]
    for _ in range(nrows):
        _row(k, col, diag, out)
        for i in range(w):
            v = out[x0 + i] - k
            hist[i, min(max(v, -sat), sat) + sat] += 1


@njit(cache=True)
def reduce_blocks(per_column, block, dest):  # pragma: no cover - compiled
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
