"""Many Life for Two boards at once: the flat 25-cell layout and a batched Immigration step.

Search agents evaluate hundreds of joint moves per turn, so they need one numpy call per
batch rather than one :func:`lifearena.life.step.step` call per board. A board here is a flat
``int8`` vector of 25 cells, index ``(y - 1) * 5 + (x - 1)`` (row-major, y from the top),
values 0 (empty), 1 (``*``, player 1) and 2 (``#``, player 2). The next state comes from the
engine's own rule table (``Rule.named("immigration").table``), so the rule stays data; the
tests check this step against the engine's reference step on random boards.

>>> import numpy as np
>>> boards = np.zeros((1, 25), dtype=np.int8)
>>> boards[0, [7, 13, 17]] = [1, 2, 2]        # the worked example of the instructions
>>> nxt = step_batch(boards)
>>> [(int(i) % 5 + 1, int(i) // 5 + 1, int(nxt[0, i])) for i in np.flatnonzero(nxt[0])]
[(3, 3, 2), (4, 3, 2)]
>>> populations(nxt).tolist()
[[0, 2]]
"""

from __future__ import annotations

import numpy as np

from lifearena.life.rules import Rule

SIZE = 5
CELLS = SIZE * SIZE

_IMMIGRATION = Rule.named("immigration").table


def _neighbour_table() -> np.ndarray:
    """For each cell its 8 neighbours' indices; the index ``CELLS`` stands for "off board"."""
    table = np.full((CELLS, 8), CELLS, dtype=np.intp)
    for cell in range(CELLS):
        y, x = divmod(cell, SIZE)
        k = 0
        for dy in (-1, 0, 1):
            for dx in (-1, 0, 1):
                if dy == dx == 0:
                    continue
                ny, nx = y + dy, x + dx
                if 0 <= ny < SIZE and 0 <= nx < SIZE:
                    table[cell, k] = ny * SIZE + nx
                k += 1
    return table


NEIGHBOURS = _neighbour_table()
"""``NEIGHBOURS[cell]``: the 8 neighbour indices of ``cell`` (``CELLS`` where off the board)."""


def step_batch(boards: np.ndarray) -> np.ndarray:
    """One Immigration generation of every flat board in ``boards`` (shape ``(n, 25)``)."""
    boards = np.asarray(boards, dtype=np.int8)
    padded = np.zeros((boards.shape[0], CELLS + 1), dtype=np.int8)
    padded[:, :CELLS] = boards
    around = padded[:, NEIGHBOURS]  # (n, 25, 8)
    n1 = np.count_nonzero(around == 1, axis=2)
    n2 = np.count_nonzero(around == 2, axis=2)
    after: np.ndarray = _IMMIGRATION[boards, n1, n2]
    return after


def populations(boards: np.ndarray) -> np.ndarray:
    """``(n, 2)``: how many pieces each player has on each board."""
    boards = np.asarray(boards)
    return np.stack([np.count_nonzero(boards == 1, axis=1),
                     np.count_nonzero(boards == 2, axis=1)], axis=1)


def cell_masks(moves: list[tuple[int, ...]]) -> np.ndarray:
    """``(len(moves), 25)`` booleans: the cells of each move (a move is a tuple of cells)."""
    masks = np.zeros((len(moves), CELLS), dtype=bool)
    for row, cells in enumerate(moves):
        masks[row, list(cells)] = True
    return masks


def joint_placements(board: np.ndarray, first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """Every joint placement on one flat ``board``: ``(len(first) * len(second), 25)``.

    ``first`` and ``second`` are cell masks (:func:`cell_masks`) of player 1's and player
    2's candidate moves; row ``i * len(second) + j`` is ``board`` with move ``i`` of player 1
    and move ``j`` of player 2 placed, a cell chosen by both left as it was (empty).

    >>> flat = np.zeros(25, dtype=np.int8)
    >>> joint_placements(flat, cell_masks([(0,), (1,)]), cell_masks([(1,)]))[:, :2].tolist()
    [[1, 2], [0, 0]]
    """
    ones = first[:, None, :] & ~second[None, :, :]
    twos = second[None, :, :] & ~first[:, None, :]
    out = np.where(ones, np.int8(1), np.where(twos, np.int8(2), board[None, None, :]))
    return out.reshape(-1, CELLS).astype(np.int8)
