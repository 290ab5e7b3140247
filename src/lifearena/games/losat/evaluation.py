"""The default Losat position heuristic (``LosatState.evaluate``), in [-1, 1], on plain arrays.

Four terms, each from Black's side and in [-1, 1], weighted and squashed:

* **progress** (weight 0.45): how close each colour's most advanced stone is to its goal line.
  With ``d`` the rows still to go, a colour scores ``1 / (1 + d)`` (a stone one row short
  scores 1/2: threats near the line matter far more than distant gains) plus a tenth of
  ``1 - d / length`` so that far-off progress still counts; Black's score minus White's.
* **captures** (0.3): ``(captures_b - captures_w) / captures_to_win``.
* **material** (0.1): ``(stones_b - stones_w) / (stones_b + stones_w)``.
* **mobility** (0.15): the changes that would make a stone of each colour (additions and
  captures of that colour), ``(m_b - m_w) / (m_b + m_w)``: room to grow towards the goal.

The sum is squashed with ``0.95 * tanh(2 x)`` so that it never reaches a real win or loss
(terminal states return their true value, +1 / -1 / 0: :meth:`LosatState.evaluate
<lifearena.games.losat.LosatState.evaluate>` handles them).

This module knows nothing of the state class: it reads a flat board (0 empty, 1 black,
2 white; row 0 at the top), the ``(2, points)`` neighbour counts of each colour and the
game's parameters, so that :mod:`lifearena.games.losat` calls it and never the other way.

>>> import numpy as np
>>> from lifearena.life.kernels.numpy_step import neighbour_counts
>>> board = np.zeros(25, dtype=np.int8); board[[6, 7, 8]] = 1; board[[16, 17, 18]] = 2
>>> grid = board.reshape(5, 5)
>>> counts = np.stack([neighbour_counts(grid == c, torus=False).ravel() for c in (1, 2)])
>>> counts = counts.astype(np.int16)  # as the state keeps them
>>> f = board_features(board, counts, 5, or_more=False)
>>> f.tolist()  # top black row, bottom white row, stones, growth, liveness
[1, 3, 3, 3, 2, 2, 4, 4]
>>> values = heuristic_terms(f, length=5, goals=(0, 4), captures=(0, 0), captures_to_win=5)
>>> values["material"], values["mobility"], round(values["progress"], 3)
(0.0, 0.0, 0.0)
>>> squash(values, 0)
0.0
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

WEIGHTS = {"progress": 0.45, "captures": 0.3, "material": 0.1, "mobility": 0.15}
FEATURES = ("top_black", "bottom_white", "stones_black", "stones_white", "grow_black",
            "grow_white", "live_black", "live_white")
"""The names of :func:`board_features`' eight counts, in order."""


@njit(cache=True)
def _features(board: np.ndarray, counts: np.ndarray, width: int, or_more: bool,
              out: np.ndarray) -> None:
    """One pass over the board: ``out`` gets the top row of a black stone, the bottom row of
    a white stone (-1 if none), the stones of each colour, the growth changes of each colour
    (additions and captures into it) and the changes touching each colour (see
    :meth:`LosatState.liveness <lifearena.games.losat.LosatState.liveness>`)."""
    top, bottom = -1, -1
    n_b = n_w = grow_b = grow_w = live_b = live_w = 0
    for point in range(board.size):
        v = board[point]
        cb, cw = counts[0, point], counts[1, point]
        if v == 0:
            if cb == 3:
                grow_b += 1
                live_b += 1
            if cw == 3:
                grow_w += 1
                live_w += 1
        elif v == 1:
            n_b += 1
            if top < 0:
                top = point // width
            into_w = cw >= 3 if or_more else cw == 3
            if into_w:
                grow_w += 1
            # a capture of this stone touches both colours
            if into_w or cb < 2 or cb > 3:
                live_b += 1
            if into_w:
                live_w += 1
        else:
            n_w += 1
            bottom = point // width
            into_b = cb >= 3 if or_more else cb == 3
            if into_b:
                grow_b += 1
            if into_b or cw < 2 or cw > 3:
                live_w += 1
            if into_b:
                live_b += 1
    out[0], out[1], out[2], out[3] = top, bottom, n_b, n_w
    out[4], out[5], out[6], out[7] = grow_b, grow_w, live_b, live_w


def board_features(board: np.ndarray, counts: np.ndarray, width: int, *, or_more: bool
                   ) -> np.ndarray:
    """The raw counts behind the terms (named in :data:`FEATURES`), as an int64 array of 8:
    ``board`` is flat (row 0 the top), ``counts`` the ``(2, points)`` neighbour counts of
    black and white, ``or_more`` the ``capture_or_more`` parameter."""
    out = np.empty(8, dtype=np.int64)
    _features(board, counts, width, or_more, out)
    return out


def heuristic_terms(features: np.ndarray, *, length: int, goals: tuple[int, int],
                    captures: tuple[int, int], captures_to_win: int) -> dict[str, float]:
    """The four terms, from Black's side, each in [-1, 1], from :func:`board_features`,
    the board length, the goal rows ``(black, white)`` (row 0 the top) and the captures."""
    black_goal, white_goal = goals
    top, bottom, n_b, n_w, grow_b, grow_w = (int(v) for v in features[:6])

    def score(distance: int) -> float:
        distance = max(distance, 0)
        return 1.0 / (1 + distance) + 0.1 * (1 - distance / length)

    d_black = top - black_goal if n_b else length
    d_white = white_goal - bottom if n_w else length
    progress = (score(d_black) - score(d_white)) / 1.1
    captured = max(-1.0, min(1.0, (captures[0] - captures[1]) / captures_to_win))
    total = n_b + n_w
    material = (n_b - n_w) / total if total else 0.0
    mobility = (grow_b - grow_w) / (grow_b + grow_w) if grow_b + grow_w else 0.0
    return {"progress": progress, "captures": captured, "material": material,
            "mobility": float(mobility)}


def squash(values: dict[str, float], player: int) -> float:
    """The weighted sum of the terms squashed into (-0.95, 0.95), for ``player`` (0 Black)."""
    x = sum(WEIGHTS[k] * v for k, v in values.items())
    value = 0.95 * math.tanh(2 * x)
    return value if player == 0 else -value
