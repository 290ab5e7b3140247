"""``lifearena life``: runs that write files, and bad input as one line with exit code 2."""

from __future__ import annotations

from pathlib import Path

import hypothesis.extra.numpy as hnp
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from lifearena.cli import main
from lifearena.life import load_pattern, write_rle


def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exit_info:
        main(list(argv))
    out, err = capsys.readouterr()
    return exit_info.value.code, out, err


def test_run_writes_pattern_png_and_gif(tmp_path, capsys):
    code, out, _ = run_cli(
        capsys, "life", "run", "--rule", "immigration", "--size", "30x20", "-n", "12",
        "--seed", "3", "-o", str(tmp_path / "end.rle"), "--png", str(tmp_path / "end.png"),
        "--gif", str(tmp_path / "run.gif"), "--frames", "5",
    )
    assert code == 0
    assert "Run summary" in out and "colour 2" in out
    pattern = load_pattern(tmp_path / "end.rle")
    assert pattern.cells.shape == (20, 30) and pattern.rule == "Immigration"  # as Golly names it
    gif = Image.open(tmp_path / "run.gif")
    assert 3 <= gif.n_frames <= 5  # Pillow merges identical consecutive frames
    assert Image.open(tmp_path / "end.png").size[0] >= 30


def test_run_until_stable_reports_period(tmp_path, capsys):
    blinker = np.zeros((5, 5), dtype=np.int8)
    blinker[2, 1:4] = 1
    (tmp_path / "blinker.rle").write_text(write_rle(blinker))
    code, out, _ = run_cli(capsys, "life", "run", "-i", str(tmp_path / "blinker.rle"),
                           "--rule", "life", "--until-stable")
    assert code == 0 and "periodic (period 2)" in out


def test_step_prints_the_next_generation(tmp_path, capsys):
    (tmp_path / "b.cells").write_text(".....\n.....\n.OOO.\n.....\n.....\n")
    code, out, _ = run_cli(capsys, "life", "step", str(tmp_path / "b.cells"), "--pad", "0")
    assert code == 0
    assert out.splitlines()[1:4] == ["..O..", "..O..", "..O.."]


def test_step_pads_a_glider_so_it_stays_a_glider(tmp_path, capsys):
    # the README's example: unpadded, the 3x3 glider hits the edge and becomes a block
    (tmp_path / "glider.rle").write_text("x = 3, y = 3, rule = B3/S23\nbob$2bo$3o!\n")
    code, out, _ = run_cli(capsys, "life", "step", str(tmp_path / "glider.rle"), "-n", "4")
    assert code == 0
    rows = out.splitlines()
    assert len(rows) == 11 and all(len(r) == 11 for r in rows)
    assert rows[5:8] == ["......O....", ".......O...", ".....OOO..."]  # one cell down-right


def test_step_size_centres_the_pattern(tmp_path, capsys):
    (tmp_path / "glider.rle").write_text("x = 3, y = 3\nbob$2bo$3o!\n")
    code, out, _ = run_cli(capsys, "life", "step", str(tmp_path / "glider.rle"), "-n", "0",
                           "--size", "7x5")
    assert code == 0 and out.splitlines()[1:4] == ["...O...", "....O..", "..OOO.."]


def test_long_step_reads_the_answer_off_the_cycle(tmp_path, capsys):
    (tmp_path / "glider.rle").write_text("x = 3, y = 3\nbob$2bo$3o!\n")
    path = str(tmp_path / "glider.rle")
    # on an 8x8 torus the glider comes back after 32 generations: 10^9 = 32 * 31250000
    code, far, err = run_cli(capsys, "life", "step", path, "-n", "1000000000", "--topology",
                             "torus", "--size", "8x8")
    assert code == 0 and "period 32" in err
    code, start, _ = run_cli(capsys, "life", "step", path, "-n", "0", "--topology", "torus",
                             "--size", "8x8")
    assert far == start
    code, near, _ = run_cli(capsys, "life", "step", path, "-n", "1000000005", "--topology",
                            "torus", "--size", "8x8")
    code, five, _ = run_cli(capsys, "life", "step", path, "-n", "5", "--topology", "torus",
                            "--size", "8x8")
    assert near == five != start


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["life", "run", "--rule", "nope"], "unknown rule 'nope'"),
        (["life", "run", "--size", "ax3"], "--size 'ax3'"),
        (["life", "run", "--size", "100000000x100000000"], "10^16 cells; expected at most"),
        (["life", "run", "--density", "2"], "--density 2: expected a number from 0 to 1"),
        (["life", "run", "-n", "-1"], "--generations -1: expected a whole number from 0 to"),
        (["life", "run", "-n", "10" * 15], "expected a whole number from 0 to 1,000,000,000,000"),
        (["life", "run", "--rule", ""], "--rule ''"),
        (["life", "run", "--png", "a.png", "--scale", "100000"], "--scale"),
        (["life", "step", "x.rle", "--pad", "1", "--size", "9x9"], "either --pad or --size"),
        (["life", "step", "/no/such/file.rle"], "No such file"),
        (["life", "run", "--kernel", "gpu"], "unknown kernel"),
        (["life", "run", "--gif", "x.png"], "wrong file type; expected a name ending in .gif"),
        (["life", "run", "--png", "/no/such/dir/a.png"], "does not exist"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(capsys, argv, message):
    code, _, err = run_cli(capsys, *argv)
    assert code == 2
    assert message in err
    assert len(err.strip().splitlines()) == 1


def test_malformed_rle_file(tmp_path, capsys):
    (tmp_path / "bad.rle").write_text("x = 2, y = 2\no3o!")
    code, _, err = run_cli(capsys, "life", "step", str(tmp_path / "bad.rle"))
    assert code == 2 and "row 1 is 4 cells long" in err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["life", "run", "--density", "abc"], "--density abc: expected a number from 0 to 1"),
        (["life", "run", "--nope"], "No such option: --nope"),
        (["no-such-command"], "No such command"),
    ],
)
def test_usage_errors_are_one_line_and_exit_2(capsys, argv, message):
    code, _, err = run_cli(capsys, *argv)
    assert code == 2
    assert message in err and err.startswith("error: ")
    assert len(err.strip().splitlines()) == 1


def test_soup_too_big_for_memory_is_a_one_line_error(capsys, monkeypatch):
    # a size under the cell cap can still exceed memory (the soup is drawn as float64);
    # that used to be a numpy MemoryError traceback
    class NoMemory:
        def random(self, shape):
            raise MemoryError

    monkeypatch.setattr(np.random, "default_rng", lambda seed: NoMemory())
    code, _, err = run_cli(capsys, "life", "run", "--size", "16000x16000", "--no-show")
    assert code == 2
    assert err == ("error: a soup of 16000 x 16000 cells does not fit in this machine's "
                   "memory; expected a smaller size\n")


def test_run_uses_the_input_patterns_rule_by_default(tmp_path, capsys):
    # 'life run -i' used to run p2life on a pattern whose RLE header says B3/S23
    (tmp_path / "glider.rle").write_text("x = 3, y = 3, rule = B3/S23\nbo$2bo$3o!\n")
    code, out, _ = run_cli(capsys, "life", "run", "-i", str(tmp_path / "glider.rle"),
                           "--size", "8x8", "-n", "4", "--no-show",
                           "-o", str(tmp_path / "end.rle"))
    assert code == 0 and "B3/S23" in out
    end = load_pattern(tmp_path / "end.rle")
    assert end.rule == "B3/S23" and int((end.cells > 0).sum()) == 5  # still a glider
    code, out, _ = run_cli(capsys, "life", "run", "-i", str(tmp_path / "glider.rle"),
                           "--size", "8x8", "-n", "1", "--no-show", "--rule", "immigration")
    assert code == 0 and "immigration" in out


@settings(max_examples=40, deadline=None)
@given(cells=hnp.arrays(np.int8, st.tuples(st.integers(3, 9), st.integers(3, 9)),
                        elements=st.sampled_from([0, 0, 1, 2])),
       rule=st.sampled_from(["life", "immigration", "p2life"]),
       generations=st.integers(0, 300), torus=st.booleans(), seed=st.integers(0, 5))
def test_long_step_equals_stepping_every_generation(cells, rule, generations, torus, seed):
    # the cycle shortcut of 'life step' against plain evolve; with coins it stops at the repeat
    from lifearena.cli.life import _step_far
    from lifearena.life.rules import as_rule
    from lifearena.life.step import evolve

    the_rule = as_rule(rule)
    fast, reached, note = _step_far(cells, the_rule, generations, torus=torus, seed=seed,
                                    generation=0)
    if reached != generations:  # only a coin rule stops early, at a repeat, and says so
        assert the_rule.uses_coin and reached < generations and "stopped at" in note
        generations = reached
    assert np.array_equal(fast, evolve(cells, the_rule, generations, torus=torus, seed=seed))


@pytest.mark.parametrize("columns, shown", [(80, False), (200, True)])
def test_run_prints_grids_only_when_a_row_fits_the_terminal(columns, shown, capsys,
                                                            monkeypatch) -> None:
    # a 64-wide grid is 127 characters a row: it would wrap in 80 columns
    monkeypatch.setenv("COLUMNS", str(columns))
    code, out, _ = run_cli(capsys, "life", "run", "--rule", "p2life", "--size", "64x64",
                           "-n", "2")
    assert code == 0 and "Run summary" in out
    assert ("start" in out.splitlines()[0]) is shown
    assert (max(len(line) for line in out.splitlines()) > 80) is shown


GLIDER = Path(__file__).resolve().parents[2] / "examples" / "patterns" / "glider.rle"


def test_run_pads_a_pattern_as_life_step_does(capsys, tmp_path) -> None:
    # on a torus the size of the pattern a glider died in 2 generations; padded it flies
    # (on the unbounded plane: with no --size or --pad the grid would grow if it had to)
    end = tmp_path / "end.rle"
    code, out, _ = run_cli(capsys, "life", "run", "-i", str(GLIDER), "--until-stable",
                           "-n", "40", "-o", str(end), "--no-show")
    assert code == 0 and "3 x 3 live box, unbounded" in out and "extinct" not in out
    assert "escaped: 1 glider" in " ".join(out.split())
    assert int(load_pattern(end).cells.sum()) == 5  # still a glider
    code, out, _ = run_cli(capsys, "life", "run", "-i", str(GLIDER), "--pad", "2", "-n", "1",
                           "--no-show")
    assert code == 0 and "7 x 7" in out


@pytest.mark.parametrize("argv, words", [
    (["--pad", "2", "--size", "8x8"], "either --pad or --size"),
    (["--pad", "2"], "pads a pattern; expected --input FILE or --pattern NAME"),
])
def test_run_pad_is_refused_where_it_means_nothing(argv, words, capsys) -> None:
    extra = ["-i", str(GLIDER)] if "--size" in argv else []
    code, _, err = run_cli(capsys, "life", "run", *extra, *argv)
    assert code == 2 and words in err and err.count("\n") == 1
