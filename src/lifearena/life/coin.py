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

**The plane coin.** On the unbounded plane (:mod:`lifearena.life.plane`) a cell has no
index in a grid, so its coin is a function of ``(seed, generation, x, y)`` in absolute
coordinates (Golly's: ``x`` to the right, ``y`` downwards, both any integer, taken modulo
2**64 as two's complement)::

    z = mix(seed ^ (generation * 0x9E3779B97F4A7C15))
    z = mix(z ^ (y * 0xC2B2AE3D27D4EB4F))
    z = mix(z ^ (x * 0xD1B54A32D192ED03))
    colour = 1 + (z >> 63)

that is, the grid coin with ``index = x`` after one more round mixing in the row ``y``
(:func:`plane_coin_colour`, :func:`plane_coin_colours`). Where a pattern sits on the plane
and how the plane stores it never changes a coin; bounded and torus grids keep the grid
coin above, so every game record replays as before.

>>> coin_colour(0, 0, 0), coin_colour(0, 0, 1), coin_colour(7, 3, 12)
(1, 2, 2)
>>> [int(c) for c in coin_colours(7, 3, np.array([12, 13]))]
[2, 2]
>>> plane_coin_colour(0, 0, 0, 0), plane_coin_colour(7, 3, -12, 5)
(1, 2)
>>> [int(c) for c in plane_coin_colours(7, 3, np.arange(-12, -6), 5)]
[2, 1, 2, 2, 1, 2]
"""

from __future__ import annotations

import numpy as np

MASK64 = (1 << 64) - 1
GENERATION_MULTIPLIER = 0x9E3779B97F4A7C15
INDEX_MULTIPLIER = 0xD1B54A32D192ED03
MIX_1 = 0xBF58476D1CE4E5B9
MIX_2 = 0x94D049BB133111EB
ROW_MULTIPLIER = 0xC2B2AE3D27D4EB4F
"""Multiplier of the row ``y`` in the plane coin (xxHash's second 64-bit prime: odd, so
multiplying by it is a bijection of the 64-bit words)."""


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


def plane_coin_colour(seed: int, generation: int, x: int, y: int) -> int:
    """The colour (1 or 2) of a coin birth at cell ``(x, y)`` of the unbounded plane in
    ``generation`` (the plane coin of the module docstring)."""
    z = _mix((seed & MASK64) ^ ((generation * GENERATION_MULTIPLIER) & MASK64))
    z = _mix(z ^ ((y * ROW_MULTIPLIER) & MASK64))
    z = _mix(z ^ ((x * INDEX_MULTIPLIER) & MASK64))
    return 1 + (z >> 63)


def plane_coin_colours(seed: int, generation: int, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """:func:`plane_coin_colour` for arrays of columns ``xs`` and rows ``ys`` (broadcast
    together), as an int8 array of 1s and 2s."""
    start = (seed & MASK64) ^ ((generation * GENERATION_MULTIPLIER) & MASK64)
    xs, ys = np.broadcast_arrays(np.asarray(xs, dtype=np.int64), np.asarray(ys, dtype=np.int64))
    with np.errstate(over="ignore"):
        z = _mix_array(np.full(xs.shape, start, dtype=np.uint64))
        z = _mix_array(z ^ (ys.astype(np.uint64) * np.uint64(ROW_MULTIPLIER)))
        z = _mix_array(z ^ (xs.astype(np.uint64) * np.uint64(INDEX_MULTIPLIER)))
    return (1 + (z >> np.uint64(63))).astype(np.int8)
