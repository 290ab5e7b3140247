"""One-colour rule strings in the notations Golly reads: ``B3/S23``, ``S23/B3``, ``23/3``
(S/B), ``B3_S23``, and isotropic non-totalistic (Hensel) letters such as ``B2-a/S12``.

A rule is parsed into a :class:`OneColourRule`: the sets of *neighbourhood masks* (bit ``i``
set when neighbour ``i`` of :data:`lifearena.life.universe.NEIGHBOUR_ORDER` is live) for
which an empty cell is born and a live one survives. A rule whose sets are unions of whole
neighbour counts is *totalistic* and becomes a plain :class:`~lifearena.life.rules.Rule`;
the others run as a :class:`~lifearena.life.lookup_rule.LookupRule`.

Hensel's letters name the configurations of ``k`` live neighbours up to rotation and
reflection; ``B2a`` is "born with the two-neighbour configuration *a*", ``B2-a`` "born with
any two-neighbour configuration but *a*", ``B2`` every one of them. Von Neumann (``V``) and
hexagonal (``H``) rules are refused by name: the engine counts the eight Moore neighbours.

This module depends on nothing else of lifearena's rules, so :mod:`lifearena.life.rules`
can use it to read every spelling of a Life-like rule.

>>> parse_one_colour("23/3").name, parse_one_colour("S23/B3").totalistic
('B3/S23', True)
>>> rule = parse_one_colour("b2-a/s12")
>>> rule.name, rule.totalistic, len(rule.birth)
('B2-a/S12', False, 20)
>>> parse_one_colour("immigration") is None
True
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from lifearena.errors import RuleError

_OFFSETS = ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1))
"""``(dx, dy)`` of each neighbour, in the order of ``universe.NEIGHBOUR_ORDER``."""

HENSEL_LETTERS: dict[int, str] = {
    0: "", 1: "ce", 2: "cekain", 3: "cekainyqjr", 4: "cekainyqjrtwz",
    5: "cekainyqjr", 6: "cekain", 7: "ce", 8: "",
}
"""The letters of each neighbour count, in the order rule names are written."""

_REPRESENTATIVE: dict[tuple[int, str], int] = {
    (1, "c"): 0b00000001, (1, "e"): 0b00000010,
    (2, "c"): 0b00000101, (2, "e"): 0b00001010, (2, "k"): 0b00001100,
    (2, "a"): 0b00000011, (2, "i"): 0b00011000, (2, "n"): 0b00100100,
    (3, "c"): 0b00100101, (3, "e"): 0b00011010, (3, "k"): 0b00110010,
    (3, "a"): 0b00001011, (3, "i"): 0b00000111, (3, "n"): 0b00001101,
    (3, "y"): 0b00110001, (3, "q"): 0b00100110, (3, "j"): 0b00001110,
    (3, "r"): 0b00011001,
    (4, "c"): 0b10100101, (4, "e"): 0b01011010, (4, "k"): 0b00110011,
    (4, "a"): 0b00001111, (4, "i"): 0b00011101, (4, "n"): 0b00100111,
    (4, "y"): 0b00110101, (4, "q"): 0b00110110, (4, "j"): 0b00111010,
    (4, "r"): 0b00011011, (4, "t"): 0b00111001, (4, "w"): 0b00101110,
    (4, "z"): 0b00111100,
}
"""One mask of each Hensel class of at most four neighbours, the smallest of its class (bit
``i``: neighbour ``i`` of NW, N, NE, W, E, SW, S, SE). A class of ``k > 4`` neighbours is
the complement of the class of ``8 - k`` with the same letter. Checked against Golly in
``tests/life/test_rule_notations.py``."""

_PART = r"(?:\d-?[a-z]*)*"
_FORMS = (
    (re.compile(rf"[Bb](?P<b>{_PART})[/_][Ss](?P<s>{_PART})"), "B/S"),
    (re.compile(rf"[Ss](?P<s>{_PART})[/_][Bb](?P<b>{_PART})"), "S/B"),
    (re.compile(r"(?P<s>\d*)/(?P<b>\d*)"), "S/B digits"),
)
_OTHER_NEIGHBOURHOOD = re.compile(
    rf"(?:[Bb]{_PART}[/_][Ss]{_PART}|[Ss]{_PART}[/_][Bb]{_PART}|\d*/\d*)/?(?P<n>[VvHh])")
_NEIGHBOURHOOD_NAMES = {"v": "von Neumann (V)", "h": "hexagonal (H)"}
_TOKEN = re.compile(r"(\d)(-?)([a-z]*)")


@dataclass(frozen=True)
class OneColourRule:
    """A one-colour rule as the neighbourhood masks of birth and of survival."""

    name: str
    birth: frozenset[int]
    survival: frozenset[int]

    @property
    def totalistic(self) -> bool:
        """Whether birth and survival depend only on the number of live neighbours."""
        return all(_whole_counts(masks) is not None for masks in (self.birth, self.survival))

    def life_like_name(self) -> str:
        """The ``B.../S...`` name of a totalistic rule (:class:`RuleError` for others)."""
        born, survive = _whole_counts(self.birth), _whole_counts(self.survival)
        if born is None or survive is None:
            raise RuleError(f"rule {self.name!r} is not totalistic; it has no B.../S... name")
        return "B" + "".join(map(str, born)) + "/S" + "".join(map(str, survive))


@functools.lru_cache(maxsize=1)
def hensel_classes() -> dict[int, tuple[int, str]]:
    """Every 8-neighbour mask with its ``(count, letter)`` (letter ``""`` for 0 and 8)."""
    classes: dict[int, tuple[int, str]] = {0: (0, ""), 0xFF: (8, "")}
    for (count, letter), mask in _REPRESENTATIVE.items():
        for image in _images(mask):
            classes[image] = (count, letter)
            if count < 4:
                classes[image ^ 0xFF] = (8 - count, letter)
    return classes


@functools.lru_cache(maxsize=512)
def masks_of(count: int, letters: str = "") -> frozenset[int]:
    """The masks of ``count`` live neighbours in the classes ``letters`` (all when empty)."""
    return frozenset(mask for mask, (k, letter) in hensel_classes().items()
                     if k == count and (not letters or letter in letters))


def parse_one_colour(text: str) -> OneColourRule | None:
    """``text`` as a one-colour rule, ``None`` when it is in none of these notations.

    Raises :class:`RuleError` for a ``V``/``H`` neighbourhood and for letters that a count
    does not have.

    >>> parse_one_colour("B3/S23V")
    Traceback (most recent call last):
    ...
    lifearena.errors.RuleError: rule 'B3/S23V' uses the von Neumann (V) neighbourhood; \
expected a Moore-neighbourhood rule (eight neighbours) such as B3/S23
    """
    spec = text.strip()
    other = _OTHER_NEIGHBOURHOOD.fullmatch(spec)
    if other:
        kind = _NEIGHBOURHOOD_NAMES[other["n"].lower()]
        raise RuleError(f"rule {text!r} uses the {kind} neighbourhood; expected a "
                        "Moore-neighbourhood rule (eight neighbours) such as B3/S23")
    for pattern, _form in _FORMS:
        match = pattern.fullmatch(spec)
        if match:
            birth = _parse_part(match["b"], text, "B")
            survival = _parse_part(match["s"], text, "S")
            return OneColourRule(format_rule(birth, survival), birth, survival)
    return None


def format_rule(birth: frozenset[int], survival: frozenset[int]) -> str:
    """The ``B.../S...`` name of birth and survival mask sets, Hensel letters where a count
    is not whole (the shorter of the letters present and ``-`` with the letters absent).

    >>> format_rule(masks_of(3), masks_of(2) | masks_of(3) - masks_of(3, "a"))
    'B3/S23-a'
    """
    return "B" + _format_part(birth) + "/S" + _format_part(survival)


def _parse_part(part: str, text: str, which: str) -> frozenset[int]:
    masks: set[int] = set()
    for digit, minus, letters in _TOKEN.findall(part):
        count = int(digit)
        if count > 8:
            raise RuleError(f"bad rule {text!r}: {which}{digit} is not a neighbour count; "
                            "neighbour counts go from 0 to 8")
        unknown = sorted(set(letters) - set(HENSEL_LETTERS[count]))
        if unknown:
            allowed = HENSEL_LETTERS[count] or "none"
            raise RuleError(f"bad rule {text!r}: {which}{digit} has no configuration "
                            f"{''.join(unknown)!r}; the letters of {count} are {allowed}")
        if minus and not letters:
            raise RuleError(f"bad rule {text!r}: '{which}{digit}-' names no letters; "
                            f"expected letters after '-' such as {count}-"
                            f"{HENSEL_LETTERS[count][:1] or 'c'}")
        chosen = masks_of(count, letters)
        masks |= (masks_of(count) - chosen) if minus else chosen
    return frozenset(masks)


def _format_part(masks: frozenset[int]) -> str:
    """Hensel's text for a set of masks: a bare count when whole, else the shorter of the
    letters present and ``-`` with the letters absent."""
    classes = hensel_classes()
    out = ""
    for count in range(9):
        whole = masks_of(count)
        present = masks & whole
        if not present:
            continue
        if present == whole:
            out += str(count)
            continue
        letters = [letter for letter in HENSEL_LETTERS[count]
                   if masks_of(count, letter) <= present]
        absent = [letter for letter in HENSEL_LETTERS[count] if letter not in letters]
        assert all(classes[m][1] in letters for m in present)
        out += str(count) + ("".join(letters) if len(letters) <= len(absent)
                             else "-" + "".join(absent))
    return out


def _whole_counts(masks: frozenset[int]) -> list[int] | None:
    counts = []
    for count in range(9):
        present = masks & masks_of(count)
        if present and present != masks_of(count):
            return None
        if present:
            counts.append(count)
    return counts


def _images(mask: int) -> set[int]:
    """``mask`` under the eight rotations and reflections of the square."""
    cells = [_OFFSETS[i] for i in range(8) if mask >> i & 1]
    images = set()
    for turns in range(4):
        for mirror in (False, True):
            image = 0
            for dx, dy in cells:
                x, y = (-dx, dy) if mirror else (dx, dy)
                for _ in range(turns):
                    x, y = -y, x
                image |= 1 << _OFFSETS.index((x, y))
            images.add(image)
    return images
