"""``life run`` at Golly's scale: the plane's algorithm chosen per run (HashLife for a long
run of a deterministic rule, tiles otherwise) and said; Golly's files in and out of a run
(``:T`` grids, ``#CXRLE Pos``/``Gen``, macrocell output); lookup rules (Hensel notation) on
the plane and on a grid. Golly (``bgolly``) is the independent reference where installed."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from lifearena.cli import main
from lifearena.life.hashlife import HashLife
from lifearena.life.macrocell import load_macrocell
from lifearena.life.patterns import load_pattern
from lifearena.life.universe import Box

needs_golly = pytest.mark.skipif(shutil.which("bgolly") is None,
                                 reason="bgolly (Debian package golly) is not installed: no "
                                        "Golly to compare with")
ACORN = "#N Acorn\nx = 7, y = 3, rule = B3/S23\nbo$3bo$2o2b3o!\n"
AGAR = Path("/usr/share/golly/Patterns/Life/Bounded-Grids/agar-p3.rle")


def run_cli(capsys: pytest.CaptureFixture[str], *argv: object) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exit_info:
        main([str(a) for a in argv])
    out, err = capsys.readouterr()
    code = exit_info.value.code
    return (code if isinstance(code, int) else 1), out, err


def _golly(tmp_path: Path, pattern: Path, generations: int, *extra: str,
           suffix: str = ".rle") -> Path:
    """Golly's pattern after ``generations``, as it writes it (RLE without a position, or
    a macrocell file, which has one)."""
    out = tmp_path / f"golly{suffix}"
    subprocess.run(["bgolly", "-m", str(generations), *extra, "-o", str(out), str(pattern)],
                   check=True, capture_output=True, timeout=120)
    return out


def test_a_long_run_of_the_gun_is_hashlife_and_its_macrocell_file_reads_back(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(capsys, "life", "run", "--no-show", "-p", "gosper-glider-gun",
                             "-n", 1_000_000, "-o", tmp_path / "gun.mc")
    assert code == 0, err
    flat = " ".join(out.replace("│", " ").split())
    assert "(HashLife; auto: a long run (2**17 generations or more)" in flat
    assert re.search(r"colour 1 \(blue, O\) 166,713\b", flat), flat  # Golly's figure
    read = load_macrocell(tmp_path / "gun.mc")
    assert read.generation == 1_000_000 and read.universe.population() == (166_713, 0)


def test_a_pattern_too_large_for_rle_names_the_macrocell_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(capsys, "life", "run", "--no-show", "-p", "gosper-glider-gun",
                             "-n", 2**30, "-o", tmp_path / "gun.rle")
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    assert "expected --output FILE.mc" in err
    assert list(tmp_path.iterdir()) == []  # nothing written, not even half


def test_the_algorithm_can_be_forced_either_way(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    ends = []
    for algorithm in ("tiles", "hashlife"):
        out_file = tmp_path / f"{algorithm}.rle"
        code, out, err = run_cli(capsys, "life", "run", "--no-show", "-p", "r-pentomino",
                                 "-n", 1200, "--algorithm", algorithm, "-o", out_file)
        assert code == 0, err
        assert ("(HashLife; asked for" if algorithm == "hashlife" else "(tiles; asked for") \
            in " ".join(out.replace("│", " ").split())
        ends.append(load_pattern(out_file))
    assert np.array_equal(ends[0].cells, ends[1].cells)
    assert ends[0].origin == ends[1].origin and ends[0].generation == 1200


@needs_golly
def test_a_plane_run_writes_golly_s_cells_at_golly_s_place(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    start = tmp_path / "acorn.rle"
    start.write_text(ACORN)
    code, _, err = run_cli(capsys, "life", "run", "--no-show", "-i", start, "-n", 1000,
                           "-o", tmp_path / "ours.rle")
    assert code == 0, err
    ours = load_pattern(tmp_path / "ours.rle")
    # Golly writes a plane's position in its macrocell files (its RLE has none)
    golly = load_macrocell(_golly(tmp_path, start, 1000, "-a", "HashLife", suffix=".mc")).universe
    box = golly.bounding_box()
    assert box is not None and ours.origin == (box.x, box.y)
    assert np.array_equal(ours.cells, golly.cells(box)) and ours.generation == 1000


@needs_golly
@pytest.mark.skipif(not AGAR.exists(), reason="Golly's pattern folder is not installed")
def test_a_torus_file_runs_on_its_torus_and_is_written_back(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(capsys, "life", "run", "--no-show", "-i", AGAR, "-n", 31,
                             "-o", tmp_path / "ours.rle")
    assert code == 0 and "72 x 48, torus" in out, err
    text = (tmp_path / "ours.rle").read_text()
    assert "rule = B3/S23:T72,48" in text and "#CXRLE Pos=-36,-24 Gen=31" in text
    ours = load_pattern(tmp_path / "ours.rle")
    golly = load_pattern(_golly(tmp_path, AGAR, 31))
    # Golly writes the live cells' box; ours is the whole grid at the grid's place
    rows, cols = np.nonzero(ours.cells)
    assert np.array_equal(ours.cells[rows.min():rows.max() + 1, cols.min():cols.max() + 1],
                          golly.cells)


@needs_golly
@pytest.mark.parametrize("size", [None, "40x40"])
def test_a_hensel_rule_runs_as_golly_runs_it(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                             size: str | None) -> None:
    rule = "B35-y/S234-w"  # isotropic non-totalistic: not a function of neighbour counts
    start = tmp_path / "start.rle"
    start.write_text(f"x = 7, y = 3, rule = {rule}\nbo$3bo$2o2b3o!\n")
    sized = ["--size", size, "--topology", "bounded"] if size else []
    code, _, err = run_cli(capsys, "life", "run", "--no-show", "-i", start, "-n", 60,
                             *sized, "-o", tmp_path / "ours.rle")
    assert code == 0, err
    ours = load_pattern(tmp_path / "ours.rle")
    if size:  # Golly's bounded grid of the same size, the pattern centred as ours
        start.write_text(f"#CXRLE Pos=-4,-2\nx = 7, y = 3, rule = {rule}:P40,40\n"
                         "bo$3bo$2o2b3o!\n")
    golly = load_pattern(_golly(tmp_path, start, 60))
    rows, cols = np.nonzero(ours.cells)
    assert np.count_nonzero(ours.cells) == np.count_nonzero(golly.cells) > 0
    assert np.array_equal(ours.cells[rows.min():rows.max() + 1, cols.min():cols.max() + 1],
                          golly.cells)


def test_hashlife_blocks_count_every_cell_once() -> None:
    cells = np.zeros((40, 40), dtype=np.int8)
    rng = np.random.default_rng(3)
    cells[rng.random((40, 40)) < 0.3] = 1
    cells[rng.random((40, 40)) < 0.1] = 2
    universe = HashLife.from_cells(cells, "immigration", x=-13, y=7)
    universe.step(50)
    box = universe.bounding_box()
    assert box is not None
    for factor in (1, 2, 4, 8, 16):
        ones, twos = universe.blocks(box, factor)
        assert (int(ones.sum()), int(twos.sum())) == universe.population()
    # below 4 the blocks are exact: the cells pooled
    ones, twos = universe.blocks(box, 2)
    left, top = box.x - box.x % 2, box.y - box.y % 2
    grid = universe.cells(Box(left, top, box.right + box.right % 2 - left,
                              box.bottom + box.bottom % 2 - top))
    pooled = (grid == 1).reshape(grid.shape[0] // 2, 2, grid.shape[1] // 2, 2).sum(axis=(1, 3))
    assert np.array_equal(ones, pooled[:ones.shape[0], :ones.shape[1]])


def test_a_grid_named_in_the_rule_is_run_and_written(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(capsys, "life", "run", "--no-show", "-p", "glider", "-n", 100,
                             "-r", "B3/S23:P40,30", "-o", tmp_path / "end.rle")
    assert code == 0 and "40 x 30, bounded" in out, err
    end = load_pattern(tmp_path / "end.rle")
    assert end.topology is not None and end.topology.golly_suffix() == ":P40,30"
    assert end.origin == (-20, -15) and end.cells.shape == (30, 40)
    assert np.count_nonzero(end.cells) == 4  # the glider became a block at the wall


@pytest.mark.parametrize(("argv", "words"), [
    (["-r", "B3/S23:K40,40"], "(Klein bottle) is not supported"),
    (["-r", "B3/S23:T0,30"], "infinite one way"),
    (["-p", "p2life-glider-duel", "-o", "x.mc"], "coin births, which HashLife cannot run"),
])
def test_what_lifearena_does_not_run_is_one_line(capsys: pytest.CaptureFixture[str],
                                                  tmp_path: Path, argv: list[str],
                                                  words: str) -> None:
    argv = [str(tmp_path / a) if a.endswith(".mc") else a for a in argv]
    code, out, err = run_cli(capsys, "life", "run", "--no-show", *argv, "-n", 3)
    assert code == 2 and out == "" and err.count("\n") == 1 and words in err, err
    assert list(tmp_path.iterdir()) == []


METACATACRYST = Path("/usr/share/golly/Patterns/HashLife/metacatacryst.mc")


@needs_golly
@pytest.mark.skipif(not METACATACRYST.exists(), reason="Golly's pattern folder is not installed")
def test_a_macrocell_file_larger_than_a_grid_runs_as_its_tree(
        capsys: pytest.CaptureFixture[str]) -> None:
    # 52 cells spread over 59,739 x 14,663: past the grid cap, so only a tree holds it
    code, out, err = run_cli(capsys, "life", "run", "--no-show", "-i", METACATACRYST,
                             "-n", 1024)
    assert code == 0, err
    flat = " ".join(out.replace("│", " ").split())
    assert "(HashLife; a macrocell file larger than a grid runs as its own tree)" in flat
    golly = subprocess.run(["bgolly", "-a", "HashLife", "-m", "1024", "-i", "1024",
                            str(METACATACRYST)], capture_output=True, text=True, check=True,
                           timeout=120).stdout
    population = re.findall(r"^1,024: ([\d,]+)$", golly, flags=re.M)[-1]
    assert f"colour 1 (blue, O) {population} " in flat
    code, _, err = run_cli(capsys, "life", "run", "--no-show", "-i", METACATACRYST, "-n", 4,
                           "--size", "100x100")
    assert code == 2 and "larger than the largest grid" in err
