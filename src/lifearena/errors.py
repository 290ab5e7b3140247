"""The exceptions lifearena raises for bad input.

Every error is a :class:`ValueError` subclass whose message names the offending input and
what was expected, so the command line can print it as one line and exit with status 2.

>>> try:
...     raise ParseError("bad run count 'x' at line 2, column 5; expected a number")
... except ValueError as error:
...     print(error)
bad run count 'x' at line 2, column 5; expected a number
"""

from __future__ import annotations

import re
from pathlib import Path


class LifeArenaError(ValueError):
    """Base class of every error caused by bad input to lifearena."""


class ParseError(LifeArenaError):
    """Text (RLE, a position, a move, a record, a rule table) could not be read."""


class RuleError(LifeArenaError):
    """An unknown rule name or a malformed rule string or table."""


class GridError(LifeArenaError):
    """A grid has the wrong type, shape or cell values."""


class IllegalMoveError(LifeArenaError):
    """A move that the rules do not allow in the current position."""


class BadParameterError(LifeArenaError):
    """A parameter outside its allowed range (a size, a count, a probability...)."""


SIGNATURES: tuple[tuple[bytes, str], ...] = (
    (b"\x89PNG", "PNG image"), (b"GIF8", "GIF image"), (b"%PDF-", "PDF document"),
    (b"PK\x03\x04", "ZIP archive"), (b"\x1f\x8b", "gzip archive"),
    (b"SQLite format 3\x00", "SQLite database"), (b"\xff\xd8\xff", "JPEG image"))
"""The first bytes of common binary files given where text was expected, and what each is
(the replay page in :file:`web/static/lab/replay.js` knows the same)."""
_TEXT_STARTS = tuple(((start.decode("latin-1"), start.decode(errors="replace")), kind)
                     for start, kind in SIGNATURES)
""":data:`SIGNATURES` as text: their bytes read as Latin-1, and as UTF-8 with replacement
characters (how a browser's ``File.text()`` gives them)."""
QUOTE_LIMIT = 100
"""The most characters of a bad line an error quotes (:func:`quoted`)."""
_NOT_TEXT = re.compile("[\x00-\x08\x0b\x0e-\x1f\x7f-\x9f\ufffd]")
"""What no text of lifearena's holds: control characters other than tab, line feed, form feed
and carriage return (C1 ones too, as bytes read as Latin-1 give them), and the replacement
character that stands for bytes that are not UTF-8."""


def binary_kind(text: str) -> str | None:
    """What ``text`` is when it is binary rather than text (a picture, an archive, a database
    read as text): the kind its first bytes name (:data:`SIGNATURES`, read as UTF-8 with
    replacement characters, as a browser's ``File.text()`` gives them, or as Latin-1), else
    ``"not text"`` when it holds control characters; ``None`` when it can be text.

    >>> png = bytes([0x89, 0x50, 0x4e, 0x47, 13, 10, 26, 10, 0, 0])
    >>> binary_kind(png.decode(errors="replace")), binary_kind(png.decode("latin-1"))
    ('PNG image', 'PNG image')
    >>> binary_kind("1. [1,1,2,2]\\x00"), binary_kind('{"game": "losat"}\\r\\n')
    ('not text', None)
    """
    for starts, kind in _TEXT_STARTS:
        if text.startswith(starts):
            return kind
    return None if _NOT_TEXT.search(text) is None else "not text"


def quoted(line: str, limit: int = QUOTE_LIMIT) -> str:
    """``line`` quoted for an error message (its ``repr``: one line, control characters
    escaped), of at most ``limit`` characters between its quotes; a longer line is cut, and
    its length said.

    >>> quoted("1 x")
    "'1 x'"
    >>> quoted("x" * 5000, limit=12)
    "'xxxxxxxxxxxx'… (5000 characters)"
    >>> print(quoted("\\a" * 50, limit=12))
    '\\x07\\x07\\x07'… (50 characters)
    """
    cut = min(len(line), limit)
    while cut > 0 and len(repr(line[:cut])) > limit + 2:
        cut -= 1
    shown = repr(line[:cut])
    return shown if cut == len(line) else f"{shown}… ({len(line)} characters)"


def read_text_file(path: str | Path, expected: str) -> str:
    """The text of the UTF-8 file ``path``; a file that is not text (a picture, a database:
    bytes that are not UTF-8, a NUL byte, or the first bytes of a known binary format,
    :data:`SIGNATURES`) is a :class:`ParseError` of one line naming it, ``expected`` and what
    it seems to be, rather than a line of garbage quoted from its bytes.

    >>> import tempfile
    >>> with tempfile.NamedTemporaryFile(suffix=".rle") as f:
    ...     _ = f.write(bytes([0x34, 0x91, 0xff, 0x06])); f.flush()
    ...     read_text_file(f.name, "a pattern in RLE")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    lifearena.errors.ParseError: '/...rle' is not a text file; expected a pattern in RLE
    >>> with tempfile.NamedTemporaryFile(suffix=".rle") as f:
    ...     _ = f.write(b"GIF89a\\x01\\x00"); f.flush()
    ...     read_text_file(f.name, "a pattern in RLE")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    lifearena.errors.ParseError: '/...rle' is not a text file; expected ..., not a GIF image
    """
    data = Path(path).read_bytes()
    kind = next((kind for start, kind in SIGNATURES if data.startswith(start)), None)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = None
    if kind is not None or text is None or "\x00" in text:
        named = "" if kind is None else f", not a {kind}"
        raise ParseError(f"{str(path)!r} is not a text file; expected {expected}{named}")
    return text.replace("\r\n", "\n").replace("\r", "\n")  # as a text-mode read gives it
