"""Each cell's eight neighbours on a bounded or toroidal grid, as a table the compiled
kernels index: the one neighbour table of the p2life kernels (generation, greedy scoring).

Cells are numbered in reading order, ``y * width + x``. Row ``c`` of the table lists cell
``c``'s neighbours in the order of the offsets ``(dy, dx)`` for ``dy`` and ``dx`` in
``(-1, 0, 1)``, the cell itself left out. Where a bounded grid ends, the entry is
``height * width``: one cell past the grid that the kernels keep always empty, so a loop over
the eight neighbours needs no edge test. On a torus the rows and columns wrap round (on a
grid 2 wide, the same neighbour appears twice, as Life counts it).

>>> neighbour_table(3, 3, torus=False)[0].tolist()
[9, 9, 9, 9, 1, 9, 3, 4]
>>> neighbour_table(2, 3, torus=True)[0].tolist()
[5, 3, 4, 2, 1, 5, 3, 4]
"""

from __future__ import annotations

import numpy as np

OFFSETS = tuple((dy, dx) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if (dy, dx) != (0, 0))
"""The eight neighbours' offsets ``(dy, dx)``, in the table's column order."""


def neighbour_table(height: int, width: int, torus: bool) -> np.ndarray:
    """``(height * width, 8)`` int64: each cell's neighbours, ``height * width`` (a cell
    that is always empty) off the edge of a bounded grid (see the module doc)."""
    if height < 1 or width < 1:
        raise ValueError(f"a {height}x{width} grid; expected at least 1x1")
    y, x = np.divmod(np.arange(height * width), width)
    columns = []
    for dy, dx in OFFSETS:
        ny, nx = y + dy, x + dx
        if torus:
            columns.append((ny % height) * width + nx % width)
        else:
            inside = (ny >= 0) & (ny < height) & (nx >= 0) & (nx < width)
            columns.append(np.where(inside, ny * width + nx, height * width))
    return np.stack(columns, axis=1).astype(np.int64)
