"""Which :class:`~lifearena.life.universe.Universe` runs a pattern: :func:`choose_universe`.

A grid with edges (bounded or torus) is always a :class:`~lifearena.life.packed.PackedGrid`.
The unbounded plane has algorithms to choose from, named as ``--algorithm`` names them:

* ``tiles``: a plane that grows with the pattern, on the bit-parallel kernels (today the
  growing grid of :func:`lifearena.life.growing.run_growing`, behind :class:`GrowingPlane`);
* ``hashlife``: :mod:`lifearena.life.hashlife` (deterministic rules; steps of ``2**k``),
  loaded only when asked for;
* ``auto``: ``tiles``, the one that runs every rule.

>>> import numpy as np
>>> plane = choose_universe(Rule.named("life"), 40, "auto")
>>> plane.add(np.array([[0, 1, 0], [0, 0, 1], [1, 1, 1]], dtype=np.int8), x=10, y=-3)
>>> plane.step(40); plane.population(), plane.bounding_box()
((5, 0), Box(x=20, y=7, width=3, height=3))
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from enum import StrEnum

import numpy as np

from lifearena import caps
from lifearena.errors import BadParameterError
from lifearena.life.grid import as_grid, population
from lifearena.life.rules import Rule
from lifearena.life.universe import Box, Universe


class Algorithm(StrEnum):
    """The algorithms of the unbounded plane (``--algorithm``)."""

    auto = "auto"
    tiles = "tiles"
    hashlife = "hashlife"


MAX_STEP_EXPONENT = 40
"""The largest ``--step-exponent``: steps of 2**40 generations pass the generation cap."""


class GrowingPlane:
    """The unbounded plane as a grid that follows the pattern (:func:`run_growing`),
    with Golly's absolute coordinates: ``origin`` is the plane cell of ``grid[0, 0]``.

    Coin births are hashed from a cell's index in the current grid, as in
    :func:`run_growing`: stepping in several calls gives the cells one call gives.
    """

    def __init__(self, rule: Rule, *, seed: int = 0, generation: int = 0,
                 max_cells: int | None = None) -> None:
        self.rule = rule
        self.generation = int(generation)
        self.seed = int(seed)
        # read when made, not when imported: the cap may be lowered (tests)
        self.max_cells = caps.MAX_GRID_CELLS if max_cells is None else max_cells
        self.grid = np.zeros((1, 1), dtype=np.int8)
        self.origin = (0, 0)
        self.cell_updates = 0
        self.moves = 0

    def add(self, cells: np.ndarray, x: int = 0, y: int = 0) -> None:
        """Put the live cells of ``cells`` on the plane with its top-left cell at ``(x, y)``."""
        patch = as_grid(cells, allow_batch=False)
        ox, oy = self.origin
        left, top = min(ox, x), min(oy, y)
        right = max(ox + self.grid.shape[1], x + patch.shape[1])
        bottom = max(oy + self.grid.shape[0], y + patch.shape[0])
        merged = np.zeros((bottom - top, right - left), dtype=np.int8)
        merged[oy - top : oy - top + self.grid.shape[0],
               ox - left : ox - left + self.grid.shape[1]] = self.grid
        view = merged[y - top : y - top + patch.shape[0], x - left : x - left + patch.shape[1]]
        view[patch != 0] = patch[patch != 0]
        self.grid, self.origin = merged, (left, top)

    def step(self, generations: int, progress: Callable[[int], None] | None = None) -> None:
        """Advance ``generations`` generations (a :class:`~lifearena.life.growing.
        GrowthLimitError` when the pattern outgrows ``max_cells``)."""
        from lifearena.life.growing import run_growing

        start = self.generation
        done = run_growing(self.grid, self.rule, generations, seed=self.seed,
                           generation=self.generation, max_cells=self.max_cells,
                           progress=None if progress is None else
                           (lambda g: progress(start + g)))
        self.grid = done.cells
        self.origin = (self.origin[0] - done.origin[1], self.origin[1] - done.origin[0])
        self.generation += done.generation
        self.cell_updates += done.cell_updates
        self.moves += done.moves

    def population(self) -> tuple[int, int]:
        """Live cells of colour 1 and of colour 2."""
        return population(self.grid)

    def bounding_box(self) -> Box | None:
        """The smallest box holding every live cell, ``None`` when the plane is empty."""
        rows = np.flatnonzero(self.grid.any(axis=1))
        if rows.size == 0:
            return None
        columns = np.flatnonzero(self.grid.any(axis=0))
        return Box(self.origin[0] + int(columns[0]), self.origin[1] + int(rows[0]),
                   int(columns[-1] - columns[0]) + 1, int(rows[-1] - rows[0]) + 1)

    def cells(self, box: Box | None = None) -> np.ndarray:
        """The cells of ``box`` (default: the bounding box; an empty plane gives ``(0, 0)``)."""
        if box is None:
            box = self.bounding_box()
            if box is None:
                return np.zeros((0, 0), dtype=np.int8)
        out = np.zeros((box.height, box.width), dtype=np.int8)
        ox, oy = self.origin
        x0, y0 = max(box.x, ox), max(box.y, oy)
        x1 = min(box.right, ox + self.grid.shape[1])
        y1 = min(box.bottom, oy + self.grid.shape[0])
        if x0 < x1 and y0 < y1:
            out[y0 - box.y : y1 - box.y, x0 - box.x : x1 - box.x] = \
                self.grid[y0 - oy : y1 - oy, x0 - ox : x1 - ox]
        return out


def check_step_exponent(exponent: int | None) -> None:
    """Refuse a step exponent outside ``0..MAX_STEP_EXPONENT``."""
    if exponent is not None and not 0 <= exponent <= MAX_STEP_EXPONENT:
        raise BadParameterError(f"--step-exponent {exponent}; expected 0 to "
                                f"{MAX_STEP_EXPONENT} (steps of 2**K generations)")


def choose_universe(rule: Rule, generations: int, algorithm: Algorithm | str = "auto", *,
                    seed: int = 0, step_exponent: int | None = None) -> Universe:
    """An empty unbounded plane running ``rule`` for a run of ``generations``, by
    ``algorithm`` (see the module): the one place the choice is made."""
    try:
        chosen = Algorithm(algorithm)
    except ValueError:
        raise BadParameterError(f"--algorithm {algorithm!r}; expected one of "
                                f"{', '.join(a.value for a in Algorithm)}") from None
    check_step_exponent(step_exponent)
    if rule.table[0, 0, 0] != 0:
        raise BadParameterError(f"rule {rule.name} gives birth with no neighbours (B0), so a "
                                "pattern would fill the unbounded plane at once; expected "
                                "--size WxH or --pad N for a fixed grid")
    if chosen is Algorithm.hashlife:
        if rule.uses_coin:
            raise BadParameterError(f"--algorithm hashlife runs deterministic rules, and "
                                    f"{rule.name} has coin births; expected --algorithm tiles")
        try:
            module = importlib.import_module("lifearena.life.hashlife")
        except ImportError:
            raise BadParameterError("--algorithm hashlife is not in this build of lifearena "
                                    "yet; expected --algorithm auto or tiles") from None
        made: Universe = module.HashLife(rule)
        return made
    return GrowingPlane(rule, seed=seed)


class KernelGrid:
    """A bounded or toroidal grid stepped unpacked by one of the simple kernels of
    :func:`lifearena.life.step.evolve` (``reference`` or ``numpy``: slow, kept to check the
    fast ones; :class:`~lifearena.life.packed.PackedGrid` is the fast grid). ``on_plane``
    marks a bounded grid standing for the plane: one with room round the pattern for every
    generation it will run (a small run, which costs less than loading the fast kernels)."""

    def __init__(self, cells: np.ndarray, rule: Rule, *, torus: bool, seed: int = 0,
                 kernel: str = "numpy", on_plane: bool = False) -> None:
        if kernel not in ("numpy", "reference"):
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
        out = np.zeros((box.height, box.width), dtype=np.int8)
        x0, y0 = max(box.x, 0), max(box.y, 0)
        x1, y1 = min(box.right, self.width), min(box.bottom, self.height)
        if x0 < x1 and y0 < y1:
            out[y0 - box.y : y1 - box.y, x0 - box.x : x1 - box.x] = self.grid[y0:y1, x0:x1]
        return out
