"""The patterns shipped with lifearena: RLE files in ``life/library/`` and their index
(``life/library/index.toml``: file, rule, discoverer, year, source, note), for
``lifearena life patterns`` and ``--pattern NAME``.

>>> entry = library_entry("glider")
>>> entry.rule, entry.discoverer, load_library_pattern("glider").cells.tolist()
('B3/S23', 'Richard K. Guy', [[0, 1, 0], [0, 0, 1], [1, 1, 1]])
>>> library_entry("glidr")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
lifearena.errors.BadParameterError: --pattern 'glidr' is not in the pattern library; ...
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from importlib.resources.abc import Traversable

from lifearena.errors import BadParameterError
from lifearena.life.patterns import Pattern, read_rle


@dataclass(frozen=True)
class LibraryEntry:
    """One pattern of the library and where it comes from."""

    name: str
    file: str
    rule: str
    discoverer: str
    year: int
    source: str
    note: str


def _folder() -> Traversable:
    return files("lifearena.life").joinpath("library")


@cache
def library() -> dict[str, LibraryEntry]:
    """Every pattern of the library by name, in name order."""
    index = tomllib.loads(_folder().joinpath("index.toml").read_text(encoding="utf-8"))
    return {name: LibraryEntry(name=name, **fields) for name, fields in sorted(index.items())}


def library_entry(name: str) -> LibraryEntry:
    """The entry called ``name`` (a one-line error listing the names if there is none)."""
    entries = library()
    key = name.strip().lower()
    if key not in entries:
        raise BadParameterError(f"--pattern {name!r} is not in the pattern library; expected "
                                f"one of {', '.join(entries)} (see 'lifearena life patterns')")
    return entries[key]


def load_library_pattern(name: str) -> Pattern:
    """The cells and rule of the library pattern called ``name``."""
    entry = library_entry(name)
    return read_rle(_folder().joinpath(entry.file).read_text(encoding="utf-8"))
