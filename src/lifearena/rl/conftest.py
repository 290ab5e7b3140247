"""pytest: the doctests of the torch modules need the ``[rl]`` extra (torch and
Gymnasium); without it, skip them (the README's test command does not install it)."""

from __future__ import annotations

import importlib

TORCH_MODULES = ["network.py", "checkpoint.py", "ppo.py", "torch_agent.py"]


def _missing(library: str) -> bool:
    try:
        importlib.import_module(library)
    except ImportError:
        return True
    return False


collect_ignore = TORCH_MODULES if _missing("torch") or _missing("gymnasium") else []
