"""HashLife: Gosper's algorithm on the unbounded plane, for every deterministic rule.

A pattern is a quadtree of **hash-consed** nodes: a node of level ``n`` is a square of
``2**n`` cells made of four nodes of level ``n - 1``, and one table holds every node once,
so that equal squares anywhere in space or time are the same object. Each node of level
``n >= 2`` remembers its **result**, the centre square of side ``2**(n - 1)`` advanced
``2**(n - 2)`` generations, computed once from nine overlapping sub-squares and memoised;
a smaller step of ``2**k`` generations (``k < n - 2``) is memoised per ``(node, k)``. A
glider gun then runs to generation 2**30 by building a few thousand nodes.

Representation, chosen for speed in plain Python (no compiled code: the work is hashing
and pointer chasing, which numba arrays would not make faster, while CPython's dicts and
``__slots__`` objects are quick at exactly that):

* a **2x2 square** (level 1) is a small ``int``: two bits a cell, ``nw | ne << 2 |
  sw << 4 | se << 6``, so the bottom of the tree costs no objects at all;
* a node of level 2 or more is a :class:`_Node` with ``__slots__`` holding its four
  children, its level, its population of each colour and its memoised result; the table
  is a ``dict`` from the tuple of children to the node (tuples of objects hash by
  identity, in C);
* a 4x4 node's result (one generation of its centre 2x2) is looked up cell by cell in
  :func:`~lifearena.life.universe.transition_table`, so every rule with a table of
  next states works: Life-like rules, Immigration, any two-colour table without coin
  entries, and any rule object offering a ``transition_table()`` method. A rule with a
  coin entry is refused (HashLife's memo needs a step that depends on the cells alone),
  and so is one that gives birth with no live neighbours (B0 fills the unbounded plane).

**Memory cap.** The table may hold at most ``max_nodes`` nodes (by default
:data:`DEFAULT_MEGABYTES` at :data:`NODE_BYTES` a node). When a step needs more, it stops,
every memoised result and every node the current pattern does not use are dropped
(**garbage collection**) and the step starts again, split in two halves if it still does
not fit; when not even one generation fits, :class:`~lifearena.life.growing.GrowthLimitError`
says so in one line and the universe is left as it was before :meth:`HashLife.step`.

**Coordinates** are Golly's, so that a macrocell file's tree is this tree: the root of
level ``L`` covers ``x`` in ``[-2**(L-1), 2**(L-1))`` and ``y`` in ``[1 - 2**(L-1),
1 + 2**(L-1))`` (Golly's HashLife counts ``y`` upwards inside and flips it on the screen).

**Steps.** :meth:`HashLife.step` advances any number of generations as steps of ``2**k``
whose sum is the count: the binary digits of the count, largest first, or, with
``step_exponent`` set (Golly's ``-i 2**k``), as many steps of ``2**step_exponent`` as fit
and the binary digits of the rest. :meth:`HashLife.step_by_exponent` advances one step.

>>> import numpy as np
>>> glider = np.array([[0, 1, 0], [0, 0, 1], [1, 1, 1]], dtype=np.int8)
>>> universe = HashLife.from_cells(glider, "B3/S23")
>>> universe.step(4)
>>> universe.generation, universe.population(), universe.bounding_box()
(4, (5, 0), Box(x=1, y=1, width=3, height=3))
>>> universe.step_exponent = 10
>>> universe.step_by_exponent()
>>> universe.generation, universe.bounding_box()
(1028, Box(x=257, y=257, width=3, height=3))
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator
from typing import Any, Protocol

import numpy as np

from lifearena import caps
from lifearena.errors import BadParameterError, GridError, RuleError
from lifearena.life.growing import GrowthLimitError
from lifearena.life.rules import COIN, Rule, as_rule
from lifearena.life.universe import CONFIGURATIONS, Box, transition_table

DEFAULT_MEGABYTES = 1024
"""The memory budget of a universe when ``max_nodes`` is not given."""

NODE_BYTES = 250
"""Bytes one node costs: the object with its slots, its key tuple, its table entry and its
memoised results (``tracemalloc`` on CPython 3.11 gives about 205; the rest leaves room
for the table growing by doubling)."""

MIN_NODES = 64
"""The smallest ``max_nodes`` accepted: below it not even a glider's tree and its step fit."""

HEADROOM = 0.5
"""A step starts with a garbage collection when the table is fuller than this share of
``max_nodes`` (and twice as full as the last collection left it)."""

MAX_EXPONENT = 1024
"""The largest step exponent: 2**1024 generations is far past any plan."""

_MIN_LEVEL = 4
"""The root is never smaller than 16x16, so that its great-grandchildren are squares."""


class RuleLike(Protocol):
    """Any rule object with a name and a ``(3**9,)`` table of next states."""

    name: str

    def transition_table(self) -> np.ndarray: ...


AnyRule = Rule | str | RuleLike


class _Node:
    """A square of ``2**level`` cells (level >= 2) made of four children."""

    __slots__ = ("level", "ne", "nw", "pop1", "pop2", "result", "se", "sw")

    def __init__(self, nw: Any, ne: Any, sw: Any, se: Any, level: int,
                 pop1: int, pop2: int) -> None:
        self.nw = nw
        self.ne = ne
        self.sw = sw
        self.se = se
        self.level = level
        self.pop1 = pop1
        self.pop2 = pop2
        self.result: Any = None


Square = _Node | int
"""A node, or a 2x2 square packed in an int."""


class _TableFull(Exception):
    """The node table reached ``max_nodes`` in the middle of a computation."""


def _popcounts() -> tuple[list[int], list[int]]:
    ones, twos = [], []
    for code in range(256):
        cells = [(code >> shift) & 3 for shift in (0, 2, 4, 6)]
        ones.append(cells.count(1))
        twos.append(cells.count(2))
    return ones, twos


_POP1, _POP2 = _popcounts()


def _shares() -> tuple[list[int], ...]:
    """For each quarter of a 4x4 square (nw, ne, sw, se) and each packed 2x2 square, what
    its cells add to the transition-table indices of the four centre cells, one index in
    each 16 bits (indices stay below 3**9 < 2**16, so the sum of four never carries)."""
    weights = {(-1, -1): 1, (0, -1): 3, (1, -1): 9, (-1, 0): 27, (1, 0): 81,
               (-1, 1): 243, (0, 1): 729, (1, 1): 2187, (0, 0): 6561}  # (dx, dy), see universe
    centres = ((1, 1), (2, 1), (1, 2), (2, 2))
    tables: list[list[int]] = []
    for left, top in ((0, 0), (2, 0), (0, 2), (2, 2)):
        table = []
        for code in range(256):
            total = 0
            for shift, (dx, dy) in zip((0, 2, 4, 6), ((0, 0), (1, 0), (0, 1), (1, 1)),
                                       strict=True):
                state = code >> shift & 3
                for field, (cx, cy) in enumerate(centres):
                    weight = weights.get((left + dx - cx, top + dy - cy), 0)
                    total += state * weight << (16 * field)
            table.append(total)
        tables.append(table)
    return tuple(tables)


_SHARES = _shares()


def _live_mask(code: int) -> int:
    """Both bits set for every live cell of a packed 2x2 square."""
    mask = (code | (code >> 1)) & 0x55
    return mask | (mask << 1)


@contextlib.contextmanager
def _deep_recursion() -> Iterator[None]:
    """Room for recursion through every level of the tree: one frame or two a level, and a
    root may pass level :data:`MAX_EXPONENT`."""
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 4 * MAX_EXPONENT + 400))
    try:
        yield
    finally:
        sys.setrecursionlimit(limit)


def _live(square: Square) -> int:
    """Live cells of a square."""
    if type(square) is int:
        return _POP1[square] + _POP2[square]
    return square.pop1 + square.pop2  # type: ignore[union-attr]


def nodes_for_megabytes(megabytes: float) -> int:
    """The ``max_nodes`` that fits a budget of ``megabytes`` (see :data:`NODE_BYTES`).

    >>> nodes_for_megabytes(1024) > 3_000_000
    True
    """
    return max(MIN_NODES, int(megabytes * 2**20 // NODE_BYTES))


def rule_table(rule: AnyRule) -> tuple[str, list[int]]:
    """The name and the ``(3**9,)`` next-state table of ``rule``, checked for HashLife:
    :class:`RuleError` when it has a coin entry, a state outside 0..2 or a birth with no
    live neighbours.

    >>> rule_table("B3/S23")[1][1 + 3 + 9]  # an empty cell with three live neighbours
    1
    >>> rule_table("p2life")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    lifearena.errors.RuleError: rule 'p2life' has coin entries (a fair coin decides some ...
    """
    if isinstance(rule, (Rule, str)):
        rule = as_rule(rule)
        name, table = rule.name, transition_table(rule)
    elif hasattr(rule, "transition_table") and hasattr(rule, "name"):
        name, table = str(rule.name), np.asarray(rule.transition_table())
    else:
        raise RuleError(f"expected a Rule, a rule string or an object with a name and a "
                        f"transition_table(), got {type(rule).__name__}")
    if table.shape != (CONFIGURATIONS,):
        raise RuleError(f"rule {name!r} has a transition table of shape {table.shape}; "
                        f"expected ({CONFIGURATIONS},)")
    if np.any(table == COIN):
        raise RuleError(f"rule {name!r} has coin entries (a fair coin decides some births); "
                        "HashLife needs a deterministic rule")
    if table.min() < 0 or table.max() > 2:
        raise RuleError(f"rule {name!r} has next states outside 0, 1, 2")
    if table[0] != 0:
        raise RuleError(f"rule {name!r} gives birth with no live neighbours (B0), which fills "
                        "the unbounded plane; expected a rule that keeps empty space empty")
    return name, [int(value) for value in table]


class HashLife:
    """A pattern on the unbounded plane under a deterministic ``rule``, run by HashLife.

    ``rule`` is a :class:`~lifearena.life.rules.Rule`, a rule string, or any object with a
    ``name`` and a ``transition_table()``. ``max_nodes`` caps the node table (default:
    :data:`DEFAULT_MEGABYTES`); ``step_exponent`` is Golly's step exponent (``None``: steps
    follow the binary digits of each count).
    """

    def __init__(self, rule: AnyRule, *, max_nodes: int | None = None,
                 step_exponent: int | None = None) -> None:
        self.rule_name, self._table = rule_table(rule)
        self.rule: Any = as_rule(rule) if isinstance(rule, str) else rule
        if max_nodes is None:
            max_nodes = nodes_for_megabytes(DEFAULT_MEGABYTES)
        if not isinstance(max_nodes, int) or max_nodes < MIN_NODES:
            raise BadParameterError(f"max_nodes {max_nodes!r} is out of range; expected an "
                                    f"integer of at least {MIN_NODES}")
        self.max_nodes = max_nodes
        self.step_exponent = step_exponent
        self.generation = 0
        self.collections = 0
        """How many times the table was garbage-collected."""
        self._nodes: dict[tuple[Square, Square, Square, Square], _Node] = {}
        self._slow: dict[tuple[_Node, int], Square] = {}
        self._fits = MAX_EXPONENT  # the largest step the memory cap let through
        self._kept = 0  # nodes left by the last garbage collection
        self._empties: list[Square] = [0, 0]
        self._root: _Node = self.empty(_MIN_LEVEL)  # type: ignore[assignment]

    # -- construction -------------------------------------------------------------------

    @classmethod
    def from_cells(cls, cells: np.ndarray, rule: AnyRule, x: int = 0, y: int = 0,
                   **options: Any) -> HashLife:
        """A universe holding ``cells`` with its top-left cell at ``(x, y)``."""
        universe = cls(rule, **options)
        universe.add(cells, x, y)
        return universe

    @classmethod
    def from_tree(cls, build: Callable[[HashLife], Square], rule: AnyRule, *,
                  generation: int = 0, **options: Any) -> HashLife:
        """A universe whose root is ``build(universe)``, a tree made with the new
        universe's :meth:`join` and :meth:`empty` (a macrocell reader does this), placed by
        Golly's convention (see the module docstring). :class:`GrowthLimitError` when the
        tree needs more than ``max_nodes``."""
        universe = cls(rule, **options)

        def change() -> None:
            universe._root = universe._grown(build(universe))

        with _deep_recursion():
            universe._with_room(change)
        universe.generation = generation
        return universe

    @classmethod
    def from_root(cls, root: _Node, rule: AnyRule, generation: int = 0,
                  **options: Any) -> HashLife:
        """A universe holding the tree ``root`` of another universe (copied into its own
        table)."""

        def build(universe: HashLife) -> Square:
            memo: dict[int, Square] = {}

            def copy(node: Square) -> Square:
                if type(node) is int:
                    return node
                found = memo.get(id(node))
                if found is None:
                    found = universe.join(copy(node.nw), copy(node.ne),  # type: ignore[union-attr]
                                          copy(node.sw), copy(node.se))  # type: ignore[union-attr]
                    memo[id(node)] = found
                return found

            return copy(root)

        return cls.from_tree(build, rule, generation=generation, **options)

    @property
    def step_exponent(self) -> int | None:
        """Golly's step exponent: :meth:`step` goes in steps of ``2**step_exponent``."""
        return self._step_exponent

    @step_exponent.setter
    def step_exponent(self, value: int | None) -> None:
        if value is not None and (not isinstance(value, int) or not 0 <= value <= MAX_EXPONENT):
            raise BadParameterError(f"step exponent {value!r} is out of range; expected an "
                                    f"integer from 0 to {MAX_EXPONENT}")
        self._step_exponent = value

    @property
    def root(self) -> _Node:
        """The quadtree (read-only: nodes are shared and never change)."""
        return self._root

    @property
    def node_count(self) -> int:
        """Nodes in the table now."""
        return len(self._nodes)

    # -- the node table -----------------------------------------------------------------

    def join(self, nw: Square, ne: Square, sw: Square, se: Square) -> _Node:
        """The one node with these four children (2x2 squares as packed ints)."""
        key = (nw, ne, sw, se)
        node = self._nodes.get(key)
        if node is not None:
            return node
        # the memo of shorter steps is held by the same budget
        if len(self._nodes) + len(self._slow) >= self.max_nodes:
            raise _TableFull
        if type(nw) is int:
            node = _Node(nw, ne, sw, se, 2,
                         _POP1[nw] + _POP1[ne] + _POP1[sw] + _POP1[se],  # type: ignore[index]
                         _POP2[nw] + _POP2[ne] + _POP2[sw] + _POP2[se])  # type: ignore[index]
        else:
            node = _Node(nw, ne, sw, se, nw.level + 1,  # type: ignore[union-attr]
                         nw.pop1 + ne.pop1 + sw.pop1 + se.pop1,  # type: ignore[union-attr]
                         nw.pop2 + ne.pop2 + sw.pop2 + se.pop2)  # type: ignore[union-attr]
        self._nodes[key] = node
        return node

    def empty(self, level: int) -> Square:
        """The empty square of side ``2**level`` (``0`` for a 2x2 one)."""
        empties = self._empties
        while len(empties) <= level:
            below = empties[-1]
            empties.append(self.join(below, below, below, below))
        return empties[level]

    def _collect(self, *roots: _Node) -> None:
        """Garbage collection: keep the nodes ``roots`` use and the empty squares; forget
        every memoised result."""
        kept: dict[tuple[Square, Square, Square, Square], _Node] = {}
        stack: list[Square] = [*roots, *self._empties[2:]]
        while stack:
            node = stack.pop()
            if type(node) is int:
                continue
            key = (node.nw, node.ne, node.sw, node.se)  # type: ignore[union-attr]
            if key in kept:
                continue
            kept[key] = node  # type: ignore[assignment]
            node.result = None  # type: ignore[union-attr]
            if node.level > 2:  # type: ignore[union-attr]
                stack.extend(key)
        self._nodes = kept
        self._slow = {}
        self.collections += 1
        self._kept = len(kept)

    # -- the algorithm ------------------------------------------------------------------

    def _leaf(self, node: _Node) -> int:
        """One generation of the centre 2x2 of a 4x4 node, from the rule's table: the
        four table indices are summed, all at once, from each quarter's share."""
        shares: int = (_SHARES[0][node.nw] + _SHARES[1][node.ne]
                  + _SHARES[2][node.sw] + _SHARES[3][node.se])
        table = self._table
        return (table[shares & 0xFFFF] | table[shares >> 16 & 0xFFFF] << 2
                | table[shares >> 32 & 0xFFFF] << 4 | table[shares >> 48] << 6)

    def _advance(self, node: _Node) -> Square:
        """The centre of ``node`` after ``2**(level - 2)`` generations (memoised)."""
        result: Square | None = node.result
        if result is not None:
            return result
        if node.level == 2:
            result = self._leaf(node)
        else:
            # the table's own lookup first: most squares exist already, and a call to
            # join() for each would cost more than the lookup
            get, join, advance = self._nodes.get, self.join, self._advance
            nw, ne, sw, se = node.nw, node.ne, node.sw, node.se
            key = (nw.ne, ne.nw, nw.se, ne.sw)
            n01 = get(key) or join(*key)
            key = (nw.sw, nw.se, sw.nw, sw.ne)
            n10 = get(key) or join(*key)
            key = (nw.se, ne.sw, sw.ne, se.nw)
            n11 = get(key) or join(*key)
            key = (ne.sw, ne.se, se.nw, se.ne)
            n12 = get(key) or join(*key)
            key = (sw.ne, se.nw, sw.se, se.sw)
            n21 = get(key) or join(*key)
            r00, r01, r02 = advance(nw), advance(n01), advance(ne)
            r10, r11, r12 = advance(n10), advance(n11), advance(n12)
            r20, r21, r22 = advance(sw), advance(n21), advance(se)
            key = (r00, r01, r10, r11)
            q00 = advance(get(key) or join(*key))
            key = (r01, r02, r11, r12)
            q01 = advance(get(key) or join(*key))
            key = (r10, r11, r20, r21)
            q10 = advance(get(key) or join(*key))
            key = (r11, r12, r21, r22)
            q11 = advance(get(key) or join(*key))
            key = (q00, q01, q10, q11)
            result = get(key) or join(*key)
        node.result = result
        return result

    def _centre(self, node: _Node) -> Square:
        """The centre square of ``node``, one level down, with no time passing."""
        nw, ne, sw, se = node.nw, node.ne, node.sw, node.se
        if node.level == 2:
            return int((nw >> 6) | ((ne >> 4) & 3) << 2 | ((sw >> 2) & 3) << 4 | (se & 3) << 6)
        return self.join(nw.se, ne.sw, sw.ne, se.nw)

    def _advance_by(self, node: _Node, exponent: int) -> Square:
        """The centre of ``node`` after ``2**exponent`` generations, ``exponent <= level - 2``."""
        if exponent == node.level - 2:
            return self._advance(node)
        key = (node, exponent)
        result = self._slow.get(key)
        if result is not None:
            return result
        join, centre, advance = self.join, self._centre, self._advance_by
        nw, ne, sw, se = node.nw, node.ne, node.sw, node.se
        c00, c01, c02 = centre(nw), centre(join(nw.ne, ne.nw, nw.se, ne.sw)), centre(ne)
        c10 = centre(join(nw.sw, nw.se, sw.nw, sw.ne))
        c11 = centre(join(nw.se, ne.sw, sw.ne, se.nw))
        c12 = centre(join(ne.sw, ne.se, se.nw, se.ne))
        c20, c21, c22 = centre(sw), centre(join(sw.ne, se.nw, sw.se, se.sw)), centre(se)
        result = join(advance(join(c00, c01, c10, c11), exponent),
                      advance(join(c01, c02, c11, c12), exponent),
                      advance(join(c10, c11, c20, c21), exponent),
                      advance(join(c11, c12, c21, c22), exponent))
        self._slow[key] = result
        return result

    def _expanded(self, root: _Node) -> _Node:
        """``root`` one level up, itself at the centre."""
        empty = self.empty(root.level - 1)
        return self.join(self.join(empty, empty, empty, root.nw),
                         self.join(empty, empty, root.ne, empty),
                         self.join(empty, root.sw, empty, empty),
                         self.join(root.se, empty, empty, empty))

    @staticmethod
    def _in_middle(root: _Node) -> bool:
        """Whether every live cell lies in the middle square of side ``2**(level - 2)``."""
        nw, ne, sw, se = root.nw, root.ne, root.sw, root.se
        return bool(nw.pop1 + nw.pop2 == _live(nw.se.se) and ne.pop1 + ne.pop2 == _live(ne.sw.sw)
                    and sw.pop1 + sw.pop2 == _live(sw.ne.ne)
                    and se.pop1 + se.pop2 == _live(se.nw.nw))

    def _shrunk(self, root: _Node) -> _Node:
        """``root`` cut down while its live cells all lie in its centre half."""
        while root.level > _MIN_LEVEL:
            nw, ne, sw, se = root.nw, root.ne, root.sw, root.se
            if (nw.pop1 + nw.pop2 != nw.se.pop1 + nw.se.pop2
                    or ne.pop1 + ne.pop2 != ne.sw.pop1 + ne.sw.pop2
                    or sw.pop1 + sw.pop2 != sw.ne.pop1 + sw.ne.pop2
                    or se.pop1 + se.pop2 != se.nw.pop1 + se.nw.pop2):
                break
            root = self._centre(root)  # type: ignore[assignment]
        return root

    def _try_step(self, exponent: int) -> None:
        root = self._root
        # the result is one level down, and the root never goes below _MIN_LEVEL
        while root.level < max(exponent + 3, _MIN_LEVEL + 1) or not self._in_middle(root):
            root = self._expanded(root)
        result = self._advance_by(root, exponent)
        self._root = self._shrunk(result)  # type: ignore[arg-type]
        self.generation += 1 << exponent

    def _step_power(self, exponent: int) -> None:
        """Advance ``2**exponent`` generations; when the memory cap does not let one step
        of that size through even after a garbage collection, go in steps half as long
        (for the rest of this call to :meth:`step`)."""
        size = min(exponent, self._fits)
        count = 1 << (exponent - size)
        while count:
            used = len(self._nodes) + len(self._slow)
            if used > self.max_nodes * HEADROOM and used > 2 * self._kept:
                # collect before the table fills (a step that fails part way is work lost),
                # but not again before the table has doubled since the last collection:
                # a pattern that needs half the table would otherwise lose its memo each step
                self._collect(self._root)
            try:
                self._try_step(size)
                count -= 1
                continue
            except _TableFull:
                self._collect(self._root)
            try:
                self._try_step(size)
                count -= 1
                continue
            except _TableFull:
                pass
            if size == 0:
                raise GrowthLimitError(
                    f"the pattern at generation {self.generation} needs more than max_nodes="
                    f"{self.max_nodes} HashLife nodes even after garbage collection; expected "
                    "a larger memory cap or a smaller pattern",
                    generation=self.generation, edges=(), shape=(1 << self._root.level,) * 2)
            size -= 1
            count *= 2
            self._fits = size

    def _exponents(self, generations: int) -> Iterator[int]:
        exponent = self._step_exponent
        if exponent is not None:
            for _ in range(generations >> exponent):
                yield exponent
            generations &= (1 << exponent) - 1
        for bit in range(generations.bit_length() - 1, -1, -1):
            if generations >> bit & 1:
                yield bit

    # -- the Universe protocol ----------------------------------------------------------

    def step(self, generations: int, progress: Callable[[int], None] | None = None) -> None:
        """Advance ``generations`` generations as steps of ``2**k`` (see the module
        docstring); ``progress(generation)`` after each. On :class:`GrowthLimitError` the
        universe is as it was before the call."""
        if not isinstance(generations, (int, np.integer)) or generations < 0:
            raise BadParameterError(f"generations {generations!r} is not a count; expected "
                                    "an integer of at least 0")
        self._run(self._exponents(int(generations)), progress)

    def step_by_exponent(self, exponent: int | None = None) -> None:
        """Advance ``2**exponent`` generations at once (default :attr:`step_exponent`, or
        one generation when that is ``None``)."""
        if exponent is None:
            exponent = self._step_exponent or 0
        if not isinstance(exponent, int) or not 0 <= exponent <= MAX_EXPONENT:
            raise BadParameterError(f"step exponent {exponent!r} is out of range; expected "
                                    f"an integer from 0 to {MAX_EXPONENT}")
        self._run(iter((exponent,)), None)

    def _run(self, exponents: Iterator[int], progress: Callable[[int], None] | None) -> None:
        start_root, start_generation = self._root, self.generation
        self._fits = MAX_EXPONENT
        try:
            with _deep_recursion():
                for exponent in exponents:
                    self._step_power(exponent)
                    if progress is not None:
                        progress(self.generation)
        except GrowthLimitError:
            self._root, self.generation = start_root, start_generation
            self._collect(start_root)
            raise

    def population(self) -> tuple[int, int]:
        """Live cells of colour 1 and of colour 2."""
        return self._root.pop1, self._root.pop2

    def origin(self) -> tuple[int, int]:
        """The top-left cell ``(x, y)`` of the root square."""
        half = 1 << (self._root.level - 1)
        return -half, 1 - half

    def bounding_box(self) -> Box | None:
        """The smallest box holding every live cell, ``None`` when the plane is empty."""
        root = self._root
        if root.pop1 + root.pop2 == 0:
            return None
        with _deep_recursion():
            left, top, right, bottom = (_edge(root, side, {})
                                        for side in ("left", "top", "right", "bottom"))
        x0, y0 = self.origin()
        return Box(x0 + left, y0 + top, right - left, bottom - top)

    def cells(self, box: Box | None = None) -> np.ndarray:
        """The cells of ``box`` (default: the bounding box; an empty plane gives
        ``(0, 0)``), as an int8 array of shape ``(height, width)``."""
        if box is None:
            box = self.bounding_box()
            if box is None:
                return np.zeros((0, 0), dtype=np.int8)
        if box.width < 0 or box.height < 0:
            raise BadParameterError(f"box {box} has a negative side; expected width and "
                                    "height of at least 0")
        caps.check_cells(box.width, box.height, f"the box {box.width}x{box.height}")
        out = np.zeros((box.height, box.width), dtype=np.int8)
        x0, y0 = self.origin()
        _paint(self._root, x0 - box.x, y0 - box.y, out)
        return out

    def blocks(self, box: Box, factor: int) -> tuple[np.ndarray, np.ndarray]:
        """Live cells of each colour in each ``factor x factor`` block of ``box`` (a box of
        live cells), blocks aligned to multiples of ``factor``: what a picture shrunk by
        ``factor`` draws, read from the tree's populations without drawing a cell, so that a
        pattern of 2**28 cells a side still fits a picture.

        For a factor of 4 or more, each square of the tree of that side is counted in the
        block holding its top-left cell (the tree's squares start one row below a multiple
        of ``factor``, so a block's count may come from one row lower; every live cell is
        counted once); smaller factors count exactly from the cells.
        """
        top, left = box.y // factor, box.x // factor
        rows = (box.bottom - 1) // factor - top + 1
        cols = (box.right - 1) // factor - left + 1
        ones = np.zeros((rows, cols), dtype=np.int64)
        twos = np.zeros((rows, cols), dtype=np.int64)
        level = factor.bit_length() - 1
        if factor < 4 or 1 << level != factor or self._root.level < level:
            cells = self.cells(box)
            for out, colour in ((ones, 1), (twos, 2)):
                mask = cells == colour
                r = (np.arange(box.height) + box.y) // factor - top
                c = (np.arange(box.width) + box.x) // factor - left
                np.add.at(out, (r[:, None], c[None, :]), mask)
            return ones, twos
        x0, y0 = self.origin()
        stack: list[tuple[Square, int, int]] = [(self._root, x0, y0)]
        while stack:
            node, nx, ny = stack.pop()
            if type(node) is int or not _live(node):  # empty, or below a block's size
                continue
            assert isinstance(node, _Node)
            if node.level == level:
                r = min(max(ny // factor - top, 0), rows - 1)
                c = min(max(nx // factor - left, 0), cols - 1)
                ones[r, c] += node.pop1
                twos[r, c] += node.pop2
                continue
            half = 1 << (node.level - 1)
            stack.extend(((node.nw, nx, ny), (node.ne, nx + half, ny),
                          (node.sw, nx, ny + half), (node.se, nx + half, ny + half)))
        return ones, twos

    def add(self, cells: np.ndarray, x: int = 0, y: int = 0) -> None:
        """Put the live cells of ``cells`` (values 0, 1, 2) on the plane with its top-left
        cell at ``(x, y)``; a cell already there is replaced, dead cells leave it alone."""
        cells = np.asarray(cells)
        if cells.ndim != 2 or cells.dtype.kind not in "iub":
            raise GridError(f"cells of shape {cells.shape} and type {cells.dtype}; expected "
                            "a 2-D integer array")
        if cells.size and (cells.min() < 0 or cells.max() > 2):
            raise GridError("cells hold values outside 0, 1, 2")
        ys, xs = np.nonzero(cells)
        if len(xs) == 0:
            return
        with _deep_recursion():
            self._with_room(lambda: self._add(cells, ys, xs, int(x), int(y)))

    def _with_room(self, change: Callable[[], None]) -> None:
        """Run ``change``; when the table fills, collect garbage and run it again, and when
        it still does not fit, leave the universe as it was and raise GrowthLimitError."""
        start = self._root
        try:
            change()
            return
        except _TableFull:
            self._root = start
        self._collect(start)
        try:
            change()
        except _TableFull:
            self._root = start
            self._collect(start)
            raise GrowthLimitError(
                f"the pattern needs more than max_nodes={self.max_nodes} HashLife nodes; "
                "expected a larger memory cap or a smaller pattern",
                generation=self.generation, edges=(), shape=(1 << start.level,) * 2) from None

    def _add(self, cells: np.ndarray, ys: np.ndarray, xs: np.ndarray, x: int, y: int) -> None:
        left, right = int(x) + int(xs.min()), int(x) + int(xs.max())
        top, bottom = int(y) + int(ys.min()), int(y) + int(ys.max())
        root = self._root
        while True:
            half = 1 << (root.level - 1)
            if -half <= left and right < half and 1 - half <= top and bottom < 1 + half:
                break
            root = self._expanded(root)
        half = 1 << (root.level - 1)
        # the live part of ``cells`` padded to whole 4x4 squares of the root's grid, then
        # its 4x4 squares packed by numpy: one join() per distinct 4x4 square
        column, row = left + half, top + half - 1  # of the first live cell, in the root
        pad_left, pad_top = column & 3, row & 3
        live = cells[int(ys.min()):int(ys.max()) + 1, int(xs.min()):int(xs.max()) + 1]
        height, width = live.shape
        grid = np.zeros((-(-(height + pad_top) // 4) * 4, -(-(width + pad_left) // 4) * 4),
                        dtype=np.int64)
        grid[pad_top:pad_top + height, pad_left:pad_left + width] = live
        pairs = grid[0::2, 0::2] | grid[0::2, 1::2] << 2 | grid[1::2, 0::2] << 4 \
            | grid[1::2, 1::2] << 6
        keys = pairs[0::2, 0::2] | pairs[0::2, 1::2] << 8 | pairs[1::2, 0::2] << 16 \
            | pairs[1::2, 1::2] << 24
        by, bx = np.nonzero(keys)
        distinct, which = np.unique(keys[by, bx], return_inverse=True)
        nodes = [self.join(key & 255, key >> 8 & 255, key >> 16 & 255, key >> 24)
                 for key in distinct.tolist()]
        first_x, first_y = (column - pad_left) >> 2, (row - pad_top) >> 2
        squares: dict[tuple[int, int], Any] = {
            (first_x + i, first_y + j): nodes[k]
            for i, j, k in zip(bx.tolist(), by.tolist(), which.ravel().tolist(), strict=True)}
        for level in range(3, root.level + 1):
            empty = self.empty(level - 1)
            grouped: dict[tuple[int, int], list[Any]] = {}
            for (across, down), node in squares.items():
                quarter = grouped.setdefault((across >> 1, down >> 1), [empty] * 4)
                quarter[(across & 1) + 2 * (down & 1)] = node
            squares = {key: self.join(*quarter) for key, quarter in grouped.items()}
        self._root = self._overlay(root, squares[(0, 0)])  # type: ignore[assignment]

    def _overlay(self, old: Square, new: Square) -> Square:
        """``old`` with the live cells of ``new`` put over it."""
        if type(new) is int:
            return (old & ~_live_mask(new)) | new  # type: ignore[operator]
        if new.pop1 + new.pop2 == 0:  # type: ignore[union-attr]
            return old
        if old.pop1 + old.pop2 == 0:  # type: ignore[union-attr]
            return new
        return self.join(self._overlay(old.nw, new.nw), self._overlay(old.ne, new.ne),  # type: ignore[union-attr]
                         self._overlay(old.sw, new.sw), self._overlay(old.se, new.se))  # type: ignore[union-attr]

    def _grown(self, root: Square) -> _Node:
        """``root`` expanded round itself to at least :data:`_MIN_LEVEL`."""
        if type(root) is int:  # a 2x2 square: its cells go to the inner corners of a 4x4
            root = self.join((root & 3) << 6, ((root >> 2) & 3) << 4,
                             ((root >> 4) & 3) << 2, root >> 6)
        while root.level < _MIN_LEVEL:  # type: ignore[union-attr]
            root = self._expanded(root)  # type: ignore[arg-type]
        return root  # type: ignore[return-value]

    def __repr__(self) -> str:
        return (f"<HashLife {self.rule_name} generation={self.generation} "
                f"population={self.population()} nodes={self.node_count}>")


def _edge(node: Square, side: str, memo: dict[int, int]) -> int:
    """How far the live cells of a non-empty square reach towards ``side`` ("left",
    "top": the first live column or row; "right", "bottom": one past the last), relative
    to its top-left cell. Only the half nearer ``side`` is searched when it holds a live
    cell, so a search visits the squares along one edge, not the whole pattern."""
    if type(node) is int:
        cells = [(i & 1, i >> 1) for i in range(4) if node >> (2 * i) & 3]
        if side == "left":
            return min(x for x, _ in cells)
        if side == "top":
            return min(y for _, y in cells)
        return max(x if side == "right" else y for x, y in cells) + 1
    found = memo.get(id(node))
    if found is not None:
        return found
    half = 1 << (node.level - 1)  # type: ignore[union-attr]
    quarters = {"left": ((node.nw, node.sw), (node.ne, node.se)),  # type: ignore[union-attr]
                "right": ((node.ne, node.se), (node.nw, node.sw)),  # type: ignore[union-attr]
                "top": ((node.nw, node.ne), (node.sw, node.se)),  # type: ignore[union-attr]
                "bottom": ((node.sw, node.se), (node.nw, node.ne))}[side]  # type: ignore[union-attr]
    near = [child for child in quarters[0] if _live(child)]
    # the near half sits at offset 0 for left and top, at half for right and bottom
    offset = 0 if side in ("left", "top") else half
    if not near:
        near = [child for child in quarters[1] if _live(child)]
        offset = half - offset
    reaches = [_edge(child, side, memo) + offset for child in near]
    found = min(reaches) if side in ("left", "top") else max(reaches)
    memo[id(node)] = found
    return found


def _paint(root: Square, x: int, y: int, out: np.ndarray) -> None:
    """Draw the live cells of ``root``, whose top-left cell is at ``out[y, x]``: the 2x2
    squares inside ``out`` are gathered by walking the tree, then drawn by numpy."""
    height, width = out.shape
    xs: list[int] = []
    ys: list[int] = []
    codes: list[int] = []
    stack = [(root, x, y)]
    while stack:
        node, left, top = stack.pop()
        if type(node) is int:
            if node and left < width and top < height and left > -2 and top > -2:
                xs.append(left)
                ys.append(top)
                codes.append(node)
            continue
        side = 1 << node.level  # type: ignore[union-attr]
        if (left >= width or top >= height or left + side <= 0 or top + side <= 0
                or not _live(node)):
            continue
        half = side >> 1
        stack.extend(((node.nw, left, top), (node.ne, left + half, top),  # type: ignore[union-attr]
                      (node.sw, left, top + half), (node.se, left + half, top + half)))  # type: ignore[union-attr]
    if not codes:
        return
    column, row, code = np.array(xs), np.array(ys), np.array(codes)
    for shift, dx, dy in ((0, 0, 0), (2, 1, 0), (4, 0, 1), (6, 1, 1)):
        states = (code >> shift) & 3
        cx, cy = column + dx, row + dy
        inside = (states != 0) & (cx >= 0) & (cx < width) & (cy >= 0) & (cy < height)
        out[cy[inside], cx[inside]] = states[inside]
