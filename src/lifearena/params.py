"""Typed parameter specs: the one description of a game's parameters that every interface reads.

A :class:`ParamSpec` says a parameter's name, kind (``int``, ``float``, ``bool``, ``choice``
or ``text``), default, bounds or choices, the label and help a person sees, and when a form
shows it. From the same spec the library checks values (:meth:`ParamSpec.check`), the
command line reads text (:meth:`ParamSpec.parse`) and takes its option ranges, the web
form is drawn (:meth:`ParamSpec.to_json`), and the research adapters take plain defaults
(:attr:`ParamSpec.plain_default`).

Two more facts a spec carries:

* ``start``: the parameter makes the start position (a seed, a soup's density, a typed
  position) rather than the rules, so records keep the setup it made, not the value.
* ``served``: the narrower range (or ``False``: not at all) a public server's form offers,
  where a value the library accepts would be too big to draw or too slow to serve.

>>> width = ParamSpec("width", "int", 19, low=5, high=25, label="Width")
>>> width.check(9, "losat")
9
>>> width.check(40, "losat")
Traceback (most recent call last):
...
lifearena.errors.BadParameterError: losat parameter width=40; expected an integer 5..25
>>> width.check(9.0, "losat")
Traceback (most recent call last):
...
lifearena.errors.BadParameterError: losat parameter width=9.0; expected an integer 5..25
>>> width.parse("12"), ParamSpec("torus", "bool", True).parse("no")
(12, False)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from lifearena.errors import BadParameterError

ParamKind = Literal["int", "float", "bool", "choice", "text"]
PlainValue = int | float | bool | str
"""What the research libraries accept as a parameter value (OpenSpiel: no ``None``)."""

_TRUE = ("1", "true", "yes", "on")
_FALSE = ("0", "false", "no", "off")


@dataclass(frozen=True)
class ParamSpec:
    """One parameter of a game: what it is, what it may be, and how people see it.

    ``optional``: the value may also be ``None`` (for example "no turn limit"); outside
    Python (a form, a research library) ``0`` stands for ``None``, so ``low`` must be above 0.
    """

    name: str
    kind: ParamKind
    default: Any
    low: float | None = None
    high: float | None = None
    choices: tuple[Any, ...] = ()
    max_length: int = 0
    label: str = ""
    help: str = ""
    shown_when: tuple[str, Any] | None = None
    """``(other parameter, value)``: a form shows this one only while the other has that
    value."""
    start: bool = False
    optional: bool = False
    served: tuple[float, float] | bool = True
    """The range a public server's form offers (``True``: the whole range; ``False``: the
    parameter is not in the form and keeps its default)."""
    served_default: Any = None
    """What a server's form starts from, where that differs from :attr:`default` (``None``:
    the default)."""
    drawn: bool = False
    """A public server draws a fresh value for each new game whose request leaves this
    parameter out (a random start's seed: every quick game starts somewhere new); a value
    the request names is kept, so a start can be played again."""

    def __post_init__(self) -> None:
        if self.kind in ("int", "float") and (self.low is None or self.high is None):
            raise BadParameterError(f"parameter spec {self.name!r}: a number needs low and high")
        if self.kind == "choice" and not self.choices:
            raise BadParameterError(f"parameter spec {self.name!r}: a choice needs choices")
        if self.kind == "text" and self.max_length < 1:
            raise BadParameterError(f"parameter spec {self.name!r}: text needs a max_length")
        if self.optional and self.low is not None and self.low <= 0:
            raise BadParameterError(f"parameter spec {self.name!r}: optional numbers must be "
                                    "above 0 (0 stands for None)")

    # -- reading values ---------------------------------------------------------------------

    def check(self, value: Any, game: str = "", *, served: bool = False) -> Any:
        """``value`` as this parameter's type, or :class:`BadParameterError` naming the
        parameter and what was expected. Exact types only: ``9.0`` is not an integer and
        ``True`` not a number. ``served``: check against the server's narrower range."""
        where = f"{game + ' ' if game else ''}parameter {self.name}={value!r:.60}"
        if value is None and self.optional:
            return None
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
            raise BadParameterError(f"{where}; expected true or false")
        if self.kind == "choice":
            for choice in self.choices:
                if type(value) is type(choice) and value == choice:
                    return choice
            raise BadParameterError(f"{where}; expected one of "
                                    f"{', '.join(str(c) for c in self.choices)}")
        if self.kind == "text":
            if isinstance(value, str) and len(value) <= self.max_length:
                return value.strip()
            raise BadParameterError(f"{game + ' ' if game else ''}parameter {self.name}: "
                                    f"expected text of at most {self.max_length} characters")
        low, high = self.bounds(served=served)
        number = isinstance(value, int | float) and not isinstance(value, bool)
        if self.kind == "int":
            number = number and isinstance(value, int)
        elif number:
            number = math.isfinite(value)
        if not number or not low <= value <= high:
            raise BadParameterError(f"{where}; expected {self.expected(served=served)}")
        if self.optional and value == 0:
            return None
        return int(value) if self.kind == "int" else float(value)

    def parse(self, text: str, game: str = "") -> Any:
        """A value written as text (a command line's, a query's), checked.

        >>> ParamSpec("density", "float", 0.35, low=0.0, high=1.0).parse("0.5")
        0.5
        >>> ParamSpec("max_turns", "int", None, low=1, high=500, optional=True).parse("0")
        """
        raw = text.strip()
        value: Any = raw
        if self.kind == "bool":
            lowered = raw.lower()
            value = True if lowered in _TRUE else False if lowered in _FALSE else raw
        elif self.kind == "int" or (self.kind == "choice" and isinstance(self.choices[0], int)):
            try:
                value = int(raw)
            except ValueError:
                value = raw
        elif self.kind == "float":
            try:
                value = float(raw)
            except ValueError:
                value = raw
        return self.check(value, game)

    # -- describing -------------------------------------------------------------------------

    def bounds(self, *, served: bool = False) -> tuple[float, float]:
        """``(low, high)`` of a number (the server's range with ``served``); ``0`` is allowed
        too when the parameter is optional."""
        assert self.low is not None and self.high is not None
        low, high = self.low, self.high
        if served and isinstance(self.served, tuple):
            low, high = self.served
        if self.optional:
            low = 0
        return low, high

    def expected(self, *, served: bool = False) -> str:
        """What a valid value is, in words (``an integer 5..25``)."""
        if self.kind == "bool":
            return "true or false"
        if self.kind == "choice":
            return f"one of {', '.join(str(c) for c in self.choices)}"
        if self.kind == "text":
            return f"text of at most {self.max_length} characters"
        low, high = self.bounds(served=served)
        if self.kind == "int":
            return f"an integer {int(low)}..{int(high)}" + (" (0: none)" if self.optional
                                                            else "")
        return f"a number {low:g}..{high:g}"

    @property
    def plain_default(self) -> PlainValue:
        """The default as a plain value (``None`` reads ``0``).

        >>> ParamSpec("max_turns", "int", None, low=1, high=500, optional=True).plain_default
        0
        """
        value: PlainValue = 0 if self.default is None else self.default
        return value

    @property
    def form_default(self) -> Any:
        """The value a server's form starts from (and takes when a client leaves it out)."""
        return self.default if self.served_default is None else self.served_default

    @property
    def is_served(self) -> bool:
        """Whether a public server's form offers this parameter."""
        return self.served is not False

    def to_json(self, *, served: bool = True) -> dict[str, Any]:
        """The spec as a form reads it (the server's range with ``served``)."""
        low = high = None
        if self.kind in ("int", "float"):
            low, high = self.bounds(served=served)
        default = self.form_default if served else self.default
        return {"name": self.name, "label": self.label or self.name, "kind": self.kind,
                "default": 0 if default is None else default, "low": low, "high": high,
                "choices": list(self.choices), "help": self.help,
                "max_length": self.max_length,
                "shown_when": list(self.shown_when) if self.shown_when else None,
                "drawn": self.drawn}


def check_values(specs: Iterable[ParamSpec], values: Mapping[str, Any], game: str = "", *,
                 served: bool = False) -> dict[str, Any]:
    """Every parameter of ``specs``, from ``values`` or its default, checked; an unknown name
    is a :class:`BadParameterError` listing the known ones. With ``served``, parameters the
    server's form does not offer keep their defaults.

    >>> specs = (ParamSpec("k", "int", 2, low=1, high=64),)
    >>> check_values(specs, {"k": 3})
    {'k': 3}
    >>> check_values(specs, {"kk": 3}, "blocking_queen")
    Traceback (most recent call last):
    ...
    lifearena.errors.BadParameterError: unknown blocking_queen parameter(s) kk; expected some of k
    """
    specs = tuple(specs)
    known = {s.name for s in specs if s.is_served or not served}
    unknown = sorted(set(values) - known)
    if unknown:
        raise BadParameterError(f"unknown {game + ' ' if game else ''}parameter(s) "
                                f"{', '.join(unknown):.200}; expected some of "
                                f"{', '.join(sorted(known)) or '(none)'}")
    return {s.name: s.check(values[s.name], game, served=served) if s.name in values
            else s.form_default if served else s.default for s in specs}


def spec_table(specs: Iterable[ParamSpec]) -> dict[str, ParamSpec]:
    """The specs by name (a game's ``SPECS`` as a lookup table)."""
    return {s.name: s for s in specs}
