"""pytest: the Gymnasium registration's doctests need the ``interop`` extra; without it,
skip that module (``pip install -e ".[interop]"`` to run them)."""

from __future__ import annotations

import importlib.util

collect_ignore = [] if importlib.util.find_spec("gymnasium") else ["envs.py"]
