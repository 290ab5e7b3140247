"""Evaluate two masked policies in the Gymnasium environment of Losat (9x11 board) against
lifearena's greedy agent, from both seats: a uniformly random one, and one that always plays
the highest legal action.

Run: python examples/interop/gymnasium_evaluate.py  (needs: pip install -e ".[interop]")
"""

from __future__ import annotations

import gymnasium
import numpy as np

import lifearena.interop.gymnasium  # noqa: F401 - registers lifearena/<game>-v0

rng = np.random.default_rng(0)
POLICIES = {
    "random": lambda mask: int(rng.choice(np.flatnonzero(mask))),
    "highest": lambda mask: int(np.flatnonzero(mask)[-1]),
}
for name, policy in POLICIES.items():
    for seat in (0, 1):
        env = gymnasium.make("lifearena/losat-v0", opponent="greedy", player=seat,
                             params={"width": 9, "length": 11, "max_moves": 100})
        total, episodes = 0.0, 10
        for episode in range(episodes):
            observation, info = env.reset(seed=episode)
            done = False
            while not done:
                observation, reward, done, truncated, info = env.step(
                    policy(info["action_mask"]))
            total += reward
        print(f"{name:>7} as player {seat} vs greedy: mean return {total / episodes:+.2f} "
              f"over {episodes} games (last: {info['outcome']})")
