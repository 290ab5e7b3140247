"""Reproducible fair coins for rules with a "coin" entry (p2life's 3-vs-3 births).

The colour of a coin birth is a pure function of ``(seed, generation, index)``, where
``index = y * width + x`` is the cell's position in its (unbatched) grid: a counter-based
hash, so every kernel (reference, numpy, numba, any order of evaluation, any batch layout)
gets the same answer without sharing a random stream.

The hash is the SplitMix64 finaliser applied twice::

    z = mix(seed ^ (generation * 0x9E3779B97F4A7C15))
    z = mix(z ^ (index * 0xD1B54A32D192ED03))
    colour = 1 + (z >> 63)

where ``mix`` is SplitMix64's finaliser (all arithmetic modulo 2**64)::

    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * 0x94D049BB133111EB
    mix(z) = z ^ (z >> 31)

Seeds are taken modulo 2**64 (so negative seeds are allowed).

>>> coin_colour(0, 0, 0), coin_colour(0, 0, 1), coin_colour(7, 3, 12)
(1, 2, 2)
>>> [int(c) for c in coin_colours(7, 3, np.array([12, 13]))]
[2, 2]
"""

from __future__ import annotations

import numpy as np

MASK64 = (1 << 64) - 1
GENERATION_MULTIPLIER = 0x9E3779B97F4A7C15
INDEX_MULTIPLIER = 0xD1B54A32D192ED03
MIX_1 = 0xBF58476D1CE4E5B9
MIX_2 = 0x94D049BB133111EB


def _mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * MIX_1) & MASK64
    z = ((z ^ (z >> 27)) * MIX_2) & MASK64
    return z ^ (z >> 31)


def coin_colour(seed: int, generation: int, index: int) -> int:
    """The colour (1 or 2) of a coin birth at cell ``index`` in ``generation``."""
    z = _mix((seed & MASK64) ^ ((generation * GENERATION_MULTIPLIER) & MASK64))
    z = _mix(z ^ ((index * INDEX_MULTIPLIER) & MASK64))
    return 1 + (z >> 63)


def _mix_array(z: np.ndarray) -> np.ndarray:
    z = (z ^ (z >> np.uint64(30))) * np.uint64(MIX_1)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(MIX_2)
    return z ^ (z >> np.uint64(31))


def coin_colours(seed: int, generation: int, indices: np.ndarray) -> np.ndarray:
    """:func:`coin_colour` for an array of cell indices, as an int8 array of 1s and 2s."""
    start = (seed & MASK64) ^ ((generation * GENERATION_MULTIPLIER) & MASK64)
    with np.errstate(over="ignore"):
        z = _mix_array(np.full(np.shape(indices), start, dtype=np.uint64))
        z = _mix_array(z ^ (np.asarray(indices, dtype=np.uint64) * np.uint64(INDEX_MULTIPLIER)))
    return (1 + (z >> np.uint64(63))).astype(np.int8)
