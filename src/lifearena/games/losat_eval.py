"""The default Losat position heuristic (``LosatState.evaluate``), in [-1, 1].

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
(terminal states return their true value, +1 / -1 / 0).

>>> from lifearena.games import losat
>>> evaluate(losat.new_game(), 0)  # the start is symmetric but for the offset
0.0
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from lifearena.games.losat import LosatState

WEIGHTS = {"progress": 0.45, "captures": 0.3, "material": 0.1, "mobility": 0.15}


def terms(state: LosatState) -> dict[str, float]:
    """The four terms, from Black's side, each in [-1, 1]."""
    p = state.params
    width, length = p["width"], p["length"]
    board = state._board
    black_goal, white_goal = state.goal_rows()
    black = np.flatnonzero(board == 1)
    white = np.flatnonzero(board == 2)

    def score(distance: int) -> float:
        distance = max(distance, 0)
        return 1.0 / (1 + distance) + 0.1 * (1 - distance / length)

    d_black = int(black[0]) // width - black_goal if black.size else length
    d_white = white_goal - int(white[-1]) // width if white.size else length
    progress = (score(d_black) - score(d_white)) / 1.1
    target = p["captures_to_win"]
    caps = state.captures()
    captures = max(-1.0, min(1.0, (caps[0] - caps[1]) / target))
    total = black.size + white.size
    material = (black.size - white.size) / total if total else 0.0
    counts = state._counts
    empty = board == 0
    if p["capture_or_more"]:
        grow_b = np.count_nonzero(empty & (counts[0] == 3)) + \
            np.count_nonzero((board == 2) & (counts[0] >= 3))
        grow_w = np.count_nonzero(empty & (counts[1] == 3)) + \
            np.count_nonzero((board == 1) & (counts[1] >= 3))
    else:
        grow_b = np.count_nonzero((board != 1) & (counts[0] == 3))
        grow_w = np.count_nonzero((board != 2) & (counts[1] == 3))
    mobility = (grow_b - grow_w) / (grow_b + grow_w) if grow_b + grow_w else 0.0
    return {"progress": progress, "captures": captures, "material": material,
            "mobility": float(mobility)}


def evaluate(state: LosatState, player: int) -> float:
    """The heuristic value of ``state`` for ``player`` (0 Black, 1 White), in [-1, 1]."""
    if state.is_terminal():
        return state.returns()[player]
    values = terms(state)
    x = sum(WEIGHTS[k] * v for k, v in values.items())
    value = 0.95 * math.tanh(2 * x)
    return value if player == 0 else -value
