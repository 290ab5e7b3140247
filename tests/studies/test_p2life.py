"""The mean-field polynomial against a brute-force sum and against one-step simulations."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from lifearena.errors import BadParameterError, RuleError
from lifearena.life.rules import COIN, Rule
from lifearena.studies.p2life import (
    DensityPolynomial,
    brute_force_density,
    describe,
    mean_field,
    simulated_one_step_density,
)

RULES = ["p2life", "life", "immigration", "p2life-no-coin", "p2life-loose-survival",
         "p2life-birth-below-3", "p2life-plain-survival", "p2life-unbounded-survival"]


@pytest.mark.parametrize("rule", RULES)
def test_polynomial_equals_brute_force_sum(rule: str) -> None:
    poly = mean_field(rule)
    assert len(poly) == 10 and all(isinstance(c, Fraction) for c in poly)
    for p in (Fraction(1, 3), Fraction(5, 7)):
        assert poly(p) == brute_force_density(rule, p)


def test_one_colour_model_against_brute_force() -> None:
    p = Fraction(2, 5)
    assert mean_field("p2life", colours=1)(p) == brute_force_density("p2life", p, colours=1)
    # With one colour there are no black neighbours: p2life's survival w - b in {2, 3} or
    # (w - b == 1 and w >= 2) is Life's S23, and its births are B3.
    assert mean_field("p2life", colours=1) == mean_field("life")


def test_worked_values() -> None:
    # Life at p = 1/2: every one of the 2^9 neighbourhoods is equally likely; a live centre
    # with 2 or 3 live neighbours (28 + 56) or a dead centre with 3 (56) gives a live cell.
    assert mean_field("life")(Fraction(1, 2)) == Fraction(28 + 56 + 56, 512)
    assert mean_field("life")(1) == 0
    # p2life at p = 1: a white token survives only with 5 white and 3 black neighbours
    # (w - b = 2; w - b is even when w + b = 8), probability C(8, 5) / 2^8.
    assert mean_field("p2life")(1) == Fraction(56, 256)
    # The lowest term: a birth needs three live neighbours of one colour.
    assert mean_field("p2life")[:4] == (0, 0, 0, Fraction(56) * Fraction(1, 8) * 3)


def test_coin_entries_count_as_live() -> None:
    table = np.zeros((3, 9, 9), dtype=np.int8)
    table[0, 0, 0] = COIN
    rule = Rule("lonely-coin", table)
    # An empty cell with eight empty neighbours: (1 - p)^9.
    assert mean_field(rule) == DensityPolynomial([(-1) ** k * Fraction(_binom9(k))
                                                  for k in range(10)])


def _binom9(k: int) -> int:
    from math import comb

    return comb(9, k)


def test_maximum_and_fixed_points() -> None:
    p_max, rho_max = mean_field("life").maximum()
    assert 0.36 < p_max < 0.37 and 0.370 < rho_max < 0.371
    fixed = mean_field("life").fixed_points()
    assert fixed[0] == 0.0 and len(fixed) == 3
    for x in fixed:
        assert abs(float(mean_field("life")(x)) - x) < 1e-12
    info = describe("p2life")
    assert info["value_at_1"] == 7 / 32 and info["fixed_points"] == [0.0]
    assert 0.6 < info["argmax"] < 0.65


@pytest.mark.parametrize(("rule", "p", "colours"), [
    ("p2life", 0.5, 2), ("p2life", 0.9, 2), ("life", 0.35, 1), ("p2life-no-coin", 0.7, 2),
])
def test_one_step_simulation_matches_polynomial(rule: str, p: float, colours: int) -> None:
    # 1024^2 cells: the standard deviation of the one-step density is below 0.0015 (each
    # outcome depends on 9 cells, so at most 9 times the variance of independent cells).
    measured = simulated_one_step_density(rule, p, size=1024, seed=7, colours=colours)
    expected = float(mean_field(rule, colours=colours)(p))
    assert abs(measured - expected) < 0.005


def test_bad_inputs() -> None:
    with pytest.raises(BadParameterError, match="colours 3"):
        mean_field("p2life", colours=3)
    with pytest.raises(RuleError):
        mean_field("no-such-rule")


def test_polynomial_text() -> None:
    assert str(mean_field("life")).startswith("84 p^3 - 448 p^4")
    assert str(DensityPolynomial([0])) == "0"
