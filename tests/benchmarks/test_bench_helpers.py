"""The pieces the engine's benchmarks rest on: the plain loop bench_life.py quotes the kernel
against gives the reference step's answer, and the files bench_golly.py hands Golly say
what lifearena means (a soup's RLE, Immigration as a Golly rule table)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lifearena.life.kernels.bitlogic import seed_word
from lifearena.life.kernels.reference import reference_step
from lifearena.life.patterns import read_rle
from lifearena.life.rules import Rule
from lifearena.life.step import evolve

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from bench_golly import golly_rule_table, rle_of, rle_population
from plain_step import plain_step

FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def soup(seed: int, height: int, width: int, colours: int = 2) -> np.ndarray:
    rng = np.random.default_rng(seed)
    live = rng.random((height, width)) < 0.5
    return np.where(live, rng.integers(1, colours + 1, size=(height, width)), 0).astype(np.int8)


@FAST
@given(name=st.sampled_from(["life", "immigration", "p2life", "B36/S23"]),
       seed=st.integers(0, 2**32 - 1), height=st.integers(1, 12), width=st.integers(1, 12),
       torus=st.booleans(), coin_seed=st.integers(0, 2**64 - 1),
       generation=st.integers(0, 1000))
def test_the_plain_loop_gives_the_reference_steps_answer(
        name: str, seed: int, height: int, width: int, torus: bool, coin_seed: int,
        generation: int) -> None:
    rule = Rule.from_string(name)
    cells = soup(seed, height, width)
    expected = reference_step(cells, rule, torus=torus, seed=coin_seed, generation=generation)
    got = plain_step(cells, rule.table, torus, seed_word(coin_seed), generation)
    assert got.tolist() == expected.tolist()


@FAST
@given(seed=st.integers(0, 2**32 - 1), height=st.integers(1, 9), width=st.integers(1, 80),
       colours=st.sampled_from([1, 2]))
def test_a_soups_rle_reads_back_as_the_same_cells(seed: int, height: int, width: int,
                                                  colours: int) -> None:
    cells = soup(seed, height, width, colours)
    text = rle_of(cells, "immigration")
    assert rle_population(text) == np.count_nonzero(cells)
    pattern = read_rle(text)
    back = np.zeros((height, width), dtype=np.int8)
    back[:pattern.cells.shape[0], :pattern.cells.shape[1]] = pattern.cells
    assert back.tolist() == cells.tolist()


@pytest.mark.skipif(shutil.which("bgolly") is None,
                    reason="bgolly (Debian package golly) is not installed")
def test_golly_runs_the_written_immigration_table_as_lifearena_does(tmp_path: Path) -> None:
    (tmp_path / "Immigration.rule").write_text(golly_rule_table("immigration"))
    cells = soup(5, 24, 30)
    (tmp_path / "soup.rle").write_text(rle_of(cells, "Immigration:T30,24"))
    subprocess.run(["bgolly", "-q", "-q", "-a", "RuleLoader", "-s", f"{tmp_path}/",
                    "-r", "Immigration:T30,24", "-m", "20", "-o", str(tmp_path / "out.rle"),
                    str(tmp_path / "soup.rle")], check=True, timeout=60)
    expected = evolve(cells, "immigration", 20, torus=True)
    # Golly writes the live cells' bounding box: compare it, colour for colour.
    rows, cols = np.nonzero(expected)
    box = expected[rows.min():rows.max() + 1, cols.min():cols.max() + 1]
    assert golly_cells((tmp_path / "out.rle").read_text()).tolist() == box.tolist()


def golly_cells(text: str) -> np.ndarray:
    """The grid of a Golly multistate RLE (``.`` empty, ``A``/``B`` colours 1 and 2)."""
    lines = [line for line in text.splitlines() if line and not line.startswith("#")]
    size = dict(part.split("=") for part in lines[0].replace(" ", "").split(",")[:2])
    cells = np.zeros((int(size["y"]), int(size["x"])), dtype=np.int8)
    y = x = 0
    for count, token in re.findall(r"(\d*)([.AB$!])", "".join(lines[1:])):
        run = int(count) if count else 1
        if token == "$":
            y, x = y + run, 0
        elif token == "!":
            break
        else:
            cells[y, x:x + run] = ".AB".index(token)
            x += run
    return cells


def test_a_coin_rule_has_no_golly_table() -> None:
    from bench_golly import Unavailable

    with pytest.raises(Unavailable, match="coin"):
        golly_rule_table("p2life")
