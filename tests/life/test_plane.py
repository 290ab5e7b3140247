"""The sparse tile plane (:mod:`lifearena.life.plane`): equal to the reference step on a
grid too big to reach, for every kind of rule (coins by the plane coin, computed here from
its documented formula); gliders across tile sides; tiles made and dropped with the
pattern; the memory cap; and Golly's answers for classic patterns."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lifearena.errors import BadParameterError, RuleError
from lifearena.life.coin import plane_coin_colours
from lifearena.life.growing import GrowthLimitError
from lifearena.life.kernels import tiles
from lifearena.life.kernels.reference import reference_step
from lifearena.life.patterns import load_pattern, read_rle
from lifearena.life.plane import TilePlane
from lifearena.life.rules import COIN, Rule
from lifearena.life.universe import Box, Universe

GLIDER = np.array([[0, 1, 0], [0, 0, 1], [1, 1, 1]], dtype=np.int8)  # flies down-right
GUN = ("#N Gosper glider gun\nx = 36, y = 9, rule = B3/S23\n"
       "24bo$22bobo$12b2o6b2o12b2o$11bo3bo4b2o12b2o$2o8bo5bo3b2o$2o8bo3bob2o4b\n"
       "obo$10bo5bo7bo$11bo3bo$12b2o!\n")
R_PENTOMINO = "#N R-pentomino\nx = 3, y = 3, rule = B3/S23\nb2o$2o$bo!\n"
ACORN = "#N Acorn\nx = 7, y = 3, rule = B3/S23\nbo$3bo$2o2b3o!\n"

# -- the plane coin, from its documented formula (lifearena.life.coin) ------------------------

M64 = (1 << 64) - 1


def _mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return z ^ (z >> 31)


def documented_plane_coin(seed: int, generation: int, x: int, y: int) -> int:
    z = _mix((seed & M64) ^ ((generation * 0x9E3779B97F4A7C15) & M64))
    z = _mix(z ^ ((y * 0xC2B2AE3D27D4EB4F) & M64))
    z = _mix(z ^ ((x * 0xD1B54A32D192ED03) & M64))
    return 1 + (z >> 63)


def plane_reference_step(cells: np.ndarray, rule: Rule, *, x0: int, y0: int, seed: int,
                         generation: int) -> np.ndarray:
    """The reference step of a bounded grid whose top-left cell is ``(x0, y0)`` of the
    plane, its coin births coloured by the plane coin instead of the grid's."""
    out = reference_step(cells, rule, seed=seed, generation=generation)
    padded = np.pad(cells, 1)
    height, width = cells.shape
    n1 = sum((padded[1 + dy:1 + dy + height, 1 + dx:1 + dx + width] == 1).astype(int)
             for dy in (-1, 0, 1) for dx in (-1, 0, 1) if (dy, dx) != (0, 0))
    n2 = sum((padded[1 + dy:1 + dy + height, 1 + dx:1 + dx + width] == 2).astype(int)
             for dy in (-1, 0, 1) for dx in (-1, 0, 1) if (dy, dx) != (0, 0))
    for y, x in np.argwhere(rule.table[cells, n1, n2] == COIN):
        out[y, x] = documented_plane_coin(seed, generation, x0 + int(x), y0 + int(y))
    return out


# -- rules ------------------------------------------------------------------------------------


@st.composite
def life_like_rules(draw: st.DrawFn) -> Rule:
    born = draw(st.sets(st.integers(1, 8)))
    survive = draw(st.sets(st.integers(0, 8)))
    return Rule.from_string("B" + "".join(map(str, sorted(born))) + "/S"
                            + "".join(map(str, sorted(survive))))


@st.composite
def table_rules(draw: st.DrawFn) -> Rule:
    """A random two-colour table with coins (never birth on no neighbours)."""
    values = draw(st.lists(st.sampled_from([0, 0, 0, 1, 2, COIN]), min_size=243,
                           max_size=243))
    table = np.array(values, dtype=np.int8).reshape(3, 9, 9)
    n1, n2 = np.indices((9, 9))
    table[:, n1 + n2 > 8] = 0
    table[0, 0, 0] = 0
    return Rule("random-table", table)


RULES = st.one_of(
    life_like_rules(),
    st.sampled_from([Rule.named(name) for name in (
        "life", "immigration", "p2life", "p2life-birth-below-3", "p2life-no-coin",
        "p2life-plain-survival", "p2life-loose-survival", "p2life-unbounded-survival")]),
    table_rules(),
)


@st.composite
def patterns(draw: st.DrawFn) -> np.ndarray:
    height, width = draw(st.integers(1, 10)), draw(st.integers(1, 10))
    values = draw(st.lists(st.sampled_from([0, 0, 1, 2]), min_size=height * width,
                           max_size=height * width))
    return np.array(values, dtype=np.int8).reshape(height, width)


# -- tests ------------------------------------------------------------------------------------


def test_a_tile_plane_is_a_universe() -> None:
    assert isinstance(TilePlane("life"), Universe)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cells=patterns(), rule=RULES, x0=st.integers(-140, 140), y0=st.integers(-140, 140),
       generations=st.integers(1, 5), seed=st.integers(-2**63, 2**64 - 1),
       start=st.integers(0, 2**40))
def test_the_plane_equals_the_reference_step(cells: np.ndarray, rule: Rule, x0: int, y0: int,
                                             generations: int, seed: int,
                                             start: int) -> None:
    # Nothing reaches the edge of a grid padded by one cell more than the generations.
    pad = generations + 1
    grid = np.pad(cells, pad)
    left, top = x0 - pad, y0 - pad
    for g in range(start, start + generations):
        grid = plane_reference_step(grid, rule, x0=left, y0=top, seed=seed, generation=g)
    plane = TilePlane.from_cells(cells, rule, x=x0, y=y0, seed=seed)
    plane.generation = start
    plane.step(generations)
    box = Box(left, top, grid.shape[1], grid.shape[0])
    assert np.array_equal(plane.cells(box), grid)
    assert plane.population() == (int((grid == 1).sum()), int((grid == 2).sum()))
    expected = plane.bounding_box()
    if grid.any():
        rows, columns = np.nonzero(grid)
        assert expected == Box(left + int(columns.min()), top + int(rows.min()),
                               int(columns.max() - columns.min()) + 1,
                               int(rows.max() - rows.min()) + 1)
    else:
        assert expected is None and plane.tiles == 0


def numpy_plane_step(cells: np.ndarray, rule: Rule, *, x0: int, y0: int, seed: int,
                     generation: int) -> np.ndarray:
    """A whole-array step of a bounded grid at ``(x0, y0)`` on the plane (the plane coin of
    :mod:`lifearena.life.coin`, which the test above holds to its formula)."""
    padded = np.pad(cells, 1)
    height, width = cells.shape
    shifted = [padded[1 + dy:1 + dy + height, 1 + dx:1 + dx + width]
               for dy in (-1, 0, 1) for dx in (-1, 0, 1) if (dy, dx) != (0, 0)]
    n1 = sum((near == 1).astype(np.int64) for near in shifted)
    n2 = sum((near == 2).astype(np.int64) for near in shifted)
    out: np.ndarray = rule.table[cells, n1, n2].copy()
    ys, xs = np.nonzero(out == COIN)
    out[ys, xs] = plane_coin_colours(seed, generation, x0 + xs, y0 + ys)
    return out


@pytest.mark.parametrize("rule", [
    "life", "immigration", "B36/S23", "p2life", "p2life-loose-survival",
    "0 2-3 1-2 -> coin; 0 3 0 -> 1; 0 0 3 -> 2; 1 2-3 * -> 1; 2 * 2-4 -> 2"])
def test_a_soup_over_many_tiles_equals_whole_array_steps(rule: str) -> None:
    """Rows waking across tile sides and corners, tiles made and dropped, for 60
    generations of a 150 x 150 soup spread over nine tiles."""
    rules = Rule.from_string(rule)
    cells = np.random.default_rng(5).choice(np.array([0, 0, 1, 2], dtype=np.int8),
                                            size=(150, 150))
    generations, seed = 60, 11
    grid = np.pad(cells, generations + 1)
    left = top = -70 - generations - 1
    for g in range(generations):
        grid = numpy_plane_step(grid, rules, x0=left, y0=top, seed=seed, generation=g)
    plane = TilePlane.from_cells(cells, rules, x=-70, y=-70, seed=seed)
    for _ in range(3):
        plane.step(generations // 3)
    assert np.array_equal(plane.cells(Box(left, top, grid.shape[1], grid.shape[0])), grid)


@pytest.mark.parametrize(("flip_x", "flip_y"), [(False, False), (True, False), (False, True),
                                                (True, True)],
                         ids=["down-right", "down-left", "up-right", "up-left"])
def test_gliders_cross_tile_sides_in_every_direction(flip_x: bool, flip_y: bool) -> None:
    glider = GLIDER[::-1 if flip_y else 1, ::-1 if flip_x else 1]
    dx, dy = (-1 if flip_x else 1), (-1 if flip_y else 1)
    # Start on the corner of four tiles; 4 * 80 generations cross two tile sides each way.
    plane = TilePlane.from_cells(glider, "life", x=62, y=62)
    for quarter in range(1, 81):
        plane.step(4)
        assert plane.bounding_box() == Box(62 + dx * quarter, 62 + dy * quarter, 3, 3)
        assert plane.tiles <= 4
    assert np.array_equal(plane.cells(), glider)
    assert plane.population() == (5, 0)


def test_tiles_follow_the_pattern_and_are_dropped_when_empty() -> None:
    # Two gliders flying apart cost a few tiles each, never their bounding box.
    cells = np.zeros((3, 20), dtype=np.int8)
    cells[:, :3] = GLIDER[:, ::-1]  # flies down-left
    cells[:, 17:] = GLIDER          # flies down-right
    plane = TilePlane.from_cells(cells, "life", x=30, y=30)
    plane.step(2000)
    box = plane.bounding_box()
    assert box is not None and box.width > 1000
    assert plane.tiles <= 8
    # Lone cells spread over twelve tiles die at once and their tiles go.
    lonely = np.zeros((3 * 64, 4 * 64), dtype=np.int8)
    lonely[32::64, 32::64] = 1
    plane = TilePlane.from_cells(lonely, "life")
    assert plane.tiles == 12
    plane.step(1)
    assert plane.population() == (0, 0) and plane.tiles == 0
    assert plane.bounding_box() is None and plane.cells().shape == (0, 0)


@settings(max_examples=40, deadline=None)
@given(steps=st.lists(st.tuples(st.booleans(), st.integers(-3, 3), st.integers(-3, 3)),
                      max_size=120))
def test_the_tile_index_and_links_match_a_dictionary(
        steps: list[tuple[bool, int, int]]) -> None:
    """Tiles made and freed in any order (a tiny table, so probe runs wrap and collide):
    the hash index finds exactly the live tiles and every neighbour link is right."""
    plane = TilePlane("life")
    plane._index = np.full(16, -1, dtype=np.int64)  # 16 entries for at most 12 tiles
    state = plane._state()
    coord, nbr, index = plane._coord, plane._nbr, plane._index
    expected: dict[tuple[int, int], int] = {}
    for make, tx, ty in steps:
        if make:
            if len(expected) < 12:
                expected[(tx, ty)] = tiles.create_tile(tx, ty, *state)
        elif (tx, ty) in expected:
            tiles.remove_tile(expected.pop((tx, ty)), coord, nbr, plane._order,
                              plane._where, plane._count, index)
        assert plane.tiles == len(expected)
    for tx in range(-4, 5):
        for ty in range(-4, 5):
            slot = tiles.find_tile(tx, ty, coord, index)
            assert slot == expected.get((tx, ty), -1)
            if slot >= 0:
                for k, (dx, dy) in enumerate(zip(tiles.DX, tiles.DY, strict=True)):
                    assert nbr[slot, k] == expected.get((tx + int(dx), ty + int(dy)), -1)


def test_the_pool_grows_mid_run() -> None:
    """Thirty blinkers across tile corners fill the first pool (64 tiles) and ask for more
    tiles than it has free in the first step."""
    row = np.zeros((1, 30 * 128), dtype=np.int8)
    for k in range(30):
        row[0, 128 * k + 62:128 * k + 65] = 1
    plane = TilePlane.from_cells(row, "life", y=63)
    assert plane.tiles == 60
    plane.step(1)
    assert plane.tiles > 64 and plane.population() == (90, 0)
    vertical = plane.cells(Box(62, 62, 3, 3))
    assert vertical.tolist() == [[0, 1, 0], [0, 1, 0], [0, 1, 0]]
    plane.step(1)
    assert np.array_equal(plane.cells(Box(0, 63, row.shape[1], 1)), row)


def test_cells_of_a_box_and_add_in_negative_coordinates() -> None:
    plane = TilePlane("immigration")
    plane.add(np.array([[1, 2]], dtype=np.int8), x=-65, y=-1)
    plane.add(np.array([[2, 0, 1]], dtype=np.int8), x=-64, y=-1)  # its 0 leaves (-63, -1)
    assert plane.tiles == 2
    assert plane.bounding_box() == Box(-65, -1, 4, 1)
    assert plane.cells(Box(-66, -2, 6, 3)).tolist() == [[0, 0, 0, 0, 0, 0],
                                                        [0, 1, 2, 0, 1, 0],
                                                        [0, 0, 0, 0, 0, 0]]
    assert plane.cells(Box(10**9, 10**9, 2, 2)).tolist() == [[0, 0], [0, 0]]


def test_progress_and_a_still_life_stepped_to_the_end_at_once() -> None:
    plane = TilePlane.from_cells(GLIDER, "life")
    seen: list[int] = []
    plane.step(30, progress=seen.append)
    assert seen[-1] == 30 == plane.generation
    block = TilePlane.from_cells(np.ones((2, 2), dtype=np.int8), "life", x=-1, y=-1)
    block.step(10**12)  # a still life: no generation computed after the first
    assert block.generation == 10**12 and block.row_steps == 4 * 64  # one step of 4 tiles
    assert block.population() == (4, 0) and block.bounding_box() == Box(-1, -1, 2, 2)


def test_cells_added_between_steps_join_the_run() -> None:
    """Adding wakes the rows it touches: a glider added into a running plane, on tiles
    that hold cells already and on new ones, flies as if it had been there."""
    rule = Rule.named("immigration")
    first = np.array([[1, 2, 2], [0, 0, 0], [2, 1, 0]], dtype=np.int8)
    plane = TilePlane.from_cells(first, rule, x=60, y=60)
    plane.step(8)
    box = Box(0, 0, 200, 200)
    grid = plane.cells(box)
    second = GLIDER * 2
    grid[58:61, 70:73] = np.where(second != 0, second, grid[58:61, 70:73])
    plane.add(second, x=70, y=58)
    assert np.array_equal(plane.cells(box), grid)
    for g in range(8, 48):  # nothing reaches the box's edge in 48 generations
        grid = numpy_plane_step(grid, rule, x0=0, y0=0, seed=0, generation=g)
    plane.step(40)
    assert np.array_equal(plane.cells(box), grid)


def test_birth_on_no_neighbours_is_refused() -> None:
    with pytest.raises(RuleError, match=r"B0.*fill the unbounded plane"):
        TilePlane("B03/S23")


def test_bad_generations_and_boxes_are_refused_in_one_line() -> None:
    plane = TilePlane.from_cells(GLIDER, "life")
    for bad in (-1, 2.5, 10**13):
        with pytest.raises(BadParameterError, match="generations"):
            plane.step(bad)  # type: ignore[arg-type]
    with pytest.raises(BadParameterError, match="box"):
        plane.cells(Box(0, 0, 10**6, 10**6))
    with pytest.raises(BadParameterError,
                       match=r"pattern at \(2305843009213693952, 0\).*coordinates"):
        plane.add(GLIDER, x=2**61)
    with pytest.raises(BadParameterError, match="box.*coordinates"):
        plane.cells(Box(-2**62, 0, 1, 1))
    assert plane.generation == 0


def test_the_memory_cap_stops_a_growing_pattern_whole() -> None:
    gun = read_rle(GUN).cells
    plane = TilePlane.from_cells(gun, "life", max_cells=6 * 64 * 64)
    with pytest.raises(GrowthLimitError) as caught:
        plane.step(5000)
    error = caught.value
    message = str(error)
    assert "\n" not in message and f"generation {error.generation} " in message
    assert "cap of 24,576 cells" in message
    # The plane is whole at the generation named: the same cells as a plane run that far.
    assert plane.generation == error.generation
    free = TilePlane.from_cells(gun, "life")
    free.step(error.generation)
    assert free.population() == plane.population()
    assert np.array_equal(free.cells(), plane.cells())
    assert error.generation > 300  # the gun ran until its gliders needed a seventh tile


def test_add_past_the_cap_changes_nothing() -> None:
    plane = TilePlane.from_cells(GLIDER, "life", max_cells=2 * 64 * 64)
    with pytest.raises(GrowthLimitError, match=r"needs 3 tiles.*cap of 8,192 cells"):
        plane.add(np.ones((1, 2), dtype=np.int8), x=63, y=200)  # two more tiles
    assert plane.tiles == 1 and plane.population() == (5, 0)


# -- Golly --------------------------------------------------------------------------------------


@pytest.mark.skipif(shutil.which("bgolly") is None,
                    reason="bgolly (Debian package golly) is not installed: no Golly to "
                           "compare with")
@pytest.mark.parametrize(("text", "generations"), [
    (GUN, 1000), (R_PENTOMINO, 1103), (ACORN, 5206)], ids=["gun", "r-pentomino", "acorn"])
def test_the_plane_agrees_with_golly(tmp_path: Path, text: str, generations: int) -> None:
    source = tmp_path / "pattern.rle"
    source.write_text(text)
    golly = subprocess.run(["bgolly", "-a", "QuickLife", "-m", str(generations), "-o",
                            str(tmp_path / "golly.rle"), str(source)], check=True,
                           timeout=60, capture_output=True, text=True)
    # bgolly prints "generation: population" lines, the last one for the end.
    last = re.findall(r"^([\d,]+): ([\d,]+)$", golly.stdout, flags=re.MULTILINE)[-1]
    assert int(last[0].replace(",", "")) == generations
    plane = TilePlane.from_cells(load_pattern(source).cells, "life")
    plane.step(generations)
    assert plane.population() == (int(last[1].replace(",", "")), 0)
    theirs = load_pattern(tmp_path / "golly.rle").cells
    rows, columns = np.nonzero(theirs)
    theirs = theirs[rows.min():rows.max() + 1, columns.min():columns.max() + 1]
    assert np.array_equal(plane.cells(), theirs)
