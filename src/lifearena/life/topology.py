"""A pattern's universe in Golly's notation: the suffix of an RLE rule, ``B3/S23:T72,48``.

``:T<w>,<h>`` is a torus of ``w`` by ``h`` cells, ``:P<w>,<h>`` a bounded plane (cells
outside are always empty); one number gives a square (``:T100``). As in Golly, a dimension
of 0 is infinite: ``:P0,0`` and ``:T0,0`` are the unbounded plane, and ``:T0,68`` is a strip
infinite across that wraps top to bottom. Golly's other surfaces (the Klein bottle ``:K``,
the cross-surface ``:C``, the sphere ``:S``) and shifted tori (``:T30+7,20``) are refused by
name.

>>> split_rule("B3/S23:T72,48")
('B3/S23', Topology(kind='torus', width=72, height=48))
>>> split_rule("Immigration")
('Immigration', None)
>>> Topology("bounded", 40, 30).golly_suffix(), Topology.plane().golly_suffix()
(':P40,30', ':P0,0')
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from lifearena.errors import ParseError

Kind = Literal["plane", "bounded", "torus"]

_SUFFIX = re.compile(r"(?P<letter>[A-Za-z])(?P<w>\d+)(?P<wextra>[+*-]?\d*\*?)"
                     r"(?:,(?P<h>\d+)(?P<hextra>[+*-]?\d*\*?))?")
_SURFACES = {"K": "Klein bottle", "C": "cross-surface", "S": "sphere"}


@dataclass(frozen=True)
class Topology:
    """The universe of a pattern: ``kind`` and, for a grid, its size (0: infinite that way)."""

    kind: Kind
    width: int = 0
    height: int = 0

    @classmethod
    def plane(cls) -> Topology:
        """The unbounded plane."""
        return cls("plane", 0, 0)

    @property
    def torus(self) -> bool:
        """Whether the grid wraps around (the flag the kernels take)."""
        return self.kind == "torus"

    def golly_suffix(self) -> str:
        """The ``:T``/``:P`` suffix Golly writes after the rule."""
        letter = "T" if self.kind == "torus" else "P"
        return f":{letter}{self.width},{self.height}"


def split_rule(text: str) -> tuple[str, Topology | None]:
    """The rule and the topology of an RLE ``rule =`` value (``None``: no suffix given)."""
    rule, colon, suffix = text.strip().partition(":")
    if not colon:
        return rule, None
    return rule, parse_topology(suffix, text)


def parse_topology(suffix: str, context: str | None = None) -> Topology:
    """``T72,48``, ``P40,30``, ``T100`` (square) and the like, without the colon.

    >>> parse_topology("K40*,20")
    Traceback (most recent call last):
    ...
    lifearena.errors.ParseError: topology :K40*,20 (Klein bottle) is not supported; expected \
:T<width>,<height> (torus) or :P<width>,<height> (bounded plane)
    """
    expected = "expected :T<width>,<height> (torus) or :P<width>,<height> (bounded plane)"
    where = f" in rule {context!r}" if context is not None and context != suffix else ""
    match = _SUFFIX.fullmatch(suffix.strip())
    letter = suffix.strip()[:1].upper()
    if letter in _SURFACES:
        raise ParseError(f"topology :{suffix.strip()}{where} ({_SURFACES[letter]}) is not "
                         f"supported; {expected}")
    if not match or letter not in "TP":
        raise ParseError(f"bad topology :{suffix.strip()}{where}; {expected}")
    if match["wextra"] or match["hextra"]:
        raise ParseError(f"topology :{suffix.strip()}{where} (a shifted or twisted grid) is "
                         f"not supported; {expected}")
    width = int(match["w"])
    height = int(match["h"]) if match["h"] is not None else width
    if width == 0 and height == 0:
        return Topology.plane()
    return Topology("torus" if letter == "T" else "bounded", width, height)
