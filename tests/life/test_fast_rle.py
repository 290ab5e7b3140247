"""The compiled RLE reader and writer equal the plain ones they replace.

Small files go to the plain loops (no numba to load for a glider); here every size goes to
the compiled ones, so that the small random grids test them."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from lifearena.errors import ParseError
from lifearena.life import patterns
from lifearena.life.patterns import read_rle, read_rle_reference, write_rle, write_rle_reference

grids = arrays(np.int8, st.tuples(st.integers(1, 9), st.integers(1, 150)),
               elements=st.sampled_from([0, 0, 0, 1, 2]))
small_grids = arrays(np.int8, st.tuples(st.integers(1, 8), st.integers(1, 40)),
                     elements=st.sampled_from([0, 0, 0, 1, 2]))


@pytest.fixture(autouse=True, scope="module")
def _compiled_for_every_size() -> Iterator[None]:
    kept = patterns.COMPILED_FROM
    patterns.COMPILED_FROM = 0
    yield
    patterns.COMPILED_FROM = kept


@settings(deadline=None)
@given(grids, st.booleans())
def test_fast_writer_equals_the_plain_writer(cells: np.ndarray, one_colour: bool) -> None:
    if one_colour:
        cells = (cells != 0).astype(np.int8)
    assert write_rle(cells, rule="life") == write_rle_reference(cells, rule="life")


@st.composite
def spellings(draw: st.DrawFn) -> tuple[np.ndarray, str]:
    """A grid and one of the many RLE texts that mean it: runs split or merged, explicit
    empty runs, several row ends as one run, blank space and line breaks anywhere between
    tokens, comment lines in the body, text after the '!'."""
    cells = draw(small_grids)
    letters = ("b.", "oA", "B") if np.any(cells == 2) else ("b", "o", "")
    tokens: list[str] = []
    rows_ended = 0
    for y, row in enumerate(cells):
        rows_ended += 1 if y else 0
        row_tokens: list[str] = []
        x = 0
        while x < row.size:
            end = x + 1
            while end < row.size and row[end] == row[x] and draw(st.booleans()):
                end += 1
            symbol = draw(st.sampled_from(letters[row[x]]))
            run = end - x
            if row[x] or end < row.size or draw(st.booleans()):
                row_tokens.append(("" if run == 1 and draw(st.booleans()) else str(run))
                                  + symbol)
            x = end
        if row_tokens:  # empty rows between may be one run: '3$'
            if rows_ended:
                tokens.append(draw(st.sampled_from([f"{rows_ended}$", "$" * rows_ended])))
            rows_ended = 0
            tokens.extend(row_tokens)
    tokens.append("!")
    body = ""
    for token in tokens:
        body += token + draw(st.sampled_from(["", "", "", " ", "\n", "\r\n", "\n#C note\n"]))
    body += draw(st.sampled_from(["", "\n", "trailing words\n"]))
    header = f"#N soup\nx = {cells.shape[1]}, y = {cells.shape[0]}, rule = B3/S23\n"
    return cells, header + body


@settings(max_examples=120, deadline=None)
@given(spellings())
def test_fast_reader_equals_the_plain_reader(spelled: tuple[np.ndarray, str]) -> None:
    cells, text = spelled
    fast, plain = read_rle(text), read_rle_reference(text)
    assert np.array_equal(fast.cells, cells)
    assert np.array_equal(plain.cells, cells)
    assert (fast.rule, fast.comments) == (plain.rule, plain.comments) == ("B3/S23", ["#N soup"])


@pytest.mark.parametrize("text", [
    "x = 3, y = 1\nozo!", "x = 2, y = 1\n3o!", "x = 2, y = 1\no$o!", "x = 2, y = 2\noo$o",
    "x = 2, y = 1\n99999999999999999999999o!", "x = 2, y = 1\noé!",
])
def test_bad_bodies_get_the_plain_readers_message(text: str) -> None:
    with pytest.raises(ParseError) as plain:
        read_rle_reference(text)
    with pytest.raises(ParseError, match=None) as fast:
        read_rle(text)
    assert str(fast.value) == str(plain.value)


def test_a_large_soup_round_trips() -> None:
    cells = np.random.default_rng(5).integers(0, 3, (300, 700)).astype(np.int8)
    assert np.array_equal(read_rle(write_rle(cells)).cells, cells)
