"""A bounded or toroidal grid kept packed for a whole run: :class:`PackedGrid`.

The grid is packed into the bit planes of :mod:`lifearena.life.kernels.bitplanes` once, when
the universe is made, and every later question is answered from the planes in compiled
code: the step (:func:`lifearena.life.kernels.bitwise.step_planes` on buffers kept between
calls), the population, the bounding box, the cells of a box, a picture of a box shrunk by
a whole factor (:meth:`PackedGrid.blocks`) and a per-generation series of populations and
boxes (:meth:`PackedGrid.record`). Nothing is unpacked unless cells are asked for, so a
progress bar or a population series costs a pass over the words, never a repack.

:class:`PackedGrid` implements :class:`lifearena.life.universe.Universe` for a grid with
edges: cell ``(x, y)`` is column ``x`` and row ``y`` of the grid, ``0 <= x < width``.

>>> import numpy as np
>>> glider = np.zeros((8, 8), dtype=np.int8); glider[0, 1] = glider[1, 2] = 1
>>> glider[2, 0:3] = 1
>>> grid = PackedGrid(glider, Rule.named("life"), torus=True)
>>> grid.step(4); grid.generation, grid.population(), grid.bounding_box()
(4, (5, 0), Box(x=1, y=1, width=3, height=3))
>>> grid.record(4, every=2)[:, :3].tolist()  # generation, colour 1, colour 2
[[6, 5, 0], [8, 5, 0]]
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numba import njit

from lifearena.errors import BadParameterError
from lifearena.life.grid import as_grid
from lifearena.life.kernels.bitlogic import plan_for, seed_word
from lifearena.life.kernels.bitplanes import ALL, ONE, ZERO, pack, plane_population, planes_digest
from lifearena.life.kernels.bitwise import new_seen, run_planes, step_planes
from lifearena.life.rules import Rule
from lifearena.life.series import SERIES_COLUMNS
from lifearena.life.universe import Box, clipped_cells

CALL_UPDATES = 2**31
"""Cell-updates in one compiled call: about 0.05 s, so that Ctrl-C (which numba code does
not see until it returns) stays prompt and a progress bar is redrawn."""



@njit(cache=True)
def _advance(family: int, flags: np.ndarray, terms: np.ndarray, a: np.ndarray, b: np.ndarray,
             oa: np.ndarray, ob: np.ndarray, scratch: np.ndarray, height: int, width: int,
             torus: bool, seed: np.uint64, generation: int, generations: int) -> bool:
    """Step ``generations`` times; True when the result ended in ``oa, ob`` (odd count)."""
    for g in range(generations):
        if g % 2 == 0:
            step_planes(family, flags, terms, a, b, oa, ob, height, width, torus, seed,
                        generation + g, scratch)
        else:
            step_planes(family, flags, terms, oa, ob, a, b, height, width, torus, seed,
                        generation + g, scratch)
    return generations % 2 == 1


@njit(cache=True)
def _lowest_bit(w: np.uint64) -> int:
    n = 0
    while (w & ONE) == ZERO:
        w >>= ONE
        n += 1
    return n


@njit(cache=True)
def _highest_bit(w: np.uint64) -> int:
    n = 63
    while (w >> np.uint64(n)) == ZERO:
        n -= 1
    return n


@njit(cache=True)
def planes_box(a: np.ndarray, b: np.ndarray, height: int,
               width: int) -> tuple[int, int, int, int]:
    """``(x, y, width, height)`` of the live cells of the planes; ``(0, 0, 0, 0)`` if none."""
    nw = (width + 63) // 64
    rest = width % 64
    tail = ALL if rest == 0 else (ONE << np.uint64(rest)) - ONE
    top = -1
    bottom = -1
    columns = np.zeros(nw, dtype=np.uint64)
    for y in range(1, height + 1):
        live = ZERO
        for w in range(1, nw + 1):
            v = a[y, w] | b[y, w]
            if w == nw:
                v &= tail
            columns[w - 1] |= v
            live |= v
        if live:
            if top < 0:
                top = y - 1
            bottom = y - 1
    if top < 0:
        return 0, 0, 0, 0
    first = 0
    while columns[first] == ZERO:
        first += 1
    last = nw - 1
    while columns[last] == ZERO:
        last -= 1
    left = first * 64 + _lowest_bit(columns[first])
    right = last * 64 + _highest_bit(columns[last])
    return left, top, right - left + 1, bottom - top + 1


@njit(cache=True)
def planes_blocks(a: np.ndarray, b: np.ndarray, height: int, width: int, x0: int, y0: int,
                  box_width: int, box_height: int,
                  factor: int) -> tuple[np.ndarray, np.ndarray]:
    """Live cells of each colour in each ``factor x factor`` block of a box of the grid.

    The blocks are aligned to multiples of ``factor`` in grid coordinates (block ``(i, j)``
    holds rows ``factor * (y0 // factor + i)`` on), so boxes pooled by the same factor line
    up. Only set bits are visited: a sparse box costs little whatever its size.
    """
    by, bx = y0 // factor, x0 // factor
    rows = (y0 + box_height - 1) // factor - by + 1
    cols = (x0 + box_width - 1) // factor - bx + 1
    ones = np.zeros((rows, cols), dtype=np.int32)
    twos = np.zeros((rows, cols), dtype=np.int32)
    x1 = x0 + box_width
    first_word = x0 // 64
    last_word = (x1 - 1) // 64
    for y in range(y0, y0 + box_height):
        r = y // factor - by
        for w in range(first_word, last_word + 1):
            lo = max(x0, w * 64) - w * 64
            hi = min(x1, w * 64 + 64) - w * 64
            mask = ALL << np.uint64(lo)
            if hi < 64:
                mask &= (ONE << np.uint64(hi)) - ONE
            for colour in range(2):
                v = (a[y + 1, w + 1] if colour == 0 else b[y + 1, w + 1]) & mask
                while v:
                    bit = _lowest_bit(v)
                    v &= v - ONE
                    c = (w * 64 + bit) // factor - bx
                    if colour == 0:
                        ones[r, c] += 1
                    else:
                        twos[r, c] += 1
    return ones, twos


@njit(cache=True)
def planes_live(a: np.ndarray, b: np.ndarray, height: int, width: int, x0: int, y0: int,
                box_width: int, box_height: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The live cells of a box of the grid as arrays of rows, columns and colours (only
    set bits are visited: a sparse pattern in a large box costs little)."""
    ones, twos = ZERO, ZERO
    count = 0
    x1 = x0 + box_width
    for y in range(y0, y0 + box_height):
        for w in range(x0 // 64, (x1 - 1) // 64 + 1):
            lo = max(x0, w * 64) - w * 64
            hi = min(x1, w * 64 + 64) - w * 64
            mask = ALL << np.uint64(lo)
            if hi < 64:
                mask &= (ONE << np.uint64(hi)) - ONE
            ones = a[y + 1, w + 1] & mask
            twos = b[y + 1, w + 1] & mask
            while ones:
                ones &= ones - ONE
                count += 1
            while twos:
                twos &= twos - ONE
                count += 1
    rows = np.empty(count, dtype=np.int64)
    cols = np.empty(count, dtype=np.int64)
    colours = np.empty(count, dtype=np.int8)
    i = 0
    for y in range(y0, y0 + box_height):
        for w in range(x0 // 64, (x1 - 1) // 64 + 1):
            lo = max(x0, w * 64) - w * 64
            hi = min(x1, w * 64 + 64) - w * 64
            mask = ALL << np.uint64(lo)
            if hi < 64:
                mask &= (ONE << np.uint64(hi)) - ONE
            for colour in range(1, 3):
                v = (a[y + 1, w + 1] if colour == 1 else b[y + 1, w + 1]) & mask
                while v:
                    rows[i] = y
                    cols[i] = w * 64 + _lowest_bit(v)
                    colours[i] = colour
                    v &= v - ONE
                    i += 1
    return rows, cols, colours


@njit(cache=True)
def _record(family: int, flags: np.ndarray, terms: np.ndarray, a: np.ndarray, b: np.ndarray,
            oa: np.ndarray, ob: np.ndarray, scratch: np.ndarray, height: int, width: int,
            torus: bool, seed: np.uint64, generation: int, generations: int, every: int,
            out: np.ndarray) -> tuple[int, bool]:
    """Step ``generations`` times, writing a row of :data:`SERIES_COLUMNS` into ``out``
    after each generation that is a multiple of ``every``; the rows written, and whether
    the result ended in ``oa, ob`` (as :func:`_advance`)."""
    rows = 0
    for g in range(generations):
        if g % 2 == 0:
            step_planes(family, flags, terms, a, b, oa, ob, height, width, torus, seed,
                        generation + g, scratch)
            ca, cb = oa, ob
        else:
            step_planes(family, flags, terms, oa, ob, a, b, height, width, torus, seed,
                        generation + g, scratch)
            ca, cb = a, b
        reached = generation + g + 1
        if reached % every == 0:
            x, y, w, h = planes_box(ca, cb, height, width)
            out[rows, 0] = reached
            out[rows, 1] = plane_population(ca, height, width)
            out[rows, 2] = plane_population(cb, height, width)
            out[rows, 3] = x
            out[rows, 4] = y
            out[rows, 5] = w
            out[rows, 6] = h
            rows += 1
    return rows, generations % 2 == 1


class PackedGrid:
    """A ``height x width`` grid under ``rule``, bounded or a torus, stepped packed.

    ``seed`` and ``generation`` feed coin births as :func:`lifearena.life.step.evolve` does,
    so a run gives the same cells as ``evolve`` on the unpacked grid.
    """

    def __init__(self, cells: np.ndarray, rule: Rule, *, torus: bool, seed: int = 0,
                 generation: int = 0) -> None:
        grid = as_grid(cells, allow_batch=False)
        self.rule = rule
        self.generation = int(generation)
        self.torus = bool(torus)
        self.seed = int(seed)
        self.height, self.width = (int(side) for side in grid.shape)
        self._plan = plan_for(rule)
        self._a, self._b = pack(grid)
        self._oa = np.zeros_like(self._a)
        self._ob = np.zeros_like(self._b)
        self._scratch = np.empty(self._a.size, dtype=np.uint64)

    @property
    def cell_count(self) -> int:
        """The grid's cells (``height * width``)."""
        return self.height * self.width

    def chunk(self) -> int:
        """Generations per compiled call (see :data:`CALL_UPDATES`)."""
        return max(1, CALL_UPDATES // self.cell_count)

    def add(self, cells: np.ndarray, x: int = 0, y: int = 0) -> None:
        """Put the live cells of ``cells`` on the grid with its top-left cell at ``(x, y)``
        (wrapped round a torus; refused past a bounded grid's edge)."""
        patch = as_grid(cells, allow_batch=False)
        h, w = patch.shape
        if not self.torus and (x < 0 or y < 0 or x + w > self.width or y + h > self.height):
            raise BadParameterError(f"a {w}x{h} pattern at ({x}, {y}) passes the edge of the "
                                    f"{self.width}x{self.height} bounded grid; expected it "
                                    "inside")
        whole = self.cells(Box(0, 0, self.width, self.height))
        rows = (np.arange(h) + y) % self.height
        cols = (np.arange(w) + x) % self.width
        target = whole[np.ix_(rows, cols)]
        whole[np.ix_(rows, cols)] = np.where(patch != 0, patch, target)
        self._a, self._b = pack(whole)

    def step(self, generations: int, progress: Callable[[int], None] | None = None) -> None:
        """Advance ``generations`` generations; ``progress(generation)`` after each compiled
        call (at most :data:`CALL_UPDATES` cell-updates apart)."""
        if generations < 0:
            raise BadParameterError(f"generations {generations} is negative; expected >= 0")
        left = int(generations)
        plan = self._plan
        while left > 0:
            n = min(left, self.chunk())
            swapped = _advance(plan.family, plan.flags, plan.terms, self._a, self._b,
                               self._oa, self._ob, self._scratch, self.height, self.width,
                               self.torus, seed_word(self.seed), self.generation, n)
            if swapped:
                self._swap()
            self.generation += n
            left -= n
            if progress is not None:
                progress(self.generation)

    def record(self, generations: int, every: int = 1) -> np.ndarray:
        """Step ``generations`` generations and return one int64 row of
        :data:`SERIES_COLUMNS` for each generation reached that is a multiple of ``every``."""
        if every < 1:
            raise BadParameterError(f"every {every} is not allowed; expected at least 1")
        rows_due = (self.generation + generations) // every - self.generation // every
        out = np.zeros((rows_due, len(SERIES_COLUMNS)), dtype=np.int64)
        plan = self._plan
        rows, swapped = _record(plan.family, plan.flags, plan.terms, self._a, self._b,
                                self._oa, self._ob, self._scratch, self.height, self.width,
                                self.torus, seed_word(self.seed), self.generation,
                                int(generations), int(every), out)
        if swapped:
            self._swap()
        self.generation += int(generations)
        return out[:rows]

    def _swap(self) -> None:
        self._a, self._oa = self._oa, self._a
        self._b, self._ob = self._ob, self._b

    def run_until_repeat(self, generations: int,
                         progress: Callable[[int], None] | None = None) -> tuple[int, int]:
        """Step until a configuration repeats, at most ``generations`` generations, in
        compiled code; ``(first, period)`` of the repeat found, ``(-1, 0)`` if none."""
        plan = self._plan
        seen = new_seen()
        end = self.generation + int(generations)
        first = -1
        while self.generation < end and first < 0:
            stop = min(end, self.generation + self.chunk())
            self._a, self._b, reached, first = run_planes(
                plan.family, plan.flags, plan.terms, self._a, self._b, self.height,
                self.width, self.torus, seed_word(self.seed), self.generation, stop, seen)
            self.generation = int(reached)
            if progress is not None:
                progress(self.generation)
        return (int(first), self.generation - int(first)) if first >= 0 else (-1, 0)

    def population(self) -> tuple[int, int]:
        """Live cells of colour 1 and of colour 2."""
        return (plane_population(self._a, self.height, self.width),
                plane_population(self._b, self.height, self.width))

    def bounding_box(self) -> Box | None:
        """The smallest box holding every live cell (``None`` when the grid is empty)."""
        x, y, w, h = planes_box(self._a, self._b, self.height, self.width)
        return Box(x, y, w, h) if w else None

    def blocks(self, box: Box, factor: int) -> tuple[np.ndarray, np.ndarray]:
        """Cells of each colour in each ``factor x factor`` block of ``box`` (blocks aligned
        to multiples of ``factor``; see :func:`planes_blocks`)."""
        box = self._inside(box)
        return planes_blocks(self._a, self._b, self.height, self.width, box.x, box.y,
                             box.width, box.height, int(factor))

    def cells(self, box: Box | None = None) -> np.ndarray:
        """The int8 cells of ``box`` (default: the bounding box; ``(0, 0)`` when empty);
        cells of the box outside the grid read as empty."""
        if box is None:
            box = self.bounding_box()
            if box is None:
                return np.zeros((0, 0), dtype=np.int8)
        def read(part: Box) -> np.ndarray:
            ones, twos = self.blocks(part, 1)
            return ones + 2 * twos

        return clipped_cells(box, self.width, self.height, read)

    def live_cells(self, box: Box | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Rows, columns and colours of the live cells of ``box`` (default: all)."""
        box = self._inside(box or Box(0, 0, self.width, self.height))
        return planes_live(self._a, self._b, self.height, self.width, box.x, box.y,
                           box.width, box.height)

    def digest(self) -> tuple[int, int]:
        """A 128-bit digest of the configuration (for finding a repeat)."""
        h1, h2 = planes_digest(self._a, self._b, self.height, self.width)
        return int(h1), int(h2)

    def _inside(self, box: Box) -> Box:
        if box.x < 0 or box.y < 0 or box.right > self.width or box.bottom > self.height \
                or box.width < 1 or box.height < 1:
            raise BadParameterError(f"box {box} is not inside the {self.width}x{self.height} "
                                    "grid; expected 0 <= x, x + width <= the grid's width "
                                    "(and so for y)")
        return box
