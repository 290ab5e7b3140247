"""Macrocell files: Golly's own files load, ours round-trip and Golly reads them."""

from __future__ import annotations

import gzip
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lifearena.errors import BadParameterError, ParseError, RuleError
from lifearena.life.hashlife import HashLife
from lifearena.life.macrocell import (
    load_macrocell,
    read_macrocell,
    save_macrocell,
    write_macrocell,
)
from lifearena.life.patterns import read_rle
from lifearena.life.rules import Rule
from lifearena.life.universe import Box

GOLLY_HASHLIFE = Path("/usr/share/golly/Patterns/HashLife")
GOLLY_RULES = Path("/usr/share/golly/Rules")
GUN_RLE = """#CXRLE Pos=5,-3
x = 36, y = 9, rule = B3/S23
24bo$22bobo$12b2o6b2o12b2o$11bo3bo4b2o12b2o$2o8bo5bo3b2o$2o8bo3bob2o4b
obo$10bo5bo7bo$11bo3bo$12b2o!
"""
needs_bgolly = pytest.mark.skipif(shutil.which("bgolly") is None,
                                  reason="bgolly (Debian's golly) not installed")


def golly_files() -> list[Path]:
    if not GOLLY_HASHLIFE.is_dir():
        return []
    return sorted(GOLLY_HASHLIFE.glob("*.mc")) + sorted(GOLLY_HASHLIFE.glob("*.mc.gz"))


def gun_universe() -> HashLife:
    return HashLife.from_cells(read_rle(GUN_RLE).cells, "B3/S23", 5, -3)


@pytest.mark.skipif(not golly_files(), reason="Golly's pattern folder not installed")
@pytest.mark.parametrize("path", golly_files(), ids=lambda path: path.name)
def test_golly_hashlife_patterns_load_and_round_trip(path: Path) -> None:
    data = path.read_bytes()
    text = (gzip.decompress(data) if path.suffix == ".gz" else data).decode()
    rule = "".join(re.findall(r"^#R\s*(\S*)", text, re.MULTILINE))
    if rule not in ("", "B3/S23"):
        with pytest.raises(RuleError, match=f"macrocell rule '{rule}' is not one"):
            load_macrocell(path)
        return
    pattern = load_macrocell(path)
    assert pattern.universe.population()[0] > 0
    text = write_macrocell(pattern.universe, comments=pattern.comments)
    again = read_macrocell(text)
    assert again.universe.population() == pattern.universe.population()
    assert again.universe.bounding_box() == pattern.universe.bounding_box()
    assert again.comments == pattern.comments
    assert write_macrocell(again.universe, comments=again.comments) == text


@st.composite
def universes(draw: st.DrawFn) -> HashLife:
    rule = draw(st.sampled_from(["B3/S23", "immigration", "B36/S23"]))
    height, width = draw(st.integers(1, 20)), draw(st.integers(1, 20))
    colours = 2 if rule == "immigration" else 1
    seed = draw(st.integers(0, 2**32 - 1))
    cells = np.random.default_rng(seed).integers(0, colours + 1, (height, width))
    universe = HashLife.from_cells(cells.astype(np.int8), rule,
                                   draw(st.integers(-10**6, 10**6)),
                                   draw(st.integers(-10**6, 10**6)))
    universe.step(draw(st.integers(0, 20)))
    return universe


@settings(max_examples=15, deadline=None)
@given(universes(), st.sampled_from([None, True]))
def test_written_files_read_back_the_same(universe: HashLife, multistate: bool | None) -> None:
    text = write_macrocell(universe, multistate=multistate)
    pattern = read_macrocell(text, rule=universe.rule)
    assert pattern.generation == universe.generation
    assert pattern.universe.population() == universe.population()
    assert pattern.universe.bounding_box() == universe.bounding_box()
    np.testing.assert_array_equal(pattern.universe.cells(), universe.cells())
    two_colour = universe.population()[1] > 0 or universe.rule_name == "immigration"
    if universe.population() != (0, 0):
        assert any(line.startswith("1 ") for line in text.splitlines()) == bool(
            multistate or two_colour)


@pytest.mark.parametrize(("text", "box"), [
    # written by bgolly -a HashLife -o: a glider at #CXRLE Pos=5,-3 after one generation,
    # and a block at Pos=-8,-7 (the root's top-left cell)
    ("#G 1\n$$$$$.....*.*$......**$......*$\n4 0 1 0 0", Box(5, -2, 3, 3)),
    ("**$**$\n4 1 0 0 0", Box(-8, -7, 2, 2)),
])
def test_golly_coordinates_are_kept(text: str, box: Box) -> None:
    universe = read_macrocell(f"[M2] (golly 3.3)\n#R B3/S23\n{text}\n").universe
    assert universe.bounding_box() == box
    assert write_macrocell(universe).splitlines()[2:] == text.splitlines()


def test_two_colour_files_use_golly_multistate_lines() -> None:
    universe = HashLife.from_cells(np.array([[1, 2], [2, 1]], dtype=np.int8), "immigration")
    lines = write_macrocell(universe).splitlines()
    assert lines[1] == "#R Immigration"
    # (0, 0) is the bottom row of the root's north-east quarter (Golly's y runs from -7)
    assert lines[2:] == ["1 0 0 1 2", "2 0 0 1 0", "3 0 0 2 0",
                         "1 2 1 0 0", "2 4 0 0 0", "3 5 0 0 0", "4 0 3 0 6"]
    assert read_macrocell("\n".join(lines), rule="immigration").universe.cells().tolist() \
        == [[1, 2], [2, 1]]
    with pytest.raises(BadParameterError, match="colour 2 cannot be written as a two-state"):
        write_macrocell(universe, multistate=False)


def test_gzip_files_save_whole_and_load(tmp_path: Path) -> None:
    universe = gun_universe()
    universe.step(1000)
    path = tmp_path / "gun.mc.gz"
    save_macrocell(path, universe, comments=["Gosper gun"])
    assert path.read_bytes()[:2] == b"\x1f\x8b" and [p.name for p in tmp_path.iterdir()] == \
        ["gun.mc.gz"]
    pattern = load_macrocell(path)
    assert pattern.comments == ("#C Gosper gun",) and pattern.generation == 1000
    assert pattern.universe.population() == universe.population()


@pytest.mark.parametrize(("text", "message"), [
    ("", r"line 1: ''; expected the header '\[M2\] \(...\)'"),
    ("x = 3, y = 3\n3o!", r"line 1: 'x = 3, y = 3'; expected the header"),
    ("[M2]\n4 0 1 0", r"line 2: '4 0 1 0'; expected 'level nw ne sw se'"),
    ("[M2]\n#R B3/S23\n4 0 1 0 0", r"line 3: child 1 is not an earlier node; expected 0 to 0"),
    ("[M2]\n**$\n5 1 0 0 0", r"line 3: child 1 has level 3; expected level 4"),
    ("[M2]\n1 0 3 0 0", r"line 2: state 3; expected cell states 0, 1 or 2"),
    ("[M2]\n*********$", r"line 2: the leaf passes 8x8 cells"),
    ("[M2]\n$$$$$$$$*", r"line 2: the leaf passes 8x8 cells"),
    ("[M2]\n**o$", r"line 2: 'o' in a leaf; expected '.', '\*' or '\$'"),
    ("[M2]\n#G -5\n", r"line 2: generation '-5'; expected '#G' and a whole number"),
    ("[M2]\n0 0 0 0 0", r"line 2: level 0; expected a level from 1 to 1024"),
    ("[M2]\n99999 0 0 0 0", r"line 2: level 99999; expected a level from 1 to 1024"),
])
def test_malformed_files_are_refused_in_one_line(text: str, message: str) -> None:
    with pytest.raises(ParseError, match=f"^macrocell {message}") as error:
        read_macrocell(text)
    assert "\n" not in str(error.value)


def test_damaged_and_binary_data_are_refused() -> None:
    with pytest.raises(ParseError, match=r"^macrocell \.gz file is damaged"):
        read_macrocell(gzip.compress(b"[M2]\n")[:-6])
    with pytest.raises(ParseError, match="not text at byte 5"):
        read_macrocell(b"[M2]\n\xff\xfe")
    with pytest.raises(RuleError, match="macrocell rule 'w22' is not one lifearena runs"):
        read_macrocell("[M2]\n#R w22\n")


def test_an_empty_file_is_an_empty_universe() -> None:
    pattern = read_macrocell("[M2] (golly 3.3)\n#R B3/S23\n")
    assert pattern.universe.population() == (0, 0) and pattern.universe.bounding_box() is None
    assert read_macrocell(write_macrocell(pattern.universe)).universe.population() == (0, 0)


def bgolly(*arguments: str) -> str:
    result = subprocess.run(["bgolly", *arguments], capture_output=True, text=True,
                            timeout=60, check=True)
    return result.stdout


def last_population(output: str) -> tuple[int, int]:
    generation, population = re.findall(r"^([\d,]+): ([\d,]+)$", output, re.MULTILINE)[-1]
    return int(generation.replace(",", "")), int(population.replace(",", ""))


@needs_bgolly
@pytest.mark.parametrize("multistate", [False, True])
def test_golly_reads_our_files(tmp_path: Path, multistate: bool) -> None:
    universe = gun_universe()
    universe.step(100)
    path = tmp_path / "ours.mc"
    # Golly runs Life with more than two states through its RuleLoader and Rules/Life.rule
    rule, algorithm = ("Life", "RuleLoader") if multistate else (None, "HashLife")
    path.write_text(write_macrocell(universe, rule=rule, multistate=multistate))
    output = bgolly("-a", algorithm, "-s", f"{GOLLY_RULES}/", "-m", "101", str(path))
    universe.step(1)
    assert last_population(output) == (101, universe.population()[0])


def immigration_rule_table() -> str:
    """Immigration as a Golly @TABLE: every centre state and every count of neighbours of
    each colour (permute symmetry: the neighbours' order does not matter)."""
    rule = Rule.named("immigration")
    lines = ["@RULE Immigration", "@TABLE", "n_states:3", "neighborhood:Moore",
             "symmetries:permute"]
    for state in range(3):
        for ones in range(9):
            for twos in range(9 - ones):
                neighbours = [1] * ones + [2] * twos + [0] * (8 - ones - twos)
                after = rule.next_state(state, ones, twos)
                lines.append(",".join(map(str, [state, *neighbours, after])))
    return "\n".join(lines) + "\n"


@needs_bgolly
def test_golly_runs_our_two_colour_files_the_same(tmp_path: Path) -> None:
    soup = np.random.default_rng(7).integers(0, 3, (16, 16)).astype(np.int8)
    universe = HashLife.from_cells(soup, "immigration", -3, 4)
    universe.step(20)
    (tmp_path / "Immigration.rule").write_text(immigration_rule_table())
    (tmp_path / "ours.mc").write_text(write_macrocell(universe))
    bgolly("-a", "RuleLoader", "-s", f"{tmp_path}/", "-m", "60", "-o",
           str(tmp_path / "golly.rle"), str(tmp_path / "ours.mc"))
    universe.step(40)
    assert universe.population()[1] > 0
    np.testing.assert_array_equal(read_rle((tmp_path / "golly.rle").read_text()).cells,
                                  universe.cells())


@needs_bgolly
@pytest.mark.parametrize("algorithm", ["HashLife", "RuleLoader"])
def test_we_read_golly_files(tmp_path: Path, algorithm: str) -> None:
    (tmp_path / "gun.rle").write_text(GUN_RLE)
    out = tmp_path / "golly.mc"
    rule = ["-r", "Life", "-s", f"{GOLLY_RULES}/"] if algorithm == "RuleLoader" else []
    bgolly("-a", algorithm, *rule, "-m", "1000", "-o", str(out), str(tmp_path / "gun.rle"))
    bgolly("-a", "HashLife", "-m", "1000", "-o", str(tmp_path / "golly.rle"),
           str(tmp_path / "gun.rle"))
    pattern = read_macrocell(out.read_bytes(), rule="B3/S23")
    universe = gun_universe()
    universe.step(1000)
    assert pattern.generation == 1000
    assert pattern.universe.bounding_box() == universe.bounding_box() == Box(5, -3, 268, 255)
    np.testing.assert_array_equal(pattern.universe.cells(), universe.cells())
    np.testing.assert_array_equal(read_rle((tmp_path / "golly.rle").read_text()).cells,
                                  universe.cells())
