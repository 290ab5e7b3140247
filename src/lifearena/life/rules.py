"""Two-colour cellular-automaton rules as data.

A rule is a table ``table[state, n1, n2]`` giving the next state of a cell in ``state``
(0 empty, 1 first colour, 2 second colour) that has ``n1`` neighbours of colour 1 and ``n2``
of colour 2 among its eight Moore neighbours. An entry is 0, 1, 2 or :data:`COIN`, a fair
coin between colours 1 and 2 (see :mod:`lifearena.life.coin`). Entries with
``n1 + n2 > 8`` can never be used and are kept at 0.

Named rules (see ``docs/rules.md`` for the exact statements):

==============================  ==========================================================
``life``                        Conway's B3/S23, colour-blind counting, births colour 1
``B3/S23``, ``B36/S23``, ...    any Life-like rule, counted the same way
``immigration``                 B3/S23, survivors keep their colour, births take the
                                majority colour of the three parents
``p2life``                      Levene and Roussos's two-player Life
``p2life-birth-below-3``        variant 1: birth needs fewer than 3 of the other colour
``p2life-no-coin``              variant 2: a 3/3 birth stays empty
``p2life-plain-survival``       variant 3: survival only when w - b is 2 or 3
``p2life-loose-survival``       variant 4a: second survival clause without w >= 2
``p2life-unbounded-survival``   variant 4b: first survival clause is w - b >= 2
==============================  ==========================================================

Your own rule can be written as a table, one clause per line (or ``;``-separated)::

    # comment lines start with '#'; later clauses override earlier ones
    name: my-rule
    symmetric            # also apply every clause with the colours swapped
    0 3 0-2 -> 1         # STATE N1 N2 -> NEXT, N1/N2: a number, a range a-b, a list 2,3 or *
    0 3 3 -> coin        # NEXT: 0, 1, 2 or coin
    1 if 2 <= n1 - n2 <= 3 or (n1 - n2 == 1 and n1 >= 2) -> 1

Entries no clause mentions are 0 (the cell becomes empty). A condition after ``if`` may use
``n1``, ``n2`` (also ``w`` and ``b``, ``n = n1 + n2``), integers, ``+ - * %``, comparisons,
``in (..)``, ``and``, ``or`` and ``not``.

>>> rule = Rule.named("p2life")
>>> rule.next_state(0, 3, 2), rule.next_state(0, 3, 3) == COIN, rule.next_state(1, 3, 1)
(1, True, 1)
>>> Rule.from_string("B36/S23").next_state(0, 4, 2)
1
>>> Rule.from_string("0 3 * -> 1; 1 2-3 * -> 1").next_state(1, 2, 5)
1
"""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np

from lifearena.errors import RuleError
from lifearena.life.golly_tables import count_table, parse_golly_table
from lifearena.life.rule_notations import parse_one_colour

COIN = 3
"""Table value meaning "a fair coin decides between colour 1 and colour 2"."""

NEXT_NAMES = {"0": 0, "1": 1, "2": 2, "coin": COIN, "empty": 0}
_VALUE_TEXT = {0: "0", 1: "1", 2: "2", COIN: "coin"}

Predicate = Callable[[int, int, int], int]
"""``f(state, n1, n2) -> next`` as used to build a table."""


def _table_from(function: Predicate) -> np.ndarray:
    table = np.zeros((3, 9, 9), dtype=np.int8)
    for state in range(3):
        for n1 in range(9):
            for n2 in range(9 - n1):
                table[state, n1, n2] = function(state, n1, n2)
    return table


class Rule:
    """A two-colour rule: a name and a read-only ``(3, 9, 9)`` int8 table.

    Build one with :meth:`named`, :meth:`life_like`, :meth:`from_table_text`,
    :meth:`from_function` or :meth:`from_string` (which accepts all of these forms).
    Rules compare equal when their tables are equal.

    >>> Rule.named("immigration").next_state(0, 1, 2)
    2
    >>> Rule.named("life") == Rule.from_string("B3/S23")
    True
    """

    __slots__ = ("_key", "description", "name", "table")

    def __init__(self, name: str, table: np.ndarray, description: str = "") -> None:
        table = np.array(table, dtype=np.int8, copy=True)
        if table.shape != (3, 9, 9):
            raise RuleError(f"rule table of {name!r} has shape {table.shape}; expected (3, 9, 9)")
        if table.min() < 0 or table.max() > COIN:
            raise RuleError(f"rule table of {name!r} has values outside 0..3 (0, 1, 2, coin)")
        n1, n2 = np.indices((9, 9))
        if np.any(table[:, n1 + n2 > 8]):
            raise RuleError(
                f"rule table of {name!r} sets entries with n1 + n2 > 8; a cell has 8 neighbours"
            )
        table.setflags(write=False)
        self.name = name
        self.table = table
        self.description = description
        self._key = table.tobytes()

    # -- construction -------------------------------------------------------------------

    @classmethod
    def named(cls, name: str) -> Rule:
        """The rule called ``name`` (case-insensitive), or a Life-like rule in any notation
        Golly reads (``B3/S23``, ``S23/B3``, ``23/3``, ``B3_S23``, or Hensel letters that
        happen to cover whole counts); see :mod:`lifearena.life.rule_notations`.

        Rules are immutable, so the same object is returned for the same name.
        """
        return _named_rule(name) if cls is Rule else cls._build_named(name)

    @classmethod
    def _build_named(cls, name: str) -> Rule:
        key = name.strip().lower()
        key = _ALIASES.get(key, key)
        if key in _NAMED:
            description, function = _NAMED[key]
            return cls(key, _table_from(function), description)
        one_colour = parse_one_colour(name)
        if one_colour is not None:
            if not one_colour.totalistic:
                raise RuleError(
                    f"rule {one_colour.name} is isotropic non-totalistic: its next state is not "
                    "a function of neighbour counts, so it is no Rule; expected a count-based "
                    "rule here (lifearena.life.as_any_rule reads it as a LookupRule)")
            return cls.life_like(one_colour.life_like_name())
        if key in ("lifehistory", "lifesuper"):
            raise RuleError(f"rule {name.strip()} is Golly's Life with extra states that mark "
                            "history (more than three states), which lifearena does not run; "
                            "expected B3/S23 for the same live cells")
        known = ", ".join(sorted(_NAMED))
        raise RuleError(f"unknown rule {name!r}; expected one of {known}, or a Life-like rule "
                        "such as B3/S23, S23/B3 or 23/3")

    @classmethod
    def life_like(cls, text: str) -> Rule:
        """A single-colour Life-like rule such as ``B3/S23`` or ``B36/S23``.

        Neighbours of either colour count as live; a survivor keeps its colour and a birth
        is colour 1, so on one-colour grids this is the usual rule.

        >>> Rule.life_like("b3/s23").name
        'B3/S23'
        """
        match = _LIFE_LIKE.fullmatch(text.strip())
        if not match:
            raise RuleError(
                f"bad Life-like rule {text!r}; expected B<digits>/S<digits> like B3/S23"
            )
        born = {int(c) for c in match.group("b")}
        survive = {int(c) for c in match.group("s")}
        if 9 in born | survive:
            raise RuleError(f"bad Life-like rule {text!r}: neighbour counts go from 0 to 8")
        name = "B" + "".join(map(str, sorted(born))) + "/S" + "".join(map(str, sorted(survive)))

        def function(state: int, n1: int, n2: int) -> int:
            if state == 0:
                return 1 if n1 + n2 in born else 0
            return state if n1 + n2 in survive else 0

        return cls(name, _table_from(function), f"Life-like rule {name}, births colour 1")

    @classmethod
    def from_function(cls, name: str, function: Predicate, description: str = "") -> Rule:
        """A rule from a Python function ``f(state, n1, n2) -> 0 | 1 | 2 | COIN``.

        >>> Rule.from_function("grow", lambda s, n1, n2: s or (1 if n1 else 0)).next_state(0, 1, 0)
        1
        """
        return cls(name, _table_from(function), description)

    @classmethod
    def from_table_text(cls, text: str, name: str = "custom") -> Rule:
        """A rule from the clause format described in this module's docstring."""
        return _parse_table_text(text, name)

    @classmethod
    def from_string(cls, spec: str) -> Rule:
        """A rule name, a ``B.../S...`` string, a table text (with ``->``) or a table file
        (the clause format, or a count-based Golly ``@RULE``/``@TABLE`` file).

        >>> Rule.from_string("Immigration").name
        'immigration'
        """
        text = spec.strip()
        if "->" in text:
            return cls.from_table_text(text)
        path = Path(text.removeprefix("@"))
        if text.startswith("@") or (text.endswith((".rule", ".txt")) and path.is_file()):
            try:
                body = path.read_text(encoding="utf-8")
            except OSError as error:
                raise RuleError(f"cannot read rule file {str(path)!r}: {error.strerror}") from None
            except UnicodeDecodeError:
                raise RuleError(f"rule file {str(path)!r} is not text; expected a rule table "
                                "as 'lifearena life rules NAME' prints it") from None
            if body.lstrip().startswith("@RULE"):
                return _count_based_golly_rule(body, str(path))
            return cls.from_table_text(body, name=path.stem)
        return cls.named(text)

    # -- use -------------------------------------------------------------------------------

    def next_state(self, state: int, n1: int, n2: int) -> int:
        """The table entry for a cell in ``state`` with ``n1``/``n2`` neighbours of colour 1/2."""
        return int(self.table[state, n1, n2])

    @property
    def uses_coin(self) -> bool:
        """Whether any entry is a fair coin."""
        return bool(np.any(self.table == COIN))

    @property
    def is_colour_symmetric(self) -> bool:
        """Whether swapping the two colours maps the rule onto itself."""
        swap = np.array([0, 2, 1, COIN], dtype=np.int8)
        mirrored = swap[self.table[[0, 2, 1]].transpose(0, 2, 1)]
        return bool(np.array_equal(mirrored, self.table))

    def to_table_text(self) -> str:
        """The rule in the clause format; :meth:`from_table_text` reads it back.

        >>> text = Rule.named("immigration").to_table_text()
        >>> Rule.from_table_text(text) == Rule.named("immigration")
        True
        """
        lines = [f"name: {self.name}"]
        for state in range(3):
            for n1 in range(9):
                by_value: dict[int, list[int]] = {}
                for n2 in range(9 - n1):
                    value = int(self.table[state, n1, n2])
                    if value:
                        by_value.setdefault(value, []).append(n2)
                for value, n2s in by_value.items():
                    lines.append(f"{state} {n1} {_format_set(n2s)} -> {_VALUE_TEXT[value]}")
        return "\n".join(lines) + "\n"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Rule) and self._key == other._key

    def __hash__(self) -> int:
        return hash(self._key)

    def __repr__(self) -> str:
        if self.name in _NAMED or _LIFE_LIKE.fullmatch(self.name):
            return f"Rule.named({self.name!r})"
        return f"Rule.from_table_text({self.to_table_text()!r}, name={self.name!r})"

    def __str__(self) -> str:
        return self.name


def _count_based_golly_rule(text: str, source: str) -> Rule:
    """A Golly ``@RULE``/``@TABLE`` file whose table is count-based."""
    name, lookup = parse_golly_table(text, source)
    table = count_table(lookup)
    if table is None:
        raise RuleError(f"Golly rule {name} in {source} is not a function of neighbour "
                        "counts, so it is no Rule; expected a count-based table here "
                        "(lifearena.life.as_any_rule reads it as a LookupRule)")
    return Rule(name, table, f"Golly rule table {name} ({source})")


@functools.lru_cache(maxsize=256)
def _named_rule(name: str) -> Rule:
    return Rule._build_named(name)


def available_rules() -> dict[str, str]:
    """The named rules and a one-line description of each.

    >>> "p2life-no-coin" in available_rules()
    True
    """
    return {name: description for name, (description, _) in _NAMED.items()}


def as_rule(rule: Rule | str) -> Rule:
    """``rule`` itself, or the rule a string names (see :meth:`Rule.from_string`)."""
    if isinstance(rule, Rule):
        return rule
    if isinstance(rule, str):
        return Rule.from_string(rule)
    raise RuleError(f"expected a Rule or a rule string, got {type(rule).__name__}")


# -- the named rules --------------------------------------------------------------------------


def _life(state: int, n1: int, n2: int) -> int:
    if state == 0:
        return 1 if n1 + n2 == 3 else 0
    return state if n1 + n2 in (2, 3) else 0


def _immigration(state: int, n1: int, n2: int) -> int:
    if state == 0:
        if n1 + n2 != 3:
            return 0
        return 1 if n1 >= 2 else 2
    return state if n1 + n2 in (2, 3) else 0


def _p2life_family(
    birth: Callable[[int, int], bool],
    coin: bool,
    survive: Callable[[int, int], bool],
) -> Predicate:
    """A p2life-like rule from white's view: ``birth(w, b)``, ``survive(w, b)``."""

    def function(state: int, n1: int, n2: int) -> int:
        if state == 0:
            if n1 == 3 and n2 == 3:
                return COIN if coin else 0
            if birth(n1, n2):
                return 1
            if birth(n2, n1):
                return 2
            return 0
        own, other = (n1, n2) if state == 1 else (n2, n1)
        return state if survive(own, other) else 0

    return function


def _p2_birth(w: int, b: int) -> bool:
    return w == 3 and b != 3


def _p2_survive(w: int, b: int) -> bool:
    return w - b in (2, 3) or (w - b == 1 and w >= 2)


_NAMED: dict[str, tuple[str, Predicate]] = {
    "life": ("Conway's Life B3/S23; colour-blind counting, births are colour 1", _life),
    "immigration": (
        "B3/S23; survivors keep their colour, a birth takes the majority colour of its 3 parents",
        _immigration,
    ),
    "p2life": (
        "Levene-Roussos two-player Life: birth w=3,b!=3; coin at 3/3; "
        "survive w-b in {2,3} or (w-b=1 and w>=2)",
        _p2life_family(_p2_birth, True, _p2_survive),
    ),
    "p2life-birth-below-3": (
        "p2life variant 1: a birth needs fewer than 3 neighbours of the other colour",
        _p2life_family(lambda w, b: w == 3 and b < 3, True, _p2_survive),
    ),
    "p2life-no-coin": (
        "p2life variant 2: no coin births, a 3/3 cell stays empty",
        _p2life_family(_p2_birth, False, _p2_survive),
    ),
    "p2life-plain-survival": (
        "p2life variant 3: survival only when w-b is 2 or 3",
        _p2life_family(_p2_birth, True, lambda w, b: w - b in (2, 3)),
    ),
    "p2life-loose-survival": (
        "p2life variant 4a: survive when w-b is 1, 2 or 3 (no w>=2 condition)",
        _p2life_family(_p2_birth, True, lambda w, b: w - b in (1, 2, 3)),
    ),
    "p2life-unbounded-survival": (
        "p2life variant 4b: survive when w-b >= 2, or w-b = 1 and w >= 2",
        _p2life_family(_p2_birth, True, lambda w, b: w - b >= 2 or (w - b == 1 and w >= 2)),
    ),
}

_ALIASES = {
    "conway": "life",
    "p2life-v1": "p2life-birth-below-3",
    "p2life-v2": "p2life-no-coin",
    "p2life-v3": "p2life-plain-survival",
    "p2life-v4a": "p2life-loose-survival",
    "p2life-v4b": "p2life-unbounded-survival",
}

_LIFE_LIKE = re.compile(r"[Bb](?P<b>\d*)/[Ss](?P<s>\d*)")


# -- the clause format ------------------------------------------------------------------------

_CLAUSE = re.compile(r"(?P<state>\S+)\s+(?P<cond>.+?)\s*->\s*(?P<next>\S+)")
_ALLOWED_NODES = (
    ast.Expression, ast.BoolOp, ast.And, ast.Or, ast.UnaryOp, ast.Not, ast.USub, ast.UAdd,
    ast.BinOp, ast.Add, ast.Sub, ast.Mult, ast.Mod, ast.Compare, ast.Eq, ast.NotEq, ast.Lt,
    ast.LtE, ast.Gt, ast.GtE, ast.In, ast.NotIn, ast.Name, ast.Load, ast.Constant, ast.Tuple,
    ast.List, ast.Set,
)
_NAMES = ("n1", "n2", "w", "b", "n")


def _format_set(values: list[int]) -> str:
    if len(values) > 1 and values == list(range(values[0], values[-1] + 1)):
        return f"{values[0]}-{values[-1]}"
    return ",".join(map(str, values))


def _parse_count_set(text: str, where: str) -> set[int]:
    if text == "*":
        return set(range(9))
    values: set[int] = set()
    for part in text.split(","):
        match = re.fullmatch(r"(\d)(?:-(\d))?", part)
        if not match:
            raise RuleError(f"bad neighbour count {part!r} {where}; expected 0-8, a-b, a,b or *")
        low = int(match.group(1))
        high = int(match.group(2) or low)
        if low > high or high > 8:
            raise RuleError(
                f"bad neighbour count range {part!r} {where}; expected 0 <= a <= b <= 8"
            )
        values.update(range(low, high + 1))
    return values


def _compile_condition(text: str, where: str) -> Callable[[int, int], bool]:
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError:
        raise RuleError(
            f"bad condition {text!r} {where}; expected an expression in n1, n2"
        ) from None
    for node in ast.walk(tree):
        if not isinstance(node, _ALLOWED_NODES):
            raise RuleError(
                f"unsupported {type(node).__name__} in condition {text!r} {where}; "
                "use n1, n2, w, b, n, integers, arithmetic, comparisons, and/or/not"
            )
        if isinstance(node, ast.Name) and node.id not in _NAMES:
            raise RuleError(f"unknown name {node.id!r} in condition {text!r} {where}; "
                            f"expected one of {', '.join(_NAMES)}")
        if isinstance(node, ast.Constant) and type(node.value) is not int:
            raise RuleError(f"bad constant {node.value!r} in condition {text!r} {where}")
    code = compile(tree, "<rule condition>", "eval")

    def condition(n1: int, n2: int) -> bool:
        names = {"n1": n1, "n2": n2, "w": n1, "b": n2, "n": n1 + n2}
        return bool(eval(code, {"__builtins__": {}}, names))

    return condition


def _clauses(text: str) -> Iterator[tuple[int, str]]:
    for number, raw_line in enumerate(text.splitlines(), start=1):
        for part in raw_line.split("#", 1)[0].split(";"):
            if part.strip():
                yield number, part.strip()


def _parse_table_text(text: str, name: str) -> Rule:
    table = np.zeros((3, 9, 9), dtype=np.int8)
    symmetric = False
    entries: list[tuple[int, Callable[[int, int], bool], int]] = []
    for number, clause in _clauses(text):
        where = f"at line {number}"
        if clause.lower().startswith("name:"):
            name = clause.split(":", 1)[1].strip() or name
            continue
        if clause.lower() == "symmetric":
            symmetric = True
            continue
        match = _CLAUSE.fullmatch(clause)
        if not match:
            raise RuleError(f"bad rule clause {clause!r} {where}; expected 'STATE N1 N2 -> NEXT' "
                            "or 'STATE if CONDITION -> NEXT'")
        state_text, cond_text, next_text = match.group("state", "cond", "next")
        if state_text not in ("0", "1", "2"):
            raise RuleError(f"bad state {state_text!r} {where}; expected 0, 1 or 2")
        if next_text.lower() not in NEXT_NAMES:
            raise RuleError(f"bad next state {next_text!r} {where}; expected 0, 1, 2 or coin")
        if cond_text.startswith("if "):
            condition = _compile_condition(cond_text[3:].strip(), where)
        else:
            counts = cond_text.split()
            if len(counts) != 2:
                raise RuleError(f"bad rule clause {clause!r} {where}; expected two neighbour "
                                "counts N1 N2 (or 'if CONDITION') between the state and '->'")
            set1 = _parse_count_set(counts[0], where)
            set2 = _parse_count_set(counts[1], where)

            def condition(n1: int, n2: int, set1: set[int] = set1, set2: set[int] = set2) -> bool:
                return n1 in set1 and n2 in set2

        entries.append((int(state_text), condition, NEXT_NAMES[next_text.lower()]))
    if not entries:
        raise RuleError(f"rule table {name!r} has no clauses; expected lines like '0 3 * -> 1'")
    swap = (0, 2, 1, COIN)
    for state, condition, value in entries:
        for n1 in range(9):
            for n2 in range(9 - n1):
                if condition(n1, n2):
                    table[state, n1, n2] = value
                if symmetric and condition(n2, n1):
                    table[swap[state], n1, n2] = swap[value]
    return Rule(name, table, "user table")
