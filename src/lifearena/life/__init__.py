"""The two-colour Life engine: rules as data, grids, fast kernels, runs, patterns.

What is where:

* :mod:`~lifearena.life.rules` — rules as data (a table per cell state indexed by the
  neighbours of each colour), named rules, ``B3/S23`` strings and rule files;
  :mod:`~lifearena.life.coin` — the counter-based fair coin of 3-vs-3 births;
  :mod:`~lifearena.life.grid` — grids (int8: 0 empty, 1 and 2 the colours) and soups.
* :mod:`~lifearena.life.step` — :func:`step` and :func:`evolve`, which choose a kernel;
  :mod:`~lifearena.life.run` — :func:`run_until_stable` (cycle detection);
  :mod:`~lifearena.life.growing` — :func:`run_growing`, the plane as a bounded grid that
  grows where the pattern reaches its edge (the CLI's plane is tiles or HashLife now);
  :mod:`~lifearena.life.plane` — :class:`~lifearena.life.plane.TilePlane`, the unbounded
  plane as sparse tiles that grow and shrink with the pattern (:mod:`~lifearena.life.universe`
  is the protocol it implements).
* :mod:`lifearena.life.kernels` — the kernels themselves, one module per family: the
  ``reference`` step (the definition), the ``numpy_step`` baseline, and the numba
  bit-parallel ``bitwise`` (one grid) and ``batch`` (many small boards) kernels with their
  support modules ``bitplanes`` (packing) and ``bitlogic`` (adders, rule plans). Its
  docstring has the table of which kernel serves which call.
* :mod:`~lifearena.life.rule_notations` — one-colour rule strings in Golly's notations
  (S/B, Hensel letters); :mod:`~lifearena.life.lookup_rule` — :class:`LookupRule`, rules
  that are one lookup over a cell and its neighbours, and :func:`as_any_rule`;
  :mod:`~lifearena.life.golly_rules` — Golly ``@RULE``/``@TABLE`` files both ways.
* :mod:`~lifearena.life.patterns` — Golly's pattern files (RLE with :mod:`.topology` and
  ``#CXRLE``, ``.rle.gz``, Life 1.05/1.06 in :mod:`.lif_format`, ``.cells``) and text grids
  in and out, the RLE body compiled in :mod:`.fast_rle`;
  :mod:`~lifearena.life.picture` — PNG and GIF pictures of grids;
  :mod:`~lifearena.life.pattern_library` — the patterns shipped in ``life/library/``.
* Runs through the :class:`~lifearena.life.universe.Universe` protocol:
  :mod:`~lifearena.life.packed` (a grid packed once per run),
  :mod:`~lifearena.life.universes` (:func:`choose_universe`: tiles or HashLife, and why),
  :mod:`~lifearena.life.drive` (one run with its series, frames and stop condition),
  :mod:`~lifearena.life.frames` (animation frames shrunk to fit),
  :mod:`~lifearena.life.series` (population series, CSV and plot),
  :mod:`~lifearena.life.settle` (settled patterns, escaping spaceships set aside).

* :mod:`~lifearena.life.hashlife` — HashLife on the unbounded plane for deterministic rules
  (``docs/hashlife.md``); :mod:`~lifearena.life.macrocell` — Golly's ``.mc`` files.

The names below are resolved on first use, so that importing this package loads no
compiled code.

>>> import numpy as np
>>> from lifearena import life
>>> cells = np.zeros((6, 6), dtype=np.int8); cells[1, 2] = cells[2, 3] = 1; cells[3, 1:4] = 1
>>> life.population(life.step(cells, life.Rule.named("life"), torus=True))
(5, 0)
>>> sorted(life.available_rules())[:3]
['immigration', 'life', 'p2life']
"""

import importlib
import sys
import types
from typing import Any

# Each public name and the module it comes from, imported on first use: ``import
# lifearena.life.rules`` (or ``lifearena --help``) must not load numba, which the kernels
# behind ``step``, ``run_growing`` and ``run_until_stable`` need.
_HOMES = {
    "coin_colour": "coin", "coin_colours": "coin",
    "as_grid": "grid", "density": "grid", "population": "grid", "random_grid": "grid",
    "GrowingRun": "growing", "GrowthLimitError": "growing", "run_growing": "growing",
    "Pattern": "patterns", "load_pattern": "patterns", "read_rle": "patterns",
    "read_text": "patterns", "save_pattern": "patterns", "write_rle": "patterns",
    "write_text": "patterns",
    "COIN": "rules", "Rule": "rules", "as_rule": "rules", "available_rules": "rules",
    "RunResult": "run", "run_until_stable": "run",
    "evolve": "step",
    "LookupRule": "lookup_rule", "as_any_rule": "lookup_rule",
    "Topology": "topology",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{home}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_HOMES])


class _Package(types.ModuleType):
    """The package's class: ``step`` is the function, even once the submodule of the same
    name is loaded (importing a submodule sets the package attribute of its name)."""

    @property
    def step(self) -> Any:
        return importlib.import_module(f"{__name__}.step").step

    @step.setter
    def step(self, value: Any) -> None:
        pass  # the submodule being bound by the import system: the function stays


sys.modules[__name__].__class__ = _Package


__all__ = [
    "COIN",
    "GrowingRun",
    "GrowthLimitError",
    "LookupRule",
    "Pattern",
    "Rule",
    "RunResult",
    "Topology",
    "as_any_rule",
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
