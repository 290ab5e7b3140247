"""Shared helper for the games' :meth:`~lifearena.core.State.display` hooks: a grid position,
with what its last generation changed, as JSON-able data for pages.

>>> import numpy as np
>>> before = np.array([[1, 1, 1], [0, 0, 0]], dtype=np.int8)
>>> after = np.array([[0, 1, 0], [0, 1, 0]], dtype=np.int8)
>>> data = grid_display(after, before, counts=(2, 0))
>>> data["births"], data["deaths"], data["grid"]["row_labels"]
([[1, 1]], [[0, 0], [0, 2]], ['1', '2'])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np


def changed_cells(before: np.ndarray, after: np.ndarray) -> tuple[list[list[int]],
                                                                   list[list[int]]]:
    """The ``[row, column]`` cells born (empty before, occupied after) and died (occupied
    before, empty after) between two boards of the same shape."""
    born = np.argwhere((before == 0) & (after != 0)).tolist()
    died = np.argwhere((before != 0) & (after == 0)).tolist()
    return born, died


def grid_display(board: np.ndarray, before: np.ndarray | None = None, *,
                 counts: Sequence[int] = (0, 0), count_label: str = "pieces",
                 row_labels: Sequence[str] | None = None,
                 col_labels: Sequence[str] | None = None,
                 **extra: Any) -> dict[str, Any]:
    """The common display of a grid game: cells (0 empty, 1/2 the colours, row 0 at the top),
    labels, piece counts and, when ``before`` (the board just before the last generation) is
    given, that board with the births and deaths of the generation. ``extra`` keys are added
    as they are (game-specific marks)."""
    rows, cols = board.shape
    births, deaths = changed_cells(before, board) if before is not None else ([], [])
    return {
        "grid": {
            "rows": int(rows),
            "cols": int(cols),
            "cells": board.astype(int).tolist(),
            "row_labels": list(row_labels) if row_labels else [str(r + 1) for r in range(rows)],
            "col_labels": list(col_labels) if col_labels else [str(c + 1) for c in range(cols)],
        },
        "counts": [int(c) for c in counts],
        "count_label": count_label,
        "before": None if before is None else before.astype(int).tolist(),
        "births": births,
        "deaths": deaths,
        **extra,
    }


def with_change(shown: dict[str, Any], before: Any) -> dict[str, Any]:
    """``shown`` (a grid game's display) with what changed since ``before`` (the grid's
    cells as they stood before a move) as its ``before``, ``births`` and ``deaths``, where
    ``shown`` has no generation's change of its own to show (a Losat move, which runs no
    generation); otherwise ``shown`` as it is. A stone that changed colour (a capture) is
    neither born nor dead: ``last`` marks it.

    >>> shown = grid_display(np.array([[1, 0]]))
    >>> with_change(shown, [[1, 1]])["deaths"]
    [[0, 1]]
    """
    if shown.get("before") is not None or "grid" not in shown:
        return shown
    earlier = np.asarray(before)
    births, deaths = changed_cells(earlier, np.asarray(shown["grid"]["cells"]))
    return {**shown, "before": earlier.astype(int).tolist(), "births": births,
            "deaths": deaths}
