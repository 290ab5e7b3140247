"""The unbounded plane (:mod:`lifearena.life.growing`): a grid that grows gives the plane's
figures, equal to a fixed grid large enough never to be reached, and to the literature's."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lifearena.life import load_pattern
from lifearena.life.growing import GrowthLimitError, run_growing, touched_edges
from lifearena.life.rules import COIN, Rule
from lifearena.life.step import evolve

GUN = ("#N Gosper glider gun\nx = 36, y = 9, rule = B3/S23\n"
       "24bo$22bobo$12b2o6b2o12b2o$11bo3bo4b2o12b2o$2o8bo5bo3b2o$2o8bo3bob2o4b\n"
       "obo$10bo5bo7bo$11bo3bo$12b2o!\n")
ACORN = "#N Acorn\nx = 7, y = 3, rule = B3/S23\nbo$3bo$2o2b3o!\n"
R_PENTOMINO = "#N R-pentomino\nx = 3, y = 3, rule = B3/S23\nb2o$2o$bo!\n"


def _pattern(tmp_path, text: str) -> np.ndarray:  # type: ignore[no-untyped-def]
    path = tmp_path / "pattern.rle"
    path.write_text(text)
    return load_pattern(path).cells


@st.composite
def rules_without_b0_or_coins(draw: st.DrawFn) -> Rule:
    """A random two-colour table (or a random Life-like rule) with no birth from nothing
    (a B0 rule fills the plane) and no coins (their hash depends on the grid's size)."""
    if draw(st.booleans()):
        born = draw(st.sets(st.integers(1, 8)))
        keep = draw(st.sets(st.integers(0, 8)))
        return Rule.life_like("B" + "".join(map(str, sorted(born))) + "/S"
                              + "".join(map(str, sorted(keep))))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    table = rng.choice(3, size=(3, 9, 9)).astype(np.int8)
    n1, n2 = np.indices((9, 9))
    table[:, n1 + n2 > 8] = 0
    table[0, 0, 0] = 0
    assert not np.any(table == COIN)
    return Rule("random", table)


def _live(cells: np.ndarray, origin: tuple[int, int]) -> list[tuple[int, int, int]]:
    """The live cells as (row, column, colour) in the start grid's coordinates."""
    ys, xs = np.nonzero(cells)
    return sorted((int(y) - origin[0], int(x) - origin[1], int(cells[y, x]))
                  for y, x in zip(ys, xs, strict=True))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), height=st.integers(1, 7),
       width=st.sampled_from([1, 2, 3, 5, 8, 63, 64, 65]), density=st.sampled_from([0.3, 0.6]),
       rule=rules_without_b0_or_coins(), generations=st.integers(0, 20))
def test_a_growing_grid_equals_a_grid_too_large_to_reach(seed: int, height: int, width: int,
                                                         density: float, rule: Rule,
                                                         generations: int) -> None:
    rng = np.random.default_rng(seed)
    cells = np.where(rng.random((height, width)) < density,
                     rng.integers(1, 3, size=(height, width)), 0).astype(np.int8)
    # live cells spread at most one cell a generation: a margin of n + 1 is never reached,
    # so this bounded grid (stepped by the independent numpy kernel) is the plane's answer
    margin = generations + 1
    expected = evolve(np.pad(cells, margin), rule, generations, kernel="numpy")
    grown = run_growing(cells, rule, generations)
    assert grown.generation == generations
    assert _live(grown.cells, grown.origin) == _live(expected, (margin, margin))


@pytest.mark.parametrize(("text", "generations", "population"), [
    (GUN, 10_000, 1_713),      # the figures from the literature that the issue quotes
    (ACORN, 5_206, 633),       # acorn's final population, reached at generation 5206
    (R_PENTOMINO, 1_103, 116),  # the R-pentomino settles at generation 1103 with 116 cells
], ids=["gosper-gun", "acorn", "r-pentomino"])
def test_the_literature_figures(tmp_path, text: str, generations: int,  # type: ignore
                                population: int) -> None:
    grown = run_growing(_pattern(tmp_path, text), "life", generations)
    assert int(np.count_nonzero(grown.cells)) == population
    assert grown.moves > 0  # each of them outgrows its start grid


def test_past_the_cap_it_stops_naming_the_generation_and_the_edge(tmp_path) -> None:  # type: ignore
    # the R-pentomino spreads past 18 x 18 cells, which with room round it passes 400 cells
    with pytest.raises(GrowthLimitError, match=r"at generation \d+ a live cell reached the "
                       r".*edges? of the \d+ x \d+ grid, and its live cells span \d+ x \d+: a "
                       r"grid with room round them would pass the cap of 400 cells") as error:
        run_growing(_pattern(tmp_path, R_PENTOMINO), "life", 200, max_cells=400)
    assert error.value.edges and set(error.value.edges) <= {"top", "bottom", "left", "right"}
    assert 0 < error.value.generation < 200


def test_a_spaceship_travels_on_a_small_grid() -> None:
    glider = np.array([[0, 1, 0], [0, 0, 1], [1, 1, 1]], dtype=np.int8)
    run = run_growing(glider, "life", 4000, max_cells=100 * 100)
    assert run.moves > 10 and max(run.cells.shape) <= 100
    assert min(_live(run.cells, run.origin)) == (1000, 1001, 1)  # 1,000 cells on


def test_a_b0_rule_is_refused() -> None:
    with pytest.raises(GrowthLimitError, match="B0"):
        run_growing(np.zeros((3, 3), dtype=np.int8), "B03/S23", 1)


def test_a_repeat_is_found_and_snapshots_line_up() -> None:
    blinker = np.zeros((5, 5), dtype=np.int8)
    blinker[2, 1:4] = 1
    found = run_growing(blinker, "life", 100, cycle_window=100)
    assert (found.period, found.cycle_start, found.generation) == (2, 0, 2)
    glider = np.array([[0, 1, 0], [0, 0, 1], [1, 1, 1]], dtype=np.int8)
    shots = run_growing(glider, "life", 12, snapshot_every=4).snapshots
    assert [s.generation for s in shots] == [0, 4, 8, 12]
    # the glider moves one cell down and right every 4 generations, wherever the grid grew
    corners = [min(_live(s.cells, s.origin)) for s in shots]
    assert corners == [(0, 1, 1), (1, 2, 1), (2, 3, 1), (3, 4, 1)]


def test_touched_edges() -> None:
    cells = np.zeros((4, 4), dtype=np.int8)
    assert touched_edges(cells) == ()
    cells[3, 0] = 2
    assert touched_edges(cells) == ("bottom", "left")
