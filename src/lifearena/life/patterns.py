"""Patterns in and out: Golly's files (RLE, ``.rle.gz``, Life 1.05/1.06, ``.cells``,
macrocell) and a plain text grid for small boards.

**RLE** (as Golly and LifeViewer read it)::

    #CXRLE Pos=-1,-1 Gen=4
    #N glider
    #C any comment lines start with '#'
    x = 3, y = 3, rule = B3/S23:T72,48
    bob$2bo$3o!

The rule may end with Golly's topology suffix (``:T72,48`` a torus, ``:P40,30`` a bounded
plane; see :mod:`lifearena.life.topology`), kept as :attr:`Pattern.topology`.
``#CXRLE Pos=x,y`` puts the top-left cell at ``(x, y)`` (``(0, 0)`` without one) and ``Gen=g``
gives the generation
(:attr:`Pattern.origin`, :attr:`Pattern.generation`). Rules are written under the names
Golly knows (:func:`golly_rule_name`: ``B3/S23`` for ``life``, ``Immigration``); rules Golly
has no name for (p2life) keep their lifearena name. The body is read and written by the
compiled loops of :mod:`lifearena.life.fast_rle`; :func:`read_rle_reference` and
:func:`write_rle_reference` are the plain ones they are tested against.

Two-state patterns use ``b`` (empty) and ``o`` (live, colour 1); multi-state patterns use
``.`` (empty), ``A`` (colour 1) and ``B`` (colour 2). A number before a cell or ``$`` repeats
it; ``$`` ends a row, ``!`` ends the pattern. Rows may stop early (the rest is empty).

**Text grid** (Life's plaintext ``.cells`` format, extended to two colours): one row per
line, ``.`` empty, ``O`` colour 1, ``X`` colour 2 (also read: ``0``/``_`` empty,
``o``/``1``/``*``/``A`` colour 1, ``x``/``2``/``#``/``B`` colour 2); lines starting with
``!`` are comments (``!Name: glider``).

**Files** (:func:`load_pattern`, :func:`save_pattern`): the format comes from the content
where it says (gzip's magic bytes, ``[M2]`` for macrocell, ``#Life 1.05``/``#Life 1.06``, an
RLE header) and else from the extension: ``.rle``, ``.rle.gz``, ``.mc``, ``.mc.gz``,
``.lif``/``.life``, ``.cells``, ``.txt``. Other Golly files (``.zip``, ``.lua``, ``.py``,
``.mcl``) and unknown extensions are refused by name. Macrocell files are read and written
by :mod:`lifearena.life.macrocell`.

>>> glider = read_rle("x = 3, y = 3, rule = B3/S23\\nbob$2bo$3o!")
>>> glider.cells.tolist(), glider.rule
([[0, 1, 0], [0, 0, 1], [1, 1, 1]], 'B3/S23')
>>> print(write_rle(glider.cells, rule="immigration", origin=(-1, 0)), end="")
#CXRLE Pos=-1,0
x = 3, y = 3, rule = Immigration
bo$2bo$3o!
>>> read_rle("x = 1, y = 1, rule = B3/S23:T72,48\\no!").topology
Topology(kind='torus', width=72, height=48)
>>> read_text(".OX\\nX..").cells.tolist()
[[0, 1, 2], [2, 0, 0]]
"""

from __future__ import annotations

import gzip
import re
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from lifearena.errors import BadParameterError, ParseError, binary_kind
from lifearena.life.grid import MAX_CELLS, as_grid
from lifearena.life.lif_format import (
    read_life_105,
    read_life_106,
    write_life_105,
    write_life_106,
)
from lifearena.life.topology import Topology, split_rule

_HEADER = re.compile(
    r"x\s*=\s*(?P<x>\d+)\s*,\s*y\s*=\s*(?P<y>\d+)(?:\s*,\s*rule\s*=\s*(?P<rule>\S.*?))?\s*",
    re.IGNORECASE,
)
_CXRLE = re.compile(r"#CXRLE(?P<fields>.*)")
_CXRLE_FIELD = re.compile(r"(?P<key>\w+)\s*=\s*(?P<value>\S+)")
_STATE_OF = {"b": 0, ".": 0, "o": 1, "A": 1, "B": 2}
_TEXT_STATE = {".": 0, "0": 0, "_": 0, "O": 1, "o": 1, "1": 1, "*": 1, "A": 1,
               "X": 2, "x": 2, "2": 2, "#": 2, "B": 2}
LINE_LENGTH = 70


GOLLY_NAMES = {"life": "B3/S23", "conway": "B3/S23", "immigration": "Immigration"}
"""lifearena's rule names that Golly knows under another name."""


def golly_rule_name(rule: str) -> str:
    """The name Golly knows ``rule`` by (``B3/S23`` for ``life``, ``Immigration``); other
    rules keep their name.

    >>> golly_rule_name("life"), golly_rule_name("immigration"), golly_rule_name("p2life")
    ('B3/S23', 'Immigration', 'p2life')
    """
    return GOLLY_NAMES.get(rule.strip().lower(), rule)


@dataclass
class Pattern:
    """A grid read from a file, with what its header gave: the rule (without the topology
    suffix), comments, the topology (``None``: the file named none), the absolute position
    ``(x, y)`` of the top-left cell and the generation. ``tree`` is the HashLife universe of
    a macrocell file too large for a grid (``cells`` is then one empty cell), only when
    :func:`load_pattern` is asked for trees."""

    cells: np.ndarray
    rule: str | None = None
    comments: list[str] = field(default_factory=list)
    topology: Topology | None = None
    origin: tuple[int, int] = (0, 0)
    generation: int = 0
    tree: Any = None


@dataclass
class _Header:
    """What comes before an RLE body."""

    width: int
    height: int
    rule: str | None
    topology: Topology | None
    comments: list[str]
    origin: tuple[int, int]
    generation: int
    line: int
    """0-based index of the header line."""


def _read_header(text: str, max_cells: int) -> tuple[_Header, int]:
    """The header and the offset in ``text`` where the body starts."""
    comments: list[str] = []
    origin = (0, 0)
    generation = 0
    offset = 0
    line_index = 0
    while offset < len(text):
        end = text.find("\n", offset)
        end = len(text) if end < 0 else end
        line = text[offset:end].strip()
        if line and not line.startswith("#"):
            break
        if line.startswith("#CXRLE"):
            origin, generation = _cxrle(line, line_index)
        elif line:
            comments.append(line)
        offset = end + 1
        line_index += 1
    else:
        raise ParseError("RLE has no header line; expected 'x = <width>, y = <height>'")
    header = _HEADER.fullmatch(line)
    if not header:
        raise ParseError(f"bad RLE header at line {line_index + 1}: {line!r}; "
                         "expected 'x = <width>, y = <height>[, rule = <rule>]'")
    width, height = int(header["x"]), int(header["y"])
    if width * height > max_cells:
        raise ParseError(f"RLE header asks for {width} x {height} cells; at most {max_cells:,}")
    rule, topology = split_rule(header["rule"]) if header["rule"] else (None, None)
    return _Header(width, height, rule or None, topology, comments, origin, generation,
                   line_index), end + 1


def _cxrle(line: str, index: int) -> tuple[tuple[int, int], int]:
    """``#CXRLE Pos=x,y Gen=g``: the top-left cell and the generation."""
    origin, generation = (0, 0), 0
    match = _CXRLE.fullmatch(line)
    for item in _CXRLE_FIELD.finditer(match["fields"] if match else ""):
        key, value = item["key"].lower(), item["value"]
        if key == "pos":
            position = re.fullmatch(r"(-?\d+),(-?\d+)", value)
            if not position:
                raise ParseError(f"bad #CXRLE Pos={value} at line {index + 1}; expected "
                                 "Pos=<x>,<y> such as Pos=-3,5")
            origin = (int(position[1]), int(position[2]))
        elif key == "gen":
            if not value.isdigit():
                raise ParseError(f"bad #CXRLE Gen={value} at line {index + 1}; expected a "
                                 "generation number such as Gen=100")
            generation = int(value)
    return origin, generation


COMPILED_FROM = 1 << 16
"""Bodies of at least this many characters (grids of this many cells) are read (written) by
the compiled loops of :mod:`lifearena.life.fast_rle`; smaller ones by the plain loops, which
give the same result without loading numba (a one-generation run starts in a fraction of a
second)."""


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
    header, body_start = _read_header(text, max_cells)
    if len(text) - body_start < COMPILED_FROM:
        return read_rle_reference(text, max_cells=max_cells)
    from lifearena.life.fast_rle import decode_body  # loads numba: only for large bodies

    try:
        body = text[body_start:].encode("ascii")
    except UnicodeEncodeError:
        body = None
    cells = None if body is None else decode_body(body, header.width, header.height)
    if cells is None:  # the plain reader names what is wrong
        cells = read_rle_reference(text, max_cells=max_cells).cells
    return Pattern(cells, header.rule, header.comments, header.topology, header.origin,
                   header.generation)


def read_rle_reference(text: str, *, max_cells: int = MAX_CELLS) -> Pattern:
    """The plain RLE reader, one character at a time: what :func:`read_rle`'s compiled loop
    is tested against, and what explains a bad body."""
    header, _ = _read_header(text, max_cells)
    lines = text.splitlines()
    width, height = header.width, header.height
    cells = np.zeros((max(height, 1), max(width, 1)), dtype=np.int8)
    found = Pattern(cells, header.rule, header.comments, header.topology, header.origin,
                    header.generation)
    y = x = 0
    count = ""
    for line_number in range(header.line + 1, len(lines)):
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
                if width and height:
                    found.cells = cells[:height, :width]
                return found
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


def write_rle(cells: np.ndarray, *, rule: str | None = None, comments: list[str] | None = None,
              topology: Topology | None = None, origin: tuple[int, int] | None = None,
              generation: int = 0) -> str:
    """The grid as RLE: two-state letters when only colour 1 occurs, else ``.AB``; the rule
    under its Golly name with ``topology``'s suffix; a ``#CXRLE`` line when ``origin`` is
    given or ``generation`` is not 0."""
    grid = as_grid(cells, allow_batch=False)
    if grid.size < COMPILED_FROM:
        return write_rle_reference(grid, rule=rule, comments=comments, topology=topology,
                                   origin=origin, generation=generation)
    from lifearena.life.fast_rle import encode_body  # loads numba: only for large grids

    return _rle_head(grid, rule, comments, topology, origin, generation) + encode_body(grid) \
        + "\n"


def write_rle_reference(cells: np.ndarray, *, rule: str | None = None,
                        comments: list[str] | None = None, topology: Topology | None = None,
                        origin: tuple[int, int] | None = None, generation: int = 0) -> str:
    """The plain RLE writer (numpy runs, Python tokens) that :func:`write_rle` equals."""
    grid = as_grid(cells, allow_batch=False)
    two_state = not np.any(grid == 2)
    symbols = "bo" if two_state else ".AB"
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
    return _rle_head(grid, rule, comments, topology, origin, generation) \
        + "\n".join(body_lines) + "\n"


def _rle_head(grid: np.ndarray, rule: str | None, comments: list[str] | None,
              topology: Topology | None, origin: tuple[int, int] | None, generation: int) -> str:
    height, width = grid.shape
    if generation < 0:
        raise BadParameterError(f"generation {generation} is negative; expected >= 0")
    lines = []
    if origin is not None or generation:
        x, y = origin or (0, 0)
        lines.append(f"#CXRLE Pos={x},{y}" + (f" Gen={generation}" if generation else ""))
    lines += [f"#C {c}" if not c.startswith("#") else c for c in comments or []]
    rule_text = golly_rule_name(rule) if rule else ("B3/S23" if topology else "")
    if topology is not None:
        rule_text += topology.golly_suffix()
    lines.append(f"x = {width}, y = {height}" + (f", rule = {rule_text}" if rule_text else ""))
    return "\n".join(lines) + "\n"


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


_REFUSED = {
    ".zip": "a zip archive of patterns and scripts (unpack it and load a pattern in it)",
    ".lua": "a Golly Lua script (run it in Golly)",
    ".py": "a Golly Python script (run it in Golly)",
    ".mcl": "an MCell pattern (MCell's format is not supported)",
    ".rule": "a rule file (give it as the rule: --rule FILE.rule)",
}
"""Files Golly opens that are not patterns lifearena reads, and what each is."""
_TEXT_SUFFIXES = (".rle", ".cells", ".txt", ".lif", ".life", ".mc")
GZIP_MAGIC = b"\x1f\x8b"
MAX_TEXT_BYTES = 1 << 31
"""The most bytes a compressed pattern may expand to."""


def load_pattern(path: str | Path, *, max_cells: int = MAX_CELLS,
                 trees: bool = False) -> Pattern:
    """Read a pattern file in any format of this module's docstring; a header asking for
    more than ``max_cells`` cells is refused before any allocation. Errors name the file.

    The content decides where it says what it is (gzip magic, ``[M2]``, ``#Life 1.0x``, an
    RLE header), the extension otherwise (``.rle``; ``.lif``/``.life``; ``.cells``/``.txt``
    text grids); anything else is refused by name in one line. With ``trees``, a macrocell
    pattern larger than ``max_cells`` comes as its HashLife universe (:attr:`Pattern.tree`)
    instead of being refused."""
    path = Path(path)
    try:
        return _load(path, max_cells, trees)
    except ParseError as error:
        message = str(error)
        raise ParseError(message if message.startswith(repr(str(path))) or
                         message.startswith(f"{path}:") else f"{path}: {message}") from None


def _load(path: Path, max_cells: int, trees: bool = False) -> Pattern:
    suffixes = [s.lower() for s in path.suffixes[-2:]]
    suffix = path.suffix.lower()
    if suffix in _REFUSED:
        raise ParseError(f"{suffix} files are not patterns lifearena reads: "
                         f"{_REFUSED[suffix]}; expected {_EXPECTED}")
    try:
        data = path.read_bytes()
    except OSError as error:
        raise ParseError(f"cannot read {str(path)!r}: {error.strerror}") from None
    compressed = data.startswith(GZIP_MAGIC)
    if compressed:
        data = _gunzip(data)
        suffix = suffixes[0] if len(suffixes) == 2 and suffixes[1] == ".gz" else ""
    if data.lstrip().startswith(b"[M2]") or suffix == ".mc":
        return _load_macrocell(data, max_cells, trees)
    text = _as_text(data, path)
    first = text.lstrip()[:10].lower()
    if first.startswith(("#life 1.05", "#life 1.06")):
        read = read_life_105 if first.startswith("#life 1.05") else read_life_106
        life = read(text, max_cells=max_cells)
        return Pattern(life.cells, life.rule, life.comments, origin=life.origin)
    body = [ln for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    if suffix == ".rle" or (body and _HEADER.fullmatch(body[0].strip())):
        return read_rle(text, max_cells=max_cells)
    if suffix in (".cells", ".txt") or (not suffix and not compressed):
        return read_text(text)
    if suffix in (".lif", ".life"):
        raise ParseError("Life file has no '#Life 1.05' or '#Life 1.06' first line; expected "
                         "one of them")
    raise ParseError(f"unknown pattern file type {suffix or 'without extension'!r}; "
                     f"expected {_EXPECTED}")


_EXPECTED = ".rle, .rle.gz, .mc, .mc.gz, .lif, .life, .cells or .txt"


def _gunzip(data: bytes) -> bytes:
    decompressor = zlib.decompressobj(wbits=16 + zlib.MAX_WBITS)
    try:
        out = decompressor.decompress(data, MAX_TEXT_BYTES)
    except zlib.error as error:
        raise ParseError(f"broken gzip data ({error}); expected a gzip-compressed pattern") \
            from None
    if decompressor.unconsumed_tail:
        raise ParseError(f"gzip data expands past {MAX_TEXT_BYTES:,} bytes; expected a "
                         "smaller pattern")
    return out


def _as_text(data: bytes, path: Path) -> str:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = None
    kind = None if text is None else binary_kind(text[:64])
    if text is None or kind is not None or "\x00" in text:
        named = "" if kind in (None, "not text") else f", not a {kind}"
        raise ParseError(f"{str(path)!r} is not a text file; expected a pattern in Golly RLE "
                         f"or a text grid{named}")
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _load_macrocell(data: bytes, max_cells: int, trees: bool = False) -> Pattern:
    """A macrocell file through :mod:`lifearena.life.macrocell`, its universe cut to the
    bounding box of its cells (at most ``max_cells`` of them: a larger pattern is read as a
    universe, :func:`lifearena.life.macrocell.load_macrocell`)."""
    from lifearena.life.macrocell import read_macrocell  # HashLife's: only for .mc files

    found = read_macrocell(data)
    universe = found.universe
    rule = found.rule or "B3/S23"  # Golly reads a file without '#R' as Life
    box = universe.bounding_box()
    if box is None:
        return Pattern(np.zeros((1, 1), dtype=np.int8), rule, list(found.comments),
                       generation=found.generation)
    if box.width * box.height > max_cells and trees:
        return Pattern(np.zeros((1, 1), dtype=np.int8), rule, list(found.comments),
                       None, (box.x, box.y), found.generation, tree=universe)
    if box.width * box.height > max_cells:
        raise ParseError(f"macrocell pattern spans {box.width:,} x {box.height:,} cells; "
                         f"expected at most {max_cells:,} cells for a grid")
    return Pattern(universe.cells(box), rule, list(found.comments), None,
                   (box.x, box.y), found.generation)


def save_pattern(path: str | Path, cells: np.ndarray, *, rule: str | None = None,
                 comments: list[str] | None = None, topology: Topology | None = None,
                 origin: tuple[int, int] | None = None, generation: int = 0) -> None:
    """Write the format the name asks for, whole or not at all: RLE (``.rle``, gzipped for
    ``.rle.gz``), Life 1.05 (``.lif``), Life 1.06 (``.life``), plaintext (``.cells``,
    anything else). ``.mc`` is refused here (macrocell files are written from a universe by
    :mod:`lifearena.life.macrocell`)."""
    path = Path(path)
    name = path.name.lower()
    if name.endswith((".rle", ".rle.gz")):
        text = write_rle(cells, rule=rule, comments=comments, topology=topology, origin=origin,
                         generation=generation)
    elif name.endswith(".life"):
        text = write_life_106(cells, origin=origin or (0, 0))
    elif name.endswith(".lif"):
        text = write_life_105(cells, rule=rule, origin=origin or (0, 0), comments=comments)
    elif name.endswith((".mc", ".mc.gz")):
        raise ParseError(f"{path}: macrocell files are written from a universe "
                         "(lifearena.life.macrocell.write_macrocell); expected .rle here")
    else:
        text = "".join(f"!{c}\n" for c in comments or []) + write_text(cells)
    data = text.encode("utf-8")
    if name.endswith(".gz"):
        data = gzip.compress(data, mtime=0)
    temporary = path.with_name(path.name + ".partial")
    temporary.write_bytes(data)
    temporary.replace(path)
