"""The two-colour Life engine: rules as data, grids, fast kernels, runs, patterns.

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
    "run_until_stable",
    "save_pattern",
    "step",
    "write_rle",
    "write_text",
]
