"""Pictures of palace numbers: stream rows, fold them into blocks, draw n - k.

The region drawn is a window ``(x, y, w, h)`` (Golly's rectangle) of the quarter-plane, with
y growing downward. Rows are computed by the numba dynamic programme from the origin (rows
above the window are advanced without being drawn) and folded, one block row at a time, into
a histogram of ``n - k`` clipped to ``[-saturation, saturation]`` per block column; the region
itself is never held. Each picture pixel is a ``block x block`` square of the board (blocks
on the right and bottom edges may be cut short) summarised by

* ``mode="mean"``: the mean of the clipped values ``clip(n - k, -sat, sat)`` over the block;
* ``mode="mode"``: the most frequent clipped value (ties go to the smaller value, i.e. the
  side of the palaces).

A block of 1 draws every square exactly. The colour map is diverging and centred at 0:
palaces (n - k < 0) blue, non-palaces (n - k >= 0) red, saturating at ``sat`` units.

>>> picture = fold_picture(3, Window(0, 0, 8, 6))
>>> picture.values.shape, picture.block
((6, 8), 1)
>>> picture.values[0].tolist()   # row y = 0 for k = 3: (0..2, 0) are palaces
[-3.0, -2.0, -1.0, 0.0, 0.0, 0.0, 0.0, 0.0]
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import numpy as np

from lifearena.errors import BadParameterError, ParseError
from lifearena.extras import require
from lifearena.games.blocking_queen import palace_kernels as kernels
from lifearena.games.blocking_queen.palace import check_k

Mode = Literal["mean", "mode"]
MODES: tuple[str, ...] = ("mean", "mode")
Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class Window:
    """A rectangle of squares: columns ``x .. x + w - 1``, rows ``y .. y + h - 1``.

    >>> Window.parse("100, 20, 300, 200")
    Window(x=100, y=20, w=300, h=200)
    >>> Window.square(50)
    Window(x=0, y=0, w=50, h=50)
    """

    x: int
    y: int
    w: int
    h: int

    def __post_init__(self) -> None:
        if min(self.x, self.y) < 0 or min(self.w, self.h) < 1:
            raise BadParameterError(
                f"window {self.x},{self.y},{self.w},{self.h}; expected x, y >= 0 and w, h >= 1"
            )

    @classmethod
    def parse(cls, text: str) -> Window:
        """Read ``"x,y,w,h"`` (four integers separated by commas)."""
        parts = [part.strip() for part in text.split(",")]
        if len(parts) != 4 or not all(re.fullmatch(r"\d+", part) for part in parts):
            raise ParseError(f"window {text!r}; expected four integers 'x,y,w,h'")
        x, y, w, h = (int(part) for part in parts)
        return cls(x, y, w, h)

    @classmethod
    def square(cls, size: int) -> Window:
        """The ``size x size`` square at the origin."""
        return cls(0, 0, size, size)


@dataclass(frozen=True)
class PalacePicture:
    """Downsampled values of n - k over a window, one float per block, ready to draw."""

    k: int
    window: Window
    block: int
    saturation: int
    mode: str
    values: np.ndarray  # float32, shape (ceil(h / block), ceil(w / block))


def choose_block(window: Window, pixels: int) -> int:
    """The smallest block size that fits the window into ``pixels`` pixels each way.

    >>> choose_block(Window.square(100_000), 2000), choose_block(Window(0, 0, 300, 20), 2000)
    (50, 1)
    """
    if pixels < 1:
        raise BadParameterError(f"pixels={pixels}; expected at least 1")
    return max(1, math.ceil(max(window.w, window.h) / pixels))


def fold_picture(
    k: int,
    window: Window,
    *,
    pixels: int = 2000,
    block: int | None = None,
    saturation: int = 4,
    mode: Mode = "mean",
    progress: Progress | None = None,
) -> PalacePicture:
    """Stream the palace numbers of ``window`` into a downsampled picture.

    ``block`` (squares per pixel side) defaults to :func:`choose_block` for ``pixels``.
    ``progress(rows_done, rows_total)`` is called after each block row, where the rows
    counted run from 0 to the window's bottom edge.
    """
    k = check_k(k)
    if mode not in MODES:
        raise BadParameterError(f"downsampling mode {mode!r}; expected one of {', '.join(MODES)}")
    if saturation < 1:
        raise BadParameterError(f"saturation={saturation}; expected at least 1")
    if block is None:
        block = choose_block(window, pixels)
    if not 1 <= block <= 1_000_000 or block * saturation >= 2**31:
        raise BadParameterError(f"block={block} with saturation={saturation}; expected "
                                "1 <= block <= 1,000,000 and block * saturation < 2**31")
    dtype = kernels.counter_dtype(k)
    width = window.x + window.w
    total = window.y + window.h
    col = np.zeros(width, dtype)
    dg = np.zeros(width + total, dtype)  # one counter per diagonal x - y
    out = np.zeros(width, dtype)
    done = 0
    # Rows above the window still shape its counters: advance them without drawing.
    step = max(1, 4_000_000 // width)
    while done < window.y:
        rows = min(step, window.y - done)
        kernels.sparse_advance(k, done, col, dg, out, rows)
        done += rows
        if progress is not None:
            progress(done, total)
    ncols = math.ceil(window.w / block)
    nrows = math.ceil(window.h / block)
    values = np.zeros((nrows, ncols), np.float32)
    levels = np.arange(-saturation, saturation + 1, dtype=np.float64)
    nbins = 2 * saturation + 1
    if mode == "mean":
        per_column = np.zeros(window.w, np.int32)  # |sum| <= block * saturation
        blocks = np.zeros(ncols, np.int64)
    else:
        per_column = np.zeros((window.w, nbins), np.int32)
        blocks = np.zeros((ncols, nbins), np.int64)
    squares = np.full(ncols, block, np.int64)
    squares[-1] = window.w - (ncols - 1) * block
    for i in range(nrows):
        rows = min(block, window.h - i * block)
        per_column[:] = 0
        blocks[:] = 0
        if mode == "mean":
            kernels.fold_rows_sum(k, done, col, dg, out, rows, window.x, saturation,
                                  per_column)
            kernels.reduce_blocks(per_column, block, blocks)
            values[i] = blocks / (squares * rows)
        else:
            kernels.fold_rows_hist(k, done, col, dg, out, rows, window.x, saturation,
                                   per_column)
            kernels.reduce_blocks(per_column, block, blocks)
            values[i] = levels[np.argmax(blocks, axis=1)]
        done += rows
        if progress is not None:
            progress(done, total)
    return PalacePicture(k, window, block, saturation, mode, values)


def render_png(
    picture: PalacePicture,
    path: str | Path,
    *,
    colorbar: bool = True,
    title: str | None = None,
    cmap: str = "RdBu_r",
) -> Path:
    """Draw the picture to a PNG, one image pixel per block, with an optional colour bar.

    The figure is sized so that the image is not resampled: each block is one pixel.
    """
    require("studies", "a palace picture")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    path = Path(path)
    ph, pw = picture.values.shape
    dpi = 100
    left, right, top, bottom = 60, (150 if colorbar else 20), (40 if title else 15), 45
    fig_w, fig_h = pw + left + right, ph + top + bottom
    fig = plt.figure(figsize=(fig_w / dpi, fig_h / dpi), dpi=dpi)
    ax = fig.add_axes((left / fig_w, bottom / fig_h, pw / fig_w, ph / fig_h))
    sat = picture.saturation
    win = picture.window
    extent = (win.x, win.x + win.w, win.y + win.h, win.y)
    image = ax.imshow(picture.values, cmap=cmap, vmin=-sat, vmax=sat, interpolation="nearest",
                      extent=extent, aspect="auto")
    ax.set_xlabel("x")
    ax.set_ylabel("y")
    ax.tick_params(labelsize=7)
    if title:
        ax.set_title(title, fontsize=9)
    if colorbar:
        cax = fig.add_axes(((left + pw + 20) / fig_w, bottom / fig_h, 15 / fig_w,
                            min(ph, 400) / fig_h))
        bar = fig.colorbar(image, cax=cax, ticks=range(-sat, sat + 1))
        label = "n - k" + (" (block mean)" if picture.mode == "mean" and picture.block > 1
                           else " (block mode)" if picture.block > 1 else "")
        bar.set_label(label + f", clipped at ±{sat}", fontsize=8)
        bar.ax.tick_params(labelsize=7)
    fig.savefig(path, dpi=dpi)
    plt.close(fig)
    return path
