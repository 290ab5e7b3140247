"""Small array helpers the games share."""

from __future__ import annotations

import numpy as np


def read_only(array: np.ndarray) -> np.ndarray:
    """A view of ``array`` that cannot be written through (what a state's ``board`` gives).

    >>> board = np.zeros((2, 2), dtype=np.int8)
    >>> shown = read_only(board)
    >>> shown[0, 0] = 1
    Traceback (most recent call last):
    ...
    ValueError: assignment destination is read-only
    >>> board[0, 0] = 1; int(shown[0, 0])  # a view: it follows the board
    1
    """
    view = array.view()
    view.flags.writeable = False
    return view
