"""One run of a :class:`~lifearena.life.universe.Universe` with everything that watches it:
:func:`drive` steps the universe in as few calls as the watchers allow and, on the way,
keeps the population series, captures animation frames and asks a stop condition.

Nothing here unpacks a grid: a :class:`~lifearena.life.packed.PackedGrid` records its
series in compiled code (:meth:`~lifearena.life.packed.PackedGrid.record`), any other
universe answers ``population()`` and ``bounding_box()``.

>>> import numpy as np
>>> from lifearena.life.packed import PackedGrid
>>> from lifearena.life.rules import Rule
>>> blinker = np.zeros((5, 5), dtype=np.int8); blinker[2, 1:4] = 1
>>> ran = drive(PackedGrid(blinker, Rule.named("life"), torus=False), 4, every=2)
>>> ran.generation, ran.rows[:, :3].tolist()
(4, [[0, 3, 0], [2, 3, 0], [4, 3, 0]])
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from lifearena.life.frames import FrameRecorder
from lifearena.life.series import SERIES_COLUMNS, series_row
from lifearena.life.universe import Universe

PROGRESS_GENERATIONS = 4096
"""At most this many generations between two progress calls when a series is recorded
generation by generation outside compiled code."""


@dataclass(frozen=True)
class Driven:
    """How :func:`drive` ended: the generation reached, the series rows (``(n, 7)``, empty
    without ``every``) and whether ``stop`` ended the run early."""

    generation: int
    rows: np.ndarray
    stopped: bool


def frame_every(generations: int, frames: int) -> int:
    """Generations between two frames so that about ``frames`` frames (the start included)
    span ``generations``.

    >>> frame_every(1000, 120), frame_every(5, 120), frame_every(0, 10)
    (9, 1, 1)
    """
    return max(1, math.ceil(generations / max(1, frames - 1)))


def _next_multiple(g: int, n: int) -> int:
    return (g // n + 1) * n


def _series(universe: Universe, generations: int, every: int,
            progress: Callable[[int], None] | None) -> list[np.ndarray]:
    """Step ``generations``, returning the rows of the generations that are multiples of
    ``every`` on the way (compiled when the universe can record)."""
    record = getattr(universe, "record", None)
    out: list[np.ndarray] = []
    end = universe.generation + generations
    if record is not None:
        chunk = max(every, getattr(universe, "chunk", lambda: PROGRESS_GENERATIONS)())
        while universe.generation < end:
            out.append(record(min(chunk, end - universe.generation), every))
            if progress is not None:
                progress(universe.generation)
        return out
    while universe.generation < end:
        target = min(end, _next_multiple(universe.generation, every))
        universe.step(target - universe.generation)
        if universe.generation % every == 0:
            out.append(np.array([series_row(universe)], dtype=np.int64))
        if progress is not None and (universe.generation % PROGRESS_GENERATIONS < every
                                     or universe.generation == end):
            progress(universe.generation)
    return out


def drive(universe: Universe, generations: int, *, every: int | None = None,
          recorder: FrameRecorder | None = None, frame_step: int = 1,
          stop: Callable[[Universe], bool] | None = None, stop_every: int = 1,
          progress: Callable[[int], None] | None = None) -> Driven:
    """Step ``universe`` ``generations`` generations.

    ``every``: keep a row of :data:`~lifearena.life.series.SERIES_COLUMNS` for the start and
    each generation that is a multiple of it. ``recorder``: capture a frame at the start,
    every ``frame_step`` generations and at the end. ``stop(universe)``, asked every
    ``stop_every`` generations, ends the run early when it returns True. ``progress`` is
    called with the generation now and then.
    """
    start = universe.generation
    end = start + generations
    rows: list[np.ndarray] = []
    if every is not None:
        rows.append(np.array([series_row(universe)], dtype=np.int64))
    if recorder is not None:
        recorder.capture(universe)
    stopped = stop is not None and stop(universe)
    while universe.generation < end and not stopped:
        g = universe.generation
        target = end
        if recorder is not None:
            target = min(target, start + _next_multiple(g - start, frame_step))
        if stop is not None:
            target = min(target, _next_multiple(g, stop_every))
        if every is not None:
            rows.extend(_series(universe, target - g, every, progress))
        else:
            universe.step(target - g, progress)
        if stop is not None and universe.generation % stop_every == 0 and stop(universe):
            stopped = True
        if recorder is not None and ((universe.generation - start) % frame_step == 0
                                     or universe.generation == end or stopped):
            recorder.capture(universe)
        if stopped:
            break
    if progress is not None:
        progress(universe.generation)
    table = (np.concatenate(rows) if rows
             else np.zeros((0, len(SERIES_COLUMNS)), dtype=np.int64))
    return Driven(universe.generation, table, stopped)
