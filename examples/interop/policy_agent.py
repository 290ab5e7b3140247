"""A PettingZoo-style policy that lifearena's tournaments accept as an agent:

    lifearena tournament war-of-life -n 4 --workers 1 \
        -a "crowd=examples/interop/policy_agent.py:crowd,random,bloodlust"

``crowd(observation, action_mask)`` sees what a PettingZoo agent sees: the int8 planes of
``State.observation`` (own pieces, the opponent's, whose turn) and the legal-action mask.
Among the legal actions it prefers the one whose piece (square ``action // 8`` in War of
Life's dense actions, row-major, see lifearena.games.war_of_life) has the most own pieces
around it, the lowest such action on a tie.
"""

from __future__ import annotations

import numpy as np


def crowd(observation: np.ndarray, action_mask: np.ndarray) -> int:
    own = observation[0].astype(int)
    padded = np.pad(own, 1)
    neighbours = sum(np.roll(np.roll(padded, dy, 0), dx, 1)
                     for dy in (-1, 0, 1) for dx in (-1, 0, 1) if (dy, dx) != (0, 0))[1:-1, 1:-1]
    legal = np.flatnonzero(action_mask)
    scores = neighbours.ravel()[legal // 8]
    return int(legal[np.argmax(scores)])
