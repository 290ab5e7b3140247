"""The grid coin of :mod:`lifearena.life.coin`, compiled: the colour of a 3-vs-3 birth in
p2life for the compiled kernels (the games' fast paths and vector environments), one
definition for all of them.

:mod:`lifearena.life.coin` defines the coin in plain Python (the reference step and the
protocol states toss it there); this module says the same hash in numba's subset, on
SplitMix64's finaliser :func:`lifearena.life.kernels.splitmix.mix`, and the tests check the
two agree.

>>> import numpy as np
>>> from lifearena.life.coin import coin_colour as python_coin
>>> coin_colour(np.uint64(7), 3, 12) == python_coin(7, 3, 12)
True
"""

from __future__ import annotations

import numpy as np
from numba import njit

from lifearena.life.coin import GENERATION_MULTIPLIER, INDEX_MULTIPLIER
from lifearena.life.kernels.splitmix import mix

_GENERATION_MUL = np.uint64(GENERATION_MULTIPLIER)
_INDEX_MUL = np.uint64(INDEX_MULTIPLIER)
_S63 = np.uint64(63)


@njit(cache=True)
def coin_colour(seed: np.uint64, generation: int, index: int) -> int:
    """The colour (1 or 2) of a coin birth at cell ``index`` in ``generation`` of a game
    whose seed is ``seed`` (a ``uint64``: a negative seed as its two's complement, as
    :func:`lifearena.life.coin.coin_colour` takes it modulo 2**64)."""
    z = mix(seed ^ (np.uint64(generation) * _GENERATION_MUL))
    z = mix(z ^ (np.uint64(index) * _INDEX_MUL))
    return 1 + int(z >> _S63)
