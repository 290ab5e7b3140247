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
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

import numpy as np

from lifearena.errors import BadParameterError
from lifearena.life.grid import as_grid, population
from lifearena.life.rules import Rule, as_rule
from lifearena.life.step import Kernel, step

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
    """A 16-byte digest of a configuration (shape included)."""
    return hashlib.blake2b(cells.tobytes(), digest_size=16, person=bytes(cells.shape[:8])).digest()


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
            period = generation - first
            pops = population(grid)
            if sum(pops) == 0:
                stopped: Stop = "extinct"
            else:
                stopped = "stable" if period == 1 else "periodic"
            return RunResult(grid, generation, stopped, period, first, pops)
        seen[key] = generation
    return RunResult(grid, generation, "cap", None, None, population(grid))
