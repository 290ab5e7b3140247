"""pytest: the adapters' doctests need the optional libraries; without them, skip those
modules (``pip install -e ".[interop]"`` to run them)."""

from __future__ import annotations

import importlib.util

_NEEDS = {"openspiel.py": "pyspiel", "pettingzoo.py": "pettingzoo",
          "gymnasium.py": "gymnasium"}

collect_ignore = [module for module, library in _NEEDS.items()
                  if importlib.util.find_spec(library) is None]
