"""When has a pattern settled? Periodic once its escaping spaceships are set aside.

A methuselah such as the R-pentomino never repeats as a whole on the plane: the gliders it
sent out keep travelling. :class:`Settle` watches a universe every :data:`CHECK_EVERY`
generations, splits its live cells into clusters (8-connected), and
recognises the clusters that are known spaceships (glider, LWSS, MWSS, HWSS in every phase
and orientation, found by running the engine from one phase of each, never typed by hand)
whose path never comes near the rest again (:func:`escapes`; on a torus, the path that
wraps round forever). When every spaceship found escapes and the rest's box stayed put, it
replays the last :data:`CHECKPOINTS` checks from a copy, one generation at a time, to find
exactly the first generation ``G`` from which the rest repeats with period ``P`` (and the
population with it, so a gun, whose gliders keep coming, never counts as settled).

Spaceships are recognised for rules whose live cells follow Life's B3/S23 whatever their
colours (Life, Immigration, colour-blind variants); for other rules only a repeat of the
whole pattern is found.

>>> import numpy as np
>>> from lifearena.life.universes import GrowingPlane
>>> from lifearena.life.rules import Rule
>>> from lifearena.life.pattern_library import load_library_pattern
>>> plane = GrowingPlane(Rule.named("life"))
>>> plane.add(load_library_pattern("blinker").cells, x=0, y=0)
>>> plane.add(np.rot90(load_library_pattern("glider").cells, 2), x=-8, y=-8)  # flies NW
>>> settle = Settle(plane.rule)
>>> while not settle.check(plane):
...     plane.step(CHECK_EVERY)
>>> settle.result.describe()
'stable/periodic with period 2 after generation 0; escaped: 1 glider'
"""

from __future__ import annotations

import copy
import hashlib
import math
from collections import Counter
from dataclasses import dataclass
from functools import cache

import numpy as np

from lifearena.life.rules import COIN, Rule
from lifearena.life.universe import Box, Universe

CHECK_EVERY = 16
"""Generations between two looks at the universe."""

CHECKPOINTS = 16
"""Copies of the universe kept (one per check) to replay the last generations exactly."""

MARGIN = 4
"""Cells a spaceship's path must keep from the rest's box to count as escaping."""

QUICK_PERIOD = 48
"""Periods of the rest looked for at every steady check (longer ones less often)."""

LONG_EVERY = 8
"""Every this many steady checks, periods up to ``CHECKPOINTS * CHECK_EVERY`` too."""

STEADY_CHECKS = 3
"""Checks in a row that must find the rest's box and the number of spaceships unchanged
before the last generations are replayed to look for the repeat."""

_EIGHT = np.ones((3, 3), dtype=bool)

SEEDS = {
    "glider": ["bo", "2bo", "3o"],
    "LWSS": ["bo2bo", "o", "o3bo", "4o"],
    "MWSS": ["3bo", "bo3bo", "o", "o4bo", "5o"],
    "HWSS": ["3b2o", "bo4bo", "o", "o5bo", "6o"],
}
"""One phase of each spaceship, as RLE rows (the engine derives the other phases)."""


def _rows(rows: list[str]) -> np.ndarray:
    """A tiny RLE body (``b``, ``o``, counts) as a boolean array."""
    grid = []
    for row in rows:
        out: list[bool] = []
        count = ""
        for char in row:
            if char.isdigit():
                count += char
                continue
            out.extend([char == "o"] * int(count or 1))
            count = ""
        grid.append(out)
    width = max(len(r) for r in grid)
    return np.array([r + [False] * (width - len(r)) for r in grid], dtype=bool)


def _life_step(cells: np.ndarray) -> np.ndarray:
    """One B3/S23 generation of a boolean array on a plane (the array is grown by one)."""
    from scipy import ndimage

    grid = np.pad(cells, 1)
    count: np.ndarray = ndimage.convolve(grid.astype(np.int8), np.ones((3, 3), np.int8),
                                         mode="constant") - grid
    born: np.ndarray = (count == 3) | (grid & (count == 2))
    return born


def _crop(cells: np.ndarray) -> tuple[np.ndarray, int, int]:
    rows = np.flatnonzero(cells.any(axis=1))
    columns = np.flatnonzero(cells.any(axis=0))
    return (cells[rows[0]:rows[-1] + 1, columns[0]:columns[-1] + 1],
            int(rows[0]), int(columns[0]))


def _key(mask: np.ndarray) -> tuple[int, int, bytes]:
    return mask.shape[0], mask.shape[1], np.packbits(mask).tobytes()


@cache
def spaceships() -> dict[tuple[int, int, bytes], tuple[str, int, int]]:
    """Every phase and orientation of the known spaceships: the cells' key -> (name, dx,
    dy), the displacement of the ship's box every 4 generations (its period)."""
    table: dict[tuple[int, int, bytes], tuple[str, int, int]] = {}
    for name, rows in SEEDS.items():
        phase = _rows(rows)
        for _ in range(4):
            after = phase
            # where the cells are after a period, measured from the box's top-left cell
            y = x = 0
            for _ in range(4):
                grown = _life_step(after)
                after, top, left = _crop(grown)
                y, x = y + top - 1, x + left - 1
            if after.shape != phase.shape or not np.array_equal(after, phase):
                raise AssertionError(f"{name} is not a spaceship of period 4")
            for turns in range(4):
                for flip in (False, True):
                    mask = np.rot90(phase, turns)
                    dx, dy = _turn(x, y, turns)
                    if flip:
                        mask = mask[:, ::-1]
                        dx = -dx
                    table[_key(np.ascontiguousarray(mask))] = (name, dx, dy)
            grown = _life_step(phase)
            phase, _, _ = _crop(grown)
    return table


def _turn(x: int, y: int, turns: int) -> tuple[int, int]:
    """A displacement ``(x, y)`` (y down) turned as :func:`numpy.rot90` turns an array
    (anticlockwise on the screen) ``turns`` times."""
    for _ in range(turns % 4):
        x, y = y, -x
    return x, y


def life_like_ships(rule: Rule) -> bool:
    """Whether the live cells of ``rule`` follow B3/S23 whatever their colours (no coin),
    so that Life's spaceships fly in it."""
    table = rule.table
    if np.any(table == COIN):
        return False
    n = np.arange(9)
    total = n[:, None] + n[None, :]
    valid = total <= 8
    born = (table[0] != 0) == (total == 3)
    for state in (1, 2):
        kept = (table[state] != 0) == ((total == 2) | (total == 3))
        if not np.all(kept[valid]):
            return False
    return bool(np.all(born[valid]))


@dataclass(frozen=True)
class Ship:
    """A recognised spaceship: its name, box (absolute), and displacement per 4 generations."""

    name: str
    box: Box
    dx: int
    dy: int


@dataclass(frozen=True)
class Settled:
    """A settled pattern: the rest repeats with ``period`` from generation ``generation``;
    ``escaped`` counts the spaceships flying away then, by name."""

    generation: int
    period: int
    escaped: dict[str, int]

    def describe(self) -> str:
        """``stable/periodic with period P after generation G; escaped: 6 gliders`` (the
        part after the semicolon only when something escaped)."""
        text = f"stable/periodic with period {self.period} after generation {self.generation}"
        if not self.escaped:
            return text
        names = ", ".join(f"{n} {name}{'s' if n > 1 else ''}"
                          for name, n in sorted(self.escaped.items()))
        return f"{text}; escaped: {names}"


def _interval(start: int, end: int, lo: int, hi: int, speed: int) -> tuple[float, float]:
    """The times ``t >= 0`` at which ``[start + speed t, end + speed t)`` meets
    ``[lo, hi)`` (an empty interval as ``(1, 0)``)."""
    if speed == 0:
        return (0.0, math.inf) if start < hi and lo < end else (1.0, 0.0)
    a, b = (lo - end) / speed, (hi - start) / speed
    if speed < 0:
        a, b = b, a
    return max(a, 0.0), b


def paths_meet(one: Box, v1: tuple[int, int], two: Box, v2: tuple[int, int],
               margin: int = MARGIN) -> bool:
    """Whether two boxes moving at ``v1`` and ``v2`` (cells per period) from now on ever
    come within ``margin`` cells of each other on the plane.

    >>> paths_meet(Box(10, 10, 3, 3), (1, 1), Box(0, 0, 5, 5), (0, 0))
    False
    >>> paths_meet(Box(10, 10, 3, 3), (-1, -1), Box(0, 0, 5, 5), (0, 0))
    True
    """
    dx, dy = v1[0] - v2[0], v1[1] - v2[1]
    tx = _interval(one.x, one.right, two.x - margin, two.right + margin, dx)
    ty = _interval(one.y, one.bottom, two.y - margin, two.bottom + margin, dy)
    return max(tx[0], ty[0]) < min(tx[1], ty[1])


def _summed(blocked: np.ndarray) -> np.ndarray:
    """The summed-area table of ``blocked`` tiled twice each way (boxes that wrap)."""
    height, width = blocked.shape
    tiled = np.pad(blocked, ((0, height), (0, width)), mode="wrap").astype(np.int32)
    area = np.zeros((2 * height + 1, 2 * width + 1), dtype=np.int32)
    area[1:, 1:] = tiled.cumsum(0).cumsum(1)
    return area


def _torus_hits(ship: Ship, area: np.ndarray) -> bool:
    """Whether the wrapped path of ``ship`` on a torus ever covers a blocked cell (the
    rest grown by the margin; ``area`` its :func:`_summed` table)."""
    height, width = (area.shape[0] - 1) // 2, (area.shape[1] - 1) // 2
    steps = 1
    if ship.dx:
        steps = math.lcm(steps, width // math.gcd(width, abs(ship.dx)))
    if ship.dy:
        steps = math.lcm(steps, height // math.gcd(height, abs(ship.dy)))
    t = np.arange(steps)
    x = (ship.box.x + ship.dx * t) % width
    y = (ship.box.y + ship.dy * t) % height
    w, h = min(ship.box.width, width), min(ship.box.height, height)
    inside = area[y + h, x + w] - area[y, x + w] - area[y + h, x] + area[y, x]
    return bool(np.any(inside))


def escapes(ships: list[Ship], rest: Box | None, torus: tuple[int, int] | None = None,
            rest_cells: np.ndarray | None = None) -> bool:
    """Whether every ship's path keeps clear of the rest and of every other ship's path
    (on the plane); on a torus (``torus`` is ``(height, width)``, ``rest_cells`` the rest's
    live cells of the whole grid) whether each wrapped path keeps clear of the rest."""
    if torus is not None:
        from scipy import ndimage

        assert rest_cells is not None
        if not ships:
            return True
        area = _summed(ndimage.maximum_filter(rest_cells, size=2 * MARGIN + 1, mode="wrap"))
        return not any(_torus_hits(ship, area) for ship in ships)
    for i, ship in enumerate(ships):
        if rest is not None and paths_meet(ship.box, (ship.dx, ship.dy), rest, (0, 0)):
            return False
        for other in ships[i + 1:]:
            if (ship.dx, ship.dy) != (other.dx, other.dy) and paths_meet(
                    ship.box, (ship.dx, ship.dy), other.box, (other.dx, other.dy), 0):
                return False
    return True


def split(cells: np.ndarray, x0: int, y0: int,
          ships_known: bool) -> tuple[list[Ship], np.ndarray]:
    """The spaceships among the clusters of ``cells`` (top-left cell at ``(x0, y0)``) and
    the other live cells (a copy of ``cells`` with the ships' cells cleared)."""
    rest = cells.copy()
    if not ships_known or not cells.any():
        return [], rest
    from scipy import ndimage

    # clusters of touching cells (every phase of every ship is one); a ship still near
    # the rest is kept apart by escapes(), whose margin keeps its path clear of the rest
    labels, _ = ndimage.label(cells != 0, structure=_EIGHT)
    table = spaceships()
    found = []
    for index, where in enumerate(ndimage.find_objects(labels), start=1):
        if where is None:
            continue
        height = where[0].stop - where[0].start
        width = where[1].stop - where[1].start
        if height > 7 or width > 7:
            continue
        mask = labels[where] == index
        known = table.get(_key(np.ascontiguousarray(mask)))
        if known is None:
            continue
        name, dx, dy = known
        found.append(Ship(name, Box(x0 + where[1].start, y0 + where[0].start, width, height),
                          dx, dy))
        rest[where][mask] = 0
    return found, rest


def split_points(rows: np.ndarray, cols: np.ndarray,
                 ships_known: bool) -> tuple[list[Ship], np.ndarray]:
    """:func:`split` for live cells given as coordinates (a sparse pattern in a large box):
    the spaceships, and which cells are not part of one."""
    keep = np.ones(rows.size, dtype=bool)
    if not ships_known or rows.size == 0:
        return [], keep
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    stride = int(cols.max() - cols.min()) + 3
    keys = (rows - rows.min() + 1) * stride + (cols - cols.min() + 1)
    order = np.argsort(keys)
    ordered = keys[order]
    pairs_from, pairs_to = [], []
    for dy, dx in ((0, 1), (1, -1), (1, 0), (1, 1)):  # each touching pair once
        wanted = keys + dy * stride + dx
        at = np.minimum(np.searchsorted(ordered, wanted), ordered.size - 1)
        hit = ordered[at] == wanted
        pairs_from.append(np.flatnonzero(hit))
        pairs_to.append(order[at[hit]])
    i, j = np.concatenate(pairs_from), np.concatenate(pairs_to)
    graph = coo_matrix((np.ones(i.size, dtype=np.int8), (i, j)), shape=(rows.size,) * 2)
    _, labels = connected_components(graph, directed=False)
    sizes = np.bincount(labels)
    table = spaceships()
    found: list[Ship] = []
    # the cells of each cluster of a ship's size (5 to 13 cells), grouped in one sort
    candidates = np.flatnonzero(((sizes >= 5) & (sizes <= 13))[labels])
    grouped = candidates[np.argsort(labels[candidates], kind="stable")]
    starts = np.flatnonzero(np.diff(labels[grouped], prepend=-1))
    if grouped.size == 0:
        return found, keep
    # each cluster's box, and only the clusters that fit in 7 x 7 looked at one by one
    tops = np.minimum.reduceat(rows[grouped], starts)
    lefts = np.minimum.reduceat(cols[grouped], starts)
    heights = np.maximum.reduceat(rows[grouped], starts) - tops + 1
    widths = np.maximum.reduceat(cols[grouped], starts) - lefts + 1
    ends = np.append(starts[1:], grouped.size)
    for k in np.flatnonzero((heights <= 7) & (widths <= 7)):
        members = grouped[starts[k]:ends[k]]
        ys, xs = rows[members], cols[members]
        top, left = int(tops[k]), int(lefts[k])
        height, width = int(heights[k]), int(widths[k])
        mask = np.zeros((height, width), dtype=bool)
        mask[ys - top, xs - left] = True
        known = table.get(_key(mask))
        if known is None:
            continue
        name, dx, dy = known
        found.append(Ship(name, Box(left, top, width, height), dx, dy))
        keep[members] = False
    return found, keep


def _box_of(cells: np.ndarray, x0: int, y0: int) -> Box | None:
    if not cells.any():
        return None
    rows = np.flatnonzero(cells.any(axis=1))
    columns = np.flatnonzero(cells.any(axis=0))
    return Box(x0 + int(columns[0]), y0 + int(rows[0]), int(columns[-1] - columns[0]) + 1,
               int(rows[-1] - rows[0]) + 1)


def _digest(cells: np.ndarray, box: Box) -> bytes:
    head = np.array([box.x, box.y, *cells.shape], dtype="<i8").tobytes()
    return hashlib.blake2b(head + cells.tobytes(), digest_size=16).digest()


class Settle:
    """Watches one run for a settled pattern (see the module); ``torus`` is the grid's
    ``(height, width)`` when it wraps, ``None`` on the plane."""

    def __init__(self, rule: Rule, torus: tuple[int, int] | None = None) -> None:
        self.rule = rule
        self.torus = torus
        self.ships_known = life_like_ships(rule)
        self.result: Settled | None = None
        self._copies: list[Universe] = []
        self._looks: list[tuple[Box | None, int]] = []
        self._steady = 0

    def _look(self, universe: Universe) -> tuple[list[Ship], np.ndarray | None, Box | None]:
        """The ships, the rest's cells (on a torus; ``None`` on the plane) and its box."""
        box = universe.bounding_box()
        if box is None:
            return [], None, None
        live = getattr(universe, "live_cells", None)
        if live is not None:
            rows, cols, _ = live(box)
        else:
            rows, cols = np.nonzero(universe.cells(box))
            rows, cols = rows + box.y, cols + box.x
        ships, keep = split_points(rows, cols, self.ships_known)
        rest = None
        if self.torus is not None:
            # (a ship across the seam is two clusters now, and recognised at a later look)
            rest = np.zeros(self.torus, dtype=np.int8)
            rest[rows[keep], cols[keep]] = 1
        if not keep.any():
            return ships, rest, None
        ys, xs = rows[keep], cols[keep]
        return ships, rest, Box(int(xs.min()), int(ys.min()), int(xs.max() - xs.min()) + 1,
                                int(ys.max() - ys.min()) + 1)

    def check(self, universe: Universe) -> bool:
        """Look at ``universe`` now (call it every :data:`CHECK_EVERY` generations); True
        once it has settled (then :attr:`result` says how)."""
        self._copies.append(copy.deepcopy(universe))
        del self._copies[:-CHECKPOINTS]
        ships, rest, rest_box = self._look(universe)
        if universe.bounding_box() is None:
            self.result = Settled(self._first_empty(), 1, {})
            return True
        self._looks = [*self._looks[-(STEADY_CHECKS - 1):], (rest_box, len(ships))]
        steady = (len(self._looks) == STEADY_CHECKS
                  and all(look == self._looks[0] for look in self._looks))
        # (the paths are followed only when the rest looks steady: it costs more)
        if not steady or not escapes(ships, rest_box, self.torus,
                                     None if rest is None else rest != 0):
            return False
        region = self._region(rest_box)
        self._steady += 1
        # periods up to QUICK_PERIOD are looked for at every steady check, longer ones (up
        # to what the checkpoints reach) at every LONG_EVERY-th
        reach = (CHECKPOINTS * CHECK_EVERY if self._steady % LONG_EVERY == 0
                 else QUICK_PERIOD)
        until = self._repeats_soon(universe, region, reach)
        if until is None:
            return False
        found = self._replay(region, until)
        if found is None:
            return False
        generation, period = found
        self.result = Settled(generation, period, dict(Counter(s.name for s in ships)))
        return True

    def _first_empty(self) -> int:
        """The first generation at which the pattern was empty (replayed)."""
        replay = copy.deepcopy(self._copies[0])
        while replay.bounding_box() is not None:
            replay.step(1)
        return replay.generation

    def _region(self, rest_box: Box | None) -> Box | None:
        """Where the rest is watched: its box grown by the margin (the whole torus)."""
        if rest_box is None:
            return None
        if self.torus is not None:
            return Box(0, 0, self.torus[1], self.torus[0])
        return Box(rest_box.x - MARGIN, rest_box.y - MARGIN, rest_box.width + 2 * MARGIN,
                   rest_box.height + 2 * MARGIN)

    def _repeats_soon(self, universe: Universe, region: Box | None,
                      reach: int) -> int | None:
        """The generation by which the cells of ``region`` (which the escaping ships have
        left) and the population repeat, looking ``reach`` generations ahead on a copy
        (``None`` if they do not): a cheap test before the exact replay."""
        if region is None:
            return universe.generation + reach
        ahead = copy.deepcopy(universe)
        if self.torus is not None:
            # the whole torus holds the wrapping ships too: the population (which ships
            # keep) must repeat twice over within the window
            counts = []
            for _ in range(reach + 1):
                counts.append(sum(ahead.population()))
                ahead.step(1)
            series = np.array(counts)
            for period in range(1, (reach + 1) // 2 + 1):
                if np.array_equal(series[period:], series[:-period]):
                    return ahead.generation
            return None
        seen: set[tuple[bytes, int]] = set()
        for _ in range(reach + 1):
            key = (_digest(ahead.cells(region), region), sum(ahead.population()))
            if key in seen:
                return ahead.generation
            seen.add(key)
            ahead.step(1)
        return None

    def _replay(self, region: Box | None, until: int) -> tuple[int, int] | None:
        """Step a copy of the oldest checkpoint one generation at a time up to ``until``,
        remembering the rest inside ``region`` and the population;
        the first repeat gives ``(generation, period)``."""
        replay = copy.deepcopy(self._copies[0])
        seen: dict[tuple[bytes, int], int] = {}
        while replay.generation <= until:
            if region is None:
                key = (b"", sum(replay.population()))
            else:
                cells = replay.cells(region)
                _, rest = split(cells, region.x, region.y, self.ships_known)
                key = (_digest(rest, region), sum(replay.population()))
            first = seen.get(key)
            if first is not None:
                return first, replay.generation - first
            seen[key] = replay.generation
            replay.step(1)
        return None


class Repeat:
    """Watches a grid with edges for its whole configuration repeating (a digest per
    generation; call :meth:`check` every generation): the exact test on a bounded grid,
    where gliders end as blocks at the walls."""

    def __init__(self) -> None:
        self.result: Settled | None = None
        self._seen: dict[object, int] = {}

    def check(self, universe: Universe) -> bool:
        """Remember the configuration now; True once it was seen before."""
        digest = getattr(universe, "digest", None)
        key: object = (digest() if digest is not None
                       else _digest(universe.cells(), universe.bounding_box() or Box(0, 0, 0, 0)))
        first = self._seen.get(key)
        if first is not None:
            self.result = Settled(first, universe.generation - first, {})
            return True
        self._seen[key] = universe.generation
        return False
