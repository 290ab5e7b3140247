"""N-tuple networks: a value of War of Life boards read from the raw cells, and the agent
that plays the move whose board after its crank scores best.

An n-tuple network (Lucas, "Learning to play Othello with n-tuple systems", 2008; trained
on afterstates by temporal differences as Szubert and Jaśkowski's for 2048, 2014) sums, over
fixed groups of cells (the *tuples*), one learnt weight per pattern the group shows: each
cell is empty (0), the player's (1) or the opponent's (2), so a tuple of ``K`` cells reads
one of ``3**K`` entries of its table. Here the tuples are every 3 x 3 square of the board,
and the squares that the eight symmetries of the board map onto each other share one table
(the board of War of Life looks the same turned or mirrored, and so do its rules), each
reading its cells in the order the symmetry carries them.

The value of a board is from the side of the player who just moved, the other to move: a
board where the opponent has no piece left is worth 1, one where the player has none -1
(0 when neither has), any other the network's sum. The agent (``policy:ntuple``, or
``policy:FILE.npz`` naming such a file) plays the legal move whose board after its crank is
worth most, the first in tie order when several are worth the same. ``python -m
lifearena.rl.ntuple`` trains one; ``docs/rl.md`` says how and how strong it is.

A network file is a numpy ``.npz``: a JSON header ``meta`` (``format``
:data:`NTUPLE_FORMAT`, ``game``, free-form ``notes`` and the training's figures), the
tables ``weights`` (``T x 3**K`` float32), and the placements: ``cells`` (``P x K``, the
board cells each placement reads, in order, bit ``8 * row + column``) and ``table_of``
(``P``: the table each reads).

>>> network = NTupleNetwork.empty()
>>> network.cells.shape, network.weights.shape  # 6 squares up to symmetry, 8 ways each
((48, 9), (6, 19683))
>>> from lifearena.games.war_of_life import new_game
>>> state = new_game(seed=3)
>>> NTupleAgent(network).act(state, 0) in state.legal_actions(0)
True
"""

from __future__ import annotations

import json
import os
import zipfile
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numba import njit

from lifearena.agents.base import Agent, Limit
from lifearena.core import Action, State
from lifearena.errors import BadParameterError
from lifearena.games.war_of_life.fast import board_to_bits, children

NTUPLE_FORMAT = "lifearena-ntuple-v1"
"""The ``format`` an n-tuple network file's header names."""
SQUARE = tuple((row, column) for row in range(3) for column in range(3))
"""The tuple's shape: a 3 x 3 square, read row by row."""
SIDE = 8
"""War of Life's board is 8 x 8."""
_ONE = np.uint64(1)


def symmetry(row: int, column: int, which: int) -> tuple[int, int]:
    """Cell ``(row, column)`` under the board's symmetry ``which`` (0-7: turned a quarter
    ``which % 4`` times, then mirrored when ``which >= 4``).

    >>> [symmetry(0, 1, k) for k in (0, 1, 4)]
    [(0, 1), (1, 7), (0, 6)]
    """
    for _ in range(which % 4):
        row, column = column, SIDE - 1 - row
    if which >= 4:
        column = SIDE - 1 - column
    return row, column


def placements(shape: tuple[tuple[int, int], ...] = SQUARE) -> tuple[np.ndarray, np.ndarray]:
    """Every placement of ``shape`` on the board, eight a table: ``(cells, table_of)``.

    Each placement not yet met starts a table, read by it under each of the eight
    symmetries (its cells carried in order), so that symmetric boards are worth the same.

    >>> cells, table_of = placements()
    >>> int(table_of.max()) + 1, len(cells)  # the 36 squares fall in 6 kinds
    (6, 48)
    """
    height = max(row for row, _ in shape) + 1
    width = max(column for _, column in shape) + 1
    cells: list[list[int]] = []
    table_of: list[int] = []
    met: set[frozenset[tuple[int, int]]] = set()
    tables = 0
    for top in range(SIDE - height + 1):
        for left in range(SIDE - width + 1):
            base = [(top + row, left + column) for row, column in shape]
            if frozenset(base) in met:
                continue
            for which in range(8):
                moved = [symmetry(row, column, which) for row, column in base]
                met.add(frozenset(moved))
                cells.append([row * SIDE + column for row, column in moved])
                table_of.append(tables)
            tables += 1
    return np.array(cells, np.int64), np.array(table_of, np.int64)


@njit(cache=True)
def pattern(cells: np.ndarray, placement: int, mine: np.uint64, theirs: np.uint64) -> int:
    """The entry of its table that ``placement`` reads on the board ``mine`` / ``theirs``:
    its cells in base 3 (empty 0, the player's 1, the opponent's 2), the first the most
    significant."""
    index = 0
    for k in range(cells.shape[1]):
        bit = np.uint64(cells[placement, k])
        index *= 3
        if (mine >> bit) & _ONE:
            index += 1
        elif (theirs >> bit) & _ONE:
            index += 2
    return index


@njit(cache=True)
def network_value(weights: np.ndarray, cells: np.ndarray, table_of: np.ndarray,
                  mine: np.uint64, theirs: np.uint64) -> float:
    """The network's sum for the board ``mine`` / ``theirs`` (bit masks)."""
    total = 0.0
    for placement in range(cells.shape[0]):
        total += weights[table_of[placement], pattern(cells, placement, mine, theirs)]
    return total


@njit(cache=True)
def board_value(weights: np.ndarray, cells: np.ndarray, table_of: np.ndarray,
                mine: np.uint64, theirs: np.uint64) -> float:
    """The value of a board after the player's move and crank (see the module): 1, -1 or 0
    where a side is gone, else the network's sum."""
    if theirs == np.uint64(0):
        return 0.0 if mine == np.uint64(0) else 1.0
    if mine == np.uint64(0):
        return -1.0
    return network_value(weights, cells, table_of, mine, theirs)


@njit(cache=True)
def move_values(weights: np.ndarray, cells: np.ndarray, table_of: np.ndarray,
                own: np.uint64, other: np.uint64, actions: np.ndarray, values: np.ndarray
                ) -> int:
    """Fill ``actions`` and ``values`` with each legal move of the player to move (``own``)
    in tie order and the value of its board after the crank; answer how many."""
    owns = np.empty(len(actions), np.uint64)
    others = np.empty(len(actions), np.uint64)
    count = children(own, other, actions, owns, others)
    for k in range(count):
        values[k] = board_value(weights, cells, table_of, owns[k], others[k])
    return count


@dataclass(frozen=True)
class NTupleNetwork:
    """A loaded n-tuple network (see the module)."""

    weights: np.ndarray
    cells: np.ndarray
    table_of: np.ndarray
    game: str = "war_of_life"
    meta: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def empty(cls) -> NTupleNetwork:
        """A network of 3 x 3 squares with every weight 0 (where training starts)."""
        cells, table_of = placements()
        weights = np.zeros((int(table_of.max()) + 1, 3 ** cells.shape[1]), np.float64)
        return cls(weights, cells, table_of)

    def value(self, mine: int, theirs: int) -> float:
        """The value of the board ``mine`` / ``theirs`` (bit masks) for ``mine``'s player,
        who just moved."""
        return float(board_value(self.weights, self.cells, self.table_of, np.uint64(mine),
                                 np.uint64(theirs)))


def save_ntuple(path: str | os.PathLike[str], network: NTupleNetwork, **meta: Any) -> None:
    """Write ``network`` to ``path`` (weights as float32), ``meta`` in its header."""
    header = {"format": NTUPLE_FORMAT, "game": network.game, **network.meta, **meta}
    with open(path, "wb") as out:
        np.savez_compressed(out, meta=np.array(json.dumps(header)),
                            weights=network.weights.astype(np.float32),
                            cells=network.cells.astype(np.int16),
                            table_of=network.table_of.astype(np.int32))


def is_ntuple_file(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is an ``.npz`` whose header names :data:`NTUPLE_FORMAT`."""
    try:
        with np.load(path, allow_pickle=False) as data:
            if "meta" not in data.files:
                return False
            return bool(json.loads(str(data["meta"])).get("format") == NTUPLE_FORMAT)
    except (OSError, ValueError, zipfile.BadZipFile, json.JSONDecodeError, AttributeError):
        return False


def load_ntuple(path: str | os.PathLike[str]) -> NTupleNetwork:
    """The network saved in ``path``; :class:`BadParameterError` (one line) for a file
    that is not one."""
    where = f"n-tuple network {os.fspath(path)!r}"
    try:
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(str(data["meta"]))
            weights = np.asarray(data["weights"], np.float64)
            cells = np.asarray(data["cells"], np.int64)
            table_of = np.asarray(data["table_of"], np.int64)
    except (OSError, ValueError, KeyError, zipfile.BadZipFile, json.JSONDecodeError) as error:
        raise BadParameterError(f"{where} cannot be read ({error}); expected an .npz "
                                "written by python -m lifearena.rl.ntuple") from None
    if not isinstance(meta, dict) or meta.get("format") != NTUPLE_FORMAT:
        raise BadParameterError(f"{where}: its header does not name {NTUPLE_FORMAT}")
    if meta.get("game") != "war_of_life":
        raise BadParameterError(f"{where} plays {meta.get('game')!r}; n-tuple networks "
                                "play war_of_life")
    if cells.ndim != 2 or table_of.shape != (len(cells),) or weights.ndim != 2:
        raise BadParameterError(f"{where}: cells, table_of and weights do not fit together")
    if len(cells) and (cells.min() < 0 or cells.max() >= SIDE * SIDE):
        raise BadParameterError(f"{where}: a placement reads a cell off the 8 x 8 board")
    if len(table_of) and (table_of.min() < 0 or table_of.max() >= len(weights)):
        raise BadParameterError(f"{where}: a placement reads a table that is not there")
    if weights.shape[1] != 3 ** cells.shape[1]:
        raise BadParameterError(f"{where}: tables of {weights.shape[1]} entries; expected "
                                f"3**{cells.shape[1]} for tuples of {cells.shape[1]} cells")
    if not np.isfinite(weights).all():
        raise BadParameterError(f"{where}: its weights are not all finite numbers")
    return NTupleNetwork(weights, cells, table_of, meta=meta)


class NTupleAgent(Agent):
    """Plays the move whose board after its crank :class:`NTupleNetwork` values most (see
    the module); with ``temperature=T``, a softmax of the values divided by ``T``, drawn
    from its seeded generator."""

    def __init__(self, network: NTupleNetwork, *, seed: int | None = 0,
                 temperature: float = 0.0, name: str = "ntuple") -> None:
        if not temperature >= 0:
            raise BadParameterError(f"temperature={temperature!r}; expected a number >= 0")
        self.network = network
        self.temperature = float(temperature)
        self.name = name
        self._rng = np.random.default_rng(seed)
        self._actions = np.empty(512, np.int64)
        self._values = np.empty(512, np.float64)

    def act(self, state: State, player: int, limit: Limit | None = None) -> Action:
        blue, red = board_to_bits(state.board)  # type: ignore[attr-defined]
        own, other = (blue, red) if player == 0 else (red, blue)
        network = self.network
        count = move_values(network.weights, network.cells, network.table_of, own, other,
                            self._actions, self._values)
        if count == 0:
            raise BadParameterError(f"player {player} has no legal move in this position")
        values = self._values[:count]
        if self.temperature == 0.0:
            return int(self._actions[int(np.argmax(values))])
        weights = np.exp((values - values.max()) / self.temperature)
        return int(self._actions[int(self._rng.choice(count, p=weights / weights.sum()))])


__all__ = ["NTUPLE_FORMAT", "NTupleAgent", "NTupleNetwork", "board_value", "is_ntuple_file",
           "load_ntuple", "move_values", "network_value", "pattern", "placements", "save_ntuple",
           "symmetry"]
