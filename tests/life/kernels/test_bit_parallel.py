"""The bit-parallel kernels agree with the reference step (one grid) and numpy (batches)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lifearena.errors import BadParameterError
from lifearena.life.kernels.batch import batch_evolve
from lifearena.life.kernels.bitlogic import (
    GENERIC,
    IMMIGRATION,
    LIFE,
    LIFELIKE,
    P2LIFE,
    generic_plan,
    plan_for,
)
from lifearena.life.kernels.bitwise import bitwise_step
from lifearena.life.kernels.numpy_step import numpy_step
from lifearena.life.kernels.reference import reference_step
from lifearena.life.rules import COIN, Rule, available_rules
from lifearena.life.run import run_until_stable, run_until_stable_many
from lifearena.life.step import evolve, step

FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
NAMED = [*sorted(available_rules()), "B36/S23", "B0/S8", "B/S012345678", "B1357/S02468"]
WIDTHS = [1, 2, 3, 5, 8, 19, 31, 63, 64, 65, 100, 127, 128, 130]


@st.composite
def rules(draw: st.DrawFn) -> Rule:
    """A named rule, or a random table (coin entries included), or a random Life-like rule."""
    kind = draw(st.sampled_from(["named", "table", "lifelike"]))
    if kind == "named":
        return Rule.named(draw(st.sampled_from(NAMED)))
    if kind == "lifelike":
        born = draw(st.sets(st.integers(0, 8)))
        keep = draw(st.sets(st.integers(0, 8)))
        text = "B" + "".join(map(str, sorted(born))) + "/S" + "".join(map(str, sorted(keep)))
        return Rule.life_like(text)
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    weights = rng.dirichlet(np.ones(4))
    table = rng.choice(4, size=(3, 9, 9), p=weights).astype(np.int8)
    n1, n2 = np.indices((9, 9))
    table[:, n1 + n2 > 8] = 0
    return Rule("random", table)


def soup(seed: int, shape: tuple[int, ...], density: float) -> np.ndarray:
    rng = np.random.default_rng(seed)
    live = rng.random(shape) < density
    return np.where(live, rng.integers(1, 3, size=shape), 0).astype(np.int8)


grids = st.builds(
    lambda seed, h, w, density: soup(seed, (h, w), density),
    st.integers(0, 2**32 - 1),
    st.integers(1, 6),
    st.sampled_from(WIDTHS),
    st.sampled_from([0.2, 0.5, 0.8, 1.0]),
)
seeds = st.integers(-(2**63), 2**64 - 1)


@FAST
@given(cells=grids, rule=rules(), torus=st.booleans(), seed=seeds, generation=st.integers(0, 10**6))
def test_bitwise_step_equals_reference(cells: np.ndarray, rule: Rule, torus: bool, seed: int,
                                       generation: int) -> None:
    expected = reference_step(cells, rule, torus=torus, seed=seed, generation=generation)
    got = bitwise_step(cells, rule, torus=torus, seed=seed, generation=generation)
    assert np.array_equal(got, expected)


@settings(max_examples=40, deadline=None)
@given(cells=grids, name=st.sampled_from(NAMED), torus=st.booleans(), seed=seeds)
def test_generic_plan_equals_reference_for_named_rules(cells: np.ndarray, name: str, torus: bool,
                                                       seed: int) -> None:
    rule = Rule.named(name)
    expected = reference_step(cells, rule, torus=torus, seed=seed, generation=3)
    got = bitwise_step(cells, rule, torus=torus, seed=seed, generation=3, plan=generic_plan(rule))
    assert np.array_equal(got, expected)


@FAST
@given(
    data=st.integers(0, 2**32 - 1),
    boards=st.integers(1, 5),
    shape=st.sampled_from([(1, 1), (1, 64), (64, 1), (2, 3), (5, 5), (8, 8), (4, 16), (3, 21),
                           (9, 7), (19, 19), (2, 65), (1, 100)]),
    rule=rules(),
    torus=st.booleans(),
    per_board=st.booleans(),
    generation=st.integers(0, 1000),
)
def test_batch_equals_numpy(data: int, boards: int, shape: tuple[int, int], rule: Rule,
                            torus: bool, per_board: bool, generation: int) -> None:
    rng = np.random.default_rng(data)
    cells = soup(data, (boards, *shape), float(rng.choice([0.3, 0.6, 1.0])))
    seed = rng.integers(-(2**63), 2**63 - 1, size=boards) if per_board else int(data)
    expected = numpy_step(cells, rule, torus=torus, seed=seed, generation=generation)
    got = batch_evolve(cells, rule, 1, torus=torus, seed=seed, generation=generation)
    assert np.array_equal(got, expected)


@settings(max_examples=25, deadline=None)
@given(cells=grids, rule=rules(), torus=st.booleans(), seed=seeds, n=st.integers(0, 6))
def test_evolve_several_generations(cells: np.ndarray, rule: Rule, torus: bool, seed: int,
                                    n: int) -> None:
    expected = cells
    for g in range(n):
        expected = numpy_step(expected, rule, torus=torus, seed=seed, generation=5 + g)
    got = evolve(cells, rule, n, torus=torus, seed=seed, generation=5, kernel="bitwise")
    assert np.array_equal(got, expected)
    batch = np.stack([cells, cells[::-1].copy()])
    expected_batch = batch
    for g in range(n):
        expected_batch = numpy_step(expected_batch, rule, torus=torus, seed=[seed, 7],
                                    generation=5 + g)
    got_batch = evolve(batch, rule, n, torus=torus, seed=np.array([seed, 7], dtype=object),
                       generation=5)
    assert np.array_equal(got_batch, expected_batch)


@settings(max_examples=20, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    shape=st.sampled_from([(1, 1), (3, 3), (5, 7), (8, 8), (6, 65), (2, 64)]),
    name=st.sampled_from(["life", "immigration", "p2life", "p2life-no-coin", "B36/S23"]),
    torus=st.booleans(),
)
def test_run_until_stable_agrees_between_kernels(seed: int, shape: tuple[int, int], name: str,
                                                 torus: bool) -> None:
    cells = soup(seed, shape, 0.4)
    fast = run_until_stable(cells, name, torus=torus, seed=seed, max_generations=60)
    slow = run_until_stable(cells, name, torus=torus, seed=seed, max_generations=60,
                            kernel="numpy")
    assert (fast.stopped, fast.generation, fast.period, fast.cycle_start, fast.populations) == (
        slow.stopped, slow.generation, slow.period, slow.cycle_start, slow.populations)
    assert np.array_equal(fast.cells, slow.cells)


def test_glider_round_a_torus_is_periodic() -> None:
    cells = np.zeros((8, 70), dtype=np.int8)
    cells[0, 1] = cells[1, 2] = 1
    cells[2, 0:3] = 1
    result = run_until_stable(cells, "life", torus=True, max_generations=2000)
    # The glider moves one cell diagonally every 4 generations; it is back after
    # lcm(8, 70) = 280 cells, 1120 generations.
    assert (result.stopped, result.period, result.cycle_start) == ("periodic", 1120, 0)


def test_run_respects_cap_and_reports_progress() -> None:
    cells = np.zeros((8, 70), dtype=np.int8)
    cells[0, 1] = cells[1, 2] = 1
    cells[2, 0:3] = 1
    seen: list[int] = []
    result = run_until_stable(cells, "life", torus=True, max_generations=600,
                              progress=seen.append)
    assert (result.stopped, result.generation, result.period) == ("cap", 600, None)
    assert seen == list(range(1, 601))
    assert np.array_equal(result.cells, evolve(cells, "life", 600, torus=True, kernel="numpy"))


def test_run_until_stable_many_matches_single_runs() -> None:
    boards = soup(11, (6, 12, 12), 0.4)
    seeds = np.arange(6) * 1000
    many = run_until_stable_many(boards, "p2life", torus=True, seed=seeds, max_generations=300)
    for board, s, result in zip(boards, seeds, many, strict=True):
        single = run_until_stable(board, "p2life", torus=True, seed=int(s), max_generations=300,
                                  kernel="numpy")
        assert (result.stopped, result.generation, result.period) == (
            single.stopped, single.generation, single.period)
        assert np.array_equal(result.cells, single.cells)
    with pytest.raises(BadParameterError, match="one seed per grid"):
        run_until_stable_many(boards, "life", seed=[1, 2])


def test_coin_births_are_bit_exact_and_use_both_colours() -> None:
    # Every empty cell in the middle column has 3 white and 3 black neighbours.
    cells = np.zeros((40, 3), dtype=np.int8)
    cells[:, 0] = 1
    cells[:, 2] = 2
    rule = Rule.named("p2life")
    assert rule.table[0, 3, 3] == COIN
    colours = set()
    for seed in range(8):
        expected = reference_step(cells, rule, torus=False, seed=seed, generation=seed)
        got = bitwise_step(cells, rule, torus=False, seed=seed, generation=seed)
        assert np.array_equal(got, expected)
        colours.update(got[1:-1, 1].tolist())
        batch = batch_evolve(cells[None, :8], rule, 1, seed=seed, generation=seed)
        assert np.array_equal(batch[0], reference_step(cells[:8], rule, seed=seed,
                                                       generation=seed))
    assert colours == {1, 2}


def test_plans_pick_the_specialised_families() -> None:
    assert plan_for(Rule.named("life")).family == LIFE
    assert plan_for(Rule.named("immigration")).family == IMMIGRATION
    assert plan_for(Rule.named("B36/S23")).family == LIFELIKE
    for name in available_rules():
        if name.startswith("p2life"):
            assert plan_for(Rule.named(name)).family == P2LIFE, name
    custom = Rule.from_string("0 3 * -> 1; 1 2-3 0 -> 1; 2 * 2 -> coin")
    assert plan_for(custom).family == GENERIC


def test_step_dispatch_and_errors() -> None:
    cells = soup(3, (9, 9), 0.5)
    for kernel in ("auto", "bitwise", "numpy", "reference"):
        assert np.array_equal(step(cells, "p2life", seed=4, kernel=kernel),
                              reference_step(cells, Rule.named("p2life"), seed=4))
    with pytest.raises(BadParameterError, match="unknown kernel"):
        step(cells, "life", kernel="gpu")  # type: ignore[arg-type]
    with pytest.raises(BadParameterError, match="unknown kernel"):
        run_until_stable(cells, "life", kernel="gpu")  # type: ignore[arg-type]


def test_wide_grids_and_huge_seeds() -> None:
    cells = soup(5, (2, 300), 0.5)
    fast = run_until_stable(cells, "p2life", seed=2**64 - 3, max_generations=40)
    slow = run_until_stable(cells, "p2life", seed=2**64 - 3, max_generations=40, kernel="numpy")
    assert (fast.stopped, fast.generation, fast.period) == (slow.stopped, slow.generation,
                                                            slow.period)
    assert np.array_equal(fast.cells, slow.cells)
    boards = np.zeros((3, 3, 3), dtype=np.int8)
    boards[:, :, 0] = 1
    boards[:, :, 2] = 2
    seeds = [2**64 - 1, -5, 2**70 + 9]
    assert np.array_equal(step(boards, "p2life", seed=np.array(seeds, dtype=object)),
                          numpy_step(boards, Rule.named("p2life"), seed=seeds))
