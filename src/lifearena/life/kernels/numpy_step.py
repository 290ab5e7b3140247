"""A plain vectorised numpy step: the baseline the fast kernels are measured against.

Works on one grid ``(h, w)`` or a batch ``(n, h, w)``; the neighbour counts come from eight
shifted copies of each colour's mask, and the next state from one table lookup.

>>> import numpy as np
>>> from lifearena.life.rules import Rule
>>> glider = np.zeros((5, 5), dtype=np.int8); glider[0, 1] = glider[1, 2] = 1
>>> glider[2, 0:3] = 1
>>> int(numpy_step(glider, Rule.named("life"), torus=True).sum())
5
"""

from __future__ import annotations

import numpy as np

from lifearena.life.coin import coin_colours
from lifearena.life.rules import COIN, Rule


def neighbour_counts(mask: np.ndarray, *, torus: bool) -> np.ndarray:
    """For each cell, how many of its 8 neighbours are set in ``mask`` (last two axes)."""
    mask = mask.astype(np.uint8)
    if torus:
        total = np.zeros(mask.shape, dtype=np.uint8)
        for dy in (-1, 0, 1):
            rolled = np.roll(mask, dy, axis=-2)
            for dx in (-1, 0, 1):
                if dy or dx:
                    total += np.roll(rolled, dx, axis=-1)
        return total
    pad = [(0, 0)] * (mask.ndim - 2) + [(1, 1), (1, 1)]
    padded = np.pad(mask, pad)
    height, width = mask.shape[-2:]
    total = np.zeros(mask.shape, dtype=np.uint8)
    for dy in (0, 1, 2):
        for dx in (0, 1, 2):
            if dy != 1 or dx != 1:
                total += padded[..., dy : dy + height, dx : dx + width]
    return total


def numpy_step(
    cells: np.ndarray,
    rule: Rule,
    *,
    torus: bool = False,
    seed: int | np.ndarray = 0,
    generation: int = 0,
) -> np.ndarray:
    """One generation on a grid or a batch of grids; ``seed`` may be one per board."""
    n1 = neighbour_counts(cells == 1, torus=torus)
    n2 = neighbour_counts(cells == 2, torus=torus)
    out = rule.table[cells, n1, n2]
    if rule.uses_coin:
        coins = np.nonzero(out == COIN)
        if coins[0].size:
            width = cells.shape[-1]
            index = coins[-2].astype(np.int64) * width + coins[-1]
            if cells.ndim == 2:
                out[coins] = coin_colours(int(seed), generation, index)
            else:
                seeds = np.broadcast_to(np.asarray(seed, dtype=object), cells.shape[:1])
                for board in np.unique(coins[0]):
                    pick = coins[0] == board
                    out[tuple(c[pick] for c in coins)] = coin_colours(
                        int(seeds[board]), generation, index[pick]
                    )
    return out
