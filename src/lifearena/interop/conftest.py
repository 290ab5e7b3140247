"""pytest: the adapters' doctests need the optional libraries; without them, skip those
modules (``pip install -e ".[interop]"`` to run them)."""

from __future__ import annotations

import importlib

_NEEDS = {"openspiel.py": "pyspiel", "pettingzoo.py": "pettingzoo",
          "gymnasium.py": "gymnasium", "spaces.py": "gymnasium", "sb3.py": "sb3_contrib"}


def _missing(library: str) -> bool:
    try:
        importlib.import_module(library)
    except ImportError:
        return True
    return False


collect_ignore = [module for module, library in _NEEDS.items() if _missing(library)]
