"""Precomputed facts of one Losat board size and neighbourhood, shared by every state: each
point's neighbours and the Zobrist table that hashes arrangements for superko.

>>> geometry = Geometry.get(19, 19, 8)
>>> geometry.size, geometry.adjacent[0].tolist()  # A19, the top-left corner
(361, [1, 19, 20])
>>> Geometry.get(19, 19, 8) is geometry
True
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np

ZOBRIST_SEED = 20090501
"""Seed of the Zobrist table (fixed so hashes are the same on every machine and run)."""

_MOORE = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))
_VON_NEUMANN = ((-1, 0), (0, -1), (0, 1), (1, 0))


class Geometry:
    """The neighbours of every point (row by row from the top-left; points off the board are
    left out, nothing wraps) and the ``(2, points)`` Zobrist table of one board size and
    neighbourhood (``neighbours`` 8 or 4). Make one with :meth:`get`, which keeps them."""

    _cache: ClassVar[dict[tuple[int, int, int], Geometry]] = {}

    def __init__(self, width: int, length: int, neighbours: int) -> None:
        self.width, self.length, self.size = width, length, width * length
        steps = _VON_NEUMANN if neighbours == 4 else _MOORE
        self.adjacent: list[np.ndarray] = []
        """The indices of each point's neighbours on the board."""
        for point in range(self.size):
            r, c = divmod(point, width)
            self.adjacent.append(np.array(
                [(r + dr) * width + c + dc for dr, dc in steps
                 if 0 <= r + dr < length and 0 <= c + dc < width], dtype=np.intp))
        rng = np.random.default_rng([ZOBRIST_SEED, width, length])
        table = rng.integers(0, 2**64, size=(2, self.size), dtype=np.uint64, endpoint=False)
        self.zobrist: list[list[int]] = [[int(v) for v in table[0]], [int(v) for v in table[1]]]
        """The hash of a black (``[0]``) or white (``[1]``) stone on each point, as Python
        ints."""
        self.zobrist_table = table
        """The same hashes as a ``(2, points)`` uint64 array, for the compiled kernels."""
        self.degree = np.array([len(around) for around in self.adjacent], dtype=np.int64)
        """How many neighbours each point has."""
        self.adjacent_table = np.zeros((self.size, len(steps)), dtype=np.int64)
        """:attr:`adjacent` as one array, row ``p`` holding point ``p``'s :attr:`degree`
        neighbours first, for the compiled kernels."""
        for point, around in enumerate(self.adjacent):
            self.adjacent_table[point, :len(around)] = around
        for array in (self.zobrist_table, self.degree, self.adjacent_table):
            array.flags.writeable = False  # shared by every state of this size

    @classmethod
    def get(cls, width: int, length: int, neighbours: int) -> Geometry:
        """The geometry of this size and neighbourhood (made once, then shared)."""
        key = (width, length, neighbours)
        if key not in cls._cache:
            cls._cache[key] = cls(width, length, neighbours)
        return cls._cache[key]
