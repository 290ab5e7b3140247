"""The analysis's one scale and its marks.

Every evaluation is an **expected score in [-1, 1] for the side it is given for**: +1 a won
game, -1 a lost one, 0 an even one (a draw, or nothing to choose). A proven result (a
finished game within the search's horizon, an exact solver's answer) is exactly +1, 0 or -1;
a heuristic value is squashed into (-0.9, 0.9) (:func:`squash`), so a proven result always
stands apart from an estimate however large.

A played move is judged by the evaluation it lost, from the mover's side: the evaluation of
the best move minus the evaluation after the move played (never below 0). As lichess marks
drops of winning chances on its [-1, 1] scale, a loss of at least :data:`INACCURACY` is an
inaccuracy (``?!``), at least :data:`MISTAKE` a mistake (``?``), at least :data:`BLUNDER` a
blunder (``??``).

>>> mark_of(0.0999), mark_of(0.1), mark_of(0.2), mark_of(0.3), mark_of(2.0)
(None, 'inaccuracy', 'mistake', 'blunder', 'blunder')
>>> round(squash(3, 10), 3), squash(0, 10), squash(1e9, 10) <= 0.9
(0.262, 0.0, True)
"""

from __future__ import annotations

import math

INACCURACY = 0.1
"""Smallest loss marked an inaccuracy (``?!``)."""
MISTAKE = 0.2
"""Smallest loss marked a mistake (``?``)."""
BLUNDER = 0.3
"""Smallest loss marked a blunder (``??``)."""

MARKS = ("inaccuracy", "mistake", "blunder")
"""The marks, mildest first."""
SYMBOLS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
"""How a move list writes each mark after the move."""

ESTIMATE_CAP = 0.9
"""The largest size of a heuristic evaluation: what is not proven stays inside
(-0.9, 0.9)."""


def squash(value: float, scale: float) -> float:
    """A heuristic ``value`` (a material-like count, pieces for example) as an expected
    score: ``0.9 * tanh(value / scale)``; ``scale`` is the value worth about a third of
    the way to a sure win."""
    return ESTIMATE_CAP * math.tanh(value / scale)


def mark_of(loss: float | None) -> str | None:
    """The mark of a move that lost ``loss`` on the scale (``None``: no mark, or no loss
    known)."""
    if loss is None:
        return None
    loss = round(loss, 9)  # a difference of two evaluations: 0.3 may arrive as 0.29999...
    if loss >= BLUNDER:
        return "blunder"
    if loss >= MISTAKE:
        return "mistake"
    if loss >= INACCURACY:
        return "inaccuracy"
    return None
