"""Rule strings in Golly's notations, Hensel's letters held to Golly itself, and lookup
rules on the compiled kernel held to the simple step."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from lifearena.errors import RuleError
from lifearena.life.kernels.lookup import lookup_evolve, lookup_step_numpy
from lifearena.life.lookup_rule import LookupRule, as_any_rule
from lifearena.life.rule_notations import (
    HENSEL_LETTERS,
    format_rule,
    hensel_classes,
    masks_of,
    parse_one_colour,
)
from lifearena.life.rules import Rule
from lifearena.life.step import evolve
from lifearena.life.universe import transition_table

from .conftest import bgolly_run, crop, needs_bgolly


@pytest.mark.parametrize("spelling", ["B3/S23", "b3/s23", "S23/B3", "23/3", "B3_S23",
                                      "B3/S2cekain3", "B3cekainyqjr/S23"])
def test_every_spelling_of_life_is_life(spelling: str) -> None:
    assert Rule.named(spelling) == Rule.named("life")
    assert Rule.named(spelling).name == "B3/S23"


@pytest.mark.parametrize(("text", "message"), [
    ("B3/S23V", r"von Neumann \(V\) neighbourhood"),
    ("B2/S34H", r"hexagonal \(H\) neighbourhood"),
    ("B2x/S23", "B2 has no configuration 'x'"),
    ("B1k/S23", "B1 has no configuration 'k'"),
    ("B3/S2-3", "names no letters"),
    ("B3/S29", "neighbour counts go from 0 to 8"),
])
def test_bad_notations_are_named(text: str, message: str) -> None:
    with pytest.raises(RuleError, match=message):
        as_any_rule(text)


def test_hensel_letters_partition_the_neighbourhoods() -> None:
    classes = hensel_classes()
    assert sorted(classes) == list(range(256))
    for mask, (count, letter) in classes.items():
        assert bin(mask).count("1") == count
        assert letter in HENSEL_LETTERS[count]
    assert sum(len(masks_of(k, letter)) for k in range(1, 8) for letter in HENSEL_LETTERS[k]) \
        == 254


@st.composite
def hensel_rules(draw: st.DrawFn) -> tuple[frozenset[int], frozenset[int]]:
    """Random birth and survival sets, each a union of Hensel classes."""
    def part() -> frozenset[int]:
        chosen: set[int] = set()
        for count in range(9):
            letters = HENSEL_LETTERS[count] or " "
            for letter in letters:
                if draw(st.booleans()):
                    chosen |= masks_of(count, letter.strip())
        return frozenset(chosen)

    return part(), part()


@settings(deadline=None, max_examples=150)
@given(hensel_rules(), st.sampled_from(["B{b}/S{s}", "S{s}/B{b}", "b{b}_s{s}"]))
def test_hensel_names_read_back_as_the_same_rule(rule: tuple[frozenset[int], frozenset[int]],
                                                 form: str) -> None:
    birth, survival = rule
    written = format_rule(birth, survival)
    born, survive = written[1:].split("/S")
    again = parse_one_colour(form.format(b=born, s=survive))
    assert again is not None
    assert (again.birth, again.survival) == (birth, survival)
    assert again.name == written


def test_non_totalistic_rules_are_lookup_rules_not_rules() -> None:
    rule = as_any_rule("B2-a/S12")
    assert isinstance(rule, LookupRule) and rule.name == "B2-a/S12"
    assert np.array_equal(transition_table(rule), rule.transition_table())
    with pytest.raises(RuleError, match="isotropic non-totalistic"):
        Rule.named("B2-a/S12")
    assert isinstance(as_any_rule("B3/S23"), Rule)


def test_a_lookup_rule_of_a_life_like_rule_steps_as_the_rule() -> None:
    cells = np.random.default_rng(2).integers(0, 3, (20, 30)).astype(np.int8)
    life = Rule.named("B36/S23")
    lookup = LookupRule("highlife", transition_table(life))
    for torus in (False, True):
        assert np.array_equal(evolve(cells, lookup, 7, torus=torus),
                              evolve(cells, life, 7, torus=torus))


@settings(deadline=None, max_examples=60)
@given(arrays(np.int8, st.tuples(st.integers(1, 12), st.integers(1, 12)),
              elements=st.integers(0, 2)),
       st.integers(0, 2 ** 32 - 1), st.booleans(), st.integers(0, 4))
def test_compiled_lookup_kernel_equals_the_simple_step(cells: np.ndarray, seed: int,
                                                       torus: bool, generations: int) -> None:
    table = np.random.default_rng(seed).integers(0, 3, 3 ** 9).astype(np.int8)
    expected = cells
    for _ in range(generations):
        expected = lookup_step_numpy(expected, table, torus=torus)
    assert np.array_equal(lookup_evolve(cells, table, generations, torus=torus), expected)


GOLLY_RULES = ["B2-a/S12", "B3/S23-a4ei6", "B2ak3nr4iy/S3-nr4ent5er", "B37/S2-i34q",
               "B2-ac3ai/S1c2-n3-aky4a", "B3-ej6e/S234i", "B2cek3i_S12cei", "S23-a/B3-n"]


@needs_bgolly
@pytest.mark.parametrize("rule", GOLLY_RULES)
def test_hensel_rules_run_as_golly_runs_them(rule: str, tmp_path) -> None:
    cells = (np.random.default_rng(len(rule)).random((24, 24)) < 0.4).astype(np.int8)
    path = tmp_path / "soup.rle"
    path.write_text("x = 24, y = 24, rule = " + rule.replace("/", "_") + "\n"
                    + _body(cells))
    generations = 6
    ours = evolve(np.pad(cells, generations + 1), as_any_rule(rule), generations)
    assert np.array_equal(crop(ours), crop(bgolly_run(path, generations, tmp_path)))


@needs_bgolly
def test_every_hensel_letter_is_golly_s(tmp_path) -> None:
    """One generation of B<k><letter>/S on all 256 neighbourhoods, spaced apart, in Golly
    and here (every other cell dies, so only the centres can be born)."""
    spacing = 5
    cells = np.zeros((16 * spacing, 16 * spacing), dtype=np.int8)
    offsets = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]
    for mask in range(256):
        cy, cx = (mask // 16) * spacing + 2, (mask % 16) * spacing + 2
        for bit, (dy, dx) in enumerate(offsets):
            if mask >> bit & 1:
                cells[cy + dy, cx + dx] = 1
    for count in range(1, 8):
        for letter in HENSEL_LETTERS[count]:
            rule = f"B{count}{letter}/S012345678"
            path = tmp_path / "all.rle"
            path.write_text(f"x = {cells.shape[1]}, y = {cells.shape[0]}, rule = {rule}\n"
                            + _body(cells))
            ours = evolve(np.pad(cells, 2), as_any_rule(rule), 1)
            assert np.array_equal(crop(ours), crop(bgolly_run(path, 1, tmp_path))), rule


def _body(cells: np.ndarray) -> str:
    from lifearena.life.patterns import write_rle

    return write_rle(cells).split("\n", 1)[1]
