"""The bit-parallel kernel for one grid: 64 cells per ``uint64`` word, compiled with numba.

A step reads the padded bit planes of :mod:`lifearena.life.bitplanes` and writes new ones.
For each word it builds the west and east neighbour words of the rows above, at and below
it by shifting with a carry from the adjacent word, adds them with bitsliced full adders
(:mod:`lifearena.life.bitlogic`) and applies the rule's formula, one fused loop per row so
LLVM can vectorise it. Coin births are rare: the coin hash runs only for the set bits of the
coin word, with the cell index ``y * width + x`` of :mod:`lifearena.life.coin`, so results
are bit-exact with the reference.

:func:`evolve_planes` and :func:`run_planes` keep the planes packed between generations
(pack once, unpack once); the run remembers each configuration by a 128-bit digest of the
words.

>>> import numpy as np
>>> from lifearena.life.rules import Rule
>>> glider = np.zeros((6, 70), dtype=np.int8); glider[0, 1] = glider[1, 2] = 1
>>> glider[2, 0:3] = 1
>>> after = bitwise_evolve(glider, Rule.named("life"), 4, torus=True)
>>> np.argwhere(after == 1).tolist()
[[1, 2], [2, 3], [3, 1], [3, 2], [3, 3]]
"""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.typed import Dict

from lifearena.life.bitlogic import (
    GENERIC,
    IMMIGRATION,
    LIFE,
    LIFELIKE,
    P2LIFE,
    S1,
    S63,
    ZERO,
    Plan,
    coin_split,
    coin_start,
    eval_immigration,
    eval_life,
    eval_lifelike,
    eval_p2life,
    eval_terms,
    hsum3,
    plan_for,
    seed_word,
    vsum,
    vsum3,
)
from lifearena.life.bitplanes import (
    fill_ghosts,
    pack,
    plane_population,
    planes_digest,
    tail_mask,
    unpack,
)
from lifearena.life.rules import Rule

_KEY = types.UniTuple(types.uint64, 2)


@njit(inline="always")
def _west(p: np.uint64, c: np.uint64) -> np.uint64:
    return (c << S1) | (p >> S63)


@njit(inline="always")
def _east(c: np.uint64, n: np.uint64) -> np.uint64:
    return (c >> S1) | (n << S63)


@njit(inline="always")
def _count(r0: np.ndarray, r1: np.ndarray, r2: np.ndarray,
           x: int) -> tuple[np.uint64, np.uint64, np.uint64, np.uint64]:
    """The 4-bit neighbour count of word ``x`` of row ``r1`` (rows ``r0``/``r2`` around)."""
    c = r0[x]
    st, kt = hsum3(_west(r0[x - 1], c), c, _east(c, r0[x + 1]))
    c = r1[x]
    w = _west(r1[x - 1], c)
    e = _east(c, r1[x + 1])
    c = r2[x]
    sb, kb = hsum3(_west(r2[x - 1], c), c, _east(c, r2[x + 1]))
    return vsum(st, kt, w ^ e, w & e, sb, kb)


@njit(cache=True)
def _grid_life(a: np.ndarray, b: np.ndarray, oa: np.ndarray, ob: np.ndarray, height: int,
               nw: int, tail: np.uint64) -> None:
    for y in range(1, height + 1):
        a0, a1, a2 = a[y - 1], a[y], a[y + 1]
        b0, b1, b2 = b[y - 1], b[y], b[y + 1]
        ra, rb = oa[y], ob[y]
        for x in range(1, nw + 1):
            c = a0[x] | b0[x]
            st, kt = hsum3(_west(a0[x - 1] | b0[x - 1], c), c, _east(c, a0[x + 1] | b0[x + 1]))
            c = a1[x] | b1[x]
            w = _west(a1[x - 1] | b1[x - 1], c)
            e = _east(c, a1[x + 1] | b1[x + 1])
            c = a2[x] | b2[x]
            sb, kb = hsum3(_west(a2[x - 1] | b2[x - 1], c), c, _east(c, a2[x + 1] | b2[x + 1]))
            t0, t1, t2 = vsum3(st, kt, w ^ e, w & e, sb, kb)
            na, nb = eval_life(a1[x], b1[x], t0, t1, t2)
            ra[x] = na
            rb[x] = nb
        ra[nw] &= tail
        rb[nw] &= tail


@njit(cache=True)
def _grid_lifelike(a: np.ndarray, b: np.ndarray, oa: np.ndarray, ob: np.ndarray, height: int,
                   nw: int, tail: np.uint64, flags: np.ndarray) -> None:
    bm = (flags[0], flags[1], flags[2], flags[3], flags[4], flags[5], flags[6], flags[7],
          flags[8])
    sm = (flags[9], flags[10], flags[11], flags[12], flags[13], flags[14], flags[15],
          flags[16], flags[17])
    for y in range(1, height + 1):
        a0, a1, a2 = a[y - 1], a[y], a[y + 1]
        b0, b1, b2 = b[y - 1], b[y], b[y + 1]
        ra, rb = oa[y], ob[y]
        for x in range(1, nw + 1):
            c = a0[x] | b0[x]
            st, kt = hsum3(_west(a0[x - 1] | b0[x - 1], c), c, _east(c, a0[x + 1] | b0[x + 1]))
            c = a1[x] | b1[x]
            w = _west(a1[x - 1] | b1[x - 1], c)
            e = _east(c, a1[x + 1] | b1[x + 1])
            c = a2[x] | b2[x]
            sb, kb = hsum3(_west(a2[x - 1] | b2[x - 1], c), c, _east(c, a2[x + 1] | b2[x + 1]))
            t0, t1, t2, t3 = vsum(st, kt, w ^ e, w & e, sb, kb)
            na, nb = eval_lifelike(a1[x], b1[x], t0, t1, t2, t3, bm, sm)
            ra[x] = na
            rb[x] = nb
        ra[nw] &= tail
        rb[nw] &= tail


@njit(cache=True)
def _grid_immigration(a: np.ndarray, b: np.ndarray, oa: np.ndarray, ob: np.ndarray,
                      height: int, nw: int, tail: np.uint64) -> None:
    for y in range(1, height + 1):
        a0, a1, a2 = a[y - 1], a[y], a[y + 1]
        b0, b1, b2 = b[y - 1], b[y], b[y + 1]
        ra, rb = oa[y], ob[y]
        for x in range(1, nw + 1):
            # Colour 1 alone: only the twos bit of its count is needed.
            c = a0[x]
            sta, kta = hsum3(_west(a0[x - 1], c), c, _east(c, a0[x + 1]))
            c = a1[x]
            wa = _west(a1[x - 1], c)
            ea = _east(c, a1[x + 1])
            c = a2[x]
            sba, kba = hsum3(_west(a2[x - 1], c), c, _east(c, a2[x + 1]))
            xa = sta ^ (wa ^ ea)
            carry = (sta & (wa ^ ea)) | (sba & xa)
            a_twos = kta ^ (wa & ea) ^ kba ^ carry
            # Both colours together for the total.
            c = a0[x] | b0[x]
            st, kt = hsum3(_west(a0[x - 1] | b0[x - 1], c), c, _east(c, a0[x + 1] | b0[x + 1]))
            c = a1[x] | b1[x]
            w = _west(a1[x - 1] | b1[x - 1], c)
            e = _east(c, a1[x + 1] | b1[x + 1])
            c = a2[x] | b2[x]
            sb, kb = hsum3(_west(a2[x - 1] | b2[x - 1], c), c, _east(c, a2[x + 1] | b2[x + 1]))
            t0, t1, t2 = vsum3(st, kt, w ^ e, w & e, sb, kb)
            na, nb = eval_immigration(a1[x], b1[x], t0, t1, t2, a_twos)
            ra[x] = na
            rb[x] = nb
        ra[nw] &= tail
        rb[nw] &= tail


@njit(cache=True)
def _grid_p2life(a: np.ndarray, b: np.ndarray, oa: np.ndarray, ob: np.ndarray, height: int,
                 width: int, nw: int, tail: np.uint64, flags: np.ndarray,
                 start: np.uint64) -> None:
    f_coin, f_v1, f_c2, f_loose, f_unb = flags[0], flags[1], flags[2], flags[3], flags[4]
    coins = np.zeros(nw + 1, dtype=np.uint64)
    for y in range(1, height + 1):
        a0, a1, a2 = a[y - 1], a[y], a[y + 1]
        b0, b1, b2 = b[y - 1], b[y], b[y + 1]
        ra, rb = oa[y], ob[y]
        for x in range(1, nw + 1):
            w0, w1, w2, w3 = _count(a0, a1, a2, x)
            v0, v1, v2, v3 = _count(b0, b1, b2, x)
            na, nb, nc = eval_p2life(a1[x], b1[x], w0, w1, w2, w3, v0, v1, v2, v3,
                                     f_coin, f_v1, f_c2, f_loose, f_unb)
            ra[x] = na
            rb[x] = nb
            coins[x] = nc
        ra[nw] &= tail
        rb[nw] &= tail
        coins[nw] &= tail
        base = (y - 1) * width
        for x in range(1, nw + 1):
            if coins[x]:
                to_a, to_b = coin_split(coins[x], start, base + (x - 1) * 64, 1)
                ra[x] |= to_a
                rb[x] |= to_b


@njit(cache=True)
def _grid_generic(a: np.ndarray, b: np.ndarray, oa: np.ndarray, ob: np.ndarray, height: int,
                  width: int, nw: int, tail: np.uint64, terms: np.ndarray,
                  start: np.uint64) -> None:
    c1 = np.empty((4, nw), dtype=np.uint64)
    c2 = np.empty((4, nw), dtype=np.uint64)
    out = np.empty((3, nw), dtype=np.uint64)
    eq1 = np.empty((9, nw), dtype=np.uint64)
    eq2 = np.empty((9, nw), dtype=np.uint64)
    tu = np.empty(nw, dtype=np.uint64)
    tv = np.empty(nw, dtype=np.uint64)
    for y in range(1, height + 1):
        a0, a1, a2 = a[y - 1], a[y], a[y + 1]
        b0, b1, b2 = b[y - 1], b[y], b[y + 1]
        for x in range(1, nw + 1):
            t0, t1, t2, t3 = _count(a0, a1, a2, x)
            c1[0, x - 1] = t0
            c1[1, x - 1] = t1
            c1[2, x - 1] = t2
            c1[3, x - 1] = t3
            t0, t1, t2, t3 = _count(b0, b1, b2, x)
            c2[0, x - 1] = t0
            c2[1, x - 1] = t1
            c2[2, x - 1] = t2
            c2[3, x - 1] = t3
        eval_terms(c1, c2, a1[1:nw + 1], b1[1:nw + 1], terms, out, eq1, eq2, tu, tv)
        out[0, nw - 1] &= tail
        out[1, nw - 1] &= tail
        out[2, nw - 1] &= tail
        ra, rb = oa[y], ob[y]
        base = (y - 1) * width
        for x in range(1, nw + 1):
            na, nb, nc = out[0, x - 1], out[1, x - 1], out[2, x - 1]
            if nc:
                to_a, to_b = coin_split(nc, start, base + (x - 1) * 64, 1)
                na |= to_a
                nb |= to_b
            ra[x] = na
            rb[x] = nb


@njit(cache=True)
def step_planes(family: int, flags: np.ndarray, terms: np.ndarray, a: np.ndarray,
                b: np.ndarray, oa: np.ndarray, ob: np.ndarray, height: int, width: int,
                torus: bool, seed: np.uint64, generation: int) -> None:
    """One generation from planes ``a, b`` into ``oa, ob`` (the input's ghosts get filled)."""
    nw = (width + 63) // 64
    rest = width % 64
    tail = ~ZERO if rest == 0 else (np.uint64(1) << np.uint64(rest)) - np.uint64(1)
    fill_ghosts(a, b, height, width, torus)
    if family == LIFE:
        _grid_life(a, b, oa, ob, height, nw, tail)
    elif family == IMMIGRATION:
        _grid_immigration(a, b, oa, ob, height, nw, tail)
    elif family == LIFELIKE:
        _grid_lifelike(a, b, oa, ob, height, nw, tail, flags)
    elif family == P2LIFE:
        _grid_p2life(a, b, oa, ob, height, width, nw, tail, flags,
                     coin_start(seed, generation))
    else:
        _grid_generic(a, b, oa, ob, height, width, nw, tail, terms,
                      coin_start(seed, generation))


@njit(cache=True)
def evolve_planes(family: int, flags: np.ndarray, terms: np.ndarray, a: np.ndarray,
                  b: np.ndarray, height: int, width: int, torus: bool, seed: np.uint64,
                  generation: int, generations: int) -> tuple[np.ndarray, np.ndarray]:
    """The planes after ``generations`` steps (the inputs are used as scratch space)."""
    oa = np.zeros_like(a)
    ob = np.zeros_like(b)
    for g in range(generations):
        step_planes(family, flags, terms, a, b, oa, ob, height, width, torus, seed,
                    generation + g)
        a, oa = oa, a
        b, ob = ob, b
    return a, b


def new_seen() -> Dict:
    """An empty digest -> generation table for :func:`run_planes`."""
    return Dict.empty(key_type=_KEY, value_type=types.int64)


@njit(cache=True)
def run_planes(family: int, flags: np.ndarray, terms: np.ndarray, a: np.ndarray,
               b: np.ndarray, height: int, width: int, torus: bool, seed: np.uint64,
               generation: int, stop: int,
               seen: Dict) -> tuple[np.ndarray, np.ndarray, int, int]:
    """Step from ``generation`` until a digest repeats or ``stop`` generations are done.

    ``seen`` maps the digest of each configuration met so far to its generation (an empty
    table gets the start configuration first); returns the planes, the generation reached and the
    generation of the first occurrence of the repeated configuration (-1 if none).
    """
    if len(seen) == 0:
        seen[planes_digest(a, b, height, width)] = generation
    oa = np.zeros_like(a)
    ob = np.zeros_like(b)
    g = generation
    while g < stop:
        step_planes(family, flags, terms, a, b, oa, ob, height, width, torus, seed, g)
        a, oa = oa, a
        b, ob = ob, b
        g += 1
        key = planes_digest(a, b, height, width)
        if key in seen:
            return a, b, g, seen[key]
        seen[key] = g
    return a, b, g, -1


# -- the Python-facing functions --------------------------------------------------------------


def bitwise_evolve(cells: np.ndarray, rule: Rule, generations: int, *, torus: bool = False,
                   seed: int = 0, generation: int = 0, plan: Plan | None = None) -> np.ndarray:
    """``cells`` (one 2-D int8 grid) after ``generations`` steps, packed throughout."""
    plan = plan or plan_for(rule)
    height, width = cells.shape
    a, b = pack(cells)
    a, b = evolve_planes(plan.family, plan.flags, plan.terms, a, b, height, width, bool(torus),
                         seed_word(seed), int(generation), int(generations))
    return unpack(a, b, height, width)


def bitwise_step(cells: np.ndarray, rule: Rule, *, torus: bool = False, seed: int = 0,
                 generation: int = 0, plan: Plan | None = None) -> np.ndarray:
    """One generation of ``rule`` on a 2-D grid with the bit-parallel kernel."""
    return bitwise_evolve(cells, rule, 1, torus=torus, seed=seed, generation=generation,
                          plan=plan)


def planes_population(a: np.ndarray, b: np.ndarray, height: int, width: int) -> tuple[int, int]:
    """Cells of colour 1 and colour 2 held by packed planes."""
    return plane_population(a, height, width), plane_population(b, height, width)


__all__ = [
    "GENERIC",
    "bitwise_evolve",
    "bitwise_step",
    "evolve_planes",
    "new_seen",
    "planes_population",
    "run_planes",
    "step_planes",
    "tail_mask",
]
