"""The plain compiled loop the bit-parallel kernel's speed is quoted against.

One byte per cell, as :func:`lifearena.life.kernels.reference.reference_step` does it but
compiled by numba: for each cell, count the two colours among its eight neighbours (read
from a copy of the grid with a one-cell border: the wrapped-around cells on a torus, empty
on a bounded grid) and look the next state up in the rule's
``(3, 9, 9)`` table, a coin entry drawn with :mod:`lifearena.life.coin`'s hash. Nothing in
it is arranged for speed, so its throughput follows the machine's scalar speed, and the
ratio of the bit-parallel kernel to it measures the kernel's own advantage: the same core,
process and compiler on both sides.

>>> import numpy as np
>>> from lifearena.life.rules import Rule
>>> blinker = np.zeros((5, 5), dtype=np.int8); blinker[2, 1:4] = 1
>>> plain_step(blinker, Rule.named("life").table, False, np.uint64(0), 0)[1:4, 2].tolist()
[1, 1, 1]
"""

from __future__ import annotations

import numpy as np
from numba import njit

from lifearena.life.kernels.bitlogic import coin_start, mix64
from lifearena.life.rules import COIN

_INDEX_MULTIPLIER = np.uint64(0xD1B54A32D192ED03)


@njit(cache=True)
def _padded(cells: np.ndarray, torus: bool) -> np.ndarray:
    """``cells`` with a one-cell border: the wrapped-around cells on a torus, else empty."""
    height, width = cells.shape
    padded = np.zeros((height + 2, width + 2), dtype=np.int8)
    padded[1:-1, 1:-1] = cells
    if torus:
        padded[0, 1:-1] = cells[-1]
        padded[-1, 1:-1] = cells[0]
        padded[:, 0] = padded[:, -2]
        padded[:, -1] = padded[:, 1]
    return padded


@njit(cache=True)
def plain_step(cells: np.ndarray, table: np.ndarray, torus: bool, seed: np.uint64,
               generation: int) -> np.ndarray:
    """One generation of the rule ``table`` on the int8 grid ``cells``."""
    height, width = cells.shape
    padded = _padded(cells, torus)
    out = np.empty_like(cells)
    start = coin_start(seed, np.int64(generation))
    for y in range(height):
        for x in range(width):
            n1 = 0
            n2 = 0
            for dy in range(3):
                for dx in range(3):
                    if dy != 1 or dx != 1:
                        neighbour = padded[y + dy, x + dx]
                        n1 += neighbour == 1
                        n2 += neighbour == 2
            value = table[cells[y, x], n1, n2]
            if value == COIN:
                z = mix64(start ^ (np.uint64(y * width + x) * _INDEX_MULTIPLIER))
                value = 2 if z >> np.uint64(63) else 1
            out[y, x] = value
    return out
