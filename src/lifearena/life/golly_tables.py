"""Golly ``@RULE``/``@TABLE`` rule files read into a lookup table, with nothing of
lifearena's rule types: :mod:`lifearena.life.rules` and :mod:`lifearena.life.golly_rules`
build on it (see the latter for the format as read).

:func:`parse_golly_table` gives the rule's name and its ``(3**9,)`` table of next states in
the order of :func:`lifearena.life.universe.neighbourhood_index`; :func:`count_table` gives
the ``(3, 9, 9)`` table of a lookup table that is count-based, else ``None``.

>>> text = "@RULE Seeds\\n@TABLE\\nn_states:2\\nneighborhood:Moore\\nsymmetries:permute\\n"
>>> name, table = parse_golly_table(text + "0,1,1,0,0,0,0,0,0,1\\n1,0,0,0,0,0,0,0,0,0")
>>> counts = count_table(table)
>>> name, int(counts[0, 2, 0]), int(counts[1, 0, 0])  # born; dies alone
('Seeds', 1, 0)
>>> int(counts[1, 2, 0])  # no transition matches: the cell keeps its state
1
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

import numpy as np

from lifearena.errors import RuleError

GOLLY_ORDER = (8, 1, 2, 4, 7, 6, 5, 3, 0)
"""For each position of a Golly Moore transition (C, N, NE, E, SE, S, SW, W, NW), the
column of :func:`~lifearena.life.lookup_rule.configuration_digits` it reads (NW, N, NE, W,
E, SW, S, SE, then the centre)."""

_RING = (1, 2, 3, 4, 5, 6, 7, 8)
"""The neighbour positions of a Golly transition, clockwise from N: rotating by 45 degrees
shifts this ring by one, mirroring left-right reverses it around N."""

SYMMETRIES = ("none", "rotate4", "rotate8", "reflect_horizontal", "rotate4reflect",
              "rotate8reflect", "permute")

_VAR = re.compile(r"var\s+(?P<name>\w+)\s*=\s*\{(?P<values>[^}]*)\}")
_KEY = re.compile(r"(?P<key>n_states|neighborhood|symmetries)\s*:\s*(?P<value>\S+)")


@dataclass
class _Table:
    states: int = 0
    neighbourhood: str = ""
    symmetry: str = ""


def parse_golly_table(text: str, source: str = "rule file") -> tuple[str, np.ndarray]:
    """The name and the ``(3**9,)`` int8 table of a Golly ``.rule`` text."""
    name, table_lines, _ = _sections(text, source)
    header = _Table()
    variables: dict[str, list[int]] = {}
    transitions: list[tuple[list[str], int]] = []
    for number, line in table_lines:
        at = f"at line {number} of {source}"
        key = _KEY.fullmatch(line)
        if key:
            _set_key(header, key["key"], key["value"], at)
            continue
        var = _VAR.fullmatch(line)
        if var:
            _check_header(header, source)
            variables[var["name"]] = _values(var["values"], variables, header.states, at)
            continue
        if line.startswith("var"):
            raise RuleError(f"bad variable {line!r} {at}; expected 'var NAME={{0,1,...}}'")
        _check_header(header, source)
        transitions.append((_transition(line, header.states, at), number))
    _check_header(header, source)
    return name, _build(header, variables, transitions, source)


def configuration_digits() -> np.ndarray:
    """``(3**9, 9)`` int8: for each table index, the eight neighbours' states in
    ``NEIGHBOUR_ORDER`` and then the centre's."""
    codes = np.arange(3 ** 9)
    powers = 3 ** np.arange(9)
    return ((codes[:, None] // powers[None, :]) % 3).astype(np.int8)


def count_table(table: np.ndarray) -> np.ndarray | None:
    """The ``(3, 9, 9)`` table (state, colour-1 count, colour-2 count) of a ``(3**9,)``
    lookup when every neighbourhood with the same counts has the same next state."""
    digits = configuration_digits()
    n1 = (digits[:, :8] == 1).sum(axis=1)
    n2 = (digits[:, :8] == 2).sum(axis=1)
    centre = digits[:, 8]
    counts = np.zeros((3, 9, 9), dtype=np.int8)
    counts[centre, n1, n2] = table
    return counts if np.array_equal(counts[centre, n1, n2], table) else None


def _sections(text: str, source: str) -> tuple[str, list[tuple[int, str]], str]:
    """The rule's name and the ``@TABLE`` lines (comments and blanks dropped)."""
    name = ""
    section = ""
    table: list[tuple[int, str]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if line.startswith("@"):
            section = line.split()[0].upper()
            if section == "@RULE":
                name = line[len("@RULE"):].strip()
            elif section == "@TREE":
                raise RuleError(f"{source} holds a @TREE, which lifearena does not read; "
                                "expected a @TABLE (Golly's rule trees are not supported)")
            continue
        if section == "@TABLE" and line:
            table.append((number, line))
    if not name:
        raise RuleError(f"{source} has no '@RULE NAME' line; expected a Golly .rule file")
    if not table:
        raise RuleError(f"{source} has no @TABLE section; expected '@TABLE' with n_states, "
                        "neighborhood, symmetries and transitions")
    return name, table, source


def _set_key(header: _Table, key: str, value: str, at: str) -> None:
    if key == "n_states":
        if not value.isdigit() or int(value) not in (2, 3):
            raise RuleError(f"n_states:{value} {at} is not supported; expected 2 or 3 states "
                            "(empty and one or two colours)")
        header.states = int(value)
    elif key == "neighborhood":
        if value != "Moore":
            raise RuleError(f"neighborhood:{value} {at} is not supported; expected Moore "
                            "(the eight neighbours lifearena counts)")
        header.neighbourhood = value
    else:
        if value not in SYMMETRIES:
            raise RuleError(f"symmetries:{value} {at} is unknown; expected one of "
                            f"{', '.join(SYMMETRIES)}")
        header.symmetry = value


def _check_header(header: _Table, source: str) -> None:
    for label, value in (("n_states", header.states), ("neighborhood", header.neighbourhood),
                         ("symmetries", header.symmetry)):
        if not value:
            raise RuleError(f"{source} gives no '{label}:' before its variables and "
                            "transitions; expected n_states, neighborhood and symmetries first")


def _values(text: str, variables: dict[str, list[int]], states: int, at: str) -> list[int]:
    values: list[int] = []
    for item in (part.strip() for part in text.split(",")):
        if item in variables:
            values.extend(variables[item])
        elif item.isdigit() and int(item) < states:
            values.append(int(item))
        else:
            raise RuleError(f"bad value {item!r} {at}; expected a state below {states} or an "
                            "earlier variable")
    return sorted(set(values))


def _transition(line: str, states: int, at: str) -> list[str]:
    items = [part.strip() for part in line.split(",")] if "," in line else list(line)
    if len(items) != 10:
        raise RuleError(f"bad transition {line!r} {at}; expected 10 entries "
                        "C,N,NE,E,SE,S,SW,W,NW,C' for a Moore table")
    return items


def _build(header: _Table, variables: dict[str, list[int]],
           transitions: list[tuple[list[str], int]], source: str) -> np.ndarray:
    """The ``(3**9,)`` table: on the configurations of ``header.states`` states, the first
    matching transition; configurations holding a state the table lacks run colour-blind."""
    states = header.states
    digits = configuration_digits()[:, list(GOLLY_ORDER)]  # Golly's column order
    table = digits[:, 0].copy()
    decided = ~np.all(digits < states, axis=1)
    counts = _counts_key(digits[:, 1:9])
    for items, number in transitions:
        at = f"at line {number} of {source}"
        for allowed, following in _bindings(items, variables, states, at):
            if all(len(values) == 1 for values in allowed) and header.symmetry != "permute":
                # one neighbourhood and its images: index them directly
                for order in _group(header.symmetry):
                    index = sum(values[0] * 3 ** int(GOLLY_ORDER[column])
                                for values, column in zip(allowed, order, strict=True))
                    if not decided[index]:
                        table[index] = following
                        decided[index] = True
                continue
            if header.symmetry == "permute":
                matches = (np.isin(digits[:, 0], allowed[0])
                           & np.isin(counts, _permute_counts(allowed[1:])))
            else:
                matches = np.zeros(len(digits), dtype=bool)
                for order in _group(header.symmetry):
                    one = np.ones(len(digits), dtype=bool)
                    for position, column in enumerate(order):
                        one &= np.isin(digits[:, column], allowed[position])
                    matches |= one
            fresh = matches & ~decided
            table[fresh] = following
            decided |= fresh
    if states == 2:
        table = _colour_blind(table, digits)
    return table.astype(np.int8)


def _bindings(items: list[str], variables: dict[str, list[int]], states: int,
              at: str) -> list[tuple[list[list[int]], int]]:
    """Every way to bind the variables that occur more than once (or give the next state):
    the states each of the nine inputs allows, and the next state."""
    for item in items:
        if item.isdigit() and int(item) >= states:
            raise RuleError(f"state {item} {at} is not below n_states:{states}")
        if not item.isdigit() and item not in variables:
            raise RuleError(f"unknown variable {item!r} {at}; expected a state or a "
                            "variable declared with 'var'")
    if not items[9].isdigit() and items[9] not in items[:9]:
        raise RuleError(f"next state {items[9]!r} {at} is a variable no input binds; "
                        "expected a state or a variable used among the inputs")
    names = sorted({item for item in items if not item.isdigit()
                    and (items.count(item) > 1 or item == items[9])})
    out = []
    for choice in itertools.product(*(variables[name] for name in names)):
        bound = dict(zip(names, choice, strict=True))
        allowed = [[int(item)] if item.isdigit() else
                   [bound[item]] if item in bound else variables[item] for item in items[:9]]
        following = int(items[9]) if items[9].isdigit() else bound[items[9]]
        out.append((allowed, following))
    return out


def _group(symmetry: str) -> list[list[int]]:
    """The symmetries as column orders over Golly's positions 0 (centre) to 8."""
    def ring(shift: int, mirror: bool) -> list[int]:
        order = [_RING[(-i if mirror else i) % 8] for i in range(8)]
        return [0, *(order[(i + shift) % 8] for i in range(8))]

    shifts = {"none": [0], "reflect_horizontal": [0], "rotate4": [0, 2, 4, 6],
              "rotate4reflect": [0, 2, 4, 6], "rotate8": list(range(8)),
              "rotate8reflect": list(range(8))}[symmetry]
    mirrors = [False, True] if "reflect" in symmetry else [False]
    return [ring(shift, mirror) for shift in shifts for mirror in mirrors]


_NEIGHBOURS = configuration_digits()[:3 ** 8, :8]
"""Every assignment of states to eight neighbours."""


def _counts_key(neighbours: np.ndarray) -> np.ndarray:
    """What ``permute`` keeps of the neighbours: the count of each colour."""
    key: np.ndarray = (neighbours == 1).sum(axis=1) * 10 + (neighbours == 2).sum(axis=1)
    return key


def _permute_counts(allowed: list[list[int]]) -> np.ndarray:
    """The colour counts of the neighbourhoods that some order of the inputs allows."""
    ok = np.ones(len(_NEIGHBOURS), dtype=bool)
    for position, states in enumerate(allowed):
        ok &= np.isin(_NEIGHBOURS[:, position], states)
    return np.unique(_counts_key(_NEIGHBOURS[ok]))


def _colour_blind(table: np.ndarray, digits: np.ndarray) -> np.ndarray:
    """A two-state table on two colours: colour 2 counts as live, a survivor keeps its
    colour, a birth is colour 1."""
    live = (digits != 0).astype(np.int64)
    powers = 3 ** np.arange(9)
    # the index, in Golly's column order, of the same neighbourhood with colour 2 read as 1
    reorder = np.empty(9, dtype=np.int64)
    reorder[list(GOLLY_ORDER)] = np.arange(9)
    as_one = (live[:, reorder] * powers).sum(axis=1)
    following = table[as_one]
    centre = digits[:, 0]
    return np.where((centre != 0) & (following != 0), centre, following)
