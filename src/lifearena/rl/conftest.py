"""pytest: the Gymnasium registration's doctests and the AlphaZero games' descriptions
(which wrap the vector environments) need the ``interop`` extra, the torch
modules' the ``[rl]`` extra (torch and Gymnasium); without them, skip those modules (the
README's test command installs neither)."""

from __future__ import annotations

import importlib.util

TORCH_MODULES = ["network.py", "checkpoint.py", "ppo.py", "torch_agent.py", "alphazero.py",
                 "afterstates.py"]
_GYMNASIUM = importlib.util.find_spec("gymnasium") is not None
_TORCH = importlib.util.find_spec("torch") is not None

collect_ignore = ([] if _GYMNASIUM else ["envs.py", "alphazero_games.py"]) + \
    ([] if _GYMNASIUM and _TORCH else TORCH_MODULES)
