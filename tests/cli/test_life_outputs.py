"""``life run``'s research outputs and pictures: the packed grid against the simple step,
the population series (CSV, plot), pictures fitted to the pattern, GIF frames taken during
the one run and shrunk to fit."""

from __future__ import annotations

import csv

import hypothesis.extra.numpy as hnp
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from lifearena import caps
from lifearena.cli import main
from lifearena.life import picture
from lifearena.life.drive import drive
from lifearena.life.frames import MAX_SIDE, FrameRecorder
from lifearena.life.grid import population
from lifearena.life.packed import PackedGrid
from lifearena.life.rules import Rule
from lifearena.life.series import SERIES_COLUMNS, write_csv, write_plot
from lifearena.life.step import evolve
from lifearena.life.universe import Box
from lifearena.life.universes import KernelGrid

RULES = [Rule.named("life"), Rule.named("immigration"), Rule.named("p2life"),
         Rule.from_string("B36/S23")]


def run_cli(capsys: pytest.CaptureFixture[str], *argv: object) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exit_info:
        main([str(a) for a in argv])
    out, err = capsys.readouterr()
    code = exit_info.value.code
    return (code if isinstance(code, int) else 1), out, err


def _box(cells: np.ndarray) -> tuple[int, int, int, int]:
    """The simple bounding box ``(x, y, width, height)``, zeros when empty."""
    rows, columns = np.nonzero(cells)
    if rows.size == 0:
        return 0, 0, 0, 0
    return (int(columns.min()), int(rows.min()), int(columns.max() - columns.min()) + 1,
            int(rows.max() - rows.min()) + 1)


grids = hnp.arrays(np.int8, st.tuples(st.integers(1, 12), st.integers(1, 140)),
                   elements=st.sampled_from([0, 0, 0, 1, 2]))


@settings(max_examples=40, deadline=None)
@given(cells=grids, rule=st.sampled_from(RULES), torus=st.booleans(),
       generations=st.integers(0, 9), every=st.integers(1, 4), seed=st.integers(0, 9))
def test_the_packed_grid_and_its_series_equal_the_simple_step(cells, rule, torus, generations,
                                                              every, seed) -> None:
    grid = PackedGrid(cells, rule, torus=torus, seed=seed)
    rows = grid.record(generations, every)
    expected, current = [], cells
    for g in range(1, generations + 1):
        current = evolve(current, rule, 1, torus=torus, seed=seed, generation=g - 1,
                         kernel="numpy")
        if g % every == 0:
            expected.append([g, *population(current), *_box(current)])
    assert rows.tolist() == expected
    assert np.array_equal(grid.cells(Box(0, 0, cells.shape[1], cells.shape[0])), current)
    assert grid.population() == population(current)
    box = grid.bounding_box()
    assert (box is None and not current.any()) or _box(current) == (
        box.x, box.y, box.width, box.height)


@settings(max_examples=30, deadline=None)
@given(cells=grids, factor=st.sampled_from([1, 2, 3, 4, 8]), data=st.data())
def test_blocks_count_each_colour_as_pooling_the_cells_does(cells, factor, data) -> None:
    height, width = cells.shape
    x = data.draw(st.integers(0, width - 1))
    y = data.draw(st.integers(0, height - 1))
    box = Box(x, y, data.draw(st.integers(1, width - x)), data.draw(st.integers(1, height - y)))
    ones, twos = PackedGrid(cells, RULES[0], torus=False).blocks(box, factor)
    inside = np.zeros_like(cells)
    inside[box.y:box.bottom, box.x:box.right] = cells[box.y:box.bottom, box.x:box.right]
    for colour, counts in ((1, ones), (2, twos)):
        for (r, c), n in np.ndenumerate(counts):
            top, left = (box.y // factor + r) * factor, (box.x // factor + c) * factor
            block = inside[top:top + factor, left:left + factor]
            assert n == int((block == colour).sum())


def test_the_drive_captures_frames_during_the_one_run(monkeypatch) -> None:
    steps: list[int] = []
    original = PackedGrid.step

    def counted(self, generations, progress=None):  # type: ignore[no-untyped-def]
        steps.append(generations)
        original(self, generations, progress)

    monkeypatch.setattr(PackedGrid, "step", counted)
    cells = np.zeros((40, 40), dtype=np.int8)
    cells[1, 2] = cells[2, 3] = 1
    cells[3, 1:4] = 1
    recorder = FrameRecorder(5)
    ran = drive(PackedGrid(cells, RULES[0], torus=True), 40, recorder=recorder, frame_step=10)
    assert ran.generation == 40 and sum(steps) == 40  # stepped once through, never again
    assert [frame.generation for frame in recorder.frames] == [0, 10, 20, 30, 40]


def test_frames_shrunk_by_different_factors_are_drawn_in_one_box() -> None:
    # a frame taken while the pattern was small keeps full detail; once the box grows the
    # factor doubles, and the early frames are pooled again to the common factor
    recorder = FrameRecorder(2, pixels=64, margin=0)
    small = np.zeros((64, 64), dtype=np.int8)
    small[0, 0] = 1
    recorder.capture(KernelGrid(small, RULES[0], torus=False))
    large = small.copy()
    large[15, 15] = 2
    recorder.capture(KernelGrid(large, RULES[0], torus=False))
    assert recorder.factor == 2
    first, second = recorder.grids()
    assert first.shape == second.shape == (8, 8)
    assert first[0, 0] == 1 and second[7, 7] == 2 and int((first != 0).sum()) == 1


def test_the_frames_side_matches_the_pictures() -> None:
    assert MAX_SIDE == picture.MAX_SIDE


def test_populations_csv_holds_every_generation_and_every_n(tmp_path, capsys) -> None:
    path = tmp_path / "pops.csv"
    code, _out, err = run_cli(capsys, "life", "run", "--no-show", "--size", "300x200",
                             "--rule", "immigration", "-n", "12", "--seed", "4",
                             "--populations", path)
    assert code == 0, err
    with open(path, newline="") as stream:
        rows = list(csv.reader(stream))
    assert tuple(rows[0]) == SERIES_COLUMNS
    assert [int(r[0]) for r in rows[1:]] == list(range(13))
    # the same soup stepped by the simple kernel gives the same populations
    from lifearena.life.grid import random_grid

    cells = random_grid(200, 300, density=0.5, seed=4, colours=2)
    final = evolve(cells, "immigration", 12, torus=True, kernel="numpy")
    assert [int(v) for v in rows[-1][1:3]] == list(population(final))
    code, _, err = run_cli(capsys, "life", "run", "--no-show", "--size", "300x200", "-n",
                           "12", "--populations", path, "--every", "5")
    assert code == 0, err
    assert [line.split(",")[0] for line in path.read_text().splitlines()[1:]] == \
        ["0", "5", "10"]


def test_populations_on_the_plane_follow_the_glider(tmp_path, capsys) -> None:
    path = tmp_path / "pops.csv"
    code, _, err = run_cli(capsys, "life", "run", "--no-show", "-p", "glider", "-n", "80",
                           "--populations", path, "--every", "40")
    assert code == 0, err
    rows = [line.split(",") for line in path.read_text().splitlines()[1:]]
    # five cells throughout; the box moves one cell down-right every 4 generations
    assert [r[:3] for r in rows] == [["0", "5", "0"], ["40", "5", "0"], ["80", "5", "0"]]
    assert [int(r[3]) for r in rows] == [0, 10, 20] and [int(r[5]) for r in rows] == [3] * 3


@pytest.mark.parametrize(("argv", "words"), [
    (["--every", "3"], "--every 3 thins the --populations or --plot series"),
    (["--populations", "{tmp}/p.txt"], "expected a name ending in .csv"),
    (["--plot", "{tmp}/p.csv"], "expected a name ending in .png"),
    (["--step-exponent", "3", "-n", "12"], "--generations 12 is not a multiple of the step"),
    (["--step-exponent", "41"], "--step-exponent"),
    (["--populations", "{tmp}/p.csv", "--every", "3", "--step-exponent", "1", "-n", "4"],
     "--every 3 is not a multiple of the step 2**K = 2"),
    (["-p", "glider", "--algorithm", "tiles", "--step-exponent", "2", "-n", "4"],
     "--step-exponent sets HashLife's step"),
    (["-p", "glider", "--algorithm", "tiles", "-r", "B2-a/S12", "-n", "4"],
     "is a lookup over the neighbourhood"),
    (["-p", "p2life-glider-duel", "--algorithm", "hashlife"], "coin births"),
    (["--algorithm", "tiles"], "runs the unbounded plane"),
    (["-p", "glidr"], "--pattern 'glidr' is not in the pattern library"),
])
def test_bad_output_options_are_one_line(tmp_path, capsys, argv, words) -> None:
    argv = [a.format(tmp=tmp_path) for a in argv]
    code, out, err = run_cli(capsys, "life", "run", "--no-show", *argv)
    assert code == 2 and out == "" and words in err and err.count("\n") == 1, err
    assert not list(tmp_path.iterdir())  # nothing written, not even half


def test_plot_writes_a_titled_png(tmp_path, capsys) -> None:
    path = tmp_path / "plot.png"
    code, _, err = run_cli(capsys, "life", "run", "--no-show", "-p", "r-pentomino", "-n",
                           "60", "--plot", path)
    assert code == 0, err
    image = Image.open(path)
    assert image.format == "PNG" and image.size == (800, 450)
    colours = np.unique(np.asarray(image.convert("RGB")).reshape(-1, 3), axis=0)
    assert len(colours) > 10  # axes, labels, a line: not a blank picture


def test_an_error_while_writing_leaves_nothing_behind(tmp_path, monkeypatch) -> None:
    rows = np.array([[0, 3, 0, 0, 0, 3, 1]])
    target = tmp_path / "series.csv"
    target.write_text("an older series\n")

    def broken(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise OSError("disk full")

    monkeypatch.setattr(np, "savetxt", broken)
    with pytest.raises(OSError):
        write_csv(target, rows)
    assert target.read_text() == "an older series\n" and len(list(tmp_path.iterdir())) == 1
    monkeypatch.undo()
    import matplotlib.figure

    monkeypatch.setattr(matplotlib.figure.Figure, "savefig", broken)
    with pytest.raises(OSError):
        write_plot(tmp_path / "plot.png", rows, rule="life", pattern="x")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["series.csv"]


def test_the_png_is_fitted_to_the_pattern(tmp_path, capsys) -> None:
    path = tmp_path / "end.png"
    code, _, err = run_cli(capsys, "life", "run", "--no-show", "-p", "glider", "--size",
                           "400x300", "--topology", "bounded", "-n", "8", "--png", path,
                           "--scale", "1")
    assert code == 0, err
    assert Image.open(path).size == (7, 7)  # the glider's 3 x 3 and 2 cells round it


def test_the_default_frames_fit_a_large_grid(tmp_path, capsys) -> None:
    # 120 frames of a 2048 x 2048 grid were refused (over 2 GiB in memory); they are shrunk
    path = tmp_path / "run.gif"
    code, _, err = run_cli(capsys, "life", "run", "--no-show", "--size", "2048x2048",
                           "--rule", "life", "-n", "2", "--gif", path)
    assert code == 0, err
    gif = Image.open(path)
    budget = caps.MAX_GIF_BYTES // (5 * 120)
    assert gif.n_frames == 3 and gif.size[0] * gif.size[1] <= budget
    assert gif.size[0] >= 512  # shrunk by a power of two only as far as needed


def test_what_the_plane_cannot_run_is_refused_before_the_start_is_shown(capsys) -> None:
    # without --no-show a small pattern's start grid is printed: a refusal must come first
    code, out, err = run_cli(capsys, "life", "run", "-p", "glider", "--algorithm", "tiles",
                             "--step-exponent", "3", "-n", "8")
    assert code == 2 and out == "" and err.count("\n") == 1, (out, err)
    assert "--step-exponent sets HashLife's step" in err
