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
from numba import njit

if TYPE_CHECKING:
    from lifearena.games.losat import LosatState

WEIGHTS = {"progress": 0.45, "captures": 0.3, "material": 0.1, "mobility": 0.15}


@njit(cache=True)
def _features(board: np.ndarray, counts: np.ndarray, width: int, or_more: bool,
              out: np.ndarray) -> None:
    """One pass over the board: ``out`` gets the top row of a black stone, the bottom row of
    a white stone (-1 if none), the stones of each colour, the growth changes of each colour
    (additions and captures into it) and the changes touching each colour (see
    :func:`liveness`)."""
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


def features(state: LosatState) -> np.ndarray:
    """The raw counts behind the terms (see :func:`_features`), as an int64 array of 8."""
    out = np.empty(8, dtype=np.int64)
    _features(state._board, state._counts, state.params["width"],
              state.params["capture_or_more"], out)
    return out


def _terms(state: LosatState, f: np.ndarray) -> dict[str, float]:
    p = state.params
    length = p["length"]
    black_goal, white_goal = state.goal_rows()
    top, bottom, n_b, n_w, grow_b, grow_w = (int(v) for v in f[:6])

    def score(distance: int) -> float:
        distance = max(distance, 0)
        return 1.0 / (1 + distance) + 0.1 * (1 - distance / length)

    d_black = top - black_goal if n_b else length
    d_white = white_goal - bottom if n_w else length
    progress = (score(d_black) - score(d_white)) / 1.1
    target = p["captures_to_win"]
    caps = state.captures()
    captures = max(-1.0, min(1.0, (caps[0] - caps[1]) / target))
    total = n_b + n_w
    material = (n_b - n_w) / total if total else 0.0
    mobility = (grow_b - grow_w) / (grow_b + grow_w) if grow_b + grow_w else 0.0
    return {"progress": progress, "captures": captures, "material": material,
            "mobility": float(mobility)}


def terms(state: LosatState) -> dict[str, float]:
    """The four terms, from Black's side, each in [-1, 1]."""
    return _terms(state, features(state))


def _squash(state: LosatState, values: dict[str, float], player: int) -> float:
    x = sum(WEIGHTS[k] * v for k, v in values.items())
    value = 0.95 * math.tanh(2 * x)
    return value if player == 0 else -value


def evaluate(state: LosatState, player: int) -> float:
    """The heuristic value of ``state`` for ``player`` (0 Black, 1 White), in [-1, 1]."""
    if state.is_terminal():
        return state.returns()[player]
    return _squash(state, terms(state), player)


def evaluate_and_liveness(state: LosatState, player: int) -> tuple[float, int, int]:
    """:func:`evaluate` of a non-terminal state and :func:`liveness`, from one board pass."""
    f = features(state)
    return _squash(state, _terms(state, f), player), int(f[6]), int(f[7])


def liveness(state: LosatState) -> tuple[int, int]:
    """How many Life changes touch each colour: ``(black, white)``.

    A change touches a colour when it removes, adds or captures a stone of that colour, or
    captures a stone into it. A colour with none is **frozen**: its stones form still lifes
    that nothing on the board can disturb, so it can never reach its goal line. When both
    colours are frozen no move is left at all and the game ends in two passes.

    >>> from lifearena.games import losat
    >>> liveness(losat.new_game())
    (6, 6)
    >>> liveness(losat.from_setup("6/1bb3/1bb1ww/4ww/6/6 b", gap=0))  # two blocks
    (0, 0)
    """
    f = features(state)
    return int(f[6]), int(f[7])
