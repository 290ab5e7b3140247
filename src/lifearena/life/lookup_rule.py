"""Rules whose next state depends on *where* the neighbours are, not only how many there are:
a :class:`LookupRule` is one lookup over a cell and its eight neighbours.

A :class:`~lifearena.life.rules.Rule` is a ``(3, 9, 9)`` table indexed by the counts of each
colour, which the games and their compiled kernels use. Isotropic non-totalistic (Hensel)
rules such as ``B2-a/S12`` and Golly ``@TABLE`` files without ``symmetries:permute`` are not
functions of those counts; they become a :class:`LookupRule`, whose
:meth:`~LookupRule.transition_table` has ``3**9`` entries in the order of
:func:`lifearena.life.universe.neighbourhood_index`. :func:`lifearena.life.step.evolve` runs
one with the compiled kernel of :mod:`lifearena.life.kernels.lookup`, and HashLife takes any
object with ``.name`` and ``.transition_table()``.

:func:`as_any_rule` reads every rule spelling: a :class:`Rule` wherever the rule is
count-based (a ``@TABLE`` that happens to be count-based comes out as a plain ``Rule``),
else a :class:`LookupRule`.

>>> rule = as_any_rule("B2-a/S12")
>>> type(rule).__name__, rule.name
('LookupRule', 'B2-a/S12')
>>> from lifearena.life.universe import neighbourhood_index
>>> int(rule.transition_table()[neighbourhood_index(0, [1, 1, 0, 0, 0, 0, 0, 0])])  # 2a
0
>>> int(rule.transition_table()[neighbourhood_index(0, [1, 0, 1, 0, 0, 0, 0, 0])])  # 2c
1
>>> type(as_any_rule("S23/B3")).__name__
'Rule'
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from lifearena.errors import RuleError
from lifearena.life.golly_tables import configuration_digits, count_table, parse_golly_table
from lifearena.life.rule_notations import OneColourRule, parse_one_colour
from lifearena.life.rules import COIN, Rule, as_rule
from lifearena.life.universe import CONFIGURATIONS


class LookupRule:
    """A deterministic two-colour rule as a read-only ``(3**9,)`` int8 table of next states
    (0, 1 or 2), indexed as :func:`lifearena.life.universe.neighbourhood_index`.

    Rules compare equal when their tables are equal.
    """

    __slots__ = ("_key", "description", "name", "table")

    def __init__(self, name: str, table: np.ndarray, description: str = "") -> None:
        table = np.array(table, dtype=np.int8, copy=True)
        if table.shape != (CONFIGURATIONS,):
            raise RuleError(f"lookup table of {name!r} has shape {table.shape}; "
                            f"expected ({CONFIGURATIONS},)")
        if table.min() < 0 or table.max() > 2:
            raise RuleError(f"lookup table of {name!r} has values outside 0, 1, 2")
        table.setflags(write=False)
        self.name = name
        self.table = table
        self.description = description
        self._key = table.tobytes()

    @classmethod
    def from_one_colour(cls, rule: OneColourRule) -> LookupRule:
        """A one-colour rule run colour-blind on two colours, as Life-like rules are: any
        live neighbour counts, a survivor keeps its colour, a birth is colour 1."""
        digits = configuration_digits()
        live = (digits[:, :8] != 0).astype(np.int64)
        masks = live @ (1 << np.arange(8))
        centre = digits[:, 8]
        birth = np.zeros(256, dtype=bool)
        birth[list(rule.birth)] = True
        survival = np.zeros(256, dtype=bool)
        survival[list(rule.survival)] = True
        table = np.where(centre == 0, birth[masks].astype(np.int8),
                         np.where(survival[masks], centre, 0))
        return cls(rule.name, table, f"isotropic non-totalistic rule {rule.name}")

    def transition_table(self) -> np.ndarray:
        """The ``(3**9,)`` table itself (read-only)."""
        return self.table

    @property
    def uses_coin(self) -> bool:
        """Always ``False``: a lookup rule is deterministic."""
        return False

    def count_based(self) -> Rule | None:
        """The same rule as a plain :class:`Rule` when every neighbourhood with the same
        counts of each colour has the same next state, else ``None``."""
        table = count_table(self.table)
        return None if table is None else Rule(self.name, table, self.description)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, LookupRule) and self._key == other._key

    def __hash__(self) -> int:
        return hash(self._key)

    def __repr__(self) -> str:
        return f"as_any_rule({self.name!r})"

    def __str__(self) -> str:
        return self.name


AnyRule = Rule | LookupRule
"""Every rule the engine runs: count-based (:class:`Rule`) or a full lookup."""


def as_any_rule(spec: AnyRule | str) -> AnyRule:
    """``spec`` itself, or the rule a string names: what :func:`~lifearena.life.rules.as_rule`
    reads, isotropic non-totalistic rule strings, and Golly ``@RULE`` files (a path ending
    in ``.rule`` or ``@PATH``; see :mod:`lifearena.life.golly_rules`)."""
    if isinstance(spec, Rule | LookupRule):
        return spec
    if not isinstance(spec, str):
        raise RuleError(f"expected a rule or a rule string, got {type(spec).__name__}")
    text = spec.strip()
    one_colour = parse_one_colour(text)
    if one_colour is not None and not one_colour.totalistic:
        return LookupRule.from_one_colour(one_colour)
    if text.lstrip().startswith("@RULE"):
        return _golly_rule(text, "rule text")
    path = Path(text.removeprefix("@"))
    if (text.startswith("@") or text.endswith(".rule")) and path.is_file():
        try:
            body = path.read_bytes().decode("utf-8")
        except (OSError, UnicodeDecodeError):
            return as_rule(text)  # which names what is wrong with the file
        if body.lstrip().startswith("@RULE"):
            return _golly_rule(body, str(path))
    return as_rule(text)


def _golly_rule(text: str, source: str) -> AnyRule:
    """A Golly ``@RULE``/``@TABLE`` text: a :class:`Rule` when count-based."""
    name, table = parse_golly_table(text, source)
    rule = LookupRule(name, table, f"Golly rule table {name} ({source})")
    return rule.count_based() or rule


def check_deterministic(rule: AnyRule, purpose: str) -> None:
    """Refuse a rule with fair-coin entries for ``purpose`` in one line."""
    if isinstance(rule, Rule) and bool(np.any(rule.table == COIN)):
        raise RuleError(f"rule {rule.name} decides some births by a fair coin, and a coin is "
                        f"not a rule table; {purpose} needs a deterministic rule")
