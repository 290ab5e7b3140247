"""Random-policy rollouts through PettingZoo: War of Life as an AEC environment, Life for
Two as a ParallelEnv; prints the results and saves the last War of Life board as a PNG.

Run: python examples/interop/pettingzoo_rollout.py  (needs: pip install -e ".[interop]")
"""

from __future__ import annotations

from collections import Counter

import numpy as np
from PIL import Image

from lifearena.interop.pettingzoo import env, parallel_env

rng = np.random.default_rng(0)
results: Counter[str] = Counter()
aec = env("war_of_life", render_mode="rgb_array")
for episode in range(20):
    aec.reset(seed=episode)
    for agent in aec.agent_iter():
        observation, reward, termination, truncation, info = aec.last()
        if termination or truncation:
            if reward > 0:
                results[agent] += 1
            action = None
        else:
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        aec.step(action)
print("War of Life, 20 random games, wins:", dict(sorted(results.items())))
Image.fromarray(aec.render()).save("war_of_life_last.png")
print("last board saved as war_of_life_last.png")

lengths = []
results.clear()
par = parallel_env("life_for_two", params={"max_turns": 100, "limit_result": "population"})
for episode in range(20):
    observations, infos = par.reset(seed=episode)
    turns = 0
    while par.agents:
        actions = {a: int(rng.choice(np.flatnonzero(infos[a]["action_mask"])))
                   for a in par.agents}
        observations, rewards, terminations, truncations, infos = par.step(actions)
        turns += 1
    lengths.append(turns)
    winner = max(rewards, key=rewards.get) if max(rewards.values()) > 0 else "draw"
    results[winner] += 1
print("Life for Two, 20 random games:", dict(sorted(results.items())),
      f"mean length {np.mean(lengths):.1f} turns")
