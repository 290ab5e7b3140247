"""SplitMix64, compiled: its finaliser :func:`mix` (the hash under the p2life coin,
:mod:`lifearena.life.coin`, and the grid digests) and the random streams of the games'
compiled kernels and vector environments: one generator per board, a ``uint64`` word of
state in an array, advanced inside the compiled kernels.

SplitMix64 is small (one word of state), fast and passes BigCrush; each environment's word is
set from ``numpy.random.SeedSequence(seed)``, so a seed makes the whole batch reproducible on
any machine. Doubles are the top 53 bits over 2**53, and a uniform choice among ``n`` things
is ``int(u * n)`` as the games' own random agents draw it.

>>> import numpy as np
>>> state = seeded_states(7, 3)
>>> first = [next_double(state, i) for i in range(3)]
>>> again = seeded_states(7, 3)
>>> [next_double(again, i) for i in range(3)] == first, all(0 <= u < 1 for u in first)
(True, True)
"""

from __future__ import annotations

import numpy as np
from numba import njit

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_S30, _S27, _S31, _S11 = np.uint64(30), np.uint64(27), np.uint64(31), np.uint64(11)
_UNIT = 1.0 / 9007199254740992.0  # 2**-53


def seeded_states(seed: int | None, n: int) -> np.ndarray:
    """``n`` generator words from ``seed`` (fresh entropy when ``None``)."""
    return np.random.SeedSequence(seed).generate_state(max(n, 1), np.uint64)[:n].copy()


@njit(inline="always")
def mix(z: np.uint64) -> np.uint64:
    """SplitMix64's finaliser: a bijection of the 64-bit words that scatters every input bit
    over the output (``lifearena.life.coin`` writes it in plain Python)."""
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return z ^ (z >> _S31)


@njit(cache=True)
def next_word(state: np.ndarray, i: int) -> np.uint64:
    """The next 64 random bits of generator ``i`` (advances ``state[i]``)."""
    z = state[i] + _GOLDEN
    state[i] = z
    return mix(z)


@njit(cache=True)
def next_double(state: np.ndarray, i: int) -> float:
    """A double uniform in [0, 1) from generator ``i``."""
    return float(next_word(state, i) >> _S11) * _UNIT


@njit(cache=True)
def below(state: np.ndarray, i: int, n: int) -> int:
    """An integer uniform in ``0 .. n - 1`` from generator ``i`` (``n >= 1``)."""
    return int(next_double(state, i) * n)


@njit(cache=True)
def sample_legal(masks: np.ndarray, state: np.ndarray, out: np.ndarray) -> None:
    """``out[i]``: an action drawn uniformly among the true entries of ``masks[i]`` (0 when
    there are none), from generator ``i``."""
    for i in range(masks.shape[0]):
        row = masks[i]
        count = 0
        for a in range(row.shape[0]):
            count += row[a]
        if count == 0:
            out[i] = 0
            continue
        k = below(state, i, count)
        for a in range(row.shape[0]):
            if row[a]:
                if k == 0:
                    out[i] = a
                    break
                k -= 1
