"""The compiled body of Golly RLE, both ways: numba loops over the bytes.

:func:`decode_body` fills a grid from the run-length body (after the ``x = ..`` header) and
:func:`encode_body` writes a grid's body with the same tokens and line breaks as the plain
writer. Neither explains a problem: on any input it does not accept, :func:`decode_body`
returns ``None`` and :func:`lifearena.life.patterns.read_rle` reads the text again with the
plain reader, whose error names the line and column. Tests hold both to the plain reader
and writer (:func:`~lifearena.life.patterns.read_rle_reference`,
:func:`~lifearena.life.patterns.write_rle_reference`) with hypothesis.

>>> import numpy as np
>>> decode_body(b"bo$2bo$3o!", 3, 3).tolist()
[[0, 1, 0], [0, 0, 1], [1, 1, 1]]
>>> encode_body(np.array([[0, 1, 0], [0, 0, 1], [1, 1, 1]], dtype=np.int8))
'bo$2bo$3o!'
>>> decode_body(b"bo$2bo$3q!", 3, 3) is None
True
"""

from __future__ import annotations

import numpy as np
from numba import njit

LINE_LENGTH = 70
"""The longest body line written, as Golly writes it."""

_STATE = np.full(256, -1, dtype=np.int8)
for _char, _state in ((b"b", 0), (b".", 0), (b"o", 1), (b"A", 1), (b"B", 2)):
    _STATE[_char[0]] = _state
_SPACE = np.zeros(256, dtype=np.bool_)
_SPACE[list(b" \t\r\n\x0b\x0c\x1c\x1d\x1e\x1f\x85")] = True

_BIG = 1 << 40
"""A run longer than this is refused here (the plain reader then names it)."""


def decode_body(body: bytes, width: int, height: int) -> np.ndarray | None:
    """The ``height`` x ``width`` grid the RLE ``body`` describes, or ``None`` when the body
    is anything but valid (unknown character, too many rows or columns, no ``!``)."""
    cells = np.zeros((max(height, 1), max(width, 1)), dtype=np.int8)
    data = np.frombuffer(body, dtype=np.uint8)
    if not _decode(data, cells.reshape(-1), cells.shape[1], width, height, _STATE, _SPACE):
        return None
    return cells[:height, :width] if width and height else cells


@njit(cache=True)
def _decode(data: np.ndarray, cells: np.ndarray, stride: int, width: int, height: int,
            states: np.ndarray, space: np.ndarray) -> bool:  # pragma: no cover - compiled
    x = 0
    y = 0
    count = 0
    counting = False
    line_start = True
    i = 0
    n = data.size
    while i < n:
        char = data[i]
        if line_start and char == 35:  # '#': a comment line inside the body
            while i < n and data[i] != 10:
                i += 1
            continue
        if char == 10:
            line_start = True
            i += 1
            continue
        if space[char]:
            i += 1
            continue
        line_start = False
        if 48 <= char <= 57:
            count = count * 10 + (char - 48)
            counting = True
            if count > _BIG:
                return False
            i += 1
            continue
        run = count if counting else 1
        count = 0
        counting = False
        i += 1
        if char == 33:  # '!'
            return True
        if char == 36:  # '$'
            y += run
            x = 0
            continue
        state = states[char]
        if state < 0 or y >= height or x + run > width:
            return False
        if state:
            start = y * stride + x
            for k in range(start, start + run):
                cells[k] = state
        x += run
    return False


def encode_body(grid: np.ndarray) -> str:
    """The RLE body of a 2-D int8 grid (``bo`` letters without colour 2, else ``.AB``),
    ending with ``!``, lines at most :data:`LINE_LENGTH` characters."""
    height = grid.shape[0]
    symbols = np.frombuffer(b".AB" if np.any(grid == 2) else b"bo", dtype=np.uint8)
    out = np.empty(2 * grid.size + 24 * height + 64, dtype=np.uint8)
    used = _encode(np.ascontiguousarray(grid, dtype=np.int8), symbols, out, LINE_LENGTH)
    return out[:used].tobytes().decode("ascii")


@njit(cache=True, inline="always")
def _put(out: np.ndarray, at: int, line: int, length: int, symbol: int, limit: int
         ) -> tuple[int, int]:  # pragma: no cover - compiled
    """Write one token (``length`` times ``symbol``), breaking the line first when it would
    pass ``limit``; returns the new write position and line length."""
    digits = 0
    if length > 1:
        rest = length
        while rest:
            digits += 1
            rest //= 10
    size = digits + 1
    if line + size > limit:
        out[at] = 10
        at += 1
        line = 0
    for k in range(digits - 1, -1, -1):
        out[at + k] = 48 + length % 10
        length //= 10
    at += digits
    out[at] = symbol
    return at + 1, line + size


@njit(cache=True)
def _encode(grid: np.ndarray, symbols: np.ndarray, out: np.ndarray, limit: int
            ) -> int:  # pragma: no cover - compiled
    height, width = grid.shape
    at = 0
    line = 0
    pending = 0
    started = False
    for y in range(height):
        row = grid[y]
        last = width - 1
        while last >= 0 and row[last] == 0:
            last -= 1
        if last < 0:
            pending += 1
            continue
        if started or pending:
            at, line = _put(out, at, line, pending + (1 if started else 0), 36, limit)
        started = True
        pending = 0
        x = 0
        while x <= last:
            value = row[x]
            end = x + 1
            while end <= last and row[end] == value:
                end += 1
            at, line = _put(out, at, line, end - x, symbols[value], limit)
            x = end
    at, line = _put(out, at, line, 1, 33, limit)
    return at
