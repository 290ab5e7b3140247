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
The arithmetic itself is written once in :mod:`lifearena.games.losat.fast`
(:func:`~lifearena.games.losat.fast.board_features`,
:func:`~lifearena.games.losat.fast.term_values`, :func:`~lifearena.games.losat.fast.weighted`),
which the compiled ``greedy`` opponent calls compiled and this module calls as it is, so the
two compute the same values to the last bit.

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

import numpy as np

from lifearena.games.losat import fast
from lifearena.games.losat.fast import W_CAPTURES, W_MATERIAL, W_MOBILITY, W_PROGRESS

WEIGHTS = {"progress": W_PROGRESS, "captures": W_CAPTURES, "material": W_MATERIAL,
           "mobility": W_MOBILITY}
FEATURES = ("top_black", "bottom_white", "stones_black", "stones_white", "grow_black",
            "grow_white", "live_black", "live_white")
"""The names of :func:`board_features`' eight counts, in order."""


def board_features(board: np.ndarray, counts: np.ndarray, width: int, *, or_more: bool
                   ) -> np.ndarray:
    """The raw counts behind the terms (named in :data:`FEATURES`), as an int64 array of 8:
    ``board`` is flat (row 0 the top), ``counts`` the ``(2, points)`` neighbour counts of
    black and white, ``or_more`` the ``capture_or_more`` parameter."""
    out = np.empty(8, dtype=np.int64)
    fast.board_features(board, counts, width, or_more, out)
    return out


def heuristic_terms(features: np.ndarray, *, length: int, goals: tuple[int, int],
                    captures: tuple[int, int], captures_to_win: int) -> dict[str, float]:
    """The four terms, from Black's side, each in [-1, 1], from :func:`board_features`,
    the board length, the goal rows ``(black, white)`` (row 0 the top) and the captures."""
    top, bottom, n_b, n_w, grow_b, grow_w = (int(v) for v in features[:6])
    progress, captured, material, mobility = fast.term_values(
        top, bottom, n_b, n_w, grow_b, grow_w, length, goals[0], goals[1], captures[0],
        captures[1], captures_to_win)
    return {"progress": progress, "captures": captured, "material": material,
            "mobility": float(mobility)}


def squash(values: dict[str, float], player: int) -> float:
    """The weighted sum of the terms squashed into (-0.95, 0.95), for ``player`` (0 Black)."""
    value = fast.weighted(values["progress"], values["captures"], values["material"],
                          values["mobility"])
    return value if player == 0 else -value
