"""Frames of an animation captured during a run, shrunk to fit, drawn in one common box.

:class:`FrameRecorder` takes a frame of a universe whenever the run asks (the run is never
repeated for its pictures). Each frame keeps only the bounding box of its live cells, shrunk
by a whole power-of-two ``factor`` (each ``factor x factor`` block keeps how many cells of
each colour it holds) chosen so that every frame, and the box that holds them all, fits the
pixel budget: a 4096x4096 soup's 120 frames are kept as 1024x1024 blocks, not refused.
:meth:`FrameRecorder.grids` then draws every frame in the union of the frames' boxes (plus
a small margin), each block showing its most common live colour, so an animation of a
growing pattern keeps one frame for all and shows the pattern moving and growing in it.

A grid without :meth:`blocks` (any :class:`~lifearena.life.universe.Universe`) is read
through ``cells(box)`` and shrunk here.

>>> import numpy as np
>>> from lifearena.life.packed import PackedGrid
>>> from lifearena.life.rules import Rule
>>> cells = np.zeros((64, 64), dtype=np.int8); cells[30, 29:32] = 1
>>> grid = PackedGrid(cells, Rule.named("life"), torus=False)
>>> recorder = FrameRecorder(frames=2, margin=1)
>>> recorder.capture(grid); grid.step(1); recorder.capture(grid)
>>> [frame.shape for frame in recorder.grids()], recorder.box
([(5, 5), (5, 5)], Box(x=28, y=28, width=5, height=5))
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from lifearena import caps
from lifearena.life.universe import Box, Universe

MAX_SIDE = 2048
"""Blocks along a side at most (:data:`lifearena.life.picture.MAX_SIDE`, which a test
holds this to; not imported from there, so that a run without pictures never loads
Pillow)."""

BYTES_PER_PIXEL = 5
"""Memory a GIF frame costs per pixel while it is drawn (the block grid and its image)."""

MARGIN = 2
"""Empty cells drawn round the union of the frames' boxes."""


@dataclass(frozen=True)
class Frame:
    """One captured frame: the block counts of colour 1 and 2 of the blocks ``(row, col)``
    from ``(top, left)`` on, in units of ``factor`` cells (an empty frame has no blocks)."""

    generation: int
    factor: int
    top: int
    left: int
    ones: np.ndarray
    twos: np.ndarray


def _pool(counts: np.ndarray, top: int, left: int, by: int) -> tuple[np.ndarray, int, int]:
    """Sum ``counts`` (blocks from ``(top, left)``) into blocks ``by`` times larger,
    aligned to multiples of ``by``."""
    if by == 1:
        return counts, top, left
    new_top, new_left = top // by, left // by
    rows = (top + counts.shape[0] - 1) // by - new_top + 1
    cols = (left + counts.shape[1] - 1) // by - new_left + 1
    out = np.zeros((rows, cols), dtype=counts.dtype)
    r = (np.arange(counts.shape[0]) + top) // by - new_top
    c = (np.arange(counts.shape[1]) + left) // by - new_left
    np.add.at(out, (r[:, None], c[None, :]), counts)
    return out, new_top, new_left


def _blocks(universe: Universe, box: Box, factor: int) -> tuple[np.ndarray, np.ndarray]:
    blocks = getattr(universe, "blocks", None)
    if blocks is not None:
        ones, twos = blocks(box, factor)
        return np.asarray(ones), np.asarray(twos)
    cells = universe.cells(box)
    one = (cells == 1).astype(np.int32)
    two = (cells == 2).astype(np.int32)
    pooled_one, _, _ = _pool(one, box.y, box.x, factor)
    pooled_two, _, _ = _pool(two, box.y, box.x, factor)
    return pooled_one, pooled_two


class FrameRecorder:
    """Frames of one run, at most ``frames`` of them, each at most ``pixels`` blocks (default:
    what :data:`lifearena.caps.MAX_GIF_BYTES` allows for that many frames, at most
    :data:`lifearena.caps.MAX_PICTURE_PIXELS` and :data:`MAX_SIDE`
    a side)."""

    def __init__(self, frames: int, *, pixels: int | None = None, margin: int = MARGIN) -> None:
        self.limit = frames
        budget = caps.MAX_GIF_BYTES // (BYTES_PER_PIXEL * max(1, frames))
        self.pixels = pixels or min(budget, caps.MAX_PICTURE_PIXELS, MAX_SIDE * MAX_SIDE)
        self.margin = margin
        self.frames: list[Frame] = []
        self.box: Box | None = None
        self.factor = 1

    def _factor_for(self, box: Box) -> int:
        """The least power of two that shrinks ``box`` to at most :attr:`pixels` blocks and
        :data:`MAX_SIDE` a side."""
        factor = self.factor
        while (-(-box.width // factor)) * (-(-box.height // factor)) > self.pixels \
                or max(box.width, box.height) > MAX_SIDE * factor:
            factor *= 2
        return factor

    def capture(self, universe: Universe) -> None:
        """Keep a frame of ``universe`` as it is now."""
        found = universe.bounding_box()
        if found is None:
            self.frames.append(Frame(universe.generation, self.factor, 0, 0,
                                     np.zeros((0, 0), np.int32), np.zeros((0, 0), np.int32)))
            return
        box = Box(found.x - self.margin, found.y - self.margin,
                  found.width + 2 * self.margin, found.height + 2 * self.margin)
        self.box = box if self.box is None else _union(self.box, box)
        self.factor = self._factor_for(self.box)
        ones, twos = _blocks(universe, found, self.factor)
        self.frames.append(Frame(universe.generation, self.factor, found.y // self.factor,
                                 found.x // self.factor, ones, twos))

    def grids(self) -> list[np.ndarray]:
        """Every frame as an int8 grid of the union box's blocks (0 empty, else the block's
        most common live colour, colour 1 on a tie)."""
        if self.box is None:
            return [np.zeros((1, 1), dtype=np.int8) for _ in self.frames]
        f = self.factor
        top, left = self.box.y // f, self.box.x // f
        rows = (self.box.bottom - 1) // f - top + 1
        cols = (self.box.right - 1) // f - left + 1
        out = []
        for frame in self.frames:
            grid = np.zeros((rows, cols), dtype=np.int8)
            if frame.ones.size:
                by = f // frame.factor
                ones, t, x = _pool(frame.ones, frame.top, frame.left, by)
                twos, _, _ = _pool(frame.twos, frame.top, frame.left, by)
                live = ones + twos > 0
                view = grid[t - top : t - top + ones.shape[0], x - left : x - left + ones.shape[1]]
                view[live] = np.where(ones >= twos, 1, 2)[live]
            out.append(grid)
        return out


def _union(one: Box, two: Box) -> Box:
    """The smallest box holding both.

    >>> _union(Box(0, 0, 2, 2), Box(5, -1, 1, 1))
    Box(x=0, y=-1, width=6, height=3)
    """
    x, y = min(one.x, two.x), min(one.y, two.y)
    return Box(x, y, max(one.right, two.right) - x, max(one.bottom, two.bottom) - y)


def fitted_box(universe: Universe, margin: int = MARGIN) -> Box | None:
    """The universe's bounding box with ``margin`` empty cells round it (``None`` if empty)."""
    box = universe.bounding_box()
    if box is None:
        return None
    return Box(box.x - margin, box.y - margin, box.width + 2 * margin, box.height + 2 * margin)
