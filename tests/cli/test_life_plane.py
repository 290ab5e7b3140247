"""``life run`` and ``life step`` on a grid the user did not size: the pattern runs on the
unbounded plane (its grid grows), never clipped by a bounded edge or wrapped by a torus; a
grid given by --size or --pad is kept as asked."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from lifearena import caps
from lifearena.cli import main
from lifearena.life import load_pattern
from lifearena.life.step import evolve

GUN = ("#N Gosper glider gun\nx = 36, y = 9, rule = B3/S23\n"
       "24bo$22bobo$12b2o6b2o12b2o$11bo3bo4b2o12b2o$2o8bo5bo3b2o$2o8bo3bob2o4b\n"
       "obo$10bo5bo7bo$11bo3bo$12b2o!\n")
GLIDER = "x = 3, y = 3, rule = B3/S23\nbob$2bo$3o!\n"
# The gun emits a glider (5 cells) every 30 generations and is back in its first phase (36
# cells) then: 36 + 5k at generation 30k on the plane, 86 at 300 (bgolly agrees). By then
# the first gliders have crossed the default grid's padding (32 cells), so a bounded grid
# clips them and a torus wraps them into the gun.
GUN_AT_300 = 86


def _live_box(cells: np.ndarray) -> np.ndarray:
    """The cells inside the live cells' bounding box."""
    rows, columns = np.nonzero(cells)
    return cells[rows.min():rows.max() + 1, columns.min():columns.max() + 1]


def _gun_on_the_plane(tmp_path: Path, generations: int) -> np.ndarray:
    """The gun after ``generations`` on a bounded grid so large that nothing reaches its
    edge (live cells spread at most one cell a generation): the plane's answer."""
    gun = load_pattern(_file(tmp_path, GUN, "reference.rle")).cells
    return _live_box(evolve(np.pad(gun, generations + 1), "life", generations))


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exit_info:
        main([str(a) for a in argv])
    out, err = capsys.readouterr()
    code = exit_info.value.code
    return (code if isinstance(code, int) else 1), out, err


def _file(tmp_path: Path, text: str, name: str = "pattern.rle") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_run_on_the_default_grid_grows(tmp_path, capsys) -> None:  # type: ignore
    code, out, err = run_cli(capsys, "life", "run", "--no-show", "-i", _file(tmp_path, GUN),
                             "-n", "300", "-o", tmp_path / "end.rle")
    assert code == 0, err
    assert re.search(r"colour 1 \(blue, O\)\s*│\s*86\b", out), out
    # the same cells as on the plane (a small torus has 86 too: its gliders wrapped round)
    assert np.array_equal(_live_box(load_pattern(tmp_path / "end.rle").cells),
                          _gun_on_the_plane(tmp_path, 300))
    assert "(tiles; auto:" in out  # the algorithm the run chose, and why


def test_step_on_the_default_grid_grows(tmp_path, capsys) -> None:  # type: ignore
    code, out, err = run_cli(capsys, "life", "step", _file(tmp_path, GUN), "-n", "300",
                             "-o", tmp_path / "end.rle")
    assert code == 0, err
    assert f"population {GUN_AT_300} + 0" in out
    assert np.array_equal(_live_box(load_pattern(tmp_path / "end.rle").cells),
                          _gun_on_the_plane(tmp_path, 300))
    # the grid that moved is written cut to the live cells and the default padding (32)
    cells = load_pattern(tmp_path / "end.rle").cells
    rows, columns = np.nonzero(cells)
    assert (rows.min(), columns.min()) == (32, 32)
    assert (cells.shape[0] - 1 - rows.max(), cells.shape[1] - 1 - columns.max()) == (32, 32)


@pytest.mark.parametrize("command", ["run", "step"])
@pytest.mark.parametrize("topology", ["torus", "bounded"])
def test_an_edge_given_to_the_plane_is_one_line(tmp_path, capsys, command: str,  # type: ignore
                                                topology: str) -> None:
    """--topology without --size or --pad would be ignored on the plane: it is refused."""
    where = ["-i"] if command == "run" else []
    code, _, err = run_cli(capsys, "life", command, *where, _file(tmp_path, GLIDER), "-n",
                           "8", "--topology", topology)
    assert code == 2 and err.count("\n") == 1
    assert f"--topology {topology}" in err and "--size WxH or --pad N" in err


def test_step_prints_the_plane_when_the_grid_is_not_sized(tmp_path, capsys) -> None:  # type: ignore
    # unsized, a glider moves on across the plane instead of being clipped or wrapped
    code, out, _ = run_cli(capsys, "life", "step", _file(tmp_path, GLIDER), "-n", "8")
    assert code == 0
    rows = out.splitlines()
    assert len(rows) == 3 + 2 * 8 and rows[10:13] == ["." * 11 + "O" + "." * 7,
                                                       "." * 12 + "O" + "." * 6,
                                                       "." * 10 + "OOO" + "." * 6]


def test_a_sized_grid_is_kept(tmp_path, capsys) -> None:  # type: ignore
    gun = _file(tmp_path, GUN)
    code, out, _ = run_cli(capsys, "life", "run", "--no-show", "-i", gun, "-n", "300",
                           "--size", "100x73")
    assert code == 0 and "100 x 73, torus" in out and "unbounded" not in out
    code, out, _ = run_cli(capsys, "life", "step", gun, "-n", "300", "--pad", "32",
                           "-o", tmp_path / "end.rle")
    clipped = load_pattern(tmp_path / "end.rle").cells
    assert code == 0 and clipped.shape == (73, 100)  # the bounded grid asked for, which
    assert np.count_nonzero(clipped) != GUN_AT_300   # clips the gliders, as asked


@pytest.mark.parametrize("command", ["run", "step"])
def test_past_the_cap_the_run_stops_with_one_line(tmp_path, capsys, monkeypatch,  # type: ignore
                                                  command: str) -> None:
    monkeypatch.setattr(caps, "MAX_GRID_CELLS", 20_000)
    argv = (["life", "run", "--no-show", "-i"] if command == "run" else ["life", "step"])
    code, out, err = run_cli(capsys, *argv, _file(tmp_path, GUN), "-n", "1000")
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1
    # the tile plane's cap, for run and step alike
    assert re.fullmatch(r"error: at generation \d+ the pattern needs \d+ tiles of 64 x 64 "
                        r"cells, past the cap of 20,000 cells \(it spans \d+ x \d+\); "
                        r"expected fewer --generations, or --size WxH .*", err.strip()), err


@pytest.mark.parametrize("argv", [
    ["life", "step", "{p}", "--rule", "B03/S23"],
    ["life", "run", "-i", "{p}", "--rule", "B03/S23"],
    ["life", "run", "-i", "{p}", "--kernel", "numpy"],
])
def test_what_the_plane_cannot_run_is_one_line(tmp_path, capsys, argv) -> None:  # type: ignore
    path = _file(tmp_path, GLIDER)
    code, _, err = run_cli(capsys, *[str(path) if a == "{p}" else a for a in argv])
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert "expected --size WxH" in err
    code, _, err = run_cli(capsys, *[str(path) if a == "{p}" else a for a in argv],
                           "--pad", "2", *(["--no-show"] if "run" in argv else []))
    assert code == 0, err


def test_the_gif_of_a_run_on_the_plane_follows_the_pattern(tmp_path,  # type: ignore
                                                                      capsys) -> None:
    code, out, _ = run_cli(capsys, "life", "run", "--no-show", "-i", _file(tmp_path, GLIDER),
                           "-n", "240", "--gif", tmp_path / "run.gif", "--frames", "4",
                           "--scale", "1", "-o", tmp_path / "end.rle")
    assert code == 0 and "unbounded plane (tiles" in out
    # the glider moved 60 cells down and right: the frames show it in one box that holds
    # its whole path (the union of the frames' boxes: 3 + 60 cells, and 2 of margin round)
    gif = Image.open(tmp_path / "run.gif")
    assert gif.n_frames == 4 and gif.size == (67, 67)
    first = np.asarray(gif.convert("RGB"))
    gif.seek(3)
    last = np.asarray(gif.convert("RGB"))
    background = first[0, 0]
    # the glider is at the top-left of the first frame and at the bottom-right of the last
    assert (first[:10, :10] != background).any() and not (first[-10:, -10:] != background).any()
    assert (last[-10:, -10:] != background).any() and not (last[:10, :10] != background).any()


@pytest.mark.skipif(shutil.which("bgolly") is None,
                    reason="bgolly (Debian package golly) is not installed: no Golly to "
                           "compare with")
@pytest.mark.parametrize(("text", "generations"), [
    (GUN, 700),
    ("#N Acorn\nx = 7, y = 3, rule = B3/S23\nbo$3bo$2o2b3o!\n", 1000),
    ("#N B-heptomino\nx = 4, y = 3, rule = B3/S23\nob2o$3o$bo!\n", 300),
], ids=["gun", "acorn", "b-heptomino"])
def test_step_agrees_with_golly(tmp_path, capsys, text: str,  # type: ignore
                                generations: int) -> None:
    source = _file(tmp_path, text)
    code, _, err = run_cli(capsys, "life", "step", source, "-n", str(generations),
                           "-o", tmp_path / "ours.rle")
    assert code == 0, err
    subprocess.run(["bgolly", "-q", "-q", "-m", str(generations), "-o",
                    str(tmp_path / "golly.rle"), str(source)], check=True, timeout=60)

    def live_box(path: Path) -> np.ndarray:
        cells = load_pattern(path).cells
        rows, columns = np.nonzero(cells)
        return cells[rows.min():rows.max() + 1, columns.min():columns.max() + 1]

    assert np.array_equal(live_box(tmp_path / "ours.rle"), live_box(tmp_path / "golly.rle"))
