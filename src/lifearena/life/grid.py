"""Grids: numpy int8 arrays of 0 (empty), 1 (first colour) and 2 (second colour).

A grid is ``(height, width)``; a batch of same-shaped grids is ``(n, height, width)``. The
topology (bounded: every cell outside is permanently empty, or torus) is a flag passed to the
functions that need it, not a property of the array.

>>> cells = random_grid(4, 6, density=0.5, seed=1)
>>> cells.shape, cells.dtype.name
((4, 6), 'int8')
>>> population(np.array([[1, 2, 2], [0, 0, 1]]))
(2, 2)
"""

from __future__ import annotations

import numpy as np

from lifearena.errors import BadParameterError, GridError

MAX_CELLS = 1 << 34
"""Refuse grids larger than this many cells (16 Gi cells) before allocating anything."""


def as_grid(cells: object, *, allow_batch: bool = True) -> np.ndarray:
    """``cells`` as a C-contiguous int8 grid (or batch), checking shape and values.

    >>> as_grid([[0, 1], [2, 0]]).tolist()
    [[0, 1], [2, 0]]
    >>> as_grid([[0, 3]])
    Traceback (most recent call last):
    ...
    lifearena.errors.GridError: grid holds the value 3; expected only 0 (empty), 1 and 2
    """
    array = np.asarray(cells)
    if array.dtype == np.bool_:
        array = array.astype(np.int8)
    if not np.issubdtype(array.dtype, np.integer):
        raise GridError(f"grid has dtype {array.dtype}; expected integers 0, 1, 2")
    dims = (2, 3) if allow_batch else (2,)
    if array.ndim not in dims:
        expected = "(height, width)" + (" or (boards, height, width)" if allow_batch else "")
        raise GridError(f"grid has shape {array.shape}; expected {expected}")
    if 0 in array.shape:
        raise GridError(f"grid has shape {array.shape}; every dimension must be at least 1")
    if array.size:
        low, high = int(array.min()), int(array.max())
        if low < 0 or high > 2:
            bad = low if low < 0 else high
            raise GridError(f"grid holds the value {bad}; expected only 0 (empty), 1 and 2")
    return np.ascontiguousarray(array, dtype=np.int8)


def check_size(height: int, width: int, boards: int = 1) -> None:
    """Raise :class:`BadParameterError` for non-positive or absurdly large sizes."""
    for label, value in (("height", height), ("width", width), ("boards", boards)):
        if value < 1:
            raise BadParameterError(f"{label} {value} is too small; expected at least 1")
    if height * width * boards > MAX_CELLS:
        raise BadParameterError(
            f"{boards} x {height} x {width} cells is too large; expected at most {MAX_CELLS} cells"
        )


def random_grid(
    height: int,
    width: int,
    *,
    density: float = 0.5,
    seed: int | None = 0,
    colours: int = 2,
    boards: int | None = None,
) -> np.ndarray:
    """A random soup: each cell is live with probability ``density``, then a fair coin (or,
    with ``colours=1``, always colour 1) picks its colour. ``boards`` makes a batch.

    This is the initial configuration of the p2life paper (Levene and Roussos, 2003).

    >>> random_grid(3, 3, density=1.0, colours=1, seed=0).tolist()
    [[1, 1, 1], [1, 1, 1], [1, 1, 1]]
    """
    if not 0.0 <= density <= 1.0:
        raise BadParameterError(f"density {density} is out of range; expected 0 <= density <= 1")
    if colours not in (1, 2):
        raise BadParameterError(f"colours {colours} is not allowed; expected 1 or 2")
    if seed is not None and seed < 0:
        raise BadParameterError(f"seed {seed} is negative; expected a non-negative integer")
    check_size(height, width, boards or 1)
    shape = (height, width) if boards is None else (boards, height, width)
    rng = np.random.default_rng(seed)
    try:
        live = rng.random(shape) < density
        if colours == 1:
            return live.astype(np.int8)
        colour = rng.integers(1, 3, size=shape, dtype=np.int8)
        return np.where(live, colour, 0).astype(np.int8)
    except MemoryError:
        # drawing the soup takes about 10 bytes a cell, far more than the int8 grid
        raise BadParameterError(
            f"a soup of {' x '.join(map(str, shape))} cells does not fit in this machine's "
            "memory; expected a smaller size") from None


def population(cells: np.ndarray) -> tuple[int, int]:
    """The number of cells of colour 1 and of colour 2 (over a whole batch, too)."""
    counts = np.bincount(np.asarray(cells, dtype=np.int8).ravel(), minlength=3)
    return int(counts[1]), int(counts[2])


def density(cells: np.ndarray) -> float:
    """The fraction of live cells.

    >>> density(np.array([[1, 0], [2, 0]]))
    0.5
    """
    cells = np.asarray(cells)
    return float(np.count_nonzero(cells)) / cells.size
