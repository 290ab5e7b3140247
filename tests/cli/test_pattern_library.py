"""The pattern library shipped with lifearena: every entry loads and is what its index
says (spaceships fly, oscillators have their period, methuselahs reach Golly's figures),
``--pattern NAME`` runs it and ``lifearena life patterns`` lists it."""

from __future__ import annotations

import shutil
import subprocess
import tomllib
from pathlib import Path

import numpy as np
import pytest

from lifearena.cli import main
from lifearena.life.pattern_library import library, load_library_pattern
from lifearena.life.rules import as_rule
from lifearena.life.step import evolve
from lifearena.life.universes import GrowingPlane

ROOT = Path(__file__).resolve().parents[2]
FOLDER = ROOT / "src" / "lifearena" / "life" / "library"


def run_cli(capsys: pytest.CaptureFixture[str], *argv: object) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exit_info:
        main([str(a) for a in argv])
    out, err = capsys.readouterr()
    code = exit_info.value.code
    return (code if isinstance(code, int) else 1), out, err


def test_every_entry_loads_with_its_rule_and_every_file_has_an_entry() -> None:
    entries = library()
    assert {e.file for e in entries.values()} == {p.name for p in FOLDER.glob("*.rle")}
    for name, entry in entries.items():
        pattern = load_library_pattern(name)
        assert pattern.cells.any(), name
        assert as_rule(pattern.rule).table.tobytes() == as_rule(entry.rule).table.tobytes()
        assert entry.discoverer and entry.source and entry.note


def test_the_library_is_package_data() -> None:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    globs = data["tool"]["setuptools"]["package-data"]["lifearena.life"]
    assert "library/*.rle" in globs and "library/index.toml" in globs


@pytest.mark.parametrize(("name", "dx", "dy"), [
    ("glider", 1, 1), ("lwss", -2, 0), ("mwss", -2, 0), ("hwss", -2, 0)])
def test_the_spaceships_fly(name: str, dx: int, dy: int) -> None:
    cells = np.pad(load_library_pattern(name).cells, 4)
    assert np.array_equal(evolve(cells, "life", 4), np.roll(cells, (dy, dx), axis=(0, 1)))


@pytest.mark.parametrize(("name", "period"), [
    ("block", 1), ("beehive", 1), ("blinker", 2), ("toad", 2), ("beacon", 2),
    ("pulsar", 3), ("pentadecathlon", 15)])
def test_the_oscillators_have_their_period(name: str, period: int) -> None:
    cells = np.pad(load_library_pattern(name).cells, 3)
    states = [cells]
    for _ in range(period):
        states.append(evolve(states[-1], "life", 1))
    assert np.array_equal(states[-1], cells)
    assert not any(np.array_equal(s, cells) for s in states[1:-1])


@pytest.mark.parametrize(("name", "generations", "population"), [
    ("r-pentomino", 1103, 116), ("diehard", 130, 0), ("diehard", 129, 2),
    ("gosper-glider-gun", 300, 86), ("switch-engine", 2000, 257)])
def test_the_methuselahs_reach_golly_figures(name: str, generations: int,
                                             population: int) -> None:
    plane = GrowingPlane(as_rule("life"))
    plane.add(load_library_pattern(name).cells)
    plane.step(generations)
    assert sum(plane.population()) == population


@pytest.mark.skipif(shutil.which("bgolly") is None, reason="bgolly (Debian's golly) is not "
                    "installed: no Golly to compare with")
@pytest.mark.parametrize(("name", "generations", "population"), [
    ("acorn", 5206, 633), ("lidka", 29055, 1625)])
def test_golly_agrees_with_the_index(tmp_path, name: str, generations: int,
                                     population: int) -> None:
    out = tmp_path / "out.rle"
    subprocess.run(["bgolly", "-q", "-q", "-a", "QuickLife", "-m", str(generations), "-o",
                    str(out), str(FOLDER / library()[name].file)], check=True, timeout=60)
    from lifearena.life.patterns import load_pattern

    assert int((load_pattern(out).cells != 0).sum()) == population
    assert f"{population:,} cells at generation {generations:,}" in library()[name].source


def test_patterns_lists_every_name(capsys) -> None:
    code, out, _ = run_cli(capsys, "life", "patterns")
    assert code == 0
    for name in library():
        assert name in out


def test_run_and_step_take_a_pattern_by_name(capsys, tmp_path) -> None:
    code, out, err = run_cli(capsys, "life", "step", "--pattern", "glider", "-n", "4")
    assert code == 0, err
    assert out.splitlines()[5:8] == ["......O....", ".......O...", ".....OOO..."]
    end = tmp_path / "end.rle"
    code, out, err = run_cli(capsys, "life", "run", "-p", "immigration-r-duel", "-n", "50",
                             "--no-show", "-o", end)
    assert code == 0, err
    from lifearena.life.patterns import load_pattern

    assert load_pattern(end).rule == "Immigration"  # the library pattern's own rule, Golly's name


@pytest.mark.parametrize("argv", [
    ["life", "run", "-p", "nope"],
    ["life", "step", "--pattern", "nope"],
    ["life", "run", "-p", "glider", "-i", "x.rle"],
    ["life", "step"],
])
def test_a_bad_pattern_name_is_one_line(capsys, argv) -> None:
    code, out, err = run_cli(capsys, *argv)
    assert code == 2 and out == "" and err.count("\n") == 1 and "pattern" in err
