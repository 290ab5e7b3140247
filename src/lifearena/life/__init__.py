"""The two-colour Life engine: rules as data, grids, fast kernels, runs, patterns.

What is where:

* :mod:`~lifearena.life.rules` — rules as data (a table per cell state indexed by the
  neighbours of each colour), named rules, ``B3/S23`` strings and rule files;
  :mod:`~lifearena.life.coin` — the counter-based fair coin of 3-vs-3 births;
  :mod:`~lifearena.life.grid` — grids (int8: 0 empty, 1 and 2 the colours) and soups.
* :mod:`~lifearena.life.step` — :func:`step` and :func:`evolve`, which choose a kernel;
  :mod:`~lifearena.life.run` — :func:`run_until_stable` (cycle detection);
  :mod:`~lifearena.life.growing` — :func:`run_growing`, a pattern on the unbounded plane
  (a bounded grid that grows where the pattern reaches its edge).
  :mod:`~lifearena.life.plane` — :class:`~lifearena.life.plane.TilePlane`, the unbounded
  plane as sparse tiles that grow and shrink with the pattern (:mod:`~lifearena.life.universe`
  is the protocol it implements).
* :mod:`lifearena.life.kernels` — the kernels themselves, one module per family: the
  ``reference`` step (the definition), the ``numpy_step`` baseline, and the numba
  bit-parallel ``bitwise`` (one grid) and ``batch`` (many small boards) kernels with their
  support modules ``bitplanes`` (packing) and ``bitlogic`` (adders, rule plans). Its
  docstring has the table of which kernel serves which call.
* :mod:`~lifearena.life.patterns` — Golly RLE and text grids in and out;
  :mod:`~lifearena.life.picture` — PNG and GIF pictures of grids.

>>> import numpy as np
>>> from lifearena import life
>>> cells = np.zeros((6, 6), dtype=np.int8); cells[1, 2] = cells[2, 3] = 1; cells[3, 1:4] = 1
>>> life.population(life.step(cells, life.Rule.named("life"), torus=True))
(5, 0)
>>> sorted(life.available_rules())[:3]
['immigration', 'life', 'p2life']
"""

from lifearena.life.coin import coin_colour, coin_colours
from lifearena.life.grid import as_grid, density, population, random_grid
from lifearena.life.growing import GrowingRun, GrowthLimitError, run_growing
from lifearena.life.patterns import (
    Pattern,
    load_pattern,
    read_rle,
    read_text,
    save_pattern,
    write_rle,
    write_text,
)
from lifearena.life.rules import COIN, Rule, as_rule, available_rules
from lifearena.life.run import RunResult, run_until_stable
from lifearena.life.step import evolve, step

__all__ = [
    "COIN",
    "GrowingRun",
    "GrowthLimitError",
    "Pattern",
    "Rule",
    "RunResult",
    "as_grid",
    "as_rule",
    "available_rules",
    "coin_colour",
    "coin_colours",
    "density",
    "evolve",
    "load_pattern",
    "population",
    "random_grid",
    "read_rle",
    "read_text",
    "run_growing",
    "run_until_stable",
    "save_pattern",
    "step",
    "write_rle",
    "write_text",
]
