"""The unbounded plane's common surface: a :class:`Box` in absolute coordinates, the
:class:`Universe` protocol every plane algorithm implements (the sparse tiles of
:mod:`lifearena.life.plane`, HashLife of :mod:`lifearena.life.hashlife`), and
:func:`transition_table`, a rule as one lookup over a cell and its eight neighbours.

Coordinates are Golly's: ``x`` grows to the right, ``y`` downwards, and a pattern read from
a file with ``#CXRLE Pos=x,y`` has its top-left cell at ``(x, y)``. A cell array returned
for a box has shape ``(height, width)`` with cell ``(x, y)`` at ``[y - box.y, x - box.x]``.

>>> Box(-2, 5, 3, 4).right, Box(-2, 5, 3, 4).bottom
(1, 9)
>>> table = transition_table(Rule.named("life"))
>>> int(table[neighbourhood_index(0, [1, 1, 1, 0, 0, 0, 0, 0])])  # three neighbours: birth
1
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import numpy as np

from lifearena.life.rules import Rule

NEIGHBOUR_ORDER = ("NW", "N", "NE", "W", "E", "SW", "S", "SE")
"""The order of the eight neighbours in :func:`neighbourhood_index`."""

CONFIGURATIONS = 3 ** 9
"""Entries of a :func:`transition_table`: a centre of 3 states times 3**8 neighbourhoods."""


@dataclass(frozen=True)
class Box:
    """A rectangle of the plane: top-left cell ``(x, y)``, ``width`` by ``height`` cells."""

    x: int
    y: int
    width: int
    height: int

    @property
    def right(self) -> int:
        """One past the rightmost column."""
        return self.x + self.width

    @property
    def bottom(self) -> int:
        """One past the lowest row."""
        return self.y + self.height


@runtime_checkable
class Universe(Protocol):
    """A pattern on the unbounded plane under one rule, stepped in place.

    Implementations: :class:`lifearena.life.plane.TilePlane` (sparse tiles on the
    bit-parallel kernels; every rule, the coin included) and
    :class:`lifearena.life.hashlife.HashLife` (deterministic rules; steps of 2**k).
    """

    rule: Rule
    generation: int

    def add(self, cells: np.ndarray, x: int = 0, y: int = 0) -> None:
        """Put the live cells of ``cells`` on the plane with its top-left cell at ``(x, y)``."""
        ...

    def step(self, generations: int, progress: Callable[[int], None] | None = None) -> None:
        """Advance ``generations`` generations; ``progress(generation)`` now and then."""
        ...

    def population(self) -> tuple[int, int]:
        """Live cells of colour 1 and of colour 2."""
        ...

    def bounding_box(self) -> Box | None:
        """The smallest box holding every live cell, ``None`` when the plane is empty."""
        ...

    def cells(self, box: Box | None = None) -> np.ndarray:
        """The cells of ``box`` (default: the bounding box; an empty plane gives ``(0, 0)``)."""
        ...


def clipped_cells(box: Box, width: int, height: int,
                  read: Callable[[Box], np.ndarray]) -> np.ndarray:
    """The cells of ``box`` on a ``width x height`` grid: ``read(part)`` gives the part of the
    box inside the grid, and cells outside it read as empty.

    >>> grid = np.arange(6, dtype=np.int8).reshape(2, 3) % 3
    >>> def read(part: Box) -> np.ndarray:
    ...     return grid[part.y:part.bottom, part.x:part.right]
    >>> clipped_cells(Box(1, -1, 3, 2), 3, 2, read).tolist()
    [[0, 0, 0], [1, 2, 0]]
    """
    out = np.zeros((box.height, box.width), dtype=np.int8)
    x0, y0 = max(box.x, 0), max(box.y, 0)
    x1, y1 = min(box.right, width), min(box.bottom, height)
    if x0 < x1 and y0 < y1:
        out[y0 - box.y : y1 - box.y, x0 - box.x : x1 - box.x] = read(
            Box(x0, y0, x1 - x0, y1 - y0))
    return out


def neighbourhood_index(centre: int, neighbours: Sequence[int]) -> int:
    """The :func:`transition_table` index of a cell in state ``centre`` whose neighbours, in
    :data:`NEIGHBOUR_ORDER`, are ``neighbours``: ``centre * 3**8 + sum(n_i * 3**i)``.

    >>> neighbourhood_index(2, [0] * 8), neighbourhood_index(0, [1] + [0] * 7)
    (13122, 1)
    """
    index = 0
    for i, state in enumerate(neighbours):
        index += int(state) * 3 ** i
    return int(centre) * 3 ** 8 + index


class TabulatedRule(Protocol):
    """A rule given directly as its ``(3**9,)`` lookup, such as
    :class:`lifearena.life.lookup_rule.LookupRule`."""

    name: str

    def transition_table(self) -> np.ndarray:
        """The next state for each :func:`neighbourhood_index`."""
        ...


def transition_table(rule: Rule | TabulatedRule) -> np.ndarray:
    """``rule`` as a ``(3**9,)`` int8 lookup: the next state of a cell from its state and its
    eight neighbours' (:func:`neighbourhood_index`); coin entries stay ``COIN`` (3). A rule
    that is already a lookup (:class:`TabulatedRule`) gives its own table.

    >>> table = transition_table(Rule.named("immigration"))
    >>> int(table[neighbourhood_index(0, [2, 2, 1, 0, 0, 0, 0, 0])])  # majority colour
    2
    """
    if not isinstance(rule, Rule):
        return np.asarray(rule.transition_table(), dtype=np.int8)
    powers = 3 ** np.arange(8)
    codes = np.arange(3 ** 8)
    digits = (codes[:, None] // powers[None, :]) % 3
    n1 = (digits == 1).sum(axis=1)
    n2 = (digits == 2).sum(axis=1)
    out = np.empty(CONFIGURATIONS, dtype=np.int8)
    for centre in range(3):
        out[centre * 3 ** 8:(centre + 1) * 3 ** 8] = rule.table[centre, n1, n2]
    return out
