"""Life 1.05 and Life 1.06 (``.lif``, ``.life``): the two one-colour formats of the old
Life programs that Golly still reads.

**Life 1.05**: a ``#Life 1.05`` line, ``#D`` description lines, ``#N`` (Conway's rule) or
``#R S/B`` (the rule in S/B notation, ``#R 23/3``), then blocks: ``#P x y`` gives the
top-left cell (a bare ``#P``: 0 0) of the block's picture, rows of ``.`` (empty) and ``*`` (live).

**Life 1.06**: a ``#Life 1.06`` line, then one live cell per line, ``x y``.

Both place cells in absolute coordinates (y downwards); the pattern's ``origin`` is the
top-left of the cells' bounding box, as ``#CXRLE Pos=`` is for RLE.

>>> pattern = read_life_105("#Life 1.05\\n#R 23/3\\n#P -1 -1\\n.*\\n..*\\n***")
>>> pattern.cells.tolist(), pattern.rule, pattern.origin
([[0, 1, 0], [0, 0, 1], [1, 1, 1]], 'B3/S23', (-1, -1))
>>> print(write_life_106(pattern.cells, origin=(0, 0)), end="")
#Life 1.06
1 0
2 1
0 2
1 2
2 2
"""

from __future__ import annotations

import re
from typing import NamedTuple

import numpy as np

from lifearena.errors import ParseError, RuleError
from lifearena.life.grid import MAX_CELLS, as_grid
from lifearena.life.rule_notations import parse_one_colour


class LifeFile(NamedTuple):
    """What a Life 1.05/1.06 file holds (:func:`lifearena.life.patterns.load_pattern` makes
    a ``Pattern`` of it)."""

    cells: np.ndarray
    rule: str | None
    comments: list[str]
    origin: tuple[int, int]

_P_LINE = re.compile(r"#P(?:\s+(-?\d+)\s+(-?\d+))?\s*")
_CELL = re.compile(r"\s*(-?\d+)\s+(-?\d+)\s*")


def read_life_105(text: str, *, max_cells: int = MAX_CELLS) -> LifeFile:
    """Parse Life 1.05 (see the module docstring)."""
    live: list[tuple[int, int]] = []
    comments: list[str] = []
    rule: str | None = None
    x0 = y0 = 0
    row = 0
    block = False
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if number == 1 or not line:
            continue
        if line.startswith("#"):
            tag = line[:2].upper()
            if tag == "#P":
                match = _P_LINE.fullmatch(line)
                if not match:
                    raise ParseError(f"bad block line {line!r} at line {number}; "
                                     "expected '#P <x> <y>'")
                x0, y0, row, block = int(match[1] or 0), int(match[2] or 0), 0, True
            elif tag == "#N":
                rule = "B3/S23"
            elif tag == "#R":
                rule = _rule_of(line[2:].strip(), number)
            else:
                comments.append(line)
            continue
        if not block:
            raise ParseError(f"cells before any '#P x y' line at line {number}; expected a "
                             "block line first")
        for column, char in enumerate(line):
            if char == "*":
                live.append((x0 + column, y0 + row))
            elif char != ".":
                raise ParseError(f"unknown cell {char!r} at line {number}, column "
                                 f"{column + 1}; expected '.' (empty) or '*' (live)")
        row += 1
    return _pattern(live, rule, comments, max_cells)


def read_life_106(text: str, *, max_cells: int = MAX_CELLS) -> LifeFile:
    """Parse Life 1.06: one ``x y`` live cell per line after the ``#Life 1.06`` line."""
    live: list[tuple[int, int]] = []
    comments: list[str] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if number == 1 or not line:
            continue
        if line.startswith("#"):
            comments.append(line)
            continue
        match = _CELL.fullmatch(line)
        if not match:
            raise ParseError(f"bad cell line {line!r} at line {number}; expected '<x> <y>'")
        live.append((int(match[1]), int(match[2])))
    return _pattern(live, None, comments, max_cells)


def write_life_105(cells: np.ndarray, *, rule: str | None = None, origin: tuple[int, int] = (0, 0),
                   comments: list[str] | None = None) -> str:
    """The grid as Life 1.05: one ``#P`` block of the whole grid (rows trimmed on the right).

    A rule is written as ``#N`` for Life, ``#R S/B`` for another Life-like rule; rules the
    format cannot name are refused."""
    grid = _one_colour(cells, "Life 1.05")
    lines = ["#Life 1.05", *(f"#D {c}" for c in comments or [])]
    if rule is not None:
        lines.append(_rule_line(rule))
    lines.append(f"#P {origin[0]} {origin[1]}")
    for row in grid:
        live = np.flatnonzero(row)
        text = "".join(".*"[v] for v in row[: live[-1] + 1]) if live.size else "."
        lines.append(text)
    return "\n".join(lines) + "\n"


def write_life_106(cells: np.ndarray, *, origin: tuple[int, int] = (0, 0)) -> str:
    """The grid as Life 1.06: the live cells row by row, ``x y`` each."""
    grid = _one_colour(cells, "Life 1.06")
    ys, xs = np.nonzero(grid)
    body = "".join(f"{x + origin[0]} {y + origin[1]}\n" for y, x in zip(ys.tolist(), xs.tolist(),
                                                                        strict=True))
    return "#Life 1.06\n" + body


def _rule_of(text: str, number: int) -> str:
    if re.fullmatch(r"[Bb]\d*", text):  # births only, as in '#R B234'
        text += "/S"
    try:
        rule = parse_one_colour(text)
    except RuleError as error:
        raise ParseError(f"bad rule at line {number}: {error}") from None
    if rule is None:
        raise ParseError(f"bad rule {text!r} at line {number}; expected '#R <S>/<B>' such as "
                         "'#R 23/3'")
    return rule.name


def _rule_line(rule: str) -> str:
    parsed = parse_one_colour(rule) if rule.lower() not in ("life", "conway") else None
    if rule.lower() in ("life", "conway") or (parsed is not None and parsed.name == "B3/S23"):
        return "#N"
    if parsed is None or not parsed.totalistic:
        raise ParseError(f"Life 1.05 names only Life-like rules (#R S/B); rule {rule!r} is "
                         "not one; expected .rle for it")
    born, survive = parsed.life_like_name()[1:].split("/S")
    return f"#R {survive}/{born}"


def _one_colour(cells: np.ndarray, format_name: str) -> np.ndarray:
    grid = as_grid(cells, allow_batch=False)
    if np.any(grid == 2):
        raise ParseError(f"{format_name} holds one colour but the pattern has colour-2 cells; "
                         "expected .rle for a two-colour pattern")
    return grid


def _pattern(live: list[tuple[int, int]], rule: str | None, comments: list[str],
             max_cells: int) -> LifeFile:
    if not live:
        return LifeFile(np.zeros((1, 1), dtype=np.int8), rule, comments, (0, 0))
    xy = np.array(live, dtype=np.int64)
    left, top = xy.min(axis=0)
    width, height = xy.max(axis=0) - (left, top) + 1
    if int(width) * int(height) > max_cells:
        raise ParseError(f"pattern spans {width} x {height} cells; at most {max_cells:,}")
    cells = np.zeros((int(height), int(width)), dtype=np.int8)
    cells[xy[:, 1] - top, xy[:, 0] - left] = 1
    return LifeFile(cells, rule, comments, (int(left), int(top)))
