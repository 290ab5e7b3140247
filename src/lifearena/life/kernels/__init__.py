"""The stepping kernels of the Life engine, one module per kernel family.

Callers use :func:`lifearena.life.step`, :func:`~lifearena.life.evolve` and
:func:`~lifearena.life.run_until_stable`, which pick a kernel; this table says which one
serves which call. Every kernel gives the same cells for the same rule, seed and generation
(coins included); the tests hold the fast ones to the simple ones with hypothesis.

=============================  =================================================  ==========
module                         serves                                             role
=============================  =================================================  ==========
:mod:`.reference`              ``step``/``evolve`` with ``kernel="reference"``    the
                               (one cell at a time, plain Python)                 definition
:mod:`.numpy_step`             ``kernel="numpy"``: grids and batches, eight       baseline
                               shifted copies and one table lookup
:mod:`.bitwise`                ``kernel="auto"``/``"bitwise"`` on one grid;       fast
                               ``run_until_stable`` (packed runs with digests)
:mod:`.batch`                  ``kernel="auto"``/``"bitwise"`` on a batch         fast
                               ``(boards, h, w)``: one word per board up to 64
                               cells, else one board at a time through bitwise
:mod:`.tiles`                  :class:`~lifearena.life.plane.TilePlane`, the      fast
                               unbounded plane as sparse 64 x 64 tiles
:mod:`.bitplanes`              packing: a grid as two ``uint64`` planes with      support
                               ghost borders, used by bitwise, batch and runs
:mod:`.bitlogic`               bitsliced adders and *rule plans*: which boolean   support
                               formula (Life, Life-like, Immigration, p2life or
                               generic table) a rule compiles to
=============================  =================================================  ==========

The numba functions are compiled on first use and cached next to these files
(``cache=True``), so later processes load them instead of compiling again.

>>> import numpy as np
>>> from lifearena.life.rules import Rule
>>> from lifearena.life.kernels.reference import reference_step
>>> from lifearena.life.kernels.bitwise import bitwise_step
>>> cells = np.random.default_rng(1).integers(0, 3, (9, 70)).astype(np.int8)
>>> rule = Rule.named("p2life")
>>> np.array_equal(reference_step(cells, rule, torus=True, seed=4),
...                bitwise_step(cells, rule, torus=True, seed=4))
True
"""
