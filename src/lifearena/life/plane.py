"""The unbounded plane as sparse tiles on the engine's bit-parallel kernels.

:class:`TilePlane` holds a pattern as 64 x 64-cell tiles (one ``uint64`` word per row and
colour) that exist only where the pattern is: a tile is added when a live cell reaches the
side or corner of its neighbour, and dropped when it is empty and no live cell faces it. The
universe grows and shrinks with the pattern: gliders flying apart cost one to four tiles
each, never the area of their bounding box. Only the rows next to a change of the last
step are computed (the others cannot change), so still lifes cost nothing once they settle
and a glider costs a few rows.

Why 64 x 64: one word per row means the west and east neighbours of a row are single
words of the tiles beside it (no carries between words inside a tile), and a row is the
unit of work, so a large tile costs nothing where nothing happens; 64 rows keep the
per-tile bookkeeping (finding neighbours, edge flags, growing and dropping tiles) small
against the rows of an active tile, while a glider still touches only one to four tiles.
The kernels are in :mod:`lifearena.life.kernels.tiles`.

Every rule the engine runs works here except rules with birth on zero neighbours (B0),
which would fill the plane at once (:class:`~lifearena.errors.RuleError` at construction).
Coin births (p2life's 3-vs-3) take the *plane coin* of :mod:`lifearena.life.coin`, a
function of ``(seed, generation, x, y)`` in absolute coordinates, so a pattern's future does
not depend on where its tiles fall. Memory is capped: a step that would need more than
``max_cells`` cells of tiles raises :class:`~lifearena.life.growing.GrowthLimitError`,
leaving the plane whole at the generation the message names.

Coordinates are Golly's (:mod:`lifearena.life.universe`): ``x`` to the right, ``y`` down.

>>> glider = np.array([[0, 1, 0], [0, 0, 1], [1, 1, 1]], dtype=np.int8)
>>> plane = TilePlane.from_cells(glider, "life", x=62, y=62)  # on a corner of four tiles
>>> plane.tiles
4
>>> plane.step(4 * 100)
>>> plane.generation, plane.population(), plane.bounding_box(), plane.tiles
(400, (5, 0), Box(x=162, y=162, width=3, height=3), 1)
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from lifearena import caps
from lifearena.errors import BadParameterError, RuleError
from lifearena.life.grid import as_grid
from lifearena.life.growing import GrowthLimitError
from lifearena.life.kernels.bitlogic import plan_for, seed_word
from lifearena.life.kernels.bitplanes import pack
from lifearena.life.kernels.tiles import (
    NEED_ROOM,
    OVER_CAP,
    SETTLED,
    SIDE,
    advance,
    build_index,
    create_tile,
    find_tile,
    index_size,
    mark_changed,
)
from lifearena.life.rules import Rule, as_rule
from lifearena.life.universe import Box

TILE_CELLS = SIDE * SIDE
"""Cells in one tile (4,096)."""

CALL_TILE_STEPS = 2**31 // TILE_CELLS
"""Tile-steps of one compiled call, about 0.05 s: Ctrl-C (which compiled code does not
see until it returns) stays prompt and ``progress`` is called often enough."""

_FIRST_CAPACITY = 64

COORDINATE_LIMIT = 2**60
"""Cells of the plane lie within ``+-COORDINATE_LIMIT`` (tile positions times 64 and the
coin's arithmetic stay exact in 64-bit integers; a pattern cannot travel that far)."""


class TilePlane:
    """A pattern on the unbounded plane under ``rule``, as sparse tiles (module docstring).

    ``seed`` chooses the coins of coin rules. ``max_cells`` (default
    :data:`lifearena.caps.MAX_GRID_CELLS`) caps the cells held in tiles, that is
    ``max_cells // 4096`` tiles (:attr:`max_tiles`). :attr:`generation` counts the steps
    done; set it before stepping to start elsewhere (a file's ``Gen=``: coins depend on
    it). A pattern that stops changing (a still life, an empty plane) is stepped to the end
    at once, however many generations are asked. Implements
    :class:`~lifearena.life.universe.Universe`.
    """

    def __init__(self, rule: Rule | str, *, seed: int = 0,
                 max_cells: int = caps.MAX_GRID_CELLS) -> None:
        self.rule = as_rule(rule)
        if self.rule.table[0, 0, 0] != 0:
            raise RuleError(
                f"rule {self.rule.name} gives birth with no neighbours (B0), so a pattern "
                "would fill the unbounded plane at once; expected a rule without B0 (run B0 "
                "rules on a bounded or torus grid)")
        if max_cells < TILE_CELLS:
            raise BadParameterError(f"max_cells {max_cells} is below one tile; expected at "
                                    f"least {TILE_CELLS} (64 x 64)")
        self.seed = int(seed)
        self.generation = 0
        self.max_cells = int(max_cells)
        self.row_steps = 0
        """Tile rows computed so far (each 64 cell-updates), for rates."""
        self._plan = plan_for(self.rule)
        # The state of the kernels (see lifearena.life.kernels.tiles), grown by _allocate.
        self._count = np.zeros(1, dtype=np.int64)
        self._pa = np.zeros((0, SIDE), dtype=np.uint64)
        self._pb = np.zeros((0, SIDE), dtype=np.uint64)
        self._coord = np.zeros((0, 2), dtype=np.int64)
        self._nbr = np.zeros((0, 8), dtype=np.int64)
        self._edges = np.zeros(0, dtype=np.uint8)
        self._live = np.zeros(0, dtype=np.uint8)
        self._span = np.zeros((0, 2), dtype=np.int64)
        self._order = np.zeros(0, dtype=np.int64)
        self._where = np.zeros(0, dtype=np.int64)
        self._index = np.zeros(0, dtype=np.int64)
        self._allocate(_FIRST_CAPACITY)

    @classmethod
    def from_cells(cls, cells: np.ndarray, rule: Rule | str, x: int = 0, y: int = 0,
                   seed: int = 0, max_cells: int = caps.MAX_GRID_CELLS) -> TilePlane:
        """A plane holding the live cells of ``cells`` with its top-left cell at ``(x, y)``."""
        plane = cls(rule, seed=seed, max_cells=max_cells)
        plane.add(cells, x, y)
        return plane

    # -- state ------------------------------------------------------------------------------

    @property
    def max_tiles(self) -> int:
        """The most tiles the plane may hold: ``max_cells // 4096``."""
        return self.max_cells // TILE_CELLS

    @property
    def tiles(self) -> int:
        """How many tiles are held now (each 4,096 cells, 1 KiB of cells)."""
        return int(self._count[0])

    def _allocate(self, capacity: int) -> None:
        """Make room for ``capacity`` tiles, keeping every slot where it is."""
        old = self._order.shape[0]

        def grown(array: np.ndarray, fill: int = 0, extra: int = 0) -> np.ndarray:
            new = np.full((capacity + extra, *array.shape[1:]), fill, dtype=array.dtype)
            new[:old] = array[:old]
            return new

        # The pools have one more slot, always empty, for missing neighbours to read.
        self._pa, self._pb = grown(self._pa, extra=1), grown(self._pb, extra=1)
        self._coord, self._nbr = grown(self._coord), grown(self._nbr, -1)
        self._edges, self._live = grown(self._edges), grown(self._live)
        self._span = grown(self._span)
        # Free slots are order[count:]; new slots join them in place.
        self._order, self._where = grown(self._order), grown(self._where)
        self._order[old:] = np.arange(old, capacity)
        self._where[old:] = np.arange(old, capacity)
        self._index = np.full(index_size(capacity), -1, dtype=np.int64)
        build_index(self._index, self._coord, self._order, self._count)

    def _state(self) -> tuple[np.ndarray, ...]:
        return (self._pa, self._pb, self._coord, self._nbr, self._edges, self._live,
                self._span, self._order, self._where, self._count, self._index)

    def _used(self) -> np.ndarray:
        return self._order[:self.tiles]

    # -- the Universe protocol --------------------------------------------------------------

    def add(self, cells: np.ndarray, x: int = 0, y: int = 0) -> None:
        """Put the live cells of ``cells`` on the plane with its top-left cell at ``(x, y)``
        (they replace what was there; its empty cells leave the plane as it was).

        Raises :class:`GrowthLimitError` (and changes nothing) when the tiles needed would
        pass :attr:`max_tiles`.
        """
        grid = as_grid(cells, allow_batch=False)
        x, y = int(x), int(y)
        height, width = grid.shape
        if not (min(x, y) >= -COORDINATE_LIMIT and max(x + width, y + height)
                <= COORDINATE_LIMIT):
            raise BadParameterError(
                f"a {width} x {height} pattern at ({x}, {y}) reaches past the plane's "
                f"coordinates; expected x and y within +-2**60")
        if not grid.any():
            return
        tx0, ty0 = x // SIDE, y // SIDE
        ox, oy = x - tx0 * SIDE, y - ty0 * SIDE
        rows = -(-(oy + height) // SIDE)
        columns = -(-(ox + width) // SIDE)
        if (ox, oy) != (0, 0) or (rows * SIDE, columns * SIDE) != grid.shape:
            grid = np.pad(grid, ((oy, rows * SIDE - oy - height),
                                 (ox, columns * SIDE - ox - width)))
        a, b = pack(grid)
        # (rows * 64, columns) words -> (tile row, tile column, 64 words of the tile)
        a = a[1:-1, 1:-1].reshape(rows, SIDE, columns).transpose(0, 2, 1)
        b = b[1:-1, 1:-1].reshape(rows, SIDE, columns).transpose(0, 2, 1)
        touched = np.argwhere((a | b).any(axis=2))
        keys = [(tx0 + int(j), ty0 + int(i)) for i, j in touched]
        new = sum(1 for tx, ty in keys if find_tile(tx, ty, self._coord, self._index) < 0)
        if self.tiles + new > self.max_tiles:
            raise GrowthLimitError(
                f"adding a {width} x {height} pattern at ({x}, {y}) in generation "
                f"{self.generation} needs {self.tiles + new:,} tiles of 64 x 64 cells, past "
                f"the cap of {self.max_cells:,} cells", generation=self.generation, edges=(),
                shape=(height, width))
        if self.tiles + new > self._order.shape[0]:
            self._allocate(max(2 * self._order.shape[0], self.tiles + new))
        slots = np.empty(len(keys), dtype=np.int64)
        for n, ((i, j), (tx, ty)) in enumerate(zip(touched, keys, strict=True)):
            slot = create_tile(tx, ty, *self._state())
            na, nb = a[i, j], b[i, j]
            keep = ~(na | nb)
            self._pa[slot] = (self._pa[slot] & keep) | na
            self._pb[slot] = (self._pb[slot] & keep) | nb
            slots[n] = slot
        mark_changed(slots, self._pa, self._pb, self._nbr, self._edges, self._live,
                     self._span)

    def step(self, generations: int, progress: Callable[[int], None] | None = None) -> None:
        """Advance ``generations`` generations; ``progress(generation)`` (the generation
        reached, counted as :attr:`generation`) after each compiled call (about 0.05 s).

        Raises :class:`GrowthLimitError` when the pattern would need more than
        :attr:`max_tiles` tiles; the plane is then whole at the generation it names.
        """
        if isinstance(generations, bool) or not isinstance(generations, (int, np.integer)):
            raise BadParameterError(f"generations {generations!r} is not a whole number")
        generations = int(generations)
        if not 0 <= generations <= caps.MAX_GENERATIONS:
            raise BadParameterError(f"generations {generations} is out of range; expected 0 "
                                    f"to {caps.MAX_GENERATIONS:,}")
        plan = self._plan
        target = self.generation + generations
        while self.generation < target:
            per_call = max(1, CALL_TILE_STEPS // max(1, self.tiles))
            stop = min(target, self.generation + per_call)
            reached, why, computed, wanted = advance(
                plan.family, plan.flags, plan.terms, seed_word(self.seed), self.generation,
                stop, self.max_tiles, *self._state())
            self.generation = int(reached)
            self.row_steps += int(computed)
            if why == NEED_ROOM:
                # Double, but not past the cap unless the (over)count of new tiles needs it.
                capacity = self._order.shape[0]
                self._allocate(max(min(2 * capacity, self.max_tiles), self.tiles + wanted))
                continue
            if why == OVER_CAP:
                box = self.bounding_box()
                raise GrowthLimitError(
                    f"at generation {self.generation} the pattern needs {self.tiles:,} tiles "
                    f"of 64 x 64 cells, past the cap of {self.max_cells:,} cells"
                    + (f" (it spans {box.width:,} x {box.height:,})" if box else ""),
                    generation=self.generation, edges=(),
                    shape=(box.height, box.width) if box else (0, 0))
            if why == SETTLED:
                self.generation = target
            if progress is not None:
                progress(self.generation)

    def population(self) -> tuple[int, int]:
        """Live cells of colour 1 and of colour 2."""
        used = self._used()
        return (int(np.bitwise_count(self._pa[used]).sum()),
                int(np.bitwise_count(self._pb[used]).sum()))

    def bounding_box(self) -> Box | None:
        """The smallest box holding every live cell, ``None`` when the plane is empty."""
        used = self._used()
        words = self._pa[used] | self._pb[used]
        nonempty = words.any(axis=1)
        if not nonempty.any():
            return None
        words = words[nonempty]
        coord = self._coord[used][nonempty]
        filled = words != 0
        top = coord[:, 1] * SIDE + filled.argmax(axis=1)
        bottom = coord[:, 1] * SIDE + (SIDE - 1 - filled[:, ::-1].argmax(axis=1))
        columns = np.bitwise_or.reduce(words, axis=1)
        lowest = np.bitwise_count((columns & (~columns + np.uint64(1))) - np.uint64(1))
        smeared = columns.copy()
        for shift in (1, 2, 4, 8, 16, 32):
            smeared |= smeared >> np.uint64(shift)
        highest = np.bitwise_count(smeared).astype(np.int64) - 1
        left = coord[:, 0] * SIDE + lowest
        right = coord[:, 0] * SIDE + highest
        x, y = int(left.min()), int(top.min())
        return Box(x, y, int(right.max()) - x + 1, int(bottom.max()) - y + 1)

    def cells(self, box: Box | None = None) -> np.ndarray:
        """The cells of ``box`` as an int8 ``(height, width)`` array, cell ``(x, y)`` at
        ``[y - box.y, x - box.x]`` (default: the bounding box; an empty plane gives a
        ``(0, 0)`` array). A box over :data:`lifearena.caps.MAX_GRID_CELLS` cells is
        refused."""
        if box is None:
            box = self.bounding_box()
            if box is None:
                return np.zeros((0, 0), dtype=np.int8)
        if box.width < 0 or box.height < 0:
            raise BadParameterError(f"box {box} has a negative side; expected width, height "
                                    ">= 0")
        if not (min(box.x, box.y) >= -COORDINATE_LIMIT
                and max(box.right, box.bottom) <= COORDINATE_LIMIT):
            raise BadParameterError(f"box {box} reaches past the plane's coordinates; "
                                    "expected x and y within +-2**60")
        caps.check_cells(max(box.height, 1), max(box.width, 1), f"box {box}")
        out = np.zeros((box.height, box.width), dtype=np.int8)
        used = self._used()
        coord = self._coord[used]
        x0, y0 = coord[:, 0] * SIDE, coord[:, 1] * SIDE
        inside = ((x0 < box.right) & (x0 + SIDE > box.x) & (y0 < box.bottom)
                  & (y0 + SIDE > box.y))
        slots = used[inside]
        if not len(slots):
            return out
        tiles = (_unpack_tiles(self._pa[slots])
                 + 2 * _unpack_tiles(self._pb[slots]).astype(np.int8))
        for tile, tx, ty in zip(tiles, x0[inside], y0[inside], strict=True):
            left, top = max(int(tx), box.x), max(int(ty), box.y)
            right, bottom = min(int(tx) + SIDE, box.right), min(int(ty) + SIDE, box.bottom)
            out[top - box.y:bottom - box.y, left - box.x:right - box.x] = \
                tile[top - ty:bottom - ty, left - tx:right - tx]
        return out

    def __repr__(self) -> str:
        return (f"<TilePlane rule={self.rule.name!r} generation={self.generation} "
                f"population={self.population()} tiles={self.tiles}>")


def _unpack_tiles(words: np.ndarray) -> np.ndarray:
    """``(n, 64)`` words as ``(n, 64, 64)`` int8 cells (bit ``i`` of a word is column
    ``i``)."""
    as_bytes = words.astype("<u8").view(np.uint8).reshape(len(words), SIDE, 8)
    return np.unpackbits(as_bytes, axis=2, bitorder="little").astype(np.int8)


__all__ = ["TILE_CELLS", "TilePlane"]
