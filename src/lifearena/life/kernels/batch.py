"""Bit-parallel kernels for a batch of many small boards of the same shape.

Boards of at most 64 cells (5x5, 8x8, 4x16...) are packed one ``uint64`` word per board and
colour, bit ``y * width + x``: a neighbour word is two shifts and two masks (the second pair
wraps around on a torus), and the loop over boards vectorises. The boards are stepped in chunks
that stay in the first-level cache while every generation of the call runs. Larger boards
(19x19, 64x64...) use the padded planes of :mod:`lifearena.life.kernels.bitplanes`, one board
after the other with the one-grid kernel of :mod:`lifearena.life.kernels.bitwise`.

Coins use each board's own seed and the cell index ``y * width + x`` inside the board, as
:func:`lifearena.life.kernels.numpy_step.numpy_step` does, so batch and single-grid results
agree.

>>> import numpy as np
>>> from lifearena.life.rules import Rule
>>> boards = np.zeros((2, 8, 8), dtype=np.int8); boards[:, 3, 2:5] = 1
>>> after = batch_evolve(boards, Rule.named("immigration"), 1)
>>> after[0, 2:5, 3].tolist(), int(after[1, 3].sum())
([1, 1, 1], 1)
"""

from __future__ import annotations

import numpy as np
from numba import njit

from lifearena.life.coin import MASK64
from lifearena.life.kernels.bitlogic import (
    GENERIC,
    IMMIGRATION,
    LIFE,
    LIFELIKE,
    ONE,
    P2LIFE,
    S1,
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
    vsum,
    vsum3,
)
from lifearena.life.kernels.bitplanes import _pack, _unpack, words_for
from lifearena.life.kernels.bitwise import step_planes
from lifearena.life.rules import Rule

CHUNK = 1024
"""Boards stepped together through all generations (four planes of 8 KiB: L1-sized)."""


# -- one word per board -----------------------------------------------------------------------


@njit(cache=True)
def pack_words(cells: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Boards ``(n, h, w)`` with ``h * w <= 64`` as two ``(n,)`` word arrays."""
    n, height, width = cells.shape
    a = np.zeros(n, dtype=np.uint64)
    b = np.zeros(n, dtype=np.uint64)
    for i in range(n):
        wa = ZERO
        wb = ZERO
        for y in range(height):
            for x in range(width):
                v = cells[i, y, x]
                bit = ONE << np.uint64(y * width + x)
                if v == 1:
                    wa |= bit
                elif v == 2:
                    wb |= bit
        a[i] = wa
        b[i] = wb
    return a, b


@njit(cache=True)
def unpack_words(a: np.ndarray, b: np.ndarray, height: int, width: int) -> np.ndarray:
    """The ``(n, h, w)`` int8 boards held by two word arrays."""
    n = a.shape[0]
    out = np.empty((n, height, width), dtype=np.int8)
    for i in range(n):
        wa = a[i]
        wb = b[i]
        for y in range(height):
            for x in range(width):
                shift = np.uint64(y * width + x)
                out[i, y, x] = np.int8(((wa >> shift) & ONE) + (((wb >> shift) & ONE) << ONE))
    return out


def word_masks(height: int, width: int, torus: bool) -> np.ndarray:
    """Shift amounts and masks of the four directions for boards of one word.

    ``[sv, svt, m_n, m_nt, m_s, m_st, sh, m_w, m_wt, m_e, m_et, board]``; see
    :func:`_shl` and :func:`_count_word`.

    >>> hex(int(word_masks(2, 3, False)[11]))
    '0x3f'
    """
    full = (1 << 64) - 1
    cells = height * width
    board = (1 << cells) - 1
    row0 = (1 << width) - 1
    last = row0 << (width * (height - 1))
    col0 = sum(1 << (y * width) for y in range(height))
    colw = col0 << (width - 1)
    wrap = full if torus else 0
    values = [width if height > 1 else 0, width * (height - 1), board & ~row0, row0 & wrap,
              board & ~last, last & wrap, width - 1, board & ~col0, col0 & wrap,
              board & ~colw, colw & wrap, board]
    return np.array([v & full for v in values], dtype=np.uint64)


# War of Life's 8x8 boards get loops with every shift and mask a compile-time constant.
K88_BOUNDED = tuple(np.uint64(v) for v in word_masks(8, 8, False))
K88_TORUS = tuple(np.uint64(v) for v in word_masks(8, 8, True))


@njit(inline="always")
def _shl(v, s, m, s2, m2, wrap):  # type: ignore[no-untyped-def]
    # Shift towards higher bits; on a torus the cells pushed off the board come back in
    # from the other side. ``wrap`` is a constant at each call, so LLVM drops the branch.
    if wrap:
        return ((v << s) & m) | ((v >> s2) & m2)
    return (v << s) & m


@njit(inline="always")
def _shr(v, s, m, s2, m2, wrap):  # type: ignore[no-untyped-def]
    if wrap:
        return ((v >> s) & m) | ((v << s2) & m2)
    return (v >> s) & m


@njit(inline="always")
def _row_sums(v, k, wrap):  # type: ignore[no-untyped-def]
    """West/east neighbour words and the row sums (ones, twos) of the board word ``v``."""
    w = _shl(v, S1, k[7], k[6], k[8], wrap)
    e = _shr(v, S1, k[9], k[6], k[10], wrap)
    s, c = hsum3(w, v, e)
    return w, e, s, c


@njit(inline="always")
def _count_word(v, k, wrap):  # type: ignore[no-untyped-def]
    """4-bit neighbour count of every cell of the board word ``v``; ``k`` the mask tuple."""
    w, e, s, c = _row_sums(v, k, wrap)
    return vsum(_shl(s, k[0], k[2], k[1], k[3], wrap), _shl(c, k[0], k[2], k[1], k[3], wrap),
                w ^ e, w & e,
                _shr(s, k[0], k[4], k[1], k[5], wrap), _shr(c, k[0], k[4], k[1], k[5], wrap))


@njit(inline="always")
def _count_word3(v, k, wrap):  # type: ignore[no-untyped-def]
    w, e, s, c = _row_sums(v, k, wrap)
    return vsum3(_shl(s, k[0], k[2], k[1], k[3], wrap), _shl(c, k[0], k[2], k[1], k[3], wrap),
                 w ^ e, w & e,
                 _shr(s, k[0], k[4], k[1], k[5], wrap), _shr(c, k[0], k[4], k[1], k[5], wrap))


@njit(inline="always")
def _twos_word(v, k, wrap):  # type: ignore[no-untyped-def]
    """Only the twos bit of the neighbour count (what Immigration needs of colour 1)."""
    w, e, s, c = _row_sums(v, k, wrap)
    st = _shl(s, k[0], k[2], k[1], k[3], wrap)
    sb = _shr(s, k[0], k[4], k[1], k[5], wrap)
    sm = w ^ e
    x = st ^ sm
    carry = (st & sm) | (sb & x)
    return (_shl(c, k[0], k[2], k[1], k[3], wrap) ^ (w & e)
            ^ _shr(c, k[0], k[4], k[1], k[5], wrap) ^ carry)


@njit(inline="always")
def _simple_loop(family, bm, sm, a, b, oa, ob, k, wrap):  # type: ignore[no-untyped-def]
    n = a.shape[0]
    if family == LIFE:
        for i in range(n):
            t0, t1, t2 = _count_word3(a[i] | b[i], k, wrap)
            oa[i], ob[i] = eval_life(a[i], b[i], t0, t1, t2)
    elif family == IMMIGRATION:
        for i in range(n):
            t0, t1, t2 = _count_word3(a[i] | b[i], k, wrap)
            oa[i], ob[i] = eval_immigration(a[i], b[i], t0, t1, t2, _twos_word(a[i], k, wrap))
    else:
        board = k[11]
        for i in range(n):
            t0, t1, t2, t3 = _count_word(a[i] | b[i], k, wrap)
            na, nb = eval_lifelike(a[i], b[i], t0, t1, t2, t3, bm, sm)
            oa[i] = na & board
            ob[i] = nb & board


@njit(cache=True)
def _words_simple(family: int, flags: np.ndarray, a: np.ndarray, b: np.ndarray,
                  oa: np.ndarray, ob: np.ndarray, masks: np.ndarray, torus: bool,
                  is88: bool) -> None:
    k = (masks[0], masks[1], masks[2], masks[3], masks[4], masks[5], masks[6], masks[7],
         masks[8], masks[9], masks[10], masks[11])
    if family == LIFELIKE:
        bm = (flags[0], flags[1], flags[2], flags[3], flags[4], flags[5], flags[6], flags[7],
              flags[8])
        sm = (flags[9], flags[10], flags[11], flags[12], flags[13], flags[14], flags[15],
              flags[16], flags[17])
    else:
        bm = (ZERO, ZERO, ZERO, ZERO, ZERO, ZERO, ZERO, ZERO, ZERO)
        sm = bm
    if is88 and family != LIFELIKE:
        if torus:
            _simple_loop(family, bm, sm, a, b, oa, ob, K88_TORUS, True)
        else:
            _simple_loop(family, bm, sm, a, b, oa, ob, K88_BOUNDED, False)
    elif torus:
        _simple_loop(family, bm, sm, a, b, oa, ob, k, True)
    else:
        _simple_loop(family, bm, sm, a, b, oa, ob, k, False)


@njit(cache=True)
def _words_p2life(flags: np.ndarray, a: np.ndarray, b: np.ndarray, oa: np.ndarray,
                  ob: np.ndarray, masks: np.ndarray, coins: np.ndarray, torus: bool,
                  is88: bool) -> None:
    k = (masks[0], masks[1], masks[2], masks[3], masks[4], masks[5], masks[6], masks[7],
         masks[8], masks[9], masks[10], masks[11])
    if is88:
        if torus:
            _p2life_loop(flags, a, b, oa, ob, K88_TORUS, coins, True)
        else:
            _p2life_loop(flags, a, b, oa, ob, K88_BOUNDED, coins, False)
    elif torus:
        _p2life_loop(flags, a, b, oa, ob, k, coins, True)
    else:
        _p2life_loop(flags, a, b, oa, ob, k, coins, False)


@njit(inline="always")
def _p2life_loop(flags, a, b, oa, ob, k, coins, wrap):  # type: ignore[no-untyped-def]
    f_coin, f_v1, f_c2, f_loose, f_unb = flags[0], flags[1], flags[2], flags[3], flags[4]
    for i in range(a.shape[0]):
        w0, w1, w2, w3 = _count_word(a[i], k, wrap)
        v0, v1, v2, v3 = _count_word(b[i], k, wrap)
        oa[i], ob[i], coins[i] = eval_p2life(a[i], b[i], w0, w1, w2, w3, v0, v1, v2, v3,
                                             f_coin, f_v1, f_c2, f_loose, f_unb)


@njit(cache=True)
def _words_generic(terms: np.ndarray, a: np.ndarray, b: np.ndarray, oa: np.ndarray,
                   ob: np.ndarray, masks: np.ndarray, coins: np.ndarray, c1: np.ndarray,
                   c2: np.ndarray, out: np.ndarray, eq1: np.ndarray, eq2: np.ndarray,
                   tu: np.ndarray, tv: np.ndarray) -> None:
    k = (masks[0], masks[1], masks[2], masks[3], masks[4], masks[5], masks[6], masks[7],
         masks[8], masks[9], masks[10], masks[11])
    n = a.shape[0]
    for i in range(n):
        t0, t1, t2, t3 = _count_word(a[i], k, True)
        c1[0, i] = t0
        c1[1, i] = t1
        c1[2, i] = t2
        c1[3, i] = t3
        t0, t1, t2, t3 = _count_word(b[i], k, True)
        c2[0, i] = t0
        c2[1, i] = t1
        c2[2, i] = t2
        c2[3, i] = t3
    eval_terms(c1[:, :n], c2[:, :n], a, b, terms, out[:, :n], eq1[:, :n], eq2[:, :n],
               tu[:n], tv[:n])
    board = masks[11]
    for i in range(n):
        oa[i] = out[0, i] & board
        ob[i] = out[1, i] & board
        coins[i] = out[2, i] & board


@njit(cache=True)
def evolve_words(family: int, flags: np.ndarray, terms: np.ndarray, a: np.ndarray,
                 b: np.ndarray, masks: np.ndarray, torus: bool, is88: bool, seeds: np.ndarray,
                 generation: int, generations: int) -> None:
    """Step one-word boards ``generations`` times in place; ``seeds`` one per board.

    ``masks`` come from :func:`word_masks`; ``is88`` selects the 8x8 constant loops.
    """
    n = a.shape[0]
    m = min(CHUNK, n)
    ta = np.empty(m, dtype=np.uint64)
    tb = np.empty(m, dtype=np.uint64)
    coins = np.zeros(m, dtype=np.uint64)
    c1 = np.empty((4, m), dtype=np.uint64)
    c2 = np.empty((4, m), dtype=np.uint64)
    out = np.empty((3, m), dtype=np.uint64)
    eq1 = np.empty((9, m), dtype=np.uint64)
    eq2 = np.empty((9, m), dtype=np.uint64)
    tu = np.empty(m, dtype=np.uint64)
    tv = np.empty(m, dtype=np.uint64)
    for lo in range(0, n, m):
        hi = min(lo + m, n)
        ca = a[lo:hi]
        cb = b[lo:hi]
        na = ta[:hi - lo]
        nb = tb[:hi - lo]
        nc = coins[:hi - lo]
        for g in range(generations):
            if family in (P2LIFE, GENERIC):
                if family == P2LIFE:
                    _words_p2life(flags, ca, cb, na, nb, masks, nc, torus, is88)
                else:
                    _words_generic(terms, ca, cb, na, nb, masks, nc, c1, c2, out, eq1, eq2,
                                   tu, tv)
                for i in range(hi - lo):
                    if nc[i]:
                        start = coin_start(seeds[lo + i], generation + g)
                        to_a, to_b = coin_split(nc[i], start, 0, 1)
                        na[i] |= to_a
                        nb[i] |= to_b
            else:
                _words_simple(family, flags, ca, cb, na, nb, masks, torus, is88)
            # Ping-pong between the chunk of the batch and the scratch buffers.
            ca, na = na, ca
            cb, nb = nb, cb
        if generations % 2:
            a[lo:hi] = ca
            b[lo:hi] = cb


# -- larger boards: padded planes, one board at a time ----------------------------------------


@njit(cache=True)
def pack_boards(cells: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Boards ``(n, h, w)`` as padded planes ``(n, h + 2, words + 2)``."""
    n, height, width = cells.shape
    nw = (width + 63) // 64
    a = np.zeros((n, height + 2, nw + 2), dtype=np.uint64)
    b = np.zeros((n, height + 2, nw + 2), dtype=np.uint64)
    for i in range(n):
        _pack(cells[i], a[i], b[i])
    return a, b


@njit(cache=True)
def unpack_boards(a: np.ndarray, b: np.ndarray, height: int, width: int) -> np.ndarray:
    """The ``(n, h, w)`` int8 boards held by padded planes."""
    n = a.shape[0]
    out = np.empty((n, height, width), dtype=np.int8)
    for i in range(n):
        _unpack(a[i], b[i], out[i])
    return out


@njit(cache=True)
def evolve_boards(family: int, flags: np.ndarray, terms: np.ndarray, a: np.ndarray,
                  b: np.ndarray, height: int, width: int, torus: bool, seeds: np.ndarray,
                  generation: int, generations: int) -> None:
    """Step padded boards ``generations`` times in place, one board at a time."""
    oa = np.zeros_like(a[0])
    ob = np.zeros_like(b[0])
    scratch = np.empty(oa.size, dtype=np.uint64)
    for i in range(a.shape[0]):
        pa = a[i]
        pb = b[i]
        for g in range(generations):
            oa[:] = 0
            ob[:] = 0
            step_planes(family, flags, terms, pa, pb, oa, ob, height, width, torus, seeds[i],
                        generation + g, scratch)
            pa[:] = oa
            pb[:] = ob


# -- the Python-facing function ---------------------------------------------------------------


def seed_words(seed: int | np.ndarray, boards: int) -> np.ndarray:
    """One seed per board, modulo 2**64, as a ``uint64`` array.

    >>> seed_words(-1, 2).tolist(), seed_words([3, 2**64 + 4], 2).tolist()
    ([18446744073709551615, 18446744073709551615], [3, 4])
    """
    if np.ndim(seed) == 0:
        return np.full(boards, int(seed) & MASK64, dtype=np.uint64)
    values = np.asarray(seed)
    if values.dtype.kind in "iu":
        # Two's complement wrap-around is the same as reducing modulo 2**64.
        return np.broadcast_to(values.astype(np.int64 if values.dtype.kind == "i" else np.uint64)
                               .view(np.uint64), (boards,)).copy()
    values = np.broadcast_to(values.astype(object), (boards,))
    return np.array([int(s) & MASK64 for s in values], dtype=np.uint64)


def batch_evolve(cells: np.ndarray, rule: Rule, generations: int, *, torus: bool = False,
                 seed: int | np.ndarray = 0, generation: int = 0,
                 plan: Plan | None = None) -> np.ndarray:
    """A batch ``(n, h, w)`` of int8 boards after ``generations`` steps, packed throughout.

    ``seed`` is one int for every board or an array of one seed per board.
    """
    plan = plan or plan_for(rule)
    n, height, width = cells.shape
    seeds = seed_words(seed, n)
    cells = np.ascontiguousarray(cells, dtype=np.int8)
    if height * width <= 64:
        a, b = pack_words(cells)
        evolve_words(plan.family, plan.flags, plan.terms, a, b,
                     word_masks(height, width, bool(torus)), bool(torus),
                     (height, width) == (8, 8), seeds, int(generation), int(generations))
        return unpack_words(a, b, height, width)
    a, b = pack_boards(cells)
    evolve_boards(plan.family, plan.flags, plan.terms, a, b, height, width, bool(torus), seeds,
                  int(generation), int(generations))
    return unpack_boards(a, b, height, width)


__all__ = ["batch_evolve", "evolve_boards", "evolve_words", "pack_words", "unpack_words",
           "words_for"]
