"""Losat's compiled vector environment beyond the shared checks of
``tests/interop/test_vector.py``: its compiled ``greedy`` opponent."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("gymnasium", reason="needs Gymnasium: pip install -e '.[interop]'")

from lifearena.agents import make
from lifearena.interop.vector import make_vector_env

PARAMS = {"width": 9, "length": 11, "max_moves": 40}


@pytest.mark.parametrize("player", [0, 1])
def test_greedy_opponent_plays_the_agents_choices(player: int) -> None:
    """Every move of the compiled ``greedy`` is among the protocol agent's equally good
    moves on the same position (the two draw among them from different streams)."""
    env = make_vector_env("losat", 3, opponent="greedy", player=player, params=PARAMS)
    env.reset(seed=7)
    agent = make("greedy", game="losat", seed=0)
    checked = 0
    for _ in range(12):
        ended = env._ended.copy()
        for i in np.flatnonzero(~ended):  # the episode before this step, replayed
            state = env.position(i, start=True)
            for action in env.history(i):
                if state.current_player() != player:
                    assert action in agent.choices(state, 1 - player)  # type: ignore[attr-defined]
                    checked += 1
                state.apply_action(action)
        env.step(env.sample_actions())
    assert checked > 12
