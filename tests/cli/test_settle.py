"""``--until-stable`` on the plane and on a torus: a pattern is settled when what is left
after its escaping spaceships repeats. Golly's known figures: the R-pentomino settles at
generation 1,103 with 6 gliders escaped (116 cells then, gliders included), acorn at 5,206
with 13 (633 cells); a glider gun never settles."""

from __future__ import annotations

import re

import numpy as np
import pytest

from lifearena.cli import main
from lifearena.life.pattern_library import load_library_pattern
from lifearena.life.rules import Rule
from lifearena.life.settle import (
    CHECK_EVERY,
    Settle,
    life_like_ships,
    spaceships,
)
from lifearena.life.step import evolve
from lifearena.life.universes import GrowingPlane

LIFE = Rule.named("life")


def run_cli(capsys: pytest.CaptureFixture[str], *argv: object) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exit_info:
        main([str(a) for a in argv])
    out, err = capsys.readouterr()
    code = exit_info.value.code
    return (code if isinstance(code, int) else 1), out, " ".join(err.split())


def _settle(name: str, cap: int) -> tuple[Settle, GrowingPlane]:
    plane = GrowingPlane(LIFE)
    plane.add(load_library_pattern(name).cells)
    settle = Settle(LIFE)
    while plane.generation < cap and not settle.check(plane):
        plane.step(CHECK_EVERY)
    return settle, plane


def test_the_catalogue_holds_every_phase_and_orientation_and_each_flies_as_it_says() -> None:
    table = spaceships()
    names = sorted(set(name for name, _, _ in table.values()))
    assert names == ["HWSS", "LWSS", "MWSS", "glider"]
    counts = {name: sum(1 for n, _, _ in table.values() if n == name) for name in names}
    # 4 phases in 8 orientations, but two phases apart each ship is its own mirror image
    assert counts == {"glider": 16, "LWSS": 16, "MWSS": 16, "HWSS": 16}
    for (height, width, packed), (_, dx, dy) in table.items():
        mask = np.unpackbits(np.frombuffer(packed, np.uint8))[:height * width]
        cells = np.pad(mask.reshape(height, width).astype(np.int8), 6)
        after = evolve(cells, LIFE, 4)
        assert np.array_equal(np.roll(cells, (dy, dx), axis=(0, 1)), after)


def test_ships_fly_in_colour_blind_life_only() -> None:
    assert life_like_ships(LIFE) and life_like_ships(Rule.named("immigration"))
    assert not life_like_ships(Rule.named("p2life"))
    assert not life_like_ships(Rule.from_string("B36/S23"))


@pytest.mark.timeout(120)
def test_the_r_pentomino_settles_at_1103_with_6_gliders() -> None:
    settle, _plane = _settle("r-pentomino", 1500)
    assert settle.result is not None
    assert (settle.result.generation, settle.result.period) == (1103, 2)
    assert settle.result.escaped == {"glider": 6}
    replay = GrowingPlane(LIFE)
    replay.add(load_library_pattern("r-pentomino").cells)
    replay.step(1103)
    assert sum(replay.population()) == 116  # Golly's figure, the gliders included


@pytest.mark.timeout(300)
def test_acorn_settles_at_5206_with_13_gliders() -> None:
    settle, _plane = _settle("acorn", 6000)
    assert settle.result is not None
    assert (settle.result.generation, settle.result.escaped) == (5206, {"glider": 13})


def test_a_glider_gun_never_settles() -> None:
    settle, plane = _settle("gosper-glider-gun", 600)
    assert settle.result is None and plane.generation >= 600


def test_a_glider_heading_back_is_not_escaping() -> None:
    # a glider flying at a block: recognised as a glider, but its path meets the block
    plane = GrowingPlane(LIFE)
    plane.add(load_library_pattern("block").cells, x=0, y=0)
    plane.add(load_library_pattern("glider").cells, x=-20, y=-20)  # flies SE, at the block
    settle = Settle(LIFE)
    assert not any(settle.check(plane) for _ in range(3))


def test_on_a_torus_a_glider_that_wraps_past_the_rest_for_ever_escapes(capsys, tmp_path):
    # a glider and a blinker on a 40 x 40 torus: the glider's diagonal path misses the
    # blinker (checked by the run: its population stays 8), so the run stops early
    cells = np.zeros((40, 40), dtype=np.int8)
    cells[0:3, 0:3] = load_library_pattern("glider").cells
    cells[30, 8:11] = 1
    path = tmp_path / "start.rle"
    from lifearena.life.patterns import write_rle

    path.write_text(write_rle(cells, rule="B3/S23"))
    assert (evolve(cells, LIFE, 400, torus=True) != 0).sum() == 8
    code, out, err = run_cli(capsys, "life", "run", "-i", path, "--size", "40x40",
                             "--topology", "torus", "--until-stable", "-n", "5000",
                             "--no-show")
    text = " ".join(out.split())
    assert code == 0, err
    assert "escaped: 1 glider" in text and "period 2" in text
    generations = int(re.search(r"generations │ (\d+)", text).group(1))  # type: ignore
    assert generations < 200  # stopped by the settle check, not the cap


def test_until_stable_on_the_plane_says_what_escaped(capsys) -> None:
    code, out, err = run_cli(capsys, "life", "run", "-p", "r-pentomino", "--until-stable",
                             "-n", "2000", "--no-show")

    assert code == 0, err
    words = " ".join(re.sub("[│┌┐└┘─┬┴]", " ", out).split())
    assert ("settled stable/periodic with period 2 after generation 1103; escaped: 6 gliders"
            in words), words
    assert "generations 1105 " in words  # run on to the first repeat
    assert "colour 1 (blue, O) 116 " in words


def test_until_stable_on_a_bounded_grid_is_the_whole_grid_repeating(capsys) -> None:
    code, out, err = run_cli(capsys, "life", "run", "-p", "blinker", "--pad", "3",
                             "--topology", "bounded", "--until-stable", "-n", "50",
                             "--no-show")
    text = " ".join(out.split())
    assert code == 0, err
    assert "periodic (period 2)" in text and "after generation 0" in text
