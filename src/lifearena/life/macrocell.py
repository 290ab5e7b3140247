"""Golly's macrocell files (``.mc``, and ``.mc.gz`` compressed) read and written.

A macrocell file is a HashLife tree written out node by node, children before parents,
the root last::

    [M2] (golly 3.3)          the header: '[M2]' and the program that wrote the file
    #R B3/S23                 the rule (Golly's default B3/S23 when missing)
    #G 1                      the generation (0 when missing)
    #C a comment              comment lines (#C or #N); other '#' lines are ignored
    $$$$$.....*.*$......**$   node 1: an 8x8 leaf, rows ended by '$', '.' dead, '*' alive
    4 0 1 0 0                 node 2: level 4 (16x16), children nw ne sw se (0: empty)

Two-state files (Golly's HashLife) have the 8x8 leaf lines; multi-state files (Golly's
RuleLoader, and lifearena's two-colour universes) have instead level-1 lines ``1 a b c d``
whose four numbers are the states of a 2x2 square (here 0, 1 or 2). Every interior line is
``level nw ne sw se`` with children of ``level - 1`` given by their line number among the
node lines. The root of level ``L`` has its top-left cell at ``(-2**(L-1), 1 - 2**(L-1))``
(Golly's convention, kept by :class:`~lifearena.life.hashlife.HashLife`).

The two functions the pattern loader calls:

* ``read_macrocell(data: str | bytes, *, rule=None, max_nodes=None) -> Macrocell``: the
  universe (a :class:`HashLife` at the file's generation), the rule text of ``#R`` and
  the comments. ``data`` may be gzip-compressed bytes. ``rule`` overrides ``#R``.
  Malformed input raises :class:`~lifearena.errors.ParseError` naming the line and what
  was expected; an unknown rule :class:`~lifearena.errors.RuleError`.
* ``write_macrocell(universe: HashLife, *, rule=None, comments=(), multistate=None) -> str``:
  the file's text; two-state leaf lines for a Life-like rule with no cell of colour 2
  (Golly runs those by HashLife, which reads only that form), multi-state lines otherwise
  (``multistate`` forces either). ``rule`` is the ``#R`` text (default: ``B.../S...`` for
  a Life-like rule, ``Immigration`` for Immigration, the rule's name otherwise).

:func:`load_macrocell` and :func:`save_macrocell` do the same with files (gzip by the
``.gz`` extension; a file is written whole or not at all).

>>> text = "[M2] (golly 3.3)\\n#R B3/S23\\n#G 1\\n$$$$$.....*.*$......**$......*$\\n4 0 1 0 0\\n"
>>> pattern = read_macrocell(text)
>>> pattern.generation, pattern.universe.population(), pattern.universe.bounding_box()
(1, (5, 0), Box(x=5, y=-2, width=3, height=3))
>>> write_macrocell(pattern.universe).splitlines()[1:]
['#R B3/S23', '#G 1', '$$$$$.....*.*$......**$......*$', '4 0 1 0 0']
"""

from __future__ import annotations

import gzip
import os
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

import lifearena
from lifearena.errors import BadParameterError, ParseError, RuleError
from lifearena.life.hashlife import AnyRule, HashLife, Square, rule_table
from lifearena.life.rules import Rule, as_rule
from lifearena.life.universe import transition_table

MAX_LEVEL = 1024
"""The deepest node a file may hold: a square of side 2**1024 is far past any pattern."""

LEAF_LEVEL = 3
"""Two-state files write squares of 8x8 cells as one line."""

_CELL_STATES = {".": 0, "*": 1}


@dataclass(frozen=True)
class Macrocell:
    """What a macrocell file holds: the pattern as a universe at the file's generation, the
    rule text of its ``#R`` line (``None`` when it has none) and its comment lines."""

    universe: HashLife
    rule: str | None
    generation: int
    comments: tuple[str, ...]


def read_macrocell(data: str | bytes, *, rule: AnyRule | None = None,
                   max_nodes: int | None = None) -> Macrocell:
    """Parse a macrocell file (text, or bytes that may be gzip-compressed).

    >>> read_macrocell("[M2]\\n4 0 1 0")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    lifearena.errors.ParseError: macrocell line 2: '4 0 1 0'; expected 'level nw ne sw se' ...
    """
    text = _text(data)
    lines = text.splitlines()
    if not lines or not lines[0].startswith("[M2]"):
        first = lines[0][:40] if lines else ""
        raise ParseError(f"macrocell line 1: {first!r}; expected the header '[M2] (...)'")
    rule_text: str | None = None
    generation = 0
    comments: list[str] = []
    body: list[tuple[int, str]] = []
    for number, raw in enumerate(lines[1:], start=2):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            if line.startswith("#R"):
                rule_text = line[2:].strip()
            elif line.startswith("#G"):
                generation = _generation(line[2:].strip(), number)
            elif line.startswith(("#C", "#N")):
                comments.append(line)
            continue
        body.append((number, line))
    if rule is None:
        rule = rule_text or "B3/S23"
    try:
        runnable = as_rule(rule) if isinstance(rule, str) else rule
    except RuleError as error:
        raise RuleError(f"macrocell rule {rule!r} is not one lifearena runs: {error}") from None
    options: dict[str, Any] = {} if max_nodes is None else {"max_nodes": max_nodes}
    universe = HashLife.from_tree(lambda universe: _tree(universe, body), runnable,
                                  generation=generation, **options)
    return Macrocell(universe, rule_text, generation, tuple(comments))


def _text(data: str | bytes) -> str:
    if isinstance(data, str):
        return data
    if data[:2] == b"\x1f\x8b":
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError) as error:
            raise ParseError(f"macrocell .gz file is damaged ({error}); expected gzip data") \
                from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ParseError(f"macrocell has bytes that are not text at byte {error.start}; "
                         "expected a macrocell text file") from None


def _generation(text: str, number: int) -> int:
    if not text.isdigit():
        raise ParseError(f"macrocell line {number}: generation {text!r}; expected '#G' and a "
                         "whole number of at least 0")
    return int(text)


def _tree(universe: HashLife, body: list[tuple[int, str]]) -> Square:
    """The root of the tree the node lines describe (the empty square when there are none)."""
    nodes: list[Square] = [0]  # index 0 is the empty square of any level
    levels = [0]
    for number, line in body:
        if line[0] in ".*$":
            nodes.append(_leaf(universe, line, number))
            levels.append(LEAF_LEVEL)
            continue
        fields = line.split()
        if len(fields) != 5 or not all(field.isdigit() for field in fields):
            raise ParseError(f"macrocell line {number}: {line[:60]!r}; expected 'level nw ne sw "
                             "se' (five integers) or an 8x8 leaf of '.', '*' and '$'")
        level, *children = (int(field) for field in fields)
        if not 1 <= level <= MAX_LEVEL:
            raise ParseError(f"macrocell line {number}: level {level}; expected a level from "
                             f"1 to {MAX_LEVEL}")
        if level == 1:
            if max(children) > 2:
                raise ParseError(f"macrocell line {number}: state {max(children)}; expected "
                                 "cell states 0, 1 or 2")
            nw, ne, sw, se = children
            nodes.append(nw | ne << 2 | sw << 4 | se << 6)
            levels.append(1)
            continue
        quarter: list[Square] = []
        for child in children:
            if child >= len(nodes):
                raise ParseError(f"macrocell line {number}: child {child} is not an earlier "
                                 f"node; expected 0 to {len(nodes) - 1}")
            if child == 0:
                quarter.append(universe.empty(level - 1))
            elif levels[child] != level - 1:
                raise ParseError(f"macrocell line {number}: child {child} has level "
                                 f"{levels[child]}; expected level {level - 1}")
            else:
                quarter.append(nodes[child])
        nodes.append(universe.join(*quarter))
        levels.append(level)
    return nodes[-1] if len(nodes) > 1 else universe.empty(LEAF_LEVEL)


def _leaf(universe: HashLife, line: str, number: int) -> Square:
    """An 8x8 leaf line as a node of level 3."""
    cells = np.zeros((8, 8), dtype=np.int64)
    x = y = 0
    for char in line:
        if char == "$":
            x, y = 0, y + 1
            continue
        state = _CELL_STATES.get(char)
        if state is None:
            raise ParseError(f"macrocell line {number}: {char!r} in a leaf; expected '.', '*' "
                             "or '$'")
        if x >= 8 or y >= 8:
            raise ParseError(f"macrocell line {number}: the leaf passes 8x8 cells; expected at "
                             "most 8 cells a row and 8 rows")
        cells[y, x] = state
        x += 1
    codes = cells[0::2, 0::2] | cells[0::2, 1::2] << 2 | cells[1::2, 0::2] << 4 \
        | cells[1::2, 1::2] << 6
    c = codes.tolist()
    join = universe.join
    return join(join(c[0][0], c[0][1], c[1][0], c[1][1]), join(c[0][2], c[0][3], c[1][2], c[1][3]),
                join(c[2][0], c[2][1], c[3][0], c[3][1]), join(c[2][2], c[2][3], c[3][2], c[3][3]))


def golly_rule_name(universe: HashLife) -> str:
    """The name Golly knows the universe's rule by: ``B.../S...`` for a Life-like rule
    (colour-blind counting, births of colour 1), ``Immigration``, or the rule's own name.

    >>> golly_rule_name(HashLife("life")), golly_rule_name(HashLife("immigration"))
    ('B3/S23', 'Immigration')
    """
    life_like = _life_like_name(universe)
    if life_like is not None:
        return life_like
    if isinstance(universe.rule, Rule) and universe.rule == Rule.named("immigration"):
        return "Immigration"
    return universe.rule_name


def _life_like_name(universe: HashLife) -> str | None:
    """``B.../S...`` when the universe's rule is a Life-like rule, else ``None``."""
    table = rule_table(universe.rule)[1]
    births = "".join(str(n) for n in range(9) if table[_ONE_COLOUR_INDEX[0][n]] == 1)
    survivals = "".join(str(n) for n in range(9) if table[_ONE_COLOUR_INDEX[1][n]] == 1)
    name = f"B{births}/S{survivals}"
    if transition_table(Rule.life_like(name)).tolist() != table:
        return None
    return name


_ONE_COLOUR_INDEX = [[state * 3**8 + sum(3**i for i in range(n)) for n in range(9)]
                     for state in range(2)]
"""The transition-table index of a cell in state 0 and 1 with ``n`` neighbours of colour 1."""


def write_macrocell(universe: HashLife, *, rule: str | None = None,
                    comments: Iterable[str] = (), multistate: bool | None = None) -> str:
    """The macrocell text of ``universe`` (see the module docstring); ``multistate`` forces
    the form (``None``: two-state when that is exact)."""
    # Golly runs Life-like rules by HashLife, which reads only the two-state form
    two_state = universe.population()[1] == 0 and _life_like_name(universe) is not None
    if multistate is not None:
        if not multistate and universe.population()[1]:
            raise BadParameterError("a universe with cells of colour 2 cannot be written as "
                                    "a two-state macrocell; expected multistate=True or None")
        two_state = not multistate
    version = getattr(lifearena, "__version__", "")
    out = [f"[M2] (golly-compatible; lifearena {version})".replace(" )", ")"),
           f"#R {rule or golly_rule_name(universe)}"]
    if universe.generation:
        out.append(f"#G {universe.generation}")
    for comment in comments:
        for part in comment.splitlines() or [""]:
            out.append(part if part.startswith("#C") else f"#C {part}".rstrip())
    index: dict[Any, int] = {}  # nodes hash by identity, 2x2 squares by value
    root = universe.root
    stack: list[tuple[Any, bool]] = [(root, False)]
    while stack:
        node, children_done = stack.pop()
        if node in index or _empty(node):
            continue
        if type(node) is int or (two_state and node.level == LEAF_LEVEL):
            out.append(_leaf_text(node) if type(node) is not int else
                       f"1 {node & 3} {node >> 2 & 3} {node >> 4 & 3} {node >> 6}")
            index[node] = len(index) + 1
            continue
        quarter = (node.nw, node.ne, node.sw, node.se)
        if not children_done:
            stack.append((node, True))
            stack.extend((child, False) for child in reversed(quarter))
            continue
        numbers = " ".join(str(0 if _empty(child) else index[child]) for child in quarter)
        out.append(f"{node.level} {numbers}")
        index[node] = len(index) + 1
    return "\n".join(out) + "\n"


def _empty(node: Any) -> bool:
    return node == 0 if type(node) is int else node.pop1 + node.pop2 == 0


def _leaf_text(node: Any) -> str:
    """An 8x8 node of a two-state universe as Golly's leaf line."""
    rows = [["."] * 8 for _ in range(8)]
    for quarter, top, left in ((node.nw, 0, 0), (node.ne, 0, 4), (node.sw, 4, 0),
                               (node.se, 4, 4)):
        for code, dy, dx in ((quarter.nw, 0, 0), (quarter.ne, 0, 2), (quarter.sw, 2, 0),
                             (quarter.se, 2, 2)):
            for shift, cy, cx in ((0, 0, 0), (2, 0, 1), (4, 1, 0), (6, 1, 1)):
                if code >> shift & 3:
                    rows[top + dy + cy][left + dx + cx] = "*"
    text = ["".join(row).rstrip(".") + "$" for row in rows]
    while text and text[-1] == "$":
        text.pop()
    return "".join(text)


def load_macrocell(path: str | Path, *, rule: AnyRule | None = None,
                   max_nodes: int | None = None) -> Macrocell:
    """:func:`read_macrocell` of the file at ``path`` (``.mc`` or ``.mc.gz``)."""
    return read_macrocell(Path(path).read_bytes(), rule=rule, max_nodes=max_nodes)


def save_macrocell(path: str | Path, universe: HashLife, *, rule: str | None = None,
                   comments: Iterable[str] = ()) -> None:
    """Write ``universe`` to ``path``, gzip-compressed when the name ends in ``.gz``; the file
    appears whole (written beside it, then renamed) or not at all."""
    path = Path(path)
    data = write_macrocell(universe, rule=rule, comments=comments).encode()
    if path.suffix == ".gz":
        data = gzip.compress(data, mtime=0)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
