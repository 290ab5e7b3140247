"""The reference step: slow, plain Python, obviously correct.

Every fast kernel is tested against :func:`reference_step`. It visits each cell, counts its
eight neighbours of each colour (wrapping around on a torus, treating cells outside the grid
as empty otherwise) and looks the answer up in the rule table.

>>> import numpy as np
>>> from lifearena.life.rules import Rule
>>> blinker = np.array([[0, 0, 0], [1, 1, 1], [0, 0, 0]], dtype=np.int8)
>>> reference_step(blinker, Rule.named("life")).tolist()
[[0, 1, 0], [0, 1, 0], [0, 1, 0]]
"""

from __future__ import annotations

import numpy as np

from lifearena.life.coin import coin_colour
from lifearena.life.rules import COIN, Rule

NEIGHBOUR_OFFSETS = tuple((dy, dx) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if (dy, dx) != (0, 0))


def reference_step(
    cells: np.ndarray, rule: Rule, *, torus: bool = False, seed: int = 0, generation: int = 0
) -> np.ndarray:
    """One generation of ``rule`` on the 2-D grid ``cells`` (values 0, 1, 2)."""
    height, width = cells.shape
    grid = cells.tolist()
    out = np.zeros((height, width), dtype=np.int8)
    for y in range(height):
        for x in range(width):
            counts = [0, 0, 0]
            for dy, dx in NEIGHBOUR_OFFSETS:
                ny, nx = y + dy, x + dx
                if torus:
                    ny, nx = ny % height, nx % width
                elif not (0 <= ny < height and 0 <= nx < width):
                    continue
                counts[grid[ny][nx]] += 1
            value = int(rule.table[grid[y][x], counts[1], counts[2]])
            if value == COIN:
                value = coin_colour(seed, generation, y * width + x)
            out[y, x] = value
    return out
