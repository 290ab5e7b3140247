"""Bitsliced building blocks shared by the bit-parallel kernels, and rule plans.

Each ``uint64`` word holds 64 cells; the neighbour counts of 64 cells at once are kept as
bit planes (``t0`` the ones bit, ``t1`` the twos bit...), added with full adders, and the
rule is a boolean function of those planes. A rule is turned into a :class:`Plan`: one of a
few *families* with a hand-derived boolean formula (``life`` B3/S23, Life-like B/S rules,
``immigration``, the p2life family) selected by exact comparison of regenerated tables, or
the generic family, which evaluates any ``(3, 9, 9)`` table as an OR of products
``state & (n1 in I) & (n2 in J)`` (rows of the table with equal column sets grouped).

>>> plan_for(Rule.named("p2life")).family == P2LIFE
True
>>> plan_for(Rule.from_string("0 2 2 -> coin; 1 * * -> 1")).family == GENERIC
True
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from numba import njit

from lifearena.life.coin import GENERATION_MULTIPLIER, INDEX_MULTIPLIER, MASK64, MIX_1, MIX_2
from lifearena.life.rules import COIN, Rule

ONE = np.uint64(1)
ZERO = np.uint64(0)
ALL = np.uint64(0xFFFFFFFFFFFFFFFF)
S1 = np.uint64(1)
S63 = np.uint64(63)
_GEN_MUL = np.uint64(GENERATION_MULTIPLIER)
_IDX_MUL = np.uint64(INDEX_MULTIPLIER)
_MIX_1 = np.uint64(MIX_1)
_MIX_2 = np.uint64(MIX_2)

GENERIC, LIFE, LIFELIKE, IMMIGRATION, P2LIFE = 0, 1, 2, 3, 4
FAMILY_NAMES = {GENERIC: "generic", LIFE: "life", LIFELIKE: "life-like",
                IMMIGRATION: "immigration", P2LIFE: "p2life"}


# -- adders -----------------------------------------------------------------------------------


@njit(inline="always")
def hsum3(w: np.uint64, c: np.uint64, e: np.uint64) -> tuple[np.uint64, np.uint64]:
    """Sum of three bits per lane: (ones, twos)."""
    x = w ^ e
    return x ^ c, (w & e) | (c & x)


@njit(inline="always")
def vsum(st: np.uint64, kt: np.uint64, sm: np.uint64, km: np.uint64, sb: np.uint64,
         kb: np.uint64) -> tuple[np.uint64, np.uint64, np.uint64, np.uint64]:
    """Sum of three 2-bit numbers ``s + 2k`` (at most 3 + 2 + 3 = 8) as four bit planes."""
    x = st ^ sm
    b0 = x ^ sb
    c1 = (st & sm) | (sb & x)
    y = kt ^ km
    s2 = y ^ kb
    c2 = (kt & km) | (kb & y)
    b1 = s2 ^ c1
    c3 = s2 & c1
    return b0, b1, c2 ^ c3, c2 & c3


@njit(inline="always")
def vsum3(st: np.uint64, kt: np.uint64, sm: np.uint64, km: np.uint64, sb: np.uint64,
          kb: np.uint64) -> tuple[np.uint64, np.uint64, np.uint64]:
    """:func:`vsum` without the eights bit: the count modulo 8 (8 reads as 0)."""
    x = st ^ sm
    b0 = x ^ sb
    c1 = (st & sm) | (sb & x)
    y = kt ^ km
    s2 = y ^ kb
    c2 = (kt & km) | (kb & y)
    return b0, s2 ^ c1, c2 ^ (s2 & c1)


# -- rule formulas (per word) -----------------------------------------------------------------


@njit(inline="always")
def eval_life(a: np.uint64, b: np.uint64, t0: np.uint64, t1: np.uint64,
              t2: np.uint64) -> tuple[np.uint64, np.uint64]:
    """B3/S23 from the total count modulo 8 (0 and 8 behave alike)."""
    s23 = t1 & ~t2
    return (a & s23) | (s23 & t0 & ~(a | b)), b & s23


@njit(inline="always")
def eval_immigration(a: np.uint64, b: np.uint64, t0: np.uint64, t1: np.uint64, t2: np.uint64,
                     a1: np.uint64) -> tuple[np.uint64, np.uint64]:
    """Immigration; ``a1`` is the twos bit of the colour-1 count (n1 >= 2 when n == 3)."""
    s23 = t1 & ~t2
    born = s23 & t0 & ~(a | b)
    return (a & s23) | (born & a1), (b & s23) | (born & ~a1)


@njit(inline="always")
def decode9(t0: np.uint64, t1: np.uint64, t2: np.uint64, t3: np.uint64,
            m: tuple) -> np.uint64:
    """OR of ``count == k`` over the k whose mask word ``m[k]`` is all ones."""
    n0, n1, n2 = ~t0, ~t1, ~t2
    lo0, lo1, lo2, lo3 = n1 & n0, n1 & t0, t1 & n0, t1 & t0
    hi0 = n2 & ~t3
    hi1 = t2
    r = (hi0 & ((lo0 & m[0]) | (lo1 & m[1]) | (lo2 & m[2]) | (lo3 & m[3])))
    r |= hi1 & ((lo0 & m[4]) | (lo1 & m[5]) | (lo2 & m[6]) | (lo3 & m[7]))
    return r | (t3 & m[8])


@njit(inline="always")
def eval_lifelike(a: np.uint64, b: np.uint64, t0: np.uint64, t1: np.uint64, t2: np.uint64,
                  t3: np.uint64, bm: tuple, sm: tuple) -> tuple[np.uint64, np.uint64]:
    """A Life-like rule: ``bm``/``sm`` are 9 mask words for the birth/survival counts."""
    born = decode9(t0, t1, t2, t3, bm) & ~(a | b)
    keep = decode9(t0, t1, t2, t3, sm)
    return (a & keep) | born, b & keep


@njit(inline="always")
def eval_p2life(a: np.uint64, b: np.uint64, w0: np.uint64, w1: np.uint64, w2: np.uint64,
                w3: np.uint64, b0: np.uint64, b1: np.uint64, b2: np.uint64, b3: np.uint64,
                f_coin: np.uint64, f_v1: np.uint64, f_c2: np.uint64, f_loose: np.uint64,
                f_unb: np.uint64) -> tuple[np.uint64, np.uint64, np.uint64]:
    """The p2life family; the flags are (coin, birth-below-3, clause 2, loose, unbounded)."""
    # d = w - b as a 5-bit two's complement number, by ripple-borrow subtraction.
    d0 = w0 ^ b0
    br = ~w0 & b0
    x = w1 ^ b1
    d1 = x ^ br
    br = (~w1 & b1) | (~x & br)
    x = w2 ^ b2
    d2 = x ^ br
    br = (~w2 & b2) | (~x & br)
    x = w3 ^ b3
    d3 = x ^ br
    d4 = (~w3 & b3) | (~x & br)
    pos_small = ~d4 & ~d3 & ~d2          # 0 <= d <= 3
    d23 = pos_small & d1                 # d in {2, 3}
    d1_ = pos_small & ~d1 & d0           # d == 1
    dge2 = ~d4 & (d3 | d2 | d1)          # d >= 2
    neg_big = d4 & d3 & d2               # -4 <= d <= -1
    e23 = neg_big & (d1 ^ d0)            # d in {-2, -3}
    e1 = neg_big & d1 & d0               # d == -1
    ege2 = d4 & ~(d3 & d2 & d1 & d0)     # d <= -2
    wge2 = w1 | w2 | w3
    bge2 = b1 | b2 | b3
    keep_a = d23 | (dge2 & f_unb) | (d1_ & f_c2 & (wge2 | f_loose))
    keep_b = e23 | (ege2 & f_unb) | (e1 & f_c2 & (bge2 | f_loose))
    empty = ~(a | b)
    w_is3 = w1 & w0 & ~w2
    b_is3 = b1 & b0 & ~b2
    w_lt3 = ~w3 & ~w2 & ~(w1 & w0)
    b_lt3 = ~b3 & ~b2 & ~(b1 & b0)
    born_a = w_is3 & (b_lt3 | (~b_is3 & ~f_v1))
    born_b = b_is3 & (w_lt3 | (~w_is3 & ~f_v1))
    return ((a & keep_a) | (empty & born_a), (b & keep_b) | (empty & born_b),
            empty & w_is3 & b_is3 & f_coin)


# -- coins ------------------------------------------------------------------------------------


@njit(inline="always")
def mix64(z: np.uint64) -> np.uint64:
    """SplitMix64's finaliser, as in :mod:`lifearena.life.coin`."""
    z = (z ^ (z >> np.uint64(30))) * _MIX_1
    z = (z ^ (z >> np.uint64(27))) * _MIX_2
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def coin_start(seed: np.uint64, generation: np.int64) -> np.uint64:
    """The per-(seed, generation) half of the coin hash."""
    return mix64(seed ^ (np.uint64(generation) * _GEN_MUL))


@njit(inline="always")
def popcount64(w: np.uint64) -> np.uint64:
    w = w - ((w >> S1) & np.uint64(0x5555555555555555))
    w = (w & np.uint64(0x3333333333333333)) + ((w >> np.uint64(2)) & np.uint64(0x3333333333333333))
    w = (w + (w >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return (w * np.uint64(0x0101010101010101)) >> np.uint64(56)


@njit(inline="always")
def coin_split(coins: np.uint64, start: np.uint64, base: np.int64,
               stride: np.int64) -> tuple[np.uint64, np.uint64]:
    """Split the coin bits of one word into (colour 1 bits, colour 2 bits).

    Bit ``i`` of the word is the cell with index ``base + i * stride`` (``stride`` 1 for a
    row of a grid); its colour is the coin hash of that index.
    """
    to_a = ZERO
    to_b = ZERO
    while coins:
        low = coins & (~coins + ONE)
        bit = popcount64(low - ONE)
        index = np.uint64(base + np.int64(bit) * stride)
        z = mix64(start ^ (index * _IDX_MUL))
        if z >> S63:
            to_b |= low
        else:
            to_a |= low
        coins ^= low
    return to_a, to_b


# -- generic tables ---------------------------------------------------------------------------


@njit(inline="always")
def _decode_counts(c: np.ndarray, eq: np.ndarray, m: int) -> None:
    for x in range(m):
        t0, t1, t2, t3 = c[0, x], c[1, x], c[2, x], c[3, x]
        n0, n1, n2 = ~t0, ~t1, ~t2
        lo0, lo1, lo2, lo3 = n1 & n0, n1 & t0, t1 & n0, t1 & t0
        hi0 = n2 & ~t3
        eq[0, x] = hi0 & lo0
        eq[1, x] = hi0 & lo1
        eq[2, x] = hi0 & lo2
        eq[3, x] = hi0 & lo3
        eq[4, x] = t2 & lo0
        eq[5, x] = t2 & lo1
        eq[6, x] = t2 & lo2
        eq[7, x] = t2 & lo3
        eq[8, x] = t3


@njit(cache=True)
def eval_terms(c1: np.ndarray, c2: np.ndarray, a: np.ndarray, b: np.ndarray, terms: np.ndarray,
               out: np.ndarray, eq1: np.ndarray, eq2: np.ndarray, tu: np.ndarray,
               tv: np.ndarray) -> None:
    """Evaluate a generic table over ``m`` words at once.

    ``c1``/``c2`` are ``(4, m)`` count planes of colours 1/2, ``a``/``b`` the cells,
    ``terms`` rows of ``(state, output, n1 mask, n2 mask)``; ``out`` gets ``(3, m)``: the
    colour-1, colour-2 and coin planes. ``eq1, eq2, tu, tv`` are scratch space.
    """
    m = a.shape[0]
    _decode_counts(c1, eq1, m)
    _decode_counts(c2, eq2, m)
    for x in range(m):
        out[0, x] = ZERO
        out[1, x] = ZERO
        out[2, x] = ZERO
    for t in range(terms.shape[0]):
        state, target, imask, jmask = terms[t, 0], terms[t, 1], terms[t, 2], terms[t, 3]
        for x in range(m):
            tu[x] = ZERO
            tv[x] = ZERO
        for k in range(9):
            if (imask >> k) & 1:
                for x in range(m):
                    tu[x] |= eq1[k, x]
            if (jmask >> k) & 1:
                for x in range(m):
                    tv[x] |= eq2[k, x]
        row = out[target]
        if state == 0:
            for x in range(m):
                row[x] |= ~(a[x] | b[x]) & tu[x] & tv[x]
        elif state == 1:
            for x in range(m):
                row[x] |= a[x] & tu[x] & tv[x]
        else:
            for x in range(m):
                row[x] |= b[x] & tu[x] & tv[x]


# -- plans ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Plan:
    """How the bit-parallel kernels evaluate one rule.

    ``flags`` are all-ones/all-zero words parametrising the family's formula; ``terms`` the
    ``(state, output, n1 mask, n2 mask)`` rows of the generic family (empty otherwise).
    """

    family: int
    flags: np.ndarray
    terms: np.ndarray
    uses_coin: bool

    @property
    def name(self) -> str:
        """The family's name, e.g. ``"immigration"``."""
        return FAMILY_NAMES[self.family]


def _mask_words(bits: list[bool]) -> np.ndarray:
    return np.array([ALL if bit else ZERO for bit in bits], dtype=np.uint64)


def _lifelike_table(born: set[int], survive: set[int]) -> np.ndarray:
    table = np.zeros((3, 9, 9), dtype=np.int8)
    for n1 in range(9):
        for n2 in range(9 - n1):
            n = n1 + n2
            table[0, n1, n2] = 1 if n in born else 0
            table[1, n1, n2] = 1 if n in survive else 0
            table[2, n1, n2] = 2 if n in survive else 0
    return table


P2LIFE_FLAG_NAMES = ("coin", "birth-below-3", "clause-2", "loose", "unbounded")


@lru_cache(maxsize=1)
def _p2life_tables() -> list[tuple[tuple[bool, ...], bytes]]:
    """Every flag combination of the p2life family with its table."""
    found = []
    for coin in (True, False):
        for v1 in (False, True):
            for c2, loose, unb in ((True, False, False), (False, False, False),
                                   (True, True, False), (True, False, True)):
                table = np.zeros((3, 9, 9), dtype=np.int8)
                for w in range(9):
                    for b in range(9 - w):
                        born_w = w == 3 and (b < 3 if v1 else b != 3)
                        born_b = b == 3 and (w < 3 if v1 else w != 3)
                        if w == 3 and b == 3:
                            table[0, w, b] = COIN if coin else 0
                        elif born_w:
                            table[0, w, b] = 1
                        elif born_b:
                            table[0, w, b] = 2
                        for state, own, other in ((1, w, b), (2, b, w)):
                            d = own - other
                            keep = d in (2, 3) or (unb and d >= 2)
                            keep = keep or (c2 and d == 1 and (own >= 2 or loose))
                            table[state, w, b] = state if keep else 0
                found.append(((coin, v1, c2, loose, unb), table.tobytes()))
    return found


def _generic_terms(table: np.ndarray) -> np.ndarray:
    terms: list[tuple[int, int, int, int]] = []
    for state in range(3):
        for target, value in ((0, 1), (1, 2), (2, COIN)):
            hits = table[state] == value
            if not hits.any():
                continue
            # Group rows (n1) with the same set of columns (n2), or columns with the same
            # rows, whichever needs fewer terms.
            by_rows: dict[int, int] = {}
            by_cols: dict[int, int] = {}
            for i in range(9):
                cols = sum(1 << j for j in range(9) if hits[i, j])
                if cols:
                    by_rows[cols] = by_rows.get(cols, 0) | (1 << i)
                rows = sum(1 << j for j in range(9) if hits[j, i])
                if rows:
                    by_cols[rows] = by_cols.get(rows, 0) | (1 << i)
            if len(by_rows) <= len(by_cols):
                terms.extend((state, target, rows, cols) for cols, rows in by_rows.items())
            else:
                terms.extend((state, target, rows, cols) for rows, cols in by_cols.items())
    return np.array(terms, dtype=np.int64).reshape(-1, 4)


@lru_cache(maxsize=64)
def _plan_for_table(key: bytes) -> Plan:
    table = np.frombuffer(key, dtype=np.int8).reshape(3, 9, 9)
    empty_terms = np.zeros((0, 4), dtype=np.int64)
    uses_coin = bool(np.any(table == COIN))
    if not uses_coin:
        if key == _lifelike_table({3}, {2, 3}).tobytes():
            return Plan(LIFE, np.zeros(0, dtype=np.uint64), empty_terms, False)
        born = {n for n in range(9) if table[0, n, 0] == 1}
        survive = {n for n in range(9) if table[1, n, 0] == 1}
        if key == _lifelike_table(born, survive).tobytes():
            flags = _mask_words([n in born for n in range(9)] + [n in survive for n in range(9)])
            return Plan(LIFELIKE, flags, empty_terms, False)
        from lifearena.life.rules import _immigration, _table_from

        if key == _table_from(_immigration).tobytes():
            return Plan(IMMIGRATION, np.zeros(0, dtype=np.uint64), empty_terms, False)
    for flags, candidate in _p2life_tables():
        if key == candidate:
            return Plan(P2LIFE, _mask_words(list(flags)), empty_terms, flags[0])
    return Plan(GENERIC, np.zeros(0, dtype=np.uint64), _generic_terms(table), uses_coin)


def plan_for(rule: Rule) -> Plan:
    """The kernel plan of ``rule`` (cached by table)."""
    return _plan_for_table(rule.table.tobytes())


def generic_plan(rule: Rule) -> Plan:
    """The generic-table plan of ``rule``, whatever its family (for tests and comparisons)."""
    table = rule.table
    return Plan(GENERIC, np.zeros(0, dtype=np.uint64), _generic_terms(table),
                bool(np.any(table == COIN)))


def seed_word(seed: int) -> np.uint64:
    """``seed`` modulo 2**64 as the kernels take it."""
    return np.uint64(int(seed) & MASK64)
