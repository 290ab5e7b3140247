"""Running a grid until its configuration is stable or periodic, with a cap on generations.

Every configuration seen is remembered by a 64-bit digest with the generation it appeared
at, so the first repeat gives both the period and where the cycle began. A glider travelling
round a torus is caught this way: the whole configuration repeats once it has gone round.

With a rule that has coin births, a repeated configuration is reported as periodic even if a
coin was involved; the same configuration at a later generation may flip its coins
differently, so such a "cycle" need not repeat exactly afterwards. With p2life this is rare
(a 3/3 birth inside a cycle) and it is the stopping criterion of the p2life paper.

>>> import numpy as np
>>> blinker = np.zeros((5, 5), dtype=np.int8); blinker[2, 1:4] = 1
>>> result = run_until_stable(blinker, "life", max_generations=100)
>>> result.stopped, result.period, result.generation, result.populations
('periodic', 2, 2, (3, 0))

With the default kernel the grid stays packed in bit planes for the whole run and each
configuration is remembered by a 128-bit digest of its words
(:func:`lifearena.life.kernels.bitplanes.planes_digest`); :func:`run_until_stable_many` runs
many independent grids (a density sweep) one after the other in the same packed form. """

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

import numpy as np

from lifearena.errors import BadParameterError
from lifearena.life.grid import as_grid, population
from lifearena.life.kernels.bitlogic import plan_for, seed_word
from lifearena.life.kernels.bitplanes import pack, unpack
from lifearena.life.kernels.bitwise import new_seen, run_planes
from lifearena.life.rules import Rule, as_rule
from lifearena.life.step import KERNELS, Kernel, step

Stop = Literal["stable", "periodic", "extinct", "cap"]


@dataclass(frozen=True)
class RunResult:
    """How a run ended.

    ``generation`` is the number of generations computed when it stopped; ``cells`` is the
    configuration then. ``period`` is 1 for a still life (and an empty grid), p for a cycle
    of length p, ``None`` when the cap was reached first; the cycle began at ``cycle_start``.
    """

    cells: np.ndarray
    generation: int
    stopped: Stop
    period: int | None
    cycle_start: int | None
    populations: tuple[int, int]

    @property
    def density(self) -> float:
        """The fraction of live cells at the end."""
        return sum(self.populations) / self.cells.size


def digest(cells: np.ndarray) -> bytes:
    """A 16-byte digest of a configuration (shape included).

    >>> digest(np.zeros((300, 2), dtype=np.int8)) != digest(np.zeros((2, 300), dtype=np.int8))
    True
    """
    shape = np.array(cells.shape[:4], dtype="<u4").tobytes()
    return hashlib.blake2b(cells.tobytes(), digest_size=16, person=shape).digest()


def run_until_stable(
    cells: np.ndarray,
    rule: Rule | str,
    *,
    torus: bool = False,
    seed: int = 0,
    max_generations: int = 100_000,
    kernel: Kernel = "auto",
    progress: Callable[[int], None] | None = None,
) -> RunResult:
    """Step ``cells`` until a configuration repeats or ``max_generations`` steps are done.

    ``progress``, if given, is called with the generation number after every step.
    """
    grid = as_grid(cells, allow_batch=False)
    rule = as_rule(rule)
    if max_generations < 0:
        raise BadParameterError(f"max_generations {max_generations} is negative; expected >= 0")
    if kernel not in KERNELS:
        raise BadParameterError(f"unknown kernel {kernel!r}; expected one of {', '.join(KERNELS)}")
    if kernel in ("auto", "bitwise"):
        return _run_packed(grid, rule, torus=torus, seed=seed, max_generations=max_generations,
                           progress=progress)
    seen: dict[bytes, int] = {digest(grid): 0}
    generation = 0
    while generation < max_generations:
        grid = step(grid, rule, torus=torus, seed=seed, generation=generation, kernel=kernel)
        generation += 1
        if progress is not None:
            progress(generation)
        key = digest(grid)
        first = seen.get(key)
        if first is not None:
            return _result(grid, generation, first)
        seen[key] = generation
    return _result(grid, generation, None)


def _result(grid: np.ndarray, generation: int, first: int | None) -> RunResult:
    pops = population(grid)
    if first is None:
        return RunResult(grid, generation, "cap", None, None, pops)
    period = generation - first
    if sum(pops) == 0:
        stopped: Stop = "extinct"
    else:
        stopped = "stable" if period == 1 else "periodic"
    return RunResult(grid, generation, stopped, period, first, pops)


PROGRESS_CHUNK = 256
"""Generations run in compiled code between two rounds of progress calls."""


def _run_packed(grid: np.ndarray, rule: Rule, *, torus: bool, seed: int, max_generations: int,
                progress: Callable[[int], None] | None) -> RunResult:
    plan = plan_for(rule)
    height, width = grid.shape
    a, b = pack(grid)
    seen = new_seen()
    generation = 0
    first = -1
    chunk = max_generations if progress is None else PROGRESS_CHUNK
    while generation < max_generations and first < 0:
        stop = min(max_generations, generation + chunk)
        a, b, reached, first = run_planes(plan.family, plan.flags, plan.terms, a, b, height,
                                          width, bool(torus), seed_word(seed), generation, stop,
                                          seen)
        if progress is not None:
            for done in range(generation + 1, reached + 1):
                progress(done)
        generation = reached
    return _result(unpack(a, b, height, width), generation, first if first >= 0 else None)


def run_until_stable_many(
    boards: np.ndarray,
    rule: Rule | str,
    *,
    torus: bool = False,
    seed: int | np.ndarray = 0,
    max_generations: int = 100_000,
    kernel: Kernel = "auto",
) -> list[RunResult]:
    """:func:`run_until_stable` for each grid of a batch ``(n, h, w)``, one result each.

    ``seed`` is one seed for all grids or one per grid (it only matters for coin rules).

    >>> boards = np.zeros((2, 5, 5), dtype=np.int8); boards[0, 2, 1:4] = 1
    >>> [r.stopped for r in run_until_stable_many(boards, "life", max_generations=10)]
    ['periodic', 'extinct']
    """
    batch = as_grid(boards)
    if batch.ndim != 3:
        raise BadParameterError(f"boards have shape {batch.shape}; expected (n, height, width)")
    if np.ndim(seed) and np.shape(seed) != batch.shape[:1]:
        raise BadParameterError(
            f"{np.shape(seed)[0]} seeds for {batch.shape[0]} grids; expected one seed per grid"
        )
    rule = as_rule(rule)
    seeds = np.broadcast_to(np.asarray(seed, dtype=object), batch.shape[:1])
    return [
        run_until_stable(board, rule, torus=torus, seed=int(s), max_generations=max_generations,
                         kernel=kernel)
        for board, s in zip(batch, seeds, strict=True)
    ]
