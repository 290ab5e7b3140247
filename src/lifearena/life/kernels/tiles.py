"""Compiled kernels of the sparse tile plane (:mod:`lifearena.life.plane`).

A tile is :data:`SIDE` x :data:`SIDE` cells (64 x 64): one ``uint64`` word per row and per
colour, bit ``i`` of word ``r`` of tile ``(tx, ty)`` being cell ``(64 tx + i, 64 ty + r)``
of the plane. Tiles live in slots of a pool; the plane's state is these arrays (all indexed
by slot):

======================  ==================================================================
``pa``, ``pb``          ``(capacity + 1, 64)`` uint64: the cells of colour 1 and of colour
                        2 (the last slot is never used: an empty tile for missing
                        neighbours to read)
``coord``               ``(capacity, 2)`` int64: the tile's ``(tx, ty)``
``nbr``                 ``(capacity, 8)`` int64: the slots of its neighbours in
                        :data:`~lifearena.life.universe.NEIGHBOUR_ORDER` (NW, N, NE, W, E,
                        SW, S, SE), -1 where there is no tile (all empty there)
``edges``               ``(capacity,)`` uint8: bit ``k`` set when a live cell lies on the
                        side or corner facing neighbour ``k`` (a birth may happen there)
``live``                ``(capacity,)`` uint8: 1 when the tile holds a live cell
``span``                ``(capacity, 2)`` int64: the rows ``lo..hi`` of the tile to compute
                        next step (none when ``lo > hi``)
``order``, ``where``    inverse permutations of the slots: ``order[:count]`` are in use
``count``               ``(1,)`` int64: how many slots are in use
``index``               ``(2**k,)`` int64: an open-addressing hash table of the slots in
                        use by ``(tx, ty)`` (linear probing, -1 empty; at most a quarter
                        full), see :func:`find_tile`
======================  ==================================================================

One generation (:func:`advance`):

1. **grow**: every tile with a live cell on a side or corner gets the neighbour there (an
   empty tile), so that every cell that can be born lies in a tile; cells outside all tiles
   have no live neighbour and stay empty (B0 rules are refused by the plane);
2. **compute** the rows in each tile's span: they read the rows around them in the tile
   and the facing rows and columns of its eight neighbours, count neighbours with the
   bitsliced adders of :mod:`lifearena.life.kernels.bitlogic` (``hsum3`` per row,
   ``vsum`` down the column, the west/east shifts of
   :mod:`lifearena.life.kernels.bitwise`) and apply the rule's formula (``eval_life``,
   ``eval_immigration``, ``eval_lifelike``, ``eval_p2life`` or the generic
   ``eval_terms``); coin births are coloured by the plane coin of
   :mod:`lifearena.life.coin` (:func:`coin_split` with the row's start, ``base`` = the
   tile's first column);
3. **settle**: the rows next to a row that changed (in the tile, or on the facing side or
   corner of a neighbour) make up the next step's span; a row whose cells and neighbour
   cells did not change cannot change next step either (for coin rules too: a coin birth
   changes its row), so a settled region costs nothing and a glider costs about seven rows
   of one to four tiles;
4. **shrink**: an empty tile that no neighbour's live cells face is dropped.

Each horizontal sum is computed once per row and shared by the three rows that use it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from lifearena.life.coin import ROW_MULTIPLIER
from lifearena.life.kernels.bitlogic import (
    GENERIC,
    IMMIGRATION,
    LIFE,
    LIFELIKE,
    ONE,
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

DONE, NEED_ROOM, OVER_CAP, SETTLED = 0, 1, 2, 3
"""How :func:`advance` stopped: all generations done; the pool needs more slots before
the next generation can grow; the next generation would pass ``max_tiles``; nothing can
change any more (every later generation is the same)."""

_ROW_MUL = np.uint64(ROW_MULTIPLIER)
_HASH_X = np.uint64(0x9E3779B97F4A7C15)
_TOP = np.uint64(1) << S63


# -- the index: (tx, ty) -> slot ------------------------------------------------------------


def index_size(capacity: int) -> int:
    """Entries of the hash table for a pool of ``capacity`` slots: a power of two at least
    four times as many, so that probes stay short.

    >>> index_size(64), index_size(100)
    (256, 512)
    """
    return 1 << max(4, (4 * capacity - 1).bit_length())


@njit(inline="always")
def _home(tx: int, ty: int, mask: int) -> np.int64:
    return np.int64(mix64((np.uint64(tx) * _HASH_X) ^ np.uint64(ty)) & np.uint64(mask))


@njit(cache=True)
def find_tile(tx: int, ty: int, coord: np.ndarray, index: np.ndarray) -> int:
    """The slot of tile ``(tx, ty)``, -1 when there is none."""
    mask = index.shape[0] - 1
    i = _home(tx, ty, mask)
    while index[i] >= 0:
        slot = index[i]
        if coord[slot, 0] == tx and coord[slot, 1] == ty:
            return int(slot)
        i = (i + 1) & mask
    return -1


@njit(inline="always")
def _insert(slot: int, coord: np.ndarray, index: np.ndarray) -> None:
    mask = index.shape[0] - 1
    i = _home(coord[slot, 0], coord[slot, 1], mask)
    while index[i] >= 0:
        i = (i + 1) & mask
    index[i] = slot


@njit(inline="always")
def _delete(slot: int, coord: np.ndarray, index: np.ndarray) -> None:
    """Remove ``slot``, shifting later entries of its probe run back (no tombstones)."""
    mask = index.shape[0] - 1
    i = _home(coord[slot, 0], coord[slot, 1], mask)
    while index[i] != slot:
        i = (i + 1) & mask
    j = i
    while True:
        j = (j + 1) & mask
        other = index[j]
        if other < 0:
            break
        home = _home(coord[other, 0], coord[other, 1], mask)
        # ``other`` may fill the hole at i unless its home lies cyclically in (i, j].
        stays = (i < home <= j) if i <= j else (home > i or home <= j)
        if not stays:
            index[i] = other
            i = j
    index[i] = -1


@njit(cache=True)
def build_index(index: np.ndarray, coord: np.ndarray, order: np.ndarray,
                count: np.ndarray) -> None:
    """Fill an empty (all -1) table with the slots in use."""
    for p in range(count[0]):
        _insert(order[p], coord, index)


# -- the pool ---------------------------------------------------------------------------------


@njit(cache=True)
def create_tile(tx: int, ty: int, pa: np.ndarray, pb: np.ndarray, coord: np.ndarray,
                nbr: np.ndarray, edges: np.ndarray, live: np.ndarray, span: np.ndarray,
                order: np.ndarray, where: np.ndarray, count: np.ndarray,
                index: np.ndarray) -> int:
    """The slot of tile ``(tx, ty)``, made empty, linked to its neighbours and to be
    computed whole next step when it does not exist yet (the caller makes sure a free slot
    is left)."""
    found: int = find_tile(tx, ty, coord, index)
    if found >= 0:
        return found
    slot = order[count[0]]
    count[0] += 1
    for r in range(SIDE):
        pa[slot, r] = ZERO
        pb[slot, r] = ZERO
    coord[slot, 0] = tx
    coord[slot, 1] = ty
    edges[slot] = 0
    live[slot] = 0
    span[slot, 0] = 0
    span[slot, 1] = SIDE - 1
    _insert(slot, coord, index)
    for k in range(8):
        m = find_tile(tx + DX[k], ty + DY[k], coord, index)
        nbr[slot, k] = m
        if m >= 0:
            nbr[m, 7 - k] = slot
    return int(slot)


@njit(cache=True)
def remove_tile(slot: int, coord: np.ndarray, nbr: np.ndarray, order: np.ndarray,
                 where: np.ndarray, count: np.ndarray, index: np.ndarray) -> None:
    """Free ``slot``: out of the index, unlinked from its neighbours, back among the free
    slots (``order[count:]``)."""
    _delete(slot, coord, index)
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


@njit(inline="always")
def _tile_edges(pa: np.ndarray, pb: np.ndarray, slot: int) -> tuple[int, int]:
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
                 edges: np.ndarray, live: np.ndarray, span: np.ndarray) -> None:
    """Refresh the flags of tiles whose cells were set from outside and compute them and
    their neighbours whole next step."""
    for slot in slots:
        live[slot], edges[slot] = _tile_edges(pa, pb, slot)
        _widen(span, slot, 0, SIDE - 1)
        for k in range(8):
            m = nbr[slot, k]
            if m >= 0:
                _widen(span, m, 0, SIDE - 1)


@njit(inline="always")
def _widen(span: np.ndarray, slot: int, lo: int, hi: int) -> None:
    """Add rows ``lo..hi`` (clipped to the tile) to the span of ``slot``."""
    lo = max(lo, 0)
    hi = min(hi, SIDE - 1)
    if lo < span[slot, 0]:
        span[slot, 0] = lo
    if hi > span[slot, 1]:
        span[slot, 1] = hi


# -- one tile ---------------------------------------------------------------------------------

# Rows of the per-tile scratch array (one row per quantity, ROWS words each). The kernels
# index it as scratch[ROW, j] rather than through row views: a view costs two atomic
# reference-count updates, which at a few rows per tile would cost more than the rows.
HS, HK, MS, MK = 0, 1, 2, 3      # row sums of colour 1 (or of either colour)
GS, GK, NS, NK = 4, 5, 6, 7      # row sums of colour 2 (or of colour 1 alone)
COINS = 8                        # coin births of each row
SCRATCH_ROWS = 9

EITHER, FIRST, SECOND = 0, 1, 2
"""Which cells a row sum counts: of either colour, of colour 1, of colour 2."""


@njit(inline="always")
def _word(pa: np.ndarray, pb: np.ndarray, colour: int, slot: int, r: int) -> np.uint64:
    if colour == EITHER:
        return np.uint64(pa[slot, r] | pb[slot, r])
    if colour == FIRST:
        return np.uint64(pa[slot, r])
    return np.uint64(pb[slot, r])


@njit(inline="always")
def _sum_row(pa: np.ndarray, pb: np.ndarray, colour: int, centre: int, west: int, east: int,
             r: int, s: np.ndarray, hs: int, hk: int, ms: int, mk: int, j: int) -> None:
    """Row sums at ``s[., j]`` of row ``r`` of tile ``centre`` and its west and east
    neighbours: the 2-bit sum (``hs + 2 hk``) of the west, centre and east cells, used by
    the rows above and below, and of west and east alone (``ms + 2 mk``), used by the row
    itself."""
    c = _word(pa, pb, colour, centre, r)
    w = _west(_word(pa, pb, colour, west, r), c)
    e = _east(c, _word(pa, pb, colour, east, r))
    s[hs, j], s[hk, j] = hsum3(w, c, e)
    s[ms, j] = w ^ e
    s[mk, j] = w & e


@njit(inline="always")
def _row_sums(pa: np.ndarray, pb: np.ndarray, colour: int, slot: int, nbr: np.ndarray,
              s: np.ndarray, hs: int, hk: int, ms: int, mk: int, lo: int, hi: int) -> None:
    """The row sums of rows ``lo - 1 .. hi + 1`` of the tile (row ``r`` at ``j = r + 1``),
    the rows above and below it taken from the tiles there. A missing neighbour reads the
    pool's last slot, which is always empty."""
    zero = pa.shape[0] - 1
    first, last = lo, hi + 3
    if lo == 0:
        _sum_row(pa, pb, colour, _or(nbr[slot, 1], zero), _or(nbr[slot, 0], zero),
                 _or(nbr[slot, 2], zero), SIDE - 1, s, hs, hk, ms, mk, 0)
        first = 1
    if hi == SIDE - 1:
        _sum_row(pa, pb, colour, _or(nbr[slot, 6], zero), _or(nbr[slot, 5], zero),
                 _or(nbr[slot, 7], zero), 0, s, hs, hk, ms, mk, ROWS - 1)
        last = ROWS - 1
    west, east = _or(nbr[slot, 3], zero), _or(nbr[slot, 4], zero)
    for j in range(first, last):
        _sum_row(pa, pb, colour, slot, west, east, j - 1, s, hs, hk, ms, mk, j)


@njit(inline="always")
def _or(slot: int, zero: int) -> int:
    """``slot``, or the empty slot ``zero`` where there is no tile (-1)."""
    return slot if slot >= 0 else zero


@njit(inline="always")
def _vsum(s: np.ndarray, hs: int, hk: int, ms: int, mk: int,
          r: int) -> tuple[np.uint64, np.uint64, np.uint64, np.uint64]:
    """The 4-bit neighbour count of row ``r`` from the row sums."""
    return vsum(s[hs, r], s[hk, r], s[ms, r + 1], s[mk, r + 1], s[hs, r + 2], s[hk, r + 2])


@njit(inline="always")
def _vsum3(s: np.ndarray, hs: int, hk: int, ms: int, mk: int,
           r: int) -> tuple[np.uint64, np.uint64, np.uint64]:
    """The neighbour count of row ``r`` modulo 8."""
    return vsum3(s[hs, r], s[hk, r], s[ms, r + 1], s[mk, r + 1], s[hs, r + 2], s[hk, r + 2])


@njit(inline="always")
def _tile_step(family: int, flags: np.ndarray, terms: np.ndarray, start: np.uint64,
               slot: int, lo: int, hi: int, pa: np.ndarray, pb: np.ndarray, coord: np.ndarray,
               nbr: np.ndarray, oa: np.ndarray, ob: np.ndarray, i: int, s: np.ndarray,
               c1: np.ndarray, c2: np.ndarray, out: np.ndarray, eq1: np.ndarray,
               eq2: np.ndarray, tu: np.ndarray, tv: np.ndarray) -> None:
    """The next cells of rows ``lo..hi`` of tile ``slot`` into ``oa[i, lo..hi]`` and
    ``ob[i, lo..hi]``; ``s`` is ``(SCRATCH_ROWS, ROWS)`` scratch, the rest the generic
    family's."""
    any_coin = False
    if family in (LIFE, IMMIGRATION, LIFELIKE):
        _row_sums(pa, pb, EITHER, slot, nbr, s, HS, HK, MS, MK, lo, hi)
        if family == LIFE:
            for r in range(lo, hi + 1):
                t0, t1, t2 = _vsum3(s, HS, HK, MS, MK, r)
                oa[i, r], ob[i, r] = eval_life(pa[slot, r], pb[slot, r], t0, t1, t2)
        elif family == IMMIGRATION:
            # Of colour 1 alone only the twos bit of its count is needed: the majority of 3.
            _row_sums(pa, pb, FIRST, slot, nbr, s, GS, GK, NS, NK, lo, hi)
            for r in range(lo, hi + 1):
                t0, t1, t2 = _vsum3(s, HS, HK, MS, MK, r)
                _, a1, _ = _vsum3(s, GS, GK, NS, NK, r)
                oa[i, r], ob[i, r] = eval_immigration(pa[slot, r], pb[slot, r], t0, t1, t2,
                                                      a1)
        else:
            bm = (flags[0], flags[1], flags[2], flags[3], flags[4], flags[5], flags[6],
                  flags[7], flags[8])
            sm = (flags[9], flags[10], flags[11], flags[12], flags[13], flags[14], flags[15],
                  flags[16], flags[17])
            for r in range(lo, hi + 1):
                t0, t1, t2, t3 = _vsum(s, HS, HK, MS, MK, r)
                oa[i, r], ob[i, r] = eval_lifelike(pa[slot, r], pb[slot, r], t0, t1, t2, t3,
                                                   bm, sm)
    else:
        _row_sums(pa, pb, FIRST, slot, nbr, s, HS, HK, MS, MK, lo, hi)
        _row_sums(pa, pb, SECOND, slot, nbr, s, GS, GK, NS, NK, lo, hi)
        if family == P2LIFE:
            f_coin, f_v1, f_c2, f_loose, f_unb = flags[0], flags[1], flags[2], flags[3], flags[4]
            for r in range(lo, hi + 1):
                w0, w1, w2, w3 = _vsum(s, HS, HK, MS, MK, r)
                v0, v1, v2, v3 = _vsum(s, GS, GK, NS, NK, r)
                oa[i, r], ob[i, r], s[COINS, r] = eval_p2life(
                    pa[slot, r], pb[slot, r], w0, w1, w2, w3, v0, v1, v2, v3, f_coin, f_v1,
                    f_c2, f_loose, f_unb)
            any_coin = f_coin != ZERO
        else:
            # eval_terms takes whole columns of words: the rows outside lo..hi are evaluated
            # from stale counts and never read.
            for r in range(lo, hi + 1):
                c1[0, r], c1[1, r], c1[2, r], c1[3, r] = _vsum(s, HS, HK, MS, MK, r)
                c2[0, r], c2[1, r], c2[2, r], c2[3, r] = _vsum(s, GS, GK, NS, NK, r)
            eval_terms(c1, c2, pa[slot], pb[slot], terms, out, eq1, eq2, tu, tv)
            for r in range(lo, hi + 1):
                oa[i, r] = out[0, r]
                ob[i, r] = out[1, r]
                s[COINS, r] = out[2, r]
            any_coin = True
    if any_coin:
        x0 = coord[slot, 0] * SIDE
        y0 = coord[slot, 1] * SIDE
        for r in range(lo, hi + 1):
            coins = s[COINS, r]
            if coins:
                row_start = mix64(start ^ (np.uint64(y0 + r) * _ROW_MUL))
                to_a, to_b = coin_split(coins, row_start, np.int64(x0), np.int64(1))
                oa[i, r] |= to_a
                ob[i, r] |= to_b


# -- generations ------------------------------------------------------------------------------


@njit(cache=True)
def advance(family: int, flags: np.ndarray, terms: np.ndarray, seed: np.uint64,
            generation: int, stop: int, max_tiles: int, pa: np.ndarray, pb: np.ndarray,
            coord: np.ndarray, nbr: np.ndarray, edges: np.ndarray, live: np.ndarray,
            span: np.ndarray, order: np.ndarray, where: np.ndarray, count: np.ndarray,
            index: np.ndarray) -> tuple[int, int, int, int]:
    """Step the plane from ``generation`` towards ``stop``.

    Returns ``(generation reached, why it stopped, rows computed, slots wanted)``, the
    reason being :data:`DONE`, :data:`NEED_ROOM` (grow the pool to at least the tiles held
    plus the slots wanted, and call again), :data:`OVER_CAP` (growing would pass
    ``max_tiles`` tiles) or :data:`SETTLED` (nothing changes any more: the generation
    reached is ``stop``, and any later one is the same). Either way the plane is whole at
    the generation reached: a stop comes before a generation's step begins, when at most
    some empty tiles were added.
    """
    capacity = order.shape[0]
    oa = np.empty((capacity, SIDE), dtype=np.uint64)
    ob = np.empty((capacity, SIDE), dtype=np.uint64)
    todo = np.empty((capacity, 3), dtype=np.int64)
    s = np.zeros((SCRATCH_ROWS, ROWS), dtype=np.uint64)
    c1 = np.zeros((4, SIDE), dtype=np.uint64)
    c2 = np.zeros((4, SIDE), dtype=np.uint64)
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
                                    coord, nbr, edges, live, span, order, where, count,
                                    index)
        if count[0] > max_tiles:
            return g, OVER_CAP, computed, 0
        # 2. compute the spans from the cells of generation g (into oa, ob).
        start = coin_start(seed, np.int64(g))
        m = 0
        for p in range(count[0]):
            slot = order[p]
            lo, hi = span[slot, 0], span[slot, 1]
            if lo <= hi:
                _tile_step(family, flags, terms, start, slot, lo, hi, pa, pb, coord, nbr,
                           oa, ob, m, s, c1, c2, out, eq1, eq2, tu, tv)
                todo[m, 0] = slot
                todo[m, 1] = lo
                todo[m, 2] = hi
                m += 1
                computed += hi - lo + 1
            span[slot, 0] = SIDE
            span[slot, 1] = -1
        if m == 0:
            # Nothing could change (a new tile would have been computed whole), so nothing
            # ever will: a still life or an empty plane is done at once.
            return stop, SETTLED, computed, 0
        # 3. settle: write back; the rows next to a change make the next step's spans.
        for i in range(m):
            slot, lo, hi = todo[i, 0], todo[i, 1], todo[i, 2]
            first, last = SIDE, -1              # rows that changed
            west_first, west_last = SIDE, -1    # rows whose first cell changed
            east_first, east_last = SIDE, -1    # rows whose last cell changed
            top = ZERO
            bottom = ZERO
            for r in range(lo, hi + 1):
                diff = (oa[i, r] ^ pa[slot, r]) | (ob[i, r] ^ pb[slot, r])
                if diff:
                    if first == SIDE:
                        first = r
                    last = r
                    if diff & ONE:
                        if west_first == SIDE:
                            west_first = r
                        west_last = r
                    if diff & _TOP:
                        if east_first == SIDE:
                            east_first = r
                        east_last = r
                    if r == 0:
                        top = diff
                    if r == SIDE - 1:
                        bottom = diff
                    pa[slot, r] = oa[i, r]
                    pb[slot, r] = ob[i, r]
            if last < 0:
                continue
            live[slot], edges[slot] = _tile_edges(pa, pb, slot)
            _widen(span, slot, first - 1, last + 1)
            # A neighbour reads only the side or corner of this tile that faces it.
            if top:
                _wake(span, nbr[slot, 1], SIDE - 1, SIDE - 1)
                if top & ONE:
                    _wake(span, nbr[slot, 0], SIDE - 1, SIDE - 1)
                if top & _TOP:
                    _wake(span, nbr[slot, 2], SIDE - 1, SIDE - 1)
            if bottom:
                _wake(span, nbr[slot, 6], 0, 0)
                if bottom & ONE:
                    _wake(span, nbr[slot, 5], 0, 0)
                if bottom & _TOP:
                    _wake(span, nbr[slot, 7], 0, 0)
            if west_last >= 0:
                _wake(span, nbr[slot, 3], west_first - 1, west_last + 1)
            if east_last >= 0:
                _wake(span, nbr[slot, 4], east_first - 1, east_last + 1)
        # 4. shrink: drop empty tiles that no live cell faces.
        p = 0
        while p < count[0]:
            slot = order[p]
            if not live[slot] and not _faced(slot, nbr, edges):
                remove_tile(slot, coord, nbr, order, where, count, index)
            else:
                p += 1
        g += 1
    return g, DONE, computed, 0


@njit(inline="always")
def _wake(span: np.ndarray, slot: int, lo: int, hi: int) -> None:
    """:func:`_widen` for a neighbour's slot that may be -1 (no tile: nothing to wake)."""
    if slot >= 0:
        _widen(span, slot, lo, hi)


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
    "GENERIC",
    "NEED_ROOM",
    "OVER_CAP",
    "SETTLED",
    "SIDE",
    "advance",
    "build_index",
    "create_tile",
    "find_tile",
    "index_size",
    "mark_changed",
    "remove_tile",
]
