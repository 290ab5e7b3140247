"""The kernel of lookup rules (:class:`lifearena.life.lookup_rule.LookupRule`): each cell's
next state is one entry of a ``(3**9,)`` table indexed by its state and its eight
neighbours' (:func:`lifearena.life.universe.neighbourhood_index`).

:func:`lookup_step_numpy` is the simple definition (nine shifted copies summed into one
index); :func:`lookup_evolve` is the compiled one the engine uses, bounded (cells outside
the grid are empty) or on a torus, many generations per call. Tests hold them equal.

>>> import numpy as np
>>> from lifearena.life.lookup_rule import as_any_rule
>>> table = as_any_rule("B2-a/S12").transition_table()
>>> cells = np.zeros((4, 4), dtype=np.int8); cells[1, 1] = cells[1, 3] = 1
>>> lookup_evolve(cells, table, 1).tolist() == lookup_step_numpy(cells, table).tolist()
True
"""

from __future__ import annotations

import numpy as np
from numba import njit

_SHIFTS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))
"""``(dy, dx)`` of the neighbours in ``universe.NEIGHBOUR_ORDER``."""


def lookup_step_numpy(cells: np.ndarray, table: np.ndarray, *, torus: bool = False
                      ) -> np.ndarray:
    """One generation of a lookup rule on a 2-D grid: the reference the kernel is held to."""
    height, width = cells.shape
    padded = np.pad(cells.astype(np.int64), 1, mode="wrap" if torus else "constant")
    index = cells.astype(np.int64) * 3 ** 8
    for power, (dy, dx) in enumerate(_SHIFTS):
        index += padded[1 + dy:1 + dy + height, 1 + dx:1 + dx + width] * 3 ** power
    return np.asarray(table, dtype=np.int8)[index]


def lookup_evolve(cells: np.ndarray, table: np.ndarray, generations: int, *,
                  torus: bool = False) -> np.ndarray:
    """``cells`` (a 2-D int8 grid) after ``generations`` steps of the lookup ``table``."""
    grid = np.ascontiguousarray(cells, dtype=np.int8)
    lookup = np.ascontiguousarray(table, dtype=np.int8)
    if generations == 0:
        return grid.copy()
    return _evolve(grid, lookup, generations, torus)


@njit(cache=True)
def _evolve(cells: np.ndarray, table: np.ndarray, generations: int, torus: bool
            ) -> np.ndarray:  # pragma: no cover - compiled
    height, width = cells.shape
    # a ghost border of one cell: empty for a bounded grid, the far side for a torus
    current = np.zeros((height + 2, width + 2), dtype=np.int8)
    following = np.zeros((height + 2, width + 2), dtype=np.int8)
    current[1:height + 1, 1:width + 1] = cells
    for _ in range(generations):
        if torus:
            current[0, 1:width + 1] = current[height, 1:width + 1]
            current[height + 1, 1:width + 1] = current[1, 1:width + 1]
            current[:, 0] = current[:, width]
            current[:, width + 1] = current[:, 1]
        for y in range(1, height + 1):
            above = current[y - 1]
            row = current[y]
            below = current[y + 1]
            out = following[y]
            for x in range(1, width + 1):
                index = (above[x - 1] + 3 * above[x] + 9 * above[x + 1]
                         + 27 * row[x - 1] + 81 * row[x + 1]
                         + 243 * below[x - 1] + 729 * below[x] + 2187 * below[x + 1]
                         + 6561 * row[x])
                out[x] = table[index]
        current, following = following, current
    return current[1:height + 1, 1:width + 1].copy()
