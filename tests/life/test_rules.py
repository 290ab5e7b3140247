"""Named rules against hand-worked examples, and the rule table format."""

from __future__ import annotations

import numpy as np
import pytest

from lifearena.errors import RuleError
from lifearena.life.rules import COIN, Rule, available_rules


def entry(rule: str, state: int, n1: int, n2: int) -> int:
    return Rule.named(rule).next_state(state, n1, n2)


def test_life_is_b3_s23_colour_blind():
    assert entry("life", 0, 3, 0) == 1
    assert entry("life", 0, 2, 1) == 1  # colour-blind counting, births are colour 1
    assert entry("life", 0, 2, 0) == 0 and entry("life", 0, 4, 0) == 0
    assert [entry("life", 1, n, 0) for n in range(9)] == [0, 0, 1, 1, 0, 0, 0, 0, 0]
    assert entry("life", 2, 1, 1) == 2  # a survivor keeps its colour


def test_life_like_strings():
    highlife = Rule.from_string("B36/S23")
    assert highlife.name == "B36/S23"
    assert highlife.next_state(0, 6, 0) == 1 and highlife.next_state(0, 5, 0) == 0
    assert Rule.from_string("b3/s23") == Rule.named("life")
    seeds = Rule.from_string("B2/S")
    assert seeds.next_state(1, 2, 0) == 0 and seeds.next_state(0, 1, 1) == 1


def test_immigration_majority_births_and_colour_keeping_survival():
    assert entry("immigration", 0, 3, 0) == 1
    assert entry("immigration", 0, 2, 1) == 1
    assert entry("immigration", 0, 1, 2) == 2
    assert entry("immigration", 0, 0, 3) == 2
    assert entry("immigration", 0, 2, 2) == 0
    assert entry("immigration", 1, 0, 2) == 1  # survives on neighbours of any colour
    assert entry("immigration", 2, 3, 0) == 2
    assert entry("immigration", 1, 1, 0) == 0 and entry("immigration", 2, 2, 2) == 0


def test_p2life_births():
    assert entry("p2life", 0, 3, 0) == 1
    assert entry("p2life", 0, 3, 4) == 1  # b != 3 allows b = 4
    assert entry("p2life", 0, 4, 3) == 2
    assert entry("p2life", 0, 3, 3) == COIN
    assert entry("p2life", 0, 2, 2) == 0


@pytest.mark.parametrize(
    ("w", "b", "survives"),
    [(2, 0, True), (3, 0, True), (4, 0, False), (3, 1, True), (4, 1, True), (5, 2, True),
     (2, 1, True), (1, 0, False), (4, 3, True), (3, 2, True), (1, 1, False), (5, 1, False),
     (0, 0, False), (2, 2, False)],
)
def test_p2life_survival(w: int, b: int, survives: bool):
    # white survives when w - b is 2 or 3, or w - b == 1 and w >= 2; black symmetric
    assert entry("p2life", 1, w, b) == (1 if survives else 0)
    assert entry("p2life", 2, b, w) == (2 if survives else 0)


def test_p2life_variants_differ_from_p2life_exactly_where_stated():
    base = Rule.named("p2life").table
    def changed(name: str) -> set[tuple[int, int, int]]:
        diff = np.argwhere(Rule.named(name).table != base)
        return {tuple(map(int, d)) for d in diff}
    # (1) births need b < 3: w = 3 with b = 4 or 5 no longer gives white (nor symmetric)
    assert changed("p2life-birth-below-3") == {(0, 3, 4), (0, 3, 5), (0, 4, 3), (0, 5, 3)}
    # (2) no coin: only the 3/3 birth changes, to empty
    assert changed("p2life-no-coin") == {(0, 3, 3)}
    assert entry("p2life-no-coin", 0, 3, 3) == 0
    # (3) only w - b in {2, 3}: w - b == 1 and w >= 2 now dies
    expected = {(s, n1, n2) for s in (1, 2) for n1 in range(9) for n2 in range(9 - n1)
                if (n1 - n2 if s == 1 else n2 - n1) == 1 and max(n1, n2) >= 2}
    assert (1, 2, 1) in expected
    assert changed("p2life-plain-survival") == expected
    # (4a) w - b == 1 with w = 1 (b = 0) now survives
    assert changed("p2life-loose-survival") == {(1, 1, 0), (2, 0, 1)}
    # (4b) w - b >= 4 now survives
    assert (1, 4, 0) in changed("p2life-unbounded-survival")
    assert all(abs(n1 - n2) >= 4 for _, n1, n2 in changed("p2life-unbounded-survival"))


def test_variant_aliases_and_symmetry():
    assert Rule.named("p2life-v4a") == Rule.named("p2life-loose-survival")
    for name in available_rules():
        if name.startswith("p2life") or name == "immigration":
            assert Rule.named(name).is_colour_symmetric, name
    assert not Rule.named("life").is_colour_symmetric


def test_table_text_round_trips_every_named_rule():
    for name in available_rules():
        rule = Rule.named(name)
        assert Rule.from_table_text(rule.to_table_text()) == rule
        assert eval(repr(rule), {"Rule": Rule}) == rule


def test_table_text_with_conditions_and_symmetry_builds_p2life():
    text = """
    name: my-p2life
    symmetric
    0 3 0-2,4,5 -> 1      # births
    0 3 3 -> coin
    1 if n1 - n2 in (2, 3) or (n1 - n2 == 1 and n1 >= 2) -> 1
    """
    rule = Rule.from_table_text(text)
    assert rule.name == "my-p2life"
    assert rule == Rule.named("p2life")


def test_user_rule_from_file(tmp_path):
    path = tmp_path / "grow.rule"
    path.write_text("0 1-8 0 -> 1\n1 * * -> 1\n")
    rule = Rule.from_string(f"@{path}")
    assert rule.name == "grow" and rule.next_state(0, 2, 0) == 1 and rule.next_state(0, 0, 1) == 0


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("p3life", "unknown rule 'p3life'"),
        ("B3/S29", "neighbour counts go from 0 to 8"),
        ("0 3 -> 1", "expected two neighbour counts"),
        ("3 3 0 -> 1", "bad state '3'"),
        ("0 3 0 -> 4", "bad next state '4'"),
        ("0 9 0 -> 1", "bad neighbour count range '9'"),
        ("0 5-3 0 -> 1", "bad neighbour count range '5-3'"),
        ("0 if __import__('os') -> 1", "unsupported Call"),
        ("0 if z > 1 -> 1", "unknown name 'z'"),
        ("# nothing\n", "unknown rule"),
        ("@/no/such/file.rule", "cannot read rule file"),
    ],
)
def test_bad_rules_raise_precise_errors(text: str, message: str):
    with pytest.raises(RuleError, match=message.replace("(", r"\(").replace("[", r"\[")):
        Rule.from_string(text)


def test_table_validation():
    table = np.zeros((3, 9, 9), dtype=np.int8)
    table[1, 5, 5] = 1
    with pytest.raises(RuleError, match="n1 \\+ n2 > 8"):
        Rule("bad", table)
    with pytest.raises(RuleError, match="shape"):
        Rule("bad", np.zeros((2, 9, 9)))
