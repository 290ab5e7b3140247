"""Golly's rule files (``.rule``: ``@RULE NAME`` then ``@TABLE``) both ways (the table
itself is read by :mod:`lifearena.life.golly_tables`).

**Reading** (:func:`read_golly_rule`): a ``@TABLE`` for the Moore neighbourhood with two or
three states, as Golly defines it: ``n_states:``, ``neighborhood:Moore``, ``symmetries:``
(``none``, ``rotate4``, ``rotate8``, ``reflect_horizontal``, ``rotate4reflect``,
``rotate8reflect``, ``permute``), ``var a={0,1,2}`` (a variable may list other variables),
and transitions ``C,N,NE,E,SE,S,SW,W,NW,C'`` (commas may be left out when every state is
one digit). The first transition that matches a neighbourhood under some symmetry gives
the next state; a variable that occurs twice takes the same value both times, and a
neighbourhood no transition matches keeps its state. The table comes out as a plain
:class:`~lifearena.life.rules.Rule` when it is count-based (every neighbourhood with the same
counts of each colour has the same next state), else as a
:class:`~lifearena.life.lookup_rule.LookupRule`. A two-state table runs colour-blind on two
colours, as Life-like rules do (either colour counts as live, a survivor keeps its colour,
a birth is colour 1). ``@TREE`` files, other neighbourhoods and more than three states are
refused by name; ``@COLORS``, ``@ICONS`` and ``@NAMES`` are ignored.

**Writing** (:func:`to_golly_rule`): any deterministic two-colour rule of the engine as a
``@TABLE`` of three states that Golly runs (``bgolly -s DIR -r NAME``): count-based rules
with ``symmetries:permute``, lookup rules with ``symmetries:none``, one transition per
neighbourhood whose next state differs from the cell's. A rule with a fair coin (p2life) is
refused: a coin is not a rule table.

>>> rule = read_golly_rule(to_golly_rule(Rule.named("immigration"), "Immigration"))
>>> type(rule).__name__, rule.name, rule == Rule.named("immigration")
('Rule', 'Immigration', True)
"""

from __future__ import annotations

import re

import numpy as np

from lifearena.errors import RuleError
from lifearena.life.golly_tables import GOLLY_ORDER, configuration_digits, parse_golly_table
from lifearena.life.lookup_rule import AnyRule, LookupRule, check_deterministic
from lifearena.life.rules import Rule


def read_golly_rule(text: str, *, source: str = "rule file") -> AnyRule:
    """The rule of a Golly ``.rule`` text (see the module docstring)."""
    name, table = parse_golly_table(text, source)
    rule = LookupRule(name, table, f"Golly rule table {name} ({source})")
    return rule.count_based() or rule


def to_golly_rule(rule: AnyRule, name: str | None = None) -> str:
    """``rule`` as a Golly ``.rule`` text named ``name`` (default: the rule's name, ``/``
    written ``_`` as file names need)."""
    check_deterministic(rule, "a Golly rule table")
    title = name or rule.name.replace("/", "_")
    if not re.fullmatch(r"[A-Za-z0-9_.+-]+", title):
        raise RuleError(f"Golly rule name {title!r} has characters Golly's rule files do not "
                        "allow; expected letters, digits and _ . + -")
    lines = [f"@RULE {title}", "",
             f"lifearena rule {rule.name}: 0 empty, 1 and 2 the two colours.", "",
             "@TABLE", "n_states:3", "neighborhood:Moore"]
    if isinstance(rule, Rule):
        lines.append("symmetries:permute")
        for state in range(3):
            for n1 in range(9):
                for n2 in range(9 - n1):
                    following = int(rule.table[state, n1, n2])
                    if following != state:
                        neighbours = [1] * n1 + [2] * n2 + [0] * (8 - n1 - n2)
                        lines.append(",".join(map(str, [state, *neighbours, following])))
    else:
        lines.append("symmetries:none")
        digits = configuration_digits()[:, list(GOLLY_ORDER)]
        changed = np.flatnonzero(rule.table != digits[:, 0])
        for index in changed:
            lines.append(",".join(map(str, [*digits[index], int(rule.table[index])])))
    lines += ["", "@COLORS", "1 255 255 255", "2 255 64 64", ""]
    return "\n".join(lines)

