"""Patterns in and out: Golly RLE and a plain text grid for small boards.

**RLE** (as Golly and LifeViewer read it)::

    #N glider
    #C any comment lines start with '#'
    x = 3, y = 3, rule = B3/S23
    bob$2bo$3o!

Two-state patterns use ``b`` (empty) and ``o`` (live, colour 1); multi-state patterns use
``.`` (empty), ``A`` (colour 1) and ``B`` (colour 2). A number before a cell or ``$`` repeats
it; ``$`` ends a row, ``!`` ends the pattern. Rows may stop early (the rest is empty).

**Text grid** (Life's ``.cells`` format, extended to two colours): one row per line, ``.``
empty, ``O`` colour 1, ``X`` colour 2 (also read: ``0``/``_`` empty, ``o``/``1``/``*``/``A``
colour 1, ``x``/``2``/``#``/``B`` colour 2); lines starting with ``!`` are comments.

>>> glider = read_rle("x = 3, y = 3, rule = B3/S23\\nbob$2bo$3o!")
>>> glider.cells.tolist(), glider.rule
([[0, 1, 0], [0, 0, 1], [1, 1, 1]], 'B3/S23')
>>> print(write_rle(glider.cells, rule="B3/S23"), end="")
x = 3, y = 3, rule = B3/S23
bo$2bo$3o!
>>> read_text(".OX\\nX..").cells.tolist()
[[0, 1, 2], [2, 0, 0]]
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from lifearena.errors import ParseError, read_text_file
from lifearena.life.grid import MAX_CELLS, as_grid

_HEADER = re.compile(
    r"x\s*=\s*(?P<x>\d+)\s*,\s*y\s*=\s*(?P<y>\d+)(?:\s*,\s*rule\s*=\s*(?P<rule>[^\s,]*))?\s*",
    re.IGNORECASE,
)
_STATE_OF = {"b": 0, ".": 0, "o": 1, "A": 1, "B": 2}
_TEXT_STATE = {".": 0, "0": 0, "_": 0, "O": 1, "o": 1, "1": 1, "*": 1, "A": 1,
               "X": 2, "x": 2, "2": 2, "#": 2, "B": 2}
LINE_LENGTH = 70


@dataclass
class Pattern:
    """A grid read from a file, with the rule and comments its header gave."""

    cells: np.ndarray
    rule: str | None = None
    comments: list[str] = field(default_factory=list)


def read_rle(text: str, *, max_cells: int = MAX_CELLS) -> Pattern:
    """Parse Golly RLE. Raises :class:`ParseError` naming the line and column of a problem,
    or the header when it asks for more than ``max_cells`` cells (checked before allocating).

    >>> read_rle("x = 2, y = 1\\n2A!").cells.tolist()
    [[1, 1]]
    >>> read_rle("x = 2, y = 1\\n3o!")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    lifearena.errors.ParseError: RLE row 1 is 3 cells long at line 2, column 2; ...
    """
    comments: list[str] = []
    lines = text.splitlines()
    index = 0
    while index < len(lines) and (not lines[index].strip() or lines[index].lstrip()[0] == "#"):
        if lines[index].strip():
            comments.append(lines[index].strip())
        index += 1
    if index == len(lines):
        raise ParseError("RLE has no header line; expected 'x = <width>, y = <height>'")
    header = _HEADER.fullmatch(lines[index].strip())
    if not header:
        raise ParseError(f"bad RLE header at line {index + 1}: {lines[index].strip()!r}; "
                         "expected 'x = <width>, y = <height>[, rule = <rule>]'")
    width, height = int(header["x"]), int(header["y"])
    if width * height > max_cells:
        raise ParseError(f"RLE header asks for {width} x {height} cells; at most {max_cells:,}")
    rule = header["rule"] or None
    cells = np.zeros((max(height, 1), max(width, 1)), dtype=np.int8)
    y = x = 0
    count = ""
    for line_number in range(index + 1, len(lines)):
        line = lines[line_number]
        if line.lstrip().startswith("#"):
            continue
        for column, char in enumerate(line, start=1):
            where = f"at line {line_number + 1}, column {column}"
            if char.isspace():
                continue
            if char.isdigit():
                count += char
                continue
            run = int(count) if count else 1
            count = ""
            if char == "!":
                return Pattern(cells[:height, :width] if width and height else cells, rule,
                               comments)
            if char == "$":
                y += run
                x = 0
                continue
            state = _STATE_OF.get(char)
            if state is None:
                raise ParseError(f"unknown RLE cell state {char!r} {where}; expected b, o "
                                 "(two states) or ., A, B (two colours)")
            if y >= height:
                raise ParseError(f"RLE has more than {height} rows {where}; the header says "
                                 f"y = {height}")
            if x + run > width:
                raise ParseError(f"RLE row {y + 1} is {x + run} cells long {where}; the header "
                                 f"says x = {width}")
            cells[y, x : x + run] = state
            x += run
    raise ParseError("RLE ends without '!'; expected '!' after the last row")


def write_rle(cells: np.ndarray, *, rule: str | None = None, comments: list[str] | None = None
              ) -> str:
    """The grid as RLE: two-state letters when only colour 1 occurs, else ``.AB``."""
    grid = as_grid(cells, allow_batch=False)
    two_state = not np.any(grid == 2)
    symbols = "bo" if two_state else ".AB"
    height, width = grid.shape
    header = f"x = {width}, y = {height}" + (f", rule = {rule}" if rule else "")
    tokens: list[str] = []
    pending_rows = 0
    for row in grid:
        live = np.flatnonzero(row)
        if live.size == 0:
            pending_rows += 1
            continue
        if tokens or pending_rows:
            tokens.append(_run(pending_rows + (1 if tokens else 0), "$"))
        pending_rows = 0
        values = row[: live[-1] + 1]
        starts = np.flatnonzero(np.diff(values, prepend=-1))
        ends = np.append(starts[1:], values.size)
        tokens.extend(_run(int(e - s), symbols[values[s]]) for s, e in zip(starts, ends,
                                                                           strict=True))
    tokens.append("!")
    body_lines: list[str] = []
    current = ""
    for token in tokens:
        if len(current) + len(token) > LINE_LENGTH:
            body_lines.append(current)
            current = ""
        current += token
    body_lines.append(current)
    head = [f"#C {c}" if not c.startswith("#") else c for c in comments or []]
    return "\n".join([*head, header, *body_lines]) + "\n"


def _run(length: int, symbol: str) -> str:
    return symbol if length == 1 else f"{length}{symbol}"


def read_text(text: str) -> Pattern:
    """Parse the plain text grid format (rows padded with empty cells to the longest)."""
    rows: list[list[int]] = []
    comments: list[str] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip()
        if line.startswith("!"):
            comments.append(line[1:].strip())
            continue
        if not line:
            if rows:
                rows.append([])
            continue
        row = []
        for column, char in enumerate(line, start=1):
            if char not in _TEXT_STATE:
                raise ParseError(f"unknown cell {char!r} at line {number}, column {column}; "
                                 "expected . (empty), O (colour 1) or X (colour 2)")
            row.append(_TEXT_STATE[char])
        rows.append(row)
    while rows and not rows[-1]:
        rows.pop()
    if not rows:
        raise ParseError("text grid has no rows; expected lines of '.', 'O' and 'X'")
    width = max(len(r) for r in rows)
    cells = np.zeros((len(rows), width), dtype=np.int8)
    for y, row in enumerate(rows):
        cells[y, : len(row)] = row
    return Pattern(cells, None, comments)


def write_text(cells: np.ndarray) -> str:
    """The grid in the plain text format.

    >>> print(write_text(np.array([[0, 1], [2, 0]])), end="")
    .O
    X.
    """
    grid = as_grid(cells, allow_batch=False)
    return "".join("".join(".OX"[v] for v in row) + "\n" for row in grid)


def load_pattern(path: str | Path, *, max_cells: int = MAX_CELLS) -> Pattern:
    """Read an RLE (``.rle``) or text (anything else; RLE if it has an RLE header) file; an
    RLE header asking for more than ``max_cells`` cells is refused before any allocation."""
    path = Path(path)
    text = read_text_file(path, "a pattern in Golly RLE or a text grid")
    body = [ln for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    is_rle = path.suffix.lower() == ".rle" or bool(body and _HEADER.fullmatch(body[0].strip()))
    try:
        return read_rle(text, max_cells=max_cells) if is_rle else read_text(text)
    except ParseError as error:
        raise ParseError(f"{path}: {error}") from None


def save_pattern(path: str | Path, cells: np.ndarray, *, rule: str | None = None,
                 comments: list[str] | None = None) -> None:
    """Write RLE for ``.rle`` files, the text grid otherwise; written whole or not at all."""
    path = Path(path)
    if path.suffix.lower() == ".rle":
        text = write_rle(cells, rule=rule, comments=comments)
    else:
        text = "".join(f"!{c}\n" for c in comments or []) + write_text(cells)
    temporary = path.with_name(path.name + ".partial")
    temporary.write_text(text, encoding="utf-8")
    temporary.replace(path)
