"""The compiled grid coin equals :mod:`lifearena.life.coin`'s; the neighbour table lists each
cell's neighbours as Life counts them."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lifearena.life.coin import coin_colour
from lifearena.life.kernels import coin
from lifearena.life.kernels.neighbours import OFFSETS, neighbour_table


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(-(2**63), 2**64 - 1), generation=st.integers(0, 10**6),
       index=st.integers(0, 256 * 256))
def test_the_compiled_coin_is_the_coin(seed: int, generation: int, index: int) -> None:
    word = np.uint64(seed % 2**64)  # the coin takes seeds modulo 2**64
    assert coin.coin_colour(word, generation, index) == coin_colour(seed, generation, index)


@settings(max_examples=60, deadline=None)
@given(height=st.integers(1, 6), width=st.integers(1, 6), torus=st.booleans(),
       data=st.data())
def test_neighbour_counts_from_the_table_are_life_counts(height: int, width: int, torus: bool,
                                                         data: st.DataObject) -> None:
    grid = np.array(data.draw(st.lists(st.integers(0, 1), min_size=height * width,
                                       max_size=height * width)), np.int64)
    table = neighbour_table(height, width, torus)
    assert table.shape == (height * width, 8) and table.dtype == np.int64
    padded = np.append(grid, 0)  # the cell past the grid, always empty
    counted = padded[table].sum(axis=1).reshape(height, width)
    board = grid.reshape(height, width)
    if torus:
        expected = sum(np.roll(board, (-dy, -dx), axis=(0, 1)) for dy, dx in OFFSETS)
    else:
        framed = np.pad(board, 1)
        expected = sum(framed[1 + dy:1 + dy + height, 1 + dx:1 + dx + width]
                       for dy, dx in OFFSETS)
    np.testing.assert_array_equal(counted, expected)


def test_an_empty_grid_is_refused() -> None:
    with pytest.raises(ValueError, match="a 0x3 grid; expected at least 1x1"):
        neighbour_table(0, 3, torus=False)
