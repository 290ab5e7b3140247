"""A stand-in for a Life for Two agent's ``numpy.random.Generator`` that draws from a compiled
board stream, so that a protocol agent and its compiled twin
(:mod:`lifearena.games.life_for_two.fast`) can be compared move for move.

Not a test module: ``tests/conftest.py`` puts this folder on ``sys.path``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from lifearena.games.life_for_two import fast
from lifearena.life.kernels.splitmix import below, next_double


class StreamGenerator:
    """Stands in for a protocol agent's ``numpy.random.Generator``: every draw comes from a
    copy of a compiled board stream, consumed as the compiled opponent consumes it."""

    def __init__(self, stream: np.ndarray) -> None:
        self.stream = stream.copy()
        self.probabilities: np.ndarray | None = None

    def random(self, size: int) -> np.ndarray:
        return np.array([next_double(self.stream, 0) for _ in range(size)])

    def integers(self, high: int) -> int:
        return int(below(self.stream, 0, high))

    def choice(self, n: int, size: int | None = None, replace: bool = True,
               p: np.ndarray | None = None) -> Any:
        if p is not None:  # the matrix-game player's draw from its mixed strategy
            self.probabilities = np.asarray(p)
            return int(fast.draw_index(self.probabilities, self.stream, 0))
        assert size is not None and not replace  # greedy's sample of opponent triples
        taken: list[int] = []
        while len(taken) < size:
            k = int(below(self.stream, 0, n))
            if k not in taken:
                taken.append(k)
        return np.array(taken)
