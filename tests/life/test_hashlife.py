"""HashLife against the reference step, its memory cap, and Golly's figures."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lifearena.errors import BadParameterError, GridError, RuleError
from lifearena.life.growing import GrowthLimitError
from lifearena.life.hashlife import HashLife, nodes_for_megabytes
from lifearena.life.kernels.reference import reference_step
from lifearena.life.rules import Rule
from lifearena.life.universe import (
    CONFIGURATIONS,
    Box,
    Universe,
    neighbourhood_index,
    transition_table,
)

GUN_RLE = """#N Gosper glider gun
x = 36, y = 9, rule = B3/S23
24bo$22bobo$12b2o6b2o12b2o$11bo3bo4b2o12b2o$2o8bo5bo3b2o$2o8bo3bob2o4b
obo$10bo5bo7bo$11bo3bo$12b2o!
"""


def gun() -> np.ndarray:
    rows = ["........................O...........",
            "......................O.O...........",
            "............OO......OO............OO",
            "...........O...O....OO............OO",
            "OO........O.....O...OO..............",
            "OO........O...O.OO....O.O...........",
            "..........O.....O.......O...........",
            "...........O...O....................",
            "............OO......................"]
    return np.array([[cell == "O" for cell in row] for row in rows], dtype=np.int8)


def reference_run(cells: np.ndarray, rule: Rule, generations: int) -> np.ndarray:
    """``cells`` after ``generations`` reference steps on a grid with room to grow
    (light speed is one cell a generation), returned with the margin."""
    margin = generations + 1
    grid = np.pad(cells, margin)
    for generation in range(generations):
        grid = reference_step(grid, rule, generation=generation)
    return grid


def plane_cells(universe: HashLife, x: int, y: int, height: int, width: int) -> np.ndarray:
    return universe.cells(Box(x, y, width, height))


life_like_rules = st.builds(
    lambda births, survivals: Rule.life_like(
        "B" + "".join(map(str, sorted(births))) + "/S" + "".join(map(str, sorted(survivals)))),
    st.sets(st.integers(1, 8)), st.sets(st.integers(0, 8)))
rules = st.one_of(life_like_rules, st.just(Rule.named("immigration")))


@st.composite
def patterns(draw: st.DrawFn) -> np.ndarray:
    height, width = draw(st.integers(1, 5)), draw(st.integers(1, 5))
    colours = draw(st.sampled_from([1, 2]))
    values = draw(st.lists(st.integers(0, colours), min_size=height * width,
                           max_size=height * width))
    return np.array(values, dtype=np.int8).reshape(height, width)


@settings(max_examples=25, deadline=None)
@given(patterns(), rules, st.integers(0, 10), st.one_of(st.none(), st.integers(0, 3)),
       st.integers(-40, 40), st.integers(-40, 40))
def test_hashlife_equals_the_reference_step(cells: np.ndarray, rule: Rule, generations: int,
                                            exponent: int | None, x: int, y: int) -> None:
    expected = reference_run(cells, rule, generations)
    universe = HashLife.from_cells(cells, rule, x, y, step_exponent=exponent)
    universe.step(generations)
    margin = generations + 1
    got = plane_cells(universe, x - margin, y - margin, *expected.shape)
    assert universe.generation == generations
    np.testing.assert_array_equal(got, expected)
    assert universe.population() == (int((expected == 1).sum()), int((expected == 2).sum()))


@settings(max_examples=15, deadline=None)
@given(patterns(), rules, st.lists(st.integers(0, 4), min_size=1, max_size=3))
def test_steps_of_two_to_the_k_add_up(cells: np.ndarray, rule: Rule,
                                      exponents: list[int]) -> None:
    total = sum(1 << k for k in exponents)
    universe = HashLife.from_cells(cells, rule)
    for exponent in exponents:
        universe.step_by_exponent(exponent)
    whole = HashLife.from_cells(cells, rule)
    whole.step(total)
    assert universe.generation == whole.generation == total
    assert universe.bounding_box() == whole.bounding_box()
    np.testing.assert_array_equal(universe.cells(), whole.cells())


@settings(max_examples=10, deadline=None)
@given(patterns(), rules, st.integers(0, 30), st.integers(1, 4))
def test_a_tiny_memory_cap_keeps_results_exact(cells: np.ndarray, rule: Rule,
                                               generations: int, exponent: int) -> None:
    free = HashLife.from_cells(cells, rule, step_exponent=exponent)
    capped = HashLife.from_cells(cells, rule, step_exponent=exponent, max_nodes=300)
    free.step(generations)
    before = capped.cells()
    try:
        capped.step(generations)
    except GrowthLimitError:  # an exploding rule: the universe is left as it was
        assert capped.generation == 0
        np.testing.assert_array_equal(capped.cells(), before)
        return
    assert capped.population() == free.population()
    assert capped.bounding_box() == free.bounding_box()
    np.testing.assert_array_equal(capped.cells(), free.cells())


def test_garbage_collection_runs_and_the_gun_stays_exact() -> None:
    free = HashLife.from_cells(gun(), "B3/S23")
    capped = HashLife.from_cells(gun(), "B3/S23", max_nodes=600)
    free.step(300)
    capped.step(300)
    assert capped.collections > 10 and capped.node_count <= 600 < free.node_count
    assert capped.population() == free.population() == (86, 0)
    np.testing.assert_array_equal(capped.cells(), free.cells())


def test_a_pattern_past_the_cap_raises_and_leaves_the_universe_as_it_was() -> None:
    universe = HashLife.from_cells(gun(), "B3/S23", max_nodes=150)
    before = universe.cells()
    with pytest.raises(GrowthLimitError, match="max_nodes=150"):
        universe.step(1000)
    assert universe.generation == 0
    np.testing.assert_array_equal(universe.cells(), before)
    soup = np.random.default_rng(1).integers(0, 2, (64, 64)).astype(np.int8)
    with pytest.raises(GrowthLimitError, match="^the pattern needs more than max_nodes=150"):
        universe.add(soup)
    np.testing.assert_array_equal(universe.cells(), before)


def test_gun_figures() -> None:
    universe = HashLife.from_cells(gun(), "B3/S23")
    universe.step(1_000_000)
    assert universe.population() == (166_713, 0)
    universe = HashLife.from_cells(gun(), "B3/S23")
    universe.step(2**30)
    assert universe.population() == (178_957_021, 0)


def test_step_exponent_and_progress() -> None:
    universe = HashLife.from_cells(gun(), "B3/S23", step_exponent=8)
    seen: list[int] = []
    universe.step(600, progress=seen.append)
    assert seen == [256, 512, 576, 592, 600]
    reference = HashLife.from_cells(gun(), "life")
    reference.step(600)
    assert universe.population() == reference.population()


def test_universe_protocol_and_add_overlays() -> None:
    universe = HashLife(Rule.named("immigration"))
    assert isinstance(universe, Universe)
    assert universe.bounding_box() is None and universe.cells().shape == (0, 0)
    universe.add(np.array([[1, 1], [1, 1]], dtype=np.int8), -3, 7)
    universe.add(np.array([[0, 2]], dtype=np.int8), -3, 7)
    assert universe.population() == (3, 1)
    assert universe.bounding_box() == Box(-3, 7, 2, 2)
    assert universe.cells().tolist() == [[1, 2], [1, 1]]
    universe.add(np.array([[1]], dtype=np.int8), 10**12, -(10**12))
    assert universe.bounding_box() == Box(-3, -(10**12), 10**12 + 4, 10**12 + 9)


def test_steps_far_past_64_bits() -> None:
    glider = np.array([[0, 1, 0], [0, 0, 1], [1, 1, 1]], dtype=np.int8)
    universe = HashLife.from_cells(glider, "B3/S23")
    universe.step_by_exponent(300)
    # a glider moves one cell down and right every 4 generations
    assert universe.bounding_box() == Box(2**298, 2**298, 3, 3)
    np.testing.assert_array_equal(universe.cells(), glider)
    assert universe.generation == 2**300


@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(patterns(), st.integers(-9, 9), st.integers(-9, 9)), min_size=1,
                max_size=3))
def test_add_puts_live_cells_over_the_plane(additions: list[tuple[np.ndarray, int, int]]) -> None:
    canvas = np.zeros((40, 40), dtype=np.int8)  # cell (x, y) at [y + 15, x + 15]
    universe = HashLife("immigration")
    for cells, x, y in additions:
        universe.add(cells, x, y)
        window = canvas[y + 15:y + 15 + cells.shape[0], x + 15:x + 15 + cells.shape[1]]
        window[cells != 0] = cells[cells != 0]
    ys, xs = np.nonzero(canvas)
    if len(xs) == 0:
        assert universe.bounding_box() is None
        return
    assert universe.bounding_box() == Box(int(xs.min()) - 15, int(ys.min()) - 15,
                                          int(xs.max() - xs.min()) + 1,
                                          int(ys.max() - ys.min()) + 1)
    np.testing.assert_array_equal(universe.cells(Box(-15, -15, 40, 40)), canvas)
    assert universe.population() == (int((canvas == 1).sum()), int((canvas == 2).sum()))


def test_from_root_copies_a_tree_into_a_new_table() -> None:
    universe = HashLife.from_cells(gun(), "B3/S23")
    universe.step(500)
    copy = HashLife.from_root(universe.root, "B3/S23", universe.generation, max_nodes=5000)
    assert copy.node_count < universe.node_count and copy.generation == 500
    np.testing.assert_array_equal(copy.cells(), universe.cells())
    assert copy.bounding_box() == universe.bounding_box()
    copy.step(100)
    universe.step(100)
    assert copy.population() == universe.population()


class TableRule:
    """A rule known only by its transition table (as rules from Golly files are)."""

    name = "table-life"

    def transition_table(self) -> np.ndarray:
        return transition_table(Rule.named("life"))


def test_any_rule_with_a_transition_table_runs() -> None:
    blinker = np.array([[1, 1, 1]], dtype=np.int8)
    universe = HashLife.from_cells(blinker, TableRule())
    universe.step(1)
    assert universe.bounding_box() == Box(1, -1, 1, 3)


class RandomTableRule:
    """A random deterministic rule over the whole neighbourhood (not totalistic), with
    empty space staying empty."""

    name = "random-table"

    def __init__(self, seed: int) -> None:
        rng = np.random.default_rng(seed)
        # mostly death, so that patterns do not fill their grid at once
        self.table = rng.choice(3, CONFIGURATIONS, p=[0.7, 0.15, 0.15]).astype(np.int8)
        self.table[0] = 0

    def transition_table(self) -> np.ndarray:
        return self.table


def table_step(grid: np.ndarray, table: np.ndarray) -> np.ndarray:
    """One generation by :func:`neighbourhood_index`, cell by cell (outside is empty)."""
    padded = np.pad(grid, 1)
    out = np.zeros_like(grid)
    height, width = grid.shape
    for y in range(height):
        for x in range(width):
            around = padded[y:y + 3, x:x + 3].ravel().tolist()
            out[y, x] = table[neighbourhood_index(around[4], around[:4] + around[5:])]
    return out


@settings(max_examples=15, deadline=None)
@given(patterns(), st.integers(0, 2**32 - 1), st.integers(0, 6),
       st.one_of(st.none(), st.integers(0, 2)))
def test_hashlife_follows_any_transition_table(cells: np.ndarray, seed: int,
                                               generations: int, exponent: int | None) -> None:
    rule = RandomTableRule(seed)
    grid = np.pad(cells, generations + 1)
    for _ in range(generations):
        grid = table_step(grid, rule.table)
    universe = HashLife.from_cells(cells, rule, step_exponent=exponent)
    universe.step(generations)
    margin = generations + 1
    np.testing.assert_array_equal(plane_cells(universe, -margin, -margin, *grid.shape), grid)


@pytest.mark.parametrize(("rule", "message"), [
    ("p2life", "coin entries"),
    ("B03/S23", r"\(B0\)"),
])
def test_rules_hashlife_cannot_run_are_refused(rule: str, message: str) -> None:
    with pytest.raises(RuleError, match=message):
        HashLife(rule)


def test_bad_input_is_refused_in_one_line() -> None:
    universe = HashLife("B3/S23")
    with pytest.raises(BadParameterError, match="expected an integer of at least 0"):
        universe.step(-1)
    with pytest.raises(BadParameterError, match="step exponent"):
        universe.step_exponent = -2
    with pytest.raises(BadParameterError,
                       match="max_nodes 3 is out of range; expected an integer of at least 64"):
        HashLife("B3/S23", max_nodes=3)
    with pytest.raises(GridError, match="outside 0, 1, 2"):
        universe.add(np.array([[3]]))
    with pytest.raises(BadParameterError, match="cells"):
        universe.cells(Box(0, 0, 10**6, 10**6))
    assert nodes_for_megabytes(1) >= 64


def bgolly_population(pattern: Path, generations: int) -> int:
    result = subprocess.run(
        ["bgolly", "-a", "HashLife", "-m", str(generations), "-i", str(generations),
         str(pattern)], capture_output=True, text=True, timeout=60, check=True)
    # bgolly prints "GENERATION: POPULATION" with thousands separated by commas
    lines = re.findall(r"^([\d,]+): ([\d,]+)$", result.stdout, re.MULTILINE)
    generation, population = (int(text.replace(",", "")) for text in lines[-1])
    assert generation == generations
    return population


@pytest.mark.skipif(shutil.which("bgolly") is None, reason="bgolly (Debian's golly) not installed")
@pytest.mark.parametrize("generations", [1_000_000, 2**30])
def test_golly_agrees_on_the_gun(tmp_path: Path, generations: int) -> None:
    path = tmp_path / "gun.rle"
    path.write_text(GUN_RLE)
    universe = HashLife.from_cells(gun(), "B3/S23")
    universe.step(generations)
    assert universe.population() == (bgolly_population(path, generations), 0)
