"""Pictures of grids: PNG stills and animated GIFs (Pillow).

Colour 1 is drawn blue and colour 2 red on a near-black background, so two-player runs read
at a glance; ``scale`` enlarges each cell to a ``scale x scale`` block, and grids larger than
``max_side`` pixels are shrunk by taking, for each block, its most common live colour
(a block with any live cell shows as live).

>>> import numpy as np
>>> image = to_image(np.array([[0, 1], [2, 0]], dtype=np.int8), scale=3)
>>> image.size, image.getpixel((0, 0)), image.getpixel((3, 0))
((6, 6), (12, 12, 20), (64, 140, 255))
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import IO

import numpy as np
from PIL import Image

PALETTE = np.array([(12, 12, 20), (64, 140, 255), (240, 70, 60)], dtype=np.uint8)
MAX_SIDE = 2048
"""Cells drawn along a side at most; a larger grid is shrunk (:func:`downsample`) first."""


def downsample(cells: np.ndarray, factor: int) -> np.ndarray:
    """Shrink by ``factor`` in each direction: a block shows its most common live colour
    (colour 1 on a tie), or empty if it has no live cell."""
    if factor <= 1:
        return cells
    height, width = cells.shape
    h, w = -(-height // factor), -(-width // factor)
    padded = np.zeros((h * factor, w * factor), dtype=np.int8)
    padded[:height, :width] = cells
    blocks = padded.reshape(h, factor, w, factor)
    ones = (blocks == 1).sum(axis=(1, 3))
    twos = (blocks == 2).sum(axis=(1, 3))
    return np.where(ones + twos == 0, 0, np.where(ones >= twos, 1, 2)).astype(np.int8)


def to_image(cells: np.ndarray, *, scale: int = 1, max_side: int = MAX_SIDE) -> Image.Image:
    """An RGB image of a 2-D grid."""
    grid = np.asarray(cells, dtype=np.int8)
    factor = max(1, -(-max(grid.shape) // max_side))
    grid = downsample(grid, factor)
    rgb = PALETTE[grid]
    if scale > 1:
        rgb = rgb.repeat(scale, axis=0).repeat(scale, axis=1)
    return Image.fromarray(rgb, mode="RGB")


def auto_scale(shape: tuple[int, int], target: int = 512) -> int:
    """A whole-number scale that makes a small grid about ``target`` pixels across."""
    return max(1, min(16, target // max(shape)))


def image_size(shape: tuple[int, int], scale: int | None = None) -> tuple[int, int]:
    """``(height, width)`` in pixels of the picture :func:`save_png` and :func:`save_gif`
    draw of a grid of ``shape`` (known before the grid exists, to refuse a huge picture).

    >>> cells = np.zeros((3000, 10), dtype=np.int8)
    >>> image_size(cells.shape, 2), to_image(cells, scale=2).size[::-1]
    ((3000, 10), (3000, 10))
    """
    height, width = shape
    factor = max(1, -(-max(shape) // MAX_SIDE))
    side = scale or auto_scale(shape)
    return -(-height // factor) * side, -(-width // factor) * side


def save_png(path: str | Path | IO[bytes], cells: np.ndarray, *,
             scale: int | None = None) -> None:
    """Write a PNG of ``cells`` (to a file name or a binary stream)."""
    to_image(cells, scale=scale or auto_scale(cells.shape)).save(path, format="PNG")


def save_gif(path: str | Path | IO[bytes], frames: Sequence[np.ndarray], *,
             scale: int | None = None, milliseconds: int = 80) -> None:
    """Write an animated GIF, one frame per grid, looping forever (to a file name or a
    binary stream)."""
    if not frames:
        return
    scale = scale or auto_scale(frames[0].shape)
    images = [to_image(f, scale=scale).convert("P", palette=Image.Palette.ADAPTIVE, colors=4)
              for f in frames]
    images[0].save(path, format="GIF", save_all=True, append_images=images[1:],
                   duration=milliseconds, loop=0, optimize=False)
