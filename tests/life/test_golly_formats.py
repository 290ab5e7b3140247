"""Golly's pattern files both ways: topology, #CXRLE, gzip, Life 1.05/1.06, plaintext,
refusals by name, and Golly's own pattern folders."""

from __future__ import annotations

import gzip

import numpy as np
import pytest

from lifearena.errors import ParseError, RuleError
from lifearena.life.lookup_rule import as_any_rule
from lifearena.life.patterns import load_pattern, read_rle, save_pattern, write_rle
from lifearena.life.step import evolve
from lifearena.life.topology import Topology

from .conftest import PATTERNS, bgolly_run, crop, needs_bgolly

GLIDER = np.array([[0, 1, 0], [0, 0, 1], [1, 1, 1]], dtype=np.int8)


@pytest.mark.parametrize(("suffix", "topology"), [
    ("T72,48", Topology("torus", 72, 48)), ("P40,30", Topology("bounded", 40, 30)),
    ("T100", Topology("torus", 100, 100)), ("P0,0", Topology.plane()),
    ("T0,68", Topology("torus", 0, 68)),
])
def test_topology_suffixes_are_read_and_written_back(suffix: str, topology: Topology) -> None:
    pattern = read_rle(f"x = 3, y = 3, rule = B3/S23:{suffix}\nbo$2bo$3o!")
    assert pattern.rule == "B3/S23" and pattern.topology == topology
    again = read_rle(write_rle(pattern.cells, rule="life", topology=pattern.topology))
    assert again.topology == topology and again.rule == "B3/S23"


@pytest.mark.parametrize(("suffix", "name"), [
    ("K40*,20", "Klein bottle"), ("C40,20", "cross-surface"), ("S30", "sphere"),
    ("T30+7,20", "shifted or twisted"),
])
def test_unsupported_surfaces_are_refused_by_name(suffix: str, name: str) -> None:
    with pytest.raises(ParseError, match=f"topology :{suffix.replace('+', '.').replace('*', '.')}"
                       f".*{name}.*expected :T"):
        read_rle(f"x = 1, y = 1, rule = B3/S23:{suffix}\no!")


def test_cxrle_position_and_generation_round_trip() -> None:
    text = write_rle(GLIDER, rule="immigration", origin=(-7, 12), generation=345)
    assert text.splitlines()[:2] == ["#CXRLE Pos=-7,12 Gen=345",
                                     "x = 3, y = 3, rule = Immigration"]
    pattern = read_rle(text)
    assert (pattern.origin, pattern.generation, pattern.comments) == ((-7, 12), 345, [])


@pytest.mark.parametrize("name", ["g.rle", "g.rle.gz", "g.lif", "g.life", "g.cells", "g.txt"])
def test_every_written_format_reads_back(name: str, tmp_path) -> None:
    path = tmp_path / name
    save_pattern(path, GLIDER, rule="B36/S23", origin=(3, -4))
    pattern = load_pattern(path)
    assert np.array_equal(pattern.cells, GLIDER)
    if name.endswith((".rle", ".gz", ".lif", ".life")):
        assert pattern.origin == (3, -4)
    if name.endswith((".rle", ".gz", ".lif")):
        assert pattern.rule == "B36/S23"


def test_content_decides_over_the_extension(tmp_path) -> None:
    path = tmp_path / "glider.rle"  # gzip inside, whatever the name says
    path.write_bytes(gzip.compress(write_rle(GLIDER).encode()))
    assert np.array_equal(load_pattern(path).cells, GLIDER)
    lif = tmp_path / "glider.txt"
    lif.write_text("#Life 1.06\n1 0\n2 1\n0 2\n1 2\n2 2\n")
    assert np.array_equal(load_pattern(lif).cells, GLIDER)


@pytest.mark.parametrize(("name", "content", "message"), [
    ("a.zip", b"PK\x03\x04", r"\.zip files are not patterns.*zip archive"),
    ("a.lua", b"local g = golly()", r"\.lua files are not patterns.*Lua script"),
    ("a.py", b"import golly", r"\.py files are not patterns.*Python script"),
    ("a.mcl", b"#MCell 4.20", r"\.mcl files are not patterns.*MCell"),
    ("a.xyz", b"hello", r"unknown pattern file type '\.xyz'; expected \.rle"),
    ("a.mc", b"[M2] (golly 3.3)\n#R B3/S23\n4 1 2 3 9\n",
     "macrocell line 3: child 1 is not an earlier node"),
    ("a.lif", b"!not a life file", "no '#Life 1.05' or '#Life 1.06' first line"),
])
def test_other_files_are_refused_by_name(name: str, content: bytes, message: str,
                                         tmp_path) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(ParseError, match=message) as error:
        load_pattern(path)
    assert "\n" not in str(error.value) and str(path) in str(error.value)


def _golly_files() -> list:
    folders = ["Life", "Life-Like", "Non-Totalistic"]
    return sorted(p for folder in folders if (PATTERNS / folder).is_dir()
                  for p in (PATTERNS / folder).rglob("*") if p.is_file())


@pytest.mark.skipif(not _golly_files(), reason="Golly's patterns missing (apt-get install golly)")
def test_golly_pattern_folders_load_or_are_refused_by_name() -> None:
    loaded = refused = 0
    for path in _golly_files():
        try:
            pattern = load_pattern(path)
            as_any_rule(pattern.rule or "B3/S23")
            loaded += 1
        except (ParseError, RuleError) as error:
            message = str(error)
            assert "\n" not in message
            assert (path.suffix in (".zip", ".lua") or "Golly's Life with extra states" in message
                    or "is not supported" in message or "cells; at most" in message), message
            refused += 1
    assert loaded >= 160 and refused <= 12, (loaded, refused)


SAMPLE = ["Life/Methuselahs/acorn.lif", "Life/Methuselahs/rabbits.lif",
          "Life/Methuselahs/ark1.rle", "Life/Puffers/puffer-train.rle", "Life-Like/coral.rle",
          "Life-Like/persian-rugs.lif", "Life-Like/replicator.rle",
          "Non-Totalistic/Sierpinski-builder.rle", "Non-Totalistic/p42-knightship.rle",
          "Non-Totalistic/rr14gun.rle"]
"""Small patterns of Golly's folders, one-colour and Life-like or Hensel rules without B0."""


@needs_bgolly
@pytest.mark.parametrize("name", SAMPLE)
def test_what_we_write_golly_runs_to_the_same_cells(name: str, tmp_path) -> None:
    source = PATTERNS / name
    if not source.is_file():
        pytest.skip(f"{name} is not in this Golly")
    pattern = load_pattern(source)
    rule = as_any_rule(pattern.rule or "B3/S23")
    ours = tmp_path / "ours.rle"
    save_pattern(ours, pattern.cells, rule=pattern.rule or "B3/S23", origin=pattern.origin)
    generations = 40
    expected = evolve(np.pad(pattern.cells, generations + 1), rule, generations)
    assert np.array_equal(crop(expected), crop(bgolly_run(ours, generations, tmp_path)))


@needs_bgolly
@pytest.mark.parametrize("suffix", [".lif", ".life", ".rle.gz"])
def test_golly_reads_every_format_we_write(suffix: str, tmp_path) -> None:
    rule = "B36/S23"
    cells = (np.random.default_rng(4).random((12, 16)) < 0.4).astype(np.int8)
    ours = tmp_path / f"ours{suffix}"
    save_pattern(ours, cells, rule=rule, origin=(-3, 2))
    generations = 20
    expected = evolve(np.pad(cells, generations + 1), rule, generations)
    golly_rule = None if suffix != ".life" else rule  # Life 1.06 holds no rule
    assert np.array_equal(crop(expected),
                          crop(bgolly_run(ours, generations, tmp_path, rule=golly_rule)))
