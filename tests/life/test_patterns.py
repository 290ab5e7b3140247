"""RLE and text grids: Golly's format read and written, bad input named precisely."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from lifearena.errors import ParseError
from lifearena.life.patterns import (
    load_pattern,
    read_rle,
    read_text,
    save_pattern,
    write_rle,
    write_text,
)

GOSPER_GUN = """#N Gosper glider gun
#C The first known gun.
x = 36, y = 9, rule = B3/S23
24bo$22bobo$12b2o6b2o12b2o$11bo3bo4b2o12b2o$2o8bo5bo3b2o$2o8bo3bob2o4b
obo$10bo5bo7bo$11bo3bo$12b2o!
"""


def test_reads_golly_two_state_rle_with_comments():
    pattern = read_rle(GOSPER_GUN)
    assert pattern.cells.shape == (9, 36)
    assert pattern.rule == "B3/S23"
    assert pattern.comments == ["#N Gosper glider gun", "#C The first known gun."]
    assert int(pattern.cells.sum()) == 36
    assert pattern.cells[0, 24] == 1 and pattern.cells[4, 0] == 1 and pattern.cells[8, 13] == 1


def test_reads_multistate_rle_with_row_runs():
    pattern = read_rle("x = 4, y = 4, rule = Immigration\n2A$.B2$3.B!")
    assert pattern.cells.tolist() == [[1, 1, 0, 0], [0, 2, 0, 0], [0, 0, 0, 0], [0, 0, 0, 2]]


def test_writes_multistate_when_colour_two_occurs():
    cells = np.array([[1, 0, 2], [0, 0, 0], [2, 2, 2]], dtype=np.int8)
    assert write_rle(cells) == "x = 3, y = 3\nA.B2$3B!\n"


@given(arrays(np.int8, st.tuples(st.integers(1, 12), st.integers(1, 90)),
              elements=st.integers(0, 2)))
def test_rle_and_text_round_trip(cells: np.ndarray):
    text = write_rle(cells, rule="p2life")
    assert all(len(line) <= 70 for line in text.splitlines()[1:])
    again = read_rle(text)
    assert again.rule == "p2life"
    assert np.array_equal(again.cells, cells)
    assert np.array_equal(read_text(write_text(cells)).cells, cells)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "no header"),
        ("#C only a comment", "no header"),
        ("x = 3\nooo!", "bad RLE header at line 1"),
        ("x = 3, y = 1\nozo!", r"unknown RLE cell state 'z' at line 2, column 2"),
        ("x = 2, y = 1\n3o!", "row 1 is 3 cells long at line 2, column 2"),
        ("x = 2, y = 1\no$o!", "more than 1 rows at line 2, column 3"),
        ("x = 2, y = 2\noo$o", "ends without '!'"),
    ],
)
def test_malformed_rle_names_the_problem(text: str, message: str):
    with pytest.raises(ParseError, match=message):
        read_rle(text)


def test_text_grid_reads_aliases_and_rejects_unknown_cells():
    assert read_text("!comment\n*#\n.O\nX").cells.tolist() == [[1, 2], [0, 1], [2, 0]]
    with pytest.raises(ParseError, match=r"unknown cell 'q' at line 2, column 1"):
        read_text("..\nq.")


def test_save_and_load_by_suffix(tmp_path):
    cells = np.array([[0, 1, 2]], dtype=np.int8)
    for name in ("a.rle", "a.cells"):
        save_pattern(tmp_path / name, cells, rule="immigration", comments=["hello"])
        assert np.array_equal(load_pattern(tmp_path / name).cells, cells)
    assert load_pattern(tmp_path / "a.rle").rule == "Immigration"  # the name Golly knows
    assert not list(tmp_path.glob("*.partial"))
    (tmp_path / "bad.rle").write_text("x = 1, y = 1\nq!")
    with pytest.raises(ParseError, match="bad.rle: unknown RLE cell state"):
        load_pattern(tmp_path / "bad.rle")


@pytest.mark.parametrize("suffix", [".rle", ".txt"])
def test_a_binary_file_is_named_not_quoted(tmp_path, suffix: str) -> None:
    path = tmp_path / f"picture{suffix}"
    path.write_bytes(bytes(range(128, 256)) * 4)
    with pytest.raises(ParseError, match=r"picture\.(rle|txt)' is not a text file; expected a "
                                         "pattern") as error:
        load_pattern(path)
    assert "\\x" not in str(error.value) and "\ufffd" not in str(error.value)
