"""Which :class:`~lifearena.life.universe.Universe` runs a pattern: :func:`choose_universe`.

A grid with edges (bounded or torus) is always a :class:`~lifearena.life.packed.PackedGrid`.
The unbounded plane has two algorithms, named as ``--algorithm`` names them:

* ``tiles``: :class:`~lifearena.life.plane.TilePlane`, sparse 64 x 64 tiles on the
  bit-parallel kernels. Its cost is per generation and per active row, so it is the one for
  chaotic patterns (acorn, Lidka, soups) and the only one for rules with coin births;
* ``hashlife``: :class:`~lifearena.life.hashlife.HashLife`, deterministic rules only. Its
  cost is per distinct square of the pattern's history, so it leaps over the long runs of
  regular patterns (guns, puffers, breeders: the Gosper gun to 2**30 in hundredths of a
  second) and is slow on chaos;
* ``auto`` (:func:`plane_algorithm`): HashLife when the rule is a lookup over the
  neighbourhood (which tiles cannot run), when a step exponent is given (asking for steps of
  2**k is asking for HashLife, as in Golly), or when the run is long
  (:data:`HASHLIFE_FROM_GENERATIONS` generations or more) from a start of at most
  :data:`HASHLIFE_MAX_START_CELLS` live cells with a deterministic rule; tiles otherwise.
  ``life run`` prints the choice and its reason.

>>> import numpy as np
>>> plane = choose_universe(Rule.named("life"), 40, "auto")
>>> plane.add(np.array([[0, 1, 0], [0, 0, 1], [1, 1, 1]], dtype=np.int8), x=10, y=-3)
>>> plane.step(40); plane.population(), plane.bounding_box()
((5, 0), Box(x=20, y=7, width=3, height=3))
>>> algorithm, reason = plane_algorithm(Rule.named("life"), 2**30, "auto")
>>> algorithm.value, reason
('hashlife', 'auto: a long run (2**17 generations or more) of a deterministic rule')
>>> plane_algorithm(Rule.named("p2life"), 2**30, "auto")[1]
'auto: p2life has coin births, which only tiles run'
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from typing import TYPE_CHECKING

import numpy as np

from lifearena import caps
from lifearena.errors import BadParameterError
from lifearena.life.grid import as_grid, population
from lifearena.life.lookup_rule import LookupRule
from lifearena.life.rules import COIN, Rule
from lifearena.life.universe import Box, Universe, clipped_cells, transition_table

AnyRule = Rule | LookupRule

if TYPE_CHECKING:
    from lifearena.life.packed import PackedGrid


class Algorithm(StrEnum):
    """The algorithms of the unbounded plane (``--algorithm``)."""

    auto = "auto"
    tiles = "tiles"
    hashlife = "hashlife"


HASHLIFE_FROM_GENERATIONS = 1 << 17
"""``auto`` picks HashLife for runs of at least this many generations (with a deterministic
rule and a start of at most :data:`HASHLIFE_MAX_START_CELLS` live cells)."""

HASHLIFE_MAX_START_CELLS = 100_000
"""A start with more live cells (a soup) runs on tiles, whatever the run's length: HashLife
pays for every distinct square, and a soup's are all distinct."""

MAX_STEP_EXPONENT = 40
"""The largest ``--step-exponent``: steps of 2**40 generations pass the generation cap."""


class GrowingPlane:
    """The unbounded plane as a bounded grid that follows the pattern, kept packed
    (:class:`~lifearena.life.packed.PackedGrid`), with Golly's absolute coordinates:
    ``origin`` is the plane cell of the grid's top-left cell.

    It steps as :func:`lifearena.life.growing.run_growing` does, and gives its cells: a
    bounded step is the plane's while no live cell lies on the grid's outer ring, so it
    steps as many generations at once as the live cells' distance from the edge allows,
    and when they reach the ring moves them to a new grid with room round them
    (:func:`~lifearena.life.growing.margin_for`), up to ``max_cells`` cells. Coin births
    are hashed from a cell's index in the current grid, as there: stepping in several
    calls gives the cells one call gives.
    """

    def __init__(self, rule: Rule, *, seed: int = 0, generation: int = 0,
                 max_cells: int | None = None) -> None:
        self.rule = rule
        self.seed = int(seed)
        # read when made, not when imported: the cap may be lowered (tests)
        self.max_cells = caps.MAX_GRID_CELLS if max_cells is None else max_cells
        self.origin = (0, 0)
        self.cell_updates = 0
        self.moves = 0
        self._grid = self._packed(np.zeros((1, 1), dtype=np.int8), int(generation))

    def _packed(self, cells: np.ndarray, generation: int) -> PackedGrid:
        from lifearena.life.packed import PackedGrid

        return PackedGrid(cells, self.rule, torus=False, seed=self.seed, generation=generation)

    @property
    def generation(self) -> int:
        """The generation the plane is at."""
        return self._grid.generation

    @generation.setter
    def generation(self, value: int) -> None:
        self._grid.generation = int(value)

    @property
    def grid(self) -> np.ndarray:
        """The whole current grid (unpacked)."""
        return self._grid.cells(Box(0, 0, self._grid.width, self._grid.height))

    def add(self, cells: np.ndarray, x: int = 0, y: int = 0) -> None:
        """Put the live cells of ``cells`` on the plane with its top-left cell at ``(x, y)``."""
        patch = as_grid(cells, allow_batch=False)
        grid = self.grid
        ox, oy = self.origin
        left, top = min(ox, x), min(oy, y)
        right = max(ox + grid.shape[1], x + patch.shape[1])
        bottom = max(oy + grid.shape[0], y + patch.shape[0])
        merged = np.zeros((bottom - top, right - left), dtype=np.int8)
        merged[oy - top : oy - top + grid.shape[0], ox - left : ox - left + grid.shape[1]] = grid
        view = merged[y - top : y - top + patch.shape[0], x - left : x - left + patch.shape[1]]
        view[patch != 0] = patch[patch != 0]
        self._grid = self._packed(merged, self.generation)
        self.origin = (left, top)

    def step(self, generations: int, progress: Callable[[int], None] | None = None) -> None:
        """Advance ``generations`` generations (a :class:`~lifearena.life.growing.
        GrowthLimitError` when the pattern outgrows ``max_cells``)."""
        left = int(generations)
        while left > 0:
            grid = self._grid
            box = grid.bounding_box()
            if box is None:  # an empty plane stays empty (B0 rules never run here)
                grid.generation += left
                break
            room = min(box.x, box.y, grid.width - box.right, grid.height - box.bottom)
            if room == 0:
                self._move(box)
                continue
            n = min(left, room)
            grid.step(n, progress)
            self.cell_updates += n * grid.cell_count
            left -= n
        if progress is not None:
            progress(self.generation)

    def _move(self, box: Box) -> None:
        """Move the live cells (``box`` of the grid) to a new grid with room round them."""
        from lifearena.life.growing import EDGES, GrowthLimitError, margin_for

        grid = self._grid
        margin = margin_for((box.height, box.width), self.max_cells)
        if margin < 1:
            touched = (box.y == 0, box.bottom == grid.height, box.x == 0,
                       box.right == grid.width)
            edges = tuple(edge for edge, hit in zip(EDGES, touched, strict=True) if hit)
            named = (edges[0] + " edge" if len(edges) == 1 else
                     ", ".join(edges[:-1]) + " and " + edges[-1] + " edges")
            raise GrowthLimitError(
                f"at generation {grid.generation} a live cell reached the {named} of the "
                f"{grid.width} x {grid.height} grid, and its live cells span {box.width} x "
                f"{box.height}: a grid with room round them would pass the cap of "
                f"{self.max_cells:,} cells", generation=grid.generation, edges=edges,
                shape=(grid.height, grid.width))
        self._grid = self._packed(np.pad(grid.cells(box), margin), grid.generation)
        self.origin = (self.origin[0] + box.x - margin, self.origin[1] + box.y - margin)
        self.moves += 1

    def population(self) -> tuple[int, int]:
        """Live cells of colour 1 and of colour 2."""
        return self._grid.population()

    def bounding_box(self) -> Box | None:
        """The smallest box holding every live cell, ``None`` when the plane is empty."""
        box = self._grid.bounding_box()
        if box is None:
            return None
        return Box(box.x + self.origin[0], box.y + self.origin[1], box.width, box.height)

    def _local(self, box: Box) -> Box:
        return Box(box.x - self.origin[0], box.y - self.origin[1], box.width, box.height)

    def cells(self, box: Box | None = None) -> np.ndarray:
        """The cells of ``box`` (default: the bounding box; an empty plane gives ``(0, 0)``)."""
        if box is None:
            box = self.bounding_box()
            if box is None:
                return np.zeros((0, 0), dtype=np.int8)
        return self._grid.cells(self._local(box))

    def live_cells(self, box: Box | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Rows (y), columns (x) and colours of the live cells inside ``box`` (default:
        all), in plane coordinates."""
        local = None if box is None else self._local(box)
        rows, cols, colours = self._grid.live_cells(local)
        return rows + self.origin[1], cols + self.origin[0], colours

    def blocks(self, box: Box, factor: int) -> tuple[np.ndarray, np.ndarray]:
        """Cells of each colour in each ``factor x factor`` block of ``box`` (a box of live
        cells), blocks aligned to multiples of ``factor`` in plane coordinates."""
        local = self._local(box)
        if self.origin[0] % factor or self.origin[1] % factor:
            from lifearena.life.frames import _pool

            cells = self._grid.cells(local)
            ones, _, _ = _pool((cells == 1).astype(np.int32), box.y, box.x, factor)
            twos, _, _ = _pool((cells == 2).astype(np.int32), box.y, box.x, factor)
            return ones, twos
        return self._grid.blocks(local, factor)


def check_step_exponent(exponent: int | None) -> None:
    """Refuse a step exponent outside ``0..MAX_STEP_EXPONENT``."""
    if exponent is not None and not 0 <= exponent <= MAX_STEP_EXPONENT:
        raise BadParameterError(f"--step-exponent {exponent}; expected 0 to "
                                f"{MAX_STEP_EXPONENT} (steps of 2**K generations)")


def plane_algorithm(rule: AnyRule, generations: int, algorithm: Algorithm | str = "auto", *,
                    step_exponent: int | None = None,
                    start_cells: int = 0) -> tuple[Algorithm, str]:
    """The algorithm that runs ``rule`` on the plane for ``generations`` generations from a
    start of ``start_cells`` live cells, and why (see the module): never ``auto``."""
    try:
        chosen = Algorithm(algorithm)
    except ValueError:
        raise BadParameterError(f"--algorithm {algorithm!r}; expected one of "
                                f"{', '.join(a.value for a in Algorithm)}") from None
    check_step_exponent(step_exponent)
    coin = bool(np.any(transition_table(rule) == COIN))
    lookup = not isinstance(rule, Rule)
    if chosen is Algorithm.hashlife:
        if coin:
            raise BadParameterError(f"--algorithm hashlife runs deterministic rules, and "
                                    f"{rule.name} has coin births; expected --algorithm tiles")
        return chosen, "asked for"
    if chosen is Algorithm.tiles:
        if lookup:
            raise BadParameterError(f"--algorithm tiles runs rules of neighbour counts, and "
                                    f"{rule.name} is a lookup over the neighbourhood; "
                                    "expected --algorithm hashlife or auto")
        if step_exponent is not None:
            raise BadParameterError("--step-exponent sets HashLife's step; expected "
                                    "--algorithm hashlife or auto with it")
        return chosen, "asked for"
    if coin:
        return Algorithm.tiles, f"auto: {rule.name} has coin births, which only tiles run"
    if lookup:
        return Algorithm.hashlife, (f"auto: {rule.name} is a lookup over the neighbourhood, "
                                    "which only HashLife runs on the plane")
    if step_exponent is not None:
        return Algorithm.hashlife, "auto: a step exponent asks for HashLife's steps"
    if generations >= HASHLIFE_FROM_GENERATIONS and start_cells <= HASHLIFE_MAX_START_CELLS:
        return Algorithm.hashlife, ("auto: a long run (2**17 generations or more) of a "
                                    "deterministic rule")
    if generations >= HASHLIFE_FROM_GENERATIONS:
        return Algorithm.tiles, (f"auto: a start of {start_cells:,} live cells (HashLife "
                                 f"from at most {HASHLIFE_MAX_START_CELLS:,})")
    return Algorithm.tiles, "auto: a run of under 2**17 generations"


def choose_universe(rule: AnyRule, generations: int, algorithm: Algorithm | str = "auto", *,
                    seed: int = 0, step_exponent: int | None = None,
                    start_cells: int = 0) -> Universe:
    """An empty unbounded plane running ``rule`` for a run of ``generations`` from a start of
    ``start_cells`` live cells, by :func:`plane_algorithm`: the one place the choice is
    made (call that function for the reason)."""
    if transition_table(rule)[0] != 0:
        raise BadParameterError(f"rule {rule.name} gives birth with no neighbours (B0), so a "
                                "pattern would fill the unbounded plane at once; expected "
                                "--size WxH or --pad N for a fixed grid")
    chosen, _ = plane_algorithm(rule, generations, algorithm, step_exponent=step_exponent,
                                start_cells=start_cells)
    made: Universe
    if chosen is Algorithm.hashlife:
        from lifearena.life.hashlife import HashLife

        made = HashLife(rule, step_exponent=step_exponent)
    else:
        from lifearena.life.plane import TilePlane

        assert isinstance(rule, Rule)  # plane_algorithm sends lookup rules to HashLife
        # the cap read now, not when the module was imported (tests lower it)
        made = TilePlane(rule, seed=seed, max_cells=caps.MAX_GRID_CELLS)
    return made


LOOKUP_CHUNK = 64
"""Generations of a lookup rule stepped in compiled code between two progress calls."""


class KernelGrid:
    """A bounded or toroidal grid stepped unpacked by one of the simple kernels of
    :func:`lifearena.life.step.evolve` (``reference`` or ``numpy``: slow, kept to check the
    fast ones; :class:`~lifearena.life.packed.PackedGrid` is the fast grid), or by the
    compiled kernel of lookup rules (:mod:`lifearena.life.kernels.lookup`), which the packed
    grid cannot run. ``on_plane``
    marks a bounded grid standing for the plane: one with room round the pattern for every
    generation it will run (a small run, which costs less than loading the fast kernels)."""

    def __init__(self, cells: np.ndarray, rule: AnyRule, *, torus: bool, seed: int = 0,
                 kernel: str = "numpy", on_plane: bool = False) -> None:
        if isinstance(rule, LookupRule):
            kernel = "lookup"  # the one kernel of lookup rules
        elif kernel not in ("numpy", "reference"):
            raise BadParameterError(f"kernel {kernel!r}; expected numpy or reference")
        self.rule = rule
        self.grid = as_grid(cells, allow_batch=False).copy()
        self.torus = bool(torus)
        self.seed = int(seed)
        self.kernel = kernel
        self.on_plane = on_plane
        self.generation = 0
        self.height, self.width = self.grid.shape

    def add(self, cells: np.ndarray, x: int = 0, y: int = 0) -> None:
        """Put the live cells of ``cells`` on the grid with its top-left cell at ``(x, y)``."""
        patch = as_grid(cells, allow_batch=False)
        view = self.grid[y : y + patch.shape[0], x : x + patch.shape[1]]
        view[patch != 0] = patch[patch != 0]

    def step(self, generations: int, progress: Callable[[int], None] | None = None) -> None:
        """Advance ``generations`` generations, one at a time."""
        # the simple kernels themselves, not lifearena.life.step: a small run then never
        # loads numba (see lifearena.cli.life's small runs)
        from lifearena.life.kernels.numpy_step import numpy_step
        from lifearena.life.kernels.reference import reference_step

        if isinstance(self.rule, LookupRule):
            from lifearena.life.kernels.lookup import lookup_evolve

            table = self.rule.transition_table()
            end = self.generation + generations
            while self.generation < end:
                n = min(end - self.generation, LOOKUP_CHUNK)
                self.grid = lookup_evolve(self.grid, table, n, torus=self.torus)
                self.generation += n
                if progress is not None:
                    progress(self.generation)
            return
        for _ in range(generations):
            one_step = numpy_step if self.kernel == "numpy" else reference_step
            self.grid = one_step(self.grid, self.rule, torus=self.torus, seed=self.seed,
                                 generation=self.generation)
            self.generation += 1
            if progress is not None:
                progress(self.generation)

    def population(self) -> tuple[int, int]:
        """Live cells of colour 1 and of colour 2."""
        return population(self.grid)

    def bounding_box(self) -> Box | None:
        """The smallest box holding every live cell, ``None`` when the grid is empty."""
        rows = np.flatnonzero(self.grid.any(axis=1))
        if rows.size == 0:
            return None
        columns = np.flatnonzero(self.grid.any(axis=0))
        return Box(int(columns[0]), int(rows[0]), int(columns[-1] - columns[0]) + 1,
                   int(rows[-1] - rows[0]) + 1)

    def cells(self, box: Box | None = None) -> np.ndarray:
        """The cells of ``box`` (default: the bounding box); outside the grid reads empty."""
        if box is None:
            box = self.bounding_box()
            if box is None:
                return np.zeros((0, 0), dtype=np.int8)
        return clipped_cells(box, self.width, self.height,
                             lambda part: self.grid[part.y : part.bottom, part.x : part.right])
