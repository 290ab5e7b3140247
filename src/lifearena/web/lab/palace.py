"""The palace explorer: a zoomable map of the blocking queen game's palace numbers.

* ``GET /lab/palace``: the page.
* ``GET /api/lab/palace/limits``: the limits below, and ``play_max_square``, the largest x
  and y the web's queen game starts from (a click on a square up to it plays from there).
* ``GET /api/lab/palace/tile?k=&level=&tx=&ty=``: one :data:`TILE` x :data:`TILE` tile.
  At ``level`` 0 a tile pixel is one square and the tile holds the exact palace numbers n
  (``"values"``: base64 of uint8, row by row, ``n[y][x]``); at level L > 0 a pixel is a
  ``2**L`` x ``2**L`` block and holds the block's mean of ``clip(n - k, -4, 4)`` times
  :data:`MEAN_SCALE` (int8). Tile (tx, ty) covers squares ``x0 = tx * TILE * 2**L`` onwards.

Tiles come from the streamed numba kernel of :func:`lifearena.studies.palace_picture.fold_picture`
(rows from the origin are advanced without being kept), computed by :func:`compute_tile` in
the app's slow-work pool, and are cached in the server in a bounded LRU of
:data:`CACHE_TILES` tiles (64 KiB each); a cached tile is answered at once. The query's
numbers are declared with their fixed bounds (400 past them); a tile whose far corner would
make the kernel stream more than :data:`MAX_AREA` squares from the origin is refused with a
message naming the limit.

>>> cache = TileCache(2)
>>> tile = cache.get(1, 0, 0, 0)
>>> tile.values[:2, :6].tolist()   # Wythoff: (0, 0) and (2, 1) are palaces
[[0, 1, 1, 1, 1, 1], [1, 1, 0, 1, 1, 1]]
"""

from __future__ import annotations

import base64
import collections
import threading
from dataclasses import dataclass
from typing import Annotated, Any

import numpy as np
from fastapi import APIRouter, Query, Request
from fastapi.responses import FileResponse, Response

from lifearena.errors import BadParameterError
from lifearena.games.blocking_queen.palace import check_k
from lifearena.studies.palace_picture import Window, fold_picture
from lifearena.web.catalog import QUEEN_MAX_K, QUEEN_MAX_SQUARE
from lifearena.web.lab.common import STATIC_LAB, slow

TILE = 256
"""Pixels on a tile's side."""
MAX_LEVEL = 8
"""The coarsest level: a pixel is a 256 x 256 block."""
MAX_K = QUEEN_MAX_K
"""The largest k drawn, the largest the web's queen game plays (a click plays from there)."""
MAX_AREA = 1 << 32
"""Most squares the kernel may stream for one tile: (x0 + width) * (y0 + height)."""
MEAN_SCALE = 16
"""Block means are sent as round(mean * MEAN_SCALE), an int8."""
SATURATION = 4
CACHE_TILES = 256
"""Tiles kept in memory (64 KiB each: 16 MiB at most)."""
MAX_TILE_INDEX = MAX_AREA // (TILE * TILE) - 1
"""The largest tx or ty of any tile within :data:`MAX_AREA` (level 0, the other one 0)."""


@dataclass(frozen=True)
class Tile:
    """One tile: its place, and n (level 0, uint8) or scaled block means (int8)."""

    k: int
    level: int
    tx: int
    ty: int
    values: np.ndarray

    @property
    def block(self) -> int:
        return 1 << self.level

    def to_json(self) -> dict[str, Any]:
        span = TILE * self.block
        return {"k": self.k, "level": self.level, "tx": self.tx, "ty": self.ty,
                "block": self.block, "x0": self.tx * span, "y0": self.ty * span,
                "size": TILE, "exact": self.level == 0, "scale": MEAN_SCALE,
                "saturation": SATURATION,
                "values": base64.b64encode(self.values.tobytes()).decode("ascii")}


def check_tile(k: int, level: int, tx: int, ty: int) -> int:
    """Check a tile's address; answer k. The message names the bound that was passed.

    >>> check_tile(2, 0, 1 << 20, 1 << 20)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    lifearena.errors.BadParameterError: tile reaches square (268435712, 268435712): ...
    """
    k = check_k(k)
    if k > MAX_K:
        raise BadParameterError(f"k={k}; the explorer draws k from 1 to {MAX_K}")
    if not 0 <= level <= MAX_LEVEL:
        raise BadParameterError(f"level={level}; expected 0 (one square a pixel) "
                                f"to {MAX_LEVEL} ({1 << MAX_LEVEL} squares a pixel)")
    if tx < 0 or ty < 0:
        raise BadParameterError(f"tile ({tx}, {ty}); expected tx, ty >= 0 (the quarter-plane)")
    span = TILE << level
    right, bottom = (tx + 1) * span, (ty + 1) * span
    if right * bottom > MAX_AREA:
        raise BadParameterError(
            f"tile reaches square ({right}, {bottom}): computing it streams "
            f"{right * bottom:,} squares from the origin; expected at most {MAX_AREA:,} "
            "(x * y), so zoom in or move towards the origin")
    return k


def compute_tile(k: int, level: int, tx: int, ty: int) -> Tile:
    """The tile, computed by the streamed kernel (no cache)."""
    k = check_tile(k, level, tx, ty)
    span = TILE << level
    window = Window(tx * span, ty * span, span, span)
    if level == 0:
        # exact: n - k lies in [-k, 2k] (a line holds at most k palaces), so a saturation
        # of 3k never clips and the values are n - k exactly.
        picture = fold_picture(k, window, block=1, saturation=3 * k)
        values = np.rint(picture.values + k).astype(np.uint8)
    else:
        picture = fold_picture(k, window, block=1 << level, saturation=SATURATION)
        values = np.rint(picture.values * MEAN_SCALE).astype(np.int8)
    return Tile(k, level, tx, ty, values)


class TileCache:
    """A bounded least-recently-used cache of tiles, safe across threads."""

    def __init__(self, capacity: int = CACHE_TILES) -> None:
        self.capacity = capacity
        self._tiles: collections.OrderedDict[tuple[int, int, int, int], Tile] = (
            collections.OrderedDict())
        self._lock = threading.Lock()
        self.computed = 0

    def get(self, k: int, level: int, tx: int, ty: int) -> Tile:
        """The tile, from the cache or computed here (and kept)."""
        found = self.cached(k, level, tx, ty)
        if found is None:
            found = self.put(compute_tile(k, level, tx, ty))
        return found

    def cached(self, k: int, level: int, tx: int, ty: int) -> Tile | None:
        """The tile if it is cached (then the most recently used), else ``None``."""
        key = (k, level, tx, ty)
        with self._lock:
            if key in self._tiles:
                self._tiles.move_to_end(key)
                return self._tiles[key]
        return None

    def put(self, tile: Tile) -> Tile:
        """Keep a computed tile, letting the least recently used go past the capacity."""
        with self._lock:
            self.computed += 1
            self._tiles[(tile.k, tile.level, tile.tx, tile.ty)] = tile
            while len(self._tiles) > self.capacity:
                self._tiles.popitem(last=False)
        return tile

    def __len__(self) -> int:
        return len(self._tiles)


CACHE = TileCache()
router = APIRouter()


@router.get("/lab/palace", include_in_schema=False)
async def page() -> Response:
    return FileResponse(STATIC_LAB / "palace.html")


@router.get("/api/lab/palace/tile")
async def tile(request: Request, k: Annotated[int, Query(ge=1, le=MAX_K)],
               level: Annotated[int, Query(ge=0, le=MAX_LEVEL)],
               tx: Annotated[int, Query(ge=0, le=MAX_TILE_INDEX)],
               ty: Annotated[int, Query(ge=0, le=MAX_TILE_INDEX)]) -> dict[str, Any]:
    check_tile(k, level, tx, ty)  # a tile too far out is refused before any work
    found = CACHE.cached(k, level, tx, ty)
    if found is None:
        found = CACHE.put(await slow(request, compute_tile, k, level, tx, ty))
    return found.to_json()


@router.get("/api/lab/palace/limits")
async def limits() -> dict[str, Any]:
    return {"tile": TILE, "max_level": MAX_LEVEL, "max_k": MAX_K, "max_area": MAX_AREA,
            "saturation": SATURATION, "scale": MEAN_SCALE, "play_max_square": QUEEN_MAX_SQUARE}
