"""One or many generations of a rule, on a grid or a batch of grids, with a choice of kernel.

``kernel="auto"`` picks the fastest available kernel, which is ``"bitwise"``: 64 cells per
machine word, numba-compiled (:mod:`lifearena.life.kernels.bitwise` for one grid,
:mod:`lifearena.life.kernels.batch` for a batch); it stays packed across all the generations of one
call. ``"reference"`` (plain Python) and ``"numpy"`` are the slow, simple ones the fast
kernels are tested and measured against.
Every kernel gives the same result for the same ``seed`` and ``generation``, coins included
(see :mod:`lifearena.life.coin`). A :class:`~lifearena.life.lookup_rule.LookupRule` (an
isotropic non-totalistic or Golly ``@TABLE`` rule, also given as its string) runs on the
compiled kernel of :mod:`lifearena.life.kernels.lookup`.

>>> import numpy as np
>>> blinker = np.zeros((5, 5), dtype=np.int8); blinker[2, 1:4] = 1
>>> step(blinker, "life")[1:4, 2].tolist()
[1, 1, 1]
>>> evolve(blinker, "life", 2).tolist() == blinker.tolist()
True
"""

from __future__ import annotations

from typing import Literal

import numpy as np

from lifearena.errors import BadParameterError
from lifearena.life.grid import as_grid
from lifearena.life.kernels.batch import batch_evolve
from lifearena.life.kernels.bitwise import bitwise_evolve
from lifearena.life.kernels.lookup import lookup_evolve, lookup_step_numpy
from lifearena.life.kernels.numpy_step import numpy_step
from lifearena.life.kernels.reference import reference_step
from lifearena.life.lookup_rule import LookupRule, as_any_rule
from lifearena.life.rules import Rule

Kernel = Literal["auto", "reference", "numpy", "bitwise"]
KERNELS = ("auto", "reference", "numpy", "bitwise")


def step(
    cells: np.ndarray,
    rule: Rule | LookupRule | str,
    *,
    torus: bool = False,
    seed: int | np.ndarray = 0,
    generation: int = 0,
    kernel: Kernel = "auto",
) -> np.ndarray:
    """The next generation of ``cells`` (2-D grid or 3-D batch) under ``rule``.

    ``seed`` and ``generation`` feed the coin of rules that have one; for a batch,
    ``seed`` may be an array with one seed per board.
    """
    return evolve(cells, rule, 1, torus=torus, seed=seed, generation=generation, kernel=kernel)


def evolve(
    cells: np.ndarray,
    rule: Rule | LookupRule | str,
    generations: int,
    *,
    torus: bool = False,
    seed: int | np.ndarray = 0,
    generation: int = 0,
    kernel: Kernel = "auto",
) -> np.ndarray:
    """``cells`` after ``generations`` steps; the first step is number ``generation``."""
    grid = as_grid(cells)
    rule = as_any_rule(rule)
    if generations < 0:
        raise BadParameterError(f"generations {generations} is negative; expected >= 0")
    if kernel not in KERNELS:
        raise BadParameterError(f"unknown kernel {kernel!r}; expected one of {', '.join(KERNELS)}")
    if np.ndim(seed) and grid.ndim == 2:
        raise BadParameterError("one grid takes one seed; pass an array of seeds only with a batch")
    if grid.ndim == 3 and np.ndim(seed) and np.shape(seed) != grid.shape[:1]:
        raise BadParameterError(
            f"{np.shape(seed)[0]} seeds for {grid.shape[0]} boards; expected one seed per board"
        )
    if isinstance(rule, LookupRule):
        return _evolve_lookup(grid, rule, generations, torus=torus, kernel=kernel)
    if kernel in ("auto", "bitwise"):
        if grid.ndim == 2:
            return bitwise_evolve(grid, rule, generations, torus=torus, seed=int(seed),
                                  generation=generation)
        return batch_evolve(grid, rule, generations, torus=torus, seed=seed,
                            generation=generation)
    out = grid.copy()
    for offset in range(generations):
        g = generation + offset
        if kernel == "reference":
            if out.ndim == 2:
                out = reference_step(out, rule, torus=torus, seed=int(seed), generation=g)
            else:
                seeds = np.broadcast_to(np.asarray(seed, dtype=object), out.shape[:1])
                out = np.stack([
                    reference_step(board, rule, torus=torus, seed=int(s), generation=g)
                    for board, s in zip(out, seeds, strict=True)
                ])
        else:
            out = numpy_step(out, rule, torus=torus, seed=seed, generation=g)
    return out


def _evolve_lookup(grid: np.ndarray, rule: LookupRule, generations: int, *, torus: bool,
                   kernel: Kernel) -> np.ndarray:
    """A lookup rule: the compiled kernel, or nine shifted copies for ``"reference"`` and
    ``"numpy"`` (the cell-by-cell reference step reads count tables only)."""
    table = rule.transition_table()
    boards = grid if grid.ndim == 3 else grid[None]
    out = []
    for board in boards:
        if kernel in ("auto", "bitwise"):
            out.append(lookup_evolve(board, table, generations, torus=torus))
            continue
        for _ in range(generations):
            board = lookup_step_numpy(board, table, torus=torus)
        out.append(board.copy())
    return np.stack(out) if grid.ndim == 3 else out[0]
