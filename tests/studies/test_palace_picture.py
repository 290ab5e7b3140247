"""Pictures of palace numbers: the streamed fold equals downsampling the full array."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lifearena.errors import BadParameterError, ParseError
from lifearena.games.blocking_queen.palace import palace_numbers
from lifearena.studies.palace_picture import Window, choose_block, fold_picture, render_png


def reference_blocks(k: int, window: Window, block: int, sat: int, mode: str) -> np.ndarray:
    """Downsample the whole region held in memory, the slow obvious way."""
    n = palace_numbers(k, window.x + window.w, window.y + window.h).astype(np.int64)
    s = np.clip(n[window.y:, window.x:] - k, -sat, sat)
    rows = -(-window.h // block)
    cols = -(-window.w // block)
    out = np.zeros((rows, cols))
    for i in range(rows):
        for j in range(cols):
            cell = s[i * block:(i + 1) * block, j * block:(j + 1) * block]
            if mode == "mean":
                out[i, j] = cell.mean()
            else:
                values, counts = np.unique(cell, return_counts=True)
                out[i, j] = values[np.argmax(counts)]  # ties: smallest value first
    return out


@settings(max_examples=20, deadline=None)
@given(
    k=st.integers(1, 40),
    x=st.integers(0, 30), y=st.integers(0, 30), w=st.integers(1, 45), h=st.integers(1, 45),
    block=st.integers(1, 7), sat=st.integers(1, 5), mode=st.sampled_from(["mean", "mode"]),
)
def test_fold_equals_downsampled_array(k, x, y, w, h, block, sat, mode) -> None:
    window = Window(x, y, w, h)
    picture = fold_picture(k, window, block=block, saturation=sat, mode=mode)
    expected = reference_blocks(k, window, block, sat, mode)
    assert picture.values.shape == expected.shape
    np.testing.assert_allclose(picture.values, expected, rtol=1e-6)


def test_block_one_shows_every_square() -> None:
    k = 30
    picture = fold_picture(k, Window(5, 7, 60, 40), saturation=100)
    n = palace_numbers(k, 65, 47)
    assert np.array_equal(picture.values, (n[7:, 5:] - k).astype(np.float32))


def test_progress_reaches_the_bottom_row() -> None:
    seen: list[tuple[int, int]] = []
    fold_picture(5, Window(0, 10, 20, 25), block=4, progress=lambda d, t: seen.append((d, t)))
    assert seen[-1] == (35, 35)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)


def test_render_png_writes_an_image(tmp_path) -> None:
    from PIL import Image

    picture = fold_picture(20, Window.square(64), block=2)
    path = render_png(picture, tmp_path / "p.png", title="k = 20")
    with Image.open(path) as image:
        assert image.size[0] > 32 and image.size[1] > 32


def test_window_parsing_and_checks() -> None:
    assert Window.parse("1,2,3,4") == Window(1, 2, 3, 4)
    assert choose_block(Window.square(100_000), 2000) == 50
    with pytest.raises(ParseError, match="'1,2,3'"):
        Window.parse("1,2,3")
    with pytest.raises(BadParameterError, match="window 0,0,0,5"):
        Window(0, 0, 0, 5)
    with pytest.raises(BadParameterError, match="'median'"):
        fold_picture(3, Window.square(5), mode="median")  # type: ignore[arg-type]
