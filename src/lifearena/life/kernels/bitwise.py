"""The bit-parallel kernel for one grid: 64 cells per ``uint64`` word, compiled with numba.

A step reads the padded bit planes of :mod:`lifearena.life.kernels.bitplanes` and writes new ones.
For each word it builds the west and east neighbour words of the rows above, at and below
it by shifting with a carry from the adjacent word, adds them with bitsliced full adders
(:mod:`lifearena.life.kernels.bitlogic`) and applies the rule's formula, one fused loop per row so
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

from lifearena.life.kernels.bitlogic import (
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
from lifearena.life.kernels.bitplanes import (
    edge_live,
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


@njit(inline="always")
def _count3(fu: np.ndarray, fm: np.ndarray, fd: np.ndarray,
            i: int) -> tuple[np.uint64, np.uint64, np.uint64, np.uint64]:
    return _count(fu, fm, fd, i + 1)


@njit(inline="always")
def _total3(au: np.ndarray, am: np.ndarray, ad: np.ndarray, bu: np.ndarray, bm: np.ndarray,
            bd: np.ndarray, i: int) -> tuple[np.uint64, np.uint64, np.uint64]:
    """Count of live neighbours of either colour, modulo 8 (word ``i + 1`` of the views)."""
    c = au[i + 1] | bu[i + 1]
    st, kt = hsum3(_west(au[i] | bu[i], c), c, _east(c, au[i + 2] | bu[i + 2]))
    c = am[i + 1] | bm[i + 1]
    w = _west(am[i] | bm[i], c)
    e = _east(c, am[i + 2] | bm[i + 2])
    c = ad[i + 1] | bd[i + 1]
    sb, kb = hsum3(_west(ad[i] | bd[i], c), c, _east(c, ad[i + 2] | bd[i + 2]))
    return vsum3(st, kt, w ^ e, w & e, sb, kb)


@njit(inline="always")
def _total4(au: np.ndarray, am: np.ndarray, ad: np.ndarray, bu: np.ndarray, bm: np.ndarray,
            bd: np.ndarray, i: int) -> tuple[np.uint64, np.uint64, np.uint64, np.uint64]:
    c = au[i + 1] | bu[i + 1]
    st, kt = hsum3(_west(au[i] | bu[i], c), c, _east(c, au[i + 2] | bu[i + 2]))
    c = am[i + 1] | bm[i + 1]
    w = _west(am[i] | bm[i], c)
    e = _east(c, am[i + 2] | bm[i + 2])
    c = ad[i + 1] | bd[i + 1]
    sb, kb = hsum3(_west(ad[i] | bd[i], c), c, _east(c, ad[i + 2] | bd[i + 2]))
    return vsum(st, kt, w ^ e, w & e, sb, kb)


@njit(inline="always")
def _twos3(fu: np.ndarray, fm: np.ndarray, fd: np.ndarray, i: int) -> np.uint64:
    """Only the twos bit of the neighbour count."""
    c = fu[i + 1]
    st, kt = hsum3(_west(fu[i], c), c, _east(c, fu[i + 2]))
    c = fm[i + 1]
    w = _west(fm[i], c)
    e = _east(c, fm[i + 2])
    c = fd[i + 1]
    sb, kb = hsum3(_west(fd[i], c), c, _east(c, fd[i + 2]))
    sm = w ^ e
    x = st ^ sm
    return kt ^ (w & e) ^ kb ^ ((st & sm) | (sb & x))


# The fast kernels run one flat loop over every word of rows 1..height, ghost columns
# included, so short rows (256 cells are 4 words) still fill the vector lanes; the words
# computed for ghost columns are junk and _finish_rows clears them with the row tails.


@njit(inline="always")
def _views(p: np.ndarray, height: int, nw: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Flat views of ``p`` starting one word before the first word of rows 0, 1 and 2.

    Indexing them with ``i``, ``i + 1``, ``i + 2`` (never negative, so numba needs no
    wrap-around check and LLVM sees consecutive loads) reads the west, centre and east
    words above, at and below word ``i`` of the flat span of rows 1..height.
    """
    stride = nw + 2
    f = p.reshape(-1)
    return f[0:], f[stride:], f[2 * stride:]


@njit(inline="always")
def _span(height: int, nw: int) -> tuple[int, int]:
    """Offset (row 1, word 1) and length of the flat span of rows 1..height."""
    stride = nw + 2
    return stride + 1, height * stride - 2


@njit(cache=True)
def _finish_rows(oa: np.ndarray, ob: np.ndarray, height: int, nw: int, tail: np.uint64) -> None:
    for y in range(1, height + 1):
        oa[y, 0] = ZERO
        ob[y, 0] = ZERO
        oa[y, nw + 1] = ZERO
        ob[y, nw + 1] = ZERO
        oa[y, nw] &= tail
        ob[y, nw] &= tail


@njit(cache=True)
def _grid_life(a: np.ndarray, b: np.ndarray, oa: np.ndarray, ob: np.ndarray, height: int,
               nw: int, tail: np.uint64) -> None:
    au, am, ad = _views(a, height, nw)
    bu, bm, bd = _views(b, height, nw)
    lo, n = _span(height, nw)
    ga, gb = oa.reshape(-1)[lo:], ob.reshape(-1)[lo:]
    for i in range(n):
        t0, t1, t2 = _total3(au, am, ad, bu, bm, bd, i)
        ga[i], gb[i] = eval_life(am[i + 1], bm[i + 1], t0, t1, t2)
    _finish_rows(oa, ob, height, nw, tail)


@njit(cache=True)
def _grid_lifelike(a: np.ndarray, b: np.ndarray, oa: np.ndarray, ob: np.ndarray, height: int,
                   nw: int, tail: np.uint64, flags: np.ndarray) -> None:
    bm = (flags[0], flags[1], flags[2], flags[3], flags[4], flags[5], flags[6], flags[7],
          flags[8])
    sm = (flags[9], flags[10], flags[11], flags[12], flags[13], flags[14], flags[15],
          flags[16], flags[17])
    au, am, ad = _views(a, height, nw)
    bu, bmid, bd = _views(b, height, nw)
    lo, n = _span(height, nw)
    ga, gb = oa.reshape(-1)[lo:], ob.reshape(-1)[lo:]
    for i in range(n):
        t0, t1, t2, t3 = _total4(au, am, ad, bu, bmid, bd, i)
        ga[i], gb[i] = eval_lifelike(am[i + 1], bmid[i + 1], t0, t1, t2, t3, bm, sm)
    _finish_rows(oa, ob, height, nw, tail)


@njit(cache=True)
def _grid_immigration(a: np.ndarray, b: np.ndarray, oa: np.ndarray, ob: np.ndarray,
                      height: int, nw: int, tail: np.uint64) -> None:
    au, am, ad = _views(a, height, nw)
    bu, bm, bd = _views(b, height, nw)
    lo, n = _span(height, nw)
    ga, gb = oa.reshape(-1)[lo:], ob.reshape(-1)[lo:]
    for i in range(n):
        # Of colour 1 alone only the twos bit of the count is needed: the majority of 3.
        a_twos = _twos3(au, am, ad, i)
        t0, t1, t2 = _total3(au, am, ad, bu, bm, bd, i)
        ga[i], gb[i] = eval_immigration(am[i + 1], bm[i + 1], t0, t1, t2, a_twos)
    _finish_rows(oa, ob, height, nw, tail)


@njit(cache=True)
def _grid_p2life(a: np.ndarray, b: np.ndarray, oa: np.ndarray, ob: np.ndarray, height: int,
                 width: int, nw: int, tail: np.uint64, flags: np.ndarray, start: np.uint64,
                 coins: np.ndarray) -> None:
    f_coin, f_v1, f_c2, f_loose, f_unb = flags[0], flags[1], flags[2], flags[3], flags[4]
    au, am, ad = _views(a, height, nw)
    bu, bm, bd = _views(b, height, nw)
    lo, n = _span(height, nw)
    ga, gb, gc = oa.reshape(-1)[lo:], ob.reshape(-1)[lo:], coins[lo:]
    for i in range(n):
        w0, w1, w2, w3 = _count3(au, am, ad, i)
        v0, v1, v2, v3 = _count3(bu, bm, bd, i)
        ga[i], gb[i], gc[i] = eval_p2life(am[i + 1], bm[i + 1], w0, w1, w2, w3, v0, v1, v2, v3,
                                          f_coin, f_v1, f_c2, f_loose, f_unb)
    _finish_rows(oa, ob, height, nw, tail)
    stride = nw + 2
    if f_coin:
        for y in range(1, height + 1):
            row = y * stride
            coins[row + nw] &= tail
            base = (y - 1) * width
            for x in range(1, nw + 1):
                if coins[row + x]:
                    to_a, to_b = coin_split(coins[row + x], start, base + (x - 1) * 64, 1)
                    oa[y, x] |= to_a
                    ob[y, x] |= to_b


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
                torus: bool, seed: np.uint64, generation: int, scratch: np.ndarray) -> None:
    """One generation from planes ``a, b`` into ``oa, ob`` (the input's ghosts get filled).

    ``scratch`` is a flat ``uint64`` array of ``a.size`` words (coin words of p2life).
    """
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
                     coin_start(seed, generation), scratch)
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
    scratch = np.empty(a.size, dtype=np.uint64)
    for g in range(generations):
        step_planes(family, flags, terms, a, b, oa, ob, height, width, torus, seed,
                    generation + g, scratch)
        a, oa = oa, a
        b, ob = ob, b
    return a, b


@njit(cache=True)
def new_seen() -> Dict:
    """An empty digest -> generation table for :func:`run_planes` and :func:`run_inside`.

    Made in compiled code so that it comes from numba's cache: ``Dict.empty`` called from
    Python compiles numba's own dictionary constructor afresh in every process."""
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
    a, b, g, first, _ = _run(family, flags, terms, a, b, height, width, torus, seed,
                             generation, stop, seen, True, False)
    return a, b, g, first


@njit(cache=True)
def run_inside(family: int, flags: np.ndarray, terms: np.ndarray, a: np.ndarray,
               b: np.ndarray, height: int, width: int, seed: np.uint64, generation: int,
               stop: int, seen: Dict,
               track: bool) -> tuple[np.ndarray, np.ndarray, int, int, bool]:
    """Step a bounded grid from ``generation`` towards ``stop`` for as long as each step is
    the unbounded plane's: stop *before* a step when a live cell lies on the outer ring
    (:func:`~lifearena.life.kernels.bitplanes.edge_live`), so that the caller can move the
    pattern to a larger grid first. With ``track``, also stop at the first repeated
    configuration, as :func:`run_planes` does (``seen`` as there).

    Returns the planes, the generation reached, the generation of the first occurrence of
    the repeated configuration (-1 if none) and whether the run stopped at the edge.
    """
    return _run(family, flags, terms, a, b, height, width, False, seed, generation, stop,
                seen, track, True)


@njit(cache=True)
def _run(family: int, flags: np.ndarray, terms: np.ndarray, a: np.ndarray, b: np.ndarray,
         height: int, width: int, torus: bool, seed: np.uint64, generation: int, stop: int,
         seen: Dict, track: bool,
         watch_edge: bool) -> tuple[np.ndarray, np.ndarray, int, int, bool]:
    """The loop of :func:`run_planes` (``track``) and :func:`run_inside` (``watch_edge``)."""
    if track and len(seen) == 0:
        seen[planes_digest(a, b, height, width)] = generation
    oa = np.zeros_like(a)
    ob = np.zeros_like(b)
    scratch = np.empty(a.size, dtype=np.uint64)
    g = generation
    while g < stop:
        if watch_edge and edge_live(a, b, height, width):
            return a, b, g, -1, True
        step_planes(family, flags, terms, a, b, oa, ob, height, width, torus, seed, g,
                    scratch)
        a, oa = oa, a
        b, ob = ob, b
        g += 1
        if track:
            key = planes_digest(a, b, height, width)
            if key in seen:
                return a, b, g, seen[key], False
            seen[key] = g
    return a, b, g, -1, False


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
    "run_inside",
    "run_planes",
    "step_planes",
    "tail_mask",
]
