"""Running a pattern on the unbounded plane: a bounded grid that follows the pattern, moved
to a new grid (larger as the pattern grows) whenever a live cell reaches its edge.

A bounded grid clips a pattern that grows and a torus wraps it onto itself; either gives a
wrong answer for the plane (Gosper's gun after 10,000 generations has 1,713 live cells, not
the 70 or 72 of a small torus or bounded grid). :func:`run_growing` gives the plane's answer:
it steps a bounded grid for as long as its outer ring (first and last row and column) is
empty, which makes each step exactly the plane's (nothing outside can be born, see
:func:`lifearena.life.kernels.bitplanes.edge_live`); when a live cell lies on the ring it
re-embeds the pattern in a larger grid, doubling each side of it that was touched, and goes
on. When a larger grid would pass ``max_cells`` it raises :class:`GrowthLimitError`, which
names the generation and the edge: never a clipped or wrapped figure.

The grid only grows; ``origin`` says where the start grid's top-left cell lies in the final
one. A rule that gives birth with no neighbours (B0) fills the plane, so it cannot run here
(:class:`GrowthLimitError` at once). Coin births are hashed from the cell's index in the
current grid (:mod:`lifearena.life.coin`), so with a coin rule the run is reproducible from
its inputs but need not match a run on a grid of another size.

>>> import numpy as np
>>> glider = np.array([[0, 1, 0], [0, 0, 1], [1, 1, 1]], dtype=np.int8)
>>> run = run_growing(glider, "life", 40)
>>> run.generation, int((run.cells == 1).sum()), run.cells.shape, run.origin
(40, 5, (67, 67), (32, 32))
>>> try:  # not even the glider with one empty cell round it fits in 20 cells
...     run_growing(glider, "life", 40, max_cells=20)
... except GrowthLimitError as error:
...     print(error.generation, error.edges)
0 ('top', 'bottom', 'left', 'right')
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from lifearena import caps
from lifearena.errors import BadParameterError
from lifearena.life.grid import as_grid
from lifearena.life.kernels.bitlogic import plan_for, seed_word
from lifearena.life.kernels.bitplanes import pack, unpack
from lifearena.life.kernels.bitwise import new_seen, run_inside
from lifearena.life.rules import Rule, as_rule

CALL_UPDATES = 2**31
"""Cell-updates in one compiled call: about 0.05 s, so that Ctrl-C (which numba code does
not see until it returns) stays prompt and progress is redrawn."""

EDGES = ("top", "bottom", "left", "right")

MIN_MARGIN = 32
"""The least room left round the live cells when they move to a new grid: a small pattern
(a glider) then runs many generations on a small, fast grid between two moves."""


class GrowthLimitError(BadParameterError):
    """The pattern reached the edge of a grid that may not grow any more (or the rule has
    B0). ``generation`` is when, ``edges`` which edges the live cells touched, ``shape``
    the grid's ``(height, width)``."""

    def __init__(self, message: str, *, generation: int, edges: tuple[str, ...],
                 shape: tuple[int, int]) -> None:
        super().__init__(message)
        self.generation = generation
        self.edges = edges
        self.shape = shape


@dataclass(frozen=True)
class Snapshot:
    """The grid after ``generation`` steps of the run, and where the start grid's top-left
    cell lies in it."""

    generation: int
    cells: np.ndarray
    origin: tuple[int, int]


@dataclass(frozen=True)
class GrowingRun:
    """How :func:`run_growing` ended: the final grid, the number of generations done, where
    the start grid's top-left cell lies in it, how often the pattern moved to a new grid
    (``moves``), and (when cycles
    were looked for) the period of the repeat found and the step its cycle began at
    (counted from the start, as ``generation``); ``cell_updates`` counts the cells stepped,
    summed over the grids the run went through (for a rate)."""

    cells: np.ndarray
    generation: int
    origin: tuple[int, int]
    moves: int
    period: int | None = None
    cycle_start: int | None = None
    snapshots: list[Snapshot] = field(default_factory=list)
    cell_updates: int = 0


def touched_edges(cells: np.ndarray) -> tuple[str, ...]:
    """The edges of ``cells`` that hold a live cell, in the order of :data:`EDGES`.

    >>> touched_edges(np.array([[0, 0, 1], [0, 0, 0], [0, 0, 0]], dtype=np.int8))
    ('top', 'right')
    """
    live = cells != 0
    found = (live[0].any(), live[-1].any(), live[:, 0].any(), live[:, -1].any())
    return tuple(edge for edge, hit in zip(EDGES, found, strict=True) if hit)


def margin_for(box: tuple[int, int], max_cells: int, floor: int = MIN_MARGIN) -> int:
    """The empty cells to leave on each side of live cells spanning ``box`` (height, width)
    when they move to a new grid: half the box's larger side, at least ``floor``, so that a
    growing pattern's grid about doubles a side each time and moves are few; halved until
    the grid fits in ``max_cells``; 0 when not even one cell of room fits.

    >>> margin_for((3, 3), 10**6), margin_for((100, 40), 10**6), margin_for((100, 40), 10**4)
    (32, 50, 12)
    >>> margin_for((99, 99), 100 * 100)
    0
    """
    height, width = box
    margin = max(floor, max(height, width) // 2)
    while margin >= 1 and (height + 2 * margin) * (width + 2 * margin) > max_cells:
        margin //= 2
    return margin


def _describe(edges: tuple[str, ...]) -> str:
    return (edges[0] if len(edges) == 1 else
            ", ".join(edges[:-1]) + " and " + edges[-1]) + (" edges" if len(edges) > 1
                                                            else " edge")


def run_growing(
    cells: np.ndarray,
    rule: Rule | str,
    generations: int,
    *,
    seed: int = 0,
    generation: int = 0,
    max_cells: int = caps.MAX_GRID_CELLS,
    cycle_window: int = 0,
    snapshot_every: int = 0,
    check_growth: Callable[[tuple[int, int], int], None] | None = None,
    progress: Callable[[int], None] | None = None,
) -> GrowingRun:
    """``cells`` after ``generations`` steps on the unbounded plane (the first step is
    number ``generation``, for coins), moving it to new grids as described in the module.

    ``cycle_window``: in the first that many generations, stop at the first configuration
    that repeats (on the same grid; after a move the search starts afresh) and report its
    period. ``snapshot_every``: keep the grid every that many generations, and the start
    and the end (for an animation). ``check_growth(shape, generation)`` is called before
    the pattern moves to a grid of ``shape`` and may raise to refuse it (when what the
    caller keeps of the run would not fit in memory, say). ``progress`` is called with the
    generations done after each compiled call.
    """
    grid = as_grid(cells, allow_batch=False)
    rule = as_rule(rule)
    if generations < 0:
        raise BadParameterError(f"generations {generations} is negative; expected >= 0")
    if rule.table[0, 0, 0] != 0:
        raise GrowthLimitError(
            f"rule {rule.name} gives birth with no neighbours (B0), so a pattern fills the "
            "unbounded plane at once", generation=generation, edges=EDGES, shape=grid.shape)
    plan = plan_for(rule)
    height, width = grid.shape
    a, b = pack(grid)
    origin = (0, 0)
    moves = 0
    done = 0
    updates = 0
    snapshots = [Snapshot(0, grid.copy(), origin)] if snapshot_every else []
    seen = new_seen()
    while done < generations:
        per_call = max(1, CALL_UPDATES // (height * width))
        stop = min(generations, done + per_call)
        if snapshot_every:
            stop = min(stop, (done // snapshot_every + 1) * snapshot_every)
        track = done < cycle_window
        if track:
            stop = min(stop, cycle_window)
        a, b, reached, first, at_edge = run_inside(
            plan.family, plan.flags, plan.terms, a, b, height, width, seed_word(seed),
            generation + done, generation + stop, seen, track)
        updates += (reached - generation - done) * height * width
        done = reached - generation
        if first >= 0:
            if progress is not None:
                progress(done)
            final = unpack(a, b, height, width)
            return GrowingRun(final, done, origin, moves, reached - first, first - generation,
                              snapshots + ([Snapshot(done, final.copy(), origin)]
                                           if snapshot_every else []), updates)
        if at_edge:
            current = unpack(a, b, height, width)
            edges = touched_edges(current)
            rows = np.flatnonzero(current.any(axis=1))
            columns = np.flatnonzero(current.any(axis=0))
            box = current[rows[0] : rows[-1] + 1, columns[0] : columns[-1] + 1]
            margin = margin_for(box.shape, max_cells)
            if margin < 1:
                raise GrowthLimitError(
                    f"at generation {reached} a live cell reached the {_describe(edges)} of "
                    f"the {width} x {height} grid, and its live cells span {box.shape[1]} x "
                    f"{box.shape[0]}: a grid with room round them would pass the cap of "
                    f"{max_cells:,} cells", generation=reached, edges=edges,
                    shape=(height, width))
            height, width = box.shape[0] + 2 * margin, box.shape[1] + 2 * margin
            if check_growth is not None:
                check_growth((height, width), reached)
            origin = (origin[0] - int(rows[0]) + margin, origin[1] - int(columns[0]) + margin)
            a, b = pack(np.pad(box, margin))
            seen = new_seen()
            moves += 1
            continue
        if progress is not None:
            progress(done)
        if snapshot_every and (done % snapshot_every == 0 or done == generations):
            snapshots.append(Snapshot(done, unpack(a, b, height, width), origin))
    final = unpack(a, b, height, width)
    if snapshot_every and snapshots[-1].generation != done:
        snapshots.append(Snapshot(done, final.copy(), origin))
    return GrowingRun(final, done, origin, moves, snapshots=snapshots, cell_updates=updates)
