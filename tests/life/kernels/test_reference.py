"""The reference step on known patterns, the numpy baseline against it, and runs."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from lifearena.errors import BadParameterError, GridError
from lifearena.life import Rule, evolve, random_grid, read_rle, run_until_stable, step
from lifearena.life.coin import coin_colour
from lifearena.life.kernels.numpy_step import numpy_step
from lifearena.life.kernels.reference import reference_step
from lifearena.life.rules import COIN

GLIDER = read_rle("x = 3, y = 3\nbo$2bo$3o!").cells


def place(pattern: np.ndarray, shape: tuple[int, int], at: tuple[int, int] = (1, 1)):
    grid = np.zeros(shape, dtype=np.int8)
    grid[at[0] : at[0] + pattern.shape[0], at[1] : at[1] + pattern.shape[1]] = pattern
    return grid


def test_glider_moves_one_cell_diagonally_every_four_generations():
    grid = place(GLIDER, (8, 8))
    after = evolve(grid, "life", 4, kernel="reference")
    assert np.array_equal(after, np.roll(grid, (1, 1), axis=(0, 1)))


def test_glider_wraps_on_a_torus_and_dies_against_a_bounded_edge():
    grid = place(GLIDER, (6, 6))
    assert np.array_equal(evolve(grid, "life", 24, torus=True, kernel="reference"), grid)
    assert evolve(grid, "life", 24, kernel="reference").sum() != GLIDER.sum()


def test_immigration_birth_takes_the_majority_colour():
    # worked example of Life for Two's instructions: * at row 2 col 3, # at (3,4) and (4,3)
    grid = np.zeros((5, 5), dtype=np.int8)
    grid[1, 2] = 1
    grid[2, 3] = grid[3, 2] = 2
    after = reference_step(grid, Rule.named("immigration"))
    assert after[2, 2] == 2


def test_p2life_contested_survival_by_hand():
    # the centre white has w = 3, b = 1: w - b = 2 so it survives; a lone black dies
    grid = np.array([[1, 1, 0], [1, 1, 2], [0, 0, 0]], dtype=np.int8)
    after = reference_step(grid, Rule.named("p2life"))
    assert after[1, 1] == 1 and after[1, 2] == 0


def test_coin_births_use_the_counter_hash():
    rule = Rule.from_table_text("0 * * -> coin")
    grid = np.zeros((3, 4), dtype=np.int8)
    for seed, generation in ((0, 0), (5, 9)):
        after = reference_step(grid, rule, seed=seed, generation=generation)
        expected = [[coin_colour(seed, generation, y * 4 + x) for x in range(4)] for y in range(3)]
        assert after.tolist() == expected
    assert rule.table[0, 0, 0] == COIN


rules = st.sampled_from(["life", "immigration", "p2life", "p2life-no-coin", "B36/S23",
                         "p2life-loose-survival"])
grids = arrays(np.int8, st.tuples(st.integers(1, 9), st.integers(1, 9)),
               elements=st.integers(0, 2))


@settings(max_examples=60, deadline=None)
@given(grids, rules, st.booleans(), st.integers(0, 2**64 - 1), st.integers(0, 1000))
def test_numpy_step_equals_reference(cells, rule, torus, seed, generation):
    rule = Rule.named(rule)
    expected = reference_step(cells, rule, torus=torus, seed=seed, generation=generation)
    got = numpy_step(cells, rule, torus=torus, seed=seed, generation=generation)
    assert np.array_equal(got, expected)


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 4), st.integers(1, 6), st.integers(1, 6), st.booleans(),
       st.integers(0, 100))
def test_batched_numpy_step_equals_reference_per_board(boards, height, width, torus, seed):
    cells = random_grid(height, width, boards=boards, seed=seed, density=0.6)
    seeds = np.arange(boards) + seed
    got = step(cells, "p2life", torus=torus, seed=seeds, generation=3, kernel="numpy")
    for board in range(boards):
        expected = reference_step(cells[board], Rule.named("p2life"), torus=torus,
                                  seed=int(seeds[board]), generation=3)
        assert np.array_equal(got[board], expected)


def test_run_until_stable_reports_still_lifes_oscillators_and_gliders():
    block = place(np.ones((2, 2), dtype=np.int8), (6, 6))
    result = run_until_stable(block, "life")
    assert (result.stopped, result.period, result.generation) == ("stable", 1, 1)
    blinker = place(np.ones((1, 3), dtype=np.int8), (5, 5), at=(2, 1))
    assert run_until_stable(blinker, "life").period == 2
    glider = place(GLIDER, (8, 8))
    result = run_until_stable(glider, "life", torus=True)
    assert (result.stopped, result.period, result.cycle_start) == ("periodic", 32, 0)
    assert result.populations == (5, 0)
    lonely = place(np.ones((1, 1), dtype=np.int8), (3, 3))
    assert run_until_stable(lonely, "life").stopped == "extinct"
    capped = run_until_stable(glider, "life", torus=True, max_generations=10)
    assert (capped.stopped, capped.generation, capped.period) == ("cap", 10, None)


def test_bad_grids_and_parameters():
    with pytest.raises(GridError, match="value 5"):
        step(np.array([[5]]), "life")
    with pytest.raises(GridError, match="shape"):
        step(np.zeros(4, dtype=np.int8), "life")
    with pytest.raises(GridError, match="dtype"):
        step(np.zeros((2, 2), dtype=float), "life")
    with pytest.raises(BadParameterError, match="kernel"):
        step(np.zeros((2, 2), dtype=np.int8), "life", kernel="gpu")
    with pytest.raises(BadParameterError, match="one seed per board"):
        step(np.zeros((3, 2, 2), dtype=np.int8), "life", seed=np.arange(2))
    with pytest.raises(BadParameterError, match="density"):
        random_grid(3, 3, density=1.5)
