"""Compiled kernels of the sparse tile plane (:mod:`lifearena.life.plane`).

A tile is :data:`SIDE` x :data:`SIDE` cells (64 x 64): one ``uint64`` word per row and per
colour, bit ``i`` of word ``r`` of tile ``(tx, ty)`` being cell ``(64 tx + i, 64 ty + r)``
of the plane. Tiles live in slots of a pool; the plane's state is these arrays (all indexed
by slot):

======================  ==================================================================
``pa``, ``pb``          ``(capacity, 64)`` uint64: the cells of colour 1 and of colour 2
``coord``               ``(capacity, 2)`` int64: the tile's ``(tx, ty)``
``nbr``                 ``(capacity, 8)`` int64: the slots of its neighbours in
                        :data:`~lifearena.life.universe.NEIGHBOUR_ORDER` (NW, N, NE, W, E,
                        SW, S, SE), -1 where there is no tile (all empty there)
``edges``               ``(capacity,)`` uint8: bit ``k`` set when a live cell lies on the
                        side or corner facing neighbour ``k`` (a birth may happen there)
``live``                ``(capacity,)`` uint8: 1 when the tile holds a live cell
``dirty``               ``(capacity,)`` uint8: 1 when the tile must be computed next step
``order``, ``where``    inverse permutations of the slots: ``order[:count]`` are in use
``count``               ``(1,)`` int64: how many slots are in use
``index``               a numba ``Dict`` from ``(tx, ty)`` to slot
======================  ==================================================================

One generation (:func:`advance`):

1. **grow**: every tile with a live cell on a side or corner gets the neighbour there (an
   empty tile), so that every cell that can be born lies in a tile; cells outside all tiles
   have no live neighbour and stay empty (B0 rules are refused by the plane);
2. **compute** the dirty tiles: each reads its 64 rows and the facing rows and columns of
   its eight neighbours, counts neighbours with the bitsliced adders of
   :mod:`lifearena.life.kernels.bitlogic` (``hsum3`` per row, ``vsum`` down the column,
   the west/east shifts of :mod:`lifearena.life.kernels.bitwise`) and applies the rule's
   formula (``eval_life``, ``eval_immigration``, ``eval_lifelike``, ``eval_p2life`` or the
   generic ``eval_terms``); coin births are coloured by the plane coin of
   :mod:`lifearena.life.coin` (:func:`coin_split` with the row's start, ``base`` = the
   tile's first column);
3. **settle**: a tile that changed makes itself and its neighbours dirty for the next
   step; a tile that did not change, among neighbours that did not, cannot change next
   step either (for coin rules too: a coin birth changes its tile), so it sleeps;
4. **shrink**: an empty tile that no neighbour's live cells face is dropped.

Each horizontal sum is computed once per row and shared by the three rows that use it,
which makes a tile step cheaper per cell than the flat grid kernel's.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.typed import Dict

from lifearena.life.coin import ROW_MULTIPLIER
from lifearena.life.kernels.bitlogic import (
    GENERIC,
    IMMIGRATION,
    LIFE,
    LIFELIKE,
    P2LIFE,
    S63,
    ZERO,
    coin_split,
    coin_start,
    eval_immigration,
    eval_life,
    eval_lifelike,
    eval_p2life,
    eval_terms,
    hsum3,
    mix64,
    vsum,
    vsum3,
)
from lifearena.life.kernels.bitwise import _east, _west

SIDE = 64
"""Cells on a side of a tile: one ``uint64`` word is one row of a tile."""

ROWS = SIDE + 2
"""Rows a tile's step reads: its own and the facing row of the tiles above and below."""

DX = np.array([-1, 0, 1, -1, 1, -1, 0, 1], dtype=np.int64)
DY = np.array([-1, -1, -1, 0, 0, 1, 1, 1], dtype=np.int64)
"""Offsets of the eight neighbours, in ``NEIGHBOUR_ORDER``; neighbour ``7 - k`` is the
opposite of neighbour ``k``."""

DONE, NEED_ROOM, OVER_CAP = 0, 1, 2
"""How :func:`advance` stopped: all generations done; the pool needs more slots before
the next generation can grow; the next generation would pass ``max_tiles``."""

_ROW_MUL = np.uint64(ROW_MULTIPLIER)
_KEY = types.UniTuple(types.int64, 2)
_TOP = np.uint64(1) << S63


@njit(cache=True)
def new_index() -> Dict:
    """An empty ``(tx, ty) -> slot`` table (made in compiled code, so it comes from numba's
    cache instead of compiling the dictionary's constructor in every process)."""
    return Dict.empty(key_type=_KEY, value_type=types.int64)


# -- the pool ---------------------------------------------------------------------------------


@njit(cache=True)
def create_tile(tx: int, ty: int, pa: np.ndarray, pb: np.ndarray, coord: np.ndarray,
                nbr: np.ndarray, edges: np.ndarray, live: np.ndarray, dirty: np.ndarray,
                order: np.ndarray, where: np.ndarray, count: np.ndarray, index: Dict) -> int:
    """The slot of tile ``(tx, ty)``, made empty, dirty and linked to its neighbours when
    it does not exist yet (the caller makes sure a free slot is left)."""
    key = (tx, ty)
    if key in index:
        return index[key]
    slot = order[count[0]]
    count[0] += 1
    for r in range(SIDE):
        pa[slot, r] = ZERO
        pb[slot, r] = ZERO
    coord[slot, 0] = tx
    coord[slot, 1] = ty
    edges[slot] = 0
    live[slot] = 0
    dirty[slot] = 1
    index[key] = slot
    for k in range(8):
        near = (tx + DX[k], ty + DY[k])
        if near in index:
            m = index[near]
            nbr[slot, k] = m
            nbr[m, 7 - k] = slot
        else:
            nbr[slot, k] = -1
    return slot


@njit(cache=True)
def _remove_tile(slot: int, coord: np.ndarray, nbr: np.ndarray, order: np.ndarray,
                 where: np.ndarray, count: np.ndarray, index: Dict) -> None:
    del index[(coord[slot, 0], coord[slot, 1])]
    for k in range(8):
        m = nbr[slot, k]
        if m >= 0:
            nbr[m, 7 - k] = -1
        nbr[slot, k] = -1
    last = count[0] - 1
    position = where[slot]
    other = order[last]
    order[position] = other
    where[other] = position
    order[last] = slot
    where[slot] = last
    count[0] = last


@njit(cache=True)
def tile_edges(pa: np.ndarray, pb: np.ndarray, slot: int) -> tuple[int, int]:
    """``(live, edges)`` of a tile from its cells (see the module's table)."""
    top = pa[slot, 0] | pb[slot, 0]
    bottom = pa[slot, SIDE - 1] | pb[slot, SIDE - 1]
    every = ZERO
    for r in range(SIDE):
        every |= pa[slot, r] | pb[slot, r]
    return _flags(top, bottom, every)


@njit(inline="always")
def _flags(top: np.uint64, bottom: np.uint64, every: np.uint64) -> tuple[int, int]:
    west = every & np.uint64(1)
    east = every & _TOP
    e = 0
    if top & np.uint64(1):
        e |= 1 << 0
    if top:
        e |= 1 << 1
    if top & _TOP:
        e |= 1 << 2
    if west:
        e |= 1 << 3
    if east:
        e |= 1 << 4
    if bottom & np.uint64(1):
        e |= 1 << 5
    if bottom:
        e |= 1 << 6
    if bottom & _TOP:
        e |= 1 << 7
    return (1 if every else 0), e


@njit(cache=True)
def mark_changed(slots: np.ndarray, pa: np.ndarray, pb: np.ndarray, nbr: np.ndarray,
                 edges: np.ndarray, live: np.ndarray, dirty: np.ndarray) -> None:
    """Refresh the flags of tiles whose cells were set from outside and make them and
    their neighbours dirty."""
    for slot in slots:
        live[slot], edges[slot] = tile_edges(pa, pb, slot)
        dirty[slot] = 1
        for k in range(8):
            m = nbr[slot, k]
            if m >= 0:
                dirty[m] = 1


# -- one tile ---------------------------------------------------------------------------------


@njit(inline="always")
def _gather(p: np.ndarray, slot: int, nbr: np.ndarray, w: np.ndarray, c: np.ndarray,
            e: np.ndarray) -> None:
    """Rows -1..64 of the tile's column into ``c`` and of the columns west and east of it
    into ``w`` and ``e`` (only their facing bit is ever read), zero where no tile is."""
    n = nbr[slot]
    c[0] = p[n[1], SIDE - 1] if n[1] >= 0 else ZERO
    w[0] = p[n[0], SIDE - 1] if n[0] >= 0 else ZERO
    e[0] = p[n[2], SIDE - 1] if n[2] >= 0 else ZERO
    c[ROWS - 1] = p[n[6], 0] if n[6] >= 0 else ZERO
    w[ROWS - 1] = p[n[5], 0] if n[5] >= 0 else ZERO
    e[ROWS - 1] = p[n[7], 0] if n[7] >= 0 else ZERO
    for r in range(SIDE):
        c[r + 1] = p[slot, r]
    if n[3] >= 0:
        for r in range(SIDE):
            w[r + 1] = p[n[3], r]
    else:
        for r in range(SIDE):
            w[r + 1] = ZERO
    if n[4] >= 0:
        for r in range(SIDE):
            e[r + 1] = p[n[4], r]
    else:
        for r in range(SIDE):
            e[r + 1] = ZERO


@njit(inline="always")
def _row_sums(w_: np.ndarray, c_: np.ndarray, e_: np.ndarray, hs: np.ndarray, hk: np.ndarray,
              ms: np.ndarray, mk: np.ndarray) -> None:
    """Per row: the 2-bit sum (``hs + 2 hk``) of the west, centre and east cells, used by
    the rows above and below, and of west and east alone (``ms + 2 mk``), used by the row
    itself."""
    for j in range(ROWS):
        c = c_[j]
        w = _west(w_[j], c)
        e = _east(c, e_[j])
        hs[j], hk[j] = hsum3(w, c, e)
        ms[j] = w ^ e
        mk[j] = w & e


@njit(inline="always")
def _either(wa: np.ndarray, ca: np.ndarray, ea: np.ndarray, wb: np.ndarray, cb: np.ndarray,
            eb: np.ndarray, wt: np.ndarray, ct: np.ndarray, et: np.ndarray) -> None:
    for j in range(ROWS):
        wt[j] = wa[j] | wb[j]
        ct[j] = ca[j] | cb[j]
        et[j] = ea[j] | eb[j]


@njit(cache=True)
def _tile_step(family: int, flags: np.ndarray, terms: np.ndarray, start: np.uint64,
               slot: int, pa: np.ndarray, pb: np.ndarray, coord: np.ndarray, nbr: np.ndarray,
               oa: np.ndarray, ob: np.ndarray, s: np.ndarray, c1: np.ndarray, c2: np.ndarray,
               out: np.ndarray, eq1: np.ndarray, eq2: np.ndarray, tu: np.ndarray,
               tv: np.ndarray) -> None:
    """The next cells of tile ``slot`` into ``oa``/``ob`` (64 words each); ``s`` is
    ``(17, ROWS)`` scratch, the rest the generic family's scratch."""
    wa, ca, ea, wb, cb, eb = s[0], s[1], s[2], s[3], s[4], s[5]
    hs, hk, ms, mk = s[6], s[7], s[8], s[9]
    gs, gk, ns, nk = s[10], s[11], s[12], s[13]
    coins = s[16]
    _gather(pa, slot, nbr, wa, ca, ea)
    _gather(pb, slot, nbr, wb, cb, eb)
    any_coin = False
    if family == LIFE or family == IMMIGRATION or family == LIFELIKE:
        wt, ct, et = s[13], s[14], s[15]
        _either(wa, ca, ea, wb, cb, eb, wt, ct, et)
        _row_sums(wt, ct, et, hs, hk, ms, mk)
        if family == LIFE:
            for r in range(SIDE):
                t0, t1, t2 = vsum3(hs[r], hk[r], ms[r + 1], mk[r + 1], hs[r + 2], hk[r + 2])
                oa[r], ob[r] = eval_life(ca[r + 1], cb[r + 1], t0, t1, t2)
        elif family == IMMIGRATION:
            # Of colour 1 alone only the twos bit of its count is needed: the majority of 3.
            # (nk shares its row with wt, which the totals no longer need)
            _row_sums(wa, ca, ea, gs, gk, ns, nk)
            for r in range(SIDE):
                t0, t1, t2 = vsum3(hs[r], hk[r], ms[r + 1], mk[r + 1], hs[r + 2], hk[r + 2])
                _, a1, _ = vsum3(gs[r], gk[r], ns[r + 1], nk[r + 1], gs[r + 2], gk[r + 2])
                oa[r], ob[r] = eval_immigration(ca[r + 1], cb[r + 1], t0, t1, t2, a1)
        else:
            bm = (flags[0], flags[1], flags[2], flags[3], flags[4], flags[5], flags[6],
                  flags[7], flags[8])
            sm = (flags[9], flags[10], flags[11], flags[12], flags[13], flags[14], flags[15],
                  flags[16], flags[17])
            for r in range(SIDE):
                t0, t1, t2, t3 = vsum(hs[r], hk[r], ms[r + 1], mk[r + 1], hs[r + 2], hk[r + 2])
                oa[r], ob[r] = eval_lifelike(ca[r + 1], cb[r + 1], t0, t1, t2, t3, bm, sm)
    else:
        _row_sums(wa, ca, ea, hs, hk, ms, mk)
        _row_sums(wb, cb, eb, gs, gk, ns, nk)
        if family == P2LIFE:
            f_coin, f_v1, f_c2, f_loose, f_unb = flags[0], flags[1], flags[2], flags[3], flags[4]
            for r in range(SIDE):
                w0, w1, w2, w3 = vsum(hs[r], hk[r], ms[r + 1], mk[r + 1], hs[r + 2], hk[r + 2])
                v0, v1, v2, v3 = vsum(gs[r], gk[r], ns[r + 1], nk[r + 1], gs[r + 2], gk[r + 2])
                oa[r], ob[r], coins[r] = eval_p2life(ca[r + 1], cb[r + 1], w0, w1, w2, w3,
                                                     v0, v1, v2, v3, f_coin, f_v1, f_c2,
                                                     f_loose, f_unb)
            any_coin = f_coin != ZERO
        else:
            for r in range(SIDE):
                c1[0, r], c1[1, r], c1[2, r], c1[3, r] = vsum(
                    hs[r], hk[r], ms[r + 1], mk[r + 1], hs[r + 2], hk[r + 2])
                c2[0, r], c2[1, r], c2[2, r], c2[3, r] = vsum(
                    gs[r], gk[r], ns[r + 1], nk[r + 1], gs[r + 2], gk[r + 2])
            eval_terms(c1, c2, ca[1:SIDE + 1], cb[1:SIDE + 1], terms, out, eq1, eq2, tu, tv)
            for r in range(SIDE):
                oa[r] = out[0, r]
                ob[r] = out[1, r]
                coins[r] = out[2, r]
            any_coin = True
    if any_coin:
        x0 = coord[slot, 0] * SIDE
        y0 = coord[slot, 1] * SIDE
        for r in range(SIDE):
            if coins[r]:
                row_start = mix64(start ^ (np.uint64(y0 + r) * _ROW_MUL))
                to_a, to_b = coin_split(coins[r], row_start, x0, 1)
                oa[r] |= to_a
                ob[r] |= to_b


# -- generations ------------------------------------------------------------------------------


@njit(cache=True)
def advance(family: int, flags: np.ndarray, terms: np.ndarray, seed: np.uint64,
            generation: int, stop: int, max_tiles: int, pa: np.ndarray, pb: np.ndarray,
            coord: np.ndarray, nbr: np.ndarray, edges: np.ndarray, live: np.ndarray,
            dirty: np.ndarray, order: np.ndarray, where: np.ndarray, count: np.ndarray,
            index: Dict) -> tuple[int, int, int, int]:
    """Step the plane from ``generation`` towards ``stop``.

    Returns ``(generation reached, why it stopped, tile-steps computed, slots wanted)``,
    the reason being :data:`DONE`, :data:`NEED_ROOM` (grow the pool to at least the tiles
    held plus the slots wanted, and call again) or :data:`OVER_CAP`
    (growing would pass ``max_tiles`` tiles). Either way the plane is whole at the
    generation reached: a stop comes before a generation's step begins, when at most some
    empty tiles were added.
    """
    capacity = pa.shape[0]
    oa = np.empty((capacity, SIDE), dtype=np.uint64)
    ob = np.empty((capacity, SIDE), dtype=np.uint64)
    todo = np.empty(capacity, dtype=np.int64)
    s = np.zeros((17, ROWS), dtype=np.uint64)
    c1 = np.empty((4, SIDE), dtype=np.uint64)
    c2 = np.empty((4, SIDE), dtype=np.uint64)
    out = np.empty((3, SIDE), dtype=np.uint64)
    eq1 = np.empty((9, SIDE), dtype=np.uint64)
    eq2 = np.empty((9, SIDE), dtype=np.uint64)
    tu = np.empty(SIDE, dtype=np.uint64)
    tv = np.empty(SIDE, dtype=np.uint64)
    computed = 0
    g = generation
    while g < stop:
        # 1. grow: the neighbours that live cells on a side or corner face.
        n = count[0]
        wanted = 0
        for p in range(n):
            slot = order[p]
            e = edges[slot]
            if e:
                for k in range(8):
                    if (e >> k) & 1 and nbr[slot, k] < 0:
                        wanted += 1
        if wanted > capacity - n:
            return g, NEED_ROOM, computed, wanted
        for p in range(n):
            slot = order[p]
            e = edges[slot]
            if e:
                for k in range(8):
                    if (e >> k) & 1 and nbr[slot, k] < 0:
                        create_tile(coord[slot, 0] + DX[k], coord[slot, 1] + DY[k], pa, pb,
                                    coord, nbr, edges, live, dirty, order, where, count,
                                    index)
        if count[0] > max_tiles:
            return g, OVER_CAP, computed, 0
        # 2. compute the dirty tiles from the cells of generation g.
        start = coin_start(seed, g)
        m = 0
        for p in range(count[0]):
            slot = order[p]
            if dirty[slot]:
                _tile_step(family, flags, terms, start, slot, pa, pb, coord, nbr, oa[m],
                           ob[m], s, c1, c2, out, eq1, eq2, tu, tv)
                todo[m] = slot
                m += 1
        computed += m
        # 3. settle: write back; who changed wakes its neighbours for the next step.
        for p in range(count[0]):
            dirty[order[p]] = 0
        for i in range(m):
            slot = todo[i]
            changed = ZERO
            top = oa[i, 0] | ob[i, 0]
            bottom = oa[i, SIDE - 1] | ob[i, SIDE - 1]
            every = ZERO
            for r in range(SIDE):
                na = oa[i, r]
                nb = ob[i, r]
                changed |= (na ^ pa[slot, r]) | (nb ^ pb[slot, r])
                every |= na | nb
                pa[slot, r] = na
                pb[slot, r] = nb
            live[slot], edges[slot] = _flags(top, bottom, every)
            if changed:
                dirty[slot] = 1
                for k in range(8):
                    j = nbr[slot, k]
                    if j >= 0:
                        dirty[j] = 1
        # 4. shrink: drop empty tiles that no live cell faces.
        p = 0
        while p < count[0]:
            slot = order[p]
            if not live[slot] and not _faced(slot, nbr, edges):
                _remove_tile(slot, coord, nbr, order, where, count, index)
            else:
                p += 1
        g += 1
    return g, DONE, computed, 0


@njit(inline="always")
def _faced(slot: int, nbr: np.ndarray, edges: np.ndarray) -> bool:
    """Whether a neighbour has a live cell on the side or corner facing this tile."""
    for k in range(8):
        m = nbr[slot, k]
        if m >= 0 and (edges[m] >> (7 - k)) & 1:
            return True
    return False


__all__ = [
    "DONE",
    "NEED_ROOM",
    "OVER_CAP",
    "SIDE",
    "GENERIC",
    "advance",
    "create_tile",
    "mark_changed",
    "new_index",
    "tile_edges",
]
